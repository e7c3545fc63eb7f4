"""Choosing the Scattle! "auto" table (rules B2b) by simulation.

Run from the project folder (pure engine: no database, no Redis):

    .venv/bin/python -m bench.scattle_balance [--games 2000] [--workers 2]

Every seat is played by the good bot; every option is at its default (tie_rule first_to_reach,
idle_rounds_end 20) except deck_count and target_score. For each seat count 2-8 and each deck count
allowed there (one deck: 2-6 seats, two decks: 2-8), it looks for the highest target from 25 down
that meets the balance bar: at least 85% of games end by the target or by Scattle!, and first place
is shared in at most 2%. AUTO_DECKS[seats] is then the deck count with the higher target (ties: one
deck, the seed's).

The search, per (decks, seats):
1. a screening run without a target (`--games` games). Scores only grow, so a game would have
   ended by a target T if its best final score is at least T (or it ended by Scattle! first): one
   run estimates every target at once. The bot's play differs only at the moment a meld would
   reach the target, so the estimate is close but not exact;
2. exact runs at the estimated target, then one step up while the bar is met (or one down while
   it is not), until the highest passing target below a failing one (or 25) is found. Every run
   uses the same deterministic seeds (game i of a pair always starts from the same deal), so two
   candidates differ only by their target.

Each row also gets its 95% (Wilson) intervals and both tie figures: how often the best final score
was tied (before the tie rule) and how often first place was shared (after it), with how many ties
the tie rule broke.

    .venv/bin/python -m bench.scattle_balance --check [--games 1500]

measures only the engine's table as it stands, and the targets one and two below it at 5 and 6 seats
(where the bar is met by the smallest margin), without the search: 11 rows, 16,500 games with the
defaults, 17 minutes on two shared cores under a load of 5 to 9 (bench/results/scattle_balance_check.txt).

It prints the chosen table with the measured end reasons of each chosen row, every candidate tried,
the seed's numbers (one deck, 25 points, tie_rule shared) for comparison, and the Python text of
AUTO_DECKS / AUTO_TARGETS; it says whether games/engine/scattle.py holds that table. Writes
bench/results/scattle_balance.txt. About 12 minutes on two cores with the defaults (78,000 games).
"""

from __future__ import annotations

import argparse
import math
import os
import random
import statistics
import time
from collections import Counter
from dataclasses import dataclass
from multiprocessing import Pool

from bench.common import Report
from games.engine import scattle
from games.engine.scattle_bots import choose

RULES = scattle.RULES
SEATS = range(scattle.MIN_SEATS, scattle.MAX_SEATS_TWO_DECKS + 1)
HIGHEST_TARGET = 25  # the seed's target: the table never asks for more
LOWEST_TARGET = 3  # one meld
BAR_ENDED = 0.85  # at least this share of games ends by target or Scattle!
BAR_SHARED = 0.02  # first place shared in at most this share
REASONS = ("target", "scattle", "stalemate", "exhaustion", "resignation")


def deck_counts(seats: int) -> list[int]:
    return [1, 2] if seats <= scattle.MAX_SEATS_ONE_DECK else [2]


def play(task: tuple[int, int, int | None, str, int]) -> tuple[str, bool, int, int, bool]:
    """One game, every seat the good bot: (end reason, first place shared after the tie rule, actions,
    best score, best score held by more than one player)."""
    decks, seats, target, tie_rule, game = task
    seed = f"scattle-balance/{decks}/{seats}/{game}"
    options = {"deck_count": decks, "target_score": target, "tie_rule": tie_rule}
    state = RULES.new_game(seats, options, seed)
    rng = random.Random(seed)
    actions = 0
    while (seat := RULES.to_act(state)) is not None:
        state, _ = RULES.apply(state, seat, choose(state, seat, "good", rng))
        actions += 1
    outcome = RULES.outcome(state)
    return outcome["reason"], len(outcome["winners"]) > 1, actions, max(outcome["scores"]), top_tied(outcome)


