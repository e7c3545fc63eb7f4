"""The database out of reach (a restart, a failover): what tells it from a bug, and the answer.

While PostgreSQL cannot be reached every request answers 503 with Retry-After, in the API's error
shape under /api/ and with a short page elsewhere (config.middleware.DatabaseOutageMiddleware), and
the event streams stay open and catch up once it is back (live.streams). A database error that is
not about reaching the database (a deadlock, a constraint, bad SQL) stays what it was: a bug.

Each process keeps a gate (`gate`). When a request or a stream fails for want of the database, a
thread of the gate's own tries a connection of its own: if that fails too, the gate closes, and
from then on requests answer 503 at once instead of each waiting for a connection (the pool waits
10 s), while the thread tries again every PROBE_SECONDS and opens the gate when one works. Under
ASGI it then replaces psycopg's pool, whose own reconnection waits longer after each failure (1, 2,
4 ... s): after a minute away it could take another minute to notice the database is back. A
failure the thread's connection does not share (one connection ended by an administrator, a pool
only busy) leaves the gate open.
"""

from __future__ import annotations

import logging
import threading
import time

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.utils.http import url_has_allowed_host_and_scheme

from .api_errors import error_body

logger = logging.getLogger(__name__)

RETRY_AFTER_SECONDS = 5
PROBE_SECONDS = 0.5
CONNECT_SECONDS = 2
LOG_EVERY_SECONDS = 10.0
MESSAGE = f"The database cannot be reached for a moment; try again in {RETRY_AFTER_SECONDS} seconds."

# PostgreSQL's answers that mean "not now" rather than "not this": the connection exceptions (class
# 08), a server shutting down or starting up, and no connection slot left.
UNAVAILABLE_SQLSTATES = ("08", "57P01", "57P02", "57P03", "53300")


def database_unavailable(exc: BaseException | None) -> bool:
    """Whether `exc` (or what caused it, as Django wraps the driver's errors) says the database
    cannot be reached: refused or lost connections, a server shutting down, a pool that gave no
    connection in time or was closed."""
    import psycopg
    from psycopg_pool import PoolClosed, PoolTimeout

    seen = 0
    while exc is not None and seen < 10:
        if isinstance(exc, PoolTimeout | PoolClosed):
            return True
        if isinstance(exc, psycopg.OperationalError):
            sqlstate = exc.sqlstate
            # No SQLSTATE: the client's own report of a connection that failed or broke.
            return sqlstate is None or sqlstate.startswith(UNAVAILABLE_SQLSTATES)
        exc = exc.__cause__ or exc.__context__
        seen += 1
    return False


def reachable() -> bool:
    """Whether a new connection of our own (not the pool's) reaches the database, within seconds."""
    import psycopg
    from django.db import connections

    params = {k: v for k, v in connections["default"].get_connection_params().items() if k != "cursor_factory"}
    try:
        with psycopg.connect(**params, connect_timeout=CONNECT_SECONDS, autocommit=True) as probe:
            probe.execute("SELECT 1")
    except psycopg.Error:
        return False
    return True


class DatabaseGate:
    """Open while the database can be reached, as far as this process knows (see the module's text)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.open = True
        self.prober: threading.Thread | None = None

    def failed(self, exc: BaseException | None = None) -> None:
        """A request or a stream could not reach the database (`exc`), or waited too long for a
        connection: the gate's thread finds out whether it is away. Never waits (the streams call it
        from the event loop)."""
        with self.lock:
            if self.prober is None:
                self.prober = threading.Thread(target=self._probe, name="database-gate", daemon=True)
                self.prober.start()

    def _probe(self) -> None:
        while True:
            if reachable():
                with self.lock:
                    was_closed, self.open, self.prober = not self.open, True, None
                if was_closed:
                    fresh_pool()
                    logger.warning("The database can be reached again.")
                return
            with self.lock:
                if self.open:
                    self.open = False
                    logger.warning("The database cannot be reached: answering 503 until it can.")
            time.sleep(PROBE_SECONDS)


def fresh_pool() -> None:
    """Under ASGI: a new psycopg pool, connecting at once, for the one that may be waiting out its
    backoff. Requests still holding the old pool's connections give them back to be closed."""
    from django.db import connections

    connection = connections["default"]
    if connection.vendor == "postgresql" and connection.pool is not None:
        try:
            connection.close_pool()
        except Exception:
            logger.exception("Could not replace the database pool; it will reconnect by itself.")


gate = DatabaseGate()


class OutageLog:
    """One warning every LOG_EVERY_SECONDS while the database is away, instead of a traceback a request."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.logged_at = 0.0
        self.missed = 0

    def note(self, exc: BaseException, what: str) -> None:
        """`what` (a request, a stream's read) failed for want of the database."""
        reason = next(iter(str(exc).strip().splitlines()), "")
        self._report(f"{type(exc).__name__}: {reason}", what)

    def count(self, what: str) -> None:
        """`what` was answered 503 at once, the gate being closed."""
        self._report("the gate is closed", what)

    def _report(self, why: str, what: str) -> None:
        with self.lock:
            self.missed += 1
            now = time.monotonic()
            if now - self.logged_at < LOG_EVERY_SECONDS:
                return
            missed, self.missed, self.logged_at = self.missed, 0, now
        logger.warning("The database cannot be reached (%s): %s, %d in all since the last report.", why, what, missed)


outage_log = OutageLog()


def outage_response(request: HttpRequest, is_api: bool) -> HttpResponse:
    """503 with Retry-After: the API's error shape, or a page that needs nothing from the database."""
    if is_api:
        response: HttpResponse = JsonResponse(error_body("database_unavailable", MESSAGE), status=503)
    else:
        path = request.get_full_path()
        # Back to the same address, if it is one of ours (a path such as //elsewhere.example is not).
        retry = path if request.method == "GET" and url_has_allowed_host_and_scheme(path, allowed_hosts=None) else "/"
        page = render_to_string("503.html", {"retry_url": retry, "seconds": RETRY_AFTER_SECONDS})
        response = HttpResponse(page, status=503)
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    response["Cache-Control"] = "no-store"
    response._has_been_logged = True  # django.utils.log.log_response: OutageLog reports these
    return response


class HideOutageTracebacks(logging.Filter):
    """For the django.request logger: a request that failed because the database is away is reported
    by OutageLog, not with a traceback each."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not (record.exc_info and database_unavailable(record.exc_info[1]))
