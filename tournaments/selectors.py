"""Reads: who organises, tournament lists, the bracket as a drawable JSON shape, rounds and
pairings, a round's tables, stored standings (and their CSV), games per variant, the result
reports waiting for an answer, the audit log and ratings."""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Collection, Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from auditlog.models import LogEntry
from django.conf import settings
from django.db.models import Case, Count, F, IntegerField, Prefetch, Q, QuerySet, Value, When
from django.utils.translation import gettext_lazy as _

from common.numbers import ascii_int
from games import selectors as games_selectors
from games.models import Game, Match, RatingHistory, ResultReport
from games.selectors import User
from players.models import Player
from players.selectors import account
from tournaments.draw import brackets, tables
from tournaments.draw.round_names import RoundKind, RoundName, round_name
from tournaments.models import Entry, Round, Stage, Standing, Tournament, TournamentMatch


def may_run_rated(user: User) -> bool:
    """Whether ``user`` may run rated tournaments: staff, and the club organisers staff gave
    the permission "tournaments.run_rated_tournament" (directly or through a group)."""
    if not getattr(user, "is_authenticated", False):
        return False
    return bool(user.is_staff or user.has_perm("tournaments.run_rated_tournament"))


@dataclass(frozen=True)
class Bounds:
    """The bounds of a tournament (docs/decisions.md D57; settings TOURNAMENT_MAX_*): the most
    entries, the most matches one start may create, the most friendly tournaments its creator
    may have open. None: no bound. ``who`` says whose bounds they are, for a refusal."""

    entries: int | None
    start_matches: int | None
    open_friendly: int | None
    who: str


def bounds(*, user: User, rated: bool = False) -> Bounds:
    """The bounds of a tournament of ``user`` (its creator): the higher ``*_TRUSTED`` ones when
    it is rated or ``user`` may run rated tournaments."""
    trusted = rated or may_run_rated(user)
    suffix = "_TRUSTED" if trusted else ""

    def bound(name: str) -> int | None:
        return getattr(settings, f"TOURNAMENT_MAX_{name}{suffix}") or None

    return Bounds(
        entries=bound("ENTRIES"),
        start_matches=bound("START_MATCHES"),
        open_friendly=bound("OPEN_FRIENDLY"),
        who="a rated organiser's tournament" if trusted else "a friendly tournament",
    )


def open_friendly_count(user: User) -> int:
    """The friendly tournaments ``user`` created that are not finished."""
    return (
        Tournament.objects.filter(created_by=account(user), rated=False)
        .exclude(status=Tournament.Status.FINISHED)
        .count()
    )


def runs_tournaments(user: User) -> bool:
    """Whether ``user`` is an organiser: one of the club organisers staff gave the permission
    "tournaments.run_rated_tournament" (directly or through a group), or the creator or a
    co-organiser of a tournament that has not finished (where they land after logging in,
    docs/decisions.md D117)."""
    if not getattr(user, "is_authenticated", False):
        return False
    if user.has_perm("tournaments.run_rated_tournament"):
        return True
    organised = Q(created_by=user.pk) | Q(organisers=user.pk)
    return Tournament.objects.filter(organised).exclude(status=Tournament.Status.FINISHED).exists()


def is_organiser(user: User, tournament: Tournament) -> bool:
    if not getattr(user, "is_authenticated", False):
        return False
    return bool(
        user.is_staff
        or tournament.created_by_id == user.pk
        or tournament.organisers.filter(pk=account(user).pk).exists()
    )


def organises_match(user: User, match: Match) -> bool:
    """Whether ``user`` organises the tournament ``match`` is played in (its creator or one
    of its organisers): they act as the match's organiser (games.organisers, D38)."""
    if not getattr(user, "is_authenticated", False):
        return False
    return Tournament.objects.filter(
        Q(created_by=user) | Q(organisers=user), matches__match=match
    ).exists()


def organises_player(user: User, player: Player) -> bool:
    """Whether ``user`` organises (created or co-organises) a tournament ``player`` entered, or
    one of the player's club: they look after the player (players.selectors.organises_player,
    docs/decisions.md D55)."""
    if not getattr(user, "is_authenticated", False):
        return False
    where = Q(entries__player=player)
    if player.club_id is not None:
        where |= Q(club_id=player.club_id)
    return Tournament.objects.filter(where).filter(Q(created_by=user) | Q(organisers=user)).exists()


