"""A tournament's life before play: create, edit, registration, entries, check-in, seeding,
withdrawal and late entry; then start, which hands over to the format's service."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from datetime import date
from typing import Any, TypedDict, Unpack

from auditlog.context import set_actor
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User as AuthUser
from django.db import transaction
from django.db.models import Max

from common.errors import ConflictError, InvalidRequestError, NotAllowedError
from games import services as games_services
from games.clock import ClockSettings
from games.engine import Options
from games.selectors import User
from players.models import Club, Player
from players.selectors import account
from players.services import MAX_BULK_PLAYERS
from tournaments import selectors
from tournaments.draw import format_rules
from tournaments.draw.standings import TIEBREAKS
from tournaments.models import Entry, Tournament, TournamentMatch
from tournaments.services.common import audit, check_status, locked, organiser_action
from tournaments.services.standings import standings_enqueue

Status = Tournament.Status
EDITABLE = (Status.DRAFT, Status.REGISTRATION)
# The most players entered at once: as many as the players API enters at once, so a list of new
# players entered together can then be entered into a tournament together.
MAX_BULK_ENTRIES = MAX_BULK_PLAYERS


class TournamentSettings(TypedDict, total=False):
    """The settings an organiser chooses: the keyword arguments of ``tournament_create`` and
    ``tournament_update``. A setting left out keeps its default (create) or its stored value
    (update); a new tournament needs at least ``name`` and ``format``."""

    name: str
    club: Club | None
    starts_on: date | None
    ends_on: date | None
    format: str  # a Tournament.Format
    match_length: int
    options: dict[str, Any]  # the engine's Options JSON
    match_mode: str  # a Tournament.MatchMode
    rotate_cycle: bool
    third_place: bool
    grand_final_reset: bool
    consolation_rounds: int
    consolation_match_length: int | None
    double_round_robin: bool
    groups: int
    knockout_per_group: int
    swiss_rounds: int | None
    tiebreak_order: list[str]
    bye_points: float
    max_entries: int | None
    late_entry_until_round: int
    check_in_required: bool
    seed_method: str  # a Tournament.SeedMethod
    rated: bool
    clock: dict[str, Any] | None  # games.clock.ClockSettings JSON; None or {}: no clock
    claim_after_hours: int


def tournament_create(
    *,
    user: User,
    organisers: list[AuthUser] | None = None,
    **fields: Unpack[TournamentSettings],
) -> Tournament:
    """Create a draft tournament; ``user`` is its first organiser. Options are checked by the
    engine, the tie-break order against the known tie-breaks. It is rated (its matches count
    for the ratings) when ``user`` may run rated tournaments, unless ``rated`` says False;
    anyone else's tournament is a friendly one."""
    _check_fields(fields)
    _check_format_settings({**_defaults(), **fields})
    _clock_normalise(fields)
    if fields.get("rated") is None:
        fields["rated"] = selectors.may_run_rated(user)
    _check_rated(user, fields)
    limits = selectors.bounds(user=user, rated=bool(fields["rated"]))
    _check_max_entries(limits, fields)
    with transaction.atomic(), set_actor(user):
        if not fields["rated"] and limits.open_friendly is not None:
            _check_open_friendly(user, limits.open_friendly)
        tournament = Tournament.objects.create(created_by=account(user), **fields)
        tournament.organisers.add(account(user), *(organisers or []))
        audit(tournament, user, "create", status=(None, tournament.status))
    return tournament


def tournament_update(
    *, tournament: Tournament, user: User, **fields: Unpack[TournamentSettings]
) -> Tournament:
    """Change settings while the tournament is a draft or open for registration."""
    _check_fields(fields)
    _check_rated(user, fields)
    with organiser_action(tournament, user) as tournament:
        check_status(tournament, *EDITABLE)
        _check_max_entries(_bounds_of(tournament), fields)
        stored = {name: getattr(tournament, name) for name in (*format_rules.SETTINGS, "format")}
        _check_format_settings({**stored, **fields})
        _clock_normalise(fields)
        before = {name: getattr(tournament, name) for name in fields}
        for name, value in fields.items():
            setattr(tournament, name, value)
        tournament.save()
        audit(tournament, user, "update", **{n: (before[n], v) for n, v in fields.items()})
    return tournament


