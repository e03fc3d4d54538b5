"""The chances of a match as the site shows them (issue 23 §3; docs/analysis.md "On the site").

Each variant's evaluator (games.analysis.net.Network) is read from
``settings.ANALYSIS_WEIGHTS_DIR/<variant>.npz`` once per process, on first use, under a lock;
a variant without its file (or with an unreadable one) has no evaluator, and then no chances
are offered for its games: the API answers 404 "no evaluator is installed for <variant>" and
the match page has no bar. The exact bear-off tables, where they were built into the same
folder (``python -m games.analysis.bearoff build``), ride along with each network and answer
the pure races (games.analysis.bearoff, docs/decisions.md D147); without them the network does.

The series of a match is one point per game's start and one per stored turn: the position after
it, replayed from the turn log (games.replay), evaluated by the network for its side to move and
turned to player one's view; a turn that ends the game is its result (1 or 0, a tie 0.5). A
game that ended otherwise (a resignation, a result reported at the desk without its moves, a
game stuck, the game in progress of a match lost on time or forfeited) ends with one more
point, its result from the game's row (``game_series``, docs/decisions.md D162); the end of a
match that is over is its winner's (match chance 1 or 0). A game's points are cached in one
entry with the position after its last turn, so a game that does not change is never evaluated
again and a new turn replays and evaluates only itself (with the last batch of CHUNK positions:
the same floats as the whole series computed again; docs/decisions.md D158).

Fairness (``chances_for``): a player of the match never sees them while it is on (403); what a
spectator sees while it is on is the match's policy (``policy_of``, docs/decisions.md D129 and
D135): a tournament's match follows its organisers' setting, asked through a finder that
tournaments registers (games imports nothing of tournaments; as games/places.py), "hidden" (403
naming the event), "delayed" (``CHANCES_SPECTATOR_DELAY_TURNS`` points behind, default one) or
"live"; any other rated match is delayed, an unrated friendly one live; a match that is over
shows everything to everyone. A client that holds the points of an answer sends back its
``cursor`` (``after``) and is answered only the later ones, cut by the same rules, as long as
the points it holds are still the first shown as they are (docs/decisions.md D160).

The bar and the graph show the chance of winning the MATCH (``match_chances``): a point's three
outcome probabilities for the game being played, times the exact match table's chance after
each outcome (games.analysis.match_table, from the outcome rates in games/analysis/rates.json),
with the score before that game, the game's cube and the match's target (docs/decisions.md
D130); a finished game's end is the table's chance after the points it scored. Where the
table cannot answer (rates missing for a game of the match's cycle) the point keeps the chance
of winning the game.
"""

from __future__ import annotations

import dataclasses
import hashlib
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db.models import Max
from django.utils.translation import gettext as _

from common.errors import NotAllowedError
from common.numbers import ascii_int
from games import replay, selectors
from games.analysis.bearoff import RaceTables
from games.analysis.encode import input_size
from games.analysis.match_table import GameChances, MatchTable, match_chance
from games.analysis.net import Network, flip
from games.analysis.player import position_chances
from games.analysis.rates import RATES_FILE, Rates
from games.engine import Cube, GameResult, Position, start_position
from games.engine.options import Options
from games.models import Game, Match, Turn
from games.selectors import User
from games.state import match_options

PLAYERS_WAIT = "the players of a match see its chances once it is over"


class NoEvaluatorError(LookupError):
    """No evaluator is installed for ``variant`` (its weights file is missing or unreadable)."""

    def __init__(self, variant: str) -> None:
        super().__init__(f"no evaluator is installed for {variant}")
        self.variant = variant


# --- the evaluators, once per process -----------------------------------------------------------

_networks: dict[tuple[str, str], tuple[Network, str] | None] = {}
_lock = threading.Lock()


def evaluator(variant: str) -> Network | None:
    """``variant``'s network, loaded on first use and kept for the life of the process (the
    answer for a missing file too, keyed by the directory, so a test's directory is its own);
    None when the file is missing, unreadable or not for this variant's inputs."""
    loaded = _loaded(variant)
    return None if loaded is None else loaded[0]


