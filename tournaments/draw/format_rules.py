"""Which format settings a tournament may have, checked before anything is drawn.

Pure code (no Django). `check_settings` runs when a tournament is created or edited, on the
settings it would have (defaults or stored values merged with the change): every number in its
range, and the combinations that could never be played. `check_field` runs at the start, when the
number of entries is known: what depends on the field (groups of at least two, Swiss rounds that
can always be paired). Either raises `SettingsError` naming the setting and what is allowed, so
a start never trips over a setting (docs/decisions.md D22). `start_matches` says how many
matches a start would create, which the services bound (docs/decisions.md D57).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from games.clock import CLAIM_AFTER_HOURS, ClockSettings, ClockSettingsError
from tournaments.draw import brackets
from tournaments.draw.brackets import bracket_size

# setting: (lowest, highest); None is allowed where the model allows it (no limit / default).
LIMITS: dict[str, tuple[float, float]] = {
    "match_length": (1, 99),
    "consolation_match_length": (1, 99),
    "consolation_rounds": (1, 5),
    "groups": (1, 64),
    "knockout_per_group": (0, 32),
    "swiss_rounds": (1, 50),
    "max_entries": (2, 4096),
    "late_entry_until_round": (0, 50),
    "bye_points": (0, 1),
    "claim_after_hours": CLAIM_AFTER_HOURS,
}
# What check_settings reads: the ranges above, the clock, and what they are checked against.
SETTINGS = (*LIMITS, "clock", "match_mode")


class SettingsError(ValueError):
    """A setting that a tournament cannot be run with; ``field`` names it."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field


def max_swiss_rounds(entries: int) -> int:
    """The most Swiss rounds that can always be paired without a rematch: ceil(n / 2).

    After r rounds each player has met at most r others, so among n players (n even; an odd
    field adds the bye as a phantom player) everyone still has at least n - 1 - r possible
    opponents. While that is at least n / 2 the graph of possible pairs has a Hamiltonian cycle
    (Dirac's theorem) and so a perfect matching: round r + 1 can be paired whatever happened
    before, for every r + 1 <= n / 2. Beyond that a pairing may not exist (four players, after
    1 v 2 and 3 v 4, then 1 v 3 and 2 v 4, have exactly one round left; six players can be
    stuck after three rounds)."""
    return max(1, math.ceil(entries / 2))


def check_settings(settings: Mapping[str, Any]) -> None:
    """Ranges of the numeric settings and the combinations no field could play."""
    for name, (low, high) in LIMITS.items():
        value = settings.get(name)
        if value is None:
            continue
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise SettingsError(name, f"{name} must be a number from {_n(low)} to {_n(high)}")
        if not low <= value <= high:
            raise SettingsError(
                name, f"{name} must be from {_n(low)} to {_n(high)}, got {_n(value)}"
            )
    check_clock(settings)
    fmt = settings.get("format")
    groups = settings.get("groups") or 1
    per_group = settings.get("knockout_per_group") or 0
    cap = settings.get("max_entries")
    if fmt == "round_robin" and per_group and groups * per_group < 2:
        raise SettingsError(
            "knockout_per_group",
            "a knock-out needs at least 2 qualifiers: with 1 group, knockout_per_group must be "
            "0 (no knock-out) or at least 2",
        )
    if fmt == "round_robin" and cap is not None and groups * 2 > cap:
        raise SettingsError(
            "groups",
            f"{groups} groups of at least 2 need at least {groups * 2} entries"
            f" (max_entries is {cap})",
        )
    if fmt == "round_robin" and cap is not None and per_group > cap // groups:
        raise SettingsError(
            "knockout_per_group",
            f"knockout_per_group ({per_group}) is more than a group can hold with max_entries "
            f"{cap} in {groups} groups ({cap // groups})",
        )
    rounds = settings.get("swiss_rounds")
    late = settings.get("late_entry_until_round") or 0
    if fmt == "swiss" and rounds is not None and late > rounds:
        raise SettingsError(
            "late_entry_until_round",
            f"late_entry_until_round ({late}) is after the last round ({rounds})",
        )
    if fmt == "swiss" and rounds is not None and cap is not None:
        if rounds > max_swiss_rounds(cap):
            raise SettingsError(
                "swiss_rounds",
                f"swiss_rounds ({rounds}) cannot always be paired for at most {cap} entries "
                f"(max_entries; at most {max_swiss_rounds(cap)})",
            )


