"""Random tournaments for the property tests of the API (tests/tournaments/test_api_properties.py):
a field of 2 to 40 entries, a format and its settings (now and then one a tournament cannot
run with), and what the organiser does along the way (seeding, withdrawals, late entries).

A ``Scenario`` holds a seed for the random winners and withdrawals, so a failing example is
replayed exactly from what Hypothesis prints. Round-robin groups are kept to at most 10 entries
(6 in a double round robin) and Swisses to 6 rounds, so that a large field stays quick to play.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from hypothesis import strategies as st

MAX_GROUP = {False: 10, True: 6}  # entries per round-robin group, by double_round_robin
# Settings in a range of their own (format_rules.LIMITS and the serializer's limits): a value
# outside it is refused at creation or edit with a 400 that names the setting.
RANGES = {
    "match_length": (1, 99),
    "consolation_match_length": (1, 99),
    "consolation_rounds": (1, 5),
    "groups": (1, 64),
    "knockout_per_group": (0, 32),
    "swiss_rounds": (1, 50),
    "max_entries": (2, 4096),
    "late_entry_until_round": (0, 50),
    "bye_points": (0, 1),
}
FORMATS = ["single_elimination", "double_elimination", "consolation", "round_robin", "swiss"]
OPTIONAL = {  # settings of any format, each sent or not
    "third_place": st.booleans(),
    "grand_final_reset": st.booleans(),
    "consolation_rounds": st.integers(1, 5),
    "consolation_match_length": st.none() | st.integers(1, 3),
    "bye_points": st.sampled_from([0, 0.5, 1]),
    "match_length": st.integers(1, 3),
    "check_in_required": st.booleans(),
    "rated": st.booleans(),  # rated: every result also updates the ratings
    "seed_method": st.sampled_from(["rating", "random", "manual"]),
    "tiebreak_order": st.sampled_from(
        [["match_points"], ["match_points", "point_diff"], ["head_to_head", "buchholz"]]
    ),
}
EDITS = {  # one change before registration, valid or not (a Swiss of at most 6 rounds: fast)
    name: st.integers(-1, 6 if name == "swiss_rounds" else 9)
    for name in ("groups", "knockout_per_group", "swiss_rounds", "consolation_rounds",
                 "late_entry_until_round", "max_entries")
} | {"third_place": st.booleans()}  # fmt: skip


@dataclass
class Scenario:
    """One tournament to run: its field, settings, and what the organiser does along the way."""

    format: str
    size: int
    settings: dict[str, Any]
    edit: dict[str, Any] | None = None  # one PATCH before registration
    seed_method: str | None = None  # a seed call before the start (None: seeded at the start)
    withdraw_before: int = 0  # entries withdrawn after seeding
    register_after_seeding: int = 0  # entries registered after the seed call (no seed yet)
    check_in: float = 1.0  # share of entries that check in, when check-in is required
    withdraw_rate: float = 0.0  # chance of a withdrawal before each result
    late_entries: int = 0  # late registrations tried between Swiss rounds
    seed: int = 0  # of the random winners and withdrawals


@st.composite
def scenarios(draw: Any, fmt: str) -> Scenario:
    """A tournament of format ``fmt``: its field, settings and the organiser's steps."""
    # Mostly small fields (fast, and the odd sizes there are byes); one in eight up to 40.
    large = draw(st.integers(0, 7)) == 0
    size = draw(st.integers(10, 40) if large else st.integers(2, 9))
    fields: dict[str, Any] = {"format": fmt}
    for name, strategy in OPTIONAL.items():
        if draw(st.booleans()):
            fields[name] = draw(strategy)
    fields.update(draw(format_settings(fmt, size)))
    if draw(st.integers(0, 4)) == 0:  # a cap near the field: registrations past it are refused
        fields["max_entries"] = draw(st.integers(2, size + 2))
    if draw(st.integers(0, 9)) == 0:  # now and then a value outside a setting's range
        name = draw(st.sampled_from(sorted(RANGES)))
        fields[name] = draw(st.sampled_from([RANGES[name][0] - 1, RANGES[name][1] + 1]))
    edit = None
    if draw(st.integers(0, 3)) == 0:
        name = draw(st.sampled_from(sorted(EDITS)))
        edit = {name: draw(EDITS[name])}
    if edit and "groups" in edit and fmt == "round_robin":
        edit = {"groups": draw(st.sampled_from([0, 65]) | st.just(fields["groups"] + 1))}
    return Scenario(
        format=fmt,
        size=size,
        settings=fields,
        edit=edit,
        seed_method=draw(st.none() | st.sampled_from(["rating", "random", "manual"])),
        withdraw_before=draw(st.sampled_from([0, 0, 0, 1, 2])),
        register_after_seeding=draw(st.sampled_from([0, 0, 0, 1])),
        check_in=draw(st.sampled_from([1.0, 1.0, 0.8, 0.3])),
        withdraw_rate=draw(st.sampled_from([0.0, 0.0, 0.03, 0.1, 0.3, 0.6])),
        late_entries=draw(st.sampled_from([0, 0, 1, 2])) if fmt == "swiss" else 0,
        seed=draw(st.integers(0, 2**32)),
    )


@st.composite
def format_settings(draw: Any, fmt: str, size: int) -> dict[str, Any]:
    """The settings of round robins and Swisses, mostly ones the field can play."""
    if fmt == "round_robin":
        double = draw(st.booleans())
        fewest = fewest_groups(size, double)
        most = max(fewest, size // 2)  # one more is refused at the start: sometimes drawn too
        groups = draw(st.integers(fewest, max(fewest, size // 4)) | st.integers(fewest, most + 1))
        per_group = st.sampled_from([0, 2]) | st.integers(1, max(1, size // groups + 1))
        return {"double_round_robin": double, "groups": groups,
                "knockout_per_group": draw(per_group)}  # fmt: skip
    if fmt == "swiss":
        return {
            "swiss_rounds": draw(st.none() | st.integers(1, min(math.ceil(size / 2) + 1, 6))),
            "late_entry_until_round": draw(st.integers(0, 3)),
        }
    return {}


def fewest_groups(entries: int, double: bool) -> int:
    """Groups of at most MAX_GROUP entries: a large single group takes too long to play."""
    return max(1, math.ceil(entries / MAX_GROUP[double]))
