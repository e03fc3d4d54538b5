"""Reads: match state, visible matches, legal plays, the dice proof, replay checks and the .mat
export. Nothing here writes: the parsed-state caches and their writes are in games/state.py, the
JSON-lines export sits with its import in games/services/exchange.py."""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from django.conf import settings
from django.db.models import OuterRef, Prefetch, Q, QuerySet, Subquery

from games import clock, dice, replay
from games.engine import (
    Cube,
    GameResult,
    MatchState,
    Options,
    Outcome,
    Position,
    StepGraph,
    legal_plays,
    opponent,
    record_game,
    start_position,
    step_graph,
)
from games.engine.cube import may_double as engine_may_double
from games.engine.cube import points_before_cube
from games.exports.events import event_and_round
from games.exports.jellyfish import GameRecord, MatchRecord, TurnRecord, to_mat
from games.models import Game, Match, Notification, ResultReport, Turn
from games.organisers import organises_elsewhere
from games.sql import game_with_players as _game_with_players

# Re-exported: services and views read a game's cube and position, a match's options, the acting
# user's type and player through games.selectors.
from games.state import game_cube as game_cube
from games.state import game_position as game_position
from games.state import match_options as match_options
from players.models import Player
from players.selectors import User as User
from players.selectors import may_enter_players
from players.selectors import player_for as player_for


def challenged_player(match: Match) -> Player | None:
    """The player a challenge was sent to: the one of the two who did not create the match
    (None when staff, a tournament or an import created it)."""
    creator = match.created_by_id
    if creator is None:  # a player without an account has no user id to match either
        return None
    if creator == match.player_one.user_id:
        return match.player_two
    if creator == match.player_two.user_id:
        return match.player_one
    return None


def is_organiser(user: User, match: Match) -> bool:
    """Staff, the match's organiser, or someone a registered check names (a tournament's
    organisers for its matches: games.organisers, docs/decisions.md D38)."""
    if not getattr(user, "is_authenticated", False):
        return False
    if user.is_staff or (match.organiser_id is not None and match.organiser_id == user.pk):
        return True
    return organises_elsewhere(user, match)


# Why a player of a match never decides it, as organiser or staff (docs/decisions.md D39).
PARTY_DECIDES = "you play in this match: a co-organiser or staff decides it"


def plays_in(user: User, match: Match) -> bool:
    """Whether ``user``'s own player is one of the two players of ``match``."""
    player = player_for(user)
    return player is not None and player.pk in (match.player_one_id, match.player_two_id)


def may_decide(user: User, match: Match) -> bool:
    """Whether ``user`` may decide ``match`` as its organiser (settle a report, declare a
    forfeit, correct the result): an organiser, staff included, who does not play in it
    (docs/decisions.md D39)."""
    return is_organiser(user, match) and not plays_in(user, match)


def is_participant(user: User, match: Match, you: Player | None) -> bool:
    """Whether ``user`` (whose player is ``you``) is one of the two players of ``match`` or its
    organiser (staff included): who may start, report or resign (README, "Trust")."""
    if is_organiser(user, match):
        return True
    return you is not None and you.pk in (match.player_one_id, match.player_two_id)


def matches_startable(user: User, matches: Sequence[Match]) -> set[int]:
    """The ids of those of ``matches`` that ``user`` may start now (``match_start`` checks the
    same): scheduled online matches of which they are a player or the organiser."""
    waiting = [
        match
        for match in matches
        if match.status == Match.Status.SCHEDULED and match.mode == Match.Mode.ONLINE
    ]
    if not waiting or not getattr(user, "is_authenticated", False):
        return set()
    you = player_for(user)
    return {match.pk for match in waiting if is_participant(user, match, you)}


def match_state(match: Match) -> MatchState:
    """The score and cycle position: every finished game folded through ``record_game`` (§6)."""
    options = match_options(match)
    state = MatchState()
    for game in match.games.filter(status=Game.Status.FINISHED).order_by("number"):
        state = record_game(state, game_result(game), game_winner_index(game), options)
    return state


