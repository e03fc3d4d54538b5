"""The three statements of every roll and play, in plain SQL through ``connection.cursor()``.

Every roll, play, cube action and resignation starts by loading the game with its match and both
players, locked (``FOR NO KEY UPDATE`` of the game and match rows on PostgreSQL; SQLite's
``BEGIN IMMEDIATE`` already holds the database). The queryset that says so,
``Game.objects.select_related("match", "white", "black").select_for_update(of=("self", "match"),
no_key=True).get(pk=pk)``, spends about 1 ms of CPU compiling its SQL on every call: a quarter of
a play's CPU, more than the engine's check of the play (docs/decisions.md D68). Here the same
SELECT, its two joins and its columns taken from the models' fields, is written once per database
and process, and each row becomes the same objects the queryset builds: every value passes the
field's own documented conversion (``from_db_value``, else ``to_python`` for the types the
database returns in another form, and datetimes made aware as Django's SQLite backend does), then
``Model.from_db`` builds each object and the relations are assigned as attributes.
tests/games/test_game_sql.py compares its objects with the queryset's, field by field, on both
databases.

The turn's INSERT (``turn_insert``) and the game's UPDATE (``fields_update``; the match's clock
fields too) are written once per database in the same way, their values prepared by each field's
``pre_save`` and ``get_db_prep_save`` as ``save()`` prepares them: ``save(force_insert=True)``
and ``QuerySet.update`` cost 70 to 150 µs more a call, compiling. Neither sends ``post_save``.
A roll, play or cube action writes its new turns and the game row together
(``turns_insert_with_update``): on PostgreSQL one statement, the INSERT in a ``WITH`` ahead of
the UPDATE, so a play sends BEGIN, SELECT, that statement and COMMIT, as many round trips as a
bare INSERT and UPDATE (docs/decisions.md D139).
"""

from __future__ import annotations

import datetime
from collections.abc import Callable, Sequence
from typing import Any

from django.conf import settings
from django.db import DatabaseError, connections
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import BooleanField, DateField, DateTimeField, Field, Model
from django.db.transaction import TransactionManagementError
from django.utils import timezone

from games.models import Game, Match, Turn
from players.models import Player

_MIN_KEY, _MAX_KEY = -(2**63), 2**63 - 1  # a 64-bit key column: SQLite and PostgreSQL
# The joined tables in the order of the SELECT's columns, with their aliases.
_TABLES: tuple[tuple[str, type[Model]], ...] = (
    ("g", Game),
    ("m", Match),
    ("w", Player),
    ("b", Player),
)

Reader = Callable[[Any, BaseDatabaseWrapper], Any]  # (the database's value, its connection)


def game_with_players(pk: int, *, for_update: bool = False, using: str = "default") -> Game | None:
    """Game ``pk`` with ``match``, ``white`` and ``black`` loaded (one query), or None when no
    row has that pk. ``for_update`` locks the game and match rows (``FOR NO KEY UPDATE``) and
    must run inside a transaction, as ``select_for_update`` must."""
    connection = connections[using]
    if for_update and connection.get_autocommit():
        raise TransactionManagementError(
            "select_for_update cannot be used outside of a transaction."
        )
    if not _MIN_KEY <= pk <= _MAX_KEY:  # as the queryset's lookup: no row, not a database error
        return None
    query = _query(connection, for_update)
    with connection.cursor() as cursor:
        cursor.execute(query.sql, [pk])
        row = cursor.fetchone()
    if row is None:
        return None
    values = list(row)
    for index, read in query.readers:
        values[index] = read(values[index], connection)
    objects = []
    for (_, model), (start, end), names in zip(_TABLES, query.spans, query.names, strict=True):
        objects.append(model.from_db(using, names, values[start:end]))
    game, match, white, black = objects
    assert isinstance(game, Game) and isinstance(match, Match)
    assert isinstance(white, Player) and isinstance(black, Player)
    game.match, game.white, game.black = match, white, black
    return game