def _defaults() -> dict[str, Any]:
    return {
        name: Tournament.field_default(name)
        for name in (*format_rules.SETTINGS, "format")
    }


def _check_format_settings(settings: Mapping[str, Any]) -> None:
    """Every format setting in its range and playable together (tournaments.format_rules):
    a 400 naming the setting now rather than a start that cannot draw or never finishes."""
    try:
        format_rules.check_settings(settings)
    except format_rules.SettingsError as error:
        raise InvalidRequestError(str(error)) from error


def _clock_normalise(fields: TournamentSettings) -> None:
    """Store a checked clock as its settings' JSON (both numbers, the preset named), none as
    {}."""
    if "clock" in fields:
        settings = ClockSettings.from_json(fields["clock"])
        fields["clock"] = settings.to_json() if settings is not None else {}


def _check_rated(user: User, fields: TournamentSettings) -> None:
    if fields.get("rated") and not selectors.may_run_rated(user):
        raise NotAllowedError(
            "only staff and organisers given the permission to run rated tournaments may make "
            "a tournament rated"
        )


def _bounds_of(tournament: Tournament) -> selectors.Bounds:
    return selectors.bounds(user=tournament.created_by, rated=tournament.rated)


def _check_open_friendly(user: User, limit: int) -> None:
    """A user may have at most ``limit`` friendly tournaments open (not finished) at once."""
    count = selectors.open_friendly_count(user)
    if count >= limit:
        raise ConflictError(
            f"you already have {count:,} friendly tournaments that are not finished; at most "
            f"{limit:,} may be open at once"
        )


def _check_max_entries(limits: selectors.Bounds, fields: TournamentSettings) -> None:
    wanted = fields.get("max_entries")
    if wanted is not None and limits.entries is not None and wanted > limits.entries:
        raise InvalidRequestError(
            f"max_entries ({wanted:,}) is more than {limits.who} may have: at most "
            f"{limits.entries:,} entries"
        )


def _check_fields(fields: TournamentSettings) -> None:
    if "options" in fields:
        fields = {**fields, "options": Options.from_json(fields["options"]).to_json()}
    for name in fields.get("tiebreak_order") or []:
        if name not in TIEBREAKS:
            raise InvalidRequestError(f"unknown tie-break {name!r}; known: {', '.join(TIEBREAKS)}")


def organiser_add(*, tournament: Tournament, user: User, username: str) -> Tournament:
    """An organiser makes the user named ``username`` a co-organiser: they run the tournament
    and decide its matches as the organisers do (D38), at any stage, which an organiser who
    plays needs for their own matches (docs/decisions.md D39). Audited."""
    with organiser_action(tournament, user) as tournament:
        model = get_user_model()
        added = model.objects.filter(**{model.USERNAME_FIELD: username.strip()}).first()
        if added is None or not added.is_active:
            raise InvalidRequestError(f"there is no user {username.strip()!r}")
        name = added.get_username()
        if (
            tournament.created_by_id == added.pk
            or tournament.organisers.filter(pk=added.pk).exists()
        ):
            raise ConflictError(f"{name} organises the tournament already")
        before = sorted(tournament.organisers.values_list(model.USERNAME_FIELD, flat=True))
        tournament.organisers.add(added)
        audit(tournament, user, "organiser_add", organisers=(before, sorted([*before, name])))
    return tournament


def registration_open(*, tournament: Tournament, user: User) -> Tournament:
    with organiser_action(tournament, user) as tournament:
        check_status(tournament, *EDITABLE, Status.RUNNING)
        if tournament.status == Status.DRAFT:
            tournament.status = Status.REGISTRATION
        tournament.registration_open = True
        tournament.save()
        audit(tournament, user, "registration_open", registration_open=(False, True))
    return tournament


def registration_close(*, tournament: Tournament, user: User) -> Tournament:
    with organiser_action(tournament, user) as tournament:
        tournament.registration_open = False
        tournament.save()
        audit(tournament, user, "registration_close", registration_open=(True, False))
    return tournament


