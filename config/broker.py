"""The embedded broker (no REDIS_URL, as with `make run`): kombu's SQLAlchemy transport on a SQLite
file under var/, safe with several processes writing at once (the web process, beat and the worker
all queue tasks).

kombu's filesystem transport, used before, let the worker read a message file that another process
was still writing; the worker then stopped for good (JSONDecodeError, "Unrecoverable error"). In
SQLite a message is one committed INSERT: a reader sees all of it or nothing.

kombu's SQLAlchemy channel needs four changes for several processes on one SQLite file:
- the busy timeout: pysqlite waits 5 s for the write lock and then fails the publish ("database is
  locked"), which happened a few times in 900 messages from six processes; here it waits 20 s, in
  WAL mode, where readers never wait for the writer;
- a consumer took a message by marking it invisible and kept the row for ever, so each poll read
  past every message ever delivered: here it deletes it with one statement (DELETE ... RETURNING)
  under SQLite's write lock, so two consumers never get the same message;
- processes starting together on a new file raced to create the tables and the queue rows: both
  are created under the write lock, and a queue row another process created is read back;
- the engine was cached for the process and inherited across a fork: here it is cached per process.
"""

from __future__ import annotations

import os
import threading
from json import dumps, loads
from queue import Empty

from kombu.transport import sqlalchemy as kombu_sqlalchemy
from kombu.transport.sqlalchemy.models import metadata
from kombu.utils.encoding import bytes_to_str
from sqlalchemy import create_engine, delete, event, insert, select
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.orm import sessionmaker

# Seconds a statement waits for SQLite's write lock before it fails.
BUSY_TIMEOUT = 20
_engines: dict[tuple[int, str], tuple] = {}
_engines_lock = threading.Lock()


def _on_connect(dbapi_connection, _record) -> None:
    dbapi_connection.execute("PRAGMA journal_mode=WAL")
    dbapi_connection.execute("PRAGMA synchronous=NORMAL")


class Channel(kombu_sqlalchemy.Channel):
    def __init__(self, connection, **kwargs) -> None:
        self._queue_ids: dict[str, int] = {}
        super().__init__(connection, **kwargs)

    def _open(self):
        url = self.connection.client.hostname
        key = (os.getpid(), url)
        with _engines_lock:
            if key not in _engines:
                engine = create_engine(url, connect_args={"timeout": BUSY_TIMEOUT, "check_same_thread": False})
                event.listen(engine, "connect", _on_connect)
                with engine.connect() as connection:
                    # Under the write lock, so that processes starting together create the tables once.
                    connection.exec_driver_sql("BEGIN IMMEDIATE")
                    metadata.create_all(connection)
                    connection.commit()
                _engines[key] = engine, sessionmaker(bind=engine)
        return _engines[key]

    def _queue_id(self, queue: str) -> int:
        queue_id = self._queue_ids.get(queue)
        if queue_id is None:
            table = self.queue_cls.__table__
            find = select(table.c.id).where(table.c.name == queue)
            queue_id = self.session.execute(find).scalar()
            if queue_id is None:
                try:
                    self.session.execute(insert(table).values(name=queue))
                    self.session.commit()
                except IntegrityError:  # another process created it first
                    self.session.rollback()
                queue_id = self.session.execute(find).scalar_one()
            self._queue_ids[queue] = queue_id
        return queue_id

    def _get_or_create(self, queue):
        self._queue_id(queue)
        return super()._get_or_create(queue)

    def _new_queue(self, queue, **kwargs) -> None:
        self._queue_id(queue)

    def _put(self, queue, payload, **kwargs) -> None:
        table = self.message_cls.__table__
        try:
            self.session.execute(
                insert(table).values(queue_id=self._queue_id(queue), payload=dumps(payload), visible=True, version=1)
            )
            self.session.commit()
        except OperationalError:
            self.session.rollback()
            raise

    def _get(self, queue):
        table = self.message_cls.__table__
        oldest = (
            select(table.c.id)
            .where(table.c.queue_id == self._queue_id(queue), table.c.visible.is_(True))
            .order_by(table.c.id)
            .limit(1)
        )
        # A read first: an idle worker polls often, and a read takes no lock in WAL mode.
        if self.session.execute(oldest).first() is None:
            self.session.commit()
            raise Empty()
        try:
            taken = self.session.execute(
                delete(table).where(table.c.id == oldest.scalar_subquery()).returning(table.c.payload)
            ).first()
            self.session.commit()
        except OperationalError:
            self.session.rollback()
            raise
        if taken is None:  # another consumer took it between the read and the delete
            raise Empty()
        return loads(bytes_to_str(taken.payload))


class Transport(kombu_sqlalchemy.Transport):
    Channel = Channel
    # Seconds between an idle worker's looks at its queues (each an indexed read).
    polling_interval = 0.1

    def establish_connection(self):
        """Reach the file, so that a broker check (ensure_connection, /healthz) means something."""
        established = super().establish_connection()
        engine, _sessions = self._avail_channels[-1]._open()
        with engine.connect() as connection:
            connection.exec_driver_sql("SELECT 1 FROM kombu_message LIMIT 1")
        return established
