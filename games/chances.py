"""The chances of a match as the site shows them (issue 23 §3; docs/analysis.md "On the site").

Each variant's evaluator (games.analysis.net.Network) is read from
``settings.ANALYSIS_WEIGHTS_DIR/<variant>.npz`` once per process, on first use, under a lock;
a variant without its file (or with an unreadable one) has no evaluator, and then no chances
are offered for its games: the API answers 404 "no evaluator is installed for <variant>" and
the match page has no bar.

The series of a match is one point per game's start and one per stored turn: the position after
it, replayed from the turn log (games.replay), evaluated by the network for its side to move and
turned to player one's view; a turn that ends the game is its result (1 or 0, a tie 0.5). A
game's points are computed in one batch and cached under the game's last turn id, so a game
that does not change is never evaluated again.

Fairness (``chances_for``): a player of the match never sees them while it is on (403); a
spectator of a rated or tournament match sees them ``CHANCES_SPECTATOR_DELAY_TURNS`` points
behind (docs/decisions.md D129); unrated friendly matches live; a match that is over shows
everything to everyone.

The bar shows ``bar_chance``: today the chance of player one winning the current GAME. This is
the one place where the match-winning chance plugs in once games.analysis.match_table lands (the
chance of winning the match from the three outcome probabilities and the score,
docs/decisions.md D130).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db.models import Max

from common.errors import NotAllowedError
from games import replay, selectors
from games.analysis.encode import encode_positions, input_size
from games.analysis.net import Network, flip
from games.engine import Position, start_position
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
    return network, f"{stat.st_size}-{stat.st_mtime_ns}"


def forget_evaluators() -> None:
    """Drop the loaded networks (a test that writes new weights, a deploy's reload)."""
    with _lock:
        _networks.clear()


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

    def to_json(self) -> dict[str, Any]:
        return {"turn": self.turn, "game": self.game, "win": round(self.win, 4)}


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
        "bar": {"player": match.player_one.pk, "chance": round(bar_chance(match, point), 4)},
    }


def bar_chance(match: Match, point: Point) -> float:
    """The chance the bar and the page show for player one: today player one's chance of winning
    the current GAME (``point.win``). THE SEAM for the match table: once
    games.analysis.match_table gives the chance of winning the match from the outcome
    probabilities (``point.win``, ``point.win_mars``, ``point.lose_mars``) and the score before
    this game (``match.score_one``/``score_two`` and ``match.target_score``), it is returned here
    and the page and the API follow (docs/decisions.md D130)."""
    return point.win


def game_points(match: Match, game: Game, last_turn: int | None) -> list[Point]:
    """The points of one game, cached under its last turn id (a new turn is a new key) and the
    version of the network's file."""
    loaded = _loaded(game.variant)
    if loaded is None:
        raise NoEvaluatorError(game.variant)
    network, version = loaded
    key = f"chances:v1:{game.pk}:{last_turn or 0}:{game.variant}:{version}"
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
    values = network.forward(encode_positions(game.variant, [positions[i] for i in live], options))
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


def spectator_delay(match: Match) -> int:
    """Points a spectator is held behind: the site's delay for rated and tournament matches
    while they are on, none for unrated friendly ones or once over (docs/decisions.md D129)."""
    if is_over(match) or not (match.rated or match.tournament_slot):
        return 0
    return max(0, int(settings.CHANCES_SPECTATOR_DELAY_TURNS))


def may_see_chances(user: User, match: Match) -> bool:
    """Whether ``user`` may see any chance of ``match`` now: everyone once it is over, nobody
    who plays in it while it is on."""
    return is_over(match) or not selectors.plays_in(user, match)


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
    if not may_see_chances(user, match):
        raise NotAllowedError(PLAYERS_WAIT)
    games = list(match.games.annotate(last_turn=Max("turns__pk")).order_by("number"))
    for variant in sorted({game.variant for game in games}):
        if not has_evaluator(variant):
            raise NoEvaluatorError(variant)
    points = [p for game in games for p in game_points(match, game, game.last_turn)]
    behind = min(spectator_delay(match), max(len(points) - 1, 0))
    if behind:
        points = points[: len(points) - behind]
    cap = settings.CHANCES_MAX_POINTS
    truncated = len(points) > cap
    return MatchChances(match, points[-cap:] if truncated else points, behind, truncated)
