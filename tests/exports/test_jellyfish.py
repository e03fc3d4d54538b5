"""The Jellyfish .mat export, read back by an independent parser and by GNU Backgammon.

The sample match is played with random legal plays from a fixed seed, so it holds hits, bar
entries, passes, bear-offs, a mars and a resignation (test_sample_match_covers_the_cases guards
that). Positions are compared after every turn: the engine's replay of the record against the
engine's replay of the parsed file, and against the boards gnubg rebuilds when it imports it.
"""

from __future__ import annotations

import datetime
import random
from dataclasses import dataclass, replace
from typing import Any

import pytest

from games.engine import (
    BLACK,
    DEFAULT_OPTIONS,
    WHITE,
    GameResult,
    MatchState,
    Position,
    check_play,
    legal_plays,
    match_winner,
    next_game,
    opening_roll,
    opponent,
    record_game,
    resignation_result,
    start_position,
)
from games.exports.jellyfish import (
    GameRecord,
    MatchRecord,
    MatExportError,
    TurnRecord,
    to_mat,
)
from tests.mat import gnubg_board, parse_mat
from tests.mat import gnubg_import as read_with_gnubg

SEED = 20261122
MATCH_LENGTH = 7
RESIGN_AFTER_TURNS = 40  # the second Tabla game of the sample ends by a resignation


# --- a sample match from random legal plays ----------------------------------------------------


def play_game(
    rng: random.Random, variant: str, starter: str, resign_after: int | None
) -> tuple[list[TurnRecord], GameResult]:
    position = start_position(variant, starter)
    turns: list[TurnRecord] = []
    while True:
        if resign_after is not None and len(turns) >= resign_after:
            return turns, resignation_result(position.turn, "single")
        dice = None if position.pending else (rng.randint(1, 6), rng.randint(1, 6))
        outcome = rng.choice(legal_plays(variant, position, dice))
        turns.append(TurnRecord(position.turn, dice, tuple(outcome.play.to_json())))
        if outcome.result is not None:
            return turns, outcome.result
        position = outcome.position


def play_match(seed: int, length: int) -> MatchRecord:
    rng = random.Random(seed)
    options = replace(DEFAULT_OPTIONS, match_length=length)
    state = MatchState()
    games: list[GameRecord] = []
    while match_winner(state, options) is None:
        upcoming = next_game(state, options)
        starter = upcoming.starter
        if starter is None:
            starter = opening_roll(lambda: rng.randint(1, 6)).starter
        white_player = rng.choice((1, 2))
        colours = (WHITE, BLACK) if white_player == 1 else (BLACK, WHITE)  # players 1, 2
        tabla_so_far = sum(game.variant == "tabla" for game in games)
        resign = RESIGN_AFTER_TURNS if upcoming.variant == "tabla" and tabla_so_far == 1 else None
        turns, result = play_game(rng, upcoming.variant, colours[starter], resign)
        game = GameRecord(
            number=len(games) + 1,
            variant=upcoming.variant,
            white_player=white_player,
            scores=state.scores,
            turns=tuple(turns),
            winner=result.winner,
            points=result.points,
        )
        games.append(game)
        winner = None if result.winner is None else colours.index(result.winner)
        state = record_game(state, result, winner, options)
    return MatchRecord(
        player1="Ana Petrova",
        player2="Boris Ilievski",
        match_length=length,
        games=tuple(games),
        event="Skopje Club Championship",
        round="Quarter-final",
        date=datetime.date(2026, 11, 22),
        place="Skopje",
        ratings=(1512.5, 1480.0),
        match_id="42",
    )


@pytest.fixture(scope="module")
def match() -> MatchRecord:
    return play_match(SEED, MATCH_LENGTH)


@pytest.fixture(scope="module")
def mat_text(match: MatchRecord) -> str:
    return to_mat(match)


def tabla_games(match: MatchRecord) -> list[GameRecord]:
    return [game for game in match.games if game.variant == "tabla"]


def colour_of(game: GameRecord, player: int) -> str:
    """The colour player 1 or 2 had in ``game``."""
    return WHITE if player == game.white_player else BLACK


@dataclass
class Replay:
    """The engine's replay of one game: the position before each turn and after the last."""

    before: list[Position]
    final: Position
    hits: list[int]  # opposing checkers sent to the bar by each turn
    result: GameResult | None


def replay(colours: list[str], dice: list[tuple[int, int]], plays: list[list[str]]) -> Replay:
    position = start_position("tabla", colours[0])
    before, hits, result = [], [], None
    for colour, roll, moves in zip(colours, dice, plays, strict=True):
        assert position.turn == colour
        before.append(position)
        outcome = check_play("tabla", position, list(roll), moves)
        them = opponent(colour)
        hits.append(outcome.position.side_value(outcome.position.bar, them) - _bar(position, them))
        position, result = outcome.position, outcome.result
    return Replay(before, position, hits, result)


