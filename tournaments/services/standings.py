"""Standings: build MatchResult rows from the stored matches, call the pure compute_standings
(and placings for brackets), and store the rows so pages and the API read them cheaply."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, fields, replace
from typing import Any, Protocol

from celery import current_app
from django.db import connection, transaction
from django.db.models import Q

from tournaments.draw import brackets
from tournaments.draw.standings import (
    DEFAULT_ORDER,
    MatchResult,
    StandingRow,
    compute_standings,
    first_place_by_seed,
    standings_update,
)
from tournaments.models import Stage, Standing, Tournament, TournamentMatch
from tournaments.push import tournament_changed

MatchStatus = TournamentMatch.Status
STANDINGS_TASK = "tournaments.tasks.standings_recompute"
STAT_FIELDS = (
    "played",
    "match_wins",
    "match_losses",
    "match_points",
    "games_won",
    "points_for",
    "points_against",
    "point_diff",
    "buchholz",
    "median_buchholz",
    "sonneborn_berger",
    "head_to_head",
    "byes",
    "forfeits",
)
COLUMNS = ["rank", "rank_last", *STAT_FIELDS]


class StoredMatch(Protocol):
    """What the standings read of a stored match: a ``TournamentMatch``, or a ``LightMatch``."""

    @property
    def key(self) -> str: ...
    @property
    def section(self) -> str: ...
    @property
    def round(self) -> int: ...
    @property
    def index(self) -> int: ...
    @property
    def sources(self) -> Any: ...
    @property
    def match_length(self) -> int | None: ...
    @property
    def stage(self) -> str: ...
    @property
    def status(self) -> str: ...
    @property
    def entry_one_id(self) -> int | None: ...
    @property
    def entry_two_id(self) -> int | None: ...
    @property
    def winner_id(self) -> int | None: ...
    @property
    def score_one(self) -> int: ...
    @property
    def score_two(self) -> int: ...
    @property
    def games_one(self) -> int | None: ...
    @property
    def games_two(self) -> int | None: ...
    @property
    def is_forfeit(self) -> bool: ...
    @property
    def bye_points(self) -> float | None: ...


@dataclass(frozen=True, slots=True)
class LightMatch:
    """A stored match's columns that the standings read, without a model instance: a bracket's
    standings after each result read every row of it (docs/decisions.md D74)."""

    key: str
    section: str
    round: int
    index: int
    sources: Any
    match_length: int | None
    stage: str
    status: str
    entry_one_id: int | None
    entry_two_id: int | None
    winner_id: int | None
    score_one: int
    score_two: int
    games_one: int | None
    games_two: int | None
    is_forfeit: bool
    bye_points: float | None


LIGHT_FIELDS = [field.name for field in fields(LightMatch)]


def bracket_load(
    tournament: Tournament, stage: str
) -> tuple[brackets.Bracket, dict[int, int], list[TournamentMatch]]:
    """The stored bracket of ``stage`` as the pure dataclasses, its seeding and its rows."""
    rows = list(tournament.matches.filter(stage=stage).order_by("id"))
    bracket, seeding = _bracket_of(tournament, stage, rows)
    return bracket, seeding, rows


def _bracket_of(
    tournament: Tournament, stage: str, rows: Sequence[StoredMatch]
) -> tuple[brackets.Bracket, dict[int, int]]:
    stored = tournament.brackets[stage]
    seeding = {int(number): entry for number, entry in stored["seeds"].items()}
    matches = tuple(
        brackets.BracketMatch(
            key=row.key,
            section=brackets.Section(row.section),
            round=row.round,
            index=row.index,
            sources=(brackets.parse_source(row.sources[0]), brackets.parse_source(row.sources[1])),
            match_length=row.match_length,
        )
        for row in rows
    )
    return brackets.Bracket(stored["format"], len(seeding), matches), seeding


def bracket_results(rows: Sequence[StoredMatch]) -> dict[str, int]:
    return {
        row.key: row.winner_id
        for row in rows
        if row.status == MatchStatus.DONE and row.winner_id is not None
    }


def bracket_states(
    tournament: Tournament,
    stage: str,
    override: dict[str, int] | None = None,
    *,
    strict: bool = True,
) -> tuple[dict[str, brackets.SlotState], brackets.Bracket, list[TournamentMatch]]:
    """Every slot of ``stage`` resolved from the stored results, with ``override`` in place of
    some; ``strict`` False leaves out a stored result the override makes impossible."""
    bracket, seeding, rows = bracket_load(tournament, stage)
    results = {**bracket_results(rows), **(override or {})}
    return brackets.resolve(bracket, seeding, results, strict=strict), bracket, rows


# The columns ``_bracket_read`` reads: a ``LightMatch``'s but the sources, which the draw gives.
_READ_FIELDS = [name for name in LIGHT_FIELDS if name != "sources"]
# A bracket stage's draw (``brackets.BracketMatch`` in play order) by its tournament, stage,
# format, size and its rows' ids and keys: a drawn row keeps its key, place and sources (a result
# changes its players and outcome only), so a process parses a draw's sources once (D113).
_DRAWS: dict[tuple[Any, ...], tuple[brackets.BracketMatch, ...]] = {}
_DRAWS_KEPT = 64


def _light(values: Sequence[Any]) -> LightMatch:
    """A row read as ``_READ_FIELDS``: a ``LightMatch`` whose sources are None."""
    v = values
    return LightMatch(
        v[0], v[1], v[2], v[3], None, v[4], v[5], v[6], v[7], v[8], v[9], v[10], v[11], v[12],
        v[13], v[14], v[15],
    )  # fmt: skip


def _bracket_read(
    tournament: Tournament, stage: str
) -> tuple[dict[str, brackets.SlotState], brackets.Bracket, list[LightMatch]]:
    """``bracket_states`` for reading only: the rows as ``LightMatch`` (their ``sources``
    None: the draw holds them), in one query, and the draw once a process."""
    ids, rows = [], []
    for pk, *values in (
        tournament.matches.filter(stage=stage).order_by("id").values_list("id", *_READ_FIELDS)
    ):
        ids.append(pk)
        rows.append(_light(values))
    draw = _draw(tournament, stage, ids, [row.key for row in rows])
    stored_draw = tournament.brackets[stage]
    seeding = {int(number): entry for number, entry in stored_draw["seeds"].items()}
    bracket = brackets.Bracket(stored_draw["format"], len(seeding), draw)
    return brackets.resolve(bracket, seeding, bracket_results(rows)), bracket, rows


def match_results(tournament: Tournament, rows: Sequence[StoredMatch]) -> list[MatchResult]:
    """Played matches and byes as the pure MatchResult; bracket byes (no opponent yet known)
    and unplayed matches are left out."""
    results = []
    for row in rows:
        one = row.entry_one_id
        if one is None:  # a bracket slot not filled yet: neither played nor a bye
            continue
        if row.status == MatchStatus.DONE and row.entry_two_id is not None:
            results.append(
                MatchResult(
                    round=row.round,
                    player1=one,
                    player2=row.entry_two_id,
                    winner=row.winner_id,
                    score1=row.score_one,
                    score2=row.score_two,
                    games1=row.games_one,
                    games2=row.games_two,
                    forfeit=row.is_forfeit,
                )
            )
        elif row.status == MatchStatus.MISSED:
            results.append(
                MatchResult(
                    round=row.round,
                    player1=one,
                    player2=None,
                    winner=one,
                    bye_points=row.bye_points or 0.0,
                    missed=True,
                )
            )
        elif (
            row.status == MatchStatus.BYE
            and row.stage == Stage.MAIN
            and not tournament.is_elimination
        ):
            points = tournament.bye_points if row.bye_points is None else row.bye_points
            results.append(
                MatchResult(
                    round=row.round,
                    player1=one,
                    player2=None,
                    winner=one,
                    bye_points=points,
                )
            )
    return results


def section_standings(
    tournament: Tournament,
    section: str,
    stage: str = Stage.MAIN,
    rows: list[TournamentMatch] | None = None,
) -> list[StandingRow]:
    """The live standings of one section (a group, or the whole field), in the organiser's
    tie-break order; a tie for first place on every tie-break goes to the best seed (D28).
    ``rows``: the section's matches, when the caller has read them already."""
    if rows is None:
        rows = list(tournament.matches.filter(stage=stage, section=section))
    players = sorted(
        {row.entry_one_id for row in rows if row.entry_one_id}
        | {row.entry_two_id for row in rows if row.entry_two_id}
    )
    if section == brackets.Section.MAIN and stage == Stage.MAIN and not tournament.is_elimination:
        players = sorted(set(players) | set(tournament.entries.values_list("pk", flat=True)))
    order = tuple(tournament.tiebreak_order or DEFAULT_ORDER)
    table = compute_standings(players, match_results(tournament, rows), order)
    return first_place_by_seed(table, dict(tournament.entries.values_list("pk", "seed")))


