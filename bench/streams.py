"""Event streams on one machine: thousands of open game streams while moves go on, against 2-second polling.

Run from the project folder, with PostgreSQL on 127.0.0.1:5432 (user postgres, trust auth),
`redis-server` installed and `.venv/bin/pip install -e '.[bench]'` done (for the plot):

    .venv/bin/python -m bench.streams [--streams 1000,5000] [--seconds 60] [--rate 20] [--quick]

It drops, recreates and migrates the database `slowhand_bench` (no other), then starts on core 0
(the CPU affinity they inherit, as `taskset -c 0` gives it) a private redis-server on a free port
(cache, Celery broker and the streams' pub/sub), the site as production runs it, `gunicorn
config.asgi:application -k uvicorn_worker.UvicornWorker` (one worker by default: one core) with
DJANGO_DEBUG=0 and rate limits that never bite, and a Celery worker that plays the computer
players' moves. This process, the load generator, then moves itself to core 1. PostgreSQL is the
machine's own and runs on either core.

The tables: `--games` two-seat Scat games with 99 lives each (so that none ends within the run),
one in five against the good bot. Scripted players (in this process) keep the moves at `--rate` a
second in all, the bots' included: a scripted player plays a random legal action from the detail
its own stream last brought (as the table page does), or from a GET where it has no fresh one;
the bots answer through the Celery worker as they would in production.

1. Polling, before any stream opens, the moves going on: `--pollers` clients, each the player of
   a different game on a keep-alive connection, GET /api/v1/games/{id}/ as fast as the server
   answers, first plainly, then with If-None-Match (a browser revalidating its cache gets a 304
   while nothing changed). The tables one server core holds polling every 2 s = answers/s * 2.
2. For each N of `--streams` (cumulative: the streams of a step stay open in the next), open game
   streams up to N: every player's own (SSE, with their token), then signed-in spectators spread
   evenly over the games, 20 a spectator (the most a player may hold). Then an idle window (no
   moves): the server's CPU with N streams open, and whether every stream had its keep-alives;
   then `--seconds` of moves at `--rate`. For every "move" event a stream receives it records the
   time; the latency is that time minus the move's commit, taken as its Move.created_at (set inside
   the move's transaction, a few milliseconds before COMMIT, so the latency is slightly overstated).
   A subscriber of this process on the private Redis notes when each move was published (after
   commit), which splits the latency into commit -> publish -> client.
3. Once the last moves are in (or 30 s have passed), every stream is checked against the database:
   still open, and every move of its game since it opened (its first event's id: the revision the
   game was at) received once and in order (the ids are the game's revisions, one a move).
4. At the end every stream is closed at once, as a restarting proxy would close them; when the
   browsers would come back (EventSource retries after 3 s) it counts the leases (live.leases)
   still held in Redis and tries one new stream for each spectator who had held 20.

Memory per stream: the server processes' RSS (from /proc) after N streams opened, minus before the
first opened, over N. CPU: utime+stime of the server processes (and of the Celery worker,
PostgreSQL's backends on the bench database, redis-server and this process) over each window, in
percent of one core, with each core's busy share and what processes outside the benchmark used
(other people's work on a shared machine). It also prints the server's warnings by phase. Figures
go to bench/results/streams.txt, the plots to bench/results/streams.png. About 8 minutes with the
defaults; `--quick` (small N, short windows) takes about 2."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import os
import random
import re
import tempfile
import time
from collections import Counter, deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from bench.common import (
    RESULTS,
    PrivateRedis,
    Report,
    bench_database_pids,
    bench_env,
    children_of,
    finish_axis,
    free_port,
    percentile,
    process_ticks,
    pyplot,
    reset_database,
    rss_kib,
    save_figure,
    setup_django,
    start_asgi_server,
    start_celery_worker,
    stop_group,
    wait_until,
)

SERVER_CORE = 0
CLIENT_CORE = 1
KIND = "scat"
OPTIONS = {"initial_tokens": 99}  # 99 lives: a game outlasts the run, so the tables stay the same
BOT_EVERY = 5  # one game in five is against the good bot
BOT_LEVEL = "good"
OPEN_AT_ONCE = 32  # streams being opened together (their first event not yet in)
MAX_IN_FLIGHT = 64  # scripted moves on the way at once: players send theirs however slow the server
STALE_GRACE = 1.0  # seconds a table's news may take on a stream before its player asks with a GET
SETTLE_SECONDS = 3.0
CATCH_UP = 30.0  # seconds the streams may take, after the last move, to bring it before they are checked
RECONNECT_SECONDS = 3.0  # the stream's "retry:": when EventSource opens a broken stream again
POLL_RAMP = 5.0  # seconds of each polling phase left out of the count: every poller's first answer
GOAL_STREAMS = 5000
GOAL_P95_MS = 500.0
HELD = f"all open, none dropped, no move missing, p95 < {GOAL_P95_MS:.0f} ms, the moves at 90% of the rate or more"
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


# --- HTTP from asyncio: the load generator's client, with nothing between it and the socket -------


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    body: bytes

    def json(self) -> dict:
        return json.loads(self.body) if self.body else {}


def encode_request(
    method: str, path: str, token: str, body: dict | None = None, headers: dict[str, str] | None = None
) -> bytes:
    data = json.dumps(body).encode() if body is not None else b""
    lines = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1", f"Authorization: Token {token}"]
    lines += [f"{name}: {value}" for name, value in (headers or {}).items()]
    if body is not None:
        lines += ["Content-Type: application/json", f"Content-Length: {len(data)}"]
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + data


def parse_head(head: bytes) -> tuple[int, dict[str, str]]:
    status_line, *lines = head.decode("latin-1").split("\r\n")
    headers = {}
    for line in lines:
        name, _, value = line.partition(":")
        if name:
            headers[name.strip().lower()] = value.strip()
    return int(status_line.split()[1]), headers


async def read_answer(reader: asyncio.StreamReader) -> Answer:
    status, headers = parse_head((await reader.readuntil(b"\r\n\r\n"))[:-4])
    if status in (204, 304):
        body = b""
    elif "content-length" in headers:
        body = await reader.readexactly(int(headers["content-length"]))
    else:
        body = await reader.read()
    return Answer(status, headers, body)


async def one_request(port: int, method: str, path: str, token: str, body: dict | None = None) -> Answer:
    """A request on a connection of its own (a POST is never sent twice)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        writer.write(encode_request(method, path, token, body, {"Accept": "application/json", "Connection": "close"}))
        return await read_answer(reader)
    finally:
        writer.close()


