"""The play path's plain SQL (games/sql.py) gives what the ORM gives: the game's one-query load
the plain queryset's objects, locked as ``select_for_update`` locks; the turn's INSERT and the
game's UPDATE the rows Django's save writes. And datetime_to_json gives DRF's date-times."""

import threading
from datetime import UTC, datetime, timedelta, timezone

import pytest
from django.db import DatabaseError, connection, transaction
from django.db.transaction import TransactionManagementError
from rest_framework import serializers

from games import selectors
from games.api.serializers import datetime_to_json
from games.models import Game, Match, Turn
from games.sql import fields_update, game_with_players, turn_insert, turns_insert_with_update
from players.models import Player

pytestmark = pytest.mark.django_db

FIELDS = ("match", "white", "black")


def as_dict(obj) -> dict:
    return {f.attname: getattr(obj, f.attname) for f in obj._meta.concrete_fields}


def test_the_loaded_game_equals_the_querysets_field_by_field(game):
    game.dice = [6, 5]
    game.save()
    game.match.clock_deadline = game.match.clock_turn_started_at = game.started_at
    game.match.save()
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
        assert prepared.match.clock_deadline == plain.started_at
        assert not prepared._state.adding and prepared._state.db == "default"
        for name in ("white", "black"):
            assert getattr(prepared, name) == getattr(plain, name)
            assert getattr(prepared, name) is not getattr(
                prepared, "white" if name == "black" else "black"
            )


def test_the_load_is_one_query(game, django_assert_num_queries):
    with django_assert_num_queries(1):
        loaded = game_with_players(game.pk)
        assert loaded.match.pk == game.match_id and loaded.white.display_name
        assert loaded.black.display_name


@pytest.mark.django_db(transaction=True)
def test_the_load_for_update_locks_the_game_and_match_rows_not_the_players(game):
    if connection.vendor != "postgresql":
        pytest.skip("SQLite's BEGIN IMMEDIATE holds the whole database: no row locks")
    locked: dict[str, bool] = {}

    def other_transaction() -> None:
        try:
            for model, pk in ((Game, game.pk), (Match, game.match_id), (Player, game.white_id)):
                try:
                    with transaction.atomic():
                        list(model.objects.select_for_update(nowait=True).filter(pk=pk))
                    locked[model.__name__] = False
                except DatabaseError:
                    locked[model.__name__] = True
        finally:
            connection.close()

    with transaction.atomic():
        game_with_players(game.pk, for_update=True)
        thread = threading.Thread(target=other_transaction)
        thread.start()
        thread.join(timeout=30)
    assert locked == {"Game": True, "Match": True, "Player": False}


@pytest.mark.django_db(transaction=True)
def test_an_unknown_pk_is_none_and_a_lock_needs_a_transaction(game):
    assert game_with_players(game.pk + 1000) is None
    assert game_with_players(2**100) is None  # past any key column: no row, not a database error
    with pytest.raises(TransactionManagementError):
        game_with_players(game.pk, for_update=True)


def _turn(game, ply, **values):
    fields = {"side": "w", "kind": "roll", "dice": [3, 1], "moves": ["8/5", "6/5"]}
    return Turn(game=game, ply=ply, position_after=game.position, **{**fields, **values})


def test_the_turns_insert_stores_the_row_django_would(game):
    plain = _turn(game, 50, result={"winner": "w", "kind": "single", "points": 1})
    plain.save()
    prepared = turn_insert(_turn(game, 51, result={"winner": "w", "kind": "single", "points": 1}))
    assert prepared.pk and prepared.pk != plain.pk and not prepared._state.adding
    assert prepared.created_at is not None  # auto_now_add, as save() sets it
    stored = Turn.objects.get(pk=prepared.pk)
    expected = {**as_dict(Turn.objects.get(pk=plain.pk)), "id": prepared.pk, "ply": 51}
    assert {**as_dict(stored), "created_at": None} == {**expected, "created_at": None}
    assert prepared.game is game and prepared.result == {
        "winner": "w",
        "kind": "single",
        "points": 1,
    }
    empty = turn_insert(_turn(game, 52, moves=[], result=None))
    assert Turn.objects.filter(pk=empty.pk, result__isnull=True, moves=[]).exists()  # SQL NULL


def test_the_update_writes_only_its_fields(game):
    def update(game):
        fields_update(game, ["ply", "position", "dice"])

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


def test_the_turns_and_the_game_are_written_in_one_statement_on_postgresql(
    game, django_assert_num_queries
):
    """A play's write: its turns as turn_insert stores them, the game's fields as
    fields_update writes them; one statement on PostgreSQL, the two kinds on SQLite."""
    game.ply, game.dice = 60, [3, 1]
    turns = [
        _turn(game, 58, result=None),
        _turn(game, 59, moves=[], result={"winner": "w", "kind": "single", "points": 1}),
    ]
    one_statement = connection.vendor == "postgresql"
    with django_assert_num_queries(1 if one_statement else 3):
        stored = turns_insert_with_update(turns, game, ["ply", "dice"])
    assert [turn.ply for turn in stored] == [58, 59]
    for prepared, turn in zip(stored, turns, strict=True):
        assert prepared.pk and not prepared._state.adding and prepared.game is game
        assert prepared.created_at is not None
        row = Turn.objects.get(pk=prepared.pk)
        assert as_dict(row) == as_dict(prepared)
        assert (row.ply, row.moves, row.result) == (turn.ply, turn.moves, turn.result)
    assert Turn.objects.filter(pk=stored[0].pk, result__isnull=True).exists()  # SQL NULL
    assert stored[0].pk < stored[1].pk
    row = Game.objects.get(pk=game.pk)
    assert (row.ply, row.dice) == (60, [3, 1])
    with django_assert_num_queries(1):  # no turn: the UPDATE alone
        assert turns_insert_with_update([], game, ["ply"]) == []


def test_the_turns_and_a_missing_game_fail_loudly(game):
    turn = _turn(game, 70, result=None)
    game.pk += 1000
    with pytest.raises(DatabaseError, match="0 rows updated"), transaction.atomic():
        turns_insert_with_update([turn], game, ["ply"])


def test_an_update_of_a_missing_row_fails_loudly(game):
    game.pk += 1000
    with pytest.raises(DatabaseError, match="0 rows updated"):
        fields_update(game, ["ply"])


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
