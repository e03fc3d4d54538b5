"""Reads for the desk's Rounds and Results tabs and for a round's printed pairings and result
slips (tournaments/desk.py). Read only: every change goes through the REST API."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.models import RESULT_KINDS, ResultReport
from games.services.results import KIND_FOR_POINTS
from players.models import Player
from players.selectors import User, player_for
from tournaments import selectors
from tournaments.draw import brackets
from tournaments.draw.round_names import RoundName
from tournaments.models import Stage, Tournament, TournamentMatch
from tournaments.web import pages, standings

MatchStatus = TournamentMatch.Status
OPEN_REPORTS = (ResultReport.Status.PENDING, ResultReport.Status.DISPUTED)
NOT_STARTED = (Tournament.Status.DRAFT, Tournament.Status.REGISTRATION)


def round_label(stage: str, number: int, names: Sequence[RoundName] = ()) -> str:
    """ "Round 3", or "Knock-out round 1" for the knock-out after groups. A bracket's round is
    a play level (docs/decisions.md D40): the names of the bracket rounds it holds follow
    ("Round 6 · Grand final", "Round 3 · Winners' final, Losers' round 2")."""
    if stage == Stage.KNOCKOUT:
        label = _("Knock-out round %(number)s") % {"number": number}
    else:
        label = _("Round %(number)s") % {"number": number}
    if not names:
        return label
    return f"{label} · {', '.join(pages.round_label(name) for name in names)}"


def round_sheets(tournament: Tournament) -> list[dict[str, Any]]:
    """Every round of every stage drawn (``selectors.round_sheets``), with its label, whether
    it is a bracket's, and its open matches (both players known, no result yet)."""
    stages = [Stage.MAIN, *([Stage.KNOCKOUT] if Stage.KNOCKOUT in tournament.brackets else [])]
    return [
        {
            **sheet,
            "label": round_label(stage, sheet["number"], sheet["round_names"]),
            "is_bracket": selectors.is_bracket_stage(tournament, stage),
            "tables": [{**t, "awaits": _awaits(t["sources"])} for t in sheet["tables"]],
            "open": [table for table in sheet["tables"] if table["status"] == MatchStatus.READY],
        }
        for stage in stages
        for sheet in selectors.round_sheets(tournament, stage)
    ]


def _awaits(sources: list[str]) -> list[str]:
    """For each side of a match, who will fill it if not known yet (a Swiss or round-robin
    match has no sources: its players are drawn together)."""
    return [*map(_awaited, sources), "…", "…"][:2]


def _awaited(source: str) -> str:
    """Who will fill a side not known yet: "winner of W1-3", "loser of W2-1"."""
    parsed = brackets.parse_source(source)
    if isinstance(parsed, brackets.WinnerOf):
        return _("winner of %(key)s") % {"key": parsed.key}
    if isinstance(parsed, brackets.LoserOf):
        return _("loser of %(key)s") % {"key": parsed.key}
    return "…"


def round_sheet(tournament: Tournament, stage: str, number: int) -> dict[str, Any] | None:
    return next(
        (s for s in round_sheets(tournament) if (s["stage"], s["number"]) == (stage, number)),
        None,
    )


def print_sheet(tournament: Tournament, stage: str, number: int) -> dict[str, Any] | None:
    """A round as its print page shows it (``round_sheet``). Outside a bracket (a Swiss, a
    league, groups) ``points`` is true and each player has the match points they had before
    the round (``selectors.points_before``), which the pairings show in a column of their
    own; in a bracket the players' seeds place them and are shown as such (D122)."""
    sheet = round_sheet(tournament, stage, number)
    if sheet is None or sheet["is_bracket"]:
        return sheet
    before = selectors.points_before(tournament, stage, number)
    for table in [*sheet["tables"], *sheet["byes"]]:
        for player in table["players"]:
            if player:
                player["points"] = before.get(player["entry"], 0.0)
    return {**sheet, "points": True}


# --- the Rounds tab ----------------------------------------------------------------------------


