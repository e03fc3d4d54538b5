"""A match as JSON lines, out and back in: ``match_export`` builds them (it only reads), and
``match_import`` replays every game through the engine, each stored position matching the
replay."""

from __future__ import annotations

import json
from typing import Any

from django.contrib.auth.models import User as AuthUser
from django.db import transaction

from common import jsonlimits
from common.errors import InvalidRequestError, NotAllowedError
from games import selectors
from games.engine import GameResult, Options, next_game, start_position
from games.models import Game, Match
from games.records import record_replay
from games.selectors import User
from games.services._steps import (
    game_finish,
    match_finished_announce,
    match_won_at_length,
    turns_create,
)
from players.models import Player
from players.selectors import account


def match_export(match: Match) -> list[dict[str, Any]]:
    """Every game of ``match`` as JSON-lines records: a match header, then per game a header,
    one line per turn (dice, moves, POSITION after) and an end line."""
    lines: list[dict[str, Any]] = [
        {
            "type": "match",
            "match": match.pk,
            "players": [str(match.player_one), str(match.player_two)],
            "target_score": match.target_score,
            "options": match.options,
            "status": match.status,
            "ended_by": match.ended_by,
            "winner": _export_player_index(match, match.winner_id),
            "score": [match.score_one, match.score_two],
        }
    ]
    games = match.games.exclude(status=Game.Status.IN_PROGRESS).order_by("number")
    for game in games.select_related("white", "black"):
        lines.append(_export_game_header(game))
        for turn in selectors.game_turns(game):
            lines.append(
                {
                    "type": "turn",
                    "game": game.number,
                    "ply": turn.ply,
                    "side": turn.side,
                    "kind": turn.kind,
                    "dice": turn.dice,
                    "moves": turn.moves,
                    "position": turn.position_after,
                }
            )
        lines.append(_export_game_end(game))
    return lines


def _export_player_index(match: Match, player_id: int | None) -> int | None:
    if player_id is None:
        return None
    return 0 if player_id == match.player_one_id else 1


def _export_game_header(game: Game) -> dict[str, Any]:
    return {
        "type": "game",
        "game": game.number,
        "variant": game.variant,
        "white": 0 if game.white_id == game.match.player_one_id else 1,
        "position": start_position(game.variant, "w").to_json(),
    }


def _export_game_end(game: Game) -> dict[str, Any]:
    resigned = game.colour_of(game.resigned_by) if game.resigned_by else None
    return {
        "type": "end",
        "game": game.number,
        "status": game.status,
        "ended_by": game.ended_by,
        "resigned": resigned,
        "result": selectors.game_result(game, cube=False).to_json() if game.is_finished else None,
        "cube": game.cube_value,
    }


def match_import_by(*, user: User, text: str, player_one: Player, player_two: Player) -> Match:
    """A user of the API imports a match (README, "Trust"): staff import rated matches between
    any players; a player may import their own old matches, which stay unrated (nothing shows
    that the opponent agreed to them); nobody else may import."""
    if getattr(user, "is_staff", False):
        return match_import(
            text=text, creator=user, player_one=player_one, player_two=player_two, rated=True
        )
    player = selectors.player_for(user)
    if player is None or player.pk not in (player_one.pk, player_two.pk):
        raise NotAllowedError("you may import only your own matches (staff may import any)")
    return match_import(text=text, creator=user, player_one=player_one, player_two=player_two)


def match_import(
    *,
    text: str,
    creator: User | None,
    player_one: Player,
    player_two: Player,
    rated: bool = False,
) -> Match:
    """Create a finished (imported) match from an export; raise InvalidRequestError naming the
    first line that is malformed or does not replay. The caller has decided that ``creator``
    (None: the server's operator) may, and whether the match is ``rated``."""
    if player_one.pk == player_two.pk:
        raise InvalidRequestError("a match needs two different players")
    lines = _parse(text)
    header = lines[0][1]
    if header.get("type") != "match":
        raise InvalidRequestError('line 1: expected the {"type": "match", ...} header')
    options = Options.from_json(header.get("options") or {})
    with transaction.atomic():
        match = Match.objects.create(
            player_one=player_one,
            player_two=player_two,
            organiser=_organiser(creator, player_one, player_two),
            created_by=None if creator is None else account(creator),
            rated=rated,
            mode=Match.Mode.IMPORTED,
            target_score=options.match_length,
            options=options.to_json(),
            status=Match.Status.IN_PROGRESS,
        )
        for game_lines in _games(lines[1:]):
            _game_import(match, options, game_lines)
        match.refresh_from_db()
        winner = header.get("winner")
        if header.get("status") == Match.Status.FORFEITED and winner in (0, 1):
            match.status, match.winner = Match.Status.FORFEITED, match.players[winner]
            match.ended_by = _ended_by(header, Match.EndedBy.FORFEIT)
            match.save()
        elif header.get("ended_by") == Match.EndedBy.TIME and winner in (0, 1):
            # lost on time: over before the target score, the games as they were played
            match.status, match.winner = Match.Status.FINISHED, match.players[winner]
            match.ended_by = Match.EndedBy.TIME
            match.save()
            match_finished_announce(match)
        elif header.get("ended_by") == Match.EndedBy.RESIGNATION and winner in (0, 1):
            _resigned(match, winner)
    return match