def bracket_standings(tournament: Tournament, stage: str) -> list[StandingRow]:
    """Statistics of every bracket entrant, ranked by the round they reached: the places they
    share (rank 5, rank_last 8 for the quarter-final losers of 8; None while undecided), and
    within them by seed, never by a tie-break (docs/decisions.md D33)."""
    states, bracket, rows = _bracket_read(tournament, stage)
    places = brackets.placing_ranges(bracket, states)
    players = sorted(set(tournament.brackets[stage]["seeds"].values()))
    stats = compute_standings(players, match_results(tournament, rows), DEFAULT_ORDER)
    return _ranked(stats, places, tournament.brackets[stage]["seeds"])


def consolation_standings(tournament: Tournament) -> list[StandingRow]:
    """The consolation flight's own table: everyone who entered it, with the statistics of
    their consolation matches, ranked by the flight's placings (its winner 1st, the runner-up
    2nd, ...; None while undecided). The main table keeps ranking everyone by the main draw."""
    states, bracket, rows = _bracket_read(tournament, Stage.MAIN)
    side = [row for row in rows if row.section == brackets.Section.CONSOLATION]
    players = sorted({p for row in side for p in (row.entry_one_id, row.entry_two_id) if p})
    places = brackets.placing_ranges(bracket, states, brackets.Section.CONSOLATION)
    stats = compute_standings(players, match_results(tournament, side), DEFAULT_ORDER)
    return _ranked(stats, places, tournament.brackets[Stage.MAIN]["seeds"])


