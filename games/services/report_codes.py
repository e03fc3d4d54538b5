"""Results from the tables: each player of an over-the-board match gets a code on the printed
result slip (``report_codes_issue``, when the desk prints the round); with it, without an
account, the player reports the final score (``result_report_by_code``), and the opponent, with
their own code, confirms it (``result_confirm_by_code``) or says it is not right, giving their
score (``result_dispute_by_code``: the desk settles it). The same trust rules as for signed-in
players' reports (games/services/results.py): a report waits for the other party or the desk,
nobody decides their own match alone (docs/decisions.md D83)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone

from common.errors import ConflictError, GameServiceError, InvalidRequestError, NotAllowedError
from games import selectors
from games.engine import InvalidScoreError, Options, final_score_winner
from games.models import Match, MatchReportCode, Notification, ResultReport
from games.report_codes import code_new, code_open, reporting_player_id
from games.selectors import User
from games.services._steps import (
    match_finished_announce,
    notifications_settle,
    result_to_confirm_notify,
)
from players.models import Player

OPEN = (ResultReport.Status.PENDING, ResultReport.Status.DISPUTED)
UNKNOWN = "This code opens no match: it is mistyped, or its match is over."


class ReportCodeUnknownError(GameServiceError):
    """The code opens no match now (wrong, or its match is over): one message for both, so
    that nothing tells a guesser which codes exist (404)."""

    def __init__(self) -> None:
        super().__init__(UNKNOWN)


@dataclass(frozen=True)
class Slip:
    """A match to print a slip for, and where it is played, as the slip says it (the code's
    page repeats it: "Club night · Round 2 · Table 3")."""

    match_id: int
    label: str = ""


def report_codes_issue(*, user: User, slips: Sequence[Slip]) -> list[MatchReportCode]:
    """The two players' codes of each slip's match, made the first time it is printed and the
    same on every reprint (the label follows the latest print). Only for matches reported over
    the board and in progress (others get none); only the match's organisers may print them."""
    labels = {slip.match_id: slip.label[:200] for slip in slips}
    matches = list(Match.objects.filter(pk__in=labels).order_by("pk"))
    for match in matches:
        if not selectors.is_organiser(user, match):
            raise NotAllowedError("only the match's organisers print its result slips")
    live = [
        match
        for match in matches
        if match.mode == Match.Mode.OVER_THE_BOARD and match.status == Match.Status.IN_PROGRESS
    ]
    with transaction.atomic():
        wanted = [(m, p) for m in live for p in (m.player_one_id, m.player_two_id)]
        existing = _codes_of(live)
        for _ in range(5):  # a new code that is taken already is made again
            missing = [(m, p) for m, p in wanted if (m.pk, p) not in existing]
            if not missing:
                break
            MatchReportCode.objects.bulk_create(
                [
                    MatchReportCode(match=m, player_id=p, code=code_new(), label=labels[m.pk])
                    for m, p in missing
                ],
                ignore_conflicts=True,  # a concurrent print's codes, or a taken code
            )
            existing = _codes_of(live)
        if any((m.pk, p) not in existing for m, p in wanted):
            raise ConflictError("no free report code was found; print again")
        relabelled = [code for code in existing.values() if code.label != labels[code.match_id]]
        for code in relabelled:
            code.label = labels[code.match_id]
        MatchReportCode.objects.bulk_update(relabelled, ["label"])
    return [existing[m.pk, p] for m, p in wanted]


def _codes_of(matches: list[Match]) -> dict[tuple[int, int], MatchReportCode]:
    return {
        (code.match_id, code.player_id): code
        for code in MatchReportCode.objects.filter(match__in=matches)
    }


def result_report_by_code(*, code: str, score_one: int, score_two: int) -> ResultReport:
    """The code's player reports the match's final score (player one's, player two's); it
    waits for the opponent's code, the opponent signed in, or the desk."""
    with transaction.atomic():
        slip = _code_locked(code)
        match = slip.match
        if match.reports.filter(status__in=OPEN).exists():
            raise ConflictError("a reported result is still waiting for confirmation")
        winner = _winner(match, score_one, score_two)
        report = ResultReport.objects.create(
            match=match,
            reported_with=slip,
            scope=ResultReport.Scope.MATCH,
            winner=winner,
            score_one=score_one,
            score_two=score_two,
        )
        result_to_confirm_notify(report, slip.player_id)
        return report


