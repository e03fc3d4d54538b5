"""The review of a finished match (issue 23 §3; docs/analysis.md "After the game").

Every play of every game is compared with the evaluator's best play (games.analysis.review):
at 1-ply by the task queued at the match's end (``settings.REVIEW_TASK_DEPTH``, docs/decisions.md
D138, D151), at 0-ply when a reader finds a game not reviewed yet (D133): the deepest review
cached is shown, and says its depth. The game's turn log is replayed (games.replay),
each decision with more than one legal play gets the equity of the play made, of the best play
and the error between them, in cubeless points for the mover. A game's review is cached under
its last turn id, the network file's version and the depth (a finished game's log does not
grow; the chances, which follow a game in play, extend their entry instead: games/chances.py).

Shown only once the match is over, to everyone (docs/decisions.md D134): the players never see
an evaluation during their own match, and a spectator not either, so that nobody watching can
pass it on.

The review of a match: each player's average error and count of decisions with a choice, and
each player's biggest mistakes (``MISTAKES_SHOWN`` of them, largest first) with the play made, the
better play and the position after it.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db.models import Max

from common.errors import NotAllowedError
from games import replay
from games.analysis.review import BANDS as BANDS  # the bands the page and the API read
from games.analysis.review import DEPTHS, Played, band_of, review_plays
from games.chances import (
    NoEvaluatorError,
    evaluator_and_version,
    game_identity,
    has_evaluator,
    is_over,
)
from games.engine import Options, Play, Position, StepGraph, start_position, step_graph
from games.models import Game, Match, Turn
from games.state import match_options
from players.models import Player

NOT_OVER = "a match is reviewed once it is over"
MISTAKES_SHOWN = 5
REVIEW_WARM_GAMES = 25  # the most games the task at a match's end reviews (D138)


@dataclass(frozen=True, slots=True)
class Mistake:
    """One decision with a choice: who played it (``colour`` in its game), where, and how well."""

    game: int  # the game's number in the match
    variant: str
    turn: int  # the turn's ply
    colour: str
    dice: list[int]
    pending: bool  # a later stage of a Gjul Bara cascade
    made: str  # the play made, in the site's notation ("24/18 18/13"; "" a pass)
    best: str  # the best play by the evaluator (the play made when it is the best)
    position: dict[str, Any]  # the position before the play (Position.to_json())
    error: float  # cubeless points, >= 0

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "variant": self.variant,
            "turn": self.turn,
            "dice": self.dice,
            "pending": self.pending,
            "made": self.made,
            "best": self.best,
            "error": round(self.error, 4),
        }


@dataclass(frozen=True, slots=True)
class PlayerReview:
    player: Player
    decisions: int  # decisions with more than one legal play
    total_error: float
    mistakes: list[Mistake]  # the biggest, largest first, errors above 0 only
    bands: int = 0  # the depth whose BANDS the average is read on

    @property
    def average_error(self) -> float | None:
        return self.total_error / self.decisions if self.decisions else None

    @property
    def band(self) -> str | None:
        """The rating band of the average error (``BANDS``); None without a decision, and for
        a practice computer: its plays are drawn from the judge's own values, so the judge
        finds almost none of its mistakes and would call even the beginner World class
        (docs/decisions.md D170)."""
        average = self.average_error
        if average is None or self.player.computer:
            return None
        return band_of(average, self.bands)

    def to_json(self) -> dict[str, Any]:
        average = self.average_error
        return {
            "player": self.player.pk,
            "decisions": self.decisions,
            "average_error": None if average is None else round(average, 4),
            "band": self.band,
            "total_error": round(self.total_error, 4),
            "mistakes": [mistake.to_json() for mistake in self.mistakes],
        }


def bands_depth(depths: frozenset[int]) -> int:
    """The depth whose bands a review judged at ``depths`` is read on: 1-ply's only when every
    game was judged at 1-ply."""
    return 1 if depths == frozenset({1}) else 0


def lookahead(depths: set[int]) -> str:
    """The depths the games of a review were judged at, as the API and the page say it:
    ``0-ply``, ``1-ply``, or ``0-ply and 1-ply`` when some games were judged at each."""
    return " and ".join(f"{depth}-ply" for depth in sorted(depths)) or "0-ply"


@dataclass(frozen=True, slots=True)
class MatchReview:
    match: Match
    players: list[PlayerReview]  # player one, player two
    depths: frozenset[int] = frozenset({0})  # the depths its games were judged at

    @property
    def lookahead(self) -> str:
        return lookahead(set(self.depths))

    def to_json(self) -> dict[str, Any]:
        return {
            "match": self.match.pk,
            "lookahead": self.lookahead,
            "equity": "cubeless",
            "players": [review.to_json() for review in self.players],
        }


def offered(match: Match) -> bool:
    """Whether the match page shows the review: the match over and an evaluator for every
    variant its games have played (no query beyond the match's games)."""
    if not is_over(match):
        return False
    return _evaluated(set(match.games.values_list("variant", flat=True)))


def review_for(*, match: Match) -> MatchReview:
    """The review of ``match`` (module docstring). Raises NotAllowedError while the match is on
    and NoEvaluatorError when a variant of its games has no evaluator."""
    if not is_over(match):
        raise NotAllowedError(NOT_OVER)
    games = _games(match)
    found, _ = _rows(match, games, 0)
    one, two = match.player_one, match.player_two
    mistakes: dict[int, list[Mistake]] = {one.pk: [], two.pk: []}
    for game in games:
        for row in found[game.pk][1]:
            mistake = Mistake(*row)
            white = mistake.colour == "w"
            player = game.white_id if white else game.black_id
            mistakes[player].append(mistake)
    depths = frozenset(depth for depth, _ in found.values()) or frozenset({0})
    bands = bands_depth(depths)
    return MatchReview(
        match, [_player_review(p, mistakes[p.pk], bands) for p in (one, two)], depths
    )


def review_warm(*, match: int) -> int:
    """Review the finished match ``match`` into the cache, so that its first reader waits for
    nothing (the task queued at a match's end with a broker; docs/decisions.md D138): how many
    games it reviewed, 0 when all were cached, the match is on or has no evaluator. Idempotent;
    at most ``REVIEW_WARM_GAMES`` games (a longer match's others are reviewed when read). At
    ``settings.REVIEW_TASK_DEPTH`` (1-ply by default, D151): a game cached at a lesser depth (a
    reader was first) is reviewed again."""
    found = Match.objects.select_related("player_one", "player_two").filter(pk=match).first()
    if found is None or not is_over(found):
        return 0
    games = _games(found)[:REVIEW_WARM_GAMES]
    if not _evaluated({game.variant for game in games}):
        return 0
    return len(_rows(found, games, settings.REVIEW_TASK_DEPTH)[1])


def review_queued(match: Match) -> bool:
    """Whether the end of ``match`` queues its review (``review_warm``): only where a broker
    runs the tasks (``settings.REVIEW_AT_MATCH_END``; eagerly the match-ending request would
    wait for it, D138) and an evaluator is installed for every variant its games played."""
    if not settings.REVIEW_AT_MATCH_END:
        return False
    return _evaluated(set(match.games.values_list("variant", flat=True)))


def _games(match: Match) -> list[Game]:
    return list(match.games.annotate(last_turn=Max("turns__pk")).order_by("number"))


def _evaluated(variants: set[str]) -> bool:
    """Some variants, each with its evaluator."""
    return bool(variants) and all(has_evaluator(variant) for variant in variants)


def _rows(
    match: Match, games: list[Game], depth: int
) -> tuple[dict[int, tuple[int, list[Any]]], list[Game]]:
    """Each game's depth and review rows, and the games reviewed now: a game's deepest cached
    review of at least ``depth`` plies, the others reviewed now at ``depth`` and cached (all
    their turns in one query). Raises NoEvaluatorError when a variant of ``games`` has no
    evaluator."""
    for variant in sorted({game.variant for game in games}):
        if not has_evaluator(variant):
            raise NoEvaluatorError(variant)
    keys = {(game.pk, d): _key(game, d) for game in games for d in DEPTHS if d >= depth}
    cached: dict[str, Any] = cache.get_many(list(keys.values()))
    found: dict[int, tuple[int, list[Any]]] = {}
    for game in games:
        for d in sorted((d for d in DEPTHS if d >= depth), reverse=True):
            if keys[game.pk, d] in cached:
                found[game.pk] = (d, cached[keys[game.pk, d]])
                break
    missing = [game for game in games if game.pk not in found]
    if missing:
        turns: dict[int, list[Turn]] = defaultdict(list)
        for turn in Turn.objects.filter(game__in=missing).order_by("game_id", "ply"):
            turns[turn.game_id].append(turn)
        fresh = {g.pk: _review_game(match, g, turns[g.pk], depth) for g in missing}
        cache.set_many(
            {keys[pk, depth]: rows for pk, rows in fresh.items()}, settings.CHANCES_CACHE_SECONDS
        )
        found |= {pk: (depth, rows) for pk, rows in fresh.items()}
    return found, missing


def _player_review(player: Player, decisions: list[Mistake], bands: int) -> PlayerReview:
    biggest = sorted((m for m in decisions if m.error > 0), key=lambda m: -m.error)
    total = sum(m.error for m in decisions)
    return PlayerReview(player, len(decisions), total, biggest[:MISTAKES_SHOWN], bands)


def _key(game: Any, depth: int) -> str:
    loaded = evaluator_and_version(game.variant)
    if loaded is None:
        raise NoEvaluatorError(game.variant)
    return (
        f"review:v5:{game_identity(game)}:{game.last_turn or 0}:{game.variant}:{loaded[1]}:{depth}"
    )


def _review_game(match: Match, game: Game, turns: list[Turn], depth: int) -> list[tuple[Any, ...]]:
    """Replay the game's log and review its plays at ``depth``: one row a decision with a choice
    (the fields of a Mistake). A log that breaks the rules is reviewed up to there."""
    loaded = evaluator_and_version(game.variant)
    if loaded is None:
        raise NoEvaluatorError(game.variant)
    options = match_options(match)
    played: list[Played] = []
    where: list[tuple[int, str, list[int]]] = []
    before = None
    steps = replay.replay_log(game.variant, options, turns, crawford=game.crawford)
    try:
        for turn, step in zip(turns, steps, strict=False):
            if step.play is not None:
                position = before if before is not None else _start(game)
                pending = step.kind == "pending"
                played.append(Played(position, None if pending else step.dice, step.play))
                where.append((turn.ply, step.kind, list(step.dice)))
            before = step.position_after
    except replay.ReplayError:
        pass  # verify_games reports it; the review stops there, as the chances do
    rows = []
    for item in review_plays(loaded[0], game.variant, options, played, depth=depth):
        ply, kind, dice = where[item.index]
        rows.append(
            (
                game.number,
                game.variant,
                ply,
                item.mover,
                dice,
                kind == "pending",
                str(item.made.play),
                str(item.best.play),
                played[item.index].position.to_json(),
                item.error,
            )
        )
    return rows


def _start(game: Game) -> Position:
    return start_position(game.variant, "w")  # as games.replay starts every game


# --- the plays on the board (docs/decisions.md D168) -------------------------------------------

Step = tuple[dict[str, Any], dict[str, Any], int | str, int | str]  # board before, after, from, to


def mistake_steps(mistake: Mistake, options: Options) -> tuple[list[Step], list[Step]]:
    """The steps of the play made and of the better play, each as the board before and after
    it (board_svg's position JSON) and its white-numbered points (``"bar"``, ``"off"``), as the
    engine's step graph of the decision makes them (games/engine/step_graph.py: a hit checker
    on the bar, a Tapa pin), so that games.board_svg draws them with no rule of its own."""
    position = Position.from_json(mistake.position)
    dice = None if mistake.pending else mistake.dice
    graph = step_graph(mistake.variant, position, dice, options)
    return _steps(graph, mistake.made), _steps(graph, mistake.best)


def _steps(graph: StepGraph, play: str) -> list[Step]:
    """The graph's path making ``play``'s moves in their order (a bear-off's move can be made
    with more than one die: the path that completes the play), as Steps; [] for none."""
    moves = [str(move) for move in Play.parse(play).moves]

    def walk(state: int, done: int) -> list[tuple[int, int, int | str, int | str]] | None:
        if done == len(moves):
            return [] if graph.states[state].play is not None else None
        for step in graph.states[state].steps:
            if step.move == moves[done]:
                rest = walk(step.state, done + 1)
                if rest is not None:
                    return [(state, step.state, step.source, step.target), *rest]
        return None

    path = walk(0, 0) if moves else None
    boards: dict[int, dict[str, Any]] = {}
    for before, after, _source, _target in path or []:
        for number in (before, after):
            boards[number] = boards.get(number) or _board(graph, number)
    return [(boards[b], boards[a], source, target) for b, a, source, target in path or []]


def _board(graph: StepGraph, number: int) -> dict[str, Any]:
    state = graph.states[number]
    return {
        "points": [[list(pair) for pair in stack] for stack in state.points],
        "bar": {"w": state.bar[0], "b": state.bar[1]},
        "off": {"w": state.off[0], "b": state.off[1]},
        "turn": graph.turn,
    }