def _loaded(variant: str) -> tuple[Network, str] | None:
    """The network and its version (the file's size and modification time: the cache keys of
    the series, alike in every process that loaded the same file)."""
    directory = str(settings.ANALYSIS_WEIGHTS_DIR)
    key = (directory, variant)
    if key in _networks:
        return _networks[key]
    with _lock:
        if key not in _networks:
            _networks[key] = _load(Path(directory) / f"{variant}.npz", variant)
        return _networks[key]


def _load(path: Path, variant: str) -> tuple[Network, str] | None:
    try:
        stat = path.stat()
        network = Network.load(path)
    except (OSError, ValueError, KeyError):
        return None
    if network.encoded_inputs != input_size(variant):
        return None
    version = f"{stat.st_size}-{stat.st_mtime_ns}"
    network.races = _races(path.parent)
    if network.races is not None:
        version = f"{version}:{network.races.version}"
    return network, version


_tables: dict[str, RaceTables | None] = {}


def _races(directory: Path) -> RaceTables | None:
    """The exact bear-off tables beside the weights (games.analysis.bearoff), read once per
    directory and shared by its variants' networks; None when none was built (the networks
    then answer races too). Called under the lock."""
    key = str(directory)
    if key not in _tables:
        _tables[key] = RaceTables.load_from(directory)
    return _tables[key]


def forget_evaluators() -> None:
    """Drop the loaded networks and bear-off tables (a test that writes new weights, a
    deploy's reload)."""
    with _lock:
        _networks.clear()
        _tables.clear()


def has_evaluator(variant: str) -> bool:
    return evaluator(variant) is not None


def evaluator_and_version(variant: str) -> tuple[Network, str] | None:
    """``variant``'s network and its file's version (what a cache key of its evaluations
    holds), None without an evaluator: for the other readers of the evaluators
    (games/postgame.py)."""
    return _loaded(variant)


# --- the series -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Point:
    """The chances after one turn (``turn`` 0: the game's start) in player one's view."""

    game: int  # the game's number in the match
    turn: int  # the turn's ply, 0 for the start
    win: float  # P(player one wins the game)
    win_mars: float  # P(player one wins a mars)
    lose_mars: float  # P(player one loses a mars)
    one_to_move: bool | None  # whether player one is to move; None once the game is over
    match: float | None = None  # P(player one wins the match), where the table answers

    def to_json(self) -> dict[str, Any]:
        return {
            "turn": self.turn,
            "game": self.game,
            "win": round(self.win, 4),
            "match": round(self.bar, 4),
        }

    @property
    def bar(self) -> float:
        """What the bar and the graph show: the match chance, else the game's."""
        return self.win if self.match is None else self.match


@dataclass(frozen=True, slots=True)
class MatchChances:
    """What a user may see of a match's chances: the points (the last one is the position
    shown now) and whether they are behind the match (``behind`` points held back)."""

    match: Match
    points: list[Point]
    behind: int
    truncated: bool
    # What a client that holds these points sends as ``after`` to be answered only the later
    # ones (``chances_for``); ``incremental``: these points follow those of the ``after``
    # given; ``last``: the last point shown, the answer's current one when no point is new.
    cursor: str = ""
    incremental: bool = False
    last: Point | None = None

    @property
    def current(self) -> Point | None:
        return self.points[-1] if self.points else self.last

    def to_json(self) -> dict[str, Any]:
        current = self.current
        return {
            "match": self.match.pk,
            "behind": self.behind,
            "current": None if current is None else _current_json(self.match, current),
            "points": [point.to_json() for point in self.points],
            "truncated": self.truncated,
            "cursor": self.cursor,
            "incremental": self.incremental,
        }


