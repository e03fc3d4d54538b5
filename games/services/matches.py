"""Match lifecycle, the public use-cases: create, challenge and answer, start, forfeit, concede
and correct a match. Each owns its transaction; the steps they share with the other services
(starting a game, ending a match) are in ``games/services/_steps.py``."""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext

from common.errors import ConflictError, InvalidRequestError, NotAllowedError
from games import selectors
from games.clock import CLAIM_AFTER_HOURS, ClockSettings, ClockSettingsError
from games.engine import Options
from games.models import Match, Notification
from games.selectors import User
from games.services._steps import (
    check_decider,
    game_start,
    games_abandon,
    match_end_early,
    match_locked,
    match_ready_notify,
    notifications_add,
    notifications_settle,
)
from games.services.ratings import ratings_enqueue
from players.models import Player
from players.selectors import account


def match_create(
    *,
    creator: User,
    player_one: Player,
    player_two: Player,
    target_score: int | None = None,
    options: dict[str, Any] | None = None,
    mode: str = Match.Mode.ONLINE,
    tournament_slot: str = "",
    is_public: bool = True,
    start: bool = True,
    auto_roll: bool = False,
    rated: bool = True,
    invitation: bool = False,
    clock: dict[str, Any] | None = None,
    claim_after_hours: int | None = None,
    opened_by: User | None = None,
) -> Match:
    """Create a match as ``creator``, who is recorded as the one who entered it. The caller
    has decided that ``creator`` may (``match_propose`` for a user of the API, the tournament
    services for their matches): a creator who is not one of the players becomes its organiser.

    ``target_score`` overrides ``options.match_length``; options are validated by the engine.
    With ``invitation`` the match waits, unrated, for the opponent to accept (``match_accept``).
    Otherwise an online match with ``start`` begins at once with game 1 and its opening roll,
    and an over-the-board match is open for reports. With ``auto_roll`` the server rolls for
    the player to move whenever a roll is due. ``clock`` (games.clock.ClockSettings JSON; online
    matches only) gives each player a bank of its per-point seconds times the match length;
    without one, ``claim_after_hours`` (default 72) of the opponent's inactivity let the waiting
    player claim the match (games/services/clock.py).

    Its players with an account but the one whose act opened it (``opened_by``, default
    ``creator``: the taker of an open challenge opens the poster's match) are told that it is
    ready for them (a notification, and its e-mail: docs/decisions.md D115).
    """
    match = _match_new(
        creator=creator,
        player_one=player_one,
        player_two=player_two,
        rules=_rules(options, target_score),
        mode=mode,
        tournament_slot=tournament_slot,
        is_public=is_public,
        auto_roll=auto_roll,
        rated=rated,
        invitation=invitation,
        clock=clock,
        claim_after_hours=claim_after_hours,
    )
    with transaction.atomic():
        match.save(force_insert=True)
        if not invitation:
            _open(match, start=start)
            match_ready_notify([match], but=(opened_by or creator).pk)
    return match


def matches_create_many(
    *,
    creator: User,
    pairs: Sequence[tuple[Player, Player]],
    organiser: User | None = None,
    target_score: int | None = None,
    options: dict[str, Any] | None = None,
    mode: str = Match.Mode.ONLINE,
    tournament_slot: str = "",
    rated: bool = True,
    clock: dict[str, Any] | None = None,
    claim_after_hours: int | None = None,
) -> list[Match]:
    """``match_create`` without ``start`` for many pairs at once, with the same checks and the
    same rows, in one INSERT: an online match is scheduled, an over-the-board one open for
    reports. ``organiser`` organises every match, even one that it plays in (the tournament
    services: the tournament's creator); without it, as ``match_create``. The rows are
    inserted in bulk, so no ``post_save`` is sent: nothing is pushed for them (nobody follows a
    match that did not exist; the caller tells the listeners of what it belongs to). Their
    players (but ``creator``) are told that the match is ready for them: a notification, and
    its e-mail (docs/decisions.md D115)."""
    rules = _rules(options, target_score)
    options_json = rules.to_json()
    matches = []
    for player_one, player_two in pairs:
        match = _match_new(
            creator=creator,
            player_one=player_one,
            player_two=player_two,
            rules=rules,
            mode=mode,
            tournament_slot=tournament_slot,
            rated=rated,
            clock=clock,
            claim_after_hours=claim_after_hours,
            options_json=options_json,
        )
        if organiser is not None:
            match.organiser = account(organiser)
        if mode == Match.Mode.OVER_THE_BOARD:
            match.status = Match.Status.IN_PROGRESS  # as _open leaves it
        matches.append(match)
    with transaction.atomic(savepoint=False):  # in the caller's, as a tournament's draw
        created = Match.objects.bulk_create(matches)
        match_ready_notify(created, but=creator.pk)
    return created


