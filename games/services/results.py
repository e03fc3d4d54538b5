"""Over-the-board results: a player reports the next game, or the final score of the whole
match, the opponent confirms or disputes it, and the organiser may override. Only confirmed (or
overridden) results count towards the score."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from common.errors import ConflictError, InvalidRequestError, NotAllowedError
from games import selectors
from games.engine import (
    GameResult,
    InvalidScoreError,
    NextGame,
    Options,
    final_score_winner,
    next_game,
    start_position,
)
from games.engine.cube import KIND_POINTS, cube_for_points, points_before_cube
from games.models import Game, Match, Notification, ResultReport
from games.records import Replay, record_replay
from games.selectors import User
from games.services._steps import (
    check_decider,
    game_finish,
    match_finished_announce,
    notifications_settle,
    result_to_confirm_notify,
    turns_create,
)
from players.models import Player
from players.selectors import account

KIND_FOR_POINTS = {1: "single", 2: "mars", 3: "triple"}
OPEN = (ResultReport.Status.PENDING, ResultReport.Status.DISPUTED)


def result_report(
    *,
    match: Match,
    user: User,
    winner: Player | None = None,
    points: int | None = None,
    kind: str | None = None,
    starter: Player | None = None,
    record: list[Any] | None = None,
    scope: str = ResultReport.Scope.GAME,
    score_one: int | None = None,
    score_two: int | None = None,
) -> ResultReport:
    """Report the result of the match's next game, or (``scope`` "match") the final score of
    the whole match. A player's report waits for the opponent; the organiser's own report counts
    at once. A move record is replayed by the engine."""
    with transaction.atomic():
        match = Match.objects.select_for_update(no_key=True).get(pk=match.pk)
        player = selectors.player_for(user)
        is_player = player is not None and player.pk in (match.player_one_id, match.player_two_id)
        if not is_player and not selectors.is_organiser(user, match):
            raise NotAllowedError(
                gettext("only the two players and the organiser may report results")
            )
        _check_open_for_reports(match)
        if match.reports.filter(status__in=OPEN).exists():
            raise ConflictError(gettext("a reported result is still waiting for confirmation"))
        report = ResultReport(match=match, reporter=account(user))
        _fill(report, winner, points, kind, starter, record, scope, score_one, score_two)
        report.save()
        if not is_player:
            _respond(report, user, ResultReport.Status.CONFIRMED)
            _apply(report)
        else:
            assert player is not None
            result_to_confirm_notify(report, player.pk)
    return report


def result_confirm(*, report: ResultReport, user: User) -> ResultReport:
    """The reporter's opponent accepts the result: it is recorded as a finished game (or, for
    a match report, as the final score). The match's organiser, when not one of its players,
    may accept a pending or a disputed report as reported too (docs/decisions.md D39)."""
    with transaction.atomic():
        report = ResultReport.objects.select_for_update(no_key=True).get(pk=report.pk)
        organiser = selectors.may_decide(user, report.match)
        if (
            not organiser
            and report.reporter_id == user.pk
            and selectors.is_organiser(user, report.match)
        ):
            raise NotAllowedError(selectors.PARTY_DECIDES)  # their own report in their own match
        if not organiser:
            _check_opponent(
                report,
                user,
                gettext(
                    "only the reporter's opponent or the match's organiser may confirm a result"
                ),
            )
        if report.status not in (OPEN if organiser else (ResultReport.Status.PENDING,)):
            raise ConflictError(
                gettext("the report is already %(status)s") % {"status": report.status}
            )
        _check_open_for_reports(report.match)
        _respond(report, user, ResultReport.Status.CONFIRMED)
        _apply(report)
    return report


def result_dispute(*, report: ResultReport, user: User, reason: str = "") -> ResultReport:
    """The reporter's opponent rejects the result; the organiser settles it with an override."""
    with transaction.atomic():
        report = _locked(report)
        _check_opponent(report, user)
        report.dispute_reason = reason
        _respond(report, user, ResultReport.Status.DISPUTED)
    return report


def result_override(
    *,
    report: ResultReport,
    user: User,
    winner: Player | None = None,
    points: int | None = None,
    kind: str | None = None,
    starter: Player | None = None,
    record: list[Any] | None = None,
    scope: str = ResultReport.Scope.GAME,
    score_one: int | None = None,
    score_two: int | None = None,
) -> ResultReport:
    """The organiser decides a pending or disputed report (with a game result or a match
    score, whichever the report was); the decision counts at once. An organiser who plays in
    the match never does: a co-organiser or staff decides it (docs/decisions.md D39)."""
    with transaction.atomic():
        report = ResultReport.objects.select_for_update(no_key=True).get(pk=report.pk)
        match = report.match
        check_decider(user, match, "override a result")
        if report.status not in OPEN:
            raise ConflictError(
                gettext("the report is already %(status)s") % {"status": report.status}
            )
        _check_open_for_reports(match)
        _fill(report, winner, points, kind, starter, record, scope, score_one, score_two)
        _respond(report, user, ResultReport.Status.OVERRIDDEN)
        _apply(report)
    return report