def game_result(game: Game, *, cube: bool = True) -> GameResult:
    """The stored result; its points are those scored (the cube counted), or with
    ``cube=False`` the game's own value, as the engine gives it."""
    winner = None
    points = game.result_points or 0
    if game.result_winner_id is not None:
        winner = "w" if game.result_winner_id == game.white_id else "b"
        if not cube:
            points = points_before_cube(points, game.cube_value)
    return GameResult(winner, game.result_kind, points)


def game_winner_index(game: Game) -> int | None:
    if game.result_winner_id is None:
        return None
    return 0 if game.result_winner_id == game.match.player_one_id else 1


def match_list(*, user: User) -> QuerySet[Match]:
    """Matches ``user`` may read: public ones, and private ones they play or organise."""
    return Match.objects.select_related("player_one", "player_two", "winner").filter(
        match_visible_to(user)
    )


def match_visible_to(user: User, through: str = "") -> Q:
    """The condition of ``match_list`` on a match, or on the match that ``through`` leads to
    (``"match__"`` from a rating history row): a join condition, so a read of a player's rows
    goes through their own index rather than through every visible match."""
    if getattr(user, "is_staff", False):
        return Q()
    visible = Q(**{f"{through}is_public": True})
    if getattr(user, "is_authenticated", False):
        visible |= (
            Q(**{f"{through}organiser": user})
            | Q(**{f"{through}player_one__user": user})
            | Q(**{f"{through}player_two__user": user})
        )
    return visible


def match_list_with_games(*, user: User) -> QuerySet[Match]:
    """``match_list`` with each match's games (and their players) and the id of its game in
    progress (``current_game_id``): the API's list in a fixed number of queries, whatever the
    page size."""
    in_progress = (
        Game.objects.filter(match=OuterRef("pk"), status=Game.Status.IN_PROGRESS)
        .order_by("-number")
        .values("pk")[:1]
    )
    # In the match's order by number; the model's default order (match, number) would join
    # every game to its match row only to sort by the match's creation time.
    games = Game.objects.select_related("white", "black").order_by("match_id", "number")
    return (
        match_list(user=user)
        .annotate(current_game_id=Subquery(in_progress))
        .prefetch_related(Prefetch("games", queryset=games))
    )


def game_list(*, user: User) -> QuerySet[Game]:
    return Game.objects.select_related("match", "white", "black", "result_winner").filter(
        match__in=match_list(user=user)
    )


def game_visible(*, user: User, pk: int, for_update: bool = False) -> Game | None:
    """Game ``pk`` with its match and players, if ``user`` may read it (the rule of
    ``match_list``, checked on the loaded row: one plain query on the hot play path).
    ``for_update`` locks the game and match rows, for a caller inside a transaction."""
    game = _game_with_players(pk, for_update=for_update)
    if game is None:
        return None
    if getattr(user, "is_staff", False) or game.match.is_public:
        return game
    if getattr(user, "is_authenticated", False) and user.pk in (
        game.match.organiser_id,
        game.white.user_id,
        game.black.user_id,
    ):
        return game
    return None


def game_for_update(pk: int) -> Game | None:
    """Game ``pk`` with its match and players, the game and match rows locked (the query of
    ``game_visible``, for a trusted caller inside a transaction)."""
    return _game_with_players(pk, for_update=True)


def game_player_for(game: Game, user: User) -> Player | None:
    """``player_for(user)``, without a query when ``user`` plays ``game``."""
    for player in (game.white, game.black):
        if getattr(user, "is_authenticated", False) and player.user_id == user.pk:
            return player
    return player_for(user)


AWAITING_REASONS = ["accept_challenge", "turn", "answer_double", "confirm_result"]


@dataclass(frozen=True)
class Awaiting:
    """A match waiting for a player, and why: "accept_challenge" (accept or decline it),
    "turn" (roll or play in ``game``), "answer_double" (take or drop in ``game``) or
    "confirm_result" (confirm or dispute ``report``)."""

    match: Match
    reason: str
    game: Game | None = None
    report: ResultReport | None = None


@dataclass(frozen=True)
class Desk:
    """What GET /me/ shows a user: who they are and what waits for them."""

    user: Any
    player: Player | None
    may_enter_players: bool
    awaiting: list[Awaiting]
    awaiting_count: int


