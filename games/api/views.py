"""HTTP endpoints of the games API: each validates input, calls one service or selector, and
serializes the result. Errors become JSON through common.api.exceptions."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from auditlog.context import set_actor
from django.http import Http404
from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import generics, serializers, status
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.permissions import IsAuthenticated
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from common.api.views import WriteView, errors, validated
from games import chances, lobby, postgame, practice, selectors, services
from games.api import serializers as s
from games.api.filters import MatchFilter
from games.api.renderers import JSONLinesRenderer, MatRenderer
from games.engine import EngineError
from games.errors import GameNotFoundError
from games.models import Game, Match, Notification, OpenChallenge, ResultReport
from games.services import clock as clock_services
from games.services.play import PlayResult


def visible_match(request: Request, pk: int) -> Match:
    return get_object_or_404(selectors.match_list(user=request.user), pk=pk)


def visible_game(request: Request, pk: int) -> Game:
    game = selectors.game_visible(user=request.user, pk=pk)
    if game is None:
        raise Http404
    return game


# Reads of a match or game end it first when its clock has run out, through the time-out the
# deadline task calls (games/services/clock.py, match_time_out), so no answer shows a player still
# on move after their time is up; a read of a match whose clock runs writes nothing
# (docs/decisions.md D64).


def match_read(request: Request, pk: int) -> Match:
    match = visible_match(request, pk)
    if clock_services.match_time_out(match=match) is not None:
        match = visible_match(request, pk)
    return match


def game_read(request: Request, pk: int) -> Game:
    game = visible_game(request, pk)
    if clock_services.match_time_out(match=game.match) is not None:
        game = visible_game(request, pk)
    return game


def game_write_data(
    serializer_class: type[serializers.Serializer[Any]], request: Request, pk: int
) -> dict[str, Any]:
    """The validated body of a write to game ``pk``. Invalid input to a game the user may not
    see is a 404, not a 400 (the game is looked up only then: a valid write loads it once, in
    the service)."""
    serializer = serializer_class(data=request.data)
    if not serializer.is_valid():
        visible_game(request, pk)
        raise ValidationError(serializer.errors)
    return dict(serializer.validated_data)


def game_write(service: Callable[..., PlayResult], request: Request, pk: int, **data: Any) -> Any:
    """Call a play service as the request's user on game ``pk``; 404 when the game is hidden."""
    try:
        return service(game=pk, user=request.user, **data)
    except GameNotFoundError:
        raise Http404 from None


POSITIONS = OpenApiParameter(
    "positions",
    OpenApiTypes.BOOL,
    description="1: every legal play carries the position it leads to (`position`, else null)",
)


def wants_positions(request: Request) -> bool:
    """``?positions=1`` (or true): list each legal play with the position it leads to."""
    return request.query_params.get("positions", "").lower() in ("1", "true")


def game_response(request: Request, game: Game) -> Response:
    context = {"positions": wants_positions(request)}
    return Response(s.GameDetailSerializer(game, context=context).data)


def game_change_response(request: Request, result: PlayResult) -> Response:
    """The game after a write, with only the turns the write appended."""
    context = {"turns": result.turns, "positions": wants_positions(request)}
    return Response(s.GameChangeSerializer(result.game, context=context).data)


# --- matches ----------------------------------------------------------------------------------


class MatchListCreateView(generics.ListAPIView[Match], WriteView):
    serializer_class = s.MatchSerializer
    filterset_class = MatchFilter

    def get_queryset(self) -> Any:
        return selectors.match_list_with_games(user=self.request.user)

    @extend_schema(responses={200: s.MatchSerializer(many=True), **errors(400, 404)})
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)

    @extend_schema(
        request=s.MatchCreateSerializer,
        responses={201: s.MatchSerializer, **errors(400, 401, 403)},
    )
    def post(self, request: Request) -> Response:
        data = validated(s.MatchCreateSerializer, request)
        match = services.match_propose(user=request.user, **data)
        return Response(s.MatchSerializer(match).data, status=status.HTTP_201_CREATED)


class MatchDetailView(APIView):
    @extend_schema(responses={200: s.MatchSerializer, **errors(404)})
    def get(self, request: Request, pk: int) -> Response:
        return Response(s.MatchSerializer(match_read(request, pk)).data)


class MatchStartView(WriteView):
    @extend_schema(request=None, responses={200: s.MatchSerializer, **errors(401, 403, 404, 409)})
    def post(self, request: Request, pk: int) -> Response:
        match = services.match_start(match=visible_match(request, pk), user=request.user)
        return Response(s.MatchSerializer(match).data)


