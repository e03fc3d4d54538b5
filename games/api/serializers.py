"""Shapes of the games API: strict inputs (unknown fields are errors) and read-only outputs."""

from __future__ import annotations

import zoneinfo
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from django.conf import settings
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from common.api.serializers import JSONObjectField, StrictSerializer, list_data
from games import clock, selectors
from games.engine import Outcome
from games.engine.encode import outcomes_json
from games.engine.options import MAX_MATCH_LENGTH
from games.models import Game, Match, Notification, OpenChallenge, ResultReport, Turn
from players.models import Player


@extend_schema_field(
    {
        "oneOf": [
            {"type": "string", "example": "24/18 18/13"},
            {"type": "array", "items": {"type": "string"}, "example": ["24/18", "18/13"]},
        ]
    }
)
class MovesField(serializers.Field[Any, Any, Any, Any]):
    """A play as "24/18 18/13" or ["24/18", "18/13"]; the engine checks the notation."""

    default_error_messages = {"invalid": "moves must be a string or a list of strings"}

    def to_internal_value(self, data: Any) -> str | list[str]:
        if isinstance(data, str):
            return data
        if isinstance(data, list) and all(isinstance(item, str) for item in data):
            return data
        self.fail("invalid")

    def to_representation(self, value: Any) -> Any:
        return value


def datetime_to_json(value: datetime | None) -> str | None:
    """A date-time as DRF's DateTimeField writes it: ISO 8601 in the site's time zone, UTC as
    "Z" (DRF's own field looks the zone up on every call, which cost more than the rest of
    an answer's fields together)."""
    if value is None:
        return None
    text = value.astimezone(SITE_ZONE).isoformat()
    return text[:-6] + "Z" if text.endswith("+00:00") else text


SITE_ZONE = zoneinfo.ZoneInfo(settings.TIME_ZONE)


# The output serializers on the play path (PlayerRef, Turn, GameDetail, GameChange) build their
# answers directly in to_representation, in the order of Meta.fields: constructing DRF's fields
# for every answer cost more CPU than the rest of a play. The declared fields still describe the
# shape for the OpenAPI schema.


class PlayerRefSerializer(serializers.ModelSerializer[Player]):
    class Meta:
        model = Player
        fields = ["id", "display_name"]

    def to_representation(self, player: Player) -> dict[str, Any]:
        return player_ref_json(player)


def player_ref_json(player: Player) -> dict[str, Any]:
    """A PlayerRefSerializer's object, without making a serializer (the play's answer has three:
    docs/decisions.md D139)."""
    return {"id": player.pk, "display_name": player.display_name}


# --- inputs -----------------------------------------------------------------------------------


class ClockSettingsSerializer(StrictSerializer):
    """A match clock (docs/options.md, "The match clock"): a preset and/or its two numbers,
    which override the preset's. ``{}`` or null: no clock."""

    preset = serializers.ChoiceField(
        choices=list(clock.PRESETS),
        required=False,
        help_text="standard: 2 min a point + 12 s a turn; relaxed: 3 min a point + 15 s",
    )
    per_point_seconds = serializers.IntegerField(
        min_value=clock.PER_POINT_SECONDS[0],
        max_value=clock.PER_POINT_SECONDS[1],
        required=False,
        help_text="each player's bank: this many seconds per point of the match length",
    )
    delay_seconds = serializers.IntegerField(
        min_value=clock.DELAY_SECONDS[0],
        max_value=clock.DELAY_SECONDS[1],
        required=False,
        help_text="free seconds at the start of every turn, before the bank runs",
    )


def claim_after_hours_field(**kwargs: Any) -> serializers.IntegerField:
    return serializers.IntegerField(
        min_value=clock.CLAIM_AFTER_HOURS[0],
        max_value=clock.CLAIM_AFTER_HOURS[1],
        help_text="without a clock: hours the player to move may stay inactive before the "
        "waiting player may claim the match (POST /matches/{id}/claim/)",
        **kwargs,
    )