def desk_for(user: User) -> Desk:
    """What waits for ``user``: the first ME_AWAITING_LIMIT of the matches waiting, oldest
    first, and how many there are in all (docs/decisions.md D54)."""
    player = player_for(user)
    awaiting = matches_awaiting(player) if player is not None else []
    limit = settings.ME_AWAITING_LIMIT
    return Desk(user, player, may_enter_players(user), awaiting[:limit], len(awaiting))


def matches_awaiting(player: Player) -> list[Awaiting]:
    """The matches waiting for ``player`` to act, oldest match first: challenges sent to them,
    online games where they are to move or to answer a double, and results their opponent
    reported for them to confirm or dispute."""
    mine = Q(player_one=player) | Q(player_two=player)
    invited = Match.objects.select_related("player_one", "player_two").filter(
        mine, status=Match.Status.INVITED
    )
    waiting = [Awaiting(m, "accept_challenge") for m in invited if challenged_player(m) == player]
    games = Game.objects.select_related("match__player_one", "match__player_two", "white", "black")
    for game in games.filter(
        Q(white=player) | Q(black=player),
        status=Game.Status.IN_PROGRESS,
        match__status=Match.Status.IN_PROGRESS,
    ):
        if player_to_move(game) == player:
            reason = "answer_double" if game.cube_offered_by else "turn"
            waiting.append(Awaiting(game.match, reason, game=game))
    reports = ResultReport.objects.select_related("match__player_one", "match__player_two")
    for report in (
        reports.filter(
            Q(match__player_one=player) | Q(match__player_two=player),
            status=ResultReport.Status.PENDING,
            match__status=Match.Status.IN_PROGRESS,
        )
        .exclude(reporter_id=player.user_id)
        .exclude(reported_with__player=player)
    ):
        waiting.append(Awaiting(report.match, "confirm_result", report=report))
    return sorted(waiting, key=lambda item: item.match.pk)


def match_clock(match: Match, at: datetime.datetime) -> dict[str, Any]:
    """The match clock as the API and the match page show it at ``at``, the server's time:
    each player's bank left (seconds; the running side's as of ``at``), the running side
    ("player_one" or "player_two") with its delay left, and ``flagged``, the side out of time
    (who lost on time, or whose time is up and not yet enforced)."""
    if not match.has_clock:
        return {
            "enabled": False,
            "bank_seconds": 0,
            "delay_seconds": 0,
            "remaining": None,
            "running": None,
            "delay_left": None,
            "turn_started_at": None,
            "deadline": None,
            "server_time": at,
            "flagged": None,
        }
    remaining = {"player_one": match.clock_one_ms, "player_two": match.clock_two_ms}
    running, delay_left, flagged = match.clock_running or None, 0, None
    if running is not None and match.clock_turn_started_at is not None:
        delay_left, remaining[running] = clock.left_at(
            match.clock_turn_started_at, match.clock_delay_seconds, remaining[running], at
        )
        if delay_left == 0 and remaining[running] == 0:
            flagged = running
    if match.ended_by == Match.EndedBy.TIME:
        flagged = "player_two" if match.winner_id == match.player_one_id else "player_one"
    return {
        "enabled": True,
        "bank_seconds": match.clock_bank_seconds,
        "delay_seconds": match.clock_delay_seconds,
        "remaining": {side: ms / 1000 for side, ms in remaining.items()},
        "running": running,
        "delay_left": delay_left / 1000,
        "turn_started_at": match.clock_turn_started_at,
        "deadline": match.clock_deadline,
        "server_time": at,
        "flagged": flagged,
    }


def current_game(match: Match) -> Game | None:
    return match.games.filter(status=Game.Status.IN_PROGRESS).order_by("-number").first()


def game_turn_began(game: Game) -> datetime.datetime:
    """When the player to move could first act: after the last turn of the game, else at its
    start (a roll does not restart it). The claim after inactivity counts from here."""
    last = game.turns.order_by("-ply").values_list("created_at", flat=True).first()
    return last or game.started_at


def claim_opens_at(match: Match, game: Game) -> datetime.datetime:
    """When the waiting player of ``match`` (online, without a clock) may claim it, ``game``
    being its game in progress: ``claim_after_hours`` after the player to move's turn began."""
    return game_turn_began(game) + datetime.timedelta(hours=match.claim_after_hours)