def _current_json(match: Match, point: Point) -> dict[str, Any]:
    one = {"win": point.win, "win_mars": point.win_mars, "lose_mars": point.lose_mars}
    mover: dict[str, Any] | None = None
    if point.one_to_move is not None:
        player = match.player_one if point.one_to_move else match.player_two
        values = (
            (point.win, point.win_mars, point.lose_mars)
            if point.one_to_move
            else (1.0 - point.win, point.lose_mars, point.win_mars)
        )
        mover = {"player": player.pk} | dict(
            zip(("win", "win_mars", "lose_mars"), (round(v, 4) for v in values), strict=True)
        )
    return {
        "game": point.game,
        "turn": point.turn,
        "player_one": {key: round(value, 4) for key, value in one.items()},
        "to_move": mover,
        "bar": {"player": match.player_one.pk, "chance": round(point.bar, 4)},
    }


@lru_cache(maxsize=32)
def _table(options: Options) -> MatchTable | None:
    """The exact match table of ``options`` (its cycle, target and tie rule), from the measured
    outcome rates; None when the rates lack a game of the cycle."""
    try:
        return MatchTable(_rates(), options)
    except (OSError, ValueError):
        return None


@lru_cache(maxsize=1)
def _rates() -> Rates:
    return Rates.load(RATES_FILE)


def match_chances(match: Match, games: Sequence[Game], points: list[Point]) -> list[Point]:
    """``points`` with the chance of player one winning the match (``Point.match``): each
    point's outcome probabilities for its game times the table's chance after each outcome,
    from the score before that game (the match's finished games), that game's cube and the
    Crawford rule (docs/decisions.md D130)."""
    options = _match_options(match)
    table = _table(options)
    by_number = {game.number: game for game in games}
    before = _scores_before(match, games, options)
    cycle = len(options.cycle)
    final = _final_game(match, games)
    out = []
    for point in points:
        played = by_number.get(point.game)
        if played is None:
            out.append(point)
            continue
        if point.one_to_move is None and point.game == final:
            out.append(
                dataclasses.replace(point, match=float(match.winner_id == match.player_one_id))
            )
            continue
        if table is None:
            out.append(point)
            continue
        score_one, score_two = before[point.game]
        need_one, need_two = match.target_score - score_one, match.target_score - score_two
        index = (played.number - 1) % cycle
        if options.cycle[index] != played.variant and played.variant in options.cycle:
            index = options.cycle.index(played.variant)
        try:
            if point.one_to_move is None and played.status == Game.Status.FINISHED:
                value = table.after(need_one, need_two, index, _points_to_one(match, played))
            else:
                value = match_chance(
                    table,
                    _game_chances(point),
                    need_one,
                    need_two,
                    index,
                    cube=1 if played.crawford else max(1, played.cube_value),
                    crawford=played.crawford,
                )
        except ValueError:
            out.append(point)
            continue
        out.append(dataclasses.replace(point, match=value))
    return out


def _game_chances(point: Point) -> GameChances:
    if point.one_to_move is None and point.win == 0.5:
        return GameChances(win=0.0, tie=1.0)
    return GameChances(point.win, point.win_mars, point.lose_mars)


def _points_to_one(match: Match, game: Game) -> int:
    """What ``game`` (finished) scored to player one, as the match table counts a game's end:
    +m won m points (the cube included), -m lost m, 0 a tie."""
    if game.result_winner_id is None:
        return 0
    points = game.result_points or 0
    return points if game.result_winner_id == match.player_one_id else -points


def _final_game(match: Match, games: Sequence[Game]) -> int | None:
    """The number of the last game of a match that is over with a winner (None otherwise): the
    end of that game is the end of the series, and its match chance is the match's result
    however the match ended (the score reached, time, a forfeit, a claim, a correction)."""
    if match.winner_id is None or not is_over(match) or not games:
        return None
    return max(game.number for game in games)


def _match_options(match: Match) -> Options:
    return dataclasses.replace(match_options(match), match_length=match.target_score)