def _ranked(
    stats: list[StandingRow], places: list[tuple[int, int, int]], seeds: dict[str, int]
) -> list[StandingRow]:
    """``stats`` with the bracket's places (``placing_ranges``), best first, by seed within a
    shared place; ``seeds`` are the draw's (seed → entry id)."""
    ranges = {player: (first, last) for player, first, last in places}
    seed_of = {entry: int(seed) for seed, entry in seeds.items()}
    ranked = [
        row  # its place unchanged: the same row (``_standings_store`` then skips it)
        if (row.rank, row.rank_last) == ranges.get(row.player, (None, None))
        else replace(row, rank=ranges[row.player][0], rank_last=ranges[row.player][1])
        if row.player in ranges
        else replace(row, rank=None, rank_last=None)  # type: ignore[arg-type]
        for row in stats
    ]
    return sorted(
        ranked, key=lambda row: (row.rank is None, row.rank or 0, seed_of.get(row.player, 0))
    )


def standings_recompute(
    *, tournament: Tournament, stage: str | None = None, entries: Collection[int] = ()
) -> StandingsStored:
    """Recompute and store every standings table of ``tournament``. Idempotent: the tournament
    row is locked and the stored rows are replaced, so concurrent runs simply follow each other.

    ``stage`` and ``entries``: a bracket's first result(s) gave these entries a new result and
    changed nothing else, so only that stage's table can change, and in it the statistics of
    those within two opponents of them (``standings_update``); the places are recomputed from
    the whole bracket. Without them, or when the stored table cannot be updated so (a league
    table, whose ranks move with everyone's values; a consolation draw's two tables; a table
    not stored yet), everything is recomputed (docs/decisions.md D113)."""
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update(no_key=True).get(pk=tournament.pk)
        if stage is not None and entries:
            updated = _bracket_update(tournament, stage, set(entries))
            if updated is not None:
                return updated
        return _standings_store(tournament, standings_tables(tournament))


