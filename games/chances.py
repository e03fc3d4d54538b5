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
game's points are computed in one batch and cached under the game's last turn id, so a game
that does not change is never evaluated again.

Fairness (``chances_for``): a player of the match never sees them while it is on (403); what a
spectator sees while it is on is the match's policy (``policy_of``, docs/decisions.md D129 and
D135): a tournament's match follows its organisers' setting, asked through a finder that
tournaments registers (games imports nothing of tournaments; as games/places.py), "hidden" (403
naming the event), "delayed" (``CHANCES_SPECTATOR_DELAY_TURNS`` points behind, default one) or
"live"; any other rated match is delayed, an unrated friendly one live; a match that is over
shows everything to everyone.

The bar and the graph show the chance of winning the MATCH (``match_chances``): a point's three
outcome probabilities for the game being played, times the exact match table's chance after
each outcome (games.analysis.match_table, from the outcome rates in games/analysis/rates.json),
with the score before that game, the game's cube and the match's target (docs/decisions.md
D130). Where the table cannot answer (rates missing for a game of the match's cycle) the point
keeps the chance of winning the game.
"""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db.models import Max
from django.utils.translation import gettext as _

from common.errors import NotAllowedError
from games import replay, selectors
from games.analysis.bearoff import RaceTables
from games.analysis.encode import input_size
from games.analysis.match_table import GameChances, MatchTable, match_chance
from games.analysis.net import Network, flip
from games.analysis.player import position_chances
from games.analysis.rates import RATES_FILE, Rates
from games.engine import Position, start_position
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
    if network.inputs != input_size(variant):
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

    @property
    def current(self) -> Point | None:
        return self.points[-1] if self.points else None

    def to_json(self) -> dict[str, Any]:
        current = self.current
        return {
            "match": self.match.pk,
            "behind": self.behind,
            "current": None if current is None else _current_json(self.match, current),
            "points": [point.to_json() for point in self.points],
            "truncated": self.truncated,
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
    options = dataclasses.replace(match_options(match), match_length=match.target_score)
    table = _table(options)
    if table is None:
        return points
    by_number = {game.number: game for game in games}
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
    cycle = len(options.cycle)
    out = []
    for point in points:
        played = by_number.get(point.game)
        if played is None:
            out.append(point)
            continue
        score_one, score_two = before[point.game]
        index = (played.number - 1) % cycle
        if options.cycle[index] != played.variant and played.variant in options.cycle:
            index = options.cycle.index(played.variant)
        if point.one_to_move is None and point.win == 0.5:
            chances = GameChances(win=0.0, tie=1.0)
        else:
            chances = GameChances(point.win, point.win_mars, point.lose_mars)
        try:
            value = match_chance(
                table,
                chances,
                match.target_score - score_one,
                match.target_score - score_two,
                index,
                cube=1 if played.crawford else max(1, played.cube_value),
                crawford=played.crawford,
            )
        except ValueError:
            out.append(point)
            continue
        out.append(dataclasses.replace(point, match=value))
    return out


def game_identity(game: Game) -> str:
    """The game in a cache key: its id and the microsecond it started. Ids are not enough: a
    database made again (a demo reset, a restore) hands out game 1, turn 1 again while a cache
    folder or Redis keeps the old games' entries; the start time is not repeated."""
    return f"{game.pk}.{int(game.started_at.timestamp() * 1_000_000)}"


def game_points(match: Match, game: Game, last_turn: int | None) -> list[Point]:
    """The points of one game, cached under its last turn id (a new turn is a new key) and the
    version of the network's file."""
    loaded = _loaded(game.variant)
    if loaded is None:
        raise NoEvaluatorError(game.variant)
    network, version = loaded
    key = f"chances:v2:{game_identity(game)}:{last_turn or 0}:{game.variant}:{version}"
    cached = cache.get(key)
    if cached is not None:
        return [Point(*row) for row in cached]
    points = _evaluate_game(match, game, network)
    cache.set(key, [_row(p) for p in points], settings.CHANCES_CACHE_SECONDS)
    return points


def _row(point: Point) -> tuple[Any, ...]:
    return (point.game, point.turn, point.win, point.win_mars, point.lose_mars, point.one_to_move)


def _evaluate_game(match: Match, game: Game, network: Network) -> list[Point]:
    """Replay the game's turn log and evaluate every position after a turn in one batch."""
    options = match_options(match)
    one_colour = game.colour_of(match.player_one)
    turns = list(Turn.objects.filter(game=game).order_by("ply"))
    positions: list[Position] = [start_position(game.variant, "w")]
    plies = [0]
    results: list[Any] = [None]
    steps = replay.replay_log(game.variant, options, turns, crawford=game.crawford)
    try:
        for turn, step in zip(turns, steps, strict=False):
            positions.append(step.position_after)
            plies.append(turn.ply)
            results.append(step.game_result)
    except replay.ReplayError:
        pass  # a log that breaks the rules (verify_games reports it): the series stops there
    live = [i for i, result in enumerate(results) if result is None]
    values = position_chances(network, game.variant, [positions[i] for i in live], options)
    by_index = dict(zip(live, values, strict=True))
    points = []
    for i, position in enumerate(positions):
        result = results[i]
        if result is not None:
            win = 0.5 if result.winner is None else float(result.winner == one_colour)
            mars = result.points >= 2
            points.append(Point(game.number, plies[i], win, win * mars, (1 - win) * mars, None))
            continue
        one_moves = position.turn == one_colour
        seen = by_index[i] if one_moves else flip(by_index[i])
        points.append(
            Point(game.number, plies[i], float(seen[0]), float(seen[1]), float(seen[2]), one_moves)
        )
    return points


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


def chances_for(*, user: User, match: Match) -> MatchChances:
    """The chances of ``match`` that ``user`` may see (module docstring). Raises
    NotAllowedError for a player of a match in progress and NoEvaluatorError when a game of the
    match (the current one first) has no evaluator."""
    if not is_over(match) and selectors.plays_in(user, match):
        raise NotAllowedError(PLAYERS_WAIT)
    policy = None if is_over(match) else policy_of(match)
    if policy is not None and policy.kind == HIDDEN:
        raise NotAllowedError(hidden_message(policy))
    games = list(match.games.annotate(last_turn=Max("turns__pk")).order_by("number"))
    for variant in sorted({game.variant for game in games}):
        if not has_evaluator(variant):
            raise NoEvaluatorError(variant)
    points = match_chances(
        match, games, [p for game in games for p in game_points(match, game, game.last_turn)]
    )
    behind = min(spectator_delay(match, policy), max(len(points) - 1, 0))
    if behind:
        points = points[: len(points) - behind]
    cap = settings.CHANCES_MAX_POINTS
    truncated = len(points) > cap
    return MatchChances(match, points[-cap:] if truncated else points, behind, truncated)