def _scores_before(
    match: Match, games: Sequence[Game], options: Options
) -> dict[int, tuple[int, int]]:
    """The score before each game (by its number): its match's games finished before it."""
    before: dict[int, tuple[int, int]] = {}
    one = two = 0
    for game in sorted(games, key=lambda g: g.number):
        before[game.number] = (one, two)
        if game.status == Game.Status.IN_PROGRESS:
            continue
        if game.result_winner_id is None:
            if options.tapa_tie == "one_each":
                one, two = one + 1, two + 1
        elif game.result_winner_id == match.player_one_id:
            one += game.result_points or 0
        else:
            two += game.result_points or 0
    return before


def _basis(match: Match, games: Sequence[Game], points: Sequence[Point]) -> str:
    """What ``points`` (the series' first points) are computed from, as a short digest: each of
    their games (its id and start, its weights' version) and what their match chances depend on
    (the score before it, its cube, the Crawford rule, the match's target). Points are only
    ever added to a series, but a game's cube taken after its earlier points (they are weighed
    with the game's cube), other weights or a database made again change points already
    sent: the digest changes with them. So do the result of a game whose end is among them (a
    result corrected) and the winner of a match whose end they hold (the last point shows the
    match's result: a forfeit or a correction after the last game changes it)."""
    if not points:
        return ""
    upto = points[-1].game
    options = _match_options(match)
    before = _scores_before(match, games, options)
    final = _final_game(match, games)
    parts = [str(match.target_score), str(options)]
    for game in games:
        if game.number > upto:
            continue
        loaded = _loaded(game.variant)
        part = (
            f"{game_identity(game)}:{game.variant}:{loaded[1] if loaded else ''}:"
            f"{before[game.number]}:{game.cube_value}:{game.crawford}"
        )
        if game.number < upto or points[-1].one_to_move is None:  # its end is among them
            part += f":{game.status}:{game.result_winner_id}:{game.result_points}"
            if game.number == final:
                part += f":{match.winner_id}"
        parts.append(part)
    return hashlib.sha256("|".join(parts).encode()).hexdigest()[:16]


def _cursor(match: Match, games: Sequence[Game], visible: Sequence[Point]) -> str:
    return f"{len(visible)}.{_basis(match, games, visible)}"


def game_identity(game: Game) -> str:
    """The game in a cache key: its id and the microsecond it started. Ids are not enough: a
    database made again (a demo reset, a restore) hands out game 1, turn 1 again while a cache
    folder or Redis keeps the old games' entries; the start time is not repeated."""
    return f"{game.pk}.{int(game.started_at.timestamp() * 1_000_000)}"


# Positions evaluated in one batch. The series evaluates its positions in batches of CHUNK from
# the game's start, whether it is computed whole or extended by a new turn: the network's floats
# depend on the batch a position is evaluated in (BLAS), so the same batches give the same floats.
CHUNK = 16


@dataclass(frozen=True, slots=True)
class _Series:
    """A game's series as cached (one entry a game, docs/decisions.md D158): its points as rows
    up to the turn ``last_turn`` (its id, ply and the microsecond it was made; 0 before any: a
    turn rolled back and made again may get the same id, not the same time), and what
    extending it by the later turns needs: the position and the cube after the last entry
    replayed (``position`` None once the series stopped: the game is over or its log broke the
    rules), the number of log entries replayed, and the positions of the last batch that is
    not yet full (``tail``: the last ``len(tail)`` points, evaluated again with the next
    turns' positions)."""

    last_turn: int
    last_ply: int
    last_made: int
    rows: tuple[tuple[Any, ...], ...]
    position: dict[str, Any] | None
    cube: tuple[int, str, str, bool]
    replayed: int
    tail: tuple[dict[str, Any], ...]

    def to_cache(self) -> tuple[Any, ...]:
        """The fields as they are (dataclasses.astuple would copy every row and position)."""
        return tuple(getattr(self, field.name) for field in dataclasses.fields(self))

    @classmethod
    def from_cache(cls, value: Any) -> _Series | None:
        try:
            return cls(*value)
        except TypeError:
            return None

    def points(self) -> list[Point]:
        return [Point(*row) for row in self.rows]


def _series_key(game: Game, version: str) -> str:
    return f"chances:v3:{game_identity(game)}:{game.variant}:{version}"


