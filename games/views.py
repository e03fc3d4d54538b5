"""Web pages: a match (board, cube, log, replay, live updates, play), a player.
Server-rendered; the browser plays through the REST API (session auth + CSRF), the views only
read, except that a match whose clock has run out is ended before it is shown (as the API's
reads do, through the deadline task's service: games/services/clock.py, match_time_out;
docs/decisions.md D64). The home page, which lists tournaments too, is
tournaments.views.home."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext as _
from django.views.decorators.http import condition, require_safe

from common.durations import until_words
from common.numbers import ascii_int
from games import chances, clock, places, practice, selectors, web_selectors
from games.board_svg import board_cube, board_frame, board_geometry, board_pieces
from games.charts import line_chart
from games.engine import (
    Cube,
    Outcome,
    StepGraph,
    find_variant,
    opponent,
    pip_counts,
    resignation_result,
    start_position,
)
from games.engine.cube import points_scored
from games.models import Game, Match, ResultReport, Turn
from games.replay import cube_steps
from games.routing import match_socket_path
from games.rules_pages import game_rules_url
from games.selectors import User
from games.services import clock as clock_services
from games.services.play import RESIGNATION_KINDS
from players.models import Player


@require_safe
def match_detail(request: HttpRequest, pk: int) -> HttpResponse:
    context = match_context(request, pk)
    context["etag"] = _live_etag(request, pk)
    context["socket_url"] = match_socket_path(pk)
    # The chance bar, for those who may see the chances of a match with an evaluator for its
    # variants (games/chances.py): static/js/chances.js fetches them after every update.
    offered = chances.offered(request.user, context["match"], list(context["games"]))
    context["chances_url"] = reverse("games:match-chances", kwargs={"pk": pk}) if offered else None
    context["chances_max_points"] = settings.CHANCES_MAX_POINTS  # the graph keeps the newest
    context["hint_url"] = _hint_url(request, context["match"])
    return render(request, "games/match.html", context)


def _hint_url(request: HttpRequest, match: Match) -> str | None:
    """The hint button's API, for the human of a practice match in progress (D131)."""
    player = selectors.player_for(request.user)
    if (
        player is None
        or match.status != Match.Status.IN_PROGRESS
        or not practice.is_practice(match)
    ):
        return None
    if player.pk not in (match.player_one_id, match.player_two_id):
        return None
    return reverse("games:match-hint", kwargs={"pk": match.pk})


REPLAY_HELD_HEADER = "X-Replay-Held"  # the turns a page holds (match_live)


@require_safe
def match_live(request: HttpRequest, pk: int) -> HttpResponse:
    """The live part of the match page as an HTML fragment, fetched when the state changes. Its
    ETag is the version it shows (the state endpoint's, read before the fragment is drawn, so
    never newer than it): the page holds it and asks for nothing more until the version moves
    on (static/js/match.js; docs/decisions.md D157).

    The ``X-Replay-Held`` header: the ``replay_key`` of the page's client data, naming the game
    and the turns whose replay frames and log rows the page holds; when it still names the
    shown game's turns, the fragment carries only the frames and rows after them, which the
    page appends (its ``replay_from`` says from which frame), so an update costs the same at
    any ply (docs/decisions.md D160). Without it, or with any other value, the whole fragment.
    A header and not a query, so the fragment's address stays the page's."""
    version = web_selectors.match_live_version(user=request.user, pk=pk).etag
    held = request.headers.get(REPLAY_HELD_HEADER, "")
    response = render(request, "games/_match_live.html", match_context(request, pk, held=held))
    response["ETag"] = version
    response["Cache-Control"] = "no-cache"
    patch_vary_headers(response, [REPLAY_HELD_HEADER])
    return response


def _live_version(request: HttpRequest, pk: int) -> web_selectors.LiveVersion:
    """The match's live version, after ending the match if its clock has run out (the page's
    read at 0:00, or its poll, is what notices a time-out on a page left open, also under
    ``make run``, which has no beat: docs/decisions.md D64, D95). The time-out is the deadline
    task's own service."""
    version = web_selectors.match_live_version(user=request.user, pk=pk)
    deadline = version.clock_deadline
    if deadline is not None and clock.now() >= deadline:
        clock_services.match_time_out(match=pk)
        version = web_selectors.match_live_version(user=request.user, pk=pk)
    return version


