"""HTTP endpoints of the tournaments API: each validates input, calls one service or selector,
and serializes the result. Service errors become JSON through common.api.exceptions."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from auditlog.models import LogEntry
from django.db.models import QuerySet
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import generics, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from common.api.views import WriteView, errors, validated
from common.errors import InvalidRequestError
from games.models import ResultReport
from players.models import Player
from players.selectors import account
from tournaments import selectors, services
from tournaments.api import serializers as s
from tournaments.draw.brackets import Section
from tournaments.models import Entry, Stage, Tournament

BODY = OpenApiTypes.OBJECT


def one_of(names: Iterable[str], default: str | None = None) -> str:
    """A parameter's values for its description: '"main" (default) or "knockout"'."""
    *rest, last = (f'"{name}"' + (" (default)" if name == default else "") for name in names)
    return f"{', '.join(rest)} or {last}" if rest else last


STAGE = OpenApiParameter("stage", str, description=one_of(Stage, default=Stage.MAIN))
STAGE_OF_ROUND = OpenApiParameter(
    "stage", str, description=f"{one_of(Stage, default=Stage.MAIN)}; in a bracket, a play level"
)


def tournament_for(pk: int) -> Tournament:
    """Tournament ``pk`` to act on: its service decides who may (403 for anyone else)."""
    return get_object_or_404(Tournament, pk=pk)


def tournament_read(request: Request, pk: int) -> Tournament:
    """Tournament ``pk`` to read, if the user may see it: 404 for a draft but to its organisers
    and staff (docs/decisions.md D56)."""
    return get_object_or_404(selectors.tournaments_visible(request.user), pk=pk)


def entry_for(tournament: Tournament, eid: int) -> Entry:
    return get_object_or_404(tournament.entries.select_related("player"), pk=eid)


def tournament_response(tournament: Tournament, code: int = status.HTTP_200_OK) -> Response:
    return Response(s.TournamentSerializer(tournament).data, status=code)


class TournamentListCreateView(generics.ListAPIView[Tournament], WriteView):
    serializer_class = s.TournamentSerializer
    filterset_fields = ["status", "format", "club"]

    def get_queryset(self) -> QuerySet[Tournament]:
        return selectors.tournaments_visible(self.request.user, selectors.tournament_list())

    @extend_schema(responses={200: s.TournamentSerializer(many=True), **errors(400, 404)})
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)

    # 409: the bound on a user's open friendly tournaments (docs/decisions.md D57).
    @extend_schema(request=s.TournamentInputSerializer, responses={201: s.TournamentSerializer,
                   **errors(400, 401, 409)})  # fmt: skip
    def post(self, request: Request) -> Response:
        data = validated(s.TournamentInputSerializer, request)
        tournament = services.tournament_create(user=request.user, **data)
        return tournament_response(tournament, status.HTTP_201_CREATED)


class TournamentDetailView(WriteView):
    @extend_schema(responses={200: s.TournamentSerializer, **errors(404)})
    def get(self, request: Request, pk: int) -> Response:
        return tournament_response(tournament_read(request, pk))

    @extend_schema(request=s.TournamentInputSerializer, responses={200: s.TournamentSerializer,
                   **errors(400, 401, 403, 404, 409)})  # fmt: skip
    def patch(self, request: Request, pk: int) -> Response:
        serializer = s.TournamentInputSerializer(data=request.data, partial=True)
        serializer.is_valid(raise_exception=True)
        tournament = services.tournament_update(
            tournament=tournament_for(pk), user=request.user, **serializer.validated_data
        )
        return tournament_response(tournament)


class TournamentActionView(WriteView):
    """POST with no body: one organiser action on the tournament (the subclass names it)."""

    action_name = ""

    @extend_schema(request=None, responses={200: s.TournamentSerializer,
                   **errors(401, 403, 404, 409)})  # fmt: skip
    def post(self, request: Request, pk: int) -> Response:
        action = getattr(services, self.action_name)
        return tournament_response(action(tournament=tournament_for(pk), user=request.user))