def player_to_move(game: Game) -> Player | None:
    """Who acts next: the player whose turn it is, or the one who must answer a double."""
    if game.is_over:
        return None
    if game.cube_offered_by:
        return game.player_of(opponent(game.cube_offered_by))
    return game.player_of(game.position["turn"])


def is_roll_due(game: Game) -> bool:
    return (
        not game.is_over
        and game.dice is None
        and not game.position.get("pending")
        and not game.cube_offered_by
    )


def may_double(game: Game) -> bool:
    """May the player to move offer a double now (docs/rules.md §6.6): the cube applies to this
    game's
    variant, it is not the Crawford game, a roll is due (doubling comes before rolling), and the
    cube is in the middle or theirs."""
    if not is_roll_due(game):
        return False
    turn = game.position["turn"]
    return engine_may_double(game_cube(game), turn, game.variant, match_options(game.match))


def game_legal_plays(game: Game) -> list[Outcome]:
    """Legal plays for the player to move: for the dice on the table or the pending stage."""
    if game.is_over:
        return []
    position = game_position(game)
    if position.pending:
        return legal_plays_for(game.variant, position, None, match_options(game.match))
    if game.dice is None:
        return []
    return legal_plays_for(game.variant, position, game.dice, match_options(game.match))


def game_step_graph(game: Game) -> StepGraph | None:
    """The legal plays of the player to move a step at a time (the board of the match page), or
    None when no play is due (a roll, a double to answer, the game over)."""
    if game.is_over or game.cube_offered_by:
        return None
    position = game_position(game)
    if not position.pending and game.dice is None:
        return None
    dice = None if position.pending else game.dice
    return step_graph(game.variant, position, dice, match_options(game.match))


def legal_plays_for(
    variant: str, position: Position, dice: Sequence[int] | None, options: Options
) -> list[Outcome]:
    """The engine's ``legal_plays``, remembered for recent arguments: a roll lists the plays
    once to spot a forced pass, and its answer lists them again."""
    return list(_legal_plays(variant, position, None if dice is None else tuple(dice), options))


@lru_cache(maxsize=16)  # per process; a few requests' worth: every entry is GC work
def _legal_plays(
    variant: str, position: Position, dice: tuple[int, ...] | None, options: Options
) -> tuple[Outcome, ...]:
    # Engine values are immutable and hashable; an Outcome builds its position lazily, once.
    return tuple(legal_plays(variant, position, dice, options))


def game_turns(game: Game) -> QuerySet[Turn]:
    return game.turns.order_by("ply")


def game_replay_problems(game: Game) -> list[str]:
    """Replay the turn log from the start through the engine (games.replay); describe every
    difference from the stored positions and cube (empty when the game is consistent). The
    replay stops at the first turn that breaks the rules."""
    options = match_options(game.match)
    position = start_position(game.variant, "w")
    cube = Cube(crawford=game.crawford)
    problems: list[str] = []
    turns = list(game_turns(game))
    expected_ply = 1
    for turn in turns:
        if turn.ply != expected_ply:
            problems.append(f"ply {turn.ply}: expected ply {expected_ply}")
        expected_ply = turn.ply + 1
    try:
        steps = replay.replay_log(game.variant, options, turns, crawford=game.crawford)
        for turn, step in zip(turns, steps, strict=False):  # stops at a ReplayError
            position, cube = step.position_after, step.cube
            if position.to_json() != turn.position_after:
                problems.append(f"ply {turn.ply}: stored position_after differs from the replay")
    except replay.ReplayError as error:
        problems.append(f"ply {turns[error.number - 1].ply}: {error.message}")
        return problems
    if position.to_json() != game.position:
        problems.append("the game's current position differs from the replay of its turns")
    offered = "" if game.is_over else game.cube_offered_by
    if (cube.value, cube.owner, cube.offered_by) != (game.cube_value, game.cube_owner, offered):
        problems.append("the game's cube differs from the replay of its cube actions")
    if expected_ply != game.ply:
        problems.append(f"the game is at ply {game.ply} but its log ends at ply {expected_ply - 1}")
    return problems


