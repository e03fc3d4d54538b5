"""A span of time in words, in the page's language: "2 days, 3 hours", "5 minutes".

Django's ``timeuntil``/``timesince`` read their words from Django's own catalogues, and some of
ours are missing there (Django 5.2's Macedonian and Greek have no "%(num)d day"): the page then
says "2 days" in the middle of a Macedonian sentence. These words come from the project's
catalogues, which tests/test_translations.py keeps complete.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.utils import timezone
from django.utils.html import avoid_wrapping
from django.utils.translation import ngettext


def duration_words(span: timedelta) -> str:
    """The two largest units of ``span`` (days and hours, hours and minutes), or minutes; a
    span under a minute (or negative) is "0 minutes". Each number keeps its unit on its line (a
    no-break space, as Django's ``timeuntil``)."""
    minutes = max(0, int(span.total_seconds() // 60))
    days, rest = divmod(minutes, 24 * 60)
    hours, minutes = divmod(rest, 60)
    parts: list[str] = []
    if days:
        parts.append(ngettext("%(num)d day", "%(num)d days", days) % {"num": days})
    if hours and len(parts) < 2:
        parts.append(ngettext("%(num)d hour", "%(num)d hours", hours) % {"num": hours})
    if (minutes and not days) or not parts:
        parts.append(ngettext("%(num)d minute", "%(num)d minutes", minutes) % {"num": minutes})
    return ", ".join(avoid_wrapping(part) for part in parts)  # "2 days" never split, as Django


def until_words(moment: datetime, now: datetime | None = None) -> str:
    return duration_words(moment - (now or timezone.now()))


def since_words(moment: datetime, now: datetime | None = None) -> str:
    return duration_words((now or timezone.now()) - moment)