def _micros(moment: datetime | None) -> int:
    return 0 if moment is None else int(moment.timestamp() * 1_000_000)


def game_points(
    match: Match, game: Game, last_turn: int | None, last_made: datetime | None
) -> list[Point]:
    """The points of one game (its last turn's id ``last_turn`` and when it was made, None
    before any), cached a game under the version of the network's file. The entry that ends at
    that turn is the answer; one that ends at an earlier turn still in the log is extended by
    the turns after it (replayed on from its position, checked as from the start, and
    evaluated); otherwise (no entry, or its last turn is no longer the log's: an undo, a
    rollback) the whole log is replayed. No lock: two requests may both compute, and each
    stores a series true of the turns it read (docs/decisions.md D158)."""
    loaded = _loaded(game.variant)
    if loaded is None:
        raise NoEvaluatorError(game.variant)
    network, version = loaded
    key = _series_key(game, version)
    cached = _Series.from_cache(cache.get(key))
    made = _micros(last_made)
    if cached is not None and (cached.last_turn, cached.last_made) == (last_turn or 0, made):
        return cached.points()
    turns = Turn.objects.filter(game=game).order_by("ply")
    series = None
    if cached is not None and cached.last_turn and (last_turn or 0) > cached.last_turn:
        later = list(turns.filter(ply__gte=cached.last_ply))
        anchor = (later[0].pk, later[0].ply, _micros(later[0].created_at)) if later else None
        if anchor == (cached.last_turn, cached.last_ply, cached.last_made):
            series = _extend(match, game, network, cached, later[1:])
    if series is None:
        series = _extend(match, game, network, _start(game), list(turns))
    cache.set(key, series.to_cache(), settings.CHANCES_CACHE_SECONDS)
    return series.points()


def _start(game: Game) -> _Series:
    """The series of ``game`` before its start point: nothing replayed."""
    position = start_position(game.variant, "w")
    cube = Cube(crawford=game.crawford)
    return _Series(
        0,
        0,
        0,
        (),
        position.to_json(),
        (cube.value, cube.owner, cube.offered_by, cube.crawford),
        0,
        (),
    )


def _extend(
    match: Match, game: Game, network: Network, series: _Series, turns: list[Turn]
) -> _Series:
    """``series`` with the points of ``turns`` (the log's entries after its last turn): they
    are replayed from its position and cube (games.replay, every play checked by the engine;
    a log that breaks the rules stops the series there, as a game that is over does), and the
    positions from the start of its last batch on are evaluated in batches of CHUNK; a turn
    that ends the game is its result (1 or 0 for player one, a tie 0.5)."""
    last_turn = turns[-1].pk if turns else series.last_turn
    last_ply = turns[-1].ply if turns else series.last_ply
    last_made = _micros(turns[-1].created_at) if turns else series.last_made
    if series.position is None:  # stopped: later entries add nothing
        return dataclasses.replace(
            series, last_turn=last_turn, last_ply=last_ply, last_made=last_made
        )
    options = match_options(match)
    position = Position.from_json(series.position)
    cube = Cube(*series.cube)
    positions: list[Position] = []
    plies: list[int] = []
    results: list[GameResult | None] = []
    if not series.rows:
        positions, plies, results = [position], [0], [None]
    resume = replay.Resume(position, cube, series.replayed)
    steps = replay.replay_log(game.variant, options, turns, crawford=game.crawford, resume=resume)
    replayed, stopped = series.replayed, False
    try:
        for turn, step in zip(turns, steps, strict=False):
            positions.append(step.position_after)
            plies.append(turn.ply)
            results.append(step.game_result)
            position, cube, replayed = step.position_after, step.cube, step.number
            if step.game_result is not None:
                stopped = True
    except replay.ReplayError:
        stopped = True  # a log that breaks the rules (verify_games reports it): it stops there
    # The last batch's positions again, then the new ones: live positions are the series'
    # first points (only its last one may be a result), so batches start at multiples of CHUNK.
    start = len(series.rows) - len(series.tail)
    tail = [Position.from_json(data) for data in series.tail]
    live = tail + [p for p, result in zip(positions, results, strict=True) if result is None]
    values = [
        row
        for first in range(0, len(live), CHUNK)
        for row in position_chances(network, game.variant, live[first : first + CHUNK], options)
    ]
    one_colour = game.colour_of(match.player_one)
    rows = list(series.rows[:start])
    kept = [row[1] for row in series.rows[start:]]
    for index, (ply, result) in enumerate(
        zip(kept + plies, [None] * len(kept) + results, strict=True)
    ):
        if result is not None:
            win = 0.5 if result.winner is None else float(result.winner == one_colour)
            mars = result.points >= 2
            rows.append((game.number, ply, win, win * mars, (1 - win) * mars, None))
            continue
        one_moves = live[index].turn == one_colour
        seen = values[index] if one_moves else flip(values[index])
        rows.append((game.number, ply, float(seen[0]), float(seen[1]), float(seen[2]), one_moves))
    full = len(live) - len(live) % CHUNK
    return _Series(
        last_turn,
        last_ply,
        last_made,
        tuple(rows),
        None if stopped else position.to_json(),
        (cube.value, cube.owner, cube.offered_by, cube.crawford),
        replayed,
        tuple(p.to_json() for p in live[full:]) if not stopped else (),
    )


