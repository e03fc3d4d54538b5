"""Self-play training: 0-ply choice, reproducible, resumable, the command line."""

import io

import numpy as np
import pytest

from games.analysis.net import Network, equity
from games.analysis.player import evaluate_plays, result_chances
from games.analysis.train import ProgressBar, Settings, main, new_network, train
from games.engine import DEFAULT_OPTIONS, GameResult, Position, legal_plays


def test_result_chances():
    assert list(result_chances(GameResult("w", "single", 1), "w")) == [1, 0, 0]
    assert list(result_chances(GameResult("w", "mars", 2), "w")) == [1, 1, 0]
    assert list(result_chances(GameResult("b", "mother", 2), "w")) == [0, 0, 1]
    assert list(result_chances(GameResult(None, "tie", 0), "b")) == [0.5, 0, 0]


def test_the_player_takes_a_play_that_wins_the_game():
    # white bears off its last two checkers with 6-5, or could play 6/1 and not win
    points = [()] * 24
    points = list(points)
    points[5] = (("w", 1),)
    points[4] = (("w", 1),)
    points[23] = (("b", 15),)
    position = Position(turn="w", points=tuple(points), off=(13, 0))
    outcomes = legal_plays("tabla", position, [6, 5])
    network = Network.create(196, hidden=8, seed=1)
    evaluated = evaluate_plays(network, "tabla", position, outcomes, DEFAULT_OPTIONS)
    best = outcomes[evaluated.best()]
    assert best.result == GameResult("w", "mars", 2)
    assert equity(evaluated.chances[evaluated.best()]) == 2
    for index, outcome in enumerate(outcomes):
        row = evaluated.rows[index]
        assert (row == -1) == outcome.ends_game


@pytest.mark.parametrize("variant", ["tabla", "gul_bara", "tapa"])
def test_same_seed_and_games_give_the_same_weights(variant):
    settings = Settings(variant, seed=3, hidden=6)
    first = train(new_network(settings), settings, 2)
    second = train(new_network(settings), settings, 2)
    for a, b in zip(first.parameters(), second.parameters(), strict=True):
        assert np.array_equal(a, b)
    assert first.metadata["games"] == 2 and first.metadata["plies"] > 20
    other = train(new_network(Settings(variant, seed=4, hidden=6)), settings, 2)
    assert not np.array_equal(other.w1, first.w1)
    untrained = new_network(settings)
    assert not np.array_equal(untrained.w1, first.w1)


def test_a_resumed_run_ends_with_the_weights_of_an_uninterrupted_one(tmp_path):
    settings = Settings("tapa", seed=5, hidden=6)
    whole = train(new_network(settings), settings, 3)
    path = tmp_path / "tapa.npz"
    train(new_network(settings), settings, 1, checkpoint=path)
    resumed = train(Network.load(path), settings, 3, checkpoint=path)
    for a, b in zip(whole.parameters(), resumed.parameters(), strict=True):
        assert np.array_equal(a, b)
    saved = Network.load(path)
    assert saved.metadata["games"] == 3
    assert saved.metadata["plies"] == whole.metadata["plies"]
    assert {"time", "commit", "seed", "variant", "lambda", "alpha"} <= set(saved.metadata)


def test_the_command_trains_resumes_and_refuses_other_settings(tmp_path, capsys):
    path = tmp_path / "w.npz"
    common = ["--variant", "tabla", "--seed", "2", "--hidden", "4", "--checkpoint", str(path)]
    main([*common, "--games", "1"])
    main([*common, "--games", "2"])
    err = capsys.readouterr().err
    assert "resuming" in err and "2/2 games" in err
    assert Network.load(path).metadata["games"] == 2
    with pytest.raises(SystemExit):
        main([*common[:-4], "--hidden", "5", "--checkpoint", str(path), "--games", "3"])


def test_the_progress_bar():
    stream = io.StringIO()
    bar = ProgressBar("tapa", 0, stream)
    bar(5, 10, 2.0)
    bar(6, 10, 2.5)  # within a second: not redrawn
    bar(10, 10, 4.0)
    text = stream.getvalue()
    assert "[###############---------------] 5/10 games  2.50 games/s" in text
    assert "6/10" not in text and text.endswith("10/10 games  2.50 games/s  eta 0h00m \n")


def test_a_resume_with_another_step_size_records_the_schedule(tmp_path):
    path = tmp_path / "w.npz"
    common = ["--variant", "gul_bara", "--seed", "3", "--hidden", "4", "--checkpoint", str(path)]
    main([*common, "--games", "1"])
    after_one = Network.load(path)
    main([*common, "--alpha", "0.03", "--games", "2"])
    # the second game was trained with the new step size
    expected = train(after_one, Settings("gul_bara", seed=3, hidden=4, alpha=0.03), 2)
    for a, b in zip(expected.parameters(), Network.load(path).parameters(), strict=True):
        assert np.array_equal(a, b)
    main([*common, "--alpha", "0.01", "--games", "3"])
    main([*common, "--alpha", "0.01", "--games", "4"])  # the same step size: nothing new
    meta = Network.load(path).metadata
    assert meta["games"] == 4 and meta["alpha"] == 0.01
    assert meta["alphas"] == [[0, 0.1], [1, 0.03], [2, 0.01]]