def entry_register(
    *, tournament: Tournament, user: User, player: Player, late_bye_points: float | None = None
) -> Entry:
    """Register ``player`` (themself, or anyone by an organiser). During a Swiss tournament a
    late entry is allowed until round ``late_entry_until_round`` is paired: the rounds already
    paired are missed rounds worth ``late_bye_points`` (organisers only; default 0): not
    byes, so the entrant may still get the pairing bye (docs/decisions.md D24)."""
    is_organiser = selectors.is_organiser(user, tournament)
    if not is_organiser and not player.belongs_to(user):
        raise NotAllowedError("players register themselves; organisers may register anyone")
    with transaction.atomic(), set_actor(user):
        tournament = locked(tournament)
        _check_places(tournament, wanted=1)
        if tournament.entries.filter(player=player).exists():
            raise ConflictError(f"{player} is already registered")
        points = late_bye_points if is_organiser else None
        entry = _entry_create(tournament, user, player, points)
        if tournament.status == Status.RUNNING:
            standings_enqueue(tournament)  # the late entrant shows in the standings at once
    return entry


def entries_register_many(
    *,
    tournament: Tournament,
    user: User,
    players: Sequence[Player],
    late_bye_points: float | None = None,
) -> list[Entry]:
    """An organiser enters several players at once (the desk's pasted list or CSV), in the
    order given: all of them or none. Refused: an empty list or one naming a player twice
    (400), a player already entered (409 naming every such player), more players than the
    places left under ``max_entries`` (409), and whatever refuses a single entry (registration
    closed, late entry over: ``entry_register``) (docs/decisions.md D36)."""
    if not players:
        raise InvalidRequestError("no players to enter")
    if len(players) > MAX_BULK_ENTRIES:
        raise InvalidRequestError(f"at most {MAX_BULK_ENTRIES} players at once")
    seen: set[int] = set()
    for index, player in enumerate(players):
        if player.pk in seen:
            raise InvalidRequestError(f"players[{index}]: player {player.pk} ({player}) twice")
        seen.add(player.pk)
    with organiser_action(tournament, user) as tournament:
        _check_places(tournament, wanted=len(players))
        entered = tournament.entries.filter(player__in=players).select_related("player")
        if names := sorted(f"{entry.player} (player {entry.player_id})" for entry in entered):
            raise ConflictError(f"already entered: {', '.join(names)}")
        entries = [_entry_create(tournament, user, p, late_bye_points) for p in players]
        if tournament.status == Status.RUNNING:
            standings_enqueue(tournament)
    return entries


def _check_places(tournament: Tournament, *, wanted: int) -> None:
    """Registration is open (before the start, or for a late entry into a running Swiss) and
    the locked ``tournament`` has room for ``wanted`` more entries."""
    if not tournament.registration_open:
        raise ConflictError("registration is closed")
    if tournament.status == Status.RUNNING:
        _check_late_entry(tournament)
    else:
        check_status(tournament, Status.REGISTRATION)
    active = tournament.entries.filter(status=Entry.Status.ACTIVE).count()
    limits = _bounds_of(tournament)
    if limits.entries is not None and active + wanted > limits.entries:
        raise ConflictError(
            f"{limits.who} may have at most {limits.entries:,} entries: "
            f"{active:,} are entered, {wanted:,} more cannot be"
        )
    cap = tournament.max_entries
    if cap is None:
        return
    if active >= cap:
        raise ConflictError(f"the tournament is full ({cap} entries)")
    if active + wanted > cap:
        raise ConflictError(
            f"only {cap - active} of the {cap} places are left, not the {wanted} asked for"
        )


def _entry_create(
    tournament: Tournament, user: User, player: Player, late_bye_points: float | None
) -> Entry:
    """Create the entry in the locked ``tournament``; a late entry misses the rounds paired."""
    entry = Entry.objects.create(tournament=tournament, player=player)
    if tournament.status == Status.RUNNING:
        _late_entry_byes(tournament, entry, late_bye_points or 0.0)
    audit(tournament, user, "register", entry=(None, str(player)))
    return entry