def _live_etag(request: HttpRequest, pk: int) -> str:
    return _live_version(request, pk).etag


@require_safe
@condition(etag_func=_live_etag)
def match_state(request: HttpRequest, pk: int) -> JsonResponse:
    """A cheap JSON summary to poll with If-None-Match: 304 while nothing has changed."""
    version = _live_version(request, pk)
    response = JsonResponse(version.to_json())
    response["Cache-Control"] = "no-cache"
    return response


# Reports that wait for a confirmation or the organiser's decision (games.services.results).
OPEN_REPORTS = (ResultReport.Status.PENDING, ResultReport.Status.DISPUTED)
PLAYER_MATCHES_PAGE = 50  # a player's page lists their matches newest first, 50 a page
PLAYER_PAGES = 1000  # ?page= beyond this is the last one read


@require_safe
def player_detail(request: HttpRequest, pk: int) -> HttpResponse:
    player = web_selectors.player_visible(pk=pk)
    history = web_selectors.player_rating_history(player, user=request.user)
    chart = line_chart([r for _d, r in history], [d.strftime("%Y-%m-%d") for d, _r in history])
    number = min(ascii_int(request.GET.get("page", "")) or 1, PLAYER_PAGES)
    page = web_selectors.player_matches_page(
        player=player, user=request.user, number=number, size=PLAYER_MATCHES_PAGE
    )
    rows = [_match_row(match, player) for match in page.matches]
    rated = web_selectors.player_rated_matches(player)
    context = {"player": player, "chart": chart, "matches": rows, "page": page, "rated": rated}
    return render(request, "games/player.html", context)


# --- context builders: ready-made data for the templates --------------------------------------


def match_context(request: HttpRequest, pk: int, *, held: str = "") -> dict[str, Any]:
    match = web_selectors.match_visible(user=request.user, pk=pk)
    if clock_services.match_time_out(match=match) is not None:
        match = web_selectors.match_visible(user=request.user, pk=pk)
    games = web_selectors.match_games(match)
    number = request.GET.get("game", "")
    shown = ascii_int(number)
    game = web_selectors.match_shown_game(match, games, shown)
    you = selectors.player_for(request.user)
    context: dict[str, Any] = {
        "match": match,
        "games": games,
        "game": game,
        "followed": shown is None,
        "you": you,
        "challenge": _challenge(match, you),
        "place": places.place_of(match),
        "start_url": (
            reverse("games:match-start", kwargs={"pk": match.pk})
            if selectors.matches_startable(request.user, [match])
            else None
        ),
        "clock": _clock(match),
        "claim": _claim(match, you),
        "reports": _reports(match, request.user, you),
    }
    # A result waiting for its confirmation (or the organiser's decision) closes the forms: the
    # service refuses another report until it is settled, so the page says what happens next.
    reports = context["reports"]
    waiting = next((row for row in reports if row["report"].status in OPEN_REPORTS), None)
    context |= {
        "report_waiting": _report_waiting(waiting, match, you) if waiting else None,
        "can_report": waiting is None and _can_report(match, request.user, you),
        "report_choices": [
            {"value": f"{kind}:{points}", "kind": kind, "points": points}
            for kind, points in web_selectors.match_report_choices(match)
        ]
        if match.mode == Match.Mode.OVER_THE_BOARD and match.status == Match.Status.IN_PROGRESS
        else [],
    }
    if game is not None:
        context.update(_game_context(game, you, held))
    return context


def _clock(match: Match) -> dict[str, Any] | None:
    """The match clock for the page: both players' time now, for the template and for
    static/js/clock.js (which counts the running side down: the delay, then the bank)."""
    if not match.has_clock:
        return None
    state = selectors.match_clock(match, clock.now())
    sides = []
    for side, player in (("player_one", match.player_one), ("player_two", match.player_two)):
        left = state["remaining"][side]
        delay = state["delay_left"] if state["running"] == side else 0
        sides.append(
            {
                "side": side,
                "player": player,
                "running": state["running"] == side,
                "flagged": state["flagged"] == side,
                "text": _clock_text(left),
                "delay": f"+{math.ceil(delay)}" if delay else "",
            }
        )
    data = {key: state[key] for key in ("remaining", "running", "delay_left", "flagged")}
    return {
        "sides": sides,
        "data": data,
        "bank": _clock_text(match.clock_bank_seconds),
        "delay_seconds": match.clock_delay_seconds,
    }


