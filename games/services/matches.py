"""Match lifecycle: create a match, start its games, finish games and the match, forfeit."""

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
from games import dice, selectors
from games.clock import CLAIM_AFTER_HOURS, ClockSettings, ClockSettingsError
from games.engine import GameResult, Options, next_game, opening_roll, start_position
from games.engine.cube import points_scored
from games.engine.match import match_winner
from games.models import Game, Match
from games.selectors import User
from games.services.ratings import ratings_enqueue
from games.signals import match_finished
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
    match that did not exist; the caller tells the listeners of what it belongs to)."""
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
    return Match.objects.bulk_create(matches)


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
        return create(invitation=True)


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


def game_start(*, match: Match) -> Game:
    """Start the next game of the cycle: variant, starter (opening roll from the game's seed
    when needed, docs/rules.md §6.3) and the dice commitment. The starter plays white. The
    first game of a match with a clock starts the clock of the player to move."""
    from games.services import clock as clock_services  # these modules import this one
    from games.services.play import dice_put, roll_if_auto

    options = selectors.match_options(match)
    upcoming = next_game(selectors.match_state(match), options)
    seed = dice.new_seed()
    rounds: list[list[int]] = []
    starter = upcoming.starter
    if starter is None:
        stream = dice.opening_stream(seed)
        opening = opening_roll(lambda: next(stream))
        starter, rounds = opening.starter, [list(pair) for pair in opening.rounds]
    players = match.players
    last = match.games.order_by("-number").values_list("number", flat=True).first() or 0
    game = Game.objects.create(
        match=match,
        number=last + 1,
        variant=upcoming.variant,
        white=players[starter],
        black=players[1 - starter],
        opening_rolls=rounds,
        position=start_position(upcoming.variant, "w").to_json(),
        crawford=upcoming.crawford,
        seed=seed,
        seed_commitment=dice.commitment(seed),
    )
    if match.status != Match.Status.IN_PROGRESS:
        match.status = Match.Status.IN_PROGRESS
        match.save(update_fields=["status", "updated_at"])
    if rounds and options.opening_roll == "use_opening_dice":
        dice_put(game=game, dice=rounds[-1])
        game.save()
    elif match.auto_roll:
        roll_if_auto(game)
        game.save()
    if match.has_clock and not match.clock_running:
        clock_services.clock_start(game=game)
    return game


def game_finish(*, game: Game, result: GameResult, ended_by: str, start_next: bool = True) -> Game:
    """Record ``result`` on ``game`` (saved), then update the match: its score, its end, or the
    next game (online matches). Must run inside the caller's transaction."""
    game.status = Game.Status.FINISHED
    game.ended_by = ended_by
    game.result_winner = game.player_of(result.winner) if result.winner else None
    game.result_kind = result.kind
    # The points scored: the cube multiplies a win (docs/rules.md §6.4), not a tie's points.
    game.result_points = points_scored(result, game.cube_value)
    game.cube_offered_by = ""
    game.dice = None
    game.finished_at = timezone.now()
    game.save()
    match_update(match=game.match, start_next=start_next)
    return game


def match_update(*, match: Match, start_next: bool) -> Match:
    """Fold the finished games into the score; finish the match or start its next game."""
    options = selectors.match_options(match)
    state = selectors.match_state(match)
    match.score_one, match.score_two = state.scores
    winner = match_winner(state, options)
    if winner is not None:
        match.status, match.ended_by = Match.Status.FINISHED, Match.EndedBy.SCORE
        match.winner = match.players[winner]
    match.save()
    if winner is not None:
        match_finished_announce(match)
    elif start_next and match.mode == Match.Mode.ONLINE:
        game_start(match=match)
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


def check_decider(user: User, match: Match, what: str) -> None:
    """Refuse (403) anyone but an organiser of ``match`` (staff included) who does not play in
    it: a party to a match never settles its reports, forfeits it or corrects it, even as its
    organiser; a co-organiser or staff does (docs/decisions.md D39). ``what`` names the action
    ("declare a forfeit")."""
    if not selectors.is_organiser(user, match):
        raise NotAllowedError(f"only the match's organiser may {what}")
    if selectors.plays_in(user, match):
        raise NotAllowedError(selectors.PARTY_DECIDES)


def match_locked(pk: int) -> Match | None:
    """Match ``pk`` locked for the rest of the transaction, after its game in progress: the play
    services lock a game and then its match, so a service that ends a match (a forfeit, a
    time-out, a claim) takes them in the same order, and one that meets a play waits for it
    instead of deadlocking with it."""
    list(
        Game.objects.select_for_update(no_key=True)
        .filter(match_id=pk, status=Game.Status.IN_PROGRESS)
        .values_list("pk", flat=True)
    )
    return Match.objects.select_for_update(no_key=True).filter(pk=pk).first()


def match_end_early(match: Match, *, winner: Player, status: str, ended_by: str) -> Match:
    """End ``match`` (locked by the caller) before its score decided it: ``winner`` wins it, a
    game in progress is abandoned (its seed revealed), the score stays as it was and the clock
    stops. Sends match_finished."""
    match.games.filter(status=Game.Status.IN_PROGRESS).update(
        status=Game.Status.ABANDONED, dice=None, finished_at=timezone.now()
    )
    match.status, match.ended_by, match.winner = status, ended_by, winner
    match.clock_running, match.clock_turn_started_at, match.clock_deadline = "", None, None
    match.save()
    match_finished_announce(match)
    return match


def match_correct(*, match: Match, winner: Player, score_one: int, score_two: int) -> Match:
    """An organiser's correction of a match's outcome (the tournament service checks who may).
    The games stay as they were played; any game in progress is abandoned. Sends no signal:
    the caller re-propagates the result itself."""
    if winner.pk not in (match.player_one_id, match.player_two_id):
        raise InvalidRequestError(f"player {winner.pk} does not play in this match")
    match.games.filter(status=Game.Status.IN_PROGRESS).update(
        status=Game.Status.ABANDONED, dice=None, finished_at=timezone.now()
    )
    match.winner = winner
    match.score_one, match.score_two = score_one, score_two
    if match.status != Match.Status.FORFEITED:
        match.status = Match.Status.FINISHED
    match.save()
    return match


def _check_participant(match: Match, user: User) -> None:
    if not selectors.is_participant(user, match, selectors.player_for(user)):
        raise NotAllowedError("only the two players and the organiser may do this")


def match_finished_announce(match: Match) -> None:
    """Tell the apps above that ``match`` is over (the match_finished signal: tournaments records
    the result), then rate it once the transaction commits (games.services.ratings): that
    match and its games, after every result rated before them."""
    match_finished.send(sender=Match, match=match)
    ratings_enqueue(match_id=match.pk)
