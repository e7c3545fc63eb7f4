"""CPU and memory of the benchmark's processes and of each core, from /proc."""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from bench.common import process_ticks, rss_kib

CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


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