class KeepAlive:
    """One HTTP/1.1 connection kept open between GETs; opened again when the server has closed it."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def get(self, path: str, token: str, headers: dict[str, str]) -> Answer:
        try:
            return await self._get(path, token, headers)
        except (asyncio.IncompleteReadError, ConnectionError):
            self.close()  # the server closed the idle connection as the request went out: once more
            return await self._get(path, token, headers)

    async def _get(self, path: str, token: str, headers: dict[str, str]) -> Answer:
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
        self.writer.write(encode_request("GET", path, token, None, {"Accept": "application/json", **headers}))
        answer = await read_answer(self.reader)
        if answer.headers.get("connection") == "close":
            self.close()
        return answer

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None


# --- the tables and their scripted players ----------------------------------------------------------


@dataclass
class Table:
    """One game as its scripted players know it: the latest detail each human seat has had."""

    id: str
    tokens: dict[int, str]  # human seat -> its player's API key
    offset: int  # the game's revision minus its version: each move adds one to both
    version: int
    bot: bool
    details: dict[int, dict] = field(default_factory=dict)
    changed_at: float = 0.0
    busy: bool = False
    finished: bool = False

    def hear(self, version: int) -> None:
        if version > self.version:
            self.version = version
            self.changed_at = time.monotonic()

    def take(self, seat: int, detail: dict) -> None:
        known = self.details.get(seat)
        if known is None or detail["version"] >= known["version"]:
            self.details[seat] = detail
        self.hear(detail["version"])
        if detail["status"] != "active":
            self.finished = True

    def seat_to_play(self) -> int | None:
        for seat, detail in self.details.items():
            if detail["version"] == self.version and detail["is_your_turn"] and detail["legal_actions"]:
                return seat
        return None

    def seat_to_ask(self) -> int | None:
        """The human seat to GET the game as, when no stream has brought the news in time."""
        if time.monotonic() - self.changed_at < STALE_GRACE:
            return None
        fresh = [d for d in self.details.values() if d["version"] == self.version]
        if not fresh:
            return next(iter(self.tokens))
        to_act = fresh[0]["to_act"]
        if to_act in self.tokens and self.details.get(to_act, {}).get("version") != self.version:
            return to_act
        return None  # a bot is to act: its moves will say so


class Mover:
    """The scripted players: moves at `rate` a second in all, the bots' included (every move is heard
    on Redis), each from the detail its player last had."""

    def __init__(self, port: int, tables: list[Table], rate: float, heard: Callable[[], int]) -> None:
        self.port = port
        self.rate = rate
        self.heard = heard
        self.order = deque(tables)
        self.rng = random.Random(2026)
        self.in_flight = 0
        self.posted = 0
        self.gets = 0
        self.refused: Counter[str] = Counter()
        self.tasks: set[asyncio.Task] = set()

    async def drive(self, seconds: float) -> None:
        start, base, lost = time.monotonic(), self.heard(), 0.0
        while (elapsed := time.monotonic() - start) < seconds:
            due = self.rate * elapsed - (self.heard() - base) - self.in_flight - lost
            if due > self.rate:  # more than a second behind: the pace is lost, not caught up in a burst
                lost += due - 1
            elif due >= 1 and self.in_flight < MAX_IN_FLIGHT and (step := self.next_step()):
                self.start(*step)
                continue
            await asyncio.sleep(0.004)
        await asyncio.gather(*self.tasks)

    def next_step(self) -> tuple[Table, int, bool] | None:
        """The next table (in turn) whose player can move now, or must first GET the game."""
        for _ in range(len(self.order)):
            table = self.order[0]
            self.order.rotate(-1)
            if table.busy or table.finished:
                continue
            if (seat := table.seat_to_play()) is not None:
                return table, seat, False
            if (seat := table.seat_to_ask()) is not None:
                return table, seat, True
        return None

    def start(self, table: Table, seat: int, ask: bool) -> None:
        table.busy = True
        self.in_flight += 1
        task = asyncio.get_running_loop().create_task(self.play(table, seat, ask))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def play(self, table: Table, seat: int, ask: bool) -> None:
        try:
            if ask:
                self.gets += 1
                answer = await one_request(self.port, "GET", f"/api/v1/games/{table.id}/", table.tokens[seat])
                if answer.status != 200:
                    self.refused[f"GET {answer.status}"] += 1
                    return
                table.take(seat, answer.json())
                table.changed_at = time.monotonic()  # asked now: give the streams their grace again
                if table.seat_to_play() != seat:
                    return
            detail = table.details[seat]
            body = {"action": self.rng.choice(detail["legal_actions"]), "version": detail["version"]}
            answer = await one_request(self.port, "POST", f"/api/v1/games/{table.id}/moves/", table.tokens[seat], body)
            if answer.status == 201:
                self.posted += 1
                table.take(seat, answer.json()["game"])
            else:
                self.refused[f"POST {answer.status} {answer.json().get('code', '')}".strip()] += 1
                table.details.pop(seat, None)
        except (OSError, asyncio.IncompleteReadError) as exc:
            self.refused[type(exc).__name__] += 1
        finally:
            table.busy = False
            self.in_flight -= 1


def revision_of(data: bytes) -> int:
    """A game's message (live.changes): its revision alone, or the rendered change that names it."""
    return json.loads(data)["revision"] if data.startswith(b"{") else int(data)


class Publishes:
    """Every game revision the site publishes, heard on the private Redis as a stream process hears it."""

    def __init__(self, url: str, tables: dict[str, Table]) -> None:
        from live.publish import game_channel

        self.url = url
        self.tables = tables
        self.prefix = game_channel("")
        self.at: dict[tuple[str, int], float] = {}
        self.count = 0
        self.last = time.monotonic()

    async def listen(self, ready: asyncio.Event) -> None:
        import redis.asyncio as redis

        client = redis.Redis.from_url(self.url)
        async with client.pubsub() as pubsub:
            await pubsub.psubscribe(f"{self.prefix}*")
            ready.set()
            async for message in pubsub.listen():
                if message["type"] == "pmessage":
                    self.hear(message["channel"].decode(), revision_of(message["data"]))

    def hear(self, channel: str, revision: int) -> None:
        game = channel.removeprefix(self.prefix)
        self.at[(game, revision)] = time.time()
        self.count += 1
        self.last = time.monotonic()
        table = self.tables.get(game)
        if table is not None:
            table.hear(revision - table.offset)


async def drain(mover: Mover, publishes: Publishes, quiet: float = 2.0, limit: float = 30.0) -> None:
    """Wait for the last moves (a bot may still be answering) to be published."""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline and (mover.in_flight or time.monotonic() - publishes.last < quiet):
        await asyncio.sleep(0.2)


# --- the stream clients: one asyncio protocol each, reading chunked SSE -----------------------------


