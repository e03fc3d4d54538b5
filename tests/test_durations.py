"""Spans of time in words come from the project's catalogues (common/durations.py), so that a
Macedonian or Greek page never says "2 days" in English (Django's own catalogues lack them)."""

from __future__ import annotations

from datetime import timedelta

from django.utils import translation

from common.durations import duration_words


def test_the_two_largest_units_are_named():
    translation.activate("en")  # whatever an earlier test left active
    def words(span: timedelta) -> str:
        return duration_words(span).replace("\xa0", " ")

    assert words(timedelta(days=2, hours=23, minutes=5)) == "2 days, 23 hours"
    assert words(timedelta(hours=1, minutes=1)) == "1 hour, 1 minute"
    assert words(timedelta(minutes=5, seconds=59)) == "5 minutes"
    assert words(timedelta(days=1)) == "1 day"
    assert words(timedelta(seconds=-30)) == "0 minutes"
    assert duration_words(timedelta(hours=2)) == "2\xa0hours"


def test_every_language_of_the_site_says_it_in_its_own_words():
    for language in ("mk", "bg", "el", "tr"):
        with translation.override(language):
            words = duration_words(timedelta(days=2, hours=3))
        assert "day" not in words and "hour" not in words, (language, words)