def tournaments_visible(
    user: User, tournaments: QuerySet[Tournament] | None = None
) -> QuerySet[Tournament]:
    """Those of ``tournaments`` (default: all) that ``user`` may read: every tournament but a
    draft, which only its organisers and staff see, through the API as on the pages (the
    public pages show no draft; its organisers see it at their desk; docs/decisions.md D56)."""
    tournaments = Tournament.objects.all() if tournaments is None else tournaments
    if getattr(user, "is_staff", False):
        return tournaments
    visible = ~Q(status=Tournament.Status.DRAFT)
    if getattr(user, "is_authenticated", False):
        # A subquery, not a join: the join would repeat rows and inflate entry_count.
        organised = Tournament.objects.filter(Q(created_by=user) | Q(organisers=user))
        visible |= Q(pk__in=organised.values("pk"))
    return tournaments.filter(visible)


def tournament_list() -> QuerySet[Tournament]:
    return (
        Tournament.objects.select_related("club")
        .annotate(entry_count=Count("entries", filter=Q(entries__status=Entry.Status.ACTIVE)))
        .order_by("-id")
    )


def entry_list(tournament: Tournament) -> QuerySet[Entry]:
    return tournament.entries.select_related("player").order_by("seed", "id")


def open_matches_of(entry: Entry) -> list[TournamentMatch]:
    """The entry's matches that are drawn and not yet decided."""
    return list(
        TournamentMatch.objects.filter(
            Q(entry_one=entry) | Q(entry_two=entry),
            status=TournamentMatch.Status.READY,
            match__isnull=False,
        ).select_related("match")
    )


def games_per_variant(tournament: Tournament) -> dict[int, dict[str, int]]:
    """For each player: how many games of each variant they played in this tournament."""
    counts: dict[int, dict[str, int]] = {}
    games = Game.objects.filter(match__tournament_match__tournament=tournament).exclude(
        status=Game.Status.ABANDONED
    )
    for side in ("white_id", "black_id"):
        for row in games.values(side, "variant").annotate(n=Count("id")):
            per_player = counts.setdefault(row[side], {})
            per_player[row["variant"]] = per_player.get(row["variant"], 0) + row["n"]
    return counts


def draw_seeds(tournament: Tournament, stage: str) -> dict[int, int]:
    """Entry id → the seed the draw of a bracket ``stage`` gave it: in a knock-out drawn from
    groups the knock-out seed, not the entry's own (docs/decisions.md D26). Empty for a stage
    that is no bracket (groups, a Swiss), where the entry's seed is the one."""
    stored = tournament.brackets.get(stage, {}).get("seeds", {})
    return {int(entry): int(seed) for seed, entry in stored.items()}


def _entry_json(
    entry: Entry | None, row: TournamentMatch, side: int, seeds: dict[int, int]
) -> dict[str, Any] | None:
    if entry is None:
        return None
    return {
        "entry": entry.pk,
        "player": entry.player_id,
        "name": entry.player.display_name,
        "seed": seeds.get(entry.pk, entry.seed),
        "score": row.score_one if side == 0 else row.score_two,
        "is_winner": row.winner_id == entry.pk,
    }


def match_json(
    row: TournamentMatch,
    next_keys: dict[str, dict[str, str]],
    seeds: dict[int, int] | None = None,
) -> dict[str, Any]:
    """A match as the API and the pages show it; ``seeds`` are its stage's ``draw_seeds``."""
    seeds = seeds or {}
    return {
        "id": row.pk,
        "key": row.key,
        "section": row.section,
        "round": row.round,
        "index": row.index,
        "status": row.status,
        "match_id": row.match_id,
        "match_status": row.match.status if row.match else None,
        "match_length": row.match_length,
        "players": [
            _entry_json(row.entry_one, row, 0, seeds),
            _entry_json(row.entry_two, row, 1, seeds),
        ],
        "winner": row.winner_id,
        "is_forfeit": row.is_forfeit,
        "bye_points": row.bye_points,
        "sources": row.sources,
        "winner_to": next_keys.get(row.key, {}).get("winner"),
        "loser_to": next_keys.get(row.key, {}).get("loser"),
    }