class RegistrationOpenView(TournamentActionView):
    action_name = "registration_open"


class RegistrationCloseView(TournamentActionView):
    action_name = "registration_close"


class StartView(TournamentActionView):
    action_name = "tournament_start"


class OrganiserAddView(WriteView):
    @extend_schema(request=s.OrganiserInputSerializer, responses={200: s.TournamentSerializer,
                   **errors(400, 401, 403, 404, 409)})  # fmt: skip
    def post(self, request: Request, pk: int) -> Response:
        """An organiser adds a co-organiser by username (400: no such user; 409: already one)."""
        data = validated(s.OrganiserInputSerializer, request)
        tournament = services.organiser_add(
            tournament=tournament_for(pk), user=request.user, username=data["username"]
        )
        return tournament_response(tournament)


class EntryListCreateView(WriteView):
    @extend_schema(responses={200: s.EntrySerializer(many=True), **errors(404)})
    def get(self, request: Request, pk: int) -> Response:
        tournament = tournament_read(request, pk)
        context = {"games_per_variant": selectors.games_per_variant(tournament)}
        entries = selectors.entry_list(tournament)
        return Response(s.EntrySerializer(entries, many=True, context=context).data)

    @extend_schema(request=s.RegisterSerializer, responses={201: s.EntrySerializer,
                   **errors(400, 401, 403, 404, 409)})  # fmt: skip
    def post(self, request: Request, pk: int) -> Response:
        data = validated(s.RegisterSerializer, request)
        player = data.pop("player", None) or (
            Player.objects.filter(user=account(request.user)).first()
        )
        if player is None:
            raise InvalidRequestError("you have no player profile; name a player to register")
        entry = services.entry_register(
            tournament=tournament_for(pk), user=request.user, player=player, **data
        )
        return Response(s.EntrySerializer(entry).data, status=status.HTTP_201_CREATED)


class EntryBulkCreateView(WriteView):
    @extend_schema(request=s.EntryBulkSerializer, responses={201: s.EntrySerializer(many=True),
                   **errors(400, 401, 403, 404, 409)})  # fmt: skip
    def post(self, request: Request, pk: int) -> Response:
        """An organiser enters several players at once, all or none (409 names the players
        already entered; a running Swiss takes them as late entries)."""
        data = validated(s.EntryBulkSerializer, request)
        entries = services.entries_register_many(
            tournament=tournament_for(pk), user=request.user, **data
        )
        return Response(s.EntrySerializer(entries, many=True).data, status=status.HTTP_201_CREATED)


class EntryWithdrawView(WriteView):
    @extend_schema(request=None, responses={200: s.EntrySerializer, **errors(401, 403, 404, 409)})
    def post(self, request: Request, pk: int, eid: int) -> Response:
        entry = services.entry_withdraw(entry=entry_for(tournament_for(pk), eid), user=request.user)
        return Response(s.EntrySerializer(entry).data)


class EntryCheckInView(WriteView):
    @extend_schema(request=None, responses={200: s.EntrySerializer, **errors(401, 403, 404, 409)})
    def post(self, request: Request, pk: int, eid: int) -> Response:
        entry = services.entry_check_in(entry=entry_for(tournament_for(pk), eid), user=request.user)
        return Response(s.EntrySerializer(entry).data)


class SeedView(WriteView):
    @extend_schema(request=s.SeedSerializer, responses={200: s.EntrySerializer(many=True),
                   **errors(400, 401, 403, 404, 409)})  # fmt: skip
    def post(self, request: Request, pk: int) -> Response:
        data = validated(s.SeedSerializer, request)
        entries = services.entries_seed(tournament=tournament_for(pk), user=request.user, **data)
        return Response(s.EntrySerializer(entries, many=True).data)


