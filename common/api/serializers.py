"""Serializers every app's API uses: strict inputs (unknown fields are errors), JSON objects,
integer ids in range and the error body."""

from __future__ import annotations

from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers


class StrictSerializer(serializers.Serializer[Any]):
    """Rejects fields it does not know, so a typo is an error rather than silently ignored."""

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, dict):
            unknown = sorted(set(data) - set(self.fields))
            if unknown:
                raise serializers.ValidationError(
                    {name: ["unknown field"] for name in unknown}, code="unknown_field"
                )
        return super().to_internal_value(data)


@extend_schema_field(OpenApiTypes.OBJECT)
class JSONObjectField(serializers.JSONField):
    """A JSON object (a dict), e.g. rule options."""

    def to_internal_value(self, data: Any) -> Any:
        value = super().to_internal_value(data)
        if not isinstance(value, dict):
            raise serializers.ValidationError("expected a JSON object")
        return value


# The largest id an input may name: a 64-bit column's. PostgreSQL answers "no such row" for a
# larger one, but SQLite cannot even bind it (OverflowError), so ids past it are a 400.
MAX_ID = 2**63 - 1


def id_field(**kwargs: Any) -> serializers.IntegerField:
    """An integer id in an input (1..MAX_ID), for ids not checked by a PrimaryKeyRelatedField."""
    return serializers.IntegerField(min_value=1, max_value=MAX_ID, **kwargs)


def list_data(serializer: serializers.BaseSerializer[Any]) -> list[dict[str, Any]]:
    """The data of a ``many=True`` serializer, a list (DRF's stubs type a Serializer's data as
    a dict whatever ``many`` is)."""
    rows: list[dict[str, Any]] = serializer.data
    return rows


class ErrorSerializer(serializers.Serializer[Any]):
    detail = serializers.CharField()