class StreamClient(asyncio.Protocol):
    """One open game stream. It keeps the id and arrival time of each "move" event; a player's own
    stream also hands the game's detail to the scripted players."""

    def __init__(self, table: Table, seat: int | None, token: str) -> None:
        self.table = table
        self.seat = seat
        self.token = token
        self.status: int | None = None
        self.error = ""
        self.opened_revision: int | None = None
        self.opened = asyncio.get_running_loop().create_future()
        self.ids: list[int] = []
        self.times: list[float] = []
        self.newest = 0  # the highest revision received
        self.games_later: list[int] = []  # "game" events after the first (none while the game is played)
        self.last_bytes = self.began = time.monotonic()
        self.open_seconds = math.nan  # from the connection made to the first event
        self.ended = False  # the server ended it, or the connection broke
        self.closing = False  # we closed it
        self.transport: asyncio.Transport | None = None
        self._head = b""
        self._raw = bytearray()
        self._text = bytearray()

    def request(self) -> bytes:
        headers = {"Accept": "text/event-stream"}
        return encode_request("GET", f"/api/v1/games/{self.table.id}/stream/", self.token, None, headers)

    def connection_made(self, transport: asyncio.Transport) -> None:
        self.transport = transport
        self.began = time.monotonic()
        transport.write(self.request())

    def data_received(self, data: bytes) -> None:
        now = time.time()
        self.last_bytes = time.monotonic()
        if self.status is None:
            self._head += data
            head, found, rest = self._head.partition(b"\r\n\r\n")
            if not found:
                return
            self.status, _headers = parse_head(head)
            data = rest
        if self.status != 200:
            self.error += data.decode(errors="replace")
            if not self.opened.done():
                self.opened.set_result(False)
                self.transport.close()
            return
        self._raw += data
        self._dechunk()
        self._read_events(now)

    def _dechunk(self) -> None:
        raw, pos = self._raw, 0
        while (line_end := raw.find(b"\r\n", pos)) >= 0:
            size = int(raw[pos:line_end], 16)
            if size == 0:
                self.ended = True
                break
            end = line_end + 2 + size
            if len(raw) < end + 2:
                break
            self._text += raw[line_end + 2 : end]
            pos = end + 2
        del raw[:pos]

    def _read_events(self, now: float) -> None:
        text, pos = self._text, 0
        while (end := text.find(b"\n\n", pos)) >= 0:
            self._event(bytes(text[pos:end]), now)
            pos = end + 2
        del text[:pos]

    def _event(self, block: bytes, now: float) -> None:
        if block.startswith(b":"):
            return  # a comment: the keep-alive, or the opening's
        fields = {}
        for line in block.split(b"\n"):
            name, _, value = line.partition(b":")
            fields[name] = value[1:] if value.startswith(b" ") else value
        if b"id" not in fields:
            return  # the opening "retry:" line
        event_id, event = int(fields[b"id"]), fields.get(b"event")
        if event == b"move":
            self.ids.append(event_id)
            self.times.append(now)
            self.newest = max(self.newest, event_id)
        elif event == b"game":
            if self.opened_revision is None:
                self.opened_revision = self.newest = event_id
                self.open_seconds = time.monotonic() - self.began
                self.opened.set_result(True)
            else:
                self.games_later.append(event_id)
        if self.seat is not None:
            self._tell_player(event, json.loads(fields[b"data"]))

    def _tell_player(self, event: bytes | None, data: dict) -> None:
        if event == b"game":
            self.table.take(self.seat, data)
        elif "detail" in data:
            self.table.take(self.seat, data["detail"])
        else:
            self.table.hear(data["version"])

    def connection_lost(self, exc: Exception | None) -> None:
        self.ended = True
        if not self.opened.done():
            self.opened.set_result(False)

    @property
    def dropped(self) -> bool:
        return self.opened_revision is not None and self.ended and not self.closing

    def close(self) -> None:
        self.closing = True
        if self.transport is not None:
            self.transport.close()


async def open_streams(port: int, plan: list[tuple[Table, int | None, str]]) -> tuple[list[StreamClient], float]:
    """Open the planned streams, OPEN_AT_ONCE at a time, each until its first event; (clients, seconds)."""
    loop = asyncio.get_running_loop()
    gate = asyncio.Semaphore(OPEN_AT_ONCE)
    start = time.monotonic()

    async def open_one(table: Table, seat: int | None, token: str) -> StreamClient:
        client = StreamClient(table, seat, token)
        async with gate:
            try:
                await loop.create_connection(lambda: client, "127.0.0.1", port)
                await asyncio.wait_for(client.opened, 60)
            except (OSError, TimeoutError) as exc:
                client.error = client.error or type(exc).__name__
                client.close()
        return client

    clients = await asyncio.gather(*(open_one(*item) for item in plan))
    return list(clients), time.monotonic() - start


# --- polling -----------------------------------------------------------------------------------------


@dataclass
class Polling:
    conditional: bool
    pollers: int
    seconds: float
    answers: Counter
    latencies: list[float]
    usage: dict[str, float] = field(default_factory=dict)

    @property
    def rate(self) -> float:
        return sum(n for status, n in self.answers.items() if status in (200, 304)) / self.seconds

    @property
    def tables(self) -> float:
        return self.rate * 2  # each open table asks once every 2 s


async def poll(port: int, viewers: list[tuple[str, str]], seconds: float, conditional: bool) -> Polling:
    """Each viewer GETs its game as fast as the server answers; the answers that arrive in the `seconds`
    after POLL_RAMP are counted."""
    answers: Counter[int] = Counter()
    latencies: list[float] = []
    begin = time.monotonic()
    counted_from, stop = begin + POLL_RAMP, begin + POLL_RAMP + seconds

    async def poller(game_id: str, token: str) -> None:
        connection, etag = KeepAlive(port), None
        while (sent := time.monotonic()) < stop:
            headers = {"If-None-Match": etag} if conditional and etag else {}
            try:
                answer = await connection.get(f"/api/v1/games/{game_id}/", token, headers)
                status = answer.status
                etag = answer.headers.get("etag", etag)
            except (OSError, asyncio.IncompleteReadError):
                status = 0
            if counted_from <= (arrived := time.monotonic()) <= stop:
                answers[status] += 1
                latencies.append(arrived - sent)
        connection.close()

    await asyncio.gather(*(poller(game_id, token) for game_id, token in viewers))
    return Polling(conditional, len(viewers), seconds, answers, latencies)


# --- CPU and memory, from /proc ----------------------------------------------------------------------


def core_ticks() -> dict[int, tuple[int, int]]:
    """(busy, total) CPU clock ticks of each core since boot."""
    found = {}
    with open("/proc/stat") as stat:
        for line in stat:
            name, *values = line.split()
            if name.startswith("cpu") and name != "cpu":
                numbers = [int(x) for x in values[:8]]
                found[int(name[3:])] = (sum(numbers) - numbers[3] - numbers[4], sum(numbers))
    return found


def allowed_cores(pid: int) -> str:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("Cpus_allowed_list:"):
            return line.split(":", 1)[1].strip()
    return "?"


class Usage:
    """CPU time of groups of processes over a window, in percent of one core; also each core's busy
    share, and the CPU that processes outside the benchmark (other people's work) used meanwhile."""

    def __init__(self, groups: dict[str, Callable[[], list[int]]]) -> None:
        self.groups = groups

    def _ticks(self) -> dict[str, dict[int, int]]:
        return {name: {pid: process_ticks(pid) for pid in pids()} for name, pids in self.groups.items()}

    def start(self) -> None:
        self.began, self.before, self.cores = time.monotonic(), self._ticks(), core_ticks()

    def stop(self) -> dict[str, float]:
        seconds, after, cores = time.monotonic() - self.began, self._ticks(), core_ticks()
        share, ours = {}, 0
        for name, ticks in after.items():
            used = sum(now - self.before[name].get(pid, 0) for pid, now in ticks.items())
            share[name] = 100 * used / CLOCK_TICKS / seconds
            ours += used
        machine = 0
        for core, (busy, total) in cores.items():
            was_busy, was_total = self.cores[core]
            share[f"core {core}"] = 100 * (busy - was_busy) / max(1, total - was_total)
            machine += busy - was_busy
        share["others"] = max(0.0, 100 * (machine - ours) / CLOCK_TICKS / seconds)
        share["seconds"] = seconds
        return share


