"""The embedded broker (config/broker.py, no REDIS_URL): several processes queue tasks at once, as the
web process, beat and the worker do under `make run`, and one real worker runs every one exactly
once."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

from tests.tasks.probe import NOTE

ROOT = Path(__file__).resolve().parents[2]
WRITERS = 3
MESSAGES = 40  # per writer; every third queues one more from the worker

WRITE = f"""
import sys
import time

import django

django.setup()
from config.celery import app
from config.dispatch import send_now

# A writer that takes its time over each message, as one descheduled on a busy machine does: the
# transport's own serialising of a message is slowed down.
with app.connection_for_write() as connection:
    transport = sys.modules[type(connection.transport).__module__]
dumps = transport.dumps
transport.dumps = lambda *args, **kwargs: time.sleep(0.1) or dumps(*args, **kwargs)

path, writer = sys.argv[1], int(sys.argv[2])
failed = sum(not send_now({NOTE!r}, path, writer, n, 1 if n % 3 == 0 else 0) for n in range({MESSAGES}))
sys.exit(min(failed, 100))
"""


def embedded_site_env(tmp_path: Path) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if key not in ("REDIS_URL", "DATABASE_URL")}
    env.update(
        DATABASE_URL=f"sqlite:///{tmp_path / 'site.sqlite3'}",
        SLOWHAND_VAR_DIR=str(tmp_path / "var"),
        DJANGO_SETTINGS_MODULE="config.settings",
        PYTHONPATH=str(ROOT),
    )
    return env


def noted_count(notes: Path) -> int:
    return len(notes.read_text().splitlines()) if notes.exists() else 0


def test_several_writers_and_one_worker_lose_and_repeat_nothing(tmp_path):
    env = embedded_site_env(tmp_path)
    notes = tmp_path / "notes"
    worker_log = (tmp_path / "worker.log").open("w")
    worker = subprocess.Popen(
        [Path(sys.executable).parent / "celery", "-A", "config", "worker", "--pool=solo", "--loglevel=INFO",
         "--include=tests.tasks.probe"],
        cwd=ROOT, env=env, stdout=worker_log, stderr=subprocess.STDOUT,
    )  # fmt: skip
    try:
        # The writers start once the worker reads, so that it reads while they write.
        deadline = time.monotonic() + 120
        while "ready." not in (tmp_path / "worker.log").read_text():
            assert worker.poll() is None and time.monotonic() < deadline, (tmp_path / "worker.log").read_text()
            time.sleep(0.2)
        writers = [
            subprocess.Popen([sys.executable, "-c", WRITE, str(notes), str(n)], cwd=ROOT, env=env)
            for n in range(WRITERS)
        ]
        assert [writer.wait(120) for writer in writers] == [0] * WRITERS, "a writer could not queue its messages"
        expected = Counter()
        for writer in range(WRITERS):
            for n in range(MESSAGES):
                expected[(writer, n, 1 if n % 3 == 0 else 0)] += 1
                if n % 3 == 0:
                    expected[(writer, n, 0)] += 1
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and noted_count(notes) < sum(expected.values()):
            assert worker.poll() is None, (tmp_path / "worker.log").read_text()
            time.sleep(0.2)
        time.sleep(1)  # anything beyond would be a message run twice
    finally:
        worker.terminate()
        worker.wait(30)
        worker_log.close()

    noted = Counter(tuple(int(field) for field in line.split()) for line in notes.read_text().splitlines())
    assert noted == expected
    assert "Traceback" not in (tmp_path / "worker.log").read_text()
    assert "ERROR" not in (tmp_path / "worker.log").read_text()
    # A message taken is a message gone: the queue does not grow with what was delivered.
    with sqlite3.connect(tmp_path / "var" / "celery-broker.sqlite3") as broker:
        assert broker.execute("SELECT count(*) FROM kombu_message").fetchone() == (0,)
