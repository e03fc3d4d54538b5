"""The exact one-sided bear-off tables (games/analysis/bearoff.py) against the engine."""

from dataclasses import replace
from functools import cache

import numpy as np
import pytest

from games.analysis.bearoff import (
    RaceTables,
    Table,
    _value,
    build,
    file_name,
    kind_of,
    main,
    positions,
    race_counts,
)
from games.analysis.encode import input_size
from games.analysis.net import Network, equity, flip
from games.analysis.player import evaluate_plays, position_chances
from games.analysis.ply import ROLLS as PLY_ROLLS
from games.analysis.ply import reply_chances
from games.engine import DEFAULT_OPTIONS, Position, legal_plays
from games.engine.board import to_node
from games.engine.variants import find_variant

SMALL = 4  # checkers: 210 positions, every one checked against the engine
ROLLS = [(a, b) for a in range(1, 7) for b in range(1, a + 1)]
NO_CASCADE = replace(DEFAULT_OPTIONS, cascade=False)


def race(variant, mine, theirs, *, turn="w", rolls=(10, 10), pending=(), kind=None):
    """White's home counts ``mine`` (own points 1-6) against black's ``theirs``, the rest of
    each side's 15 borne off."""
    found = find_variant(variant)
    points = [() for _ in range(24)]
    for colour, counts in (("w", mine), ("b", theirs)):
        for q, n in enumerate(counts, start=1):
            if n:
                points[found.white_point(q, colour) - 1] = ((colour, n),)
    return Position(
        turn=turn,
        points=tuple(points),
        off=(15 - sum(mine), 15 - sum(theirs)),
        rolls=rolls,
        pending=pending,
        pending_kind=kind,
    )


FAR = (0, 0, 0, 0, 0, 1)  # the other side: one checker on its 6-point


def brute_force(variant, options, target):
    """Expected turns by the engine's own legal plays: every roll, every play (and in a cascade
    every stage, the turn going on while the mover has dice pending), the best one. ``target``:
    how many checkers left on the board count as done (0: all off; n - 1: the first one off)."""

    @cache
    def turns(counts):
        if sum(counts) <= target:
            return 0.0
        total = 0.0
        for a, b in ROLLS:
            weight = 1 / 36 if a == b else 2 / 36
            total += weight * finish(race(variant, counts, FAR), [a, b])
        return 1.0 + total

    def finish(position, dice):
        best = np.inf
        for outcome in legal_plays(variant, position, dice, options):
            after = outcome.position
            counts = race_counts(variant, to_node(find_variant(variant), after.with_turn("w")))
            assert counts is not None
            mine = counts[0]
            if outcome.ends_game or sum(mine) <= target:
                value = 0.0
            elif after.turn == "w":
                value = finish(after, None)  # the next stage of the cascade
            else:
                value = turns(mine)
            best = min(best, value)
        return best

    return turns


@pytest.fixture(scope="module")
def small():
    return {kind: build(kind, SMALL) for kind in ("standard", "cascade")}


@pytest.mark.parametrize(
    ("variant", "options", "kind"),
    [
        ("tabla", DEFAULT_OPTIONS, "standard"),
        ("tapa", DEFAULT_OPTIONS, "standard"),
        ("gul_bara", NO_CASCADE, "standard"),
        ("gul_bara", DEFAULT_OPTIONS, "cascade"),
    ],
)
def test_expected_turns_are_the_engines_best_play(small, variant, options, kind):
    assert kind_of(variant, options) == kind
    table = small[kind]
    turns = brute_force(variant, options, 0)
    for i, counts in enumerate(positions(SMALL)):
        assert table.expected[i] == pytest.approx(turns(counts), abs=1e-9), counts
        spread = table.turns[i].astype(np.float64)
        assert spread.sum() == pytest.approx(1.0, abs=1e-6)
        assert spread @ np.arange(spread.size) == pytest.approx(table.expected[i], abs=1e-5)


