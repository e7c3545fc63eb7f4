"""Rows a move writes, sent to the database in one round trip.

A move appends its Move row, may close a Turn, and saves the game; each would be a statement of its
own, and on a move's path the round trips cost more than the work. On PostgreSQL a WriteBatch
sends them as one statement, the inserts and all but the last update as data-modifying CTEs
(`WITH a AS (INSERT ...), b AS (INSERT ...) UPDATE ...`), which PostgreSQL runs exactly once each.
The SQL is built from the models' own fields, with their own value conversion (and auto_now), so
it follows the models as they change. Elsewhere (SQLite) the rows are written one by one by the ORM.

Only for rows whose generated keys nobody reads back: the inserted objects keep pk None. Other
writes may join the statement as CTEs built at the flush from the items gathered under one key
(add_items), with an ORM fallback for SQLite.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from django.db import connection
from django.db.models import Model

ToCtes = Callable[[list], list[tuple[str, str, list]]]
WithOrm = Callable[[list], None]


class WriteBatch:
    def __init__(self) -> None:
        self._inserts: list[Model] = []
        self._updates: list[tuple[Model, list[str]]] = []
        self._items: dict[str, tuple[list, ToCtes, WithOrm]] = {}
        self._first: set[str] = set()

    def add_items(self, key: str, items: Iterable, to_ctes: ToCtes, with_orm: WithOrm, *, first: bool = False) -> int:
        """Items written together at the flush: on PostgreSQL as the CTEs to_ctes(items) returns,
        (name, SQL, parameters) each; elsewhere by with_orm(items). One key's items go out in one
        set of CTEs, however many calls added them. A key added `first` goes out before the others,
        so that their CTEs may read its CTEs. Returns how many items the key held before these."""
        gathered, _to_ctes, _with_orm = self._items.setdefault(key, ([], to_ctes, with_orm))
        if first:
            self._first.add(key)
        before = len(gathered)
        gathered.extend(items)
        return before

    def insert(self, instance: Model) -> None:
        self._inserts.append(instance)

    def update(self, instance: Model, fields: Iterable[str]) -> None:
        """Save `fields` of an existing row (as save(update_fields=...) would). Values are read when
        the batch is flushed."""
        fields = list(fields)
        # PostgreSQL runs the batch as one statement, in which a row updated twice takes only one
        # of the updates. The same object's updates become one; another copy of a row already in
        # the batch waits for the batch ahead of it to go out.
        for index, (queued, queued_fields) in enumerate(self._updates):
            if queued is instance:
                self._updates[index] = (queued, list(dict.fromkeys(queued_fields + fields)))
                return
            if type(queued) is type(instance) and queued.pk == instance.pk:
                self.flush()
                break
        self._updates.append((instance, fields))

    def flush(self) -> None:
        inserts, updates, first = self._inserts, self._updates, self._first
        items = dict(sorted(self._items.items(), key=lambda item: item[0] not in first))
        self._inserts, self._updates, self._items, self._first = [], [], {}, set()
        if not (inserts or updates or items):
            return
        if connection.vendor != "postgresql":
            for instance in inserts:
                type(instance).objects.bulk_create([instance])
            for instance, fields in updates:
                instance.save(update_fields=fields)
            for gathered, _to_ctes, with_orm in items.values():
                with_orm(gathered)
            return
        statements = [_insert_sql(instance) for instance in inserts] + [_update_sql(*update) for update in updates]
        parts = [(f"w{i}", sql, params) for i, (sql, params) in enumerate(statements)]
        for gathered, to_ctes, _with_orm in items.values():
            parts += to_ctes(gathered)
        sql = ", ".join(f"{name} AS ({cte_sql})" for name, cte_sql, _params in parts)
        with connection.cursor() as cursor:
            # Every write is a CTE; PostgreSQL runs each exactly once, read or not.
            cursor.execute(f"WITH {sql} SELECT 1", [param for _name, _sql, params in parts for param in params])


def _quote(name: str) -> str:
    return connection.ops.quote_name(name)


def _insert_sql(instance: Model) -> tuple[str, list]:
    meta = instance._meta
    fields = [f for f in meta.concrete_fields if not (f.primary_key and getattr(instance, f.attname) is None)]
    values = [f.get_db_prep_save(f.pre_save(instance, add=True), connection) for f in fields]
    columns = ", ".join(_quote(f.column) for f in fields)
    marks = ", ".join(["%s"] * len(fields))
    # Only the models' own table and column names go into the text, quoted; every value is a parameter.
    return f"INSERT INTO {_quote(meta.db_table)} ({columns}) VALUES ({marks})", values  # noqa: S608


def _update_sql(instance: Model, names: list[str]) -> tuple[str, list]:
    meta = instance._meta
    fields = [meta.get_field(name) for name in names]
    values = [f.get_db_prep_save(f.pre_save(instance, add=False), connection) for f in fields]
    assignments = ", ".join(f"{_quote(f.column)} = %s" for f in fields)
    key = meta.pk
    return (
        f"UPDATE {_quote(meta.db_table)} SET {assignments} WHERE {_quote(key.column)} = %s",  # noqa: S608
        [*values, key.get_db_prep_value(instance.pk, connection)],
    )