def _claim(match: Match, you: Player | None) -> dict[str, Any] | None:
    """The claim after inactivity, for ``you`` if you wait for your opponent in an online match
    without a clock (games/services/clock.py, match_claim; docs/decisions.md D44): when it
    opens, and whether it is open now (the page's button posts to the API's claim)."""
    if (
        you is None
        or you.pk not in (match.player_one_id, match.player_two_id)
        or match.mode != Match.Mode.ONLINE
        or match.status != Match.Status.IN_PROGRESS
        or match.has_clock
    ):
        return None
    game = selectors.current_game(match)
    to_move = selectors.player_to_move(game) if game is not None else None
    if game is None or to_move is None or to_move.pk == you.pk:
        return None
    opens_at, now = selectors.claim_opens_at(match, game), clock.now()
    return {
        "opponent": to_move,
        "opens_at": opens_at,
        "left": until_words(opens_at, now),  # by the server's clock, as the claim counts
        "open": now >= opens_at,
        "hours": match.claim_after_hours,
        "url": reverse("games:match-claim", kwargs={"pk": match.pk}),
    }


def _clock_text(seconds: float) -> str:
    """A bank as the clock shows it: 12:05, or 1:02:05 from an hour up (whole seconds)."""
    whole = math.ceil(seconds)  # a clock shows 0:00 only once the time is up
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def _challenge(match: Match, you: Player | None) -> dict[str, Any] | None:
    """A challenge waiting for an answer: who sent it to whom, and what ``you`` may do."""
    if match.status != Match.Status.INVITED:
        return None
    challenged = selectors.challenged_player(match)
    if challenged is None:
        return None
    challenger = match.player_two if challenged.pk == match.player_one_id else match.player_one
    return {
        "challenger": challenger,
        "challenged": challenged,
        "can_accept": you is not None and you.pk == challenged.pk,
        "can_withdraw": you is not None and you.pk == challenger.pk,
    }


def _game_context(game: Game, you: Player | None, held: str = "") -> dict[str, Any]:
    shown = _shown_turns(game, held)
    to_move = selectors.player_to_move(game)
    can_play = (
        you is not None
        and to_move is not None
        and to_move.pk == you.pk
        and game.match.mode == Match.Mode.ONLINE
    )
    roll_due = selectors.is_roll_due(game)
    plays = selectors.game_legal_plays(game) if can_play and not roll_due else []
    graph = selectors.game_step_graph(game) if plays else None
    cube_on = selectors.match_options(game.match).cube_applies_to(game.variant)
    turns, cubes = shown.turns, shown.cubes
    log = [_log_row(game, turn, cube) for turn, cube in zip(turns, cubes, strict=True)]
    return {
        # A result reported over the board without its moves: there is no position to draw.
        "unrecorded": game.ended_by == Game.EndedBy.REPORT and not turns and not shown.held,
        "frame": board_frame(game.variant),
        "pieces": board_pieces(game.position, game.dice),
        "pips": _pips(game.variant, game.position),
        "board_play": _board_play(game, graph, plays) if graph is not None else None,
        "to_move": to_move,
        "turn_colour": (
            opponent(game.cube_offered_by) if game.cube_offered_by else game.position.get("turn")
        ),
        "can_play": can_play,
        "roll_due": roll_due,
        "cube": _cube(game) if cube_on else None,
        "can_double": can_play and cube_on and selectors.may_double(game),
        "can_answer": can_play and bool(game.cube_offered_by),
        "resign": _resign(game, you),
        "legal_plays": [
            {
                "value": str(o.play),
                "label": str(o.play) or _("pass"),
                "ends_game": o.ends_game,
            }
            for o in plays
        ],
        "log": log,
        "log_from": shown.held,  # the rows before these are the page's own (D160)
        "rules_url": game_rules_url(game.variant),
        "replay": _replay(game, turns, cubes, log, cube_on, start=not shown.held),
        "replay_length": shown.held + len(turns) + 1,  # the frames, the start's included
        "proof": _proof(game) if game.seed_commitment else None,
        "client": {
            "game": game.pk,
            "ply": game.ply,
            # The frames held, for the next fragment's X-Replay-Held (match.js): replay-data holds
            # the frames from replay_from on, the page's own before it.
            "replay_key": shown.key,
            "replay_from": shown.held + 1 if shown.held else 0,
            "roll_url": reverse("games:dice-roll", kwargs={"pk": game.pk}),
            "plays_url": reverse("games:play-submit", kwargs={"pk": game.pk}),
            "double_url": reverse("games:cube-double", kwargs={"pk": game.pk}),
            "take_url": reverse("games:cube-take", kwargs={"pk": game.pk}),
            "drop_url": reverse("games:cube-drop", kwargs={"pk": game.pk}),
        },
    }