def _bar(position: Position, colour: str) -> int:
    return position.side_value(position.bar, colour)


def replay_record(game: GameRecord) -> Replay:
    turns = game.turns
    return replay(
        [t.colour for t in turns], [t.dice for t in turns], [list(t.moves) for t in turns]
    )


def to_engine_move(word: str) -> str:
    source, target = word.rstrip("*").split("/")
    source = "bar" if source == "25" else source
    target = "off" if target == "0" else target
    return f"{source}/{target}"


# --- the format ------------------------------------------------------------------------------


def test_header_has_xg_tags_and_the_real_match_length(mat_text: str) -> None:
    parsed = parse_mat(mat_text)

    assert parsed.length == MATCH_LENGTH
    assert parsed.tags == {
        "Site": "Skopje",
        "Match ID": "42",
        "Player 1": "Ana Petrova",
        "Player 2": "Boris Ilievski",
        "Player 1 Elo": "1512.50/0",
        "Player 2 Elo": "1480.00/0",
        "EventDate": "2026.11.22",
        "Event": "Skopje Club Championship",
        "Round": "Quarter-final",
        "Variation": "Backgammon",
        "Unrated": "Off",
        "Jacoby": "Off",
        "Beaver": "Off",
        "CubeLimit": "1",
    }


def test_only_tabla_games_are_exported_with_the_running_match_score(
    match: MatchRecord, mat_text: str
) -> None:
    parsed = parse_mat(mat_text)
    games = tabla_games(match)

    assert len(games) < len(match.games)
    assert [game.number for game in parsed.games] == list(range(1, len(games) + 1))
    for read, game in zip(parsed.games, games, strict=True):
        assert read.names == ("Ana Petrova", "Boris Ilievski")
        assert read.scores == game.scores
        assert read.wins is not None
        player = 1 if colour_of(game, 1) == game.winner else 2
        finished = game.scores[player - 1] + game.points >= MATCH_LENGTH
        assert read.wins == (player, game.points, finished)


def test_replaying_the_exported_moves_reaches_the_recorded_positions(
    match: MatchRecord, mat_text: str
) -> None:
    for read, game in zip(parse_mat(mat_text).games, tabla_games(match), strict=True):
        expected = replay_record(game)
        colours = [colour_of(game, player) for player, _, _ in read.turns]
        plays = [[to_engine_move(word) for word in raw] for _, _, raw in read.turns]
        got = replay(colours, [dice for _, dice, _ in read.turns], plays)

        assert colours == [turn.colour for turn in game.turns]
        assert got.before == expected.before
        assert got.final == expected.final
        assert [sum("*" in word for word in raw) for _, _, raw in read.turns] == expected.hits


def test_sample_match_covers_the_cases(match: MatchRecord, mat_text: str) -> None:
    games = tabla_games(match)
    replays = [replay_record(game) for game in games]
    words = [word for game in games for turn in game.turns for word in turn.moves]
    parsed = parse_mat(mat_text)

    assert {"gul_bara", "tapa"} <= {game.variant for game in match.games}
    assert any(sum(r.hits) for r in replays)
    assert any(word.startswith("bar/") for word in words)
    assert any(word.endswith("/off") for word in words)
    assert any(not turn.moves for game in games for turn in game.turns)
    assert any(r.result is not None and r.result.kind == "mars" for r in replays)
    assert any(r.result is None for r in replays)  # the resignation
    assert {game.turns[0].colour == colour_of(game, 2) for game in games} == {True, False}
    assert any(read.turns[0][0] == 2 for read in parsed.games)


def test_player_two_starting_leaves_the_left_column_empty() -> None:
    game = GameRecord(
        number=1,
        variant="tabla",
        white_player=2,
        scores=(0, 0),
        turns=(
            TurnRecord("w", (6, 4), ("24/18", "13/9")),
            TurnRecord("b", (1, 1), ("8/7", "8/7", "6/5", "6/5")),
            TurnRecord("w", (5, 2), ("bar/23", "13/8")),
            TurnRecord("b", (6, 3), ("13/7", "13/10")),
        ),
        winner="w",
        points=2,
    )
    match = MatchRecord("Ana", "Boris", 3, (game,))

    assert to_mat(match).splitlines()[-7:] == [
        " Game 1",
        " Ana : 0                        Boris : 0",
        "  1)                             64: 24/18 13/9",
        "  2) 11: 8/7* 8/7 6/5 6/5        52: 25/23 13/8",
        "  3) 63: 13/7 13/10",
        "                                  Wins 2 points",
        "",
    ]


def test_an_unfinished_game_has_no_wins_line() -> None:
    turns = (TurnRecord("w", (3, 1), ("8/5", "6/5")),)
    text = to_mat(MatchRecord("A", "B", 5, (GameRecord(1, "tabla", 1, (0, 0), turns),)))

    assert text.endswith("  1) 31: 8/5 6/5\n\n")