def _rows(
    tournament: Tournament, stage: str, numbers: Collection[int] | None = None
) -> list[TournamentMatch]:
    rows = tournament.matches.filter(stage=stage)
    if numbers is not None:
        rows = rows.filter(round__in=numbers)
    return list(rows.select_related("entry_one__player", "entry_two__player", "match"))


def stage_format(tournament: Tournament, stage: str) -> str:
    """The format of a stage: its bracket's (a knock-out after groups is a single elimination),
    else the tournament's."""
    return str(tournament.brackets.get(stage, {}).get("format", tournament.format))


def round_names(
    tournament: Tournament, stage: str, rows: list[TournamentMatch]
) -> dict[tuple[str, int], RoundName]:
    """(section, round) → the round's name (tournaments.draw.round_names), for the rows of a
    stage."""
    fmt = stage_format(tournament, stage)
    last: dict[str, int] = {}
    for row in rows:
        last[row.section] = max(last.get(row.section, 0), row.round)
    return {
        (row.section, row.round): round_name(fmt, row.section, row.round, last[row.section])
        for row in rows
    }


def bracket(tournament: Tournament, stage: str = Stage.MAIN) -> dict[str, Any]:
    """The stage as sections → rounds → matches, each match with its players, scores, status,
    the games match id, and the keys of the matches its winner and loser go on to; each round
    has its ``name`` ("Semi-final", "Losers' final": tournaments.draw.round_names)."""
    rows = _rows(tournament, stage)
    names = round_names(tournament, stage, rows)
    next_keys: dict[str, dict[str, str]] = {}
    for row in rows:
        for source in map(brackets.parse_source, row.sources):
            if isinstance(source, brackets.WinnerOf | brackets.LoserOf):
                kind = "winner" if isinstance(source, brackets.WinnerOf) else "loser"
                next_keys.setdefault(source.key, {}).setdefault(kind, row.key)
    seeds = draw_seeds(tournament, stage)
    sections: dict[str, dict[int, list[dict[str, Any]]]] = {}
    for row in sorted(rows, key=lambda r: (r.round, r.index)):
        sections.setdefault(row.section, {}).setdefault(row.round, []).append(
            match_json(row, next_keys, seeds)
        )
    stored = tournament.brackets.get(stage, {})
    return {
        "tournament": tournament.pk,
        "stage": stage,
        "format": stage_format(tournament, stage),
        "size": len(stored.get("seeds", {})) or tournament.entries.count(),
        "sections": [
            {
                "name": name,
                "rounds": [
                    {"number": n, "name": str(names[name, n]), "matches": ms}
                    for n, ms in sorted(rounds.items())
                ],
            }
            for name, rounds in sorted(
                sections.items(), key=lambda item: brackets.section_rank(item[0])
            )
        ],
    }


def round_list(
    tournament: Tournament, numbers: Collection[int] | None = None
) -> list[dict[str, Any]]:
    """Every round with its pairings (matches in board order); with ``numbers``, only those
    rounds of the main stage of a league (a page of a large round robin: its names do not
    depend on the other rounds) and the knock-out. A round's ``name`` is "Round N"
    in a league; in a bracket, where a round number spans the sections (winners' and losers'
    round 1), it is the name of its first section's round, and each pairing has its own
    ``round_name``."""
    stages = (Stage.MAIN, Stage.KNOCKOUT)
    some = numbers is not None and not tournament.is_elimination
    # keyed by the stage as stored (a str, as Round.stage reads back)
    rows: dict[str, list[TournamentMatch]] = {
        stage: _rows(tournament, stage, numbers if some and stage == Stage.MAIN else None)
        for stage in stages
    }
    names: dict[str, dict[tuple[str, int], RoundName]] = {
        stage: round_names(tournament, stage, rows[stage]) for stage in stages
    }
    seeds: dict[str, dict[int, int]] = {stage: draw_seeds(tournament, stage) for stage in stages}
    by_round: dict[tuple[str, int], list[TournamentMatch]] = {}
    for drawn in stages:
        for row in sorted(rows[drawn], key=lambda r: (r.section, r.index)):
            by_round.setdefault((drawn, row.round), []).append(row)
    listed = Round.objects.filter(tournament=tournament).order_by("stage", "number")
    if some:
        listed = listed.filter(Q(stage=Stage.KNOCKOUT) | Q(number__in=numbers))
    rounds = []
    for round_ in listed:
        stage = round_.stage
        in_round = by_round.get((stage, round_.number), [])
        pairings = [
            {
                **match_json(row, {}, seeds[stage]),
                "round_name": str(names[stage][row.section, row.round]),
            }
            for row in in_round
        ]
        sections = sorted({row.section for row in in_round}, key=brackets.section_rank)
        first = names[stage][sections[0], round_.number] if sections else None
        rounds.append(
            {
                "stage": round_.stage,
                "number": round_.number,
                "name": str(first or RoundName(RoundKind.ROUND, round_.number)),
                "opening_variant": round_.opening_variant,
                "deadline": round_.deadline,
                "is_finished": round_.is_finished,
                "pairings": pairings,
            }
        )
    return rounds