def _resign(game: Game, you: Player | None) -> dict[str, Any] | None:
    """The Resign control, for ``you`` if you play this online game in progress: at any moment
    of it, your turn or not (games/services/play.py game_resign; docs/decisions.md D16), with
    each kind the service takes and the points it gives the opponent, the cube counted (during
    a double's offer, the stake before it). The page posts to the API's resign; in a match
    longer than one game it may post to the match's resign instead."""
    match = game.match
    if (
        you is None
        or game.is_over
        or match.mode != Match.Mode.ONLINE
        or match.status != Match.Status.IN_PROGRESS
    ):
        return None
    colour = game.colour_of(you)
    if colour is None:
        return None
    kinds = [
        {
            "kind": kind,
            "points": points_scored(resignation_result(colour, kind), game.cube_value),
        }
        for kind in RESIGNATION_KINDS
    ]
    return {
        "url": reverse("games:game-resign", kwargs={"pk": game.pk}),
        "kinds": kinds,
        "opponent": game.black if colour == "w" else game.white,
        # A match longer than one game may be resigned whole (play.py match_resign, D166).
        "match_url": (
            reverse("games:match-resign", kwargs={"pk": match.pk})
            if match.target_score > 1
            else None
        ),
    }


@dataclass(frozen=True, slots=True)
class _ShownTurns:
    """The turns a fragment shows in its log and replay, with the cube after each: the whole
    log, or (``held`` > 0) only the turns after the ``held`` ones the page already has."""

    turns: list[Turn]
    cubes: list[Cube]
    held: int
    key: str | None  # names the game's turns up to its last, for the page's X-Replay-Held


def _replay_key(game: Game, count: int, last: Turn | None) -> str | None:
    """The game, how many turns, and the last of them (its id and the microsecond it was made:
    a database made again hands out the same ids, not the same times)."""
    if last is None:
        return None
    return f"{game.pk}.{count}.{last.pk}.{_micros(last)}"


def _micros(turn: Turn) -> int:
    return int(turn.created_at.timestamp() * 1_000_000)


def _held_key(held: str) -> tuple[int, int, int, int] | None:
    """A ``_replay_key`` read back: game, count, turn, microsecond; None for anything else."""
    numbers = [ascii_int(part) for part in held.split(".")] if held else []
    if len(numbers) != 4:
        return None
    game, count, turn, micros = numbers
    if game is None or count is None or turn is None or micros is None:
        return None
    return game, count, turn, micros


def _shown_turns(game: Game, held: str) -> _ShownTurns:
    """The turns after those ``held`` names (a ``_replay_key`` of this game whose turn is still
    its ``count``-th, at ply ``count``), read with the cube actions before them (the cube after
    each turn follows from those alone) in one query; else the whole log. However many turns
    the page holds, an update reads and draws only what is new."""
    key = _held_key(held)
    if key is not None and key[0] == game.pk and key[1] > 0:
        _game, count, turn_pk, micros = key
        rows = web_selectors.game_turns_from(game, ply=count)
        tail = [turn for turn in rows if turn.ply >= count]
        if tail and tail[0].ply == count and tail[0].pk == turn_pk and _micros(tail[0]) == micros:
            cubes = cube_steps(rows, crawford=game.crawford)[len(rows) - len(tail) :]
            total = count + len(tail) - 1
            return _ShownTurns(tail[1:], cubes[1:], count, _replay_key(game, total, tail[-1]))
    turns = web_selectors.game_turn_list(game)
    cubes = cube_steps(turns, crawford=game.crawford)  # one walk of the log, for both views
    return _ShownTurns(turns, cubes, 0, _replay_key(game, len(turns), turns[-1] if turns else None))


