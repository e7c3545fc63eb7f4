"""How much better the good bot plays than the random one, and the expert than the good one.

Run from the project folder (no database needed):

    .venv/bin/python -m bench.bots [--games 2000] [--expert-games 400] [--four-seat-games N]
        [--workers 2] [--only scat:2,scattle:4 ...]

For each game kind, plays `--games` two-seat games of the good bot against the random bot
(default options, the good bot in seat 0 in even games and seat 1 in odd ones, so moving first
favours neither), and prints the good bot's wins, ties and losses, its win rate (ties count
half) with a 95% Wilson interval, and whether it is clearly better: the interval's lower end
above 50%.

Then, for each kind, `--expert-games` games of the expert bot against the good bot at two seats
(goal: the expert wins at least 60%) and at four seats, one expert and three good bots (goal: at
least 35%; a fair share is 25%), the expert's seat rotating from game to game (`--four-seat-games`,
default the same number). A win is first place (a shared first place counts as that share). Every
game is seeded from its kind, seat count and number, so a run plays the same deals as the last one
and two versions of the expert can be compared game by game. The games are spread over `--workers`
processes; the report gives the run time and the expert's decision times (mean, median, 99th
percentile and largest, measured in those busy worker processes, so an upper bound of the time on
an idle core). Writes bench/results/bots.txt (only that file: bench/results/results.txt is left as
it is, refresh it with bench.common.collect_results()).
"""

from __future__ import annotations

import argparse
import math
import random
import time
from multiprocessing import Pool

from bench.common import Report, percentile
from games.engine import get_rules
from games.engine.bots import choose_action


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def head_to_head(kind: str, games: int) -> tuple[int, int, int]:
    rules = get_rules(kind)
    rng = random.Random(2024)
    wins = ties = losses = 0
    for game in range(games):
        good = game % 2
        levels = ["random", "random"]
        levels[good] = "good"
        state = rules.new_game(2, None, f"bots-bench-{kind}-{game}")
        while (seat := rules.to_act(state)) is not None:
            state, _ = rules.apply(state, seat, choose_action(kind, state, seat, levels[seat], rng))
        places = rules.outcome(state)["places"]
        if places[good] < places[1 - good]:
            wins += 1
        elif places[good] == places[1 - good]:
            ties += 1
        else:
            losses += 1
    return wins, ties, losses


def one_seat_against_good_bots(kind: str, seats: int, game: int, choose, prefix: str = "expert-bench") -> float:
    """Play game number `game` (seeded from `prefix`, the kind, the seats and the number, so every run
    deals the same) with good bots in every seat but `game % seats`, where `choose(state, seat, rng,
    history)` picks the action; that seat's share of first place."""
    rules = get_rules(kind)
    rng = random.Random(f"{prefix}-{kind}-{seats}-{game}")
    player = game % seats
    state = rules.new_game(seats, None, f"{prefix}-{kind}-{seats}-{game}")
    events = list(state["deal_events"])
    while (seat := rules.to_act(state)) is not None:
        if seat == player:
            action = choose(state, seat, rng, rules.view_events(events, seat))
        else:
            action = choose_action(kind, state, seat, "good", rng)
        state, new = rules.apply(state, seat, action)
        events += new
    places = rules.outcome(state)["places"]
    return 1 / places.count(1) if places[player] == 1 else 0.0


def expert_game(job: tuple[str, int, int]) -> tuple[float, list[float]]:
    """One game of the expert against good bots: (the expert's share of first place, the seconds each
    of its decisions took)."""
    kind, seats, game = job
    times: list[float] = []

    def expert(state, seat, rng, history):
        start = time.perf_counter()
        action = choose_action(kind, state, seat, "expert", rng, history=history)
        times.append(time.perf_counter() - start)
        return action

    return one_seat_against_good_bots(kind, seats, game, expert), times


def expert_pairings(report: Report, games: dict[int, int], workers: int, only: set[tuple[str, int]]) -> None:
    goals = {2: 0.60, 4: 0.35}
    report.line("")
    counts = ", ".join(f"{n} games at {seats} seats" for seats, n in games.items())
    report.line(f"Expert bot against good bots, {counts} (per kind), {workers} worker processes")
    with Pool(workers) as pool:
        for kind in ("scat", "scattle"):
            for seats in (2, 4):
                count = games[seats]
                if not count or (only and (kind, seats) not in only):
                    continue
                start = time.perf_counter()
                results = pool.map(expert_game, [(kind, seats, g) for g in range(count)], chunksize=4)
                wins = sum(r[0] for r in results)
                times = [t for r in results for t in r[1]]
                low, high = wilson(wins, count)
                goal = goals[seats]
                met = "yes" if wins / count >= goal else "NO"
                sure = "yes" if low >= goal else "no"
                who = "expert vs good" if seats == 2 else "one expert, three good"
                mean = sum(times) / max(1, len(times))

                def ms(share: float, times: list[float] = times) -> float:
                    return 1000 * percentile(times, share) if times else 0.0

                report.line(
                    f"{kind} {seats} seats ({who}): expert wins {wins:.1f}/{count} = {wins / count:.1%} "
                    f"(95% CI {low:.1%}-{high:.1%}); goal {goal:.0%}: {met} (whole interval above: {sure}); "
                    f"{len(times)} expert decisions: mean {1000 * mean:.1f} ms, median {ms(0.5):.1f} ms, "
                    f"99th percentile {ms(0.99):.1f} ms, largest {ms(1.0):.1f} ms; "
                    f"{time.perf_counter() - start:.0f} s"
                )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--expert-games", type=int, default=400)
    parser.add_argument("--four-seat-games", type=int, default=None)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--only", nargs="*", default=[], help="kind:seats lines to play, e.g. scat:2")
    args = parser.parse_args()
    only = {(item.split(":")[0], int(item.split(":")[1])) for item in args.only}
    report = Report("bots", f"Good bot against random bot (bench/bots.py), {args.games} games per kind")
    for kind in ("scat", "scattle"):
        start = time.perf_counter()
        wins, ties, losses = head_to_head(kind, args.games)
        rate = (wins + ties / 2) / args.games
        low, high = wilson(wins + ties / 2, args.games)
        clearly = "yes" if low > 0.5 else "NO"
        report.line(
            f"{kind}: good vs random: {wins} wins / {ties} ties / {losses} losses; win rate {rate:.1%} "
            f"(95% CI {low:.1%}-{high:.1%}); clearly better: {clearly}; {time.perf_counter() - start:.0f} s"
        )
    four = args.expert_games if args.four_seat_games is None else args.four_seat_games
    if args.expert_games or four:
        expert_pairings(report, {2: args.expert_games, 4: four}, args.workers, only)
    report.save(collect=False)  # bench/results/bots.txt only; results.txt is refreshed by collect_results()


if __name__ == "__main__":
    main()
