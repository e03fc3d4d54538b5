"""Outcome rates: their checks, JSON, and measuring them by play, reproducible by seed."""

import json
import random

import pytest

from games.analysis import rates as rates_module
from games.analysis.net import Network
from games.analysis.rates import (
    Rates,
    VariantRates,
    measure,
    outcome_key,
    play_game,
    random_chooser,
)
from games.engine import GameResult


def test_variant_rates_are_checked():
    with pytest.raises(ValueError, match="sum"):
        VariantRates.of([0.5], [0.4])
    with pytest.raises(ValueError, match="negative"):
        VariantRates.of([0.7, -0.1], [0.4])
    with pytest.raises(ValueError, match="3 rates"):
        VariantRates((0.5,), (0.5,))
    rates = VariantRates.of([0.3, 0.2], [0.3, 0.1], tie=0.1)
    assert rates.win == (0.3, 0.2, 0.0) and rates.first_mover_wins == pytest.approx(0.5)
    assert dict(rates.outcomes()) == {1: 0.3, 2: 0.2, 3: 0.0, -1: 0.3, -2: 0.1, -3: 0.0, 0: 0.1}


def test_rates_from_counts():
    rates = VariantRates.from_counts({"+1": 5, "+2": 3, "-1": 1, "-3": 1})
    assert rates.win == (0.5, 0.3, 0.0) and rates.lose == (0.1, 0.0, 0.1) and rates.tie == 0


def test_outcome_key_is_the_first_movers_view():
    assert outcome_key(GameResult("w", "mars", 2), "w") == "+2"
    assert outcome_key(GameResult("w", "mother", 2), "b") == "-2"
    assert outcome_key(GameResult(None, "tie", 0), "b") == "0"


def test_json_round_trip(tmp_path):
    rates = Rates(
        {"tabla": VariantRates.of([0.6], [0.4]), "tapa": VariantRates.of([0.5], [0.4], 0.1)},
        {"seed": 3},
    )
    rates.save(tmp_path / "rates.json")
    loaded = Rates.load(tmp_path / "rates.json")
    assert loaded == rates
    with pytest.raises(ValueError, match="unknown variants"):
        Rates.from_json({"variants": {"chess": {"win": [1.0]}}})
    # the short form: lists of any length up to 3
    small = Rates.from_json(json.loads('{"variants": {"tabla": {"win": [0.5], "lose": [0.5]}}}'))
    assert small["tabla"].lose == (0.5, 0.0, 0.0)


def test_random_games_finish_with_a_result():
    for variant in ("tabla", "gul_bara", "tapa"):
        result = play_game(variant, "b", random_chooser, random.Random(5))
        assert result is not None and result.points in (0, 1, 2)


def test_measuring_is_reproducible_and_falls_back_to_random_play(tmp_path):
    first = measure(tmp_path, games=3, seed=4, variants=["tabla"])  # no weights there
    again = measure(None, games=3, seed=4, variants=["tabla"])
    assert first.variants == again.variants
    info = first.meta["variants"]["tabla"]
    assert info["source"] == "random play" and "load_error" in info
    assert sum(info["counts"].values()) + info["unfinished"] == 6
    assert sum(info["by_first"]["w"].values()) == 3


def test_measuring_with_weights_reads_a_copy(tmp_path, monkeypatch):
    weights = tmp_path / "weights"
    Network.create(196, hidden=4, seed=2).save(weights / "tabla.npz", games=17)
    before = (weights / "tabla.npz").read_bytes()
    opened: list[str] = []
    real_load = Network.load

    def spy(path):
        opened.append(str(path))
        return real_load(path)

    monkeypatch.setattr(rates_module.Network, "load", staticmethod(spy))
    measured = measure(weights, games=2, seed=1, variants=["tabla"])
    info = measured.meta["variants"]["tabla"]
    assert info["source"] == "self-play, 0-ply" and info["weights"]["games"] == 17
    assert opened and not opened[0].startswith(str(weights))
    assert (weights / "tabla.npz").read_bytes() == before
    assert measure(weights, games=2, seed=1, variants=["tabla"]).variants == measured.variants


def test_one_process_per_variant_merged(tmp_path):
    from games.analysis.rates import main

    main(["--games", "1", "--seed", "2", "--variant", "tabla", "--out", str(tmp_path / "a.json")])
    main(["--games", "1", "--seed", "2", "--variant", "tapa", "--out", str(tmp_path / "b.json")])
    out = tmp_path / "rates.json"
    main(["--out", str(out), "--merge", str(tmp_path / "a.json"), str(tmp_path / "b.json")])
    merged = Rates.load(out)
    assert set(merged.variants) == {"tabla", "tapa"} and merged.meta["seed"] == 2
    assert merged.meta["variants"]["tapa"]["games_per_first_mover"] == 1
    with pytest.raises(ValueError, match="twice"):
        Rates.merge([merged, Rates.load(tmp_path / "a.json")])


def test_a_run_written_as_it_goes_is_a_shorter_run(tmp_path):
    seen: list[Rates] = []
    measure(None, games=3, seed=6, variants=["tapa"], checkpoint=seen.append, every=1)
    assert [r.meta["variants"]["tapa"]["games_per_first_mover"] for r in seen] == [1, 2]
    shorter = measure(None, games=2, seed=6, variants=["tapa"])
    assert seen[1].variants == shorter.variants
    assert seen[1].meta["variants"]["tapa"]["counts"] == shorter.meta["variants"]["tapa"]["counts"]
