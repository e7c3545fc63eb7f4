"""One step of N streams: each stream checked against the database, the latencies, the goal."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from bench.common import percentile
from bench.streams.clients import StreamClient

GOAL_STREAMS = 5000
GOAL_P95_MS = 500.0


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