class RoundListView(APIView):
    @extend_schema(responses={200: BODY, **errors(404)})
    def get(self, request: Request, pk: int) -> Response:
        return Response(selectors.round_list(tournament_read(request, pk)))


class RoundTablesView(APIView):
    @extend_schema(parameters=[STAGE_OF_ROUND], responses={200: BODY, **errors(404)})
    def get(self, request: Request, pk: int, number: int) -> Response:
        """Round ``number`` as it is played: its matches with table numbers (table 1 the top
        pairing), then its byes. In a bracket a round is a play level (docs/decisions.md D40)."""
        tournament = tournament_read(request, pk)
        stage = request.query_params.get("stage", Stage.MAIN)
        sheet = selectors.round_tables(tournament, stage, number)
        if sheet is None:
            raise Http404(f"there is no round {number} in stage {stage}")
        return Response(sheet)


class RoundPairView(WriteView):
    @extend_schema(request=s.PairSerializer, responses={201: BODY,
                   **errors(400, 401, 403, 404, 409)})  # fmt: skip
    def post(self, request: Request, pk: int) -> Response:
        data = validated(s.PairSerializer, request)
        tournament = tournament_for(pk)
        round_ = services.swiss_round_pair(tournament=tournament, user=request.user, **data)
        rounds = selectors.round_list(tournament)
        body = next(r for r in rounds if r["stage"] == Stage.MAIN and r["number"] == round_.number)
        return Response(body, status=status.HTTP_201_CREATED)


class RoundDeadlineView(WriteView):
    @extend_schema(request=s.DeadlineSerializer, responses={200: BODY,
                   **errors(400, 401, 403, 404, 409)})  # fmt: skip
    def post(self, request: Request, pk: int, number: int) -> Response:
        data = validated(s.DeadlineSerializer, request)
        round_ = services.round_deadline_set(
            tournament=tournament_for(pk), user=request.user, number=number, **data
        )
        return Response({"stage": round_.stage, "number": round_.number,
                         "deadline": round_.deadline})  # fmt: skip


class RoundNoShowView(WriteView):
    @extend_schema(request=s.NoShowSerializer, responses={200: BODY,
                   **errors(400, 401, 403, 404, 409)})  # fmt: skip
    def post(self, request: Request, pk: int, number: int) -> Response:
        data = validated(s.NoShowSerializer, request)
        tournament = tournament_for(pk)
        absent = data.pop("absent", None)
        if absent is not None:
            absent = list(tournament.entries.filter(pk__in=absent))
        rows = services.round_forfeit_no_shows(
            tournament=tournament, user=request.user, number=number, absent=absent, **data
        )
        return Response({"forfeited": [row.key for row in rows]})


class ResultCorrectView(WriteView):
    @extend_schema(request=s.CorrectSerializer, responses={200: BODY,
                   **errors(400, 401, 403, 404, 409)})  # fmt: skip
    def post(self, request: Request, pk: int, mid: int) -> Response:
        data = validated(s.CorrectSerializer, request)
        tournament = tournament_for(pk)
        row = get_object_or_404(tournament.matches, pk=mid)
        winner = entry_for(tournament, data.pop("winner")) if "winner" in data else None
        row = services.result_correct(
            tournament=tournament, tournament_match=row, user=request.user, winner=winner, **data
        )
        return Response(selectors.match_json(row, {}, selectors.draw_seeds(tournament, row.stage)))


class BracketView(APIView):
    @extend_schema(parameters=[STAGE], responses={200: BODY, **errors(404)})
    def get(self, request: Request, pk: int) -> Response:
        stage = request.query_params.get("stage", Stage.MAIN)
        return Response(selectors.bracket(tournament_read(request, pk), stage))


# The standings tables: the main draw or the only table, the groups, the knock-out stage, and
# the consolation flight.
SECTIONS = [Section.MAIN, "group-N", Stage.KNOCKOUT, Section.CONSOLATION]
SECTION = OpenApiParameter("section", str, description=one_of(SECTIONS))


