"""Reads for the web pages: home lists, a match with its games, the live version of a match, a
player's matches and rating history. Built on games.selectors (visibility rules live there)."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import connection
from django.db.models import Exists, OuterRef, Q
from django.http import Http404
from django.shortcuts import get_object_or_404

from games import selectors
from games.engine import next_game
from games.models import Game, Match, RatingHistory, ResultReport, Turn
from games.selectors import User
from players.models import Player

HOME_LIMIT = 20
OVER = (Match.Status.FINISHED, Match.Status.FORFEITED)


def started_playing() -> Q:
    """A match in progress that has started: online (its board is live from the first roll), or
    over the board with a game recorded or a result reported. An over-the-board match a
    tournament has opened but nobody has reported on is not "live" at 0-0."""
    return Q(status=Match.Status.IN_PROGRESS) & (
        Q(mode=Match.Mode.ONLINE)
        | Exists(Game.objects.filter(match=OuterRef("pk")))
        | Exists(ResultReport.objects.filter(match=OuterRef("pk")))
    )


def home_matches(*, user: User) -> dict[str, list[Match]]:
    """Live, upcoming and recently finished matches that ``user`` may see."""
    matches = selectors.match_list(user=user)
    return {
        "live": list(matches.filter(started_playing())[:HOME_LIMIT]),
        "upcoming": list(matches.filter(status=Match.Status.SCHEDULED)[:HOME_LIMIT]),
        "recent": list(matches.filter(status__in=OVER).order_by("-updated_at")[:HOME_LIMIT]),
    }


def match_visible(*, user: User, pk: int) -> Match:
    return get_object_or_404(selectors.match_list(user=user), pk=pk)


def match_games(match: Match) -> list[Game]:
    return list(match.games.select_related("white", "black", "result_winner").order_by("number"))


def match_shown_game(match: Match, games: list[Game], number: int | None) -> Game | None:
    """The game a match page shows: the one asked for, else the one in progress, else the last."""
    if number is not None:
        return next((game for game in games if game.number == number), None)
    shown = [game for game in games if not game.is_over] or games
    return shown[-1] if shown else None


def game_turn_list(game: Game) -> list[Turn]:
    return list(selectors.game_turns(game))


def game_turns_from(game: Game, *, ply: int) -> list[Turn]:
    """The game's turns from ``ply`` on, and its cube actions before it (the cube after any
    turn follows from the cube actions alone: games.replay.cube_steps), in ply order: one
    query whatever the length of the log."""
    return list(game.turns.filter(Q(ply__gte=ply) | Q(kind__in=Turn.CUBE_KINDS)).order_by("ply"))


def match_reports(match: Match) -> list[ResultReport]:
    return list(
        match.reports.select_related("winner", "reporter", "reported_with__player").order_by("-id")
    )


@dataclass(frozen=True)
class LiveVersion:
    """What a spectator's page depends on; its ``etag`` changes whenever any of it does."""

    match: int
    status: str
    score: tuple[int, int]
    game: int | None
    ply: int
    dice: Any
    reports: tuple[tuple[int, str], ...]
    clock_deadline: datetime | None = None  # the running clock's; it moves at each turn

    @property
    def etag(self) -> str:
        digest = hashlib.sha256(repr(self).encode()).hexdigest()[:20]
        return f'"{digest}"'

    def to_json(self) -> dict[str, Any]:
        return {
            "match": self.match,
            "status": self.status,
            "score": list(self.score),
            "game": self.game,
            "ply": self.ply,
            "dice": self.dice,
            "version": self.etag.strip('"'),
        }


def match_live_version(*, user: User, pk: int) -> LiveVersion:
    """A few narrow queries: the match row, its newest game's ply and dice, its reports."""
    row = (
        selectors.match_list(user=user)
        .filter(pk=pk)
        .values("pk", "status", "score_one", "score_two", "clock_deadline")
        .first()
    )
    if row is None:
        raise Http404("no such match")
    game: Mapping[str, Any] = (
        Game.objects.filter(match_id=pk).order_by("-number").values("pk", "ply", "dice").first()
        or {}
    )
    reports = ResultReport.objects.filter(match_id=pk).order_by("id").values_list("id", "status")
    return LiveVersion(
        match=row["pk"],
        status=row["status"],
        score=(row["score_one"], row["score_two"]),
        game=game.get("pk"),
        ply=game.get("ply", 0),
        dice=game.get("dice"),
        reports=tuple(reports),
        clock_deadline=row["clock_deadline"],
    )


