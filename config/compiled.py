"""Querysets whose SQL is built once: the reads every move makes.

Building a SELECT's SQL (the columns of each model a select_related joins, the joins, the WHERE)
costs more of a core than PostgreSQL takes to run it: on a move's path, the token, the locked game
and its seats with their players were about a millisecond of each move. A CompiledQuery builds its
queryset once per database, with placeholders for the values that change, and keeps the SQL, the
columns and their converters; each call then only puts its values into the parameters and lets
Django's own ModelIterable make the instances (select_related, known related objects and all), so
the rows come out as the plain queryset's would. Only for querysets without prefetches, whose
parameters each hold one placeholder as is (a string or an integer compared for equality).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from django.db import DEFAULT_DB_ALIAS, connections
from django.db.models import Model, QuerySet
from django.db.transaction import TransactionManagementError

_compiler_classes: dict[type, type] = {}


def _placeholder(kind: type, index: int) -> Any:
    if kind is int:
        return -(2**62) - index  # a value no key takes
    if kind is str:
        return f"\x00compiled placeholder {index}\x00"
    raise TypeError(f"a CompiledQuery's values are strings or integers, not {kind.__name__}")


class _Prepared:
    """The parts of one compiled queryset on one database."""

    def __init__(self, queryset: QuerySet, placeholders: list[Any], using: str) -> None:
        compiler = queryset.query.get_compiler(using=using)
        sql, params = compiler.as_sql()
        params = list(params)
        self.positions = []
        for placeholder in placeholders:
            found = [i for i, param in enumerate(params) if type(param) is type(placeholder) and param == placeholder]
            if len(found) != 1:
                raise ValueError(f"a CompiledQuery's value must appear once among its parameters, not {len(found)}")
            self.positions.append(found[0])
        self.sql, self.params = sql, params
        self.select, self.klass_info = compiler.select, compiler.klass_info
        self.annotation_col_map, self.col_count = compiler.annotation_col_map, compiler.col_count
        self.has_extra_select = compiler.has_extra_select
        self.converters = compiler.get_converters([s[0] for s in compiler.select[: compiler.col_count]])
        connection = connections[using]
        self.select_for_update = queryset.query.select_for_update and connection.features.has_select_for_update
        self.compiler_class = _compiler_class(type(compiler))
        # The shell the calls iterate: never evaluated itself (each call iterates a copy).
        self.queryset = queryset

    def compiler(self, query, connection, using: str, values: tuple) -> Any:
        params = list(self.params)
        for position, value in zip(self.positions, values, strict=True):
            params[position] = value
        return self.compiler_class(query, connection, using, self, params)


def _compiler_class(base: type) -> type:
    """The backend's SQLCompiler, answering with SQL and columns built before."""
    if base not in _compiler_classes:

        class PreparedCompiler(base):
            def __init__(self, query, connection, using, prepared: _Prepared, params: list) -> None:
                super().__init__(query, connection, using)
                self.prepared, self.prepared_params = prepared, params
                self.select, self.klass_info = prepared.select, prepared.klass_info
                self.annotation_col_map, self.col_count = prepared.annotation_col_map, prepared.col_count
                self.has_extra_select = prepared.has_extra_select

            def as_sql(self, *args, **kwargs):
                # The one check of as_sql that depends on the moment, not on the query.
                if self.prepared.select_for_update and self.connection.get_autocommit():
                    raise TransactionManagementError("select_for_update cannot be used outside of a transaction.")
                return self.prepared.sql, self.prepared_params

            def get_converters(self, expressions):
                return self.prepared.converters

        _compiler_classes[base] = PreparedCompiler
    return _compiler_classes[base]


def _shallow_copy(instance):
    # Not copy.copy: a QuerySet's pickling state would evaluate it.
    twin = object.__new__(type(instance))
    twin.__dict__ = instance.__dict__.copy()
    return twin


class CompiledQuery:
    """`build(*values)` gives the queryset; `rows(*values)` runs it with the SQL built once.

    BY_NAME = CompiledQuery(lambda name: User.objects.filter(username=name), str)
    users = BY_NAME.rows("alice")
    """

    def __init__(self, build: Callable[..., QuerySet], *kinds: type) -> None:
        self.build, self.kinds = build, kinds
        self._prepared: dict[tuple[str, str], _Prepared] = {}
        self._lock = threading.Lock()

    def _for(self, using: str) -> _Prepared:
        connection = connections[using]
        key = (using, connection.vendor)
        prepared = self._prepared.get(key)
        if prepared is None:
            with self._lock:
                placeholders = [_placeholder(kind, i) for i, kind in enumerate(self.kinds)]
                queryset = self.build(*placeholders)
                if queryset._prefetch_related_lookups:
                    raise ValueError("a CompiledQuery cannot prefetch")
                prepared = self._prepared[key] = _Prepared(queryset, placeholders, using)
        return prepared

    def rows(self, *values: Any, known_related: dict | None = None, using: str = DEFAULT_DB_ALIAS) -> list[Model]:
        """The instances, as list(build(*values)) would give them. `known_related` is the queryset's
        _known_related_objects ({foreign key: {pk: instance}}), as a related manager sets it."""
        for kind, value in zip(self.kinds, values, strict=True):
            if type(value) is not kind:
                raise TypeError(f"expected {kind.__name__}, got {type(value).__name__}")
        prepared = self._for(using)
        connection = connections[using]
        queryset = _shallow_copy(prepared.queryset)
        query = queryset.query = _shallow_copy(prepared.queryset.query)
        compiler = prepared.compiler(query, connection, using, values)
        query.get_compiler = lambda using=None, connection=None, elide_empty=True: compiler
        queryset._db = using
        if known_related:
            queryset._known_related_objects = known_related
        return list(queryset._iterable_class(queryset))
