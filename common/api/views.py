"""Helpers of every app's write views: documented error responses, validated input and the
write throttle. Errors become JSON through common.api.exceptions."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

from drf_spectacular.types import OpenApiTypes
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.settings import api_settings
from rest_framework.throttling import BaseThrottle
from rest_framework.views import APIView

from common.api.serializers import ErrorSerializer
from common.api.throttling import WriteRateThrottle


def errors(*codes: int) -> dict[int, Any]:
    """Documented error responses: 400 bodies name the bad fields, the others carry detail."""
    return {code: OpenApiTypes.OBJECT if code == 400 else ErrorSerializer for code in codes}


def validated(
    serializer_class: type[serializers.Serializer[Any]], request: Request
) -> dict[str, Any]:
    serializer = serializer_class(data=request.data)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)


class WriteView(APIView):
    # api_settings imports the classes its settings name (DRF's stubs type them as the names).
    throttle_classes = [
        *cast(Sequence[type[BaseThrottle]], api_settings.DEFAULT_THROTTLE_CLASSES),
        WriteRateThrottle,
    ]