class _Query:
    def __init__(self, connection: BaseDatabaseWrapper, for_update: bool) -> None:
        quote = connection.ops.quote_name
        columns: list[str] = []
        self.names: list[list[str]] = []
        self.spans: list[tuple[int, int]] = []
        self.readers: list[tuple[int, Reader]] = []
        for alias, model in _TABLES:
            fields = _concrete_fields(model)
            self.spans.append((len(columns), len(columns) + len(fields)))
            self.names.append([field.attname for field in fields])
            for field in fields:
                read = _reader(field, connection)
                if read is not None:
                    self.readers.append((len(columns), read))
                columns.append(f"{alias}.{quote(_column(field))}")

        def table(model: type[Model]) -> str:
            return quote(model._meta.db_table)

        def key(model: type[Model], name: str) -> str:
            return quote(_column(model._meta.get_field(name)))

        pk = key(Game, "id")
        self.sql = (
            f"SELECT {', '.join(columns)} FROM {table(Game)} g"
            f" INNER JOIN {table(Match)} m ON m.{key(Match, 'id')} = g.{key(Game, 'match')}"
            f" INNER JOIN {table(Player)} w ON w.{key(Player, 'id')} = g.{key(Game, 'white')}"
            f" INNER JOIN {table(Player)} b ON b.{key(Player, 'id')} = g.{key(Game, 'black')}"
            f" WHERE g.{pk} = %s"
        )
        if for_update and connection.vendor == "postgresql":
            self.sql += " FOR NO KEY UPDATE OF g, m"


_queries: dict[tuple[str, str, bool], _Query] = {}


def _query(connection: BaseDatabaseWrapper, for_update: bool) -> _Query:
    cache_key = (connection.alias, connection.vendor, for_update)
    query = _queries.get(cache_key)
    if query is None:
        query = _queries[cache_key] = _Query(connection, for_update)
    return query


def _concrete_fields(model: type[Model]) -> list[Field[Any, Any]]:
    """The model's columns, in the order ``Model.from_db`` takes them."""
    return [
        field
        for field in model._meta.get_fields()
        if isinstance(field, Field) and field.concrete and not field.many_to_many
    ]


def _column(field: Any) -> str:
    column = getattr(field, "column", None)
    assert isinstance(column, str), field
    return column


def _reader(field: Field[Any, Any], connection: BaseDatabaseWrapper) -> Reader | None:
    """How a value of ``field`` as the database returns it becomes the model's value, or None
    when it already is: the field's ``from_db_value`` (JSON), else ``to_python`` for the types
    SQLite returns as text or integers (datetimes also made aware, as its backend does)."""
    from_db_value = getattr(field, "from_db_value", None)
    if from_db_value is not None:
        return lambda value, db: from_db_value(value, None, db)
    if isinstance(field, DateTimeField):
        if connection.vendor != "sqlite":
            return None
        zone = connection.timezone or datetime.UTC
        return lambda value, _: _aware(field.to_python(value), zone)
    if isinstance(field, (BooleanField, DateField)) and connection.vendor == "sqlite":
        return lambda value, _: field.to_python(value)
    return None


def _aware(value: datetime.datetime | None, zone: datetime.tzinfo) -> datetime.datetime | None:
    if value is not None and settings.USE_TZ and timezone.is_naive(value):
        return timezone.make_aware(value, zone)
    return value


def turn_insert(turn: Turn, *, using: str = "default") -> Turn:
    """Insert the new ``turn`` (one INSERT of its columns but the key; ``created_at`` set now, as
    ``save()`` sets it) and return the stored turn, built by ``Turn.from_db`` with its new key
    and ``game`` as given. No ``post_save`` is sent: nothing listens to a turn's."""
    connection = connections[using]
    fields, sql = _insert(connection)
    values = [field.pre_save(turn, True) for field in fields]  # auto_now_add sets created_at
    params = [
        field.get_db_prep_save(value, connection)
        for field, value in zip(fields, values, strict=True)
    ]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        pk = cursor.fetchone()[0] if connection.vendor == "postgresql" else cursor.lastrowid
    stored = Turn.from_db(using, ["id", *(field.attname for field in fields)], [pk, *values])
    stored.game = turn.game
    return stored


def fields_update(obj: Game | Match, fields: Sequence[str], *, using: str = "default") -> None:
    """Write ``fields`` of ``obj``, a row that exists, by primary key: one UPDATE, values
    prepared by each field's ``get_db_prep_save`` as ``save(update_fields=...)`` prepares them.
    No ``post_save`` is sent: the play services tell the match's listeners themselves
    (games/push.py). DatabaseError when no row was changed."""
    connection = connections[using]
    model = type(obj)
    targets, sql = _update(connection, model, tuple(fields))
    params = [field.get_db_prep_save(getattr(obj, field.attname), connection) for field in targets]
    params.append(obj.pk)
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        if cursor.rowcount != 1:
            raise DatabaseError(f"{model.__name__} {obj.pk}: {cursor.rowcount} rows updated")


