"""The page a slip's code opens (``/r/<code>/``), no account needed: the code's player reports
the final score, or answers the opponent's report (confirm, or "that's not right" with their
own score). The services decide (games/services/report_codes.py); this page reads the code,
counts wrong codes per client address and refuses the address past the limit (429), with one
404 for a mistyped code and one whose match is over (docs/decisions.md D83, D84)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse, QueryDict
from django.shortcuts import redirect, render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from common.addresses import client_address
from common.errors import ConflictError, GameServiceError, InvalidRequestError
from common.numbers import ascii_int
from games.models import MatchReportCode, ResultReport
from games.report_codes import (
    code_open,
    code_shown,
    failure_record,
    open_report,
    reporting_player_id,
    seconds_blocked,
)
from games.services import (
    result_confirm_by_code,
    result_dispute_by_code,
    result_report_by_code,
)
from games.services.report_codes import ReportCodeUnknownError

TEMPLATE = "games/report_code.html"


@never_cache
@require_http_methods(["GET", "POST"])
def report_code(request: HttpRequest, code: str) -> HttpResponse:
    address = client_address(
        request.META.get("REMOTE_ADDR", ""),
        request.META.get("HTTP_X_FORWARDED_FOR", ""),
        settings.TRUST_X_FORWARDED_FOR,
    )
    wait = seconds_blocked(address)
    if wait:
        response = render(request, TEMPLATE, {"state": "limited", "wait": wait}, status=429)
        response["Retry-After"] = str(wait)
        return response
    slip = code_open(code)
    if slip is None:
        failure_record(address)
        return render(request, TEMPLATE, {"state": "unknown"}, status=404)
    if request.method == "POST":
        return _act(request, slip)
    return render(request, TEMPLATE, _context(slip))


def _act(request: HttpRequest, slip: MatchReportCode) -> HttpResponse:
    action = request.POST.get("action", "")
    try:
        if action == "report":
            one, two = _scores(request.POST)
            result_report_by_code(code=slip.code, score_one=one, score_two=two)
        elif action in ("confirm", "dispute"):
            report_id = ascii_int(request.POST.get("report", ""))
            if report_id is None:
                raise InvalidRequestError("which report?")
            if action == "confirm":
                report = result_confirm_by_code(code=slip.code, report_id=report_id)
                return render(
                    request, TEMPLATE, {**_context(slip), "state": "done", "report": report}
                )
            one, two = _scores(request.POST)
            result_dispute_by_code(
                code=slip.code,
                report_id=report_id,
                score_one=one,
                score_two=two,
                reason=request.POST.get("reason", ""),
            )
        else:
            raise InvalidRequestError("unknown action")
    except ReportCodeUnknownError:  # the match ended meanwhile
        return render(request, TEMPLATE, {"state": "unknown"}, status=404)
    except GameServiceError as error:
        status = 409 if isinstance(error, ConflictError) else 400
        context = {**_context(slip), "error": str(error), "posted": request.POST}
        return render(request, TEMPLATE, context, status=status)
    return redirect(request.path)


def _scores(data: QueryDict) -> tuple[int, int]:
    one = ascii_int(data.get("score_one", "").strip(), max_digits=3)
    two = ascii_int(data.get("score_two", "").strip(), max_digits=3)
    if one is None or two is None:
        raise InvalidRequestError("give both players' final scores, in match points")
    return one, two


def _context(slip: MatchReportCode) -> dict[str, Any]:
    """What the page shows for the code's match now: the report form (no report yet), the
    player's own report waiting for the opponent, the opponent's report to answer, or a
    disputed report waiting for the desk."""
    match = slip.match
    you = slip.player
    opponent = match.player_two if you.pk == match.player_one_id else match.player_one
    report = open_report(match)
    state = "report"
    if report is not None:
        party = reporting_player_id(report)
        if report.status == ResultReport.Status.DISPUTED:
            state = "disputed"
        elif party == you.pk:
            state = "waiting"
        elif report.scope == ResultReport.Scope.MATCH:
            state = "answer"
        else:
            state = "desk"
    return {
        "state": state,
        "slip": slip,
        "code": code_shown(slip.code),
        "match": match,
        "you": you,
        "opponent": opponent,
        "report": report,
    }
