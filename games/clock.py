"""The match clock's settings and arithmetic (plain Python, no Django), and ``now()``: the one
place the clock and claim services read the time from, so tests can move it.

A clock gives each player a bank for the whole match, ``per_point_seconds`` times the match
length, and a delay per turn: the first ``delay_seconds`` of every turn are free and the bank
runs only after them (Bronstein / US delay). The server charges a turn from the moment the
player may act to the moment their request arrives (docs/options.md, "The match clock";
docs/decisions.md D41).

>>> settings = ClockSettings.from_json({"preset": "standard"})
>>> settings.bank_seconds(7), settings.delay_seconds
(840, 12)
>>> ClockSettings.from_json(None) is None
True
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

# name: (per_point_seconds, delay_seconds)
PRESETS: dict[str, tuple[int, int]] = {
    "standard": (120, 12),  # 2 minutes a point + 12 s a turn: the common tournament clock
    "relaxed": (180, 15),  # 3 minutes a point + 15 s a turn
}
PER_POINT_SECONDS = (10, 3600)  # lowest, highest
DELAY_SECONDS = (0, 120)
# Without a clock: hours of inactivity of the player to move after which the waiting player may
# claim the match (games/services/clock.py), for a plain match by default and for a tournament's.
CLAIM_AFTER_HOURS = (1, 720)
CLAIM_AFTER_HOURS_DEFAULT = 72
CLAIM_AFTER_HOURS_TOURNAMENT = 24
KEYS = ("preset", "per_point_seconds", "delay_seconds")


class ClockSettingsError(ValueError):
    """Clock settings that cannot be used; the message names the key and what is allowed."""


@dataclass(frozen=True)
class ClockSettings:
    """A clock: seconds of bank per point of the match length, and the free delay per turn."""

    per_point_seconds: int
    delay_seconds: int

    @classmethod
    def from_json(cls, data: Any) -> ClockSettings | None:
        """Settings from ``{"preset": name}`` and/or ``per_point_seconds`` and
        ``delay_seconds`` (the keys override the preset); None, ``{}`` or ``"off"``: no clock.

        >>> ClockSettings.from_json({"preset": "relaxed", "delay_seconds": 10})
        ClockSettings(per_point_seconds=180, delay_seconds=10)
        >>> ClockSettings.from_json({"preset": "blitz"})
        Traceback (most recent call last):
        ...
        games.clock.ClockSettingsError: unknown clock preset 'blitz'; known: standard, relaxed
        """
        if data is None or data == "off" or data == {}:
            return None
        if not isinstance(data, Mapping):
            raise ClockSettingsError(
                'clock must be null (no clock) or an object such as {"preset": "standard"}'
            )
        unknown = sorted(set(data) - set(KEYS))
        if unknown:
            raise ClockSettingsError(f"unknown clock key {unknown[0]!r}; known: {', '.join(KEYS)}")
        per_point, delay = None, None
        if "preset" in data:
            preset = data["preset"]
            if preset not in PRESETS:
                raise ClockSettingsError(
                    f"unknown clock preset {preset!r}; known: {', '.join(PRESETS)}"
                )
            per_point, delay = PRESETS[preset]
        per_point = _bounded(data, "per_point_seconds", PER_POINT_SECONDS, per_point)
        delay = _bounded(data, "delay_seconds", DELAY_SECONDS, delay)
        return cls(per_point, delay)

    def to_json(self) -> dict[str, Any]:
        """The stored form: both numbers, and the preset's name when they are a preset's."""
        data: dict[str, Any] = {
            "per_point_seconds": self.per_point_seconds,
            "delay_seconds": self.delay_seconds,
        }
        for name, values in PRESETS.items():
            if values == (self.per_point_seconds, self.delay_seconds):
                data = {"preset": name, **data}
        return data

    def bank_seconds(self, match_length: int) -> int:
        """Each player's bank for a match of ``match_length`` points."""
        return self.per_point_seconds * match_length


def _bounded(
    data: Mapping[str, Any], key: str, limits: tuple[int, int], default: int | None
) -> int:
    low, high = limits
    if key not in data:
        if default is None:
            raise ClockSettingsError(f"clock {key} is missing (or give a preset)")
        return default
    value = data[key]
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ClockSettingsError(
            f"clock {key} must be an integer from {low} to {high}, got {value!r}"
        )
    return value


def now() -> datetime.datetime:
    """The current time (UTC), as the clock and claim services see it."""
    return datetime.datetime.now(datetime.UTC)


def charged_ms(
    started_at: datetime.datetime, arrived: datetime.datetime, delay_seconds: int
) -> int:
    """Milliseconds of bank a turn used: the time from ``started_at`` to ``arrived`` beyond
    the free delay (never below 0).

    >>> t = datetime.datetime(2026, 1, 1, tzinfo=datetime.UTC)
    >>> charged_ms(t, t + datetime.timedelta(seconds=30), 12)
    18000
    >>> charged_ms(t, t + datetime.timedelta(seconds=5), 12)
    0
    """
    used = arrived - started_at - datetime.timedelta(seconds=delay_seconds)
    return max(0, used // datetime.timedelta(milliseconds=1))


def deadline(
    started_at: datetime.datetime, delay_seconds: int, remaining_ms: int
) -> datetime.datetime:
    """When a turn started at ``started_at`` runs out of time: the delay, then the bank."""
    return started_at + datetime.timedelta(seconds=delay_seconds, milliseconds=remaining_ms)


def left_at(
    started_at: datetime.datetime,
    delay_seconds: int,
    remaining_ms: int,
    at: datetime.datetime,
) -> tuple[int, int]:
    """(delay left, bank left) in milliseconds at ``at`` of a running turn; both 0 once the
    time is up.

    >>> t = datetime.datetime(2026, 1, 1, tzinfo=datetime.UTC)
    >>> left_at(t, 12, 60_000, t + datetime.timedelta(seconds=5))
    (7000, 60000)
    >>> left_at(t, 12, 60_000, t + datetime.timedelta(seconds=20))
    (0, 52000)
    """
    elapsed = max(0, (at - started_at) // datetime.timedelta(milliseconds=1))
    delay_ms = delay_seconds * 1000
    return max(0, delay_ms - elapsed), max(0, remaining_ms - max(0, elapsed - delay_ms))