def _rules(options: dict[str, Any] | None, target_score: int | None) -> Options:
    """The engine's options, checked, with ``target_score`` as the match length if given."""
    rules = Options.from_json(options or {})
    if target_score is not None:
        rules = Options.from_json({**rules.to_json(), "match_length": target_score})
    return rules


def _match_new(
    *,
    creator: User,
    player_one: Player,
    player_two: Player,
    rules: Options,
    mode: str,
    tournament_slot: str,
    is_public: bool = True,
    auto_roll: bool = False,
    rated: bool,
    invitation: bool = False,
    clock: dict[str, Any] | None,
    claim_after_hours: int | None,
    options_json: dict[str, Any] | None = None,
) -> Match:
    """The unsaved match ``match_create`` stores, checked (``options_json``: ``rules`` as JSON,
    when the caller has it already)."""
    if player_one.pk == player_two.pk:
        raise InvalidRequestError(gettext("a match needs two different players"))
    bank, delay = _clock_bank_and_delay(clock, mode, rules.match_length)
    low, high = CLAIM_AFTER_HOURS
    if claim_after_hours is not None and not low <= claim_after_hours <= high:
        raise InvalidRequestError(
            f"claim_after_hours must be from {low} to {high}, got {claim_after_hours}"
        )
    timing: dict[str, Any] = {"claim_after_hours": claim_after_hours} if claim_after_hours else {}
    is_player = creator.pk in (player_one.user_id, player_two.user_id)
    return Match(
        player_one=player_one,
        player_two=player_two,
        organiser=None if is_player else account(creator),
        created_by=account(creator),
        rated=rated and not invitation,
        status=Match.Status.INVITED if invitation else Match.Status.SCHEDULED,
        mode=mode,
        target_score=rules.match_length,
        options=dict(options_json) if options_json is not None else rules.to_json(),
        tournament_slot=tournament_slot,
        is_public=is_public,
        auto_roll=auto_roll and mode == Match.Mode.ONLINE,
        clock_bank_seconds=bank,
        clock_delay_seconds=delay,
        clock_one_ms=bank * 1000,
        clock_two_ms=bank * 1000,
        **timing,
    )


def _clock_bank_and_delay(clock: Any, mode: str, match_length: int) -> tuple[int, int]:
    """(bank, delay) in seconds of the clock asked for; (0, 0) for none."""
    try:
        settings = ClockSettings.from_json(clock)
    except ClockSettingsError as error:
        raise InvalidRequestError(str(error)) from None
    if settings is None:
        return 0, 0
    if mode != Match.Mode.ONLINE:
        raise InvalidRequestError(
            "a clock needs an online match: over the board the server sees no moves to time"
        )
    return settings.bank_seconds(match_length), settings.delay_seconds


def match_propose(
    *,
    user: User,
    player_one: Player,
    player_two: Player,
    target_score: int | None = None,
    options: dict[str, Any] | None = None,
    mode: str = Match.Mode.ONLINE,
    tournament_slot: str = "",
    is_public: bool = True,
    start: bool = True,
    auto_roll: bool = False,
    clock: dict[str, Any] | None = None,
    claim_after_hours: int | None = None,
) -> Match:
    """A user of the API creates a match (README, "Trust"):

    * staff may create a match between any two players; it starts at once and is rated;
    * a player may challenge an opponent: the match waits (status "invited", unrated) until the
      opponent accepts, and only then starts and counts (``match_accept``); an opponent
      without an account could never accept, so challenging one is refused (409);
    * nobody else may: a tournament's matches are created by the tournament itself.

    Only staff may set ``tournament_slot`` (the label that files a match under a tournament).
    """
    create = partial(
        match_create,
        creator=user,
        player_one=player_one,
        player_two=player_two,
        target_score=target_score,
        options=options,
        mode=mode,
        is_public=is_public,
        start=start,
        auto_roll=auto_roll,
        clock=clock,
        claim_after_hours=claim_after_hours,
    )
    if getattr(user, "is_staff", False):
        return create(tournament_slot=tournament_slot)
    player = selectors.player_for(user)
    if player is None or player.pk not in (player_one.pk, player_two.pk):
        raise NotAllowedError(
            gettext(
                "you may create a match only as one of its players (your opponent then accepts "
                "it); matches between other players are created by staff or by a tournament"
            )
        )
    if tournament_slot:
        raise NotAllowedError("only staff may file a match under a tournament_slot")
    opponent = player_two if player.pk == player_one.pk else player_one
    if opponent.user_id is None:
        raise ConflictError(
            gettext(
                "player %(id)s has no account, so cannot accept a challenge; an organiser "
                "enters matches against players without an account"
            )
            % {"id": opponent.pk}
        )
    with transaction.atomic():
        _check_pending_challenges(user, player, opponent)
        match = create(invitation=True)
        notifications_add(
            Notification.Kind.CHALLENGE_RECEIVED, [(opponent.user_id, match.pk, None)]
        )
    return match