def _resigned(match: Match, winner: int) -> None:
    """The match was resigned (docs/decisions.md D166): its last game, the resigned single, may
    have ended it already; otherwise the winner's score becomes the match length."""
    if match.status != Match.Status.FINISHED:
        match_won_at_length(match, winner=match.players[winner])
        match.status, match.winner = Match.Status.FINISHED, match.players[winner]
        match.ended_by = Match.EndedBy.RESIGNATION
        match.save()
        match_finished_announce(match)
    elif match.winner_id == match.players[winner].pk:
        match.ended_by = Match.EndedBy.RESIGNATION
        match.save(update_fields=["ended_by", "updated_at"])


def _ended_by(header: dict[str, Any], default: str) -> str:
    ended_by = header.get("ended_by")
    return ended_by if ended_by in Match.EndedBy.values else default


def _organiser(creator: User | None, player_one: Player, player_two: Player) -> AuthUser | None:
    """The importer organises the match unless they play in it."""
    if creator is None or creator.pk in (player_one.user_id, player_two.user_id):
        return None
    return account(creator)


def _parse(text: str) -> list[tuple[int, dict[str, Any]]]:
    lines = []
    for number, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip():
            continue
        try:
            data = jsonlimits.loads(raw)
        except json.JSONDecodeError as error:
            raise InvalidRequestError(f"line {number}: not JSON ({error.msg})") from None
        except ValueError as error:  # nested too deeply, or an integer of too many digits
            raise InvalidRequestError(f"line {number}: not JSON ({error})") from None
        if not isinstance(data, dict):
            raise InvalidRequestError(f"line {number}: expected a JSON object")
        lines.append((number, data))
    if not lines:
        raise InvalidRequestError("the file is empty")
    return lines


def _games(lines: list[tuple[int, dict[str, Any]]]) -> list[list[tuple[int, dict[str, Any]]]]:
    games: list[list[tuple[int, dict[str, Any]]]] = []
    for number, data in lines:
        kind = data.get("type")
        if kind == "game":
            games.append([(number, data)])
        elif kind in ("turn", "end") and games:
            games[-1].append((number, data))
        else:
            raise InvalidRequestError(f"line {number}: unexpected line type {kind!r}")
    return games


def _game_import(match: Match, options: Options, lines: list[tuple[int, dict[str, Any]]]) -> None:
    number, header = lines[0]
    upcoming = next_game(selectors.match_state(match), options)
    if header.get("variant") != upcoming.variant:
        raise InvalidRequestError(
            f"line {number}: game is {header.get('variant')!r}, the cycle says {upcoming.variant}"
        )
    if header.get("white") not in (0, 1):
        raise InvalidRequestError(f"line {number}: white must be 0 or 1 (the player index)")
    turns = [(n, d) for n, d in lines[1:] if d.get("type") == "turn"]
    ends = [(n, d) for n, d in lines[1:] if d.get("type") == "end"]
    if len(ends) != 1:
        raise InvalidRequestError(f"line {number}: a game needs exactly one end line")
    record = [d for _n, d in turns]
    replay = record_replay(upcoming.variant, options, record, crawford=upcoming.crawford)
    for (line, data), replayed in zip(turns, replay.turns, strict=True):
        if data.get("position") != replayed.position_after.to_json():
            raise InvalidRequestError(f"line {line}: position differs from the engine's replay")
    white = match.players[header["white"]]
    game = Game.objects.create(
        match=match,
        number=header.get("game") or match.games.count() + 1,
        variant=upcoming.variant,
        white=white,
        black=match.player_two if white.pk == match.player_one_id else match.player_one,
        position=replay.position.to_json(),
        ply=len(replay.turns) + 1,
        cube_value=replay.cube_value,
        cube_owner=replay.cube_owner,
        crawford=upcoming.crawford,
    )
    turns_create(game, replay)
    _game_end(game, ends[0], replay.result)


def _game_end(game: Game, end: tuple[int, dict[str, Any]], replayed: GameResult | None) -> None:
    line, data = end
    if data.get("status") == Game.Status.ABANDONED:
        game.status = Game.Status.ABANDONED
        game.save()
        return
    try:
        result = GameResult.from_json(data.get("result"))
    except ValueError as error:
        raise InvalidRequestError(f"line {line}: {error}") from None
    ended_by = data.get("ended_by") or Game.EndedBy.IMPORT
    if ended_by not in Game.EndedBy.values:
        raise InvalidRequestError(f"line {line}: unknown ended_by {ended_by!r}")
    if replayed is not None and replayed != result:
        raise InvalidRequestError(f"line {line}: the result differs from the engine's replay")
    if data.get("cube", 1) != game.cube_value:
        raise InvalidRequestError(
            f"line {line}: cube {data.get('cube', 1)!r} differs from the replay's {game.cube_value}"
        )
    if replayed is None and ended_by == Game.EndedBy.PLAY:
        raise InvalidRequestError(f"line {line}: the moves do not finish the game")
    resigned = data.get("resigned")
    if ended_by == Game.EndedBy.RESIGNATION and resigned in ("w", "b"):
        game.resigned_by = game.player_of(resigned)
    game_finish(game=game, result=result, ended_by=ended_by, start_next=False)
