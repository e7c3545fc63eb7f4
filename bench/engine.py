"""The rules engines' speed, on one core.

Run from the project folder (no database, no Redis needed):

    .venv/bin/python -m bench.engine [--seconds 3]

What it measures, for each game (Scat and Scattle, 2 seats, default options), in this process
pinned to one CPU:

- median microseconds of one `apply` and of one `legal_actions`, timed call by call over the
  positions of real bot games (good against random), and of the snapshot round trip the server
  does on every move (`from_json(json.loads(...))` and `json.dumps(to_json(...))`);
- actions per second of random play, each action being `legal_actions` + a random choice +
  `apply` (target for Scat: at least 20,000 per second);
- whole bot-against-bot games per second (good against random, seats alternating), bots' thinking
  included.

It writes its figures to bench/results/engine.txt.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import time

from bench.common import Report, median
from games.engine import get_rules
from games.engine.bots import choose_action

KINDS = ("scat", "scattle")
TARGET_SCAT_ACTIONS = 20_000


def pin_to_one_core() -> str:
    try:
        cpu = min(os.sched_getaffinity(0))
        os.sched_setaffinity(0, {cpu})
        return f"pinned to CPU {cpu}"
    except (AttributeError, OSError):
        return "not pinned (sched_setaffinity unavailable)"


def bot_game(kind: str, levels: list[str], seed: str, rng: random.Random, positions: list | None = None) -> dict:
    rules = get_rules(kind)
    state = rules.new_game(len(levels), None, seed)
    while (seat := rules.to_act(state)) is not None:
        action = choose_action(kind, state, seat, levels[seat], rng)
        if positions is not None:
            positions.append((state, seat, action))
        state, _ = rules.apply(state, seat, action)
    return state


def collect_positions(kind: str, wanted: int) -> list[tuple]:
    rng = random.Random(7)
    positions: list[tuple] = []
    game = 0
    while len(positions) < wanted:
        levels = ["good", "random"] if game % 2 == 0 else ["random", "good"]
        bot_game(kind, levels, f"positions-{kind}-{game}", rng, positions)
        game += 1
    return positions[:wanted]


def time_calls(calls) -> list[float]:
    """Microseconds of each call, timed one by one."""
    clock = time.perf_counter_ns
    out = []
    for call in calls:
        start = clock()
        call()
        out.append((clock() - start) / 1000)
    return out


def per_call_medians(kind: str, positions: list[tuple]) -> dict[str, float]:
    rules = get_rules(kind)
    stored = [json.dumps(rules.to_json(state)) for state, _, _ in positions]
    return {
        "apply": median(time_calls(lambda s=s, seat=seat, a=a: rules.apply(s, seat, a) for s, seat, a in positions)),
        "legal_actions": median(
            time_calls(lambda s=s, seat=seat: rules.legal_actions(s, seat) for s, seat, _ in positions)
        ),
        "from_json(json.loads)": median(time_calls(lambda raw=raw: rules.from_json(json.loads(raw)) for raw in stored)),
        "json.dumps(to_json)": median(time_calls(lambda s=s: json.dumps(rules.to_json(s)) for s, _, _ in positions)),
    }


def random_play_rate(kind: str, seconds: float) -> tuple[float, float, int]:
    """(actions per second, games per second, actions) of random play with legal_actions on every step."""
    rules = get_rules(kind)
    rng = random.Random(11)
    actions = games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = rules.new_game(2, None, f"random-{kind}-{games}")
        games += 1
        while (seat := rules.to_act(state)) is not None:
            state, _ = rules.apply(state, seat, rng.choice(rules.legal_actions(state, seat)))
            actions += 1
    elapsed = time.perf_counter() - start
    return actions / elapsed, games / elapsed, actions


def bot_games_rate(kind: str, seconds: float) -> tuple[float, float]:
    """(games per second, actions per game) of good-against-random games."""
    rng = random.Random(13)
    games = actions = 0
    rules = get_rules(kind)
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        levels = ["good", "random"] if games % 2 == 0 else ["random", "good"]
        state = rules.new_game(2, None, f"bots-{kind}-{games}")
        while (seat := rules.to_act(state)) is not None:
            state, _ = rules.apply(state, seat, choose_action(kind, state, seat, levels[seat], rng))
            actions += 1
        games += 1
    elapsed = time.perf_counter() - start
    return games / elapsed, actions / max(games, 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="length of each throughput run")
    parser.add_argument("--positions", type=int, default=20_000, help="positions timed call by call")
    args = parser.parse_args()

    report = Report("engine", "Engine speed (bench/engine.py), one core")
    report.line(f"process: {pin_to_one_core()}")
    report.line(f"positions timed per game: {args.positions}; throughput runs: {args.seconds:.0f} s each")
    for kind in KINDS:
        positions = collect_positions(kind, args.positions)
        for name, value in per_call_medians(kind, positions).items():
            report.line(f"{kind}: median {name}: {value:.1f} us")
        rate, games, _actions = random_play_rate(kind, args.seconds)
        report.line(f"{kind}: random play, legal_actions + apply: {rate:,.0f} actions/s ({games:,.0f} games/s)")
        bot_rate, per_game = bot_games_rate(kind, args.seconds)
        report.line(
            f"{kind}: bot games (good vs random, 2 seats): {bot_rate:,.1f} games/s ({per_game:.0f} actions/game)"
        )
        if kind == "scat":
            verdict = "met" if rate >= TARGET_SCAT_ACTIONS else "MISSED"
            report.line(f"scat: target >= {TARGET_SCAT_ACTIONS:,} actions/s incl. legal_actions: {verdict}")
    report.save()


if __name__ == "__main__":
    main()