def _check_pending_challenges(user: User, player: Player, opponent: Player) -> None:
    """Refuse (409) a challenge beyond the challenges waiting for an answer that one player may
    send (CHALLENGES_PENDING_PER_CHALLENGER) or be sent (CHALLENGES_PENDING_PER_PLAYER): a
    flood of them would fill the opponent's /me/ and challenge list (docs/decisions.md D54).
    The two players' rows are locked (in id order), so two challenges at once count each
    other."""
    list(Player.objects.select_for_update().filter(pk__in=[player.pk, opponent.pk]).order_by("pk"))
    invited = Match.objects.filter(status=Match.Status.INVITED)
    sent = invited.filter(created_by=account(user)).count()
    if sent >= settings.CHALLENGES_PENDING_PER_CHALLENGER:
        raise ConflictError(
            f"you have {sent} challenges waiting for an answer, the most one player may send "
            f"(CHALLENGES_PENDING_PER_CHALLENGER = {settings.CHALLENGES_PENDING_PER_CHALLENGER})"
            "; call one off or wait for the answers"
        )
    received = (
        invited.filter(Q(player_one=opponent) | Q(player_two=opponent))
        .exclude(created_by_id=opponent.user_id)
        .count()
    )
    if received >= settings.CHALLENGES_PENDING_PER_PLAYER:
        raise ConflictError(
            f"player {opponent.pk} has {received} challenges waiting for an answer, the most one "
            f"player may be sent (CHALLENGES_PENDING_PER_PLAYER = "
            f"{settings.CHALLENGES_PENDING_PER_PLAYER}); try again once they have answered"
        )


def match_accept(*, match: Match, user: User) -> Match:
    """The challenged player accepts: the match becomes rated and starts (an online match with
    game 1 and its opening roll, an over-the-board match open for reports)."""
    with transaction.atomic():
        match = Match.objects.select_for_update(no_key=True).get(pk=match.pk)
        player = selectors.player_for(user)
        if player is None or player != selectors.challenged_player(match):
            raise NotAllowedError(gettext("only the challenged player may accept this match"))
        if match.status != Match.Status.INVITED:
            raise ConflictError(
                gettext("the match is not waiting for an answer (%(status)s)")
                % {"status": match.status}
            )
        match.rated = True
        match.accepted_at = timezone.now()
        match.status = Match.Status.SCHEDULED
        match.save(update_fields=["rated", "accepted_at", "status", "updated_at"])
        _open(match, start=True)
        notifications_settle(match_id=match.pk, kind=Notification.Kind.CHALLENGE_RECEIVED)
        match_ready_notify([match], but=user.pk)
    match.refresh_from_db()
    return match


def match_decline(*, match: Match, user: User) -> Match:
    """The challenged player declines, or the challenger withdraws: the match is never
    played (status "declined")."""
    with transaction.atomic():
        match = Match.objects.select_for_update(no_key=True).get(pk=match.pk)
        player = selectors.player_for(user)
        if player is None or player.pk not in (match.player_one_id, match.player_two_id):
            raise NotAllowedError(
                gettext("only the two players may decline or withdraw a challenge")
            )
        if match.status != Match.Status.INVITED:
            raise ConflictError(
                gettext("the match is not waiting for an answer (%(status)s)")
                % {"status": match.status}
            )
        match.status = Match.Status.DECLINED
        match.save(update_fields=["status", "updated_at"])
        notifications_settle(match_id=match.pk, kind=Notification.Kind.CHALLENGE_RECEIVED)
    return match