def standings_tables(tournament: Tournament) -> dict[str, list[StandingRow]]:
    """Every standings table of ``tournament`` computed from all its matches (what
    ``standings_recompute`` stores), by section; reads only."""
    tables: dict[str, list[StandingRow]] = {}
    if tournament.is_elimination:
        tables[Stage.MAIN] = bracket_standings(tournament, Stage.MAIN)
        if tournament.format == Tournament.Format.CONSOLATION:
            tables[brackets.Section.CONSOLATION] = consolation_standings(tournament)
    elif tournament.status != Tournament.Status.DRAFT:
        sections = set(
            tournament.matches.filter(stage=Stage.MAIN).values_list("section", flat=True)
        )
        for section in sorted(sections) or [brackets.Section.MAIN]:
            tables[section] = section_standings(tournament, section)
        if Stage.KNOCKOUT in tournament.brackets:
            tables[Stage.KNOCKOUT] = bracket_standings(tournament, Stage.KNOCKOUT)
    return tables


def _bracket_update(
    tournament: Tournament, stage: str, entries: set[int]
) -> StandingsStored | None:
    """The table of the bracket ``stage`` after results that changed only ``entries``'
    records, written where it changed: the statistics of everyone within two opponents of
    them recomputed (``standings_update``, from their matches and the stored rows of their
    opponents), and everyone's place from the whole bracket (its results read as keys and
    winners, its draw once a process: ``_draw``). None when this table is not one a bracket's
    result alone changes, is not stored for every entrant yet, or would list players sharing
    a place in another order than their ids: the caller recomputes everything (D113)."""
    if tournament.is_elimination:
        if tournament.format == Tournament.Format.CONSOLATION or stage != Stage.MAIN:
            return None
    elif stage != Stage.KNOCKOUT:
        return None
    if stage not in tournament.brackets:
        return None
    slots = list(
        tournament.matches.filter(stage=stage)
        .order_by("id")
        .values_list("id", "key", "status", "winner_id", "entry_one_id", "entry_two_id")
    )
    if not slots:
        return None
    seeds = tournament.brackets[stage]["seeds"]
    seeding = {int(number): entry for number, entry in seeds.items()}
    draw = _draw(tournament, stage, [slot[0] for slot in slots], [slot[1] for slot in slots])
    bracket = brackets.Bracket(tournament.brackets[stage]["format"], len(seeding), draw)
    results: dict[str, int] = {}
    met: dict[int, set[int]] = {}
    for _, key, status, winner, one, two in slots:
        if status == MatchStatus.DONE and winner is not None:
            results[key] = winner
            if one is not None and two is not None:
                met.setdefault(one, set()).add(two)
                met.setdefault(two, set()).add(one)
    states = brackets.resolve(bracket, seeding, results)
    places = {
        player: (first, last) for player, first, last in brackets.placing_ranges(bracket, states)
    }
    placed = {
        entry: (pk, (rank, rank_last))
        for pk, entry, rank, rank_last in Standing.objects.filter(
            tournament=tournament, section=stage
        )
        .order_by()  # by entry: no order needed (nor the join on the tournament it takes)
        .values_list("pk", "entry_id", "rank", "rank_last")
    }
    seed_of = {entry: int(seed) for seed, entry in seeds.items()}
    if set(placed) != set(seed_of):
        return None
    # The pages list a shared place by id (``_standings_store``): the ids must follow the seeds.
    last: dict[int | None, int] = {}
    for entry in sorted(
        seed_of, key=lambda e: (e not in places, places.get(e, (0,))[0], seed_of[e])
    ):
        rank = places[entry][0] if entry in places else None
        if rank in last and last[rank] > placed[entry][0]:
            return None
        last[rank] = placed[entry][0]
    moved = {e for e, (_, before) in placed.items() if before != places.get(e, (None, None))}
    near = set(entries)
    for _ in range(2):  # their opponents, then the opponents' opponents
        near |= {other for player in near for other in met.get(player, ())}
    theirs = match_results(
        tournament,
        [
            _light(values)
            for values in tournament.matches.filter(stage=stage)
            .filter(Q(entry_one_id__in=near) | Q(entry_two_id__in=near))
            .order_by("id")
            .values_list(*_READ_FIELDS)
        ],
    )
    met_by_near = {p for r in theirs for p in (r.player1, r.player2) if p is not None}
    stored = _stored(tournament, [stage], near | met_by_near | moved)
    before = {entry: row for (_, entry), (_, row) in stored.items()}
    fresh = standings_update(before, near, theirs, DEFAULT_ORDER)
    changed: list[Standing] = []
    columns: set[str] = set()
    for entry in sorted(near | moved):
        pk, old = stored[(stage, entry)]
        rank, rank_last = places.get(entry, (None, None))
        row = replace(fresh.get(entry, old), rank=rank, rank_last=rank_last)  # type: ignore[arg-type]
        values, was = _values(row), _values(old)
        if values != was:
            columns.update(c for c, a, b in zip(COLUMNS, was, values, strict=True) if a != b)
            changed.append(
                Standing(
                    pk=pk,
                    tournament=tournament,
                    section=stage,
                    entry_id=entry,
                    **dict(zip(COLUMNS, values, strict=True)),
                )
            )
    if changed:
        _update_many(changed, [c for c in COLUMNS if c in columns])
        tournament_changed(tournament_id=tournament.pk, kind="standings")
    return StandingsStored(created=0, updated=len(changed), deleted=0)


