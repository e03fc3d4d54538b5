"""Reads for the tournament settings form: the page that creates a tournament
(/tournaments/new/) and the desk's Settings tab. Each field knows the formats it belongs to, so
the page shows only the chosen format's settings (static/js/settings-form.js); the form posts
to the REST API, which checks every value (tournaments/draw/format_rules.py,
docs/decisions.md D35)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import date
from typing import Any

from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.engine import PRESETS
from players.models import Club
from players.selectors import User, player_for
from tournaments import selectors
from tournaments.draw import format_rules
from tournaments.models import RUNNING_SETTINGS, Tournament

F = Tournament.Format

# Each format in a line, under the format's menu.
FORMATS: dict[str, Any] = {
    F.SINGLE_ELIMINATION: _("A knock-out bracket: a player who loses a match is out."),
    F.DOUBLE_ELIMINATION: _(
        "A player is out after a second lost match: the losers play on in a losers' bracket."
    ),
    F.CONSOLATION: _(
        "A knock-out bracket; the players who lose their first match play on in a consolation "
        "flight."
    ),
    F.ROUND_ROBIN: _(
        "Everyone plays everyone: in one group or in several, with a knock-out after the "
        "groups if you like."
    ),
    F.SWISS: _(
        "A set number of rounds, each pairing players with the same score; nobody is knocked out."
    ),
}

# The rule presets (games/engine/options.py PRESETS, docs/options.md) by name, each in a line.
PRESET_LABELS: dict[str, tuple[Any, Any]] = {
    "macedonian": (
        _("Macedonian"),
        _("Tabla, Gjul Bara and Tapa in turn, as played in North Macedonia."),
    ),
    "bulgarian_nit": (
        _("Bulgarian"),
        _(
            "The same three games with the Bulgarian rules: the opening dice are played, a "
            "Tapa with both mothers pinned scores one each, no bearing off while pinned."
        ),
    ),
    "greek_tavli": (
        _("Greek Tavli"),
        _("Portes, Plakoto and Fevga: no cascade of doubles, and Fevga's blocking rules."),
    ),
}


@dataclass(frozen=True)
class Field:
    """One setting of the form: ``kind`` is text, date, int, float, bool or select; ``formats``
    the formats it belongs to (empty: every format); ``nullable``: left empty it is null."""

    name: str
    label: Any
    kind: str
    help: Any = ""
    formats: tuple[str, ...] = ()
    nullable: bool = False
    step: str = "1"


# The sections of the form and their fields, in order. "options" (the rule preset) is drawn
# as a list of presets of its own; "rated" only for a user who may run rated tournaments.
SECTIONS: list[tuple[Any, list[Field]]] = [
    (
        _("Tournament"),
        [
            Field("name", _("Name"), "text"),
            Field("format", _("Format"), "select"),
            Field("club", _("Club"), "select", nullable=True),
            Field("starts_on", _("Starts on"), "date", nullable=True),
            Field("ends_on", _("Ends on"), "date", nullable=True),
        ],
    ),
    (
        _("Matches"),
        [
            Field("options", _("Rules"), "preset"),
            Field("match_length", _("Match length"), "int", _("points to win a match")),
            Field(
                "match_mode",
                _("Played"),
                "select",
                _("over the board: the results are entered at the desk or by the players"),
            ),
            Field(
                "rotate_cycle",
                _("Rotate the opening game"),
                "bool",
                _("round 2 opens with the second game of the cycle, round 3 with the third…"),
            ),
            Field("rated", _("Rated"), "bool", _("the matches count for the players' ratings")),
            Field(
                "clock",
                _("Clock"),
                "select",
                _("online matches: a time bank per player and a free delay per turn"),
            ),
            Field(
                "claim_after_hours",
                _("Claim after (hours)"),
                "int",
                _("without a clock: the waiting player may claim a match after this long"),
            ),
            Field(
                "spectator_chances",
                _("Spectators' chances"),
                "select",
                _(
                    "what spectators see of the chances while a match is on (the players never); "
                    "can be changed while the tournament runs"
                ),
            ),
        ],
    ),
    (
        _("Format settings"),
        [
            Field(
                "grand_final_reset",
                _("Grand final reset"),
                "bool",
                _("the winner of the losers' bracket must beat the other finalist twice"),
                formats=(F.DOUBLE_ELIMINATION,),
            ),
            Field(
                "consolation_rounds",
                _("Consolation entry rounds"),
                "int",
                _("1: the losers of round 1 play on; 2: those of round 2 as well"),
                formats=(F.CONSOLATION,),
            ),
            Field(
                "consolation_match_length",
                _("Consolation match length"),
                "int",
                _("empty: the same as the main draw"),
                formats=(F.CONSOLATION,),
                nullable=True,
            ),
            Field(
                "groups",
                _("Groups"),
                "int",
                _("1: everyone plays everyone"),
                formats=(F.ROUND_ROBIN,),
            ),
            Field(
                "double_round_robin",
                _("Double round robin"),
                "bool",
                _("everyone meets everyone twice"),
                formats=(F.ROUND_ROBIN,),
            ),
            Field(
                "knockout_per_group",
                _("Qualifiers per group"),
                "int",
                _("the best of each group play a knock-out; 0: no knock-out"),
                formats=(F.ROUND_ROBIN,),
            ),
            Field(
                "third_place",
                _("Match for third place"),
                "bool",
                _("between the two losers of the semi-finals"),
                formats=(F.SINGLE_ELIMINATION, F.ROUND_ROBIN),
            ),
            Field(
                "swiss_rounds",
                _("Rounds"),
                "int",
                _("empty: enough for the field (7 rounds for 65 to 128 players)"),
                formats=(F.SWISS,),
                nullable=True,
            ),
            Field(
                "late_entry_until_round",
                _("Late entry until round"),
                "int",
                _("players may still join until this round is paired; 0: no late entry"),
                formats=(F.SWISS,),
            ),
            Field(
                "bye_points",
                _("Points for a bye"),
                "float",
                _("a player without an opponent in a round scores this (0 to 1)"),
                formats=(F.SWISS, F.ROUND_ROBIN),
                step="0.5",
            ),
        ],
    ),
    (
        _("Registration"),
        [
            Field("max_entries", _("Most entries"), "int", _("empty: no limit"), nullable=True),
            Field(
                "check_in_required",
                _("Check-in at the desk"),
                "bool",
                _("who has not checked in is withdrawn at the start"),
            ),
            Field(
                "seed_method",
                _("Seeding"),
                "select",
                _("used at the start if the desk has not seeded the field"),
            ),
        ],
    ),
]

CHOICES: dict[str, list[tuple[str, Any]]] = {
    "format": [
        (F.SINGLE_ELIMINATION, _("Single elimination")),
        (F.DOUBLE_ELIMINATION, _("Double elimination")),
        (F.CONSOLATION, _("Single elimination with a consolation flight")),
        (F.ROUND_ROBIN, _("Round robin (one group or several)")),
        (F.SWISS, _("Swiss")),
    ],
    "match_mode": [
        (Tournament.MatchMode.OVER_THE_BOARD, _("Over the board")),
        (Tournament.MatchMode.ONLINE, _("Online, on this site")),
    ],
    "clock": [
        ("{}", _("No clock")),
        (json.dumps({"preset": "standard"}), _("2 minutes a point + 12 s a turn")),
        (json.dumps({"preset": "relaxed"}), _("3 minutes a point + 15 s a turn")),
    ],
    "spectator_chances": [
        (Tournament.SpectatorChances.DELAYED, _("One move behind")),
        (Tournament.SpectatorChances.LIVE, _("Live")),
        (Tournament.SpectatorChances.HIDDEN, _("Hidden until the match is over")),
    ],
    "seed_method": [
        (Tournament.SeedMethod.RATING, _("By rating")),
        (Tournament.SeedMethod.RANDOM, _("At random")),
        (Tournament.SeedMethod.MANUAL, _("By hand")),
    ],
}
TEXT_LIMITS = {"name": Tournament._meta.get_field("name").max_length}


def settings_form(*, user: User, tournament: Tournament | None) -> dict[str, Any]:
    """The form of a new tournament (``tournament`` None: it posts, then goes to the new
    tournament's desk) or of an existing one (it patches, then reloads). Only a user who may
    run rated tournaments gets the "rated" switch; anyone else's tournament stays as it is."""
    values = _values(user, tournament)
    may_rate = selectors.may_run_rated(user)
    running = tournament is not None and tournament.status == Tournament.Status.RUNNING
    sections = []
    for title, fields in SECTIONS:
        rows = [
            _row(f, values)
            for f in fields
            if (f.name != "rated" or may_rate) and not (running and f.name in RUNNING_SETTINGS)
        ]
        note = "" if may_rate or all(f.name != "rated" for f in fields) else _rated_note(tournament)
        sections.append({"title": title, "fields": rows, "note": note})
    if tournament is None:
        desk = reverse("tournaments_web:desk", kwargs={"pk": 1}).replace("/1/", "/{id}/")
        api, method, after = reverse("tournaments:tournament-list"), "POST", desk
    else:
        api = reverse("tournaments:tournament-detail", kwargs={"pk": tournament.pk})
        method, after = "PATCH", "reload"
    return {
        "sections": sections,
        "api": api,
        "method": method,
        "next": after,
        "is_new": tournament is None,
        "read_only": tournament is not None and tournament.status not in EDITABLE,
        # While it runs, the settings that can still change, in a form of their own.
        "running": [
            _row(f, values) for _t, fields in SECTIONS for f in fields if f.name in RUNNING_SETTINGS
        ]
        if running
        else [],
    }


def _rated_note(tournament: Tournament | None) -> Any:
    """Why a user who may not run rated tournaments sees no "rated" switch."""
    if tournament is not None and tournament.rated:
        return _("A rated tournament: its matches count for the ratings.")
    return _(
        "A friendly tournament: its matches do not count for the ratings. Staff and the "
        "organisers they trust run rated tournaments."
    )


EDITABLE = (Tournament.Status.DRAFT, Tournament.Status.REGISTRATION)


def _values(user: User, tournament: Tournament | None) -> dict[str, Any]:
    names = [field.name for _title, fields in SECTIONS for field in fields]
    if tournament is not None:
        return {name: getattr(tournament, name) for name in names if name != "club"} | {
            "club": tournament.club_id
        }
    values = {name: Tournament.field_default(name) for name in names}
    values |= {
        "name": "",
        "format": F.SINGLE_ELIMINATION,
        "club": _usual_club(user),
        "starts_on": timezone.localdate(),
        "rated": selectors.may_run_rated(user),
    }
    return values


def _usual_club(user: User) -> int | None:
    """The club a new tournament of ``user`` is likely for: their own player's, else that of
    the last tournament they organised, else the only club there is."""
    player = player_for(user)
    if player is not None and player.club_id is not None:
        return player.club_id
    last = selectors.tournament_list().filter(created_by=user.pk, club__isnull=False).first()
    if last is not None:
        return last.club_id
    clubs = list(Club.objects.values_list("pk", flat=True)[:2])
    return clubs[0] if len(clubs) == 1 else None


def _row(field: Field, values: dict[str, Any]) -> dict[str, Any]:
    value = values[field.name]
    low, high = format_rules.LIMITS.get(field.name, (None, None))
    row: dict[str, Any] = {
        "name": field.name,
        "label": field.label,
        "kind": field.kind,
        "help": field.help,
        "formats": " ".join(field.formats),
        "shown": not field.formats or values["format"] in field.formats,
        "value": _text(value),
        "checked": value is True,
        "nullable": field.nullable,
        "min": _text(low if field.name != "match_length" else 1),
        "max": _text(high),
        "step": field.step,
        "maxlength": TEXT_LIMITS.get(field.name),
    }
    if field.name == "format":
        row["descriptions"] = [
            {"format": fmt, "text": text, "shown": fmt == value} for fmt, text in FORMATS.items()
        ]
    if field.kind == "select":
        row["choices"] = _choices(field.name, value)
    if field.kind == "preset":
        row["presets"] = _presets(value or {})
    return row


def _choices(name: str, value: Any) -> list[dict[str, Any]]:
    if name == "club":
        pairs = [
            ("", _("No club")),
            *((str(pk), n) for pk, n in Club.objects.values_list("pk", "name")),
        ]
        chosen = "" if value is None else str(value)
    elif name == "clock":
        pairs, chosen = _clock_choices(value or {})
    else:
        pairs, chosen = CHOICES[name], value
    return [{"value": v, "label": label, "selected": v == chosen} for v, label in pairs]


def _clock_choices(clock: dict[str, Any]) -> tuple[list[tuple[str, Any]], str]:
    """The clock presets by name (games/clock.py); a clock set through the API that is no
    preset is a first choice of its own, kept as it is."""
    pairs = list(CHOICES["clock"])
    if not clock:
        return pairs, "{}"
    if set(clock) - {"per_point_seconds", "delay_seconds"} == {"preset"}:
        return pairs, json.dumps({"preset": clock["preset"]})
    custom = json.dumps(clock)
    label = _("As set: %(per_point)s s a point + %(delay)s s a turn") % {
        "per_point": clock.get("per_point_seconds"),
        "delay": clock.get("delay_seconds"),
    }
    return [(custom, label), *pairs], custom


def _presets(options: dict[str, Any]) -> list[dict[str, Any]]:
    """The presets by name; when the stored options are more than a preset (set through the
    API), a first choice keeps them as they are, so saving the form does not lose them."""
    chosen = "macedonian" if not options else options.get("preset")
    if set(options) - {"preset"}:
        chosen = None
    presets = [
        {
            "value": json.dumps({"preset": name}),
            "label": label,
            "description": description,
            "checked": name == chosen,
        }
        for name, (label, description) in PRESET_LABELS.items()
        if name in PRESETS
    ]
    if chosen is None:
        custom = {
            "value": json.dumps(options),
            "label": _("As set"),
            "description": _("Rules set through the API: %(options)s")
            % {"options": ", ".join(f"{k}={v}" for k, v in options.items())},
            "checked": True,
        }
        presets.insert(0, custom)
    return presets


def _text(value: Any) -> str:
    if value is None or isinstance(value, bool):
        return ""
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, date):
        return value.isoformat()
    return str(value)
