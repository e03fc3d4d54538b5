"""Refinement (games/analysis/refine.py): rollout targets, a collection that is the same in one
call or several and with any workers, a fit that learns, and the command's provenance."""

import random

import numpy as np
import pytest

from games.analysis.encode import input_size
from games.analysis.net import Network
from games.analysis.ply import reply_chances
from games.analysis.refine import (
    Collect,
    Data,
    collect,
    fit,
    held_out_error,
    lookahead_targets,
    main,
    rollout,
    split,
    targets_of,
)
from games.engine import BLACK, DEFAULT_OPTIONS, WHITE, Position

from .helpers import sample_positions

TINY = {"rollouts": 2, "every": 16}


def last_checkers(turn: str) -> Position:
    """Tabla: white's last two checkers on its 1- and 2-points (any roll bears both off; none
    of black's is off, so white wins a mars), black's fifteen on its own 19-point (white's 6)."""
    points: list[tuple[tuple[str, int], ...]] = [() for _ in range(24)]
    points[0] = ((WHITE, 1),)
    points[1] = ((WHITE, 1),)
    points[5] = ((BLACK, 15),)
    return Position(turn=turn, points=tuple(points), off=(13, 0))


@pytest.fixture
def network(tmp_path):
    net = Network.create(input_size("tabla"), hidden=8, seed=3)
    path = tmp_path / "tabla.npz"
    net.save(path, games=0)
    return net, path


def test_a_forced_end_is_the_target_whatever_the_network(network):
    net, _ = network
    rng = random.Random(1)
    white = last_checkers(WHITE)
    assert np.array_equal(rollout(net, "tabla", white, rng, DEFAULT_OPTIONS), [1.0, 1.0, 0.0])
    targets = targets_of(net, "tabla", [white], 5, rng)
    np.testing.assert_allclose(targets, [[1.0, 1.0, 0.0]])


def test_the_same_data_in_one_call_or_two_and_with_two_workers(network, tmp_path):
    _, path = network
    settings = Collect("tabla", seed=5, **TINY)
    one = collect(path, settings, 30, tmp_path / "one.npz")
    twice = tmp_path / "twice.npz"
    first = collect(path, settings, 5, twice)
    assert len(first.x) >= 5 and first.games < one.games  # stopped early, then goes on
    again = collect(path, settings, 30, twice)
    assert again.games == one.games
    assert np.array_equal(again.x, one.x) and np.array_equal(again.y, one.y)
    parallel = collect(path, settings, 30, tmp_path / "parallel.npz", workers=2)
    assert np.array_equal(parallel.x, one.x) and np.array_equal(parallel.y, one.y)
    loaded = Data.load(tmp_path / "one.npz")
    assert np.array_equal(loaded.x, one.x) and loaded.games == one.games
    assert loaded.metadata["settings"]["rollouts"] == 2
    assert ((one.y >= 0) & (one.y <= 1)).all() and one.x.shape[1] == input_size("tabla")


def test_other_settings_do_not_extend_a_collection(network, tmp_path):
    _, path = network
    collect(path, Collect("tabla", seed=5, **TINY), 3, tmp_path / "data.npz")
    with pytest.raises(ValueError, match="collected with"):
        collect(path, Collect("tabla", seed=6, **TINY), 6, tmp_path / "data.npz")


def taught() -> tuple[Data, Network]:
    """A toy set: 600 random inputs and a teacher network's outputs for them; and a student."""
    rng = np.random.default_rng(0)
    inputs = input_size("tabla")
    teacher = Network.create(inputs, hidden=6, seed=1)
    teacher.w1 *= 4.0
    teacher.w2 *= 4.0
    x = (rng.random((600, inputs)) < 0.2).astype(np.float32)
    data = Data(x, teacher.forward(x.astype(np.float64)), 0, {})
    return data, Network.create(inputs, hidden=6, seed=2)


def test_fitting_learns_a_teacher():
    """Targets from a teacher network on random inputs: the student's held-out error falls."""
    data, student = taught()
    errors = fit(student, data, epochs=20, rate=3e-3, seed=1)
    assert len(errors) == 21
    assert errors[-1] < 0.5 * errors[0]
    train_rows, held = split(600, 1)
    assert len(held) == 60 and not set(train_rows) & set(held)