def _update_many(rows: list[Standing], names: list[str]) -> None:
    """``bulk_update`` of a few rows as one statement run for each (``executemany``): a
    result changes a handful of rows, for which building ``bulk_update``'s CASE expressions
    cost more than the statement (docs/decisions.md D113)."""
    meta = Standing._meta
    by_name = {field.name: field for field in meta.concrete_fields}
    columns = [by_name[name] for name in names]
    quote = connection.ops.quote_name
    assignments = ", ".join(f"{quote(str(field.column))} = %s" for field in columns)
    sql = f"UPDATE {quote(meta.db_table)} SET {assignments} WHERE {quote('id')} = %s"
    with connection.cursor() as cursor:
        cursor.executemany(
            sql,
            [
                [
                    field.get_db_prep_save(getattr(row, field.attname), connection)
                    for field in columns
                ]
                + [row.pk]
                for row in rows
            ],
        )


def _draw(
    tournament: Tournament, stage: str, ids: Sequence[int], keys: Sequence[str]
) -> tuple[brackets.BracketMatch, ...]:
    """The draw of ``stage``, whose rows have these ids and keys (in id order)."""
    stored = tournament.brackets[stage]
    key = (
        tournament.pk,
        stage,
        stored["format"],
        len(stored["seeds"]),
        tuple(ids),
        hash(tuple(keys)),
    )
    draw = _DRAWS.get(key)
    if draw is None:
        full = tournament.matches.filter(stage=stage).order_by("id").values_list(*LIGHT_FIELDS)
        bracket, _ = _bracket_of(tournament, stage, [LightMatch(*values) for values in full])
        if len(_DRAWS) >= _DRAWS_KEPT:
            _DRAWS.clear()
        draw = _DRAWS[key] = bracket.matches
    return draw


@dataclass(frozen=True)
class StandingsStored:
    """What ``standings_recompute`` wrote: rows created, updated and deleted."""

    created: int
    updated: int
    deleted: int


def _stored(
    tournament: Tournament,
    sections: Collection[str] | None = None,
    entries: Collection[int] | None = None,
) -> dict[tuple[str, int], tuple[int, StandingRow]]:
    """The stored rows of ``tournament`` (of ``sections``, of ``entries`` only, when given),
    by (section, entry): each row's id and its values as a ``StandingRow``."""
    query = Standing.objects.filter(tournament=tournament).order_by()  # by key: no order
    if sections is not None:
        query = query.filter(section__in=list(sections))
    if entries is not None:
        query = query.filter(entry_id__in=list(entries))
    # StandingRow's fields: rank, player, STAT_FIELDS in this order, rank_last.
    return {
        (section, entry): (pk, StandingRow(rank, entry, *stats, rank_last))  # type: ignore[call-arg]
        for pk, section, entry, rank, rank_last, *stats in query.values_list(
            "pk", "section", "entry_id", *COLUMNS
        )
    }


