"""Reads for the standings part of a tournament page: each table with the columns its format
uses and a legend of their abbreviations, a bracket's shared places ("5–8"), and the podium of
a finished tournament. Built on the stored standings (tournaments.selectors.standing_list)."""

from __future__ import annotations

from dataclasses import dataclass
from itertools import groupby
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tournaments import selectors
from tournaments.draw.brackets import Section
from tournaments.draw.tiebreaks import DEFAULT_ORDER
from tournaments.models import Stage, Standing, Tournament


@dataclass(frozen=True)
class Column:
    """A standings column: the Standing field, its abbreviation (the header), its name (the
    header's title) and what it counts (the legend)."""

    field: str
    abbreviation: Promise | str
    name: Promise
    meaning: Promise


COLUMNS = {
    column.field: column
    for column in [
        Column("played", gettext_lazy("P"), gettext_lazy("played"),
               gettext_lazy("matches played")),
        Column("match_wins", gettext_lazy("W"), gettext_lazy("match wins"),
               gettext_lazy("matches won")),
        Column("match_losses", gettext_lazy("L"), gettext_lazy("match losses"),
               gettext_lazy("matches lost")),
        Column("match_points", gettext_lazy("MP"), gettext_lazy("match points"),
               gettext_lazy("1 for a match won, and what a bye is worth")),
        Column("games_won", gettext_lazy("GW"), gettext_lazy("games won"),
               gettext_lazy("games won in the matches; — when a match was entered as a score "
                            "only")),
        Column("points_for", gettext_lazy("PF"), gettext_lazy("points for"),
               gettext_lazy("match points scored in the games")),
        Column("points_against", gettext_lazy("PA"), gettext_lazy("points against"),
               gettext_lazy("match points the opponents scored")),
        Column("point_diff", "+/−", gettext_lazy("point difference"),
               gettext_lazy("points for minus points against")),
        Column("buchholz", gettext_lazy("Bh"), gettext_lazy("Buchholz"),
               gettext_lazy("the sum of the opponents' match points")),
        Column("median_buchholz", gettext_lazy("mBh"), gettext_lazy("median Buchholz"),
               gettext_lazy("Buchholz without the best and the worst opponent")),
        Column("sonneborn_berger", gettext_lazy("SB"), gettext_lazy("Sonneborn-Berger"),
               gettext_lazy("the sum of the match points of the opponents beaten")),
        Column("head_to_head", gettext_lazy("H2H"), gettext_lazy("head to head"),
               gettext_lazy("matches won against the players tied with them")),
        Column("byes", gettext_lazy("Byes"), gettext_lazy("byes"),
               gettext_lazy("rounds without an opponent")),
        Column("forfeits", gettext_lazy("FF"), gettext_lazy("forfeits"),
               gettext_lazy("matches lost by forfeit (not played)")),
    ]
}  # fmt: skip
# A bracket ranks by the round reached: no match points and no tie-breaks (docs/decisions.md D33).
BRACKET_COLUMNS = ("played", "match_wins", "match_losses", "games_won", "points_for",
                   "points_against", "point_diff", "forfeits")  # fmt: skip
LEAGUE_COLUMNS = ("played", "match_wins", "match_losses", "match_points", "games_won",
                  "points_for", "points_against", "point_diff")  # fmt: skip
# Columns that are only tie-breaks: shown when the tournament's order uses them.
TIEBREAK_COLUMNS = ("buchholz", "median_buchholz", "sonneborn_berger", "head_to_head")


def section_label(tournament: Tournament, section: str) -> str:
    """The heading of a standings table: "Group 2", "Knock-out", "Main draw", "Consolation
    flight"; the only table of a league or Swiss has the heading "Standings" alone."""
    if section.startswith("group-"):
        return _("Group %(number)s") % {"number": section.removeprefix("group-")}
    names: dict[str, str] = {
        Stage.KNOCKOUT: _("Knock-out"),
        Section.CONSOLATION: _("Consolation flight"),
        Section.MAIN: _("Main draw") if tournament.is_elimination else _("Standings"),
    }
    return str(names.get(section, section))


def is_bracket_table(tournament: Tournament, section: str) -> bool:
    """A table ranked by a bracket's places: an elimination's, its consolation flight's and a
    knock-out's after groups."""
    return tournament.is_elimination or section == Stage.KNOCKOUT


def tiebreak_order(tournament: Tournament) -> tuple[str, ...]:
    return tuple(tournament.tiebreak_order or DEFAULT_ORDER)


def table_columns(tournament: Tournament, section: str) -> list[Column]:
    """The columns of a table: a bracket's statistics; a league's, then the tie-breaks its
    order uses, in that order, and the byes of a Swiss."""
    if is_bracket_table(tournament, section):
        return [COLUMNS[field] for field in BRACKET_COLUMNS]
    used = [field for field in tiebreak_order(tournament) if field in TIEBREAK_COLUMNS]
    byes = ["byes"] if tournament.format == Tournament.Format.SWISS else []
    return [COLUMNS[field] for field in [*LEAGUE_COLUMNS, *used, *byes, "forfeits"]]