def round_sizes(tournament: Tournament, stage: str = Stage.MAIN) -> list[tuple[int, int, bool]]:
    """(number, matches, finished) of every round of ``stage``, in order: two narrow queries."""
    counts = dict(
        tournament.matches.filter(stage=stage)
        .values_list("round")
        .annotate(count=Count("id"))
        .values_list("round", "count")
    )
    return [
        (number, counts.get(number, 0), finished)
        for number, finished in tournament.rounds.filter(stage=stage)
        .order_by("number")
        .values_list("number", "is_finished")
    ]


# --- tables: the matches of a round as they are played side by side --------------------------

NO_TABLE = (TournamentMatch.Status.BYE, TournamentMatch.Status.MISSED, TournamentMatch.Status.VOID)


def is_bracket_stage(tournament: Tournament, stage: str) -> bool:
    """Whether ``stage`` is an elimination bracket, whose rounds are its play levels."""
    return stage == Stage.KNOCKOUT or tournament.is_elimination


def _section_order(section: str) -> tuple[int, int, str]:
    """Board order of sections: the bracket's sections, then groups by number (2 before 10)."""
    number = section.removeprefix("group-")
    return (brackets.section_rank(section), ascii_int(number) or 0, section)


def _play_levels(rows: list[TournamentMatch]) -> dict[str, int]:
    """Each bracket row's play level (``brackets.play_levels``); rows are stored in play order."""
    matches = [
        brackets.BracketMatch(
            key=row.key,
            section=brackets.Section.MAIN,  # the section does not change a level
            round=row.round,
            index=row.index,
            sources=(brackets.parse_source(row.sources[0]), brackets.parse_source(row.sources[1])),
        )
        for row in sorted(rows, key=lambda r: r.pk)
    ]
    return brackets.play_levels(matches)


def round_sheets(tournament: Tournament, stage: str) -> list[dict[str, Any]]:
    """Every round of ``stage`` as it is played, in order: its matches in board order with
    their table numbers (``tables.table_numbers``), then the byes and missed rounds, which
    have none. In a bracket a round is a play level (``brackets.play_levels``)."""
    rows = _rows(tournament, stage)
    is_bracket = is_bracket_stage(tournament, stage)
    rounds: dict[int, list[TournamentMatch]] = {}
    if is_bracket:
        level = _play_levels(rows)
        for row in sorted(rows, key=lambda r: r.pk):  # play order
            rounds.setdefault(level[row.key], []).append(row)
    else:
        for row in sorted(rows, key=lambda r: (_section_order(r.section), r.index)):
            rounds.setdefault(row.round, []).append(row)
    seeds = draw_seeds(tournament, stage)
    deadlines = dict(tournament.rounds.filter(stage=stage).values_list("number", "deadline"))
    names = round_names(tournament, stage, rows) if is_bracket else {}
    return [
        {
            **_round_sheet(
                stage, number, chosen, seeds, None if is_bracket else deadlines.get(number)
            ),
            # A bracket's play level holds rounds of its sections: their names, in play order.
            "round_names": list(dict.fromkeys(names[r.section, r.round] for r in chosen))
            if is_bracket
            else [],
        }
        for number, chosen in sorted(rounds.items())
    ]


