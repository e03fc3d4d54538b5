"""The project's URLs and one bare DRF write: the yardstick of a play's CPU in
bench/api_plays.py.

``POST /bench/bare/<game>/`` with ``{"ply": n, "position": {...}}``: token authentication, the
write views' throttles and permission, a one-field serializer, then in one transaction 1 INSERT
(a Turn, ``objects.create``) and 1 UPDATE (the game's ply and position, ``QuerySet.update``), and
a two-key JSON answer. The same middleware as every request; no read of the game, no engine."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.urls import path
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from common.api.views import WriteView, validated
from config.urls import urlpatterns as project
from games.models import Game, Turn


class BareSerializer(serializers.Serializer[Any]):
    ply = serializers.IntegerField(min_value=0)
    position = serializers.JSONField()


class BareWriteView(WriteView):
    def post(self, request: Request, pk: int) -> Response:
        data = validated(BareSerializer, request)
        with transaction.atomic():
            turn = Turn.objects.create(
                game_id=pk,
                ply=data["ply"],
                side="w",
                kind=Turn.Kind.ROLL,
                dice=[6, 5],
                moves=["24/18", "13/8"],
                position_after=data["position"],
            )
            Game.objects.filter(pk=pk).update(ply=data["ply"] + 1, position=data["position"])
        return Response({"id": turn.pk, "ply": data["ply"] + 1})


urlpatterns = [*project, path("bench/bare/<int:pk>/", BareWriteView.as_view())]