def total_rss_mib(pids: list[int]) -> float:
    return sum(rss_kib(pid)[0] for pid in pids) / 1024


def thread_count(pids: list[int]) -> int:
    """The OS threads of these processes, from /proc."""
    found = 0
    for pid in pids:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("Threads:"):
                found += int(line.split()[1])
    return found


@contextlib.contextmanager
def on_cores(cores: set[int]) -> Iterator[None]:
    """Run the block on `cores`; the processes it starts keep them (as under `taskset -c`)."""
    before = os.sched_getaffinity(0)
    os.sched_setaffinity(0, cores)
    try:
        yield
    finally:
        os.sched_setaffinity(0, before)


# --- the bench database: players, spectators, games ------------------------------------------------


def make_users(prefix: str, count: int) -> list[tuple[int, str]]:
    """`count` users with an API token each: (user id, key)."""
    from accounts.models import ApiToken, User

    users = User.objects.bulk_create(
        [User(username=f"{prefix}-{i:04d}", password="!", email=f"{prefix}-{i}@example.com") for i in range(count)]
    )
    return [(user.pk, ApiToken.issue(user=user, name="bench")[1]) for user in users]


def make_tables(games: int) -> list[Table]:
    """Two-seat Scat games, started: one in BOT_EVERY against the bot, the others between two players."""
    from accounts.models import User
    from games import services
    from games.models import Game

    bots = sum(1 for i in range(games) if i % BOT_EVERY == 0)
    players = iter(make_users("player", 2 * games - bots))
    tables = []
    for i in range(games):
        bot = i % BOT_EVERY == 0
        first = next(players)
        creator = User.objects.get(pk=first[0])
        game = services.create_game(
            creator=creator, kind=KIND, num_seats=2, options=OPTIONS, bots=[BOT_LEVEL] if bot else None
        )
        tokens = {0: first[1]}
        if not bot:
            second = next(players)
            services.join_game(game_id=game.public_id, user=User.objects.get(pk=second[0]))
            tokens[1] = second[1]
        game = Game.objects.get(pk=game.pk)
        tables.append(Table(game.public_id, tokens, game.revision - game.version, game.version, bot))
    return tables


