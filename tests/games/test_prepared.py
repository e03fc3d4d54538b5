"""The play path's shortcuts give what the general code gives: PreparedGet (games/prepared.py)
the plain queryset's objects, PreparedInsert and PreparedUpdate the rows Django's save writes,
datetime_to_json DRF's date-times."""

from datetime import UTC, datetime, timedelta, timezone

import pytest
from django.db import DatabaseError, transaction
from django.db.transaction import TransactionManagementError
from rest_framework import serializers

from games import selectors
from games.api.serializers import datetime_to_json
from games.models import Game, Turn
from games.prepared import PreparedGet, PreparedInsert, PreparedUpdate

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
    assert lookup(2**100) is None  # past any key column: no row, not a database error
    with pytest.raises(TransactionManagementError):
        lookup(game.pk, for_update=True)


def _turn(game, ply, **values):
    fields = {"side": "w", "kind": "roll", "dice": [3, 1], "moves": ["8/5", "6/5"]}
    return Turn(game=game, ply=ply, position_after=game.position, **{**fields, **values})


def test_a_prepared_insert_stores_the_row_django_would(game):
    plain = _turn(game, 50, result={"winner": "w", "kind": "single", "points": 1})
    plain.save()
    prepared = PreparedInsert(Turn)(
        _turn(game, 51, result={"winner": "w", "kind": "single", "points": 1})
    )
    assert prepared.pk and prepared.pk != plain.pk and not prepared._state.adding
    assert prepared.created_at is not None  # auto_now_add, as save() sets it
    stored = Turn.objects.get(pk=prepared.pk)
    expected = {**as_dict(Turn.objects.get(pk=plain.pk)), "id": prepared.pk, "ply": 51}
    assert {**as_dict(stored), "created_at": None} == {**expected, "created_at": None}
    empty = PreparedInsert(Turn)(_turn(game, 52, moves=[], result=None))
    assert Turn.objects.filter(pk=empty.pk, result__isnull=True, moves=[]).exists()  # SQL NULL


def test_a_prepared_update_writes_only_its_fields(game):
    update = PreparedUpdate(Game, ["ply", "position", "dice"])
    game.ply, game.dice, game.idle_rolls = 7, None, 3
    game.position = {**game.position, "turn": "b"}
    update(game)
    stored = Game.objects.get(pk=game.pk)
    assert (stored.ply, stored.position["turn"], stored.dice) == (7, "b", None)
    assert Game.objects.filter(pk=game.pk, dice__isnull=True).exists()  # SQL NULL, not JSON null
    assert stored.idle_rolls == 0  # not a field of this update
    game.dice = [6, 6]
    update(game)
    assert Game.objects.get(pk=game.pk).dice == [6, 6]


def test_a_prepared_update_of_a_missing_row_fails_loudly(game):
    game.pk += 1000
    with pytest.raises(DatabaseError, match="0 rows updated"):
        PreparedUpdate(Game, ["ply"])(game)


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