def _round_sheet(
    stage: str,
    number: int,
    rows: list[TournamentMatch],
    seeds: dict[int, int],
    deadline: datetime | None,
) -> dict[str, Any]:
    numbers = tables.table_numbers([tables.Slot(r.key, r.status not in NO_TABLE) for r in rows])
    return {
        "stage": stage,
        "number": number,
        "deadline": deadline,
        "is_finished": all(row.status in SETTLED_STATUSES for row in rows),
        "tables": [
            {"table": numbers[row.key], **match_json(row, {}, seeds)}
            for row in rows
            if row.key in numbers
        ],
        "byes": [
            match_json(row, {}, seeds)
            for row in rows
            if row.key not in numbers and row.status != TournamentMatch.Status.VOID
        ],
    }


def round_tables(tournament: Tournament, stage: str, number: int) -> dict[str, Any] | None:
    """Round ``number`` of ``stage`` (``round_sheets``) as JSON, its bracket rounds' names as
    text ("Semi-final"); None when the stage has no such round."""
    sheet = next((s for s in round_sheets(tournament, stage) if s["number"] == number), None)
    if sheet is None:
        return None
    return {**sheet, "round_names": [str(name) for name in sheet["round_names"]]}


def points_before(tournament: Tournament, stage: str, number: int) -> dict[int, float]:
    """Entry id → the match points it had before round ``number`` of a stage that is no
    bracket (a Swiss, a league, groups), counted as the standings count them
    (tournaments.draw.standings): a match won, a forfeit won included, is 1; a bye is worth
    its ``bye_points`` (else the tournament's), a late entrant's missed round its own (else
    0). An entry without points yet is left out."""
    points: dict[int, float] = {}
    bracket_byes = stage != Stage.MAIN or tournament.is_elimination  # worth no points
    rows = tournament.matches.filter(stage=stage, round__lt=number).values_list(
        "status", "entry_one_id", "entry_two_id", "winner_id", "bye_points"
    )
    for status, one, two, winner, bye_points in rows:
        if status == TournamentMatch.Status.DONE and one and two and winner:
            points[winner] = points.get(winner, 0.0) + 1.0
        elif status == TournamentMatch.Status.MISSED and one:
            points[one] = points.get(one, 0.0) + (bye_points or 0.0)
        elif status == TournamentMatch.Status.BYE and one and not bracket_byes:
            worth = tournament.bye_points if bye_points is None else bye_points
            points[one] = points.get(one, 0.0) + worth
    return points


SETTLED_STATUSES = (
    TournamentMatch.Status.DONE,
    TournamentMatch.Status.BYE,
    TournamentMatch.Status.VOID,
    TournamentMatch.Status.MISSED,
)


def standing_list(tournament: Tournament, section: str | None = None) -> QuerySet[Standing]:
    """The stored standings, table by table: the main draw (or groups, then the knock-out)
    before the consolation flight, each table by rank."""
    standings = (
        Standing.objects.filter(tournament=tournament)
        .select_related("entry__player")
        .alias(
            side_flight=Case(
                When(section=brackets.Section.CONSOLATION, then=Value(1)),
                default=Value(0),
                output_field=IntegerField(),
            )
        )
        .order_by("side_flight", "section", F("rank").asc(nulls_last=True), "id")
    )
    return standings.filter(section=section) if section else standings


CSV_FIELDS = ["section", "rank", "player", "player_id", "seed", "played", "match_wins",
              "match_losses", "match_points", "games_won", "points_for", "points_against",
              "point_diff", "buchholz", "median_buchholz", "sonneborn_berger", "head_to_head",
              "byes", "forfeits"]  # fmt: skip


# A text cell that starts with one of these is read as a formula by spreadsheet programs
# (OWASP "CSV injection"); tab and carriage return are on OWASP's list too.
FORMULA_PREFIXES = ("=", "+", "-", "@", "\t", "\r")
# Separators a spreadsheet may split a line on: "," here, but ";" in locales whose decimal mark
# is a comma (Macedonian Excel among them) and tab. A formula character after one of these
# starts a cell there, so it is escaped as at the start of the text.
FORMULA_START = re.compile(r"(^|[,;\t])(?=[" + re.escape("".join(FORMULA_PREFIXES)) + "])")


def spreadsheet_safe(value: Any) -> Any:
    """A text cell that a spreadsheet would run as a formula gets an apostrophe before the
    formula character, so it shows as the text it is: at the start of the text, and after each
    separator some locale splits on (``a;=cmd`` is two cells where Excel splits on ``;``).
    Only text is touched: numbers the code writes itself (a negative point_diff) stay numbers.

    >>> spreadsheet_safe("=1+2"), spreadsheet_safe("a;=cmd|' /C calc'!A0")
    ("'=1+2", "a;'=cmd|' /C calc'!A0")
    """
    if isinstance(value, str):
        return FORMULA_START.sub(r"\1'", value)
    return value


