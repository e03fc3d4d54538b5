"""A mistake's plays drawn on the board before it (games.postgame.mistake_steps, the engine's
step graph; games.board_svg.play_arrows; docs/decisions.md D168): each step an arrow from the
mover's top checker to where it lands, the play made and the better play apart."""

import pytest

from games.board_svg import (
    ARROW_RING,
    ARROW_SPOT,
    board_pieces,
    checker_at,
    column_centre,
    play_arrows,
    point_column,
    tray_at,
)
from games.engine import DEFAULT_OPTIONS, start_position
from games.postgame import Mistake, mistake_steps
from tests.web.positions import position


def mistake(variant, before, dice, made, best, colour="w"):
    return Mistake(1, variant, 7, colour, dice, False, made, best, before, 0.1)


def drawn(variant, before, dice, made, best, colour="w"):
    steps = mistake_steps(mistake(variant, before, dice, made, best, colour), DEFAULT_OPTIONS)
    return play_arrows(steps[0], colour, "made"), play_arrows(steps[1], colour, "best")


def ends(arrows):
    return [(arrow["source"], arrow["target"]) for arrow in arrows]


def x_of(point):
    return column_centre(point_column(point)[0])


def test_each_step_of_both_plays_is_an_arrow_in_white_numbers():
    made, best = drawn(
        "tabla", start_position("tabla", "w").to_json(), [6, 5], "24/18 18/13", "13/7 13/8"
    )
    assert ends(made) == [(24, 18), (18, 13)]
    assert ends(best) == [(13, 7), (13, 8)]
    assert [a["style"] for a in made + best] == ["made"] * 2 + ["best"] * 2
    assert [a["step"] for a in made] == [1, 2]


def test_an_arrow_leaves_the_top_checker_and_ends_where_the_checker_lands():
    before = start_position("tabla", "w").to_json()
    (first, second), _best = drawn("tabla", before, [6, 5], "24/18 18/13", "13/7 13/8")
    # white's two checkers on 24: the ring is round the outer one, the second from the edge
    assert (first["ring"]["x"], first["ring"]["y"]) == checker_at(before, "w", 24)
    assert first["ring"]["x"] == x_of(24) and first["ring"]["y"] == 22 + 3 * 19
    # 18 is empty: the checker lands at the edge of the board, where the next step leaves from
    assert (first["spot"]["x"], first["spot"]["y"]) == (x_of(18), 22 + 19)
    assert (second["ring"]["x"], second["ring"]["y"]) == (first["spot"]["x"], first["spot"]["y"])
    # 13 holds five white checkers: the sixth is drawn on top of them (the stack squeezes)
    assert second["spot"]["x"] == x_of(13)
    line = first["line"]
    assert line["x2"] < line["x1"]  # 24 to 18 runs left along the top row
    assert first["ring"]["r"] == ARROW_RING["made"] and first["spot"]["r"] == ARROW_SPOT["made"]


def test_blacks_own_numbers_are_read_onto_whites_board():
    before = start_position("tabla", "b").to_json()
    made, best = drawn("tabla", before, [6, 5], "24/18 18/13", "13/7 13/8", colour="b")
    assert ends(made) == [(1, 7), (7, 12)]  # black's 24 is white's 1, its 13 white's 12
    assert ends(best) == [(12, 18), (12, 17)]
    assert made[0]["ring"]["x"] == x_of(1) and made[0]["ring"]["y"] > 300  # the bottom row


def test_gjul_bara_black_numbers_run_parallel():
    before = start_position("gul_bara", "b").to_json()
    made, _best = drawn("gul_bara", before, [6, 5], "24/18 18/13", "24/19 24/18", colour="b")
    assert ends(made) == [(12, 6), (6, 1)]  # black's 24 is white's 12