def game_series(match: Match, game: Game, points: list[Point]) -> list[Point]:
    """The series of ``game``: its turn log's ``points`` (``game_points``), and its end where
    no turn of the log gave it: a game resigned, reported at the desk without its moves, ended
    stuck, or whose log stopped short of its result gets the result it was finished with (1 or
    0 for player one, a tie 0.5, a mars for more than a single); the game in progress of a
    match ended early (time, a forfeit, a claim, a correction) is the match winner's, as the
    match is (``match_chances`` gives the last point of a match that is over its result). From
    the game's row alone: no query, not cached (the cache holds what the log gives)."""
    if points and points[-1].one_to_move is None:
        return points  # the log's last turn ended the game: its result is there
    turn = max(game.ply, points[-1].turn + 1 if points else 1)
    if game.status == Game.Status.FINISHED:
        if game.result_winner_id is None:
            win, mars = 0.5, False
        else:
            win = float(game.result_winner_id == match.player_one_id)
            mars = game.result_kind not in ("single", "tie", "")
    elif is_over(match) and match.winner_id is not None:
        win, mars = float(match.winner_id == match.player_one_id), False
    else:
        return points  # on, or abandoned without a winner: no end to show
    return [*points, Point(game.number, turn, win, win * mars, (1 - win) * mars, None)]


# --- who sees what ------------------------------------------------------------------------------


def is_over(match: Match) -> bool:
    return match.status in (Match.Status.FINISHED, Match.Status.FORFEITED)


# What spectators see of a match while it is on (the values of tournaments' Tournament.
# SpectatorChances, which stores an organiser's choice).
HIDDEN = "hidden"
DELAYED = "delayed"
LIVE = "live"
POLICIES = (HIDDEN, DELAYED, LIVE)


@dataclass(frozen=True, slots=True)
class Policy:
    """A match's spectators' chances: one of POLICIES, and the event whose organisers chose it
    ("" when it is the site's default)."""

    kind: str
    event: str = ""


PolicyFinder = Callable[[Match], "Policy | None"]

POLICY_FINDERS: list[PolicyFinder] = []


def register_policy_finder(finder: PolicyFinder) -> None:
    """Let an app above games name the policy of its matches (tournaments, in its
    AppConfig.ready); the first answer wins."""
    if finder not in POLICY_FINDERS:
        POLICY_FINDERS.append(finder)


def policy_of(match: Match) -> Policy:
    """The spectators' chances of ``match`` while it is on: its event's (the first registered
    finder that answers; a match without a ``tournament_slot`` asks nobody: no query), else the
    site's: delayed for a rated match, live for an unrated friendly one."""
    if match.tournament_slot:
        for finder in POLICY_FINDERS:
            policy = finder(match)
            if policy is not None:
                return policy
    return Policy(DELAYED if match.rated or match.tournament_slot else LIVE)


