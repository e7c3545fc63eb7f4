"""How long pairing a Swiss round of 1,000 players takes (tournaments.pairing, pure Python).

Run from the project folder (no database needed):

    .venv/bin/python -m bench.tournament_pairing

For several table sizes it times `pair_round` for round 1 (everyone on 0 points, no history) and
for round 6 (points and the history of five earlier rounds, played out with random places, and a
few blocks), the median of several runs, and checks each pairing (everyone seated once, no blocked
table) and counts its repeat meetings. It writes its figures to bench/results/tournament_pairing.txt.
"""

from __future__ import annotations

import random
import statistics
import time
from fractions import Fraction
from itertools import combinations

from bench.common import RESULTS, ROOT, load_average, machine, wait_for_quiet
from tournaments.pairing import Contender, meetings, pair_key, pair_round
from tournaments.scoring import table_points

PLAYERS = 1000
TABLE_SIZES = (2, 3, 4, 6, 9)
EARLIER_ROUNDS = 5
RUNS = 5


def play_rounds(size: int, rng: random.Random) -> tuple[list[Contender], dict, set]:
    """Five rounds paired and 'played' (random places), as a tournament would have them."""
    points = {p: Fraction(0) for p in range(PLAYERS)}
    byes = dict.fromkeys(range(PLAYERS), 0)
    played: list[tuple] = []
    blocks = {pair_key(*rng.sample(range(PLAYERS), 2)) for _ in range(50)}
    for _ in range(EARLIER_ROUNDS):
        field = contenders(points, byes, rng)
        pairing = pair_round(field, table_size=size, history=meetings(played), blocks=blocks)
        for table in pairing.tables:
            places = list(range(1, len(table.players) + 1))
            rng.shuffle(places)
            for player, worth in zip(table.players, table_points(places, [False] * len(places), size), strict=True):
                points[player] += worth
            played.append(table.players)
        for player in pairing.byes:
            points[player] += Fraction(size - 1, 2)
            byes[player] += 1
    return contenders(points, byes, rng), meetings(played), blocks


def contenders(points: dict, byes: dict, rng: random.Random) -> list[Contender]:
    order = sorted(points, key=lambda p: (-points[p], p))
    return [Contender(p, points[p], byes[p]) for p in order]


def timed(field, size: int, history: dict, blocks: set) -> tuple[float, object]:
    times, pairing = [], None
    for _ in range(RUNS):
        start = time.perf_counter()
        pairing = pair_round(field, table_size=size, history=history, blocks=blocks)
        times.append(time.perf_counter() - start)
    return statistics.median(times), pairing


def check(pairing, history: dict, blocks: set) -> int:
    seated = pairing.seated() + list(pairing.byes)
    assert sorted(seated) == list(range(PLAYERS)), "someone is missing or seated twice"
    for table in pairing.tables:
        assert not any(pair_key(a, b) in blocks for a, b in combinations(table.players, 2)), "a blocked table"
    return sum(history.get(pair_key(a, b), 0) for t in pairing.tables for a, b in combinations(t.players, 2))


def main() -> None:
    lines: list[str] = []

    def line(text: str = "") -> None:
        print(text, flush=True)
        lines.append(text)

    waited = wait_for_quiet()
    line("== Tournament pairing (bench/tournament_pairing.py): a Swiss round of 1,000 players")
    if waited:
        line(waited)
    line(f"machine: {machine()}")
    line(f"date: {time.strftime('%Y-%m-%d %H:%M:%S %Z')}; {load_average()}")
    line(f"median of {RUNS} runs; round 6 after {EARLIER_ROUNDS} rounds with random places and 50 blocked pairs")
    for size in TABLE_SIZES:
        rng = random.Random(size)
        first = [Contender(p) for p in range(PLAYERS)]
        seconds, pairing = timed(first, size, {}, set())
        check(pairing, {}, set())
        tables, byes = len(pairing.tables), len(pairing.byes)
        line(f"tables of {size}: round 1: {seconds * 1000:.1f} ms ({tables} tables, {byes} byes)")
        field, history, blocks = play_rounds(size, rng)
        seconds, pairing = timed(field, size, history, blocks)
        repeats = check(pairing, history, blocks)
        line(
            f"tables of {size}: round 6: {seconds * 1000:.1f} ms ({len(pairing.tables)} tables, "
            f"{len(pairing.byes)} byes, {repeats} repeat meetings)"
        )
    line(f"at the end: {load_average()}")
    RESULTS.mkdir(parents=True, exist_ok=True)
    path = RESULTS / "tournament_pairing.txt"
    path.write_text("\n".join(lines) + "\n")
    print(f"(saved {path.relative_to(ROOT)})", flush=True)


if __name__ == "__main__":
    main()
