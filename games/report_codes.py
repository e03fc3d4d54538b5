"""Slip codes: what a code looks like, how a typed one is read, which match a code opens, and
the limit on wrong codes per client address. Writes are in games/services/report_codes.py.

A code is ``CODE_LENGTH`` characters of ``CODE_ALPHABET`` (no 0/O, 1/I/L: it is typed from
paper), printed in two halves ("K7QX-3MPA") and read with or without the dash, in any case.
31**8 is about 8.5e11 codes; with ``REPORT_CODE_LIMIT_FAILURES`` wrong codes allowed per
address in ``REPORT_CODE_LIMIT_SECONDS``, guessing any one of a club night's few dozen live
codes takes longer than the tournament lasts (docs/decisions.md D84).
"""

from __future__ import annotations

import math
import secrets
import time
from collections.abc import Sequence

from django.conf import settings
from django.core.cache import cache

from games.models import Match, MatchReportCode, ResultReport
from players.models import Player

CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 8
LIMIT_FAILURES = 20  # wrong codes per client address in the window (settings may change it)
LIMIT_SECONDS = 10 * 60
clock = time.time  # tests replace it to let a window pass


def code_new() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def code_normal(typed: str) -> str:
    """A typed code as stored: dashes and spaces dropped, upper case."""
    return "".join(typed.split()).replace("-", "").upper()


def code_shown(code: str) -> str:
    """A code as printed: "K7QX3MPA" as "K7QX-3MPA"."""
    half = len(code) // 2
    return f"{code[:half]}-{code[half:]}"


def code_open(typed: str) -> MatchReportCode | None:
    """The code ``typed`` if it opens a match now (over the board, in progress), with its match
    and players; None for a wrong code and for one whose match is over, alike."""
    code = code_normal(typed)
    if len(code) != CODE_LENGTH or any(c not in CODE_ALPHABET for c in code):
        return None
    return (
        MatchReportCode.objects.select_related("match__player_one", "match__player_two", "player")
        .filter(
            code=code,
            match__mode=Match.Mode.OVER_THE_BOARD,
            match__status=Match.Status.IN_PROGRESS,
        )
        .first()
    )


def open_report(match: Match) -> ResultReport | None:
    """The match's report waiting for an answer or for the desk (at most one is open)."""
    return (
        match.reports.filter(status__in=(ResultReport.Status.PENDING, ResultReport.Status.DISPUTED))
        .select_related("reported_with__player", "reporter")
        .order_by("-id")
        .first()
    )


def reporting_player_id(report: ResultReport) -> int | None:
    """The player who made ``report``: its code's player, else the reporter's own player (None
    for an organiser who plays in no match)."""
    if report.reported_with is not None:
        return report.reported_with.player_id
    if report.reporter_id is None:
        return None
    return Player.objects.filter(user_id=report.reporter_id).values_list("pk", flat=True).first()


# The limit on wrong codes per client address, counted in the shared cache as the log-in
# limits are (config/login_limits.py): a sliding window of the last failures' times.


def _limit() -> tuple[int, int]:
    return (
        int(getattr(settings, "REPORT_CODE_LIMIT_FAILURES", LIMIT_FAILURES)),
        int(getattr(settings, "REPORT_CODE_LIMIT_SECONDS", LIMIT_SECONDS)),
    )


def _key(address: str) -> str:
    return f"report-code-failures:ip:{address}"


def _recent(stamps: Sequence[float], now: float, seconds: int) -> list[float]:
    return sorted(t for t in stamps if t > now - seconds)


def seconds_blocked(address: str) -> int:
    """Seconds until ``address`` may try a code again; 0: it may now."""
    failures, seconds = _limit()
    if failures <= 0:
        return 0
    now = clock()
    recent = _recent(cache.get(_key(address), ()), now, seconds)
    if len(recent) < failures:
        return 0
    oldest = recent[len(recent) - failures]
    return max(1, math.ceil(oldest + seconds - now))


def failure_record(address: str) -> None:
    """Count one wrong (or expired) code tried from ``address``."""
    failures, seconds = _limit()
    if failures <= 0:
        return
    now = clock()
    recent = _recent(cache.get(_key(address), ()), now, seconds)
    recent.append(now)
    cache.set(_key(address), recent[-failures:], seconds)