def _proof(game: Game) -> dict[str, Any]:
    """The dice proof the page shows: before the seed is revealed only its commitment, with no
    read of the turns (a live update of a game in progress draws it each time)."""
    if game.seed_revealed:
        return selectors.game_dice_proof(game)
    return {"commitment": game.seed_commitment, "revealed": False, "seed": None}


def _pips(variant: str, position: dict[str, Any]) -> dict[str, int]:
    bar = position.get("bar", {})
    white, black = pip_counts(
        find_variant(variant), position["points"], (bar.get("w", 0), bar.get("b", 0))
    )
    return {"w": white, "b": black}


def _board_play(game: Game, graph: StepGraph, plays: list[Outcome]) -> dict[str, Any]:
    """What static/js/board_play.js needs to let the player to move play on the board: the
    engine's step graph (every legal step from every state on the way to a legal play), the
    layout numbers of board_svg, and the words it shows (docs/decisions.md D45-D47)."""
    return {
        "key": f"{game.pk}:{game.ply}",
        "graph": graph.to_json(),
        "ends_game": [outcome.ends_game for outcome in plays],  # by the graph's play numbers
        "geometry": board_geometry(),
        "labels": {
            "pick": _("Click or tap a checker that may move."),
            "drop": _("Now click or tap where it goes (the lit points), or another checker."),
            "stuck": _("That checker cannot move now. Click or tap one that may."),
            "opponent": _(
                "That is your opponent's checker. Click or tap one of yours that may move."
            ),
            "empty": _("You have no checker there. Click or tap one of yours that may move."),
            "closed": _(
                "That checker cannot go there with these dice: the lit points show where it may."
            ),
            "complete": _("Your play: %(moves)s. Submit it, or undo."),
            "ends": _("This play ends the game."),
            "completed": _(
                "Only one way on was left, and it is on the board. Your play: %(moves)s. "
                "Submit it, or undo."
            ),
            "forced": _("Your only legal play, %(moves)s, was played for you."),
            "checker": _("Checker on your %(point)s-point: pick it up"),
            "bar_checker": _("Checker on the bar: pick it up"),
            "picked": _("Checker on your %(point)s-point, picked up: put it back"),
            "destination": _("Move it to your %(point)s-point"),
            "bear_off": _("Bear it off"),
            "off": _("off"),
            "pass": _("no move"),
        },
    }


def _cube(game: Game) -> dict[str, Any]:
    """The doubling cube of a game whose match plays it: value, owner, a pending double."""
    offered_by = game.cube_offered_by
    return {
        "value": game.cube_value,
        "face": board_cube(game.cube_value)["face"],
        "owner": game.player_of(game.cube_owner) if game.cube_owner else None,
        "owner_colour": game.cube_owner,
        "doubler": game.player_of(offered_by) if offered_by else None,
        "taker": game.player_of(opponent(offered_by)) if offered_by else None,
        "offered_value": selectors.game_cube(game).offered_value,
        "crawford": game.crawford,
        "dropped": game.ended_by == Game.EndedBy.DROP,
        "piece": board_cube(game.cube_value, game.cube_owner, offered=bool(offered_by)),
    }


def _side_name(game: Game, side: str) -> str:
    return f"{_('White') if side == 'w' else _('Black')} ({game.player_of(side).display_name})"


def _log_row(game: Game, turn: Turn, cube: Cube) -> dict[str, Any]:
    """A row of the move log; ``cube``: the cube after the turn."""
    is_cube = turn.kind in Turn.CUBE_KINDS
    moves = _cube_action(turn.kind, cube) if is_cube else " ".join(turn.moves) or _("pass")
    return {
        "ply": turn.ply,
        "side": turn.side,
        "player": game.player_of(turn.side).display_name,
        "dice": "-".join(str(d) for d in turn.dice),
        "pending": turn.kind == Turn.Kind.PENDING,
        "cube": str(turn.kind) if is_cube else "",
        "moves": moves,
        # One item per move, so the log wraps between moves and never inside one.
        "move_list": [] if is_cube else list(turn.moves) or [_("pass")],
    }


def _cube_action(kind: str, cube: Cube) -> str:
    """A cube action for the log; ``cube``: the cube after it (a double's value is offered)."""
    if kind == Turn.Kind.DOUBLE:
        return _("doubles to %(value)s") % {"value": cube.offered_value}
    return _("takes") if kind == Turn.Kind.TAKE else _("drops")


