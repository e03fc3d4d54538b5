"""HTTP endpoints of the players API: each validates input, calls one service or selector, and
serializes the result. Service errors become JSON through common.api.exceptions."""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import generics, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from common.api.views import WriteView, errors, validated
from players import selectors, services
from players.api import serializers as s
from players.api.filters import PlayerFilter
from players.models import Player
from players.services import NewPlayer


def player_for_pk(pk: int) -> Player:
    return get_object_or_404(selectors.player_list(), pk=pk)


class PlayerListCreateView(generics.ListAPIView[Player], WriteView):
    serializer_class = s.PlayerSerializer
    filterset_class = PlayerFilter

    def get_queryset(self) -> Any:
        return selectors.player_list().filter(computer="")  # D131: no computers

    @extend_schema(responses={200: s.PlayerSerializer(many=True), **errors(400, 404)})
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)

    @extend_schema(
        request=s.PlayerInputSerializer,
        responses={201: s.PlayerSerializer, **errors(400, 401, 403, 409)},
    )
    def post(self, request: Request) -> Response:
        """An organiser enters a player without an account (409: the club has a player of
        that name already, unless ``allow_duplicate``)."""
        data = validated(s.PlayerInputSerializer, request)
        player = services.player_create(user=request.user, new=NewPlayer(**data))
        return Response(s.PlayerSerializer(player).data, status=status.HTTP_201_CREATED)


class PlayerBulkCreateView(WriteView):
    @extend_schema(
        request=s.PlayerBulkInputSerializer,
        responses={201: s.PlayerSerializer(many=True), **errors(400, 401, 403, 409)},
    )
    def post(self, request: Request) -> Response:
        """An organiser enters up to 200 players at once: all of them, or none (a 409 names
        the first row that repeats a player, e.g. "players[2]: ...", counted from 0)."""
        data = validated(s.PlayerBulkInputSerializer, request)
        rows = [NewPlayer(**row) for row in data["players"]]
        players = services.player_create_many(user=request.user, rows=rows)
        return Response(s.PlayerSerializer(players, many=True).data, status=status.HTTP_201_CREATED)


class PlayerDetailView(APIView):
    @extend_schema(responses={200: s.PlayerSerializer, **errors(404)})
    def get(self, request: Request, pk: int) -> Response:
        return Response(s.PlayerSerializer(player_for_pk(pk)).data)


class ClaimCodeCreateView(WriteView):
    @extend_schema(
        request=None, responses={201: s.ClaimCodeSerializer, **errors(401, 403, 404, 409)}
    )
    def post(self, request: Request, pk: int) -> Response:
        """An organiser gets a claim code for a player without an account, valid for 14 days;
        an earlier code of that player stops working."""
        issued = services.claim_code_create(user=request.user, player=player_for_pk(pk))
        data = s.ClaimCodeSerializer(issued, context={"request": request}).data
        return Response(data, status=status.HTTP_201_CREATED)


class PlayerClaimView(WriteView):
    @extend_schema(
        request=s.ClaimInputSerializer,
        responses={200: s.PlayerSerializer, **errors(400, 401, 403, 409)},
    )
    def post(self, request: Request) -> Response:
        """A logged-in user without a player redeems a claim code: the player becomes theirs
        (400: a wrong or expired code; 409: you have a player, or it has an account)."""
        data = validated(s.ClaimInputSerializer, request)
        player = services.player_claim(user=request.user, code=data["code"])
        return Response(s.PlayerSerializer(player).data)
