"""The board geometry: a POSITION becomes checkers, pins, bar, borne-off slabs and dice; the
doubling cube sits in the tray or at its owner's end of the bar."""

from games.board_svg import board_cube, board_frame, board_pieces, point_column
from games.charts import line_chart
from games.engine import start_position
from tests.web.positions import TABLA_BAR_AND_OFF, TAPA_PINS

FULL_BAR = {**TABLA_BAR_AND_OFF, "bar": {"w": 6, "b": 6}}  # four of each drawn on the bar


def kinds(pieces, kind):
    return [piece for piece in pieces if piece["kind"] == kind]


def test_frame_has_24_points_with_both_players_numbers():
    frame = board_frame("tabla")
    assert [p["number"] for p in frame["points"]] == list(range(1, 25))
    assert frame["points"][0]["black_number"] == 24
    assert board_frame("gul_bara")["points"][11]["black_number"] == 24  # black starts on 12


def test_top_row_runs_13_to_24_and_bottom_row_12_to_1():
    columns = [point_column(p) for p in (13, 24, 12, 1)]
    assert columns == [(0, True), (11, True), (0, False), (11, False)]


def test_start_position_draws_all_thirty_checkers_when_stacks_are_short():
    pieces = board_pieces(start_position("tabla", "w").to_json())
    checkers = kinds(pieces, "checker")
    assert len(checkers) == 30 and not any(c["label"] for c in checkers)


def test_a_tall_stack_shows_five_checkers_and_its_count():
    pieces = board_pieces(start_position("gul_bara", "w").to_json())
    on_24 = [c for c in kinds(pieces, "checker") if c["point"] == 24]
    assert len(on_24) == 5 and on_24[-1]["label"] == "15"


def test_pinned_checker_sits_under_its_pinner_at_the_board_edge():
    pieces = board_pieces(TAPA_PINS)
    on_13 = [c for c in kinds(pieces, "checker") if c["point"] == 13]
    assert [(c["colour"], c["pinned"]) for c in on_13] == [("b", True), ("w", False), ("w", False)]
    assert on_13[0]["y"] < on_13[1]["y"] < on_13[2]["y"]  # top row: the edge is at the top
    on_5 = [c for c in kinds(pieces, "checker") if c["point"] == 5]
    assert on_5[0]["colour"] == "w" and on_5[0]["pinned"] and on_5[0]["y"] > on_5[1]["y"]


def test_bar_off_and_dice_are_drawn():
    pieces = board_pieces(TABLA_BAR_AND_OFF, [6, 3])
    bar = [c for c in kinds(pieces, "checker") if c["point"] == "bar"]
    assert sorted(c["colour"] for c in bar) == ["b", "b", "w"]
    assert len(kinds(pieces, "slab")) == 3 and kinds(pieces, "text")[0]["text"] == "3"
    dice = kinds(pieces, "die")
    assert [d["value"] for d in dice] == [6, 3] and len(dice[0]["pips"]) == 6


def test_pending_dice_are_shown_when_no_roll_is_on_the_table():
    position = {**TABLA_BAR_AND_OFF, "pending": [5, 5], "pending_kind": "cascade"}
    dice = kinds(board_pieces(position), "die")
    assert [d["value"] for d in dice] == [5, 5] and all(d["pending"] for d in dice)


def test_line_chart_scales_values_into_the_plot():
    chart = line_chart([1500, 1550], ["a", "b"])
    first, second = chart["dots"]
    assert first["x"] < second["x"] and first["y"] > second["y"]
    assert line_chart([])["dots"] == []


def test_the_middle_cube_shows_64_in_the_tray_between_the_borne_off_checkers():
    cube = board_cube(1)
    frame = board_frame("tabla")
    assert cube["face"] == 64 and cube["owner"] == ""
    assert frame["tray_x"] <= cube["x"] and cube["x"] + cube["size"] <= frame["tray_x"] + 56
    assert cube["y"] < frame["middle"] < cube["y"] + cube["size"]


def test_an_owned_cube_sits_at_its_owners_end_of_the_bar_clear_of_bar_checkers():
    white, black = board_cube(2, "w"), board_cube(4, "b")
    assert (white["face"], black["face"]) == (2, 4)
    assert white["x"] == black["x"] and white["y"] > board_frame("tabla")["middle"] > black["y"]
    bar = [c for c in kinds(board_pieces(FULL_BAR), "checker") if c["point"] == "bar"]
    assert min(c["y"] - c["r"] for c in bar) > black["y"] + black["size"]
    assert max(c["y"] + c["r"] for c in bar) < white["y"]


def test_an_offered_double_shows_the_value_offered():
    assert board_cube(1, offered=True)["face"] == 2
    assert board_cube(2, "b", offered=True)["face"] == 4