def rounds_desk(
    tournament: Tournament,
    *,
    user: User,
    stage: str | None = None,
    number: int | None = None,
) -> dict[str, Any]:
    """The Rounds tab: the Swiss pairing button (or why not), the rounds to pick from, and the
    rounds shown: the one asked for, else the round being played (in a bracket, every round
    with matches to play). Each table says whether ``user`` plays in it (``own``): they forfeit
    none of those (D39)."""
    sheets = round_sheets(tournament)
    mine = _player_id(user)
    for sheet in sheets:
        for table in sheet["tables"]:
            table["own"] = _plays_at(mine, table)
    return {
        "sheets": sheets,
        "shown": _shown(sheets, stage or Stage.MAIN, number),
        "swiss": swiss_pairing(tournament),
        "not_started": tournament.status in NOT_STARTED,
        "now": timezone.now(),
    }


def _shown(sheets: list[dict[str, Any]], stage: str, number: int | None) -> list[dict[str, Any]]:
    asked = [s for s in sheets if (s["stage"], s["number"]) == (stage, number)]
    if asked:
        return asked
    unfinished = [sheet for sheet in sheets if not sheet["is_finished"]]
    if not unfinished:
        return sheets[-1:]
    first = unfinished[0]
    if not first["is_bracket"]:
        return [first]
    playing = [s for s in unfinished if s["stage"] == first["stage"] and s["open"]]
    return playing or [first]


def swiss_pairing(tournament: Tournament) -> dict[str, Any] | None:
    """Whether the next Swiss round may be paired now, and if not, why (None: not a Swiss)."""
    if tournament.format != Tournament.Format.SWISS:
        return None
    total, paired = tournament.swiss_rounds or 0, tournament.current_round
    state = {"total": total, "paired": paired, "next": paired + 1, "may_pair": False}
    if tournament.status in NOT_STARTED:
        return {**state, "message": _("Round 1 is paired when the tournament starts.")}
    if tournament.status == Tournament.Status.FINISHED:
        return {**state, "message": _("The tournament is finished.")}
    if paired >= total:
        message = ngettext(
            "The %(total)s round is paired.", "All %(total)s rounds are paired.", total
        )
        return {**state, "message": message % {"total": total}}
    unfinished = list(
        tournament.matches.filter(round=paired)
        .exclude(status__in=selectors.SETTLED_STATUSES)
        .order_by("index")
        .values_list("key", flat=True)
    )
    if unfinished:
        message = _(
            "Round %(round)s is not finished: %(keys)s still to play. Pair round %(next)s "
            "once every result is in."
        ) % {
            "round": paired,
            "keys": ", ".join(unfinished),
            "next": paired + 1,
        }
        return {**state, "message": message}
    return {**state, "may_pair": True, "message": ""}


# --- the Results tab ---------------------------------------------------------------------------


def results_desk(tournament: Tournament, *, user: User) -> dict[str, Any]:
    """The Results tab: the reports waiting for an answer, the open matches by round (each with
    whether a report of it waits), and the finished matches by round, latest round first. Each
    says whether ``user`` plays in it (``own``): they decide none of those (D39). Once the
    tournament is finished, its podium, as the public page shows it (D121); ``score_example``
    is a score the one score field takes (D119)."""
    reports = list(selectors.result_reports(tournament, OPEN_REPORTS))
    waiting = {report.match_id for report in reports}
    mine = _player_id(user)
    sheets = round_sheets(tournament)
    open_rounds = [
        {
            "label": sheet["label"],
            "number": sheet["number"],
            "stage": sheet["stage"],
            "matches": [
                {
                    **t,
                    "waiting": t["match_id"] in waiting,
                    "own": _plays_at(mine, t),
                    "note": final_note(tournament, t),
                }
                for t in sheet["open"]
            ],
        }
        for sheet in sheets
        if sheet["open"]
    ]
    finished_rounds = [
        {"label": sheet["label"], "matches": [{**t, "own": _plays_at(mine, t)} for t in done]}
        for sheet in reversed(sheets)
        if (done := [t for t in sheet["tables"] if t["status"] == MatchStatus.DONE])
    ]
    finished = tournament.status == Tournament.Status.FINISHED
    return {
        "podium": (
            standings.tournament_podium(tournament, standings.standing_tables(tournament))
            if finished
            else {}
        ),
        "score_example": f"{tournament.match_length}-0",
        "queue": [{**_queue_item(report), "own": _plays(mine, report.match)} for report in reports],
        "open_rounds": open_rounds,
        "next_step": None if open_rounds else _next_step(tournament),
        "finished_rounds": finished_rounds,
        "online": tournament.match_mode == Tournament.MatchMode.ONLINE,
        "result_kinds": [kind for kind, _label in RESULT_KINDS],
        "not_started": tournament.status in NOT_STARTED,
    }