def _cube_caption(kind: str, side: str, cube: Cube) -> str:
    if kind == Turn.Kind.DOUBLE:
        return _("%(side)s doubles to %(value)s") % {"side": side, "value": cube.offered_value}
    if kind == Turn.Kind.TAKE:
        return _("%(side)s takes: the cube is at %(value)s") % {"side": side, "value": cube.value}
    return _("%(side)s drops the double: the game is over") % {"side": side}


def _replay(
    game: Game,
    turns: list[Turn],
    cubes: list[Cube],
    log: list[dict[str, Any]],
    cube_on: bool,
    *,
    start: bool = True,
) -> list[dict[str, Any]]:
    """One frame per position: the start (unless not ``start``: the page has it), then the
    position after each turn. A cube action leaves the position as it was; its frame shows the
    cube as it then stood. ``cubes``: the cube after each turn; ``log``: the turns' log rows."""
    cube = board_cube(1) if cube_on else None
    frames = []
    if start:
        first = start_position(game.variant, "w").to_json()
        frames.append(
            {
                "ply": 0,
                "pieces": board_pieces(first),
                "cube": cube,
                "caption": _("Start of the game"),
                "pips": _pips(game.variant, first),
            }
        )
    for turn, after, row in zip(turns, cubes, log, strict=True):
        side = _side_name(game, turn.side)
        if row["cube"]:
            caption = _cube_caption(turn.kind, side, after)
        else:
            caption = _("%(side)s rolled %(dice)s: %(moves)s") % {
                "side": side,
                "dice": row["dice"],
                "moves": row["moves"],
            }
        pieces = board_pieces(turn.position_after, turn.dice)
        if cube_on:
            cube = board_cube(after.value, after.owner, offered=bool(after.offered_by))
        frames.append(
            {
                "ply": turn.ply,
                "pieces": pieces,
                "cube": cube,
                "caption": caption,
                "pips": _pips(game.variant, turn.position_after),
            }
        )
    return frames


def _reports(match: Match, user: User, you: Player | None) -> list[dict[str, Any]]:
    rows = []
    for report in web_selectors.match_reports(match):
        can_answer = (
            report.status == ResultReport.Status.PENDING
            and you is not None
            and you.pk in (match.player_one_id, match.player_two_id)
            and you.user_id != report.reporter_id
            and (report.reported_with is None or report.reported_with.player_id != you.pk)
        )
        rows.append({"report": report, "can_answer": can_answer})
    return rows


def _report_waiting(row: dict[str, Any], match: Match, you: Player | None) -> dict[str, Any]:
    """The open report and what happens next, as ``you`` see it: "answer" (yours to confirm
    or dispute), "reported" (yours, waiting for the opponent or the organiser), "disputed"
    (the organiser decides) or "pending" (waiting for the players: an organiser's view)."""
    report: ResultReport = row["report"]
    players = (match.player_one, match.player_two)
    party = you is not None and you.pk in (match.player_one_id, match.player_two_id)
    opponent = None
    if party and you is not None:
        opponent = players[1] if you.pk == match.player_one_id else players[0]
    if report.status == ResultReport.Status.DISPUTED:
        state = "disputed"
    elif row["can_answer"]:
        state = "answer"
    elif party:
        state = "reported"
    else:
        state = "pending"
    return {"report": report, "state": state, "opponent": opponent}


def _can_report(match: Match, user: User, you: Player | None) -> bool:
    if match.mode != Match.Mode.OVER_THE_BOARD or match.status != Match.Status.IN_PROGRESS:
        return False
    is_player = you is not None and you.pk in (match.player_one_id, match.player_two_id)
    return is_player or selectors.is_organiser(user, match)


def _match_row(match: Match, player: Player) -> dict[str, Any]:
    is_one = match.player_one_id == player.pk
    opponent = match.player_two if is_one else match.player_one
    own, other = (
        (match.score_one, match.score_two) if is_one else (match.score_two, match.score_one)
    )
    outcome = ""
    if match.winner_id is not None:
        outcome = "won" if match.winner_id == player.pk else "lost"
    return {"match": match, "opponent": opponent, "score": f"{own}-{other}", "outcome": outcome}
