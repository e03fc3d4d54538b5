"""A Tabla position in GNU Backgammon's layout (games/analysis/gnubg_board.py): the board
tuples by hand, and gnubg's own answers for positions whose chances are known exactly (skipped
where the gnubg package is missing, as tests/exports' checks are)."""

import random

import pytest

from games.analysis.encode import mirrored
from games.analysis.gnubg_board import gnubg_board, in_contact
from games.engine import Position, check_play, start_position
from tests.mat import gnubg_board as exported_board

from .helpers import sample_positions

START_ID = "4HPwATDgc/ABMA"  # gnubg's position ID of backgammon's starting position


def board_of(turn: str, white: dict[int, int], black: dict[int, int], **extra) -> Position:
    """A position from white-numbered points: ``{point: checkers}`` of each colour."""
    points: list[tuple[tuple[str, int], ...]] = [() for _ in range(24)]
    for point, count in white.items():
        points[point - 1] = (("w", count),)
    for point, count in black.items():
        points[point - 1] = (("b", count),)
    return Position(turn=turn, points=tuple(points), **extra)


def counts(**points: int) -> tuple[int, ...]:
    """25 counts from ``p<point>=n`` and ``bar=n``."""
    out = [0] * 25
    for key, value in points.items():
        out[24 if key == "bar" else int(key[1:]) - 1] = value
    return tuple(out)


# White 2 on its 24-point, 1 on the bar, 12 borne off; black (white's 1-6 are black's 24-19)
# 3 on white's 1 (black's 24), 4 on white's 20 (black's 5), 8 borne off.
HAND = board_of("w", {24: 2}, {1: 3, 20: 4}, bar=(1, 0), off=(12, 8))


def test_the_side_to_move_is_second_and_each_side_in_its_own_numbering():
    white = counts(p24=2, bar=1)
    black = counts(p24=3, p5=4)
    assert gnubg_board(HAND) == (black, white)
    assert gnubg_board(HAND.with_turn("b")) == (white, black)


def test_a_black_checker_on_the_bar():
    position = board_of("b", {6: 15}, {13: 14}, bar=(0, 1))
    assert gnubg_board(position) == (counts(p6=15), counts(p12=14, bar=1))


def test_the_colour_mirror_is_the_same_board():
    for position in [HAND, *sample_positions("tabla", 200, seed=5)]:
        assert gnubg_board(mirrored("tabla", position)) == gnubg_board(position)


def test_the_same_board_as_the_mat_exports_tests_check_against_gnubgs_import():
    # tests/mat.py's board is compared with the boards gnubg rebuilds from an exported match
    for position in sample_positions("tabla", 300, seed=6):
        assert gnubg_board(position) == exported_board(position, position.turn)


def test_contact_and_race():
    assert in_contact(start_position("tabla"))
    # white's last checker on its 6 and black's on its 1 (white's 24): a race
    assert not in_contact(board_of("w", {6: 1}, {24: 1}, off=(14, 14)))
    assert not in_contact(board_of("b", {6: 1}, {24: 1}, off=(14, 14)))
    # black's checker on its 2 (white's 23) is still ahead of white's on its 24: contact
    assert in_contact(board_of("w", {24: 1}, {23: 1}, off=(14, 14)))
    assert in_contact(board_of("b", {24: 1}, {23: 1}, off=(14, 14)))
    # a checker on the bar is behind everything
    assert in_contact(board_of("w", {}, {1: 1}, bar=(1, 0), off=(14, 14)))


def test_gnubg_reads_the_starting_position(gnubg):
    for turn in "wb":
        board = gnubg_board(start_position("tabla", turn))
        assert board == gnubg.position_from_id(START_ID)
        assert gnubg.evaluate(board)[0] == pytest.approx(0.5, abs=0.05)


def test_gnubg_gives_the_exact_race_chances_of_the_side_to_move(gnubg):
    # White's last checker on its 6-point bears off with 27 of the 36 rolls; black's on its
    # 1-point with any roll: white on roll wins 3/4, black on roll wins always.
    position = board_of("w", {6: 1}, {24: 1}, off=(14, 14))
    assert gnubg.evaluate(gnubg_board(position))[0] == pytest.approx(0.75, abs=1e-4)
    assert gnubg.evaluate(gnubg_board(position.with_turn("b")))[0] == pytest.approx(1.0)
    # the same game with the colours swapped: the same answers
    mirror = mirrored("tabla", position)
    assert gnubg.evaluate(gnubg_board(mirror))[0] == pytest.approx(0.75, abs=1e-4)


def test_gnubg_sees_the_side_to_move_on_the_bar_against_a_closed_board(gnubg):
    # White on the bar against black's six-point prime in white's entry board (white's 19-24,
    # black's 1-6), 3 checkers borne off by black: white cannot enter, black wins nearly always
    # and a gammon most of the time; the side to move's P(win) is small, the opponent's large.
    position = board_of(
        "w", {1: 14}, {19: 2, 20: 2, 21: 2, 22: 2, 23: 2, 24: 2}, bar=(1, 0), off=(0, 3)
    )
    white = gnubg.evaluate(gnubg_board(position))
    black = gnubg.evaluate(gnubg_board(position.with_turn("b")))
    assert white[0] < 0.1 < 0.9 < black[0]


def test_gnubgs_best_plays_are_legal_in_the_engine(gnubg):
    """gnubg's choice for the board and dice, in the side on roll's numbering, is a legal play
    of the engine's position: the side, the direction and the bar are where gnubg sees them.
    (gnubg's move tuples lose a bear-off's "off", so plays with one are not checked.)"""
    rng = random.Random(8)
    # Money play, cube centred, spelled out: a bare cube_info() takes the match gnubg last
    # imported (tests/mat.py's checks, when they ran first in the same process).
    cube = gnubg.cube_info(1, -1, 0, 0, (0, 0), 0, 0)
    context = gnubg.eval_context(0, 0, 1, 0, 0.0)
    checked = 0
    for position in sample_positions("tabla", 300, seed=7):
        dice = [rng.randint(1, 6), rng.randint(1, 6)]
        moves = gnubg.find_best_move(gnubg_board(position), cube, context, dice)
        if len(moves) % 2:
            continue
        steps = [
            f"{'bar' if start == 25 else start}/{end}"
            for start, end in zip(moves[::2], moves[1::2], strict=True)
        ]
        check_play("tabla", position, dice, steps)  # raises IllegalPlayError if not legal
        checked += 1
    assert checked > 250
