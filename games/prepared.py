"""A lookup by primary key, with select_related, whose SQL is compiled once.

Django compiles a queryset's SQL every time it runs. For the game row with its match and both
players, the first query of every roll and play, compiling cost more CPU than the engine's check
of the play. ``PreparedGet`` compiles the lookup once per database and lock mode and then only
executes it, building the objects as Django's ``ModelIterable`` does. Compiled queries are kept
per thread, like Django's connections, since converters are bound to a connection. It relies on
the ORM's compiler internals (Django is pinned to 5.2 in pyproject.toml);
tests/games/test_prepared.py compares its objects with those of a plain queryset.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from django.db import connections
from django.db.models import Model, QuerySet
from django.db.models.query import get_related_populators
from django.db.transaction import TransactionManagementError

M = TypeVar("M", bound=Model)
_PLACEHOLDER = 987_654_321  # the pk compiled into the query, replaced by each lookup's


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
            populators=get_related_populators(compiler.klass_info, select, using),
        )