def stream_plan(tables: list[Table], spectators: list[tuple[int, str]], count: int) -> list[tuple]:
    """Who opens which stream, in order: every player's own, then spectators round the tables, each
    spectator holding as many streams as a player may."""
    from live.leases import MAX_STREAMS

    plan = [(table, seat, token) for table in tables for seat, token in table.tokens.items()]
    for i in range(max(0, count - len(plan))):
        plan.append((tables[i % len(tables)], None, spectators[i // MAX_STREAMS][1]))
    return plan[:count]


def spectators_needed(tables: list[Table], most: int) -> int:
    from live.leases import MAX_STREAMS

    players = sum(len(t.tokens) for t in tables)
    return math.ceil(max(0, most - players) / MAX_STREAMS)


def moves_of(game_ids: list[str]) -> dict[str, list[tuple[int, float, bool]]]:
    """Every move of these games: (revision, commit time as Move.created_at, by a bot), in order."""
    from django.db import connections

    from games.models import Move

    found: dict[str, list[tuple[int, float, bool]]] = {game: [] for game in game_ids}
    rows = Move.objects.filter(game__public_id__in=game_ids).order_by("game_id", "revision")
    columns = ("game__public_id", "revision", "created_at", "by_server")
    for game, revision, created, by_server in rows.values_list(*columns):
        found[game].append((revision, created.timestamp(), by_server == "bot"))
    connections.close_all()
    return found


# --- one step of N streams: audit and latencies ------------------------------------------------------


@dataclass
class Audit:
    opened: int = 0
    refused: Counter = field(default_factory=Counter)
    dropped: int = 0
    expected: int = 0
    received: int = 0
    missing: int = 0
    duplicates: int = 0  # events sent again after later ones
    streams_with_duplicates: int = 0
    out_of_order: int = 0  # first arrivals not one revision after the one before
    games_later: int = 0


def first_arrivals(stream: StreamClient) -> list[tuple[int, float]]:
    """(revision, arrival) of each move the stream received, the first time it came."""
    seen: set[int] = set()
    found = []
    for revision, arrived in zip(stream.ids, stream.times, strict=True):
        if revision not in seen:
            seen.add(revision)
            found.append((revision, arrived))
    return found


def audit(streams: list[StreamClient], moves: dict[str, list[tuple[int, float, bool]]]) -> Audit:
    """Each stream against the database: every move of its game since it opened, once and in order."""
    result = Audit()
    for stream in streams:
        if stream.opened_revision is None:
            result.refused[f"HTTP {stream.status}" if stream.status else stream.error or "no answer"] += 1
            continue
        result.opened += 1
        result.dropped += stream.dropped
        result.games_later += len(stream.games_later)
        expected = {r for r, _, _ in moves[stream.table.id] if r > stream.opened_revision}
        first = [revision for revision, _ in first_arrivals(stream)]
        result.expected += len(expected)
        result.received += len(expected.intersection(first))
        result.missing += len(expected.difference(first))
        result.duplicates += len(stream.ids) - len(first)
        result.streams_with_duplicates += len(stream.ids) > len(first)
        steps = zip([stream.opened_revision, *first], first, strict=False)
        result.out_of_order += sum(1 for before, revision in steps if revision != before + 1)
    return result


@dataclass
class Latencies:
    to_client: list[float]  # commit -> client, one per stream and move
    to_publish: list[float]  # commit -> published, one per move
    publish_to_client: list[float]
    moves: int
    bot_moves: int
    over_time: list[tuple[float, float]]  # (seconds into the window of the commit, commit -> client)


def latencies(
    streams: list[StreamClient], moves: dict, published: dict[tuple[str, int], float], window: tuple[float, float]
) -> Latencies:
    """The latencies of the moves committed within `window` (wall-clock seconds)."""
    committed = {(g, r): (t, bot) for g, rows in moves.items() for r, t, bot in rows if window[0] <= t < window[1]}
    to_client, publish_to_client, over_time = [], [], []
    for stream in streams:
        for revision, arrived in first_arrivals(stream):
            key = (stream.table.id, revision)
            if key in committed:
                to_client.append(arrived - committed[key][0])
                over_time.append((committed[key][0] - window[0], to_client[-1]))
                if key in published:
                    publish_to_client.append(arrived - published[key])
    to_publish = [published[key] - t for key, (t, _) in committed.items() if key in published]
    bots = sum(bot for _, bot in committed.values())
    return Latencies(to_client, to_publish, publish_to_client, len(committed), bots, over_time)


@dataclass
class Step:
    streams: int
    open_seconds: float
    open_p95: float
    open_cpu_ms: float  # the server's CPU per stream opened
    rss_before: float
    rss_after: float
    threads: tuple[int, int]  # the server's OS threads before the first stream opened, and with N open
    idle: dict[str, float]
    moving: dict[str, float]
    silent: int  # streams without a byte for over 15 s in the idle window (keep-alives every 10 s)
    audit: Audit
    latency: Latencies
    seconds: float
    posted: int
    gets: int
    server_said: Counter  # the server's log lines from this step's opening to its end, by message
    target_rate: float
    catch_up: float  # seconds from the end of the moves until every stream had its game's last one
    leases: int  # stream leases in Redis with the N streams open (one each, while the limit counts)

    @property
    def kib_per_stream(self) -> float:
        return (self.rss_after - self.rss_before) * 1024 / self.streams

    @property
    def bot_share(self) -> float:
        return self.latency.bot_moves / max(1, self.latency.moves)

    @property
    def p95(self) -> float:
        return percentile(self.latency.to_client, 0.95) * 1000

    @property
    def rate(self) -> float:
        return self.latency.moves / self.seconds

    @property
    def cpu_per_move_ms(self) -> float:
        """The server's CPU for one move beyond what the open streams cost while idle."""
        return (self.moving["server"] - self.idle["server"]) / 100 * self.seconds / max(1, self.latency.moves) * 1000

    @property
    def moves_per_core(self) -> float:
        """The moves a second one core could take with these streams open: what idling leaves of it,
        over the CPU of a move."""
        return (100 - self.idle["server"]) / 100 * 1000 / self.cpu_per_move_ms if self.cpu_per_move_ms > 0 else 0.0

    def met(self) -> bool:
        """The goal at this N: every stream open to the end with every move, p95 under the mark, at the
        rate asked for (within 10%: a server that cannot take the moves has not met it)."""
        a = self.audit
        held = a.opened == self.streams and not a.dropped and not a.missing
        return held and self.p95 < GOAL_P95_MS and self.rate >= 0.9 * self.target_rate


# --- the run --------------------------------------------------------------------------------------


@dataclass
class Setup:
    port: int
    redis_url: str
    tables: list[Table]
    spectators: list[tuple[int, str]]
    usage: Usage
    server_pids: Callable[[], list[int]]
    log: ServerLog


class ServerLog:
    """The server's log, read piece by piece: what it said (warnings and worse) in each phase."""

    LINE = re.compile(r"^\d{4}-\d\d-\d\d [\d:,]+ (?P<level>WARNING|ERROR|CRITICAL) (?P<logger>\S+) (?P<message>.*)$")

    def __init__(self, path: Path) -> None:
        self.path = path
        self.offset = 0

    def said(self) -> Counter:
        """The lines since the last call, counted by level, logger and message."""
        with self.path.open(errors="replace") as log:
            log.seek(self.offset)
            text = log.read()
            self.offset = log.tell()
        found: Counter[str] = Counter()
        for line in text.splitlines():
            if match := self.LINE.match(line):
                found[f"{match['level']} {match['logger']}: {match['message'][:120]}"] += 1
            elif line.startswith("Traceback"):
                found["a traceback"] += 1
        return found


async def polling(setup: Setup, mover: Mover, args, conditional: bool) -> Polling:
    """One polling phase, the moves going on, with the CPU used while the answers are counted."""
    print(f"polling ({'conditional' if conditional else 'full'} GET), moves going on", flush=True)
    viewers = [(t.id, next(iter(t.tokens.values()))) for t in setup.tables[: args.pollers]]

    async def metered() -> None:
        await asyncio.sleep(POLL_RAMP)
        setup.usage.start()

    polled, *_ = await asyncio.gather(
        poll(setup.port, viewers, args.poll_seconds, conditional), mover.drive(POLL_RAMP + args.poll_seconds), metered()
    )
    polled.usage = setup.usage.stop()
    return polled


class Run:
    """The measured part of the run, in the event loop: polling, then each step of N streams."""

    def __init__(self, setup: Setup, args: argparse.Namespace) -> None:
        self.setup = setup
        self.args = args
        self.tables = {t.id: t for t in setup.tables}
        self.publishes = Publishes(setup.redis_url, self.tables)
        self.mover = Mover(setup.port, setup.tables, args.rate, lambda: self.publishes.count)
        self.streams: list[StreamClient] = []
        self.plan = stream_plan(setup.tables, setup.spectators, max(args.streams))
        self.rss_before = 0.0
        self.threads_before = 0
        self.polling_said: Counter = Counter()

    async def measure(self) -> tuple[list[Polling], list[Step], Closing]:
        subscribed = asyncio.Event()
        listener = asyncio.get_running_loop().create_task(self.publishes.listen(subscribed))
        await subscribed.wait()
        print(f"warming up: {self.args.warm_up:.0f} s of moves", flush=True)
        await self.mover.drive(self.args.warm_up)
        polls = [await polling(self.setup, self.mover, self.args, conditional) for conditional in (False, True)]
        await drain(self.mover, self.publishes)
        self.polling_said = self.setup.log.said()  # from the start to the last poll
        self.rss_before = total_rss_mib(self.setup.server_pids())
        self.threads_before = thread_count(self.setup.server_pids())
        steps = [await self.step(count) for count in self.args.streams]
        closing = await self.close()
        listener.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await listener
        return polls, steps, closing

    async def step(self, count: int) -> Step:
        print(f"opening streams up to {count:,}", flush=True)
        usage, args = self.setup.usage, self.args
        usage.start()
        opened, open_seconds = await open_streams(self.setup.port, self.plan[len(self.streams) : count])
        opening = usage.stop()
        self.streams += opened
        await asyncio.sleep(SETTLE_SECONDS)
        rss_after = total_rss_mib(self.setup.server_pids())
        threads = (self.threads_before, thread_count(self.setup.server_pids()))

        print(f"idle: {args.idle_seconds:.0f} s with {count:,} streams open, no moves", flush=True)
        usage.start()
        await asyncio.sleep(args.idle_seconds)
        idle = usage.stop()
        silent = sum(1 for s in self.streams if not s.ended and time.monotonic() - s.last_bytes > 15)

        print(f"moves: {args.seconds:.0f} s at {args.rate:g} a second", flush=True)
        mover = self.mover
        posted, gets = mover.posted, mover.gets
        usage.start()
        began = time.time()
        await mover.drive(args.seconds)
        window = (began, time.time())
        moving = usage.stop()
        stopped = time.monotonic()
        await drain(mover, self.publishes)
        moves = await asyncio.to_thread(moves_of, list(self.tables))
        catch_up = await self.catch_up(moves) - stopped
        leases = await leases_held(self.setup.redis_url)
        step = Step(
            streams=count,
            open_seconds=open_seconds,
            open_p95=percentile([s.open_seconds for s in opened if s.opened_revision is not None], 0.95),
            open_cpu_ms=opening["server"] / 100 * opening["seconds"] / max(1, len(opened)) * 1000,
            rss_before=self.rss_before,
            rss_after=rss_after,
            threads=threads,
            idle=idle,
            moving=moving,
            silent=silent,
            audit=audit(self.streams, moves),
            latency=latencies(self.streams, moves, self.publishes.at, window),
            seconds=window[1] - window[0],
            posted=mover.posted - posted,
            gets=mover.gets - gets,
            server_said=self.setup.log.said(),
            target_rate=args.rate,
            catch_up=catch_up,
            leases=leases,
        )
        print(f"  p95 {step.p95:.0f} ms; {step.audit}", flush=True)
        return step

    async def catch_up(self, moves: dict[str, list[tuple[int, float, bool]]], limit: float = CATCH_UP) -> float:
        """When (time.monotonic()) every open stream has had the last move of its game; `limit` seconds
        from now at the latest."""
        last = {game: rows[-1][0] for game, rows in moves.items() if rows}
        deadline = time.monotonic() + limit
        while time.monotonic() < deadline:
            live = (s for s in self.streams if s.opened_revision is not None and not s.ended)
            if all(s.newest >= last.get(s.table.id, 0) for s in live):
                break
            await asyncio.sleep(0.2)
        return time.monotonic()

    async def close(self) -> Closing:
        """Close every stream at once (as a restarting proxy would); when browsers would come back
        (EventSource retries after 3 s), count the leases still held and try a new stream for each
        spectator who held the most a player may."""
        from live.leases import MAX_STREAMS

        for stream in self.streams:
            stream.close()
        await asyncio.sleep(RECONNECT_SECONDS)
        held = await leases_held(self.setup.redis_url)
        full = Counter(s.token for s in self.streams if s.seat is None)
        probes = [(self.setup.tables[0], None, token) for token, n in full.items() if n >= MAX_STREAMS]
        reopened, _ = await open_streams(self.setup.port, probes)
        for stream in reopened:
            stream.close()
        refused = Counter(f"HTTP {s.status}" for s in reopened if s.opened_revision is None)
        await asyncio.sleep(1.0)
        return Closing(len(self.streams), held, len(probes), refused, self.setup.log.said())


async def leases_held(url: str) -> int:
    """Stream leases in Redis that have not lapsed (live.leases: a sorted set a player, scored by the
    time each lease lapses)."""
    import redis.asyncio as redis

    client = redis.Redis.from_url(url)
    try:
        keys = [key async for key in client.scan_iter(match="slowhand:live:leases:*")]
        return sum([await client.zcount(key, time.time(), "+inf") for key in keys])  # those not lapsed
    finally:
        await client.aclose()


@dataclass
class Closing:
    streams: int
    leases_left: int  # RECONNECT_SECONDS after every stream closed
    probes: int  # spectators who had held MAX_STREAMS streams, each trying one new stream
    refused: Counter
    server_said: Counter


# --- the report ----------------------------------------------------------------------------------


def ms(values: list[float], share: float) -> str:
    return f"{percentile(values, share) * 1000:.0f}" if values else "-"


def table_rows(steps: list[Step]) -> list[tuple[str, list[str]]]:
    def each(text: Callable[[Step], str]) -> list[str]:
        return [text(step) for step in steps]

    def lat(values: Callable[[Step], list[float]]) -> list[str]:
        return each(lambda s: " / ".join(ms(values(s), q) for q in (0.5, 0.95, 0.99)))

    return [
        ("streams opened / refused", each(lambda s: f"{s.audit.opened:,} / {sum(s.audit.refused.values())}")),
        ("time to open the new ones (s)", each(lambda s: f"{s.open_seconds:.1f}")),
        ("  one stream's open, p95 (ms)", each(lambda s: f"{s.open_p95 * 1000:.0f}")),
        ("  server CPU per stream opened (ms)", each(lambda s: f"{s.open_cpu_ms:.1f}")),
        ("streams dropped", each(lambda s: str(s.audit.dropped))),
        ("silent > 15 s while idle", each(lambda s: str(s.silent))),
        ("moves in the window (/s)", each(lambda s: f"{s.latency.moves:,} ({s.rate:.1f}/s)")),
        ("  posted by scripted players", each(lambda s: f"{s.posted:,}")),
        ("  by the bot (Celery)", each(lambda s: f"{s.latency.bot_moves:,} ({s.bot_share:.0%})")),
        ("  GETs by scripted players", each(lambda s: str(s.gets))),
        ("events expected / received", each(lambda s: f"{s.audit.expected:,} / {s.audit.received:,}")),
        ("  all caught up, after the moves (s)", each(lambda s: f"{s.catch_up:.1f}")),
        ("events missing / out of order", each(lambda s: f"{s.audit.missing} / {s.audit.out_of_order}")),
        ("events sent twice (streams)", each(lambda s: f"{s.audit.duplicates} ({s.audit.streams_with_duplicates})")),
        ("'game' events after the first", each(lambda s: str(s.audit.games_later))),
        ("latency commit->client p50/95/99 ms", lat(lambda s: s.latency.to_client)),
        ("  max (ms)", each(lambda s: ms(s.latency.to_client, 1.0))),
        ("  commit->publish p50/95/99", lat(lambda s: s.latency.to_publish)),
        ("  publish->client p50/95/99", lat(lambda s: s.latency.publish_to_client)),
        ("server RSS before / after (MiB)", each(lambda s: f"{s.rss_before:.0f} / {s.rss_after:.0f}")),
        ("server memory per stream (KiB)", each(lambda s: f"{s.kib_per_stream:.1f}")),
        ("server OS threads before / after", each(lambda s: f"{s.threads[0]:,} / {s.threads[1]:,}")),
        ("stream leases counted in Redis", each(lambda s: f"{s.leases:,} of {s.audit.opened - s.audit.dropped:,}")),
        ("server CPU idle / moves (% core)", each(lambda s: f"{s.idle['server']:.1f} / {s.moving['server']:.1f}")),
        ("  per move, beyond idle (ms)", each(lambda s: f"{s.cpu_per_move_ms:.1f}")),
        ("  moves/s a whole core could take", each(lambda s: f"{s.moves_per_core:.1f}")),
        ("Celery worker CPU, moves", each(lambda s: f"{s.moving['celery']:.1f}")),
        ("PostgreSQL CPU idle / moves", each(lambda s: f"{s.idle['postgres']:.1f} / {s.moving['postgres']:.1f}")),
        ("redis-server CPU, moves", each(lambda s: f"{s.moving['redis']:.1f}")),
        ("load generator CPU idle / moves", each(lambda s: f"{s.idle['client']:.1f} / {s.moving['client']:.1f}")),
        ("core 0 / core 1 busy, moves", each(lambda s: f"{s.moving['core 0']:.0f} / {s.moving['core 1']:.0f}")),
        ("other processes' CPU idle / moves", each(lambda s: f"{s.idle['others']:.0f} / {s.moving['others']:.0f}")),
    ]


def print_table(report: Report, steps: list[Step]) -> None:
    rows = table_rows(steps)
    width = max(len(label) for label, _ in rows) + 2
    columns = [max(len(f"N={s.streams:,}"), *(len(v[i]) for _, v in rows)) + 2 for i, s in enumerate(steps)]
    report.line("".ljust(width) + "".join(f"N={s.streams:,}".rjust(c) for s, c in zip(steps, columns, strict=True)))
    for label, values in rows:
        report.line(label.ljust(width) + "".join(v.rjust(c) for v, c in zip(values, columns, strict=True)))


def describe_polling(report: Report, polls: list[Polling]) -> None:
    for polled in polls:
        what = "conditional GET (If-None-Match)" if polled.conditional else "full GET"
        answers = ", ".join(f"{status or 'error'}: {n:,}" for status, n in sorted(polled.answers.items()))
        report.line(
            f"  {what}: {polled.pollers} pollers, {polled.rate:,.0f} answers/s over {polled.seconds:.0f} s "
            f"(latency p50 {ms(polled.latencies, 0.5)} ms, p95 {ms(polled.latencies, 0.95)} ms; {answers}) "
            f"-> {polled.tables:,.0f} tables polling every 2 s; server CPU {polled.usage['server']:.0f}%, "
            f"load generator {polled.usage['client']:.0f}%, other processes {polled.usage['others']:.0f}%"
        )


def describe_log(report: Report, phase: str, said: Counter) -> None:
    if not said:
        report.line(f"  {phase}: nothing")
    for message, count in said.most_common(3):
        report.line(f"  {phase}: {count:,} x {message}")
    if len(said) > 3:
        report.line(f"  {phase}: and {sum(said.values()) - sum(n for _, n in said.most_common(3)):,} lines more")


def verdict(report: Report, steps: list[Step], polls: list[Polling]) -> None:
    held = [s for s in steps if s.met()]
    best = max(held, key=lambda s: s.streams) if held else None
    if best is None:
        report.line(f"streams held ({HELD}): none of the steps")
    else:
        report.line(
            f"streams held ({HELD}): {best.streams:,} "
            f"(the most tried: {max(s.streams for s in steps):,}), p95 {best.p95:.0f} ms, server "
            f"{best.moving['server']:.0f}% of its core under moves"
        )
    full, conditional = polls
    streams = "; ".join(f"{s.streams:,} open at p95 {s.p95:,.0f} ms ({s.audit.dropped} dropped)" for s in steps)
    report.line(
        f"tables on the server's core: streams {streams}; polling every 2 s: {full.tables:,.0f} (full GET, "
        f"answers p95 {ms(full.latencies, 0.95)} ms) or {conditional.tables:,.0f} (If-None-Match, p95 "
        f"{ms(conditional.latencies, 0.95)} ms) with the server saturated"
    )
    last = steps[-1].audit  # every stream of the run, each since it opened
    once = not (last.missing or last.duplicates or last.out_of_order)
    report.line(
        f"every stream received every move of its game once and in order: {'yes' if once else 'NO'} "
        f"({last.missing:,} missing, {last.duplicates:,} sent again after later ones, {last.out_of_order} out of order)"
    )
    most = steps[-1]
    report.line(
        f"the server's core with {most.streams:,} streams: {most.idle['server']:.0f}% while idle, then "
        f"{most.cpu_per_move_ms:.0f} ms a move: it could take about {most.moves_per_core:.0f} moves/s "
        f"(asked: {most.target_rate:g}), had it the core to itself (here other processes used "
        f"{most.moving['others']:.0f}% of the machine's 200%)"
    )
    goal = next((s for s in steps if s.streams >= GOAL_STREAMS), None)
    if goal is None:
        report.line(f"goal ({GOAL_STREAMS:,} streams, p95 < {GOAL_P95_MS:.0f} ms, none dropped): not tried in this run")
        return
    a = goal.audit
    report.line(
        f"goal ({GOAL_STREAMS:,} streams at {goal.target_rate:g} moves/s, p95 < "
        f"{GOAL_P95_MS:.0f} ms, none dropped): {'met' if goal.met() else 'MISSED'} ({a.opened:,} open, "
        f"p95 {goal.p95:.0f} ms, {a.dropped} dropped, {a.missing} events missing, moves at {goal.rate:.1f}/s)"
    )


def plot(steps: list[Step], polls: list[Polling], path: Path) -> None:
    plt = pyplot()
    fig, ((cdf, bars, timeline), (cpu, memory, tables)) = plt.subplots(2, 3, figsize=(14, 7), dpi=90)
    plot_cdf(cdf, steps)
    plot_percentiles(bars, steps)
    plot_timeline(timeline, steps)
    plot_cpu(cpu, steps)
    plot_memory(memory, steps)
    plot_tables(tables, steps, polls)
    fig.suptitle("Slowhand event streams: gunicorn + uvicorn worker on core 0, load generator on core 1", fontsize=10)
    save_figure(fig, path)


def plot_cdf(axis, steps: list[Step]) -> None:
    for step in steps:
        values = sorted(v * 1000 for v in step.latency.to_client)
        if values:
            axis.plot(values, [(i + 1) / len(values) for i in range(len(values))], label=f"{step.streams:,} streams")
    axis.axvline(GOAL_P95_MS, color="grey", linestyle="--", label="500 ms")
    axis.set_xscale("log")
    finish_axis(axis, xlabel="commit -> client (ms)", ylabel="share of events", title="Event latency (CDF)")


def plot_percentiles(axis, steps: list[Step]) -> None:
    x = range(len(steps))
    for offset, (share, name) in zip((-0.25, 0, 0.25), ((0.5, "p50"), (0.95, "p95"), (0.99, "p99")), strict=True):
        heights = [percentile(s.latency.to_client, share) * 1000 for s in steps]
        axis.bar([i + offset for i in x], heights, width=0.25, label=name)
    axis.axhline(GOAL_P95_MS, color="grey", linestyle="--", label="goal: p95 < 500 ms")
    axis.set_xticks(list(x), [f"{s.streams:,}\n{s.rate:.1f} moves/s" for s in steps])
    finish_axis(axis, xlabel="open streams", ylabel="commit -> client (ms)", title="Latency percentiles")


def plot_timeline(axis, steps: list[Step]) -> None:
    """The median latency of the moves committed in each second of the window: a queue that grows
    shows as a rising line."""
    for step in steps:
        by_second: dict[int, list[float]] = {}
        for at, latency in step.latency.over_time:
            by_second.setdefault(int(at), []).append(latency)
        seconds = sorted(by_second)
        medians = [percentile(by_second[t], 0.5) for t in seconds]
        axis.plot(seconds, medians, label=f"{step.streams:,} streams")
    finish_axis(axis, xlabel="second of the moves window", ylabel="median commit -> client (s)", title="Over time")


def plot_cpu(axis, steps: list[Step]) -> None:
    x = range(len(steps))
    axis.bar([i - 0.2 for i in x], [s.idle["server"] for s in steps], width=0.4, label="idle")
    axis.bar([i + 0.2 for i in x], [s.moving["server"] for s in steps], width=0.4, label="moves")
    axis.set_xticks(list(x), [f"{s.streams:,}\n{s.cpu_per_move_ms:.0f} ms a move" for s in steps])
    finish_axis(axis, xlabel="open streams", ylabel="% of one core", title="Server CPU")


def plot_memory(axis, steps: list[Step]) -> None:
    axis.plot([0] + [s.streams for s in steps], [steps[0].rss_before] + [s.rss_after for s in steps], "o-",
              label="server RSS")  # fmt: skip
    for step in steps:
        axis.annotate(
            f"{step.kib_per_stream:.0f} KiB/stream", (step.streams, step.rss_after), xytext=(-70, -14),
            textcoords="offset points", fontsize=8,
        )  # fmt: skip
    finish_axis(axis, xlabel="open streams", ylabel="MiB", title="Server memory")


def plot_tables(axis, steps: list[Step], polls: list[Polling]) -> None:
    names = [f"{s.streams:,} streams\np95 {s.p95:,.0f} ms" for s in steps]
    names += ["polling 2 s\nfull GET", "polling 2 s\nIf-None-Match"]
    heights = [s.streams for s in steps] + [p.tables for p in polls]
    colours = ["tab:green" if s.met() else "tab:red" for s in steps] + ["tab:orange", "tab:olive"]
    axis.bar(names, heights, color=colours, label="open tables")
    finish_axis(axis, xlabel="streams: green if the goal was met", ylabel="open tables", title="Tables held")
    axis.set_yscale("log")
    axis.set_ylim(1, max(heights) * 3)
    axis.tick_params(axis="x", labelsize=8)


# --- main --------------------------------------------------------------------------------------


def arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--streams", default="1000,5000", help="comma-separated numbers of open streams, rising")
    parser.add_argument("--seconds", type=float, default=60.0, help="measured seconds of moves per step")
    parser.add_argument("--rate", type=float, default=20.0, help="moves a second, in all")
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--workers", type=int, default=1, help="uvicorn workers of the server")
    parser.add_argument("--pollers", type=int, default=300)
    parser.add_argument("--poll-seconds", type=float, default=15.0)
    parser.add_argument("--idle-seconds", type=float, default=20.0)
    parser.add_argument("--warm-up", type=float, default=5.0)
    parser.add_argument("--quick", action="store_true", help="small and short, to try the script out")
    args = parser.parse_args()
    if args.quick:
        args.streams, args.seconds, args.games, args.pollers = "100,300", 10.0, 40, 40
        args.poll_seconds, args.idle_seconds, args.warm_up = 5.0, 5.0, 2.0
    args.streams = sorted(int(n) for n in args.streams.split(","))
    return args


def main() -> None:
    args = arguments()
    began = time.monotonic()
    if os.cpu_count() < 2:
        raise SystemExit("this benchmark needs two cores: one for the server, one for the load generator")
    report = Report("streams", "Event streams against 2-second polling (bench/streams.py)")
    reset_database()
    logs = Path(tempfile.mkdtemp(prefix="slowhand-bench-streams-"))
    with contextlib.ExitStack() as stack:
        with on_cores({SERVER_CORE}):
            redis = stack.enter_context(PrivateRedis())
        setup_django(REDIS_URL=redis.url())
        print(f"creating {args.games} games and their players", flush=True)
        tables = make_tables(args.games)
        spectators = make_users("spectator", spectators_needed(tables, max(args.streams)))
        from django.db import connection

        from live import leases

        connection.close()
        env = bench_env(REDIS_URL=redis.url())
        port = free_port()
        with on_cores({SERVER_CORE}):
            server = start_asgi_server(env, port, args.workers, logs / "server.log")
            stack.callback(stop_group, server)
            worker = start_celery_worker(env, logs / "celery.log", concurrency=1)
            stack.callback(stop_group, worker)
        os.sched_setaffinity(0, {CLIENT_CORE})
        wait_until(lambda: len(children_of(server.pid)) == args.workers, timeout=30)

        def server_pids() -> list[int]:
            return [server.pid, *children_of(server.pid)]

        usage = Usage(
            {
                "server": server_pids,
                "celery": lambda: [worker.pid, *children_of(worker.pid)],
                "postgres": bench_database_pids,
                "redis": lambda: [redis.process.pid],
                "client": lambda: [os.getpid()],
            }
        )
        describe_setup(report, args, tables, server_pids(), worker.pid)
        server_log = ServerLog(logs / "server.log")
        run = Run(Setup(port, redis.url(), tables, spectators, usage, server_pids, server_log), args)
        polls, steps, closing = asyncio.run(run.measure())
        celery_said = ServerLog(logs / "celery.log").said()

    report.line()
    report.line("2-second polling, same server, before any stream opened, moves going on:")
    describe_polling(report, polls)
    report.line()
    report.line(f"streams (SSE), each step: {args.idle_seconds:.0f} s idle, then {args.seconds:.0f} s of moves:")
    print_table(report, steps)
    report.line(f"scripted players' refused requests: {dict(run.mover.refused) or 'none'}")
    report.line(f"games finished during the run: {sum(t.finished for t in tables)} of {len(tables)}")
    refused = ", ".join(f"{n:,} {status}" for status, n in closing.refused.items()) or "none refused"
    report.line(
        f"all {closing.streams:,} streams closed at once: {RECONNECT_SECONDS:.0f} s later {closing.leases_left:,} "
        f"stream leases still held in Redis (live.leases; a lease lapses after {leases.LEASE_SECONDS} s); a new "
        f"stream for each of the {closing.probes} spectators who had held {leases.MAX_STREAMS}: {refused}"
    )
    report.line("the server's warnings and errors (logs under " + str(logs) + "):")
    describe_log(report, "warm-up and polling", run.polling_said)
    for step in steps:
        describe_log(report, f"N={step.streams:,}", step.server_said)
    describe_log(report, "closing", closing.server_said)
    describe_log(report, "Celery worker, whole run", celery_said)
    report.line()
    verdict(report, steps, polls)
    plot(steps, polls, RESULTS / "streams.png")
    report.line(f"plot: bench/results/streams.png; the run took {(time.monotonic() - began) / 60:.1f} minutes")
    report.save()


def describe_setup(report: Report, args, tables: list[Table], server: list[int], worker: int) -> None:
    workers = server[1:]
    report.line(
        f"server: gunicorn config.asgi:application -k uvicorn_worker.UvicornWorker, {len(workers)} worker(s) "
        f"(pids {workers}), on core {allowed_cores(workers[0]) if workers else '?'}; Celery worker (concurrency 1) "
        f"on core {allowed_cores(worker)}; load generator (this process: streams, scripted players, pollers) on "
        f"core {allowed_cores(os.getpid())}; PostgreSQL (the machine's) on either core"
    )
    bots = sum(t.bot for t in tables)
    report.line(
        f"tables: {len(tables)} two-seat {KIND} games with 99 lives ({bots} against the {BOT_LEVEL} bot); "
        f"moves {args.rate:g}/s in all; latency = arrival at the client - Move.created_at (set in the move's "
        "transaction just before COMMIT), both wall clocks of this machine"
    )


if __name__ == "__main__":
    main()