def result_confirm_by_code(*, code: str, report_id: int) -> ResultReport:
    """The code's player accepts the opponent's pending report of the final score: the match
    ends with it."""
    with transaction.atomic():
        slip = _code_locked(code)
        report = _answerable(slip, report_id)
        _respond(report, slip, ResultReport.Status.CONFIRMED)
        match = slip.match
        assert report.score_one is not None and report.score_two is not None  # scope match
        match.score_one, match.score_two = report.score_one, report.score_two
        match.winner = report.winner
        match.status, match.ended_by = Match.Status.FINISHED, Match.EndedBy.SCORE
        match.save()
        match_finished_announce(match)
    return report


def result_dispute_by_code(
    *, code: str, report_id: int, score_one: int, score_two: int, reason: str = ""
) -> ResultReport:
    """The code's player says the opponent's pending report is not right and gives the final
    score as they saw it: the report goes to the desk's dispute queue with both scores."""
    with transaction.atomic():
        slip = _code_locked(code)
        report = _answerable(slip, report_id)
        _winner(slip.match, score_one, score_two)
        if (score_one, score_two) == (report.score_one, report.score_two):
            raise InvalidRequestError("that is the score reported: confirm it instead")
        report.disputed_score_one, report.disputed_score_two = score_one, score_two
        report.dispute_reason = reason.strip()[:500]
        _respond(report, slip, ResultReport.Status.DISPUTED)
    return report


def _code_locked(typed: str) -> MatchReportCode:
    """The code ``typed`` with its match locked, if the match is still open for reports."""
    slip = code_open(typed)
    if slip is None:
        raise ReportCodeUnknownError
    match = Match.objects.select_for_update(no_key=True).get(pk=slip.match_id)
    if match.mode != Match.Mode.OVER_THE_BOARD or match.status != Match.Status.IN_PROGRESS:
        raise ReportCodeUnknownError  # it ended while we looked
    slip.match = match
    return slip


def _answerable(slip: MatchReportCode, report_id: int) -> ResultReport:
    """The pending final-score report ``report_id`` of the code's match, made by the code's
    player's opponent (a player never answers their own report)."""
    report = (
        ResultReport.objects.select_for_update(no_key=True)
        .filter(pk=report_id, match_id=slip.match_id)
        .first()
    )
    if report is None:
        raise NotAllowedError("a code answers only the reports of its own match")
    if report.status != ResultReport.Status.PENDING:
        raise ConflictError(f"the report is already {report.status}")
    if report.scope != ResultReport.Scope.MATCH:
        raise ConflictError("a game's result is answered on the match page, not with a code")
    party = reporting_player_id(report)
    opponent = _opponent_id(slip.match, slip.player_id)
    if party != opponent:
        raise NotAllowedError("you reported this score: your opponent or the desk confirms it")
    return report


def _opponent_id(match: Match, player_id: int) -> int:
    return match.player_two_id if player_id == match.player_one_id else match.player_one_id


def _winner(match: Match, score_one: int, score_two: int) -> Player:
    """The winner of the final score ``score_one``-``score_two``, if a match could end so
    (``games.engine.final_score_winner``, as for a signed-in player's report)."""
    counted = (match.score_one, match.score_two)
    try:
        rules = Options.from_json(match.options)
        side = final_score_winner((score_one, score_two), match.target_score, counted, rules)
    except InvalidScoreError as error:
        raise InvalidRequestError(str(error)) from error
    return match.players[side]


def _respond(report: ResultReport, slip: MatchReportCode, status: str) -> None:
    report.status = status
    report.responded_with = slip
    report.responded_by = None
    report.responded_at = timezone.now()
    report.save()
    notifications_settle(
        match_id=report.match_id, kind=Notification.Kind.RESULT_TO_CONFIRM, report_id=report.pk
    )