def test_the_fit_keeps_the_pass_with_the_lowest_held_out_error():
    """A rate too large for the toy set overshoots: the passes after its best are worse, and the
    network is left with the best pass's weights, not the last's."""
    data, student = taught()
    errors = fit(student, data, epochs=20, rate=0.3, seed=1)
    assert min(errors) < errors[-1]
    _, held = split(600, 1)
    kept = held_out_error(student, data.x[held].astype(np.float64), data.y[held])
    assert kept == pytest.approx(min(errors), rel=1e-12)


def test_the_command_collects_fits_and_records_the_provenance(network, tmp_path):
    _, path = network
    data = tmp_path / "rollouts.npz"
    args = ["--variant", "tabla", "--weights", str(path), "--data", str(data), "--seed", "5"]
    assert main(["collect", *args, "--positions", "6", "--rollouts", "2", "--every", "16"]) == 0
    out = tmp_path / "refined.npz"
    fit_args = ["--weights", str(path), "--data", str(data), "--epochs", "2", "--out", str(out)]
    assert main(["fit", *fit_args]) == 0
    refined = Network.load(out)
    meta = refined.metadata["refined"]
    assert meta["positions"] == len(Data.load(data).x) and meta["rollouts"] == 2
    assert meta["epochs"] == 2 and meta["trained_games"] == 0 and "commit" in meta
    assert 0 <= meta["best_pass"] <= 2
    assert refined.metadata["games"] == 0  # the TD games are kept as they were
    # Data from other weights is refused.
    other = tmp_path / "other.npz"
    Network.create(input_size("tabla"), hidden=8, seed=9).save(other, games=0)
    with pytest.raises(SystemExit):
        main(["fit", "--weights", str(other), "--data", str(data), "--out", str(out)])


def test_a_lookahead_teacher_gives_the_1_ply_values(network, tmp_path):
    net, path = network
    settings = Collect("tabla", seed=5, rollouts=0, every=16, teacher="ply1")
    data = collect(path, settings, 6, tmp_path / "ply1.npz")
    assert data.metadata["settings"]["teacher"] == "ply1" and len(data.x) >= 6
    positions = sample_positions("tabla", 5, seed=8)
    values = lookahead_targets(net, "tabla", positions)
    for position, value in zip(positions, values, strict=True):
        np.testing.assert_allclose(value, reply_chances(net, "tabla", position, DEFAULT_OPTIONS))
    # A collection of rollouts is not extended by a lookahead's, nor the other way round.
    with pytest.raises(ValueError):
        collect(path, Collect("tabla", seed=5, **TINY), 12, tmp_path / "ply1.npz")


def test_the_fit_takes_several_data_sets_and_derived_inputs(network, tmp_path):
    _, path = network
    rollouts, lookahead = tmp_path / "rollouts.npz", tmp_path / "ply1.npz"
    collect(path, Collect("tabla", seed=5, **TINY), 6, rollouts)
    teacher = tmp_path / "teacher.npz"
    Network.create(input_size("tabla"), hidden=8, seed=4).save(teacher, games=0)
    collect(teacher, Collect("tabla", seed=6, rollouts=0, every=16, teacher="ply1"), 6, lookahead)
    out = tmp_path / "fitted.npz"
    args = ["--weights", str(path), "--data", str(rollouts), "--data", str(lookahead)]
    assert main(["fit", *args, "--derive", "tabla-1", "--epochs", "2", "--out", str(out)]) == 0
    fitted = Network.load(out)
    meta = fitted.metadata["refined"]
    sizes = [len(Data.load(rollouts).x), len(Data.load(lookahead).x)]
    assert meta["positions"] == sum(sizes) and meta["derived"] == "tabla-1"
    assert [s["positions"] for s in meta["sets"]] == sizes
    assert [s["teacher"] for s in meta["sets"]] == ["rollouts", "ply1"]
    assert fitted.derived == "tabla-1" and fitted.encoded_inputs == input_size("tabla")
    # The lookahead's teacher may be another network; rollouts must be the fitted network's.
    with pytest.raises(SystemExit):
        main(["fit", "--weights", str(teacher), "--data", str(rollouts), "--out", str(out)])
    assert (
        main(["fit", "--weights", str(teacher), "--data", str(lookahead), "--out", str(out)]) == 0
    )