def place_label(rank: int | None, rank_last: int | None) -> str:
    """ "5–8" for places shared in a bracket, "3" for one place, "–" while undecided."""
    if rank is None:
        return "–"
    if rank_last is not None and rank_last > rank:
        return f"{rank}–{rank_last}"
    return str(rank)


def standing_tables(tournament: Tournament) -> list[dict[str, Any]]:
    """The stored standings, table by table: title, columns, rows (place, player, values), how
    the table is ranked, and ``legend``: whether the legend of the columns follows it (under the
    last of the tables that have the same columns, such as the groups)."""
    tables = []
    rows = selectors.standing_list(tournament)
    for section, members in groupby(rows, key=lambda row: row.section):
        columns = table_columns(tournament, section)
        tables.append(
            {
                "section": section,
                "title": section_label(tournament, section),
                "columns": columns,
                "rows": [_row(row, columns) for row in members],
                "ranked_by": _ranked_by(tournament, section),
            }
        )
    for table, following in zip(tables, [*tables[1:], None], strict=False):
        same_next = following is not None and following["columns"] == table["columns"]
        table["legend"] = not same_next  # once, under the last of the tables alike
    return tables


def _row(row: Standing, columns: list[Column]) -> dict[str, Any]:
    return {
        "rank": row.rank,
        "rank_last": row.rank_last,
        "place": place_label(row.rank, row.rank_last),
        "entry": row.entry_id,
        "player": row.entry.player,
        "values": [getattr(row, column.field) for column in columns],
    }


def _ranked_by(tournament: Tournament, section: str) -> str:
    if is_bracket_table(tournament, section):
        return _("Ranked by the round reached; players out in the same round share its places.")
    order = ", ".join(str(COLUMNS[field].abbreviation) for field in tiebreak_order(tournament))
    return _("Ranked by %(order)s, in this order.") % {"order": order}


ORDINALS = {1: gettext_lazy("Champion"), 2: gettext_lazy("2nd"), 3: gettext_lazy("3rd"),
            4: gettext_lazy("4th")}  # fmt: skip
JOINT = {1: gettext_lazy("Joint champions"), 2: gettext_lazy("joint 2nd"),
         3: gettext_lazy("joint 3rd"), 4: gettext_lazy("joint 4th")}  # fmt: skip


def tournament_podium(tournament: Tournament, tables: list[dict[str, Any]]) -> dict[str, Any]:
    """The podium of a finished tournament (empty before): the places of the table that ranks
    the whole field, 1st to 3rd, and 4th where a bracket gives one (a third-place match, the
    losers' final); a consolation flight's winner; and, for groups with no knock-out, each
    group's winner (docs/decisions.md D33)."""
    if tournament.status != Tournament.Status.FINISHED:
        return {}
    by_section = {table["section"]: table for table in tables}
    deciding = by_section.get(Stage.KNOCKOUT) or by_section.get(Section.MAIN)
    places = []
    if deciding is not None:
        places = _places(deciding, 4 if is_bracket_table(tournament, deciding["section"]) else 3)
    extras = [
        {"label": _("Consolation flight winner"), "player": player}
        for player in _winners(by_section.get(Section.CONSOLATION, {"rows": []}))
    ]
    if deciding is None:  # groups without a knock-out: each group's winner
        extras += [
            {"label": _("Winner of %(group)s") % {"group": table["title"]}, "player": player}
            for table in tables
            if table["section"].startswith("group-")
            for player in _winners(table)
        ]
    if not places and not extras:
        return {}
    champion = places[0] if places and places[0]["rank"] == 1 else None
    return {"champion": champion, "places": places[1:] if champion else places, "extras": extras}


def _winners(table: dict[str, Any]) -> list[Any]:
    return [row["player"] for row in table["rows"] if row["rank"] == 1]


def _places(table: dict[str, Any], deepest: int) -> list[dict[str, Any]]:
    """One step per place down to ``deepest``: its label ("2nd", "joint 3rd") and players."""
    ranked = [row for row in table["rows"] if row["rank"] is not None and row["rank"] <= deepest]
    steps = []
    for rank, rows in groupby(ranked, key=lambda row: row["rank"]):
        players = [row["player"] for row in rows]
        joint = len(players) > 1 or _shared(rank, table)
        labels = JOINT if joint else ORDINALS
        steps.append({"rank": rank, "label": str(labels[rank]), "players": players})
    return steps


def _shared(rank: int, table: dict[str, Any]) -> bool:
    return any(row["rank"] == rank and (row["rank_last"] or rank) > rank for row in table["rows"])