def _fill(
    report: ResultReport,
    winner: Player | None,
    points: int | None,
    kind: str | None,
    starter: Player | None,
    record: list[Any] | None,
    scope: str,
    score_one: int | None,
    score_two: int | None,
) -> None:
    """Check a reported result against the match and put it on ``report`` (not saved)."""
    match = report.match
    report.scope = scope
    if scope == ResultReport.Scope.MATCH:
        if points is not None or kind or starter is not None or record is not None:
            raise InvalidRequestError(
                "a match result gives score_one and score_two (and optionally the winner); "
                "points, kind, starter and record belong to a game result"
            )
        report.winner = _checked_match_score(match, winner, score_one, score_two)
        report.score_one, report.score_two = score_one, score_two
        report.game_number = report.points = report.starter = report.record = None
        report.kind = ""
        return
    if score_one is not None or score_two is not None:
        raise InvalidRequestError('score_one and score_two belong to a "match" result')
    if points is None:
        raise InvalidRequestError("a game result needs its points (0 for a tie, else 1 to 3)")
    report.kind = _checked_result(match, winner, points, kind, starter, record)
    report.game_number = match.games.count() + 1
    report.winner, report.points, report.starter, report.record = winner, points, starter, record
    report.score_one = report.score_two = None


def _checked_match_score(
    match: Match, winner: Player | None, score_one: int | None, score_two: int | None
) -> Player:
    """The winner of a reported final score ``score_one``-``score_two``: one a match could end
    with (``games.engine.final_score_winner``), no lower than the games already counted."""
    if score_one is None or score_two is None:
        raise InvalidRequestError("a match result needs both score_one and score_two")
    counted = (match.score_one, match.score_two)
    try:
        rules = Options.from_json(match.options)
        side = final_score_winner((score_one, score_two), match.target_score, counted, rules)
    except InvalidScoreError as error:
        raise InvalidRequestError(str(error)) from error
    champion = match.players[side]
    if winner is not None and winner.pk != champion.pk:
        raise InvalidRequestError(
            f"the score {score_one}-{score_two} makes player {champion.pk} the winner, "
            f"not player {winner.pk}"
        )
    return champion


def _checked_result(
    match: Match,
    winner: Player | None,
    points: int,
    kind: str | None,
    starter: Player | None,
    record: list[Any] | None,
) -> str:
    """Validate a reported result against the options and the next game; return its kind."""
    options = selectors.match_options(match)
    upcoming = next_game(selectors.match_state(match), options)
    players = (match.player_one_id, match.player_two_id)
    for who in (winner, starter):
        if who is not None and who.pk not in players:
            raise InvalidRequestError(f"player {who.pk} does not play in this match")
    cube_on = options.cube_applies_to(upcoming.variant) and not upcoming.crawford
    kind = kind or ("tie" if winner is None else KIND_FOR_POINTS.get(points))
    if kind is None:
        hint = " (with the cube, give the kind too: the points are its value times the cube)"
        raise InvalidRequestError(
            f"a game is worth 1, 2 or 3 points, not {points}{hint if cube_on else ''}"
        )
    expected = (1 if options.tapa_tie == "one_each" else 0) if kind == "tie" else KIND_POINTS[kind]
    if points != expected and not (
        cube_on and kind != "tie" and cube_for_points(points, kind) is not None
    ):
        unit = "point" if expected == 1 else "points"
        also = " times a cube value (1, 2, 4, ...)" if cube_on and kind != "tie" else ""
        raise InvalidRequestError(f"a {kind} result is worth {expected} {unit}{also}, not {points}")
    if (kind == "tie") != (winner is None):
        raise InvalidRequestError(gettext("a tie has no winner; any other result needs one"))
    if kind in ("tie", "mother") and upcoming.variant != "tapa":
        raise InvalidRequestError(f"a {kind} happens only in tapa, not in {upcoming.variant}")
    if record is not None:
        cube = None if kind == "tie" else cube_for_points(points, kind)
        _check_record(match, upcoming, winner, kind, starter, record, cube)
    return kind