def _check_late_entry(tournament: Tournament) -> None:
    if tournament.format != Tournament.Format.SWISS:
        raise ConflictError("late entry is possible only in a Swiss tournament")
    if tournament.current_round >= tournament.late_entry_until_round:
        raise ConflictError(
            f"late entry closed: round {tournament.current_round} is already paired "
            f"(allowed until round {tournament.late_entry_until_round})"
        )


def _late_entry_byes(tournament: Tournament, entry: Entry, points: float) -> None:
    last_seed = tournament.entries.aggregate(last=Max("seed"))["last"] or 0
    entry.seed, entry.joined_round = last_seed + 1, tournament.current_round + 1
    entry.save()
    for number in range(1, tournament.current_round + 1):
        TournamentMatch.objects.create(
            tournament=tournament,
            key=f"R{number}-late-{entry.pk}",
            round=number,
            index=999,
            entry_one=entry,
            status=TournamentMatch.Status.MISSED,
            winner=entry,
            bye_points=points,
        )


def entry_check_in(*, entry: Entry, user: User) -> Entry:
    _check_self_or_organiser(entry, user)
    with transaction.atomic(), set_actor(user):
        entry = Entry.objects.select_for_update(no_key=True).get(pk=entry.pk)
        if entry.status != Entry.Status.ACTIVE:
            raise ConflictError("a withdrawn entry cannot check in")
        entry.checked_in = True
        entry.save()
    return entry


def entry_withdraw(*, entry: Entry, user: User) -> Entry:
    """Withdraw an entry. Once the tournament runs, its remaining matches become forfeits
    (those not yet drawn are forfeited when their opponent is known), and a Swiss that the
    players left can no longer pair ends after the rounds played (docs/decisions.md D29). An
    organiser who plays one of those matches withdraws nobody from it: that would win it for
    them, so a co-organiser or staff does (D39)."""
    from tournaments.services import formats

    _check_self_or_organiser(entry, user)
    with transaction.atomic(), set_actor(user):
        tournament = locked(entry.tournament)
        entry = Entry.objects.select_for_update(no_key=True).get(pk=entry.pk)
        if entry.status == Entry.Status.WITHDRAWN:
            raise ConflictError("the entry is already withdrawn")
        entry.status = Entry.Status.WITHDRAWN
        entry.save()
        audit(tournament, user, "withdraw", entry=(str(entry.player), None))
        if tournament.status == Status.RUNNING:
            for tournament_match in selectors.open_matches_of(entry):
                assert tournament_match.match is not None  # an open match has its Match
                if entry.player.belongs_to(user):  # a player withdrawing, organiser or not
                    games_services.match_concede(match=tournament_match.match, user=user)
                else:  # refused to an organiser who plays the entry (D39)
                    games_services.match_forfeit(
                        match=tournament_match.match, user=user, loser=entry.player
                    )
            formats._swiss_end_check(locked(tournament))  # the forfeits may have moved it on
    return entry


def _check_self_or_organiser(entry: Entry, user: User) -> None:
    if not entry.player.belongs_to(user) and not selectors.is_organiser(user, entry.tournament):
        raise NotAllowedError("only the player and the organisers may do this")


def entries_seed(
    *,
    tournament: Tournament,
    user: User,
    method: str | None = None,
    seeds: Mapping[int, int] | None = None,
    rng: random.Random | None = None,
) -> list[Entry]:
    """Seed the active entries: ``manual`` (``seeds`` maps every entry id to 1..n), ``rating``
    (highest rating first, then earliest registration) or ``random``."""
    with organiser_action(tournament, user) as tournament:
        check_status(tournament, *EDITABLE)
        method = method or tournament.seed_method
        entries = list(
            tournament.entries.filter(status=Entry.Status.ACTIVE).select_related("player")
        )
        order = _seed_order(entries, method, seeds or {}, rng or random.Random())
        before = {e.pk: e.seed for e in entries}
        for number, entry in enumerate(order, start=1):
            entry.seed = number
        Entry.objects.bulk_update(order, ["seed"])
        tournament.seed_method = method
        tournament.save()
        audit(tournament, user, "seed", seeds=(before, {e.pk: e.seed for e in order}))
    return order