def _standings_store(
    tournament: Tournament,
    tables: dict[str, list[StandingRow]],
    *,
    stored: dict[tuple[str, int], tuple[int, StandingRow]] | None = None,
) -> StandingsStored:
    """Store ``tables`` over the stored rows, writing only what changed: the rows whose place
    or statistics differ in one UPDATE, new ones in one INSERT, and those no longer in a table
    deleted (docs/decisions.md D74). A result changes a few rows of a bracket's table, not all.
    When a table's new order would list players who share a rank in another order than their
    ids do (the pages' order), every row is replaced instead, as before. ``stored``: the rows
    of ``tables``' sections only, read already (``_stored``): the other sections are kept."""
    columns = COLUMNS
    scope = Standing.objects.filter(tournament=tournament)
    if stored is None:
        stored = _stored(tournament)
    else:
        scope = scope.filter(section__in=list(tables))
    before_rows = dict(stored)
    every: list[tuple[str, int, int | None, tuple[Any, ...]]] = []
    moved: set[str] = set()  # the columns that changed in a stored row
    in_order = True  # pages list a shared rank by id: the ids must keep the tables' order
    for section, rows in tables.items():
        last: dict[int | None, int | None] = {}  # the last id seen for each rank: None, new
        for row in rows:
            pk, old = before_rows.pop((section, row.player), (None, None))
            if row.rank in last:
                previous = last[row.rank]
                in_order &= pk is None or (previous is not None and previous < pk)
            last[row.rank] = pk
            if old is row:  # the stored row itself, kept (a partial update's others)
                continue
            values = _values(row)
            before = None if old is None else _values(old)
            if before != values:
                every.append((section, row.player, pk, values))
                if before is not None:
                    moved.update(
                        c for c, a, b in zip(columns, before, values, strict=True) if a != b
                    )
    gone = [pk for pk, _ in before_rows.values()]
    if not in_order:  # the full path: every row replaced, in the tables' order
        gone = []
        scope.delete()
        every = [
            (section, row.player, None, _values(row))
            for section, rows in tables.items()
            for row in rows
        ]
    changed: list[Standing] = []
    new: list[Standing] = []
    for section, entry, pk, values in every:
        standing = Standing(
            pk=pk,
            tournament=tournament,
            section=section,
            entry_id=entry,
            **dict(zip(columns, values, strict=True)),
        )
        (new if pk is None else changed).append(standing)
    if gone:
        Standing.objects.filter(pk__in=gone).delete()
    if changed:
        Standing.objects.bulk_update(changed, [c for c in columns if c in moved])
    if new:
        Standing.objects.bulk_create(new)
    if gone or changed or new:
        # Stored in bulk, which sends no signal: the page's listeners are told here.
        tournament_changed(tournament_id=tournament.pk, kind="standings")
    return StandingsStored(created=len(new), updated=len(changed), deleted=len(gone))


def _values(row: StandingRow) -> tuple[Any, ...]:
    return (row.rank, row.rank_last, *(getattr(row, name) for name in STAT_FIELDS))


def standings_recompute_all() -> int:
    """The safety net of the beat schedule: recompute every running or finished tournament."""
    tournaments = Tournament.objects.filter(
        status__in=[Tournament.Status.RUNNING, Tournament.Status.FINISHED]
    )
    count = 0
    for tournament in tournaments:
        standings_recompute(tournament=tournament)
        count += 1
    return count


def standings_enqueue(
    tournament: Tournament, *, stage: str | None = None, entries: Collection[int] = ()
) -> None:
    """Recompute the standings once the current transaction commits (a Celery task). When the
    task cannot be published (broker down) or, run eagerly, fails, the error is logged, the
    request that committed its write still answers at once, and the task is owed
    (games.services.owed): run when the broker is back. ``stage`` and ``entries``: only a
    bracket's first results changed, those of these entries (``standings_recompute``)."""
    from games.services.owed import task_enqueue_on_commit

    # By name, through the Celery app: the task module imports these services, not the reverse.
    task = current_app.tasks[STANDINGS_TASK]
    if stage is not None and entries:
        task_enqueue_on_commit(task, tournament.pk, stage, sorted(entries))
    else:
        task_enqueue_on_commit(task, tournament.pk)