def turns_insert_with_update(
    turns: Sequence[Turn], game: Game, fields: Sequence[str], *, using: str = "default"
) -> list[Turn]:
    """Insert the new ``turns`` (a play's, in ply order) and write ``fields`` of ``game``, and
    return the stored turns as ``turn_insert`` returns them. On PostgreSQL one statement: the
    INSERT of every turn in a ``WITH`` ahead of the game's UPDATE, which returns the new keys
    (a round trip and a statement's work less than ``turn_insert`` then ``fields_update``);
    elsewhere (SQLite, no INSERT inside a WITH; nothing to gain without a network) those two.
    DatabaseError when no game row was changed; the turns are inserted all the same, so the
    caller's transaction must roll back, as after ``fields_update``'s error."""
    connection = connections[using]
    if connection.vendor != "postgresql" or not turns:
        stored = [turn_insert(turn, using=using) for turn in turns]
        fields_update(game, fields, using=using)
        return stored
    plies = [turn.ply for turn in turns]
    assert plies == sorted(set(plies)), plies  # the keys come back in ply order
    inserted, sql = _insert_with_update(connection, len(turns), tuple(fields))
    targets = _update(connection, Game, tuple(fields))[0]
    rows = [[field.pre_save(turn, True) for field in inserted] for turn in turns]
    params = [
        field.get_db_prep_save(value, connection)
        for values in rows
        for field, value in zip(inserted, values, strict=True)
    ]
    params += [
        field.get_db_prep_save(getattr(game, field.attname), connection) for field in targets
    ]
    params.append(game.pk)
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        if cursor.rowcount != 1:
            raise DatabaseError(f"Game {game.pk}: {cursor.rowcount} rows updated")
        keys = cursor.fetchone()[0]
    names = ["id", *(field.attname for field in inserted)]
    stored = []
    for turn, pk, values in zip(turns, keys, rows, strict=True):
        saved = Turn.from_db(using, names, [pk, *values])
        saved.game = turn.game
        stored.append(saved)
    return stored


_Statement = tuple[list[Field[Any, Any]], str]
_statements: dict[tuple[Any, ...], _Statement] = {}


def _insert_with_update(
    connection: BaseDatabaseWrapper, count: int, names: tuple[str, ...]
) -> _Statement:
    """PostgreSQL's ``WITH new AS (INSERT <count> turns RETURNING key, ply) UPDATE the game
    RETURNING the new keys in ply order``, and the turn's fields, written once per count."""
    key = ("insert-update", connection.vendor, count, names)
    if key not in _statements:
        quote = connection.ops.quote_name
        fields, insert = _insert(connection)
        head = insert.split(" VALUES ", 1)[0]
        row = "(" + ", ".join(["%s"] * len(fields)) + ")"
        pk, ply = quote(_column(Turn._meta.pk)), quote(_column(Turn._meta.get_field("ply")))
        update = _update(connection, Game, names)[1]
        sql = (
            f"WITH new AS ({head} VALUES {', '.join([row] * count)} RETURNING {pk}, {ply}) "
            f"{update} RETURNING ARRAY(SELECT {pk} FROM new ORDER BY {ply})"
        )
        _statements[key] = (fields, sql)
    return _statements[key]


def _insert(connection: BaseDatabaseWrapper) -> _Statement:
    """The turn's fields but the key, and its INSERT (RETURNING the key on PostgreSQL; SQLite's
    cursor has it as ``lastrowid``), written once per database."""
    key = ("insert", connection.vendor)
    if key not in _statements:
        quote = connection.ops.quote_name
        fields = [field for field in _concrete_fields(Turn) if not field.primary_key]
        columns = ", ".join(quote(_column(field)) for field in fields)
        marks = ", ".join(["%s"] * len(fields))
        sql = f"INSERT INTO {quote(Turn._meta.db_table)} ({columns}) VALUES ({marks})"
        if connection.vendor == "postgresql":
            sql += f" RETURNING {quote(_column(Turn._meta.pk))}"
        _statements[key] = (fields, sql)
    return _statements[key]


def _update(
    connection: BaseDatabaseWrapper, model: type[Model], names: tuple[str, ...]
) -> _Statement:
    """The fields named and the UPDATE by primary key that writes them, written once per
    database."""
    key = ("update", connection.vendor, model, names)
    if key not in _statements:
        quote = connection.ops.quote_name
        targets = [model._meta.get_field(name) for name in names]
        fields = [field for field in targets if isinstance(field, Field)]
        assert len(fields) == len(targets), names
        sets = ", ".join(f"{quote(_column(field))} = %s" for field in fields)
        pk = quote(_column(model._meta.pk))
        sql = f"UPDATE {quote(model._meta.db_table)} SET {sets} WHERE {pk} = %s"
        _statements[key] = (fields, sql)
    return _statements[key]