class MatchCreateSerializer(StrictSerializer):
    player_one = serializers.PrimaryKeyRelatedField(queryset=Player.objects.all())
    player_two = serializers.PrimaryKeyRelatedField(queryset=Player.objects.all())
    target_score = serializers.IntegerField(min_value=1, max_value=MAX_MATCH_LENGTH, required=False)
    options = JSONObjectField(required=False, help_text="docs/rules.md §8 keys and/or a preset")
    mode = serializers.ChoiceField(
        choices=[Match.Mode.ONLINE, Match.Mode.OVER_THE_BOARD], default=Match.Mode.ONLINE
    )
    tournament_slot = serializers.CharField(max_length=64, required=False, default="")
    is_public = serializers.BooleanField(default=True)
    start = serializers.BooleanField(default=True, help_text="online: start game 1 at once")
    auto_roll = serializers.BooleanField(
        default=False,
        help_text="online: the server rolls for the player to move whenever a roll is due, "
        "so each turn is one request (a play); see the README",
    )
    clock = ClockSettingsSerializer(
        required=False, allow_null=True, help_text="online: a match clock; default none"
    )
    claim_after_hours = claim_after_hours_field(required=False)


class MatchImportSerializer(StrictSerializer):
    player_one = serializers.PrimaryKeyRelatedField(queryset=Player.objects.all())
    player_two = serializers.PrimaryKeyRelatedField(queryset=Player.objects.all())
    lines = serializers.CharField(help_text="the JSON-lines text of a match export")


class MatchForfeitSerializer(StrictSerializer):
    loser = serializers.PrimaryKeyRelatedField(queryset=Player.objects.all())


class PlaySubmitSerializer(StrictSerializer):
    ply = serializers.IntegerField(min_value=1, max_value=1_000_000)
    moves = MovesField()


class CubeActionSerializer(StrictSerializer):
    ply = serializers.IntegerField(
        min_value=1,
        max_value=1_000_000,
        required=False,
        help_text="the game's next ply, as for a play: a stale one is refused with 409",
    )


class ResignSerializer(StrictSerializer):
    kind = serializers.ChoiceField(choices=["single", "mars"], default="single")


