"""Where advice is computed: in advisor processes beside the web server, never in its own threads.

One advice call costs 0.2-1.3 s of CPU (the advisor plays out the unseen cards many times). In a web
worker's thread it held a core and the interpreter's lock, and a burst of calls slowed every other
request of the site. Here:

- the advisor runs in a child process (spawned: the engine is pure Python and needs no Django), so
  a web process's other requests never wait for its interpreter lock;
- at most `ADVICE_PROCESSES` computations run at once on a machine, whichever web process asked:
  each holds one of that many slot files under the var directory, locked with flock (the kernel
  releases the lock of a process that dies), so advice never takes more than that many cores from
  the web tier;
- a web process lets at most twice that many requests run or wait for a slot, and a request waits
  at most `ADVICE_WAIT_SECONDS`: beyond, it is turned away at once (503 with Retry-After) instead
  of holding one of the threads that serve everyone else's requests.

A Celery queue would isolate advice as well in production, but `make run` has one worker, which also
sweeps the timeouts every 2 s and plays the bots, an embedded broker that polls, and no result
channel between processes (its cache is per process): advice there would take seconds and delay
the game clocks. The pool behaves the same under `make run` and in production.
"""

from __future__ import annotations

import fcntl
import multiprocessing
import os
import random
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from django.conf import settings

from games.engine import advisor

SLOT_POLL_SECONDS = 0.02

_executor: ProcessPoolExecutor | None = None
_executor_lock = threading.Lock()
_admitted: threading.BoundedSemaphore | None = None


class AdvisorBusy(Exception):
    """Every advisor slot stayed taken for the whole wait: a burst to wait out."""


def advise(kind: str, view: dict[str, Any], history: list[dict[str, Any]], seed: int, samples: int) -> list[dict]:
    """`advisor.advise` in an advisor process, under the machine's bound; raises AdvisorBusy."""
    admitted = _admission()
    if not admitted.acquire(blocking=False):
        raise AdvisorBusy()
    try:
        with machine_slot(settings.ADVICE_WAIT_SECONDS):
            future = _pool().submit(advisor.advise, kind, view, history, random.Random(seed), samples)
            try:
                return future.result()
            except BrokenProcessPool:  # the child died (killed, out of memory): a new pool next time
                _discard_pool()
                raise AdvisorBusy() from None
    finally:
        admitted.release()


@contextmanager
def machine_slot(wait: float) -> Iterator[None]:
    """Hold one of the machine's `ADVICE_PROCESSES` advisor slots, waiting at most `wait` seconds."""
    directory = Path(settings.VAR_DIR) / "advice-slots"
    directory.mkdir(parents=True, exist_ok=True)
    deadline = time.monotonic() + wait
    while True:
        for number in range(settings.ADVICE_PROCESSES):
            descriptor = os.open(directory / f"slot-{number}", os.O_RDWR | os.O_CREAT, 0o600)
            try:
                fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(descriptor)
                continue
            try:
                yield
            finally:
                fcntl.flock(descriptor, fcntl.LOCK_UN)
                os.close(descriptor)
            return
        if time.monotonic() >= deadline:
            raise AdvisorBusy()
        time.sleep(SLOT_POLL_SECONDS)


def _admission() -> threading.BoundedSemaphore:
    global _admitted
    with _executor_lock:
        if _admitted is None:
            _admitted = threading.BoundedSemaphore(2 * settings.ADVICE_PROCESSES)
        return _admitted


def _pool() -> ProcessPoolExecutor:
    global _executor
    with _executor_lock:
        if _executor is None:
            # Spawned, not forked: a web process has threads (and locks held in them) that a fork
            # would copy half-way.
            context = multiprocessing.get_context("spawn")
            _executor = ProcessPoolExecutor(max_workers=settings.ADVICE_PROCESSES, mp_context=context)
        return _executor


def _discard_pool() -> None:
    global _executor
    with _executor_lock:
        if _executor is not None:
            _executor.shutdown(wait=False, cancel_futures=True)
        _executor = None