def check_clock(settings: Mapping[str, Any]) -> None:
    """The clock every match gets (games.clock.ClockSettings): valid, and only for online
    matches, since over the board the server sees no moves to time."""
    try:
        clock = ClockSettings.from_json(settings.get("clock"))
    except ClockSettingsError as error:
        raise SettingsError("clock", str(error)) from None
    if clock is not None and settings.get("match_mode") != "online":
        raise SettingsError(
            "clock", "a clock needs online matches (match_mode online): over the board the "
            "server sees no moves to time"
        )


def check_field(settings: Mapping[str, Any], entries: int) -> None:
    """What depends on the number of entries, checked when the tournament starts."""
    fmt = settings.get("format")
    groups = settings.get("groups") or 1
    per_group = settings.get("knockout_per_group") or 0
    if fmt == "round_robin" and groups > 1 and entries < groups * 2:
        raise SettingsError(
            "groups", f"{groups} groups need at least {groups * 2} entries, not {entries}"
        )
    if fmt == "round_robin" and per_group > entries // groups:
        raise SettingsError(
            "knockout_per_group",
            f"knockout_per_group ({per_group}) is more than the smallest group holds "
            f"({entries // groups} of {entries} entries in {groups} groups)",
        )
    rounds = settings.get("swiss_rounds")
    if fmt == "swiss" and rounds is not None and rounds > max_swiss_rounds(entries):
        raise SettingsError(
            "swiss_rounds",
            f"swiss_rounds ({rounds}) cannot always be paired for {entries} entries "
            f"(at most {max_swiss_rounds(entries)}: ceil(entries / 2))",
        )
    if fmt in ("single_elimination", "double_elimination", "consolation"):
        bracket_size(entries)  # at least 2; the start checks that first


def _n(value: float) -> str:
    return f"{value:g}"


FORMAT_WORDS = {
    "single_elimination": "a single elimination",
    "double_elimination": "a double elimination",
    "consolation": "a consolation draw",
    "swiss": "a Swiss round",
}


def start_matches(settings: Mapping[str, Any], entries: int) -> tuple[int, str]:
    """How many matches starting with ``entries`` players would create, and the draw in words:
    (1770, "a round robin of 60 players"). A round robin creates its whole schedule (each group
    k(k-1)/2 pairs, twice in a double round robin), a Swiss its first round (a bye is no match),
    an elimination every slot of its bracket. ``check_field`` passed first."""
    fmt = settings.get("format")
    if fmt == "round_robin":
        groups = settings.get("groups") or 1
        sizes = [entries // groups + (1 if g < entries % groups else 0) for g in range(groups)]
        legs = 2 if settings.get("double_round_robin") else 1
        total = sum(legs * k * (k - 1) // 2 for k in sizes)
        kind = "a double round robin" if legs == 2 else "a round robin"
        split = f" in {groups} groups" if groups > 1 else ""
        return total, f"{kind} of {entries:,} players{split}"
    if fmt == "swiss":
        return entries // 2, f"a Swiss round of {entries:,} players"
    if fmt == "single_elimination":
        third_place = bool(settings.get("third_place"))
        bracket = brackets.single_elimination(entries, third_place=third_place)
    elif fmt == "double_elimination":
        reset = bool(settings.get("grand_final_reset"))
        bracket = brackets.double_elimination(entries, reset=reset)
    else:
        rounds = brackets.consolation_rounds_for(entries, settings.get("consolation_rounds") or 1)
        bracket = brackets.consolation(entries, entry_rounds=rounds)
    return len(bracket.matches), f"{FORMAT_WORDS.get(str(fmt), str(fmt))} of {entries:,} players"