# The header a person reads in a spreadsheet, in the reader's language; ``?header=keys`` gives
# CSV_FIELDS, the API's field names, for scripts.
CSV_HEADINGS = {
    "section": _("Section"),
    "rank": _("Rank"),
    "player": _("Player"),
    "player_id": _("Player id"),
    "seed": _("Seed"),
    "played": _("Played"),
    "match_wins": _("Match wins"),
    "match_losses": _("Match losses"),
    "match_points": _("Match points"),
    "games_won": _("Games won"),
    "points_for": _("Points for"),
    "points_against": _("Points against"),
    "point_diff": _("Point difference"),
    "buchholz": _("Buchholz"),
    "median_buchholz": _("Median Buchholz"),
    "sonneborn_berger": _("Sonneborn-Berger"),
    "head_to_head": _("Head to head"),
    "byes": _("Byes"),
    "forfeits": _("Forfeits"),
}


def standings_csv(tournament: Tournament, *, keys: bool = False) -> str:
    """The stored standings as CSV, text cells made safe for spreadsheets (spreadsheet_safe).

    For people (the default) the header names the columns in words and the text starts with a
    UTF-8 byte order mark, without which Excel reads UTF-8 as its local code page ("KovaÄ");
    with ``keys`` the header is the API's field names and there is no mark, for scripts."""
    out = io.StringIO()
    writer = csv.writer(out)
    if keys:
        writer.writerow(CSV_FIELDS)
    else:
        out.write("\ufeff")
        writer.writerow([str(CSV_HEADINGS[field]) for field in CSV_FIELDS])
    for row in standing_list(tournament):
        values = {
            "player": row.entry.player.display_name,
            "player_id": row.entry.player_id,
            "seed": row.entry.seed,
        }
        writer.writerow(
            [spreadsheet_safe(values.get(f, getattr(row, f, None))) for f in CSV_FIELDS]
        )
    return out.getvalue()


def result_reports(tournament: Tournament, statuses: Iterable[str]) -> QuerySet[ResultReport]:
    """The result reports on the tournament's matches with one of ``statuses``, oldest first,
    each with its match, players, reporter and tournament match (the desk's queue: pending and
    disputed reports)."""
    return (
        ResultReport.objects.filter(
            match__tournament_match__tournament=tournament, status__in=list(statuses)
        )
        .select_related(
            "match__player_one",
            "match__player_two",
            "match__tournament_match",
            "reporter__player",
            "reported_with__player",
            "winner",
        )
        .order_by("created_at", "id")
    )


def audit_log(tournament: Tournament) -> QuerySet[LogEntry]:
    """Every recorded change of the tournament and its entries, rounds and matches."""
    entries: QuerySet[LogEntry] = (  # auditlog ships no types: name what it returns
        LogEntry.objects.filter(additional_data__tournament=tournament.pk)
        .select_related("actor", "content_type")
        .order_by("-timestamp", "-id")
    )
    return entries


def player_ratings(player: Player, *, user: User) -> Player:
    """``player`` with their ratings and the history ``user`` may read: the rows of the
    matches ``user`` may read (games.selectors.match_list: a private match only for its players,
    its organiser and staff), so a private match shows neither its id nor its rating change to
    anyone else (docs/decisions.md D56)."""
    history = RatingHistory.objects.filter(
        games_selectors.match_visible_to(user, "match__")
    ).order_by("variant", "sequence")
    return Player.objects.prefetch_related(
        "variant_ratings", Prefetch("rating_history", queryset=history)
    ).get(pk=player.pk)


def rating_list() -> QuerySet[Player]:
    return Player.objects.filter(rating_games__gt=0).order_by("-rating", "display_name")


def match_event_and_round(match: Match) -> tuple[str, str] | None:
    """The tournament's name and round of a tournament match, for the .mat export
    (games.exports.events; registered in TournamentsConfig.ready); None for any other match."""
    slot = TournamentMatch.objects.select_related("tournament").filter(match=match).first()
    if slot is None:
        return None
    return slot.tournament.name, f"Round {slot.round}"