@pytest.mark.parametrize(
    ("variant", "options"), [("tabla", DEFAULT_OPTIONS), ("gul_bara", DEFAULT_OPTIONS)]
)
def test_first_checker_off_is_the_engines_best_play(small, variant, options):
    table = small[kind_of(variant, options)]
    turns = brute_force(variant, options, SMALL - 1)
    full = [c for c in positions(SMALL) if sum(c) == SMALL]
    assert table.first.shape[0] == len(full)
    for counts in full:
        row = table.first[table.first_row[table.index(counts)]].astype(np.float64)
        assert row @ np.arange(row.size) == pytest.approx(turns(counts), abs=1e-5), counts


@pytest.mark.parametrize(
    ("variant", "options"), [("tapa", DEFAULT_OPTIONS), ("gul_bara", DEFAULT_OPTIONS)]
)
def test_larger_positions_satisfy_the_engines_one_turn_equation(variant, options):
    # Eight checkers (3,003 positions): for a sample, the expected turns are one turn plus the
    # best play's (every stage of a cascade) by the engine's legal plays, read from the table.
    table = build(kind_of(variant, options), 8)
    found = find_variant(variant)

    def finish(position, dice):
        best = np.inf
        for outcome in legal_plays(variant, position, dice, options):
            after = outcome.position
            mine = race_counts(variant, to_node(found, after.with_turn("w")))[0]
            if outcome.ends_game:
                value = 0.0
            elif after.turn == "w":
                value = finish(after, None)
            else:
                value = table.expected[table.index(mine)]
            best = min(best, value)
        return best

    rng = np.random.default_rng(5)
    every = [c for c in positions(8) if sum(c) == 8]
    for pick in rng.choice(len(every), 6, replace=False):
        counts = every[pick]
        total = sum(
            (1 / 36 if a == b else 2 / 36) * finish(race(variant, counts, FAR), [a, b])
            for a, b in ROLLS
        )
        assert table.expected[table.index(counts)] == pytest.approx(1 + total, abs=1e-9), counts


def test_the_cascade_makes_a_difference(small):
    # Four checkers on the 6-point: 1-1 is four single steps in a plain double, but escalates
    # to the stages 1..6 (84 pips) in Gjul Bara and bears everything off.
    i = small["standard"].index((0, 0, 0, 0, 0, 4))
    assert small["cascade"].expected[i] < small["standard"].expected[i]
    assert small["cascade"].turns[i, 1] > small["standard"].turns[i, 1]


def test_save_and_load(small, tmp_path):
    path = tmp_path / file_name("cascade")
    small["cascade"].save(path, note="test")
    loaded = Table.load(path)
    assert loaded.kind == "cascade" and loaded.checkers == SMALL
    assert np.array_equal(loaded.turns, small["cascade"].turns)
    assert np.array_equal(loaded.chain, small["cascade"].chain)
    assert loaded.metadata["note"] == "test"


def test_a_broken_or_foreign_file_counts_as_missing(small, tmp_path):
    small["cascade"].save(tmp_path / file_name("standard"))  # the cascade table, misnamed
    assert RaceTables.load_from(tmp_path) is None
    (tmp_path / file_name("standard")).write_bytes(b"PK\x03\x04 not a table")  # a broken zip
    assert RaceTables.load_from(tmp_path) is None
    (tmp_path / file_name("cascade")).write_bytes(b"not even a zip")
    assert RaceTables.load_from(tmp_path) is None


def test_the_command_writes_the_tables(tmp_path, capsys):
    assert main(["build", "--variant", "all", "--out", str(tmp_path), "--checkers", "3"]) == 0
    assert "standard: 84 positions" in capsys.readouterr().out
    races = RaceTables.load_from(tmp_path)
    assert races is not None and set(races.tables) == {"standard", "cascade"}


# --- a race's chances ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def races(small):
    return RaceTables(small)


def chances(races, variant, *args, **kwargs):
    return races.position_chances(variant, race(variant, *args, **kwargs), DEFAULT_OPTIONS)


@pytest.mark.parametrize("variant", ["tabla", "gul_bara", "tapa"])
def test_one_checker_each_on_the_one_point(races, variant):
    one = (1, 0, 0, 0, 0, 0)
    assert chances(races, variant, one, one) == pytest.approx([1.0, 0.0, 0.0])
    assert chances(races, variant, one, one, turn="b") == pytest.approx([1.0, 0.0, 0.0])