def _open(match: Match, *, start: bool) -> None:
    """An over-the-board match is open for reports at once; an online one with ``start``
    begins game 1."""
    if match.mode == Match.Mode.OVER_THE_BOARD:
        match.status = Match.Status.IN_PROGRESS
        match.save(update_fields=["status", "updated_at"])
    elif match.mode == Match.Mode.ONLINE and start:
        game_start(match=match)


def match_start(*, match: Match, user: User) -> Match:
    """Start a scheduled online match (players or the organiser)."""
    with transaction.atomic():
        match = Match.objects.select_for_update(no_key=True).get(pk=match.pk)
        _check_participant(match, user)
        if match.status != Match.Status.SCHEDULED or match.mode != Match.Mode.ONLINE:
            raise ConflictError(
                gettext("only a scheduled online match can be started (%(status)s)")
                % {"status": match.status}
            )
        game_start(match=match)
    match.refresh_from_db()
    return match


def match_forfeit(*, match: Match, user: User, loser: Player) -> Match:
    """The organiser ends the match: ``loser`` forfeits, the opponent wins; a game in progress
    is abandoned (its seed revealed). The score stays as it was."""
    with transaction.atomic():
        locked = match_locked(match.pk)
        if locked is None:
            raise ConflictError(f"match {match.pk} no longer exists")
        match = locked
        check_decider(user, match, "declare a forfeit")
        if match.status in (Match.Status.FINISHED, Match.Status.FORFEITED):
            raise ConflictError(f"the match is already over ({match.status})")
        if loser.pk not in (match.player_one_id, match.player_two_id):
            raise InvalidRequestError(f"player {loser.pk} does not play in this match")
        winner = match.player_two if loser.pk == match.player_one_id else match.player_one
        match_end_early(
            match, winner=winner, status=Match.Status.FORFEITED, ended_by=Match.EndedBy.FORFEIT
        )
    return match


def match_concede(*, match: Match, user: User) -> Match:
    """``user``'s own player gives ``match`` up (withdrawing from a tournament): the opponent
    wins by forfeit, as in ``match_forfeit``. Nobody concedes for someone else."""
    with transaction.atomic():
        locked = match_locked(match.pk)
        if locked is None:
            raise ConflictError(f"match {match.pk} no longer exists")
        match = locked
        player = selectors.player_for(user)
        if player is None or player.pk not in (match.player_one_id, match.player_two_id):
            raise NotAllowedError(gettext("only a player of the match may give it up"))
        if match.status in (Match.Status.FINISHED, Match.Status.FORFEITED):
            raise ConflictError(f"the match is already over ({match.status})")
        winner = match.player_two if player.pk == match.player_one_id else match.player_one
        match_end_early(
            match, winner=winner, status=Match.Status.FORFEITED, ended_by=Match.EndedBy.FORFEIT
        )
    return match


def match_correct(
    *, match: Match, user: User, winner: Player, score_one: int, score_two: int
) -> Match:
    """An organiser corrects a finished match's outcome: ``winner`` wins it with the score
    ``score_one``-``score_two`` (the tournament services check that the score is one the match
    could end with: docs/decisions.md D25). Only an organiser who does not play in it may
    (docs/decisions.md D39). The games stay as they were played; any game in progress is
    abandoned. Sends no signal: the caller re-propagates the result itself. Every rating is
    recomputed once the transaction commits, since a corrected result changes its place in
    every later rating: from that match's point in the history onward (docs/decisions.md
    D137)."""
    with transaction.atomic():
        locked = match_locked(match.pk)
        if locked is None:
            raise ConflictError(f"match {match.pk} no longer exists")
        match = locked
        check_decider(user, match, "correct its result")
        if winner.pk not in (match.player_one_id, match.player_two_id):
            raise InvalidRequestError(f"player {winner.pk} does not play in this match")
        games_abandon(match)
        match.winner = winner
        match.score_one, match.score_two = score_one, score_two
        if match.status != Match.Status.FORFEITED:
            match.status = Match.Status.FINISHED
        match.save()
        ratings_enqueue(match_id=match.pk, corrected=True)
    return match


def _check_participant(match: Match, user: User) -> None:
    if not selectors.is_participant(user, match, selectors.player_for(user)):
        raise NotAllowedError("only the two players and the organiser may do this")