class MatchAcceptView(WriteView):
    @extend_schema(request=None, responses={200: s.MatchSerializer, **errors(401, 403, 404, 409)})
    def post(self, request: Request, pk: int) -> Response:
        """The challenged player accepts: the match is rated and starts."""
        match = services.match_accept(match=visible_match(request, pk), user=request.user)
        return Response(s.MatchSerializer(match).data)


class MatchDeclineView(WriteView):
    @extend_schema(request=None, responses={200: s.MatchSerializer, **errors(401, 403, 404, 409)})
    def post(self, request: Request, pk: int) -> Response:
        """The challenged player declines, or the challenger withdraws: never played."""
        match = services.match_decline(match=visible_match(request, pk), user=request.user)
        return Response(s.MatchSerializer(match).data)


class MatchForfeitView(WriteView):
    @extend_schema(
        request=s.MatchForfeitSerializer,
        responses={200: s.MatchSerializer, **errors(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request, pk: int) -> Response:
        data = validated(s.MatchForfeitSerializer, request)
        # A tournament audits what the forfeit changes (tournaments.receivers) under this user.
        with set_actor(request.user):
            match = services.match_forfeit(
                match=visible_match(request, pk), user=request.user, loser=data["loser"]
            )
        return Response(s.MatchSerializer(match).data)


class MatchClaimView(WriteView):
    @extend_schema(
        request=None,
        responses={
            200: s.MatchSerializer,
            409: OpenApiResponse(
                response=s.ClaimRefusedSerializer,
                description="not claimable now: too early (with claim_at and seconds_left), a "
                "match with a clock, over the board, or not in progress",
            ),
            **errors(401, 403, 404),
        },
    )
    def post(self, request: Request, pk: int) -> Response:
        """The waiting player claims a match without a clock after the opponent has been
        inactive for the match's claim_after_hours: the claimer wins it by forfeit."""
        match = clock_services.match_claim(match=visible_match(request, pk), user=request.user)
        return Response(s.MatchSerializer(match).data)


class MatchResignView(WriteView):
    @extend_schema(
        request=None,
        responses={200: s.MatchSerializer, **errors(401, 403, 404, 409)},
    )
    def post(self, request: Request, pk: int) -> Response:
        """A player resigns the whole match (docs/decisions.md D166): the game in progress is
        their resignation of a single, and the opponent wins the match at its length. 409 when
        the match is over or not in progress, over the board, or its clock had run out (it is
        then lost on time)."""
        match = services.match_resign(match=visible_match(request, pk), user=request.user)
        return Response(s.MatchSerializer(match).data)


class MatchExportView(APIView):
    renderer_classes = [JSONLinesRenderer, JSONRenderer, MatRenderer]

    @extend_schema(
        responses={
            200: OpenApiResponse(
                response={"type": "array", "items": {"type": "object"}},
                description="JSON lines: a match header, then per game a header, "
                "one line per turn (dice, moves, POSITION after) and an end line. With "
                "?format=mat (text/plain): the Tabla games as a Jellyfish .mat file for "
                "GNU Backgammon or XG, sent as an attachment",
            ),
            (200, MatRenderer.media_type): OpenApiTypes.STR,
            **errors(404),
        }
    )
    def get(self, request: Request, pk: int) -> Response:
        match = visible_match(request, pk)
        if request.accepted_renderer.format != MatRenderer.format:
            return Response(services.match_export(match))
        response = Response(selectors.match_export_mat(match))
        response["Content-Disposition"] = f'attachment; filename="tabla-match-{match.pk}.mat"'
        return response


CHANCES_AFTER = OpenApiParameter(
    "after",
    OpenApiTypes.STR,
    description="the `cursor` of an earlier answer: only the points after those it gave "
    "(`incremental` true; `current` is still the last point shown), when those are still the "
    "first points shown and computed from the same games, weights and cube; otherwise, or "
    "without it, the whole answer (`incremental` false). The same fairness rules cut both",
)


class MatchChancesView(APIView):
    @extend_schema(
        parameters=[CHANCES_AFTER],
        responses={
            200: OpenApiResponse(
                response={"type": "object"},
                description="The chances of the match (games/chances.py, docs/analysis.md "
                '"On the site"): ``current`` (player one\'s P(win), P(win mars), P(lose mars) '
                "of the current game, the side to move's, and the bar's chance) and ``points``, "
                "one a game's start and one a turn: {turn, game, win} with win player one's "
                "P(win); ``cursor``, to send back as ``?after=`` for only the later points, and "
                "``incremental``, whether this answer holds only those. "
                "403 for a player of the match while it is on, and for a spectator when "
                "the match's organisers hide the chances until it is over; spectators of rated "
                "matches, and of tournament matches whose organisers chose so (the default), "
                "are ``behind`` by the site's delay; 404 when no evaluator is installed for a "
                "variant of the match",
            ),
            **errors(403, 404),
        },
    )
    def get(self, request: Request, pk: int) -> Response:
        match = match_read(request, pk)
        try:
            answer = chances.chances_for(
                user=request.user, match=match, after=request.query_params.get("after", "")
            )
        except chances.NoEvaluatorError as error:
            raise NotFound(str(error)) from None
        return Response(answer.to_json())


class MatchReviewView(APIView):
    @extend_schema(
        responses={
            200: OpenApiResponse(
                response={"type": "object"},
                description="The review of a finished match (games/postgame.py, docs/analysis.md "
                '"After the game"): per player the decisions with a choice, the average and '
                "total error (cubeless equity lost to the evaluator's best play at 0-ply) and "
                "the biggest mistakes {game, turn, dice, pending, made, best, error}. 403 while "
                "the match is on (for everyone); 404 when no evaluator is installed for a "
                "variant of the match",
            ),
            **errors(403, 404),
        }
    )
    def get(self, request: Request, pk: int) -> Response:
        match = match_read(request, pk)
        try:
            answer = postgame.review_for(match=match)
        except chances.NoEvaluatorError as error:
            raise NotFound(str(error)) from None
        return Response(answer.to_json())


class MatchImportView(WriteView):
    @extend_schema(
        request=s.MatchImportSerializer,
        responses={201: s.MatchSerializer, **errors(400, 401, 403)},
    )
    def post(self, request: Request) -> Response:
        data = validated(s.MatchImportSerializer, request)
        match = services.match_import_by(
            text=data["lines"],
            user=request.user,
            player_one=data["player_one"],
            player_two=data["player_two"],
        )
        return Response(s.MatchSerializer(match).data, status=status.HTTP_201_CREATED)


# --- games ------------------------------------------------------------------------------------


class GameDetailView(APIView):
    @extend_schema(parameters=[POSITIONS], responses={200: s.GameDetailSerializer, **errors(404)})
    def get(self, request: Request, pk: int) -> Response:
        return game_response(request, game_read(request, pk))


class DiceRollView(WriteView):
    @extend_schema(
        request=None,
        parameters=[POSITIONS],
        responses={200: s.GameChangeSerializer, **errors(401, 403, 404, 409)},
    )
    def post(self, request: Request, pk: int) -> Response:
        return game_change_response(request, game_write(services.dice_roll, request, pk))


class PlaySubmitView(WriteView):
    @extend_schema(
        request=s.PlaySubmitSerializer,
        parameters=[POSITIONS],
        responses={
            200: s.GameChangeSerializer,
            400: OpenApiResponse(
                s.IllegalPlaySerializer,
                description="the engine refused the play (the legal plays as in a game's "
                "answer), or the body is invalid (the bad fields named, as in every 400)",
            ),
            **errors(401, 403, 404, 409),
        },
    )
    def post(self, request: Request, pk: int) -> Response:
        data = game_write_data(s.PlaySubmitSerializer, request, pk)
        try:
            played = game_write(services.play_submit, request, pk, **data)
        except EngineError as error:  # the service wrote nothing: its transaction rolled back
            game = visible_game(request, pk)
            legal = s.legal_plays_json(
                selectors.game_legal_plays(game), positions=wants_positions(request)
            )
            body = {
                "detail": str(error),
                "step": getattr(error, "step", None),
                "legal_plays": legal,
            }
            return Response(body, status=status.HTTP_400_BAD_REQUEST)
        return game_change_response(request, played)


class GameResignView(WriteView):
    @extend_schema(
        request=s.ResignSerializer,
        parameters=[POSITIONS],
        responses={200: s.GameChangeSerializer, **errors(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request, pk: int) -> Response:
        data = game_write_data(s.ResignSerializer, request, pk)
        return game_change_response(
            request, game_write(services.game_resign, request, pk, kind=data["kind"])
        )


class CubeActionView(WriteView):
    """Double, take or drop (docs/rules.md §6.6, match option ``cube``)."""

    service: Any = None  # set per route

    @extend_schema(
        request=s.CubeActionSerializer,
        parameters=[POSITIONS],
        responses={200: s.GameChangeSerializer, **errors(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request, pk: int) -> Response:
        data = game_write_data(s.CubeActionSerializer, request, pk)
        changed = game_write(type(self).service, request, pk, ply=data.get("ply"))
        return game_change_response(request, changed)


class CubeDoubleView(CubeActionView):
    """The player to move offers a double before rolling."""

    service = staticmethod(services.cube_double)


class CubeTakeView(CubeActionView):
    """The player offered a double accepts it: the stake doubles, the cube is theirs."""

    service = staticmethod(services.cube_take)


class CubeDropView(CubeActionView):
    """The player offered a double declines it and loses the game at the current stake."""

    service = staticmethod(services.cube_drop)


class DiceProofView(APIView):
    @extend_schema(responses={200: s.DiceProofSerializer, **errors(404)})
    def get(self, request: Request, pk: int) -> Response:
        return Response(selectors.game_dice_proof(visible_game(request, pk)))


# --- over-the-board results -------------------------------------------------------------------


class ResultListCreateView(WriteView):
    @extend_schema(responses={200: s.ResultReportSerializer(many=True), **errors(404)})
    def get(self, request: Request, pk: int) -> Response:
        reports = visible_match(request, pk).reports.select_related(
            "reporter__player", "reported_with"
        )
        return Response(s.ResultReportSerializer(reports, many=True).data)

    @extend_schema(
        request=s.ResultInputSerializer,
        responses={201: s.ResultReportSerializer, **errors(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request, pk: int) -> Response:
        match = visible_match(request, pk)
        data = validated(s.ResultInputSerializer, request)
        report = services.result_report(match=match, user=request.user, **data)
        return Response(s.ResultReportSerializer(report).data, status=status.HTTP_201_CREATED)


def visible_report(request: Request, pk: int, rid: int) -> ResultReport:
    return get_object_or_404(visible_match(request, pk).reports, pk=rid)


class ResultConfirmView(WriteView):
    @extend_schema(
        request=None, responses={200: s.ResultReportSerializer, **errors(401, 403, 404, 409)}
    )
    def post(self, request: Request, pk: int, rid: int) -> Response:
        report = services.result_confirm(report=visible_report(request, pk, rid), user=request.user)
        return Response(s.ResultReportSerializer(report).data)


class ResultDisputeView(WriteView):
    @extend_schema(
        request=s.DisputeSerializer,
        responses={200: s.ResultReportSerializer, **errors(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request, pk: int, rid: int) -> Response:
        report = visible_report(request, pk, rid)
        data = validated(s.DisputeSerializer, request)
        report = services.result_dispute(report=report, user=request.user, reason=data["reason"])
        return Response(s.ResultReportSerializer(report).data)


class ResultOverrideView(WriteView):
    @extend_schema(
        request=s.ResultInputSerializer,
        responses={200: s.ResultReportSerializer, **errors(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request, pk: int, rid: int) -> Response:
        report = visible_report(request, pk, rid)
        data = validated(s.ResultInputSerializer, request)
        report = services.result_override(report=report, user=request.user, **data)
        return Response(s.ResultReportSerializer(report).data)


# --- the logged-in user -----------------------------------------------------------------------


class MeView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: s.MeSerializer, **errors(401, 403)})
    def get(self, request: Request) -> Response:
        """Who you are (your user and player) and the matches waiting for you to act."""
        return Response(s.MeSerializer(selectors.desk_for(request.user)).data)


# --- open challenges (the lobby) --------------------------------------------------------------


class OpenChallengeListCreateView(generics.ListAPIView[OpenChallenge], WriteView):
    serializer_class = s.OpenChallengeSerializer

    def get_queryset(self) -> Any:
        return lobby.open_challenges()

    @extend_schema(responses={200: s.OpenChallengeSerializer(many=True), **errors(404)})
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """The open challenges anyone signed in may take, newest first (expired ones left
        out)."""
        return super().get(request, *args, **kwargs)

    @extend_schema(
        request=s.OpenChallengeCreateSerializer,
        responses={201: s.OpenChallengeSerializer, **errors(400, 401, 403, 409)},
    )
    def post(self, request: Request) -> Response:
        """Post an open challenge as your player (409 beyond OPEN_CHALLENGES_PER_PLAYER)."""
        data = validated(s.OpenChallengeCreateSerializer, request)
        challenge = services.open_challenge_post(
            user=request.user,
            options=data.get("options"),
            target_score=data.get("target_score"),
            clock_settings=data.get("clock"),
            rated=data["rated"],
        )
        return Response(s.OpenChallengeSerializer(challenge).data, status=status.HTTP_201_CREATED)


class OpenChallengeDetailView(APIView):
    @extend_schema(responses={200: s.OpenChallengeSerializer, **errors(404)})
    def get(self, request: Request, pk: int) -> Response:
        challenge = get_object_or_404(lobby.challenge_rows(), pk=pk)
        return Response(s.OpenChallengeSerializer(challenge).data)


class OpenChallengeTakeView(WriteView):
    @extend_schema(request=None, responses={201: s.MatchSerializer, **errors(401, 403, 404, 409)})
    def post(self, request: Request, pk: int) -> Response:
        """Take an open challenge: the match between its poster and you starts at once."""
        challenge = get_object_or_404(lobby.challenge_rows(), pk=pk)
        match = services.open_challenge_take(challenge=challenge, user=request.user)
        return Response(s.MatchSerializer(match).data, status=status.HTTP_201_CREATED)


class OpenChallengeWithdrawView(WriteView):
    @extend_schema(
        request=None, responses={200: s.OpenChallengeSerializer, **errors(401, 403, 404, 409)}
    )
    def post(self, request: Request, pk: int) -> Response:
        """The poster withdraws an open challenge."""
        challenge = get_object_or_404(lobby.challenge_rows(), pk=pk)
        challenge = services.open_challenge_withdraw(challenge=challenge, user=request.user)
        return Response(s.OpenChallengeSerializer(challenge).data)


# --- notifications ----------------------------------------------------------------------------


class NotificationListView(generics.ListAPIView[Notification]):
    permission_classes = [IsAuthenticated]
    serializer_class = s.NotificationSerializer

    def get_queryset(self) -> Any:
        return selectors.notifications_for(self.request.user)

    @extend_schema(responses={200: s.NotificationSerializer(many=True), **errors(401, 403, 404)})
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Your notifications, newest first (only your own): a match ready for you, a result
        awaiting your confirmation, a challenge to answer."""
        return super().get(request, *args, **kwargs)


class NotificationsReadView(WriteView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses={200: s.NotificationsReadSerializer, **errors(401, 403)})
    def post(self, request: Request) -> Response:
        """Mark all your notifications read."""
        marked = services.notifications_read(user=request.user)
        return Response(s.NotificationsReadSerializer({"marked": marked}).data)


# --- practice against the computer (games/practice.py) -----------------------------------------


class PracticeCreateView(WriteView):
    @extend_schema(
        request=s.PracticeCreateSerializer,
        responses={201: s.MatchSerializer, **errors(400, 401, 403, 409)},
    )
    def post(self, request: Request) -> Response:
        """Start a practice match against the computer: unrated, no clock; the computer plays
        its turns itself. 409 when a variant of the rules' cycle has no evaluator installed."""
        data = validated(s.PracticeCreateSerializer, request)
        match = services.practice_start(
            user=request.user,
            strength=data["strength"],
            options=data.get("options"),
            target_score=data.get("target_score"),
            auto_roll=data["auto_roll"],
        )
        return Response(s.MatchSerializer(match).data, status=status.HTTP_201_CREATED)


class GameHintView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: s.HintSerializer, **errors(401, 403, 404, 409)})
    def get(self, request: Request, pk: int) -> Response:
        """The evaluator's best play for your dice on the table, in a practice match only (404
        for any other game; 409 when you have no dice to play)."""
        try:
            hint = practice.practice_hint(user=request.user, game=pk)
        except GameNotFoundError:
            raise Http404 from None
        return Response(
            {
                "game": hint.game.pk,
                "ply": hint.game.ply,
                "moves": hint.moves,
                "play": hint.play,
                "text": hint.text,
                "equity": round(hint.equity, 4),
                "lookahead": f"{hint.depth}-ply",
            }
        )


class MatchHintView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: s.HintSerializer, **errors(401, 403, 404, 409)})
    def get(self, request: Request, pk: int) -> Response:
        """The hint of ``games/{id}/hint/`` for the practice match's game in progress (the
        match page's hint button)."""
        game = selectors.current_game(match_read(request, pk))
        if game is None:
            raise NotFound("the match has no game in progress")
        return GameHintView().get(request, game.pk)