def game_dice_proof(game: Game) -> dict[str, Any]:
    """The commitment, the seed once revealed, every roll, and whether they all check out."""
    rolls = [(t.ply, t.dice) for t in game_turns(game) if t.kind == Turn.Kind.ROLL]
    proof: dict[str, Any] = {
        "game": game.pk,
        "commitment": game.seed_commitment,
        "seed": game.seed if game.seed_revealed else None,
        "revealed": game.seed_revealed,
        "opening_rolls": game.opening_rolls,
        "rolls": [{"ply": ply, "dice": list(d)} for ply, d in rolls],
        "derivation": DERIVATION,
        "verified": None,
        "problems": [],
    }
    if game.seed_revealed:
        check = dice.verify(
            seed=game.seed,
            commitment_hex=game.seed_commitment,
            rolls=rolls,
            opening_rolls=game.opening_rolls,
            first_dice_from_opening=match_options(game.match).opening_roll == "use_opening_dice",
        )
        proof["verified"] = check.ok
        proof["problems"] = list(check.problems)
    return proof


DERIVATION = (
    "commitment = SHA-256(seed bytes). Die stream for a label: bytes of "
    "HMAC-SHA256(key=seed bytes, msg='<label>:<block>') for block 0, 1, ...; each byte b < 252 "
    "gives die b % 6 + 1, bytes 252-255 are skipped. Dice of ply N: first two dice of label "
    "'roll:N'. Opening roll: pairs (player one, player two) from label 'opening' until they differ."
)


FRIENDLY_EVENT = "Tabla match"


def match_export_mat(match: Match) -> str:
    """The match's Tabla games as a Jellyfish ``.mat`` file (GNU Backgammon, XG)."""
    return to_mat(match_record(match), match_options(match))


def match_record(match: Match) -> MatchRecord:
    """``match`` as the exporters' plain record: every game in order, with its turns and the
    match score before it (the score of every finished game folded through ``record_game``)."""
    options = match_options(match)
    state = MatchState()
    games: list[GameRecord] = []
    for game in match.games.order_by("number").prefetch_related("turns"):
        games.append(_game_record(match, game, state.scores))
        if game.status == Game.Status.FINISHED:
            state = record_game(state, game_result(game), game_winner_index(game), options)
    one, two = match.player_one, match.player_two
    event, round_name = _event_and_round(match)
    return MatchRecord(
        player1=one.display_name,
        player2=two.display_name,
        match_length=match.target_score,
        games=tuple(games),
        event=event,
        round=round_name,
        date=match.created_at.date(),
        ratings=(one.rating, two.rating),
        match_id=str(match.pk),
        cube=options.cube_applies_to("tabla"),
    )


def _game_record(match: Match, game: Game, scores: tuple[int, int]) -> GameRecord:
    turns = tuple(
        TurnRecord(
            colour=turn.side,
            dice=tuple(turn.dice) if turn.kind == Turn.Kind.ROLL else None,
            moves=tuple(turn.moves),
            cube=str(turn.kind) if turn.kind in Turn.CUBE_KINDS else "",
        )
        for turn in game.turns.all()  # prefetched, in ply order (Turn.Meta.ordering)
    )
    finished = game.status == Game.Status.FINISHED
    return GameRecord(
        number=game.number,
        variant=game.variant,
        white_player=1 if game.white_id == match.player_one_id else 2,
        scores=scores,
        turns=turns,
        winner=game_result(game).winner if finished else None,
        points=(game.result_points or 0) if finished else 0,
    )


def _event_and_round(match: Match) -> tuple[str, str]:
    """The event's name and round of a match (a tournament's, named by the app that runs it:
    games.exports.events), else (FRIENDLY_EVENT, "")."""
    return event_and_round(match) or (FRIENDLY_EVENT, "")


# --- notifications (docs/decisions.md D115) ---------------------------------------------------


def notifications_for(user: User) -> QuerySet[Notification]:
    """``user``'s own notifications, newest first, each with its match's two players (none for
    a signed-out user)."""
    if not getattr(user, "is_authenticated", False):
        return Notification.objects.none()
    return Notification.objects.filter(recipient_id=user.pk).select_related(
        "match__player_one", "match__player_two"
    )


def notifications_unread_count(user: User) -> int:
    """How many of ``user``'s notifications are unread (the header's count: one index-only
    count on the partial index ``notification_unread``)."""
    if not getattr(user, "is_authenticated", False):
        return 0
    return Notification.objects.filter(recipient_id=user.pk, read_at__isnull=True).count()