def top_tied(outcome: dict) -> bool:
    """Whether the best final score among the players still in is held by two or more of them, before
    the tie rule ranks them (a target reached wins outright: nobody else can hold that score)."""
    if outcome["reason"] == "target":
        return False
    scores = [score for seat, score in enumerate(outcome["scores"]) if seat not in outcome["resigned"]]
    return scores.count(max(scores)) > 1


def wilson(successes: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% (Wilson score) interval of a share measured as successes out of n."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def share_text(successes: int, n: int) -> str:
    """ "87.0% (85.5-88.4)": a share and its 95% interval."""
    low, high = wilson(successes, n)
    return f"{successes / n:5.1%} ({low:.1%}-{high:.1%})"


@dataclass
class Measure:
    """The figures of one candidate (decks, seats, target) over its games."""

    decks: int
    seats: int
    target: int
    games: int
    reasons: Counter
    shared: int
    median_actions: float
    top_tied: int = 0
    tie_rule: str = "first_to_reach"

    @property
    def ended(self) -> float:
        return (self.reasons["target"] + self.reasons["scattle"]) / self.games

    @property
    def shared_rate(self) -> float:
        return self.shared / self.games

    @property
    def passes(self) -> bool:
        return self.ended >= BAR_ENDED and self.shared_rate <= BAR_SHARED

    @property
    def ended_count(self) -> int:
        return self.reasons["target"] + self.reasons["scattle"]

    def figures(self) -> str:
        parts = " / ".join(f"{self.reasons[reason] / self.games:6.1%}" for reason in REASONS)
        return f"{parts} | {self.ended:6.1%} | {self.shared_rate:5.1%} | {self.median_actions:6.0f}"

    def intervals(self) -> str:
        """The bar's figures with their 95% intervals, and both tie figures: the best score tied before
        the tie rule, and first place shared after it (the difference is what the tie rule broke)."""
        broken = self.top_tied - self.shared
        return (
            f"by target or Scattle! {share_text(self.ended_count, self.games)} | "
            f"best score tied {share_text(self.top_tied, self.games)} | "
            f"first place shared {share_text(self.shared, self.games)} | "
            f"ties broken by {self.tie_rule}: {broken} of {self.top_tied}"
        )

    def brief(self) -> str:
        verdict = "meets" if self.passes else "misses"
        return f"{self.target} {verdict} ({self.ended:.1%} ended, {self.shared_rate:.1%} shared)"


class Runner:
    def __init__(self, games: int, workers: int) -> None:
        self.games = games
        self.pool = Pool(workers)
        self.played = 0

    def run(self, decks: int, seats: int, target: int | None, tie_rule: str = "first_to_reach") -> list[tuple]:
        tasks = [(decks, seats, target, tie_rule, game) for game in range(self.games)]
        self.played += len(tasks)
        return self.pool.map(play, tasks, chunksize=max(1, len(tasks) // 40))

    def measure(self, decks: int, seats: int, target: int, tie_rule: str = "first_to_reach") -> Measure:
        results = self.run(decks, seats, target, tie_rule)
        return Measure(
            decks,
            seats,
            target,
            len(results),
            Counter(reason for reason, *_ in results),
            sum(shared for _, shared, *_ in results),
            statistics.median(actions for _, _, actions, *_ in results),
            top_tied=sum(tied for *_, tied in results),
            tie_rule=tie_rule,
        )

    def screen(self, decks: int, seats: int) -> tuple[int | None, str]:
        """The highest target the no-target run says meets the bar (None: not even the lowest)."""
        results = self.run(decks, seats, None)
        games = len(results)
        estimate = None
        for target in range(HIGHEST_TARGET, LOWEST_TARGET - 1, -1):
            ended = sum(reason == "scattle" or best >= target for reason, _, _, best, _ in results)
            shared = sum(tied and best < target and reason != "scattle" for reason, tied, _, best, _ in results)
            if ended >= BAR_ENDED * games and shared <= BAR_SHARED * games:
                estimate = target
                break
        tops = sorted(best for _, _, _, best, _ in results)
        spread = f"best final score without a target: median {statistics.median(tops):.0f}"
        spread += f", 15th percentile {tops[int(0.15 * games)]}"
        return estimate, spread

    def close(self) -> None:
        self.pool.close()
        self.pool.join()


def search(runner: Runner, decks: int, seats: int) -> tuple[Measure | None, list[str]]:
    """The highest target <= 25 meeting the bar, measured exactly, and an account of the search."""
    estimate, spread = runner.screen(decks, seats)
    account = [f"screen ({runner.games} games, no target): {spread}; estimate {estimate}"]
    tried: dict[int, Measure] = {}

    def at(target: int) -> Measure:
        if target not in tried:
            tried[target] = runner.measure(decks, seats, target)
        return tried[target]

    target = estimate if estimate is not None else LOWEST_TARGET
    if at(target).passes:
        while target < HIGHEST_TARGET and at(target + 1).passes:
            target += 1
        chosen = at(target)
    else:
        while target > LOWEST_TARGET and not at(target - 1).passes:
            target -= 1
        chosen = at(target - 1) if target > LOWEST_TARGET else None
    account.append("exact: " + "; ".join(tried[t].brief() for t in sorted(tried, reverse=True)))
    return chosen, account


HEADER = (
    "end by target / scattle / stalemate / exhaustion / resignation"
    " | by target or Scattle! | first place shared | median actions"
)


def table_text(auto_decks: dict[int, int], auto_targets: dict[tuple[int, int], int]) -> list[str]:
    by_decks = [
        ", ".join(f"({decks}, {seats}): {target}" for (decks, seats), target in auto_targets.items() if decks == d)
        for d in (1, 2)
    ]
    return [
        f"AUTO_DECKS = {auto_decks}",
        "AUTO_TARGETS = {",
        *(f"    {line}," for line in by_decks if line),
        "}",
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000, help="games per candidate (and per screening run)")
    parser.add_argument("--workers", type=int, default=min(2, os.cpu_count() or 1))
    parser.add_argument(
        "--check",
        action="store_true",
        help="measure only the engine's table and the targets just below it at 5 and 6 seats (no search)",
    )
    args = parser.parse_args()
    if args.check:
        check_table(args.games, args.workers)
        return
    report = Report(
        "scattle_balance",
        f'Scattle! "auto" table by simulation (bench/scattle_balance.py), {args.games} games per candidate',
    )
    report.line(
        f"every seat the good bot; defaults otherwise (tie_rule first_to_reach, idle_rounds_end 20); bar: at least "
        f"{BAR_ENDED:.0%} of games end by target or Scattle!, first place shared in at most {BAR_SHARED:.0%}; "
        f"highest target <= {HIGHEST_TARGET} meeting it"
    )
    start = time.perf_counter()
    runner = Runner(args.games, args.workers)
    chosen: dict[tuple[int, int], Measure | None] = {}
    accounts: dict[tuple[int, int], list[str]] = {}
    for seats in SEATS:
        for decks in deck_counts(seats):
            pair_start = time.perf_counter()
            chosen[(decks, seats)], accounts[(decks, seats)] = search(runner, decks, seats)
            found = chosen[(decks, seats)]
            print(
                f"  {decks} deck(s), {seats} seats: {found.target if found else 'none'} "
                f"({time.perf_counter() - pair_start:.0f} s)",
                flush=True,
            )

    auto_decks: dict[int, int] = {}
    for seats in SEATS:
        options = [(chosen[(d, seats)].target, -d) for d in deck_counts(seats) if chosen[(d, seats)] is not None]
        if options:
            auto_decks[seats] = -max(options)[1]  # higher target; ties: fewer decks

    report.line()
    report.line("chosen table (deck_count = auto and target_score = auto), measured at the chosen target:")
    report.line(f"seats decks target | {HEADER}")
    for seats in SEATS:
        row = chosen.get((auto_decks.get(seats, 0), seats))
        if row is None:
            report.line(f"{seats:5} {'-':>5} {'-':>6} | no deck count meets the bar at any target >= {LOWEST_TARGET}")
        else:
            report.line(f"{seats:5} {row.decks:5} {row.target:6} | {row.figures()}")
    report.line("the same rows, 95% intervals and both tie figures:")
    for seats in SEATS:
        row = chosen.get((auto_decks.get(seats, 0), seats))
        if row is not None:
            report.line(f"{seats:5} {row.decks:5} {row.target:6} | {row.intervals()}")

    report.line()
    report.line("every allowed (decks, seats), the highest target meeting the bar:")
    report.line(f"decks seats target | {HEADER}")
    for decks in (1, 2):
        for seats in SEATS:
            if decks not in deck_counts(seats):
                continue
            row = chosen[(decks, seats)]
            if row is None:
                report.line(f"{decks:5} {seats:5} {'none':>6} | the bar is missed even at {LOWEST_TARGET}")
            else:
                report.line(f"{decks:5} {seats:5} {row.target:6} | {row.figures()}")

    report.line()
    report.line("candidates tried:")
    for (decks, seats), account in sorted(accounts.items()):
        report.line(f"{decks} deck(s), {seats} seats:")
        for text in account:
            report.line(f"    {text}")

    report.line()
    report.line("for comparison, the seed's numbers (1 deck, target 25, tie_rule shared), every seat the good bot:")
    report.line(f"seats | {HEADER}")
    for seats in range(scattle.MIN_SEATS, scattle.MAX_SEATS_ONE_DECK + 1):
        seed_row = runner.measure(1, seats, HIGHEST_TARGET, tie_rule="shared")
        report.line(f"{seats:5} | {seed_row.figures()}")
    runner.close()

    auto_targets = {key: row.target for key, row in sorted(chosen.items()) if row is not None}
    report.line()
    report.line("for games/engine/scattle.py:")
    for line in table_text(auto_decks, auto_targets):
        report.line(line)
    complete = len(auto_targets) == len(chosen)
    matches = complete and scattle.AUTO_DECKS == auto_decks and scattle.AUTO_TARGETS == auto_targets
    report.line(f"games/engine/scattle.py holds this table: {'yes' if matches else 'NO'}")
    if not complete:
        report.line("INCOMPLETE: some (decks, seats) pair meets the bar at no target")
    report.line(f"{runner.played:,} games in {time.perf_counter() - start:.0f} s with {args.workers} worker(s)")
    report.save()


# The seat counts whose table row meets the bar by the smallest margin, and how far below their
# targets --check looks for a clearer one.
CLOSE_SEATS = (5, 6)
LOWER_BY = (1, 2)


def check_table(games: int, workers: int) -> None:
    """The engine's table measured as it stands, each row with its 95% intervals and both tie figures,
    and the targets just below it at CLOSE_SEATS: what a nearby default would give."""
    report = Report(
        "scattle_balance_check",
        f'Scattle! "auto" table as it stands (bench/scattle_balance.py --check), {games} games a row',
    )
    report.line(
        f"every seat the good bot; defaults otherwise (tie_rule first_to_reach, idle_rounds_end 20); bar: at least "
        f"{BAR_ENDED:.0%} of games end by target or Scattle!, first place shared in at most {BAR_SHARED:.0%}"
    )
    start = time.perf_counter()
    runner = Runner(games, workers)
    report.line()
    report.line(f"the table (deck_count = auto, target_score = auto) | {HEADER}")
    rows: dict[int, Measure] = {}
    for seats in SEATS:
        decks = scattle.AUTO_DECKS[seats]
        row = rows[seats] = runner.measure(decks, seats, scattle.AUTO_TARGETS[(decks, seats)])
        report.line(f"{seats} seats, {decks} decks, target {row.target:2} | {row.figures()}")
    report.line()
    report.line("the same rows, 95% intervals (best score tied: before the tie rule; first place shared: after it):")
    for seats, row in rows.items():
        report.line(f"{seats} seats, {row.decks} decks, target {row.target:2} | {row.intervals()}")
    report.line()
    report.line("nearby targets where the bar is met by the smallest margin:")
    for seats in CLOSE_SEATS:
        decks = scattle.AUTO_DECKS[seats]
        for lower in LOWER_BY:
            row = runner.measure(decks, seats, scattle.AUTO_TARGETS[(decks, seats)] - lower)
            report.line(f"{seats} seats, {decks} decks, target {row.target:2} | {row.intervals()}")
    runner.close()
    report.line(f"{runner.played:,} games in {time.perf_counter() - start:.0f} s with {workers} worker(s)")
    report.save()


if __name__ == "__main__":
    main()
