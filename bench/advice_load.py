"""What a flood of advice requests costs the other players (games/advice_pool.py).

Run from the project folder:

    .venv/bin/python -m bench.advice_load [--seconds 20] [--askers 16]

Serves the site as `make run` does (uvicorn, one process) on a SQLite file of its own in a temporary
folder (no other database is touched), with the advice rate limit lifted so that only the advisor's
bound holds. Each of `--askers` players holds unrated Scat games with advice on against a computer
player and asks for advice on one after another, each a position never computed before, from a
thread of their own, without pause (but for the Retry-After of a refusal). Meanwhile another player reads their game
(`GET /api/v1/games/{id}/`) over and over. Prints that reader's latency without the flood and
under it (median, 95th and 99th percentile), the advice answers by status, the computations a
second, and the CPU time of the web process beside that of its advisor processes.
Writes bench/results/advice_load.txt (only that file).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

from bench.common import (
    GENEROUS,
    PYTHON,
    ROOT,
    VENV_BIN,
    Report,
    children_of,
    free_port,
    median,
    percentile,
    process_ticks,
    stop_group,
    wait_for_port,
)

TICKS = os.sysconf("SC_CLK_TCK")


def environment(folder: Path) -> dict[str, str]:
    env = dict(os.environ)
    for name in ("REDIS_URL", "REQUIRE_SERVICES", "DATABASE_URL"):
        env.pop(name, None)
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings",
        DATABASE_URL=f"sqlite:///{folder / 'bench.sqlite3'}",
        DJANGO_DEBUG="0",
        DJANGO_SECRET_KEY="bench-only-secret-key-not-for-production-0123456789",
        DJANGO_ALLOWED_HOSTS="127.0.0.1,localhost",
        DJANGO_SECURE_COOKIES="0",
        API_THROTTLE_USER=GENEROUS,
        API_THROTTLE_ANON=GENEROUS,
        API_THROTTLE_TOKEN=GENEROUS,
        API_THROTTLE_ADVICE=GENEROUS,
        LOG_LEVEL="WARNING",
        SLOWHAND_VAR_DIR=str(folder / "var"),
        PYTHONPATH=str(ROOT),
        PYTHONWARNINGS="ignore:No directory at:UserWarning",
    )
    return env


SETUP = """
import json, sys
import django
django.setup()
from accounts.models import ApiToken, User
from games import services

askers, games_each = int(sys.argv[1]), int(sys.argv[2])
def player(name):
    user = User.objects.create_user(username=name, email=f"{name}@example.com", password=name + "-pw-1234")
    return user, ApiToken.issue(user=user, name="bench")[1]

def games_to_act(user, count):
    found = []
    while len(found) < count:
        game = services.create_game(creator=user, kind="scat", num_seats=2, bots=["good"], rated=False, advice=True)
        game.refresh_from_db()
        if game.status == "active" and game.to_act_seat == 0:
            found.append(game.public_id)
    return found

reader, reader_key = player("reader")
plan = {"reader": {"key": reader_key, "game": games_to_act(reader, 1)[0]}, "askers": []}
for n in range(askers):
    user, key = player(f"asker{n}")
    plan["askers"].append({"key": key, "games": games_to_act(user, games_each)})
print(json.dumps(plan))
"""


def prepare(env: dict[str, str], askers: int, games_each: int) -> dict:
    import json

    subprocess.run([PYTHON, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT, env=env, check=True)
    made = subprocess.run(
        [PYTHON, "-c", SETUP, str(askers), str(games_each)],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    )
    return json.loads(made.stdout.strip().splitlines()[-1])


def read_for(base: str, reader: dict, seconds: float) -> list[float]:
    import httpx

    latencies = []
    with httpx.Client(base_url=base, headers={"Authorization": f"Token {reader['key']}"}, timeout=30) as client:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            started = time.perf_counter()
            answer = client.get(f"/api/v1/games/{reader['game']}/")
            latencies.append(time.perf_counter() - started)
            assert answer.status_code == 200, answer.text
            time.sleep(0.05)
    return latencies


def ask(base: str, asker: dict, stop: threading.Event, statuses: Counter, lock: threading.Lock) -> None:
    import httpx

    with httpx.Client(base_url=base, headers={"Authorization": f"Token {asker['key']}"}, timeout=60) as client:
        for game in asker["games"]:
            if stop.is_set():
                return
            answer = client.get(f"/api/v1/games/{game}/advice/")
            with lock:
                statuses[answer.status_code] += 1
            if "Retry-After" in answer.headers:  # as the card table does, and any polite client
                stop.wait(float(answer.headers["Retry-After"]))


def figures(latencies: list[float]) -> str:
    ms = [1000 * value for value in latencies]
    return (
        f"{len(ms)} reads, median {median(ms):.0f} ms, p95 {percentile(ms, 0.95):.0f} ms, "
        f"p99 {percentile(ms, 0.99):.0f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--askers", type=int, default=16)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="slowhand-bench-advice-"))
    env = environment(folder)
    report = Report("advice_load", "Advice under load: what a flood of advice requests costs the other players")
    report.line(f"advisor processes: {env.get('ADVICE_PROCESSES', '1')} (ADVICE_PROCESSES); one uvicorn process")
    games_each = max(40, int(args.seconds * 4))
    plan = prepare(env, args.askers, games_each)
    port = free_port()
    command = [str(VENV_BIN / "uvicorn"), "config.asgi:application", "--port", str(port), "--log-level", "warning"]
    log = folder / "server.log"
    server = subprocess.Popen(
        command, cwd=ROOT, env=env, stdout=log.open("w"), stderr=subprocess.STDOUT, start_new_session=True
    )
    try:
        wait_for_port(port)
        base = f"http://127.0.0.1:{port}"
        read_for(base, plan["reader"], 2)  # warm up
        quiet = read_for(base, plan["reader"], args.seconds)
        report.line(f"reader without advice requests: {figures(quiet)}")

        stop, lock, statuses = threading.Event(), threading.Lock(), Counter()
        askers = [
            threading.Thread(target=ask, args=(base, asker, stop, statuses, lock), daemon=True)
            for asker in plan["askers"]
        ]
        web_before = process_ticks(server.pid)
        advisors_before = sum(process_ticks(pid) for pid in children_of(server.pid))
        for thread in askers:
            thread.start()
        started = time.monotonic()
        loaded = read_for(base, plan["reader"], args.seconds)
        elapsed = time.monotonic() - started
        advisors = children_of(server.pid)
        web_cpu = (process_ticks(server.pid) - web_before) / TICKS
        advisor_cpu = (sum(process_ticks(pid) for pid in advisors) - advisors_before) / TICKS
        stop.set()
        for thread in askers:
            thread.join(90)
        report.line(f"reader under {args.askers} players asking for advice without pause: {figures(loaded)}")
        with lock:
            answered = dict(sorted(statuses.items()))
        report.line(f"advice answers by status: {answered} ({statuses[200] / elapsed:.1f} computed a second)")
        report.line(
            f"CPU during the flood: web process {web_cpu:.1f} s, its child processes (the advisors and"
            f" multiprocessing's resource tracker, {len(advisors)} in all) {advisor_cpu:.1f} s, over {elapsed:.0f} s"
        )
    finally:
        stop_group(server)
        shutil.rmtree(folder, ignore_errors=True)
    report.save(collect=False)


if __name__ == "__main__":
    sys.exit(main())