def test_the_race_formula_by_hand(races):
    # White on roll with one checker on its 6-point against one on black's 1-point: white
    # wins now with any roll of at least 6 pips (the last checker may go off with a higher
    # die once it is the highest: 4-3 plays 6/2/off), else black wins with any roll.
    p = chances(races, "tabla", (0, 0, 0, 0, 0, 1), (1, 0, 0, 0, 0, 0))
    pairs = sum(1 for a, b in ROLLS if a != b and a + b >= 6)
    doubles = sum(1 for a, b in ROLLS if a == b and 4 * a >= 6)
    assert (pairs, doubles) == (11, 5)
    assert p[0] == pytest.approx((2 * pairs + doubles) / 36)
    assert p[1] == p[2] == 0.0  # both sides have borne off 14: no mars either way


def test_mars_chances(races):
    # The formula on the 4-checker table, its full positions playing the part of a side that
    # has borne off none (as the 15-checker table's do).
    table = races.tables["standard"]
    me, them = table.index((1, 0, 0, 0, 0, 0)), table.index((0, 0, 0, 0, 0, 4))
    value = _value(table, me, them, on_roll=True)
    assert value == pytest.approx([1.0, 1.0, 0.0])  # done before black bears a checker off
    reverse = _value(table, them, me, on_roll=True)
    # Black on roll with four on its 6-point must bear them all off at once (only 6-6 does,
    # or a double that escalates: not in the standard table) to avoid the loss.
    assert reverse[0] == pytest.approx(1 / 36)
    # ...and loses a mars unless it bears one off now: any 6, or one checker taken exactly 6
    # pips (5-1, 4-2, 2-2, 3-3); a higher total does not help while the 6-point is held.
    first_now = table.first[table.first_row[them], 1]
    assert reverse[2] == pytest.approx(1 - first_now)
    assert first_now == pytest.approx((11 + 2 + 2 + 1 + 1) / 36)


def test_not_a_race(races):
    # A checker outside its home board, or a cascade that would not escalate yet.
    assert chances(races, "tabla", (1, 0, 0, 0, 0, 0), (1, 0, 0, 0, 0, 0)) is not None
    found = find_variant("tabla")
    position = race("tabla", (1, 0, 0, 0, 0, 0), (1, 0, 0, 0, 0, 0))
    points = list(position.points)
    points[found.white_point(7, "w") - 1] = (("w", 1),)
    moved = replace(position, points=tuple(points), off=(13, 14))
    assert races.position_chances("tabla", moved, DEFAULT_OPTIONS) is None
    early = race("gul_bara", (1, 0, 0, 0, 0, 0), (1, 0, 0, 0, 0, 0), rolls=(1, 1))
    assert races.position_chances("gul_bara", early, DEFAULT_OPTIONS) is None
    assert races.position_chances("gul_bara", early, NO_CASCADE) is not None


def test_a_pending_cascade_is_played_to_its_end(races):
    # White in the middle of a chain with stages 5 and 6 to come: two checkers on its 6-point
    # go off in the 6s, so white wins before black rolls again.
    position = race(
        "gul_bara",
        (0, 0, 0, 0, 0, 2),
        (0, 0, 0, 0, 0, 4),
        pending=(5, 5, 5, 5, 6, 6, 6, 6),
        kind="cascade",
    )
    assert races.position_chances("gul_bara", position, DEFAULT_OPTIONS) == pytest.approx([1, 0, 0])
    # Only stage 6 to come: 6/off 6/off all the same.
    last = replace(position, pending=(6, 6, 6, 6))
    assert races.position_chances("gul_bara", last, DEFAULT_OPTIONS) == pytest.approx([1, 0, 0])
    # Cascade stages 5 and 6 from four checkers on the 2-point: 2 off with the 5s, 2 with 6s.
    four = race(
        "gul_bara",
        (0, 4, 0, 0, 0, 0),
        (0, 0, 0, 0, 0, 4),
        pending=(5,) * 4 + (6,) * 4,
        kind="cascade",
    )
    assert races.position_chances("gul_bara", four, DEFAULT_OPTIONS)[0] == pytest.approx(1.0)
    # A remainder is not the table's: the network answers.
    handed = replace(position, pending=(5, 5), pending_kind="remainder")
    assert races.position_chances("gul_bara", handed, DEFAULT_OPTIONS) is None