class StandingListView(APIView):
    @extend_schema(parameters=[SECTION], responses={200: s.StandingSerializer(many=True),
                   **errors(404)})  # fmt: skip
    def get(self, request: Request, pk: int) -> Response:
        rows = selectors.standing_list(
            tournament_read(request, pk), request.query_params.get("section")
        )
        return Response(s.StandingSerializer(rows, many=True).data)


CSV_HEADER = OpenApiParameter(
    "header",
    str,
    enum=["names", "keys"],
    description="names (default): column names in words and a UTF-8 byte order mark, for "
    "spreadsheets; keys: the API's field names and no mark, for scripts",
)


class StandingCsvView(APIView):
    @extend_schema(
        parameters=[CSV_HEADER],
        responses={
            200: OpenApiResponse(response=str, description="text/csv"),
            **errors(400, 404),
        },
    )
    def get(self, request: Request, pk: int) -> HttpResponse:
        tournament = tournament_read(request, pk)
        header = request.query_params.get("header", "names")
        if header not in ("names", "keys"):
            raise InvalidRequestError(f"header must be names or keys, not {header!r}")
        text = selectors.standings_csv(tournament, keys=header == "keys")
        response = HttpResponse(text, content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="standings-{tournament.pk}.csv"'
        return response


REPORT_STATUSES = [str(status) for status in ResultReport.Status]
OPEN_REPORTS = [ResultReport.Status.PENDING.value, ResultReport.Status.DISPUTED.value]
REPORT_STATUS = OpenApiParameter(
    "status",
    str,
    description=f"comma-separated, of {one_of(REPORT_STATUSES)}; default: pending,disputed",
)


class ReportListView(APIView):
    @extend_schema(
        parameters=[REPORT_STATUS],
        responses={200: s.TournamentReportSerializer(many=True), **errors(400, 404)},
    )
    def get(self, request: Request, pk: int) -> Response:
        """The result reports on the tournament's matches, oldest first: by default those
        waiting for an answer (pending and disputed), which an organiser confirms or overrides
        through the games API."""
        tournament = tournament_read(request, pk)
        text = request.query_params.get("status") or ",".join(OPEN_REPORTS)
        statuses = [part.strip() for part in text.split(",") if part.strip()]
        unknown = [status for status in statuses if status not in REPORT_STATUSES]
        if unknown or not statuses:
            raise InvalidRequestError(f"status must be {one_of(REPORT_STATUSES)}, not {text!r}")
        reports = selectors.result_reports(tournament, statuses)
        return Response(s.TournamentReportSerializer(reports, many=True).data)


class AuditLogView(generics.ListAPIView[LogEntry]):
    serializer_class = s.AuditEntrySerializer
    filterset_class = None

    def get_queryset(self) -> QuerySet[LogEntry]:
        if getattr(self, "swagger_fake_view", False):  # drf-spectacular reading the types
            none: QuerySet[LogEntry] = LogEntry.objects.none()  # auditlog ships no types
            return none
        return selectors.audit_log(tournament_read(self.request, self.kwargs["pk"]))

    @extend_schema(responses={200: s.AuditEntrySerializer(many=True), **errors(404)})
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)


class RatingListView(generics.ListAPIView[Player]):
    serializer_class = s.RatingRowSerializer

    def get_queryset(self) -> QuerySet[Player]:
        return selectors.rating_list()

    @extend_schema(responses={200: s.RatingRowSerializer(many=True), **errors(404)})
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)


class PlayerRatingView(APIView):
    @extend_schema(responses={200: s.PlayerRatingSerializer, **errors(404)})
    def get(self, request: Request, pk: int) -> Response:
        player = get_object_or_404(Player, pk=pk)
        return Response(
            s.PlayerRatingSerializer(selectors.player_ratings(player, user=request.user)).data
        )