def _check_record(
    match: Match,
    upcoming: NextGame,
    winner: Player | None,
    kind: str,
    starter: Player | None,
    record: list[Any],
    cube: int | None,
) -> None:
    white = _white(match, upcoming.starter, starter)
    options = selectors.match_options(match)
    replay = record_replay(upcoming.variant, options, record, crawford=upcoming.crawford)
    if replay.result is None:
        raise InvalidRequestError("the move record does not finish the game")
    recorded_winner = None
    if replay.result.winner is not None:
        recorded_winner = white.pk if replay.result.winner == "w" else _other(match, white).pk
    if recorded_winner != (winner.pk if winner else None) or replay.result.kind != kind:
        raise InvalidRequestError(
            f"the move record ends with {replay.result.kind} for "
            f"{recorded_winner or 'nobody'}, not the reported result (white was player {white.pk})"
        )
    if cube is not None and replay.cube_value != cube:
        raise InvalidRequestError(
            f"the move record ends with the cube at {replay.cube_value}, but the points reported "
            f"make it {cube}"
        )


def _apply(report: ResultReport) -> Game | None:
    """Turn a counted report into a finished Game (with its replayed turns) and score it, or
    for a match report, end the match with its score (no games are made up for it)."""
    match = report.match
    if report.scope == ResultReport.Scope.MATCH:
        assert report.score_one is not None and report.score_two is not None  # _fill: both
        match.score_one, match.score_two = report.score_one, report.score_two
        match.winner = report.winner
        match.status, match.ended_by = Match.Status.FINISHED, Match.EndedBy.SCORE
        match.save()
        match_finished_announce(match)
        return None
    reported = report.points
    assert reported is not None  # _fill refuses a game result without its points
    options = selectors.match_options(match)
    upcoming = next_game(selectors.match_state(match), options)
    white = _white(match, upcoming.starter, report.starter)
    replay: Replay | None = None
    if report.record is not None:
        replay = record_replay(upcoming.variant, options, report.record, crawford=upcoming.crawford)
    cube = 1 if report.kind == "tie" else (cube_for_points(reported, report.kind) or 1)
    position = replay.position if replay else start_position(upcoming.variant, "w")
    last = match.games.order_by("-number").values_list("number", flat=True).first() or 0
    game = Game.objects.create(
        match=match,
        number=last + 1,
        variant=upcoming.variant,
        white=white,
        black=_other(match, white),
        position=position.to_json(),
        ply=len(replay.turns) + 1 if replay else 1,
        cube_value=cube,
        cube_owner=replay.cube_owner if replay else "",
        crawford=upcoming.crawford,
    )
    if replay:
        turns_create(game, replay)
    report.game = game
    report.save(update_fields=["game"])
    colour = game.colour_of(report.winner) if report.winner else None
    points = points_before_cube(reported, cube)  # game_finish applies the cube
    result = GameResult(colour, report.kind, points)
    game_finish(game=game, result=result, ended_by=Game.EndedBy.REPORT, start_next=False)
    return game


def _white(match: Match, next_starter: int | None, starter: Player | None) -> Player:
    """Who played white (= started): as reported, else as the match rules say, else player one."""
    if starter is not None:
        return starter
    if next_starter is not None:
        return match.players[next_starter]
    return match.player_one


def _other(match: Match, player: Player) -> Player:
    return match.player_two if player.pk == match.player_one_id else match.player_one


def _locked(report: ResultReport) -> ResultReport:
    locked = ResultReport.objects.select_for_update(no_key=True).get(pk=report.pk)
    if locked.status != ResultReport.Status.PENDING:
        raise ConflictError(gettext("the report is already %(status)s") % {"status": locked.status})
    return locked


def _check_opponent(
    report: ResultReport,
    user: User,
    message: str = "",
) -> None:
    player = selectors.player_for(user)
    match = report.match
    if (
        player is None
        or player.pk not in (match.player_one_id, match.player_two_id)
        or player.user_id == report.reporter_id
        or ((code := report.reported_with) is not None and code.player_id == player.pk)
    ):
        raise NotAllowedError(
            message or gettext("only the reporter's opponent may confirm or dispute a result")
        )


def _check_open_for_reports(match: Match) -> None:
    if match.mode != Match.Mode.OVER_THE_BOARD:
        raise ConflictError(gettext("results are reported only for over-the-board matches"))
    if match.status != Match.Status.IN_PROGRESS:
        raise ConflictError(gettext("the match is %(status)s") % {"status": match.status})


def _respond(report: ResultReport, user: User, status: str) -> None:
    report.status = status
    report.responded_by = account(user)
    report.responded_at = timezone.now()
    report.save()
    notifications_settle(
        match_id=report.match_id, kind=Notification.Kind.RESULT_TO_CONFIRM, report_id=report.pk
    )