# --- the evaluator uses the tables, and works without them --------------------------------------


def test_evaluate_plays_takes_the_exact_value(races):
    network = Network.create(input_size("tabla"), hidden=8, seed=3)
    position = race("tabla", (0, 0, 1, 0, 0, 1), (0, 1, 0, 0, 1, 0))
    outcomes = legal_plays("tabla", position, [2, 1], DEFAULT_OPTIONS)
    plain = evaluate_plays(network, "tabla", position, outcomes, DEFAULT_OPTIONS).chances
    network.races = races
    exact = evaluate_plays(network, "tabla", position, outcomes, DEFAULT_OPTIONS).chances
    assert not np.allclose(plain, exact)
    for outcome, row in zip(outcomes, exact, strict=True):
        after = outcome.position
        expected = races.position_chances("tabla", after, DEFAULT_OPTIONS)
        assert np.allclose(row, flip(expected))
    values = position_chances(network, "tabla", [position], DEFAULT_OPTIONS)
    assert np.allclose(values[0], races.position_chances("tabla", position, DEFAULT_OPTIONS))


def test_one_ply_takes_the_exact_values_too(races):
    """1-ply (games.analysis.ply): a home race is the tables' value, and so is every reply that
    leaves one; a reply that leaves a position the tables do not know keeps the network's."""
    network = Network.create(input_size("tabla"), hidden=8, seed=5)
    home = race("tabla", (0, 0, 1, 0, 0, 1), (0, 1, 0, 0, 1, 0))
    network.races = races
    exact = races.position_chances("tabla", home, DEFAULT_OPTIONS)
    assert np.allclose(reply_chances(network, "tabla", home, DEFAULT_OPTIONS), exact)
    # White's checker on its 8-point: not a home race, so 1-ply looks at white's replies. Each
    # roll's best reply, worked out with 0-ply's own evaluation (which takes the tables).
    found = find_variant("tabla")
    points = list(home.points)
    points[found.white_point(3, "w") - 1] = ()
    points[found.white_point(8, "w") - 1] = (("w", 1),)
    away = replace(home, points=tuple(points))
    assert races.position_chances("tabla", away, DEFAULT_OPTIONS) is None
    expected = np.zeros(3)
    for (high, low), weight in PLY_ROLLS:
        outcomes = legal_plays("tabla", away, [high, low], DEFAULT_OPTIONS)
        values = evaluate_plays(network, "tabla", away, outcomes, DEFAULT_OPTIONS).chances
        expected += weight * values[int(np.argmax(equity(values)))]
    got = reply_chances(network, "tabla", away, DEFAULT_OPTIONS)
    assert np.allclose(got, expected, atol=1e-12)
    network.races = None
    assert not np.allclose(reply_chances(network, "tabla", away, DEFAULT_OPTIONS), got)


def test_a_play_cannot_make_a_race_while_the_opponent_is_out(races):
    home = race("tabla", (0, 0, 1, 0, 0, 1), (0, 1, 0, 0, 1, 0))
    assert races.may_answer("tabla", home)
    found = find_variant("tabla")
    points = list(home.points)
    points[found.white_point(2, "b") - 1] = ()
    points[found.white_point(8, "b") - 1] = (("b", 1),)  # black's checker outside its home
    away = replace(home, points=tuple(points))
    assert not races.may_answer("tabla", away)
    assert races.may_answer("tabla", away.with_turn("b"))  # white, not to move, is home


def test_without_tables_the_network_answers(tmp_path):
    assert RaceTables.load_from(tmp_path) is None
    network = Network.create(input_size("gul_bara"), hidden=8, seed=4)
    position = race("gul_bara", (0, 0, 1, 0, 0, 1), (0, 1, 0, 0, 1, 0))
    values = position_chances(network, "gul_bara", [position], DEFAULT_OPTIONS)
    from games.analysis.encode import encode

    assert np.allclose(values[0], network.forward(encode("gul_bara", position)))


def test_a_table_too_small_answers_nothing(races):
    # The 4-checker test tables do not know five checkers: the network answers.
    assert chances(races, "tabla", (5, 0, 0, 0, 0, 0), (1, 0, 0, 0, 0, 0)) is None
