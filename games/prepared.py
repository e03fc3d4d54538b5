"""A lookup by primary key, with select_related, whose SQL is compiled once.

Django compiles a queryset's SQL every time it runs. For the game row with its match and both
players, the first query of every roll and play, compiling cost more CPU than the engine's check
of the play. ``PreparedGet`` compiles the lookup once per database and lock mode and then only
executes it, building the objects as Django's ``ModelIterable`` does. Compiled queries are kept
per thread, like Django's connections, since converters are bound to a connection. It relies on
the ORM's compiler internals (Django is pinned to 5.2 in pyproject.toml);
tests/games/test_prepared.py compares its objects with those of a plain queryset.

Why it stays (``bench/api_plays.py``, 8 clients, two sync gunicorn workers on the 2-core bench
machine, 10 s runs interleaved, 2026-11): on SQLite with every piece 365–449 verified plays/s,
p99 41–49 ms, 3.4–4.3 ms server CPU a play; with a plain ``select_related(...).get()`` instead
178–324 plays/s, p99 46–79 ms, 4.8–6.1 ms CPU. On PostgreSQL 15 222–319 plays/s against
177–272, 3.9–5.5 ms CPU against 5.1–7.6 ms. The plain ORM spends 1–2 ms a play compiling SQL,
which takes SQLite below the 300 plays/s and 50 ms p99 goal.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from django.db import DatabaseError, connections
from django.db.models import Field, Model, QuerySet
from django.db.models.query import get_related_populators
from django.db.transaction import TransactionManagementError

M = TypeVar("M", bound=Model)
_PLACEHOLDER = 987_654_321  # the pk compiled into the query, replaced by each lookup's
_MIN_KEY, _MAX_KEY = -(2**63), 2**63 - 1  # a 64-bit key column: SQLite and PostgreSQL


@dataclass(frozen=True)
class _Compiled:
    sql: str
    compiler: Any
    converters: dict[int, Any]
    init_list: list[str]
    start: int
    end: int
    populators: list[Any]


class PreparedGet(Generic[M]):
    """``PreparedGet(lambda: Game.objects.select_related("match"))(pk)`` is
    ``...get(pk=pk)``, or None when no row has that pk. ``for_update=True`` adds
    ``select_for_update(of=lock_of, no_key=True)`` and must run inside a transaction."""

    def __init__(self, queryset: Callable[[], QuerySet[M]], lock_of: tuple[str, ...] = ("self",)):
        self._queryset = queryset
        self._lock_of = lock_of
        self._local = threading.local()  # .compiled: {(alias, for_update): _Compiled}

    def __call__(self, pk: int, *, for_update: bool = False, using: str = "default") -> M | None:
        connection = connections[using]
        if for_update and connection.get_autocommit():
            raise TransactionManagementError("select_for_update needs a transaction")
        if not _MIN_KEY <= pk <= _MAX_KEY:  # as Django's lookups: no row, not a database error
            return None
        cache = self._local.__dict__.setdefault("compiled", {})
        compiled = cache.get((using, for_update))
        if compiled is None:
            compiled = cache[(using, for_update)] = self._compile(using, for_update)
        with connection.cursor() as cursor:
            cursor.execute(compiled.sql, [pk])
            row = cursor.fetchone()
        if row is None:
            return None
        if compiled.converters:
            row = next(iter(compiled.compiler.apply_converters([row], compiled.converters)))
        model = compiled.compiler.klass_info["model"]
        obj: M = model.from_db(using, compiled.init_list, row[compiled.start : compiled.end])
        for populator in compiled.populators:
            populator.populate(row, obj)
        return obj

    def _compile(self, using: str, for_update: bool) -> _Compiled:
        queryset = self._queryset().filter(pk=_PLACEHOLDER)
        if for_update:
            queryset = queryset.select_for_update(of=self._lock_of, no_key=True)
        compiler = queryset.query.get_compiler(using=using)
        sql, params = compiler.as_sql()
        if list(params) != [_PLACEHOLDER] or compiler.annotation_col_map:
            raise ValueError("PreparedGet takes a plain select_related queryset")
        select = compiler.select
        fields = compiler.klass_info["select_fields"]
        start, end = fields[0], fields[-1] + 1
        return _Compiled(
            sql=sql,
            compiler=compiler,
            converters=compiler.get_converters([s[0] for s in select[0 : compiler.col_count]]),
            init_list=[column[0].target.attname for column in select[start:end]],
            start=start,
            end=end,
            # django-stubs 6 types Django 6's call, which adds fetch_mode; 5.2 has none
            populators=get_related_populators(compiler.klass_info, select, using),  # type: ignore[call-arg]
        )


class PreparedUpdate(Generic[M]):
    """``PreparedUpdate(Game, ["ply", "position"])(game)`` does what
    ``game.save(update_fields=["ply", "position"])`` does to a row that exists: one UPDATE by
    primary key, its SQL written once per database. Values are prepared by each field's
    ``get_db_prep_save``, as Django's own UPDATE does. No save signals are sent (nothing listens
    to the models it is used for); DatabaseError when no row was changed."""

    def __init__(self, model: type[M], field_names: list[str]):
        self._fields: list[Field[Any, Any]] = []
        for field in [model._meta.get_field(name) for name in field_names]:
            if (
                not isinstance(field, Field)  # a relation's reverse side: not concrete either
                or not getattr(field, "concrete", False)
                or hasattr(field, "get_placeholder")
            ):
                raise ValueError(f"PreparedUpdate takes plain concrete fields, not {field}")
            self._fields.append(field)
        self._model = model
        self._sql: dict[str, str] = {}

    def __call__(self, obj: M, *, using: str = "default") -> None:
        connection = connections[using]
        sql = self._sql.get(using)
        if sql is None:
            quote = connection.ops.quote_name
            sets = ", ".join(f"{quote(_column(field))} = %s" for field in self._fields)
            meta = self._model._meta
            sql = self._sql[using] = (
                f"UPDATE {quote(meta.db_table)} SET {sets} WHERE {quote(_column(meta.pk))} = %s"
            )
        params = [
            field.get_db_prep_save(getattr(obj, field.attname), connection)
            for field in self._fields
        ]
        params.append(obj.pk)
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            if cursor.rowcount != 1:
                raise DatabaseError(
                    f"{self._model.__name__} {obj.pk}: {cursor.rowcount} rows updated"
                )


class PreparedInsert(Generic[M]):
    """``PreparedInsert(Turn)(turn)`` does what ``turn.save()`` does for a new object: one
    INSERT of every concrete field but an auto primary key, RETURNING the key, its SQL written
    once per database. Values go through each field's ``pre_save`` (auto_now_add) and
    ``get_db_prep_save``, as Django's own INSERT does. No save signals are sent."""

    def __init__(self, model: type[M]):
        meta = model._meta
        self._fields = [f for f in meta.concrete_fields if not f.primary_key]
        for field in self._fields:
            if hasattr(field, "get_placeholder"):
                raise ValueError(f"PreparedInsert takes plain fields, not {field}")
        self._model = model
        self._sql: dict[str, tuple[str, Any]] = {}

    def __call__(self, obj: M, *, using: str = "default") -> M:
        connection = connections[using]
        # The backends that can return columns from an INSERT have return_insert_columns and
        # fetch_returned_insert_columns; django-stubs' BaseDatabaseOperations has neither.
        ops: Any = connection.ops
        if not connection.features.can_return_columns_from_insert:
            obj.save(force_insert=True, using=using)
            return obj
        prepared = self._sql.get(using)
        if prepared is None:
            quote = connection.ops.quote_name
            meta = self._model._meta
            columns = ", ".join(quote(_column(field)) for field in self._fields)
            marks = ", ".join(["%s"] * len(self._fields))
            returning, returning_params = ops.return_insert_columns([meta.pk])
            sql = f"INSERT INTO {quote(meta.db_table)} ({columns}) VALUES ({marks}) {returning}"
            prepared = self._sql[using] = (sql, returning_params)
        sql, returning_params = prepared
        params = [
            field.get_db_prep_save(field.pre_save(obj, True), connection) for field in self._fields
        ]
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            (pk,) = ops.fetch_returned_insert_columns(cursor, returning_params)
        obj.pk = pk
        obj._state.adding = False
        obj._state.db = using
        return obj


def _column(field: Field[Any, Any] | None) -> str:
    """A concrete field's column (django-stubs allows None: a field that has none)."""
    assert field is not None and field.column is not None
    return field.column