def final_note(tournament: Tournament, table: dict[str, Any]) -> str:
    """What the grand final of a double elimination with a reset says before it is played: a
    win of the losers' bracket player (the second) is their opponent's first loss, so a reset
    match follows (docs/decisions.md D32). Empty for every other match."""
    if table.get("section") != brackets.Section.GRAND_FINAL or not tournament.grand_final_reset:
        return ""
    return pages.reset_warning(table["players"][1])


def _player_id(user: User) -> int | None:
    you = player_for(user)
    return you.pk if you is not None else None


def _plays(player_id: int | None, match: Any) -> bool:
    """Whether the player ``player_id`` plays in the games ``match``."""
    return player_id is not None and player_id in (match.player_one_id, match.player_two_id)


def _plays_at(player_id: int | None, table: dict[str, Any]) -> bool:
    """Whether the player ``player_id`` is one of the players of a round sheet's ``table``."""
    return player_id is not None and any(p and p["player"] == player_id for p in table["players"])


def _next_step(tournament: Tournament) -> str | None:
    """What the organiser does once no match waits for a result: pair the next Swiss round
    ("pair"), or nothing, the tournament being over ("finished"); None otherwise (in a bracket
    the next matches are drawn as the results come in)."""
    if tournament.status == Tournament.Status.FINISHED:
        return "finished"
    pairing = swiss_pairing(tournament)
    if pairing is not None and pairing["may_pair"]:
        return "pair"
    return None


def _queue_item(report: ResultReport) -> dict[str, Any]:
    match = report.match
    one, two = match.player_one, match.player_two
    return {
        "report": report,
        "key": match.tournament_match.key,
        "one": one,
        "two": two,
        "reporter": _reporter_name(report),
        "summary": report_summary(report),
        # The override form's kind: "" (from the points) when the points give the kind, so
        # changing only the points is enough; else the kind reported (a cube's, a mother).
        "kind": "" if KIND_FOR_POINTS.get(report.points or 0) == report.kind else report.kind,
    }


def _reporter_name(report: ResultReport) -> str:
    if report.reported_with is not None:  # with the player's slip code, no account
        return _("%(name)s (slip code)") % {"name": report.reported_with.player.display_name}
    assert report.reporter is not None  # a report without a code has its reporter
    try:
        return report.reporter.player.display_name
    except Player.DoesNotExist:  # an organiser without a player record
        return report.reporter.get_username()


def report_summary(report: ResultReport) -> str:
    """What was reported, in words: "final score Ana 5–2 Boris" or "game 3: Ana wins, mars
    (2 points)"."""
    if report.scope == ResultReport.Scope.MATCH:
        match = report.match
        return _("final score %(one)s %(score_one)s–%(score_two)s %(two)s") % {
            "one": match.player_one.display_name,
            "score_one": report.score_one,
            "score_two": report.score_two,
            "two": match.player_two.display_name,
        }
    if report.winner is None:
        return _("game %(number)s: a tie") % {"number": report.game_number}
    text = ngettext(
        "game %(number)s: %(winner)s wins, %(kind)s (%(points)s point)",
        "game %(number)s: %(winner)s wins, %(kind)s (%(points)s points)",
        report.points or 0,
    )
    return text % {
        "number": report.game_number,
        "winner": report.winner.display_name,
        "kind": report.kind,
        "points": report.points,
    }