class RecordTurnSerializer(StrictSerializer):
    dice = serializers.ListField(
        child=serializers.IntegerField(), allow_null=True, required=False, default=None
    )
    moves = MovesField(required=False)
    kind = serializers.ChoiceField(
        choices=["double", "take", "drop"],
        required=False,
        help_text="a cube action instead of a roll (matches with the cube option)",
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if "kind" not in attrs and "moves" not in attrs:
            raise serializers.ValidationError("a turn has moves (a roll) or a cube action kind")
        return attrs


class ResultInputSerializer(StrictSerializer):
    scope = serializers.ChoiceField(
        choices=ResultReport.Scope.choices,
        default=ResultReport.Scope.GAME,
        help_text='"game": the next game (winner, points, ...); "match": the final score',
    )
    winner = serializers.PrimaryKeyRelatedField(
        queryset=Player.objects.all(), allow_null=True, required=False, default=None
    )
    points = serializers.IntegerField(
        min_value=0,
        max_value=3 * 1024,
        required=False,
        help_text="scope game: required; with the cube, the game's value times the cube",
    )
    score_one = serializers.IntegerField(
        min_value=0, max_value=999, required=False, help_text="scope match: player one's score"
    )
    score_two = serializers.IntegerField(
        min_value=0, max_value=999, required=False, help_text="scope match: player two's score"
    )
    kind = serializers.ChoiceField(
        choices=["single", "mars", "triple", "mother", "tie"], required=False
    )
    starter = serializers.PrimaryKeyRelatedField(
        queryset=Player.objects.all(), required=False, allow_null=True
    )
    record = RecordTurnSerializer(many=True, required=False, allow_null=True)


class DisputeSerializer(StrictSerializer):
    reason = serializers.CharField(max_length=2000, required=False, default="", allow_blank=True)


# --- outputs ----------------------------------------------------------------------------------


class TurnSerializer(serializers.ModelSerializer[Turn]):
    position_after = JSONObjectField()
    result = JSONObjectField(allow_null=True)

    class Meta:
        model = Turn
        fields = ["ply", "side", "kind", "dice", "moves", "position_after", "result", "created_at"]

    def to_representation(self, turn: Turn) -> dict[str, Any]:
        return turn_json(turn)


def turn_json(turn: Turn) -> dict[str, Any]:
    """A TurnSerializer's object, without making a serializer."""
    return {
        "ply": turn.ply,
        "side": str(turn.side),
        "kind": str(turn.kind),
        "dice": turn.dice,
        "moves": turn.moves,
        "position_after": turn.position_after,
        "result": turn.result,
        "created_at": datetime_to_json(turn.created_at),
    }


class GameResultSerializer(serializers.Serializer[Any]):
    winner = serializers.IntegerField(allow_null=True, help_text="player id; null for a tie")
    kind = serializers.CharField()
    points = serializers.IntegerField(help_text="points scored, the cube counted")
    ended_by = serializers.CharField()
    resigned_by = serializers.IntegerField(allow_null=True)


class CubeStateSerializer(serializers.Serializer[Any]):
    enabled = serializers.BooleanField(help_text="the match's cube option applies to this game")
    value = serializers.IntegerField(help_text="the stake: a win scores its points times this")
    owner = serializers.IntegerField(allow_null=True, help_text="player id; null: in the middle")
    offered_by = serializers.IntegerField(
        allow_null=True, help_text="player id of a double awaiting take or drop"
    )
    crawford = serializers.BooleanField(help_text="the Crawford game: no doubling")
    may_double = serializers.BooleanField(help_text="the player to move may double now")


class ClockRemainingSerializer(serializers.Serializer[Any]):
    player_one = serializers.FloatField(help_text="seconds of bank left")
    player_two = serializers.FloatField(help_text="seconds of bank left")


class ClockStateSerializer(serializers.Serializer[Any]):
    enabled = serializers.BooleanField(help_text="the match has a clock")
    bank_seconds = serializers.IntegerField(help_text="each player's bank at the match's start")
    delay_seconds = serializers.IntegerField(help_text="free seconds at the start of each turn")
    remaining = ClockRemainingSerializer(
        allow_null=True, help_text="each bank left at server_time (the running side's too)"
    )
    running = serializers.ChoiceField(
        choices=Match.ClockSide.choices,
        allow_null=True,
        help_text="whose clock runs; null when none does",
    )
    delay_left = serializers.FloatField(
        allow_null=True, help_text="seconds of the running side's delay left at server_time"
    )
    turn_started_at = serializers.DateTimeField(allow_null=True)
    deadline = serializers.DateTimeField(
        allow_null=True, help_text="when the running side's time runs out"
    )
    server_time = serializers.DateTimeField(help_text="the moment these figures are for")
    flagged = serializers.ChoiceField(
        choices=Match.ClockSide.choices,
        allow_null=True,
        help_text="the side out of time: it lost the match on time",
    )


def clock_to_json(match: Match) -> dict[str, Any]:
    """The match clock now, with its date-times as the API writes them."""
    state = selectors.match_clock(match, clock.now())
    for name in ("turn_started_at", "deadline", "server_time"):
        state[name] = datetime_to_json(state[name])
    return state


class LegalPlaySerializer(serializers.Serializer[Any]):
    """One legal play: the same object in a game's answer and in an illegal play's 400."""

    moves = serializers.ListField(
        child=serializers.CharField(), help_text="in the mover's numbering"
    )
    notation = serializers.CharField(help_text='the moves as one text: "24/18 18/13"')
    ends_game = serializers.BooleanField()
    position = JSONObjectField(
        allow_null=True,
        help_text="the POSITION the play leads to (docs/rules.md Appendix A: white numbering, "
        "the turn passed or, in Gjul Bara, the dice still owed); null unless the request asked "
        "for positions with ?positions=1",
    )


class IllegalPlaySerializer(serializers.Serializer[Any]):
    """The 400 answer to a play the engine refuses: why, and what would have been legal. All
    three fields are there when the engine refused the play; a body that is not a play at all
    is answered as every 400 is (its bad fields named, or a ``detail``), hence none is required
    in the schema."""

    detail = serializers.CharField(required=False, help_text="the engine's reason")
    step = serializers.IntegerField(
        required=False,
        allow_null=True,
        help_text="the index of the refused step in the moves (0: the first); null when no "
        "single step is wrong (the play is too short, or it must use the larger die)",
    )
    legal_plays = LegalPlaySerializer(
        many=True, required=False, help_text="the legal plays, as in the game's answer"
    )


def legal_plays_json(outcomes: Sequence[Outcome], *, positions: bool) -> list[dict[str, Any]]:
    """The legal plays as ``LegalPlaySerializer`` objects. Decision (docs/decisions.md D46): the
    positions only when asked, written by the engine's encoder; on the play path they would cost
    a tenth of each answer's time."""
    if not positions:
        listed = []
        for outcome in outcomes:
            moves = outcome.move_texts()  # no position is built for a listed play
            listed.append(
                {
                    "moves": moves,
                    "notation": " ".join(moves),
                    "ends_game": outcome.ends_game,
                    "position": None,
                }
            )
        return listed
    return [
        {
            "moves": play["moves"],
            "notation": " ".join(play["moves"]),
            "ends_game": "result" in play,
            "position": play["position"],
        }
        for play in outcomes_json(outcomes)
    ]


class GameSummarySerializer(serializers.ModelSerializer[Game]):
    white = PlayerRefSerializer()
    black = PlayerRefSerializer()
    result = serializers.SerializerMethodField()

    class Meta:
        model = Game
        fields = ["id", "number", "variant", "status", "white", "black", "result"]

    @extend_schema_field(GameResultSerializer(allow_null=True))
    def get_result(self, game: Game) -> dict[str, Any] | None:
        if game.status != Game.Status.FINISHED:
            return None
        return {
            "winner": game.result_winner_id,
            "kind": game.result_kind,
            "points": game.result_points,
            "ended_by": game.ended_by,
            "resigned_by": game.resigned_by_id,
        }


class GameDetailSerializer(GameSummarySerializer):
    position = JSONObjectField()
    turn = serializers.SerializerMethodField(help_text="colour to move: w or b")
    player_to_move = serializers.SerializerMethodField()
    roll_due = serializers.SerializerMethodField()
    legal_plays = serializers.SerializerMethodField()
    cube = serializers.SerializerMethodField()
    turns = serializers.SerializerMethodField()
    seed = serializers.SerializerMethodField(help_text="revealed when the game is over")
    next_game = serializers.SerializerMethodField()
    clock = serializers.SerializerMethodField(help_text="the match clock")

    class Meta:
        model = Game
        fields = [
            *GameSummarySerializer.Meta.fields,
            "match",
            "opening_rolls",
            "position",
            "turn",
            "player_to_move",
            "ply",
            "dice",
            "roll_due",
            "legal_plays",
            "cube",
            "clock",
            "seed_commitment",
            "seed",
            "started_at",
            "finished_at",
            "next_game",
            "turns",
        ]

    def to_representation(self, game: Game) -> dict[str, Any]:
        return {
            "id": game.pk,
            "number": game.number,
            "variant": str(game.variant),
            "status": str(game.status),
            "white": player_ref_json(game.white),
            "black": player_ref_json(game.black),
            "result": self.get_result(game),
            "match": game.match_id,
            "opening_rolls": game.opening_rolls,
            "position": game.position,
            "turn": self.get_turn(game),
            "player_to_move": self.get_player_to_move(game),
            "ply": game.ply,
            "dice": game.dice,
            "roll_due": self.get_roll_due(game),
            "legal_plays": self.get_legal_plays(game),
            "cube": self.get_cube(game),
            "clock": self.get_clock(game),
            "seed_commitment": game.seed_commitment,
            "seed": self.get_seed(game),
            "started_at": datetime_to_json(game.started_at),
            "finished_at": datetime_to_json(game.finished_at),
            "next_game": self.get_next_game(game),
            "turns": self.get_turns(game),
        }

    def get_turn(self, game: Game) -> str:
        return str(game.position["turn"])

    @extend_schema_field(PlayerRefSerializer(allow_null=True))
    def get_player_to_move(self, game: Game) -> dict[str, Any] | None:
        player = selectors.player_to_move(game)
        return player_ref_json(player) if player else None

    def get_roll_due(self, game: Game) -> bool:
        return selectors.is_roll_due(game)

    # context["positions"]: the request asked for each legal play's position (?positions=1)

    @extend_schema_field(LegalPlaySerializer(many=True))
    def get_legal_plays(self, game: Game) -> list[dict[str, Any]]:
        positions = bool(self.context.get("positions"))
        return legal_plays_json(selectors.game_legal_plays(game), positions=positions)

    @extend_schema_field(CubeStateSerializer)
    def get_cube(self, game: Game) -> dict[str, Any]:
        return {
            "enabled": selectors.match_options(game.match).cube_applies_to(game.variant),
            "value": game.cube_value,
            "owner": game.player_of(game.cube_owner).pk if game.cube_owner else None,
            "offered_by": (
                game.player_of(game.cube_offered_by).pk if game.cube_offered_by else None
            ),
            "crawford": game.crawford,
            "may_double": selectors.may_double(game),
        }

    @extend_schema_field(ClockStateSerializer)
    def get_clock(self, game: Game) -> dict[str, Any]:
        return clock_to_json(game.match)

    @extend_schema_field(TurnSerializer(many=True))
    def get_turns(self, game: Game) -> list[dict[str, Any]]:
        return list_data(TurnSerializer(selectors.game_turns(game), many=True))

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_seed(self, game: Game) -> str | None:
        return game.seed if game.seed_revealed else None

    @extend_schema_field(serializers.IntegerField(allow_null=True))
    def get_next_game(self, game: Game) -> int | None:
        if not game.is_over:  # the next game starts when this one ends
            return None
        following = game.match.games.filter(number=game.number + 1).first()
        return following.pk if following else None


class GameChangeSerializer(GameDetailSerializer):
    """The game after a roll, play or resignation. ``turns`` holds only the turns that request
    appended, so an answer does not grow with the game; GET the game for the whole log."""

    # context["turns"]: the turns the write appended (the service's PlayResult.turns)

    @extend_schema_field(TurnSerializer(many=True))
    def get_turns(self, game: Game) -> list[dict[str, Any]]:
        return [turn_json(turn) for turn in self.context["turns"]]


class MatchSerializer(serializers.ModelSerializer[Match]):
    player_one = PlayerRefSerializer()
    player_two = PlayerRefSerializer()
    options = JSONObjectField()
    games = GameSummarySerializer(many=True, read_only=True)
    current_game = serializers.SerializerMethodField()
    awaiting = serializers.SerializerMethodField(
        help_text="status invited: the id of the challenged player, who may accept or decline"
    )
    clock = serializers.SerializerMethodField(help_text="the match clock")

    class Meta:
        model = Match
        fields = [
            "id",
            "player_one",
            "player_two",
            "organiser",
            "created_by",
            "rated",
            "awaiting",
            "accepted_at",
            "mode",
            "target_score",
            "options",
            "status",
            "score_one",
            "score_two",
            "winner",
            "ended_by",
            "tournament_slot",
            "is_public",
            "auto_roll",
            "clock",
            "claim_after_hours",
            "current_game",
            "games",
            "created_at",
        ]

    @extend_schema_field(serializers.IntegerField(allow_null=True))  # none once it is over
    def get_current_game(self, match: Match) -> int | None:
        if hasattr(match, "current_game_id"):  # annotated by selectors.match_list_with_games
            return match.current_game_id  # type: ignore[no-any-return]
        game = selectors.current_game(match)
        return game.pk if game else None

    @extend_schema_field(ClockStateSerializer)
    def get_clock(self, match: Match) -> dict[str, Any]:
        return clock_to_json(match)

    @extend_schema_field(serializers.IntegerField(allow_null=True))
    def get_awaiting(self, match: Match) -> int | None:
        if match.status != Match.Status.INVITED:
            return None
        player = selectors.challenged_player(match)
        return player.pk if player else None


class ClaimRefusedSerializer(serializers.Serializer[Any]):
    detail = serializers.CharField()
    claim_at = serializers.DateTimeField(
        required=False, help_text="too early: when the match may be claimed"
    )
    seconds_left = serializers.IntegerField(required=False, help_text="too early: until then")


class ResultReportSerializer(serializers.ModelSerializer[ResultReport]):
    """A report names players by player id (``reporter``, ``starter``, ``winner``); the users
    behind it are ``reporter_username`` and ``responded_by`` (a user id: the opponent who
    answered, or the organiser who overrode); both are null for a report made, or answered,
    with a result slip's code (``reporter`` is then the code's player: docs/decisions.md D83)."""

    record = serializers.JSONField(allow_null=True)
    reporter = serializers.SerializerMethodField(
        help_text="player id of who reported; null when an organiser without a player record "
        "reported (the organiser's report counts at once)"
    )
    reporter_username = serializers.CharField(
        source="reporter.username",
        read_only=True,
        allow_null=True,
        help_text="the account that reported; null when reported with a slip's code",
    )

    class Meta:
        model = ResultReport
        fields = [
            "id",
            "match",
            "scope",
            "game_number",
            "reporter",
            "reporter_username",
            "starter",
            "winner",
            "kind",
            "points",
            "score_one",
            "score_two",
            "record",
            "status",
            "responded_by",
            "responded_at",
            "dispute_reason",
            "disputed_score_one",
            "disputed_score_two",
            "game",
            "created_at",
        ]
        extra_kwargs = {
            "starter": {"help_text": "player id of who played white (started the game)"},
            "winner": {"help_text": "player id; null for a tie"},
            "responded_by": {
                "help_text": "user id of who confirmed, disputed or overrode; null when the "
                "opponent answered with their slip's code"
            },
            "disputed_score_one": {
                "help_text": "a dispute made with a slip's code: the final score the opponent "
                "gives instead (player one's)"
            },
            "disputed_score_two": {"help_text": "the same, player two's"},
        }

    @extend_schema_field(serializers.IntegerField(allow_null=True))
    def get_reporter(self, report: ResultReport) -> int | None:
        if report.reported_with is not None:  # reported with a slip's code: its player
            return report.reported_with.player_id
        if report.reporter is None:
            return None
        try:
            return report.reporter.player.pk
        except Player.DoesNotExist:  # the reporter has no player record
            return None


class DiceProofSerializer(serializers.Serializer[Any]):
    game = serializers.IntegerField()
    commitment = serializers.CharField()
    seed = serializers.CharField(allow_null=True)
    revealed = serializers.BooleanField()
    opening_rolls = serializers.ListField(
        child=serializers.ListField(child=serializers.IntegerField())
    )
    rolls = serializers.ListField(child=serializers.DictField())
    derivation = serializers.CharField()
    verified = serializers.BooleanField(allow_null=True)
    problems = serializers.ListField(child=serializers.CharField())


class AwaitingSerializer(serializers.Serializer[Any]):
    match = serializers.IntegerField(source="match.pk")
    reason = serializers.ChoiceField(
        choices=selectors.AWAITING_REASONS,
        help_text="accept_challenge: accept or decline the match; turn: roll or play in "
        "`game`; answer_double: take or drop in `game`; confirm_result: confirm or dispute "
        "`report`",
    )
    game = serializers.IntegerField(source="game.pk", allow_null=True, default=None)
    report = serializers.IntegerField(source="report.pk", allow_null=True, default=None)
    opponent = serializers.SerializerMethodField()

    @extend_schema_field(PlayerRefSerializer)
    def get_opponent(self, item: selectors.Awaiting) -> dict[str, Any]:
        match = item.match
        player = self.context["player"]
        other = match.player_two if match.player_one_id == player.pk else match.player_one
        return PlayerRefSerializer(other).data


class MeSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField(source="user.pk")
    username = serializers.CharField(source="user.username")
    player = PlayerRefSerializer(allow_null=True, help_text="null: you have no player record")
    may_enter_players = serializers.BooleanField(
        help_text="you may enter players without accounts and hand out their claim codes"
    )
    awaiting = serializers.SerializerMethodField(
        help_text="the matches waiting for you to act, oldest first: at most the first 100 "
        "(the setting ME_AWAITING_LIMIT)"
    )
    awaiting_count = serializers.IntegerField(
        help_text="how many matches wait for you in all; more than `awaiting` lists when over "
        "the limit"
    )

    @extend_schema_field(AwaitingSerializer(many=True))
    def get_awaiting(self, desk: selectors.Desk) -> list[dict[str, Any]]:
        context = {"player": desk.player}
        return list_data(AwaitingSerializer(desk.awaiting, many=True, context=context))


# --- open challenges (the lobby) --------------------------------------------------------------


class OpenChallengeCreateSerializer(StrictSerializer):
    target_score = serializers.IntegerField(min_value=1, max_value=MAX_MATCH_LENGTH, required=False)
    options = JSONObjectField(required=False, help_text="docs/rules.md §8 keys and/or a preset")
    clock = ClockSettingsSerializer(
        required=False, allow_null=True, help_text="a match clock; default none"
    )
    rated = serializers.BooleanField(default=True)


class OpenChallengeSerializer(serializers.ModelSerializer[OpenChallenge]):
    created_by = PlayerRefSerializer(read_only=True)
    taken_by = PlayerRefSerializer(read_only=True, allow_null=True)
    match: serializers.PrimaryKeyRelatedField[Match] = serializers.PrimaryKeyRelatedField(
        read_only=True, allow_null=True
    )

    class Meta:
        model = OpenChallenge
        fields = [
            "id",
            "created_by",
            "target_score",
            "options",
            "clock",
            "rated",
            "status",
            "taken_by",
            "match",
            "created_at",
            "expires_at",
        ]
        read_only_fields = fields


class NotificationSerializer(serializers.ModelSerializer[Notification]):
    """One of the user's notifications (docs/decisions.md D115): what happened (``kind``:
    match_ready, result_to_confirm, challenge_received), the match it is about, the report to
    confirm (result_to_confirm), when, and when it was read (null: unread)."""

    match: serializers.PrimaryKeyRelatedField[Match] = serializers.PrimaryKeyRelatedField(
        read_only=True
    )
    report: serializers.PrimaryKeyRelatedField[ResultReport] = serializers.PrimaryKeyRelatedField(
        read_only=True, allow_null=True
    )

    class Meta:
        model = Notification
        fields = ["id", "kind", "match", "report", "created_at", "read_at"]
        read_only_fields = fields


class NotificationsReadSerializer(serializers.Serializer[Any]):
    marked = serializers.IntegerField(help_text="how many notifications were marked read")


class PracticeCreateSerializer(StrictSerializer):
    strength = serializers.ChoiceField(
        choices=["beginner", "club", "strong"], help_text="the computer's strength"
    )
    target_score = serializers.IntegerField(min_value=1, max_value=MAX_MATCH_LENGTH, required=False)
    options = JSONObjectField(required=False, help_text="docs/rules.md §8 keys and/or a preset")
    auto_roll = serializers.BooleanField(
        default=True,
        help_text="the server rolls for the player to move whenever a roll is due and that "
        "player may not double (on by default in practice: false to roll by hand)",
    )


class HintSerializer(serializers.Serializer[Any]):
    game = serializers.IntegerField()
    ply = serializers.IntegerField()
    moves = serializers.ListField(child=serializers.CharField(), help_text="as a play is submitted")
    play = serializers.IntegerField(
        help_text="the play's index among the game's legal plays (the game's legal_plays order)"
    )
    text = serializers.CharField()
    equity = serializers.FloatField(help_text="the play's cubeless equity for you, in points")
    lookahead = serializers.CharField(
        help_text="the depth that found the play: 1-ply within the time allowed, else 0-ply"
    )