def test_a_hit_lands_on_the_point_the_blot_left():
    before = position(
        "w",
        {
            24: [["w", 2]],
            13: [["w", 5]],
            8: [["w", 3]],
            6: [["w", 5]],
            1: [["b", 2]],
            12: [["b", 5]],
            17: [["b", 3]],
            19: [["b", 4]],
            20: [["b", 1]],
        },
    )
    made, best = drawn("tabla", before, [4, 1], "24/20 6/5", "13/9 6/5")
    hit = made[0]
    assert (hit["source"], hit["target"]) == (24, 20)
    assert (hit["spot"]["x"], hit["spot"]["y"]) == (x_of(20), 22 + 19)  # alone on 20 once hit
    assert ends(best) == [(13, 9), (6, 5)]


def test_a_tapa_pin_lands_on_top_of_the_pinned_checker():
    before = position("w", {24: [["w", 14]], 18: [["w", 1]], 1: [["b", 14]], 20: [["b", 1]]})
    made, _best = drawn("tapa", before, [4, 2], "24/20 20/18", "24/22 18/14")
    pin = made[0]
    assert pin["target"] == 20
    pinned = [p for p in board_pieces(before) if p["kind"] == "checker" and p["point"] == 20]
    assert pin["spot"]["y"] > pinned[0]["y"]  # half over the black checker, away from the edge


def test_a_bear_off_ends_in_the_movers_half_of_the_tray():
    before = position("w", {1: [["w", 5]], 2: [["w", 5]], 3: [["w", 5]], 24: [["b", 15]]})
    made, best = drawn("tabla", before, [6, 1], "3/off 2/1", "3/off 3/2")
    assert ends(made) == [(3, "off"), (2, 1)]
    assert (made[0]["spot"]["x"], made[0]["spot"]["y"]) == tray_at("w")
    assert tray_at("w")[1] > tray_at("b")[1]  # white bears off into the bottom half


def test_a_step_both_plays_make_shows_twice_side_by_side():
    made, best = drawn(
        "tabla", start_position("tabla", "w").to_json(), [6, 4], "24/18 13/9", "24/18 24/20"
    )
    same_made, same_best = made[0]["line"], best[0]["line"]
    assert (made[0]["source"], made[0]["target"]) == (best[0]["source"], best[0]["target"])
    # the two lines run parallel, 10 units apart across their way
    dx, dy = same_made["x2"] - same_made["x1"], same_made["y2"] - same_made["y1"]
    length = (dx * dx + dy * dy) ** 0.5
    assert (same_best["x2"] - same_best["x1"], same_best["y2"] - same_best["y1"]) == pytest.approx(
        (dx, dy), abs=0.2
    )
    across = (same_best["x1"] - same_made["x1"]) * dy - (same_best["y1"] - same_made["y1"]) * dx
    assert abs(across) / length == pytest.approx(10, abs=0.2)


def test_the_arrowhead_points_at_the_spot():
    (arrow, _), _best = drawn(
        "tabla", start_position("tabla", "w").to_json(), [6, 5], "24/18 18/13", "13/7 13/8"
    )
    tip = [float(v) for v in arrow["head"].split()[0].split(",")]
    spot = (arrow["spot"]["x"], arrow["spot"]["y"])
    line = arrow["line"]
    # the tip: 15 short of the spot's centre along the way, 5 across it (the made play's side)
    assert ((tip[0] - spot[0]) ** 2 + (tip[1] - spot[1]) ** 2) ** 0.5 == pytest.approx(
        (15**2 + 5**2) ** 0.5, abs=0.2
    )
    # and beyond the line's end, on its way
    assert (tip[0] - line["x1"]) ** 2 + (tip[1] - line["y1"]) ** 2 > (
        line["x2"] - line["x1"]
    ) ** 2 + (line["y2"] - line["y1"]) ** 2


def test_a_play_not_of_the_decision_draws_nothing():
    steps = mistake_steps(
        mistake("tabla", start_position("tabla", "w").to_json(), [6, 5], "24/18 18/13", "8/2 6/1"),
        DEFAULT_OPTIONS,
    )
    assert steps[1] == []  # 8/2 6/1 is no legal play of 6-5 from the start
    with pytest.raises(ValueError, match="drawn as made or best"):
        play_arrows(steps[0], "w", "other")