def match_version(*, pk: int) -> LiveVersion | None:
    """``match_live_version`` of match ``pk`` whoever may see it (None: no such match), for the
    pushed updates (games/push.py), which reach only the sockets that were let in. It runs after
    every roll and play, so its two statements are written once rather than compiled by the ORM
    each time (that cost 0.8 ms of CPU a play); tests/games/test_sockets.py checks that the
    versions agree."""
    with connection.cursor() as cursor:
        cursor.execute(_VERSION_SQL, [pk])
        row = cursor.fetchone()
        if row is None:
            return None
        cursor.execute(_REPORTS_SQL, [pk])
        reports = tuple((report, status) for report, status in cursor.fetchall())
    match_id, status, score_one, score_two, game, ply, dice = row
    dice_field = Game._meta.get_field("dice")
    return LiveVersion(
        match=match_id,
        status=status,
        score=(score_one, score_two),
        game=game,
        ply=0 if game is None else ply,
        # JSONField.from_db_value reads no expression (django-stubs asks for one)
        dice=None if dice is None else dice_field.from_db_value(dice, None, connection),  # type: ignore[arg-type]
        reports=reports,
    )


_VERSION_SQL = f"""
    SELECT m.id, m.status, m.score_one, m.score_two, g.id, g.ply, g.dice
    FROM {Match._meta.db_table} m LEFT JOIN {Game._meta.db_table} g ON g.id = (
        SELECT newest.id FROM {Game._meta.db_table} newest
        WHERE newest.match_id = m.id ORDER BY newest.number DESC LIMIT 1
    )
    WHERE m.id = %s
"""
_REPORTS_SQL = f"""
    SELECT id, status FROM {ResultReport._meta.db_table} WHERE match_id = %s ORDER BY id
"""


def player_visible(*, pk: int) -> Player:
    return get_object_or_404(Player.objects.select_related("club", "user"), pk=pk)


@dataclass(frozen=True)
class MatchPage:
    """One page of a player's matches, newest first."""

    matches: list[Match]
    number: int
    has_next: bool

    @property
    def has_previous(self) -> bool:
        return self.number > 1


def player_matches_page(*, player: Player, user: User, number: int, size: int) -> MatchPage:
    """Page ``number`` of the player's matches that ``user`` may read, newest first, in three
    index reads whatever the player's history: the newest ``number * size + 1`` keys of the
    matches they play as player one and as player two (each through its (player, -created_at,
    -id) index), merged here, then the page's rows by id. No count: the page knows only whether
    another follows."""
    visible = selectors.match_visible_to(user)
    wanted = number * size + 1
    keys: set[tuple[datetime, int]] = set()
    for side in ("player_one", "player_two"):
        rows = Match.objects.filter(visible, **{side: player}).order_by("-created_at", "-id")
        keys.update(rows.values_list("created_at", "id")[:wanted])
    window = sorted(keys, reverse=True)[(number - 1) * size : number * size + 1]
    ids = [pk for _created, pk in window[:size]]
    found = Match.objects.select_related("player_one", "player_two", "winner").in_bulk(ids)
    return MatchPage([found[pk] for pk in ids], number, len(window) > size)


def player_rated_matches(player: Player) -> int:
    """How many rated matches the player's overall rating counts (its history's rows: one a
    match, read through the (player, variant, sequence) index)."""
    return RatingHistory.objects.filter(player=player, variant="").count()


CHART_RESULTS = 200  # the rating chart shows a player's last 200 rated matches


def player_rating_history(player: Player, *, user: User) -> list[tuple[datetime, float]]:
    """The player's overall rating after each of their last CHART_RESULTS rated matches that
    ``user`` may read (a private match only for its players, its organiser and staff, as
    ``selectors.match_list``), starting from where they stood before the first of them (before
    their first: when the player was created)."""
    newest = (
        RatingHistory.objects.filter(player=player, variant="")
        .filter(selectors.match_visible_to(user, "match__"))
        .order_by("-sequence")
        .values_list("rated_at", "rating", "change")
    )
    rows = list(newest[: CHART_RESULTS + 1])[::-1]
    if not rows:
        return [(player.created_at, float(player.rating))]
    if len(rows) > CHART_RESULTS:
        before_at, before_rating, _change = rows.pop(0)
        start = [(before_at, before_rating)]
    else:
        _first_at, first_rating, first_change = rows[0]
        start = [(player.created_at, first_rating - first_change)]
    return start + [(rated_at, rating) for rated_at, rating, _change in rows]


def match_report_choices(match: Match) -> list[tuple[str, int]]:
    """The (kind, points) results the match's next over-the-board game can have."""
    options = selectors.match_options(match)
    upcoming = next_game(selectors.match_state(match), options)
    choices = [("single", 1), ("mars", 2), ("triple", 3)]
    if upcoming.variant == "tapa":
        choices += [("mother", 2), ("tie", 1 if options.tapa_tie == "one_each" else 0)]
    return choices
