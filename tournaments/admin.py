"""Admin for organisers: tournaments run through the tournament services (actions and saves call
them, so the rules and the audit log are the same as through the API); computed rows
(matches, standings, ratings) are read-only."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from django import forms
from django.contrib import admin, messages
from django.db.models import Count, Model, Q, QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

import common.admin
from common.admin import ReadOnlyAdmin
from common.errors import GameServiceError
from games.clock import CLAIM_AFTER_HOURS_TOURNAMENT
from games.engine import EngineError, Options
from tournaments import services
from tournaments.draw import format_rules
from tournaments.models import (
    RUNNING_SETTINGS,
    Entry,
    Round,
    Standing,
    Tournament,
    TournamentMatch,
)
from tournaments.services.lifecycle import EDITABLE

# What a service refuses with: its own errors, and engine errors such as bad options.
SERVICE_ERRORS = (GameServiceError, EngineError)


_M = TypeVar("_M", bound=Model)


class AuditedAdmin(common.admin.AuditedAdmin[_M]):
    """common's audited admin; a refusal of a tournament service (engine errors too, such as
    bad options) becomes a message."""

    service_errors = SERVICE_ERRORS


def run_service(
    modeladmin: admin.ModelAdmin[Any],
    request: HttpRequest,
    queryset: QuerySet[Any],
    call: Callable[[Any], object],
    done: str,
) -> None:
    """Call the service once per selected row; report each success or the service's error."""
    for row in queryset:
        try:
            call(row)
        except SERVICE_ERRORS as error:
            modeladmin.message_user(request, f"{row}: {error}", messages.ERROR)
        else:
            modeladmin.message_user(request, done % {"name": row}, messages.SUCCESS)


# --- tournaments --------------------------------------------------------------------------------


class EntryInline(admin.TabularInline[Entry, Tournament]):
    """The field as it stands; entries change through the Entry admin's service actions."""

    model = Entry
    readonly_fields = ["player", "seed", "status", "checked_in", "group", "joined_round"]
    fields = [*readonly_fields]
    extra = 0
    can_delete = False
    show_change_link = True

    def has_add_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


class RoundInline(admin.TabularInline[Round, Tournament]):
    model = Round
    readonly_fields = ["stage", "number", "opening_variant", "deadline", "is_finished"]
    fields = [*readonly_fields]
    extra = 0
    can_delete = False
    show_change_link = True

    def has_add_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


# The settings an organiser edits, grouped as on the form (the rest changes through services).
SETTINGS_GROUPS = [
    (None, ["name", "club", "organisers", "starts_on", "ends_on"]),
    (gettext_lazy("Matches"), [
        "format", "match_length", "match_mode", "options", "rotate_cycle", "clock",
        "claim_after_hours", "spectator_chances",
    ]),
    (gettext_lazy("Format settings"), [
        "third_place", "grand_final_reset", "consolation_rounds", "consolation_match_length",
        "double_round_robin", "groups", "knockout_per_group", "swiss_rounds", "tiebreak_order",
        "bye_points",
    ]),
    (gettext_lazy("Registration"), [
        "max_entries", "late_entry_until_round", "check_in_required", "seed_method",
    ]),
]  # fmt: skip
SETTINGS = [name for _title, names in SETTINGS_GROUPS for name in names]
# Status, registration, rounds and brackets change only through the actions (the services).
STATE_FIELDS = [
    "status", "registration_open", "current_round", "entry_count", "brackets", "created_by",
    "created_at", "updated_at",
]  # fmt: skip


class TournamentForm(forms.ModelForm[Tournament]):
    class Meta:
        model = Tournament
        fields = SETTINGS

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # empty: the engine's defaults; no clock; the default hours; one move behind
        for name in ("options", "clock", "claim_after_hours", "spectator_chances"):
            if name in self.fields:
                self.fields[name].required = False

    def clean_claim_after_hours(self) -> int:
        hours = self.cleaned_data.get("claim_after_hours")
        return int(CLAIM_AFTER_HOURS_TOURNAMENT if hours is None else hours)

    def clean_spectator_chances(self) -> str:
        chances = self.cleaned_data.get("spectator_chances")
        return str(chances or Tournament.field_default("spectator_chances"))

    def clean_options(self) -> dict[str, Any]:
        """The engine decides which options exist (its error names the bad key or value)."""
        try:
            return Options.from_json(self.cleaned_data["options"]).to_json()
        except ValueError as error:
            raise forms.ValidationError(str(error)) from error

    def clean(self) -> dict[str, Any]:
        """The clock as the API checks it (tournaments.draw.format_rules): valid, online only."""
        cleaned: dict[str, Any] = super().clean() or {}
        if "clock" in cleaned:
            try:
                format_rules.check_clock(cleaned)
            except format_rules.SettingsError as error:
                self.add_error("clock", str(error))
        return cleaned