def spectator_delay(match: Match, policy: Policy | None = None) -> int:
    """Points a spectator is held behind: the site's delay for a delayed match while it is on,
    none for a live one or once over (docs/decisions.md D129, D135)."""
    if is_over(match):
        return 0
    if (policy or policy_of(match)).kind != DELAYED:
        return 0
    return max(0, int(settings.CHANCES_SPECTATOR_DELAY_TURNS))


def hidden_message(policy: Policy) -> str:
    if policy.event:
        return _(
            "the organisers of %(event)s show spectators the chances once the match is over"
        ) % {"event": policy.event}
    return _("spectators see the chances of this match once it is over")


def may_see_chances(user: User, match: Match, policy: Policy | None = None) -> bool:
    """Whether ``user`` may see any chance of ``match`` now: everyone once it is over; while
    it is on, nobody who plays in it, and no spectator when its policy hides them."""
    if is_over(match):
        return True
    if selectors.plays_in(user, match):
        return False
    return (policy or policy_of(match)).kind != HIDDEN


def offered(user: User, match: Match, games: list[Game]) -> bool:
    """Whether the match page shows the chance bar to ``user``: a game, an evaluator for every
    variant its games have played, and the user allowed to see the chances."""
    return (
        bool(games)
        and may_see_chances(user, match)
        and all(has_evaluator(variant) for variant in {game.variant for game in games})
    )


def chances_for(*, user: User, match: Match, after: str = "") -> MatchChances:
    """The chances of ``match`` that ``user`` may see (module docstring). Raises
    NotAllowedError for a player of a match in progress and NoEvaluatorError when a game of the
    match (the current one first) has no evaluator.

    ``after``: the ``cursor`` of an earlier answer. When the points it was given are still the
    first of those ``user`` may see now, computed from the same games, weights and cube (its
    digest, ``_basis``), the answer holds only the points after them (``incremental``), their
    match chances alone computed; otherwise (none, a malformed one, points changed or no longer
    shown, more new points than CHANCES_MAX_POINTS) the whole answer. The points are cut to
    what ``user`` may see before either (docs/decisions.md D160)."""
    if not is_over(match) and selectors.plays_in(user, match):
        raise NotAllowedError(PLAYERS_WAIT)
    policy = None if is_over(match) else policy_of(match)
    if policy is not None and policy.kind == HIDDEN:
        raise NotAllowedError(hidden_message(policy))
    games = list(
        match.games.annotate(
            last_turn=Max("turns__pk"), last_made=Max("turns__created_at")
        ).order_by("number")
    )
    for variant in sorted({game.variant for game in games}):
        if not has_evaluator(variant):
            raise NoEvaluatorError(variant)
    series = [
        point
        for game in games
        for point in game_series(
            match, game, game_points(match, game, game.last_turn, game.last_made)
        )
    ]
    behind = min(spectator_delay(match, policy), max(len(series) - 1, 0))
    visible = series[: len(series) - behind]
    cursor = _cursor(match, games, visible)
    cap = settings.CHANCES_MAX_POINTS
    held = _held(after, match, games, visible)
    if held and len(visible) - held <= cap:
        new = match_chances(match, games, visible[held:])
        last = new[-1] if new else match_chances(match, games, visible[-1:])[-1]
        return MatchChances(match, new, behind, False, cursor, True, last)
    truncated = len(visible) > cap
    shown = match_chances(match, games, visible[-cap:] if truncated else visible)
    return MatchChances(match, shown, behind, truncated, cursor)


def _held(after: str, match: Match, games: Sequence[Game], visible: Sequence[Point]) -> int:
    """How many of the ``visible`` points the client that sent ``after`` holds as they are
    now; 0 when it holds none, or none for certain."""
    count, _dot, basis = after.partition(".")
    held = ascii_int(count)
    if not held or held > len(visible) or basis != _basis(match, games, visible[:held]):
        return 0
    return held
