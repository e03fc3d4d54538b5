"""The play path's shortcuts give what the general code gives: PreparedGet (games/prepared.py)
the plain queryset's objects, datetime_to_json DRF's date-times."""

from datetime import UTC, datetime, timedelta, timezone

import pytest
from django.db import transaction
from django.db.transaction import TransactionManagementError
from rest_framework import serializers

from games import selectors
from games.api.serializers import datetime_to_json
from games.models import Game
from games.prepared import PreparedGet

pytestmark = pytest.mark.django_db

FIELDS = ("match", "white", "black")


def as_dict(obj) -> dict:
    return {f.attname: getattr(obj, f.attname) for f in obj._meta.concrete_fields}


def test_the_prepared_game_equals_the_querysets_field_by_field(game):
    game.dice = [6, 5]
    game.save()
    plain = Game.objects.select_related(*FIELDS).get(pk=game.pk)
    for for_update in (False, True):
        with transaction.atomic():
            prepared = selectors.game_visible(user=None, pk=game.pk, for_update=for_update)
        assert as_dict(prepared) == as_dict(plain)
        for name in FIELDS:  # loaded with the game: no further query
            assert Game._meta.get_field(name).is_cached(prepared)
            assert as_dict(getattr(prepared, name)) == as_dict(getattr(plain, name))
        assert prepared.position == plain.position and prepared.dice == [6, 5]
        assert prepared.started_at == plain.started_at and prepared.started_at.tzinfo


@pytest.mark.django_db(transaction=True)
def test_an_unknown_pk_is_none_and_a_lock_needs_a_transaction(game):
    lookup = PreparedGet(lambda: Game.objects.select_related(*FIELDS))
    assert lookup(game.pk + 1000) is None
    with pytest.raises(TransactionManagementError):
        lookup(game.pk, for_update=True)


@pytest.mark.parametrize(
    "value",
    [
        datetime(2026, 11, 22, 8, 1, 2, 345678, tzinfo=UTC),
        datetime(2026, 1, 1, tzinfo=timezone(timedelta(hours=2))),
        datetime(2026, 1, 1, 5, 0, 0, 1, tzinfo=UTC),
    ],
)
def test_answers_write_date_times_as_drf_does(value):
    assert datetime_to_json(value) == serializers.DateTimeField().to_representation(value)