def test_an_illegal_recorded_play_is_rejected_with_its_game_and_turn() -> None:
    turns = (TurnRecord("w", (6, 5), ("24/18", "18/13")), TurnRecord("b", (2, 1), ("6/3",)))
    match = MatchRecord("A", "B", 5, (GameRecord(4, "tabla", 1, (0, 0), turns),))

    with pytest.raises(MatExportError, match="game 4, turn 2"):
        to_mat(match)


def test_an_unknown_variant_is_rejected() -> None:
    match = MatchRecord("A", "B", 5, (GameRecord(1, "plakoto", 1, (0, 0), ()),))

    with pytest.raises(MatExportError, match="plakoto"):
        to_mat(match)


def test_colons_and_long_names_do_not_break_the_score_line() -> None:
    long_name = "Aleksandra Petrovska-Ilievska"
    games = (GameRecord(1, "tabla", 1, (2, 1), ()),)

    colon = to_mat(MatchRecord("Ana: the first", "Bo", 5, games)).splitlines()
    long = to_mat(MatchRecord(long_name, "Bo", 5, games)).splitlines()

    assert " Ana. the first : 2             Bo : 1" in colon
    assert f" {long_name} : 2 Bo : 1" in long


# --- GNU Backgammon reads the file back ----------------------------------------------------------


@dataclass
class GnubgImport:
    match: dict  # gnubg.match(boards=True)
    final_boards: list  # gnubg.board() at the end of each game
    output: str  # what gnubg printed while importing


@pytest.fixture
def gnubg_import(
    gnubg: Any, mat_text: str, tmp_path, capfd: pytest.CaptureFixture[str]
) -> GnubgImport:
    imported, final_boards = read_with_gnubg(gnubg, mat_text, tmp_path)
    return GnubgImport(imported, final_boards, capfd.readouterr().out)


def gnubg_player(game: GameRecord, colour: str) -> str:
    """gnubg calls player 1 (the left column) X and player 2 O."""
    return "X" if colour_of(game, 1) == colour else "O"


def test_gnubg_imports_the_match_without_warnings(gnubg_import: GnubgImport) -> None:
    info = gnubg_import.match["match-info"]

    assert "WARNING" not in gnubg_import.output
    assert "Unrecognised" not in gnubg_import.output
    assert info["X"]["name"] == "Ana Petrova"
    assert info["O"]["name"] == "Boris Ilievski"
    assert info["match-length"] == MATCH_LENGTH
    assert info["variation"] == "Standard"
    assert (info["place"], info["event"], info["round"]) == (
        "Skopje",
        "Skopje Club Championship",
        "Quarter-final",
    )
    assert info["date"] == (22, 11, 2026)


def test_gnubg_rebuilds_every_position_of_every_game(
    match: MatchRecord, gnubg_import: GnubgImport
) -> None:
    import gnubg

    games = tabla_games(match)
    assert len(gnubg_import.match["games"]) == len(games)
    for imported, game, final in zip(
        gnubg_import.match["games"], games, gnubg_import.final_boards, strict=True
    ):
        ours = replay_record(game)
        records = [r for r in imported["game"] if r["action"] == "move"]
        assert len(records) == len(game.turns)
        for record, turn, before in zip(records, game.turns, ours.before, strict=True):
            steps = sorted(_gnubg_step(word) for word in turn.moves)
            assert record["player"] == gnubg_player(game, turn.colour)
            assert record["dice"] == turn.dice
            assert sorted(record["move"]) == steps
            assert record["board"] == gnubg.positionid(gnubg_board(before, turn.colour))
        assert final == gnubg_board(ours.final, ours.final.turn)


def _gnubg_step(word: str) -> tuple[int, int]:
    source, target = word.split("/")
    return (25 if source == "bar" else int(source), 0 if target == "off" else int(target))


def test_gnubg_reads_the_scores_winners_and_points(
    match: MatchRecord, gnubg_import: GnubgImport
) -> None:
    for imported, game in zip(gnubg_import.match["games"], tabla_games(match), strict=True):
        info = imported["info"]
        ours = replay_record(game)

        assert (info["score-X"], info["score-O"]) == game.scores
        assert info["winner"] == gnubg_player(game, game.winner)
        assert info["resigned"] == (ours.result is None)
        assert info["points-won"] == gnubg_points(game, ours)


def gnubg_points(game: GameRecord, ours: Replay) -> int:
    """What gnubg scores: ours, except that it counts a mars with a loser's checker still on the
    bar or in the winner's home board as a backgammon (3); Tabla has no such triple by default."""
    if ours.result is None or ours.result.kind != "mars":
        return game.points
    loser = opponent(ours.result.winner)
    board = gnubg_board(ours.final, loser)[1]
    return 3 if board[24] or any(board[18:24]) else game.points
