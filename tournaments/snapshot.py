"""One consistent snapshot for a read made of several queries.

Under READ COMMITTED (PostgreSQL's default) and in SQLite's autocommit, each query sees the database
as of its own start: a page read in three queries can count a player its first query did not see,
when a join commits in between. Inside `read_snapshot()` every query sees the same committed state.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from django.db import connection, transaction


@contextmanager
def read_snapshot() -> Iterator[None]:
    """Reads inside see one moment of the database; nothing inside may write. Inside a transaction
    already open, that transaction's own view holds."""
    if connection.in_atomic_block:
        yield
        return
    if connection.vendor == "sqlite":
        # The settings begin every transaction IMMEDIATE, which takes the one write lock: a reader
        # must not queue behind writers for it. A DEFERRED transaction in WAL mode reads one
        # snapshot, from its first read to its end, and never blocks a writer.
        connection.ensure_connection()
        mode = connection.transaction_mode
        connection.transaction_mode = "DEFERRED"
        try:
            with transaction.atomic():
                yield
        finally:
            connection.transaction_mode = mode
        return
    with transaction.atomic():
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
        yield