def _seed_order(
    entries: list[Entry], method: str, seeds: Mapping[int, int], rng: random.Random
) -> list[Entry]:
    if method == Tournament.SeedMethod.MANUAL:
        wanted = set(range(1, len(entries) + 1))
        if {e.pk for e in entries} != set(seeds) or set(seeds.values()) != wanted:
            raise InvalidRequestError(
                f"manual seeding needs every entry ({sorted(e.pk for e in entries)}) "
                f"mapped to a distinct seed 1..{len(entries)}"
            )
        return sorted(entries, key=lambda e: seeds[e.pk])
    if method == Tournament.SeedMethod.RANDOM:
        shuffled = sorted(entries, key=lambda e: e.pk)
        rng.shuffle(shuffled)
        return shuffled
    if method == Tournament.SeedMethod.RATING:
        return sorted(entries, key=lambda e: (-e.player.rating, e.created_at, e.pk))
    raise InvalidRequestError(f"unknown seeding method {method!r}")


def tournament_start(*, tournament: Tournament, user: User) -> Tournament:
    """Close registration, drop entries that did not check in (when check-in is required),
    seed any unseeded field by the tournament's method, and draw the first matches."""
    from tournaments.services import formats

    with organiser_action(tournament, user) as tournament:
        check_status(tournament, *EDITABLE)
        active = tournament.entries.filter(status=Entry.Status.ACTIVE)
        if tournament.check_in_required:
            active.filter(checked_in=False).update(status=Entry.Status.WITHDRAWN)
        entries = list(active.select_related("player"))
        if len(entries) < 2:
            raise ConflictError(f"a tournament needs at least 2 entries, not {len(entries)}")
        settings = {n: getattr(tournament, n) for n in (*format_rules.SETTINGS, "format")}
        try:
            format_rules.check_field(settings, len(entries))
        except format_rules.SettingsError as error:
            raise ConflictError(
                f"cannot start: {error}; change {error.field} while registration is open"
            ) from error
        _check_start_size(tournament, settings, len(entries))
        if any(e.seed is None for e in entries) or len({e.seed for e in entries}) != len(entries):
            _check_seeds_needed(tournament, entries)
            order = _seed_order(entries, tournament.seed_method, {}, random.Random())
            for number, entry in enumerate(order, start=1):
                entry.seed = number
            Entry.objects.bulk_update(order, ["seed"])
        before = tournament.status
        tournament.status = Status.RUNNING
        # Registration stays open only for late entries into a Swiss tournament.
        tournament.registration_open = (
            tournament.format == Tournament.Format.SWISS and tournament.late_entry_until_round > 1
        )
        tournament.save()
        formats._draw_start(tournament, user)
        audit(tournament, user, "start", status=(before, tournament.status))
    return tournament


def _check_start_size(tournament: Tournament, settings: dict[str, Any], entries: int) -> None:
    """One start creates at most the bound's matches, and the field is within the bound of
    entries (which may have been lowered since they entered): a 409 naming the bound."""
    limits = _bounds_of(tournament)
    if limits.entries is not None and entries > limits.entries:
        raise ConflictError(
            f"cannot start: {limits.who} may have at most {limits.entries:,} entries, "
            f"not {entries:,}; withdraw some"
        )
    draw_settings = ("double_round_robin", "third_place", "grand_final_reset")
    extra = {name: getattr(tournament, name) for name in draw_settings}
    count, draw = format_rules.start_matches({**settings, **extra}, entries)
    if limits.start_matches is not None and count > limits.start_matches:
        raise ConflictError(
            f"cannot start: {draw} would create {count:,} matches; at most "
            f"{limits.start_matches:,} may be created by one start of {limits.who}"
        )


def _check_seeds_needed(tournament: Tournament, entries: list[Entry]) -> None:
    """The start seeds an unseeded field by the tournament's method, except by hand: then the
    organiser seeds it first (a 409 that leaves registration open, not a 400 for a request
    with no body)."""
    if tournament.seed_method != Tournament.SeedMethod.MANUAL:
        return
    unseeded = sorted(str(e.player) for e in entries if e.seed is None)
    raise ConflictError(
        f"cannot start: seeding is manual and {', '.join(unseeded) or 'some entries'} "
        "have no seed of their own; seed the entries first"
    )