@admin.register(Tournament)
class TournamentAdmin(AuditedAdmin[Tournament]):
    form = TournamentForm
    list_display = [
        "name", "club", "format", "status", "registration_open", "entry_count",
        "current_round", "starts_on",
    ]  # fmt: skip
    list_filter = ["status", "format", "match_mode", "registration_open", "club"]
    search_fields = ["name", "club__name"]
    date_hierarchy = "starts_on"
    autocomplete_fields = ["club"]
    filter_horizontal = ["organisers"]
    readonly_fields = STATE_FIELDS
    fieldsets = [
        (title, {"fields": [*names]})
        for title, names in [*SETTINGS_GROUPS, (gettext_lazy("State"), STATE_FIELDS)]
    ]
    inlines = [EntryInline, RoundInline]
    actions = [
        "registration_open_action",
        "registration_close_action",
        "seed_action",
        "start_action",
        "pair_round_action",
        "standings_recompute_action",
    ]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Tournament]:
        active = Q(entries__status=Entry.Status.ACTIVE)
        return super().get_queryset(request).annotate(entry_count=Count("entries", filter=active))

    @admin.display(description=gettext_lazy("entries"), ordering="entry_count")
    def entry_count(self, tournament: Tournament) -> int:
        return getattr(tournament, "entry_count", 0)

    def get_readonly_fields(self, request: HttpRequest, obj: Tournament | None = None) -> Any:
        """Once the tournament runs, only its organisers and RUNNING_SETTINGS may still change
        (those until it is finished)."""
        if obj is not None and obj.status not in EDITABLE:
            running = obj.status == Tournament.Status.RUNNING
            free = {"organisers"} | (RUNNING_SETTINGS if running else set())
            return [name for name in SETTINGS + STATE_FIELDS if name not in free]
        return self.readonly_fields

    def get_changeform_initial_data(self, request: HttpRequest) -> dict[str, Any]:
        return {"organisers": [request.user.pk], **super().get_changeform_initial_data(request)}

    def save_model(self, request: HttpRequest, obj: Tournament, form: Any, change: bool) -> None:
        """Settings go through tournament_create / tournament_update (checks and audit log);
        the organisers are saved with the form's related fields."""
        fields = {n: v for n, v in form.cleaned_data.items() if n != "organisers"}
        if change:
            changed = {n: v for n, v in fields.items() if n in form.changed_data}
            if changed:
                services.tournament_update(tournament=obj, user=request.user, **changed)
        else:
            created = services.tournament_create(user=request.user, **fields)
            obj.__dict__.update(created.__dict__)  # the form's instance is now the saved row

    # --- actions: one service each ---------------------------------------------------------

    @admin.action(description=gettext_lazy("Open registration"), permissions=["change"])
    def registration_open_action(
        self, request: HttpRequest, queryset: QuerySet[Tournament]
    ) -> None:
        run_service(
            self, request, queryset,
            lambda t: services.registration_open(tournament=t, user=request.user),
            _("%(name)s: registration opened."),
        )  # fmt: skip

    @admin.action(description=gettext_lazy("Close registration"), permissions=["change"])
    def registration_close_action(
        self, request: HttpRequest, queryset: QuerySet[Tournament]
    ) -> None:
        run_service(
            self, request, queryset,
            lambda t: services.registration_close(tournament=t, user=request.user),
            _("%(name)s: registration closed."),
        )  # fmt: skip

    @admin.action(description=gettext_lazy("Seed the entries"), permissions=["change"])
    def seed_action(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        run_service(
            self, request, queryset,
            lambda t: services.entries_seed(tournament=t, user=request.user),
            _("%(name)s: entries seeded."),
        )  # fmt: skip

    @admin.action(description=gettext_lazy("Start the tournament"), permissions=["change"])
    def start_action(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        run_service(
            self, request, queryset,
            lambda t: services.tournament_start(tournament=t, user=request.user),
            _("%(name)s: started, the first matches are drawn."),
        )  # fmt: skip

    @admin.action(description=gettext_lazy("Pair the next round (Swiss)"), permissions=["change"])
    def pair_round_action(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        run_service(
            self, request, queryset,
            lambda t: services.swiss_round_pair(tournament=t, user=request.user),
            _("%(name)s: next round paired."),
        )  # fmt: skip

    @admin.action(description=gettext_lazy("Recompute the standings"), permissions=["change"])
    def standings_recompute_action(
        self, request: HttpRequest, queryset: QuerySet[Tournament]
    ) -> None:
        run_service(
            self, request, queryset,
            lambda t: services.standings_recompute(tournament=t),
            _("%(name)s: standings recomputed."),
        )  # fmt: skip


@admin.register(Entry)
class EntryAdmin(AuditedAdmin[Entry]):
    list_display = ["player", "tournament", "seed", "status", "checked_in", "group"]
    list_filter = ["status", "checked_in", "tournament"]
    search_fields = ["player__display_name", "tournament__name"]
    autocomplete_fields = ["tournament", "player"]
    actions = ["check_in_action", "withdraw_action"]

    def get_fields(self, request: HttpRequest, obj: Entry | None = None) -> tuple[str, ...]:
        """A new entry names a tournament and a player; the rest is the services' to set."""
        if obj is None:
            return ("tournament", "player")
        return ("tournament", "player", "seed", "status", "checked_in", "group", "joined_round")

    def get_readonly_fields(
        self, request: HttpRequest, obj: Entry | None = None
    ) -> tuple[str, ...]:
        return () if obj is None else self.get_fields(request, obj)

    def save_model(self, request: HttpRequest, obj: Entry, form: Any, change: bool) -> None:
        """Registration goes through entry_register (open registration, capacity, audit)."""
        if not change:
            created = services.entry_register(
                tournament=obj.tournament, user=request.user, player=obj.player
            )
            obj.__dict__.update(created.__dict__)

    @admin.action(description=gettext_lazy("Check in"), permissions=["change"])
    def check_in_action(self, request: HttpRequest, queryset: QuerySet[Entry]) -> None:
        run_service(
            self, request, queryset,
            lambda e: services.entry_check_in(entry=e, user=request.user),
            _("%(name)s: checked in."),
        )  # fmt: skip

    @admin.action(description=gettext_lazy("Withdraw"), permissions=["change"])
    def withdraw_action(self, request: HttpRequest, queryset: QuerySet[Entry]) -> None:
        run_service(
            self, request, queryset,
            lambda e: services.entry_withdraw(entry=e, user=request.user),
            _("%(name)s: withdrawn."),
        )  # fmt: skip


@admin.register(Round)
class RoundAdmin(AuditedAdmin[Round]):
    list_display = ["tournament", "stage", "number", "opening_variant", "deadline", "is_finished"]
    list_filter = ["stage", "is_finished", "tournament"]
    search_fields = ["tournament__name"]
    fields = ["tournament", "stage", "number", "opening_variant", "deadline", "is_finished"]
    readonly_fields = ["tournament", "stage", "number", "opening_variant", "is_finished"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # rounds are drawn by the services

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def save_model(self, request: HttpRequest, obj: Round, form: Any, change: bool) -> None:
        """The deadline is the one thing to change here: through round_deadline_set."""
        if "deadline" not in form.changed_data:
            return
        services.round_deadline_set(
            tournament=obj.tournament,
            user=request.user,
            number=obj.number,
            deadline=form.cleaned_data["deadline"],
            stage=obj.stage,
        )


@admin.register(TournamentMatch)
class TournamentMatchAdmin(ReadOnlyAdmin[TournamentMatch]):
    list_display = [
        "tournament", "stage", "key", "round", "entry_one", "entry_two", "status", "winner",
        "score_one", "score_two", "is_forfeit",
    ]  # fmt: skip
    list_filter = ["status", "stage", "is_forfeit", "tournament"]
    search_fields = ["key", "tournament__name", "entry_one__player__display_name"]
    list_select_related = ["tournament", "entry_one__player", "entry_two__player", "winner"]


@admin.register(Standing)
class StandingAdmin(ReadOnlyAdmin[Standing]):
    list_display = [
        "tournament", "section", "rank", "entry", "played", "match_wins", "match_points",
        "point_diff", "buchholz", "computed_at",
    ]  # fmt: skip
    list_filter = ["tournament", "section"]
    search_fields = ["entry__player__display_name", "tournament__name"]
    list_select_related = ["tournament", "entry__player", "entry__tournament"]
