"""Shared pieces of the benchmark scripts: the bench database, private Redis servers, gunicorn,
Celery workers, a webhook receiver, and a report that prints each figure and saves it.

Nothing here touches any database but `slowhand_bench` or any Redis but a private redis-server
started on a free port of 127.0.0.1.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import warnings
from collections import Counter
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results"
PYTHON = sys.executable
VENV_BIN = Path(PYTHON).parent
# Another name beginning so (SLOWHAND_BENCH_DB=slowhand_bench_mine) keeps two people's runs apart.
BENCH_DB = os.environ.get("SLOWHAND_BENCH_DB", "slowhand_bench")
POSTGRES = "postgres://postgres@127.0.0.1:5432"
BENCH_DATABASE_URL = f"{POSTGRES}/{BENCH_DB}"
SECRET_KEY = "bench-only-secret-key-not-for-production-0123456789"
GENEROUS = "100000000/minute"


def bench_env(**extra: str) -> dict[str, str]:
    """The environment of every process a benchmark starts: production settings on the bench database."""
    env = dict(os.environ)
    for name in ("REDIS_URL", "REQUIRE_SERVICES"):
        env.pop(name, None)
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings",
        DATABASE_URL=BENCH_DATABASE_URL,
        DJANGO_DEBUG="0",
        DJANGO_SECRET_KEY=SECRET_KEY,
        DJANGO_ALLOWED_HOSTS="127.0.0.1,localhost,testserver",
        DJANGO_SECURE_COOKIES="0",
        API_THROTTLE_USER=GENEROUS,
        API_THROTTLE_ANON=GENEROUS,
        API_THROTTLE_TOKEN=GENEROUS,
        WEBHOOK_ALLOW_PRIVATE="1",
        LOG_LEVEL="WARNING",
        SLOWHAND_VAR_DIR=str(Path(tempfile.gettempdir()) / "slowhand-bench-var"),
        PYTHONPATH=str(ROOT),
        # whitenoise warns that collectstatic has not run: the benchmarks serve no static files.
        PYTHONWARNINGS="ignore:No directory at:UserWarning",
    )
    env.update(extra)
    return env


def reset_database() -> None:
    """Drop and recreate the bench database, then migrate it (only `slowhand_bench`, never another)."""
    import psycopg

    assert BENCH_DB.startswith("slowhand_bench"), "only a bench database is ever dropped"
    with psycopg.connect(f"{POSTGRES}/postgres", autocommit=True) as conn:
        conn.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s", [BENCH_DB])
        conn.execute(f"DROP DATABASE IF EXISTS {BENCH_DB}")
        conn.execute(f"CREATE DATABASE {BENCH_DB}")
    subprocess.run(
        [PYTHON, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT, env=bench_env(), check=True, timeout=300
    )


def setup_django(**extra_env: str) -> None:
    """Configure this process like a production one on the bench database, then set Django up."""
    os.environ.update(bench_env(**extra_env))
    if "REDIS_URL" not in extra_env:
        os.environ.pop("REDIS_URL", None)
    sys.path.insert(0, str(ROOT))
    warnings.filterwarnings("ignore", message="No directory at", category=UserWarning)
    import django

    django.setup()


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_for_port(port: int, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"nothing listens on 127.0.0.1:{port} after {timeout} s")


class PrivateRedis:
    """A redis-server of the benchmark's own, on a free port of 127.0.0.1, without persistence."""

    def __init__(self) -> None:
        if not shutil.which("redis-server"):
            raise SystemExit("redis-server is not installed (apt-get install redis-server)")
        self.port = free_port()
        self.dir = tempfile.mkdtemp(prefix="slowhand-bench-redis-")
        self.process: subprocess.Popen | None = None

    def url(self, db: int = 0) -> str:
        return f"redis://127.0.0.1:{self.port}/{db}"

    def start(self) -> PrivateRedis:
        command = ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
        command += ["--dir", self.dir]
        self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_for_port(self.port)
        return self

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(10)
        self.process = None

    def __enter__(self) -> PrivateRedis:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()
        shutil.rmtree(self.dir, ignore_errors=True)


def start_gunicorn(
    env: dict[str, str], port: int, workers: int, log: Path, access_log: Path | None = None
) -> subprocess.Popen:
    """gunicorn config.wsgi with sync workers (the README's production command), in its own group.

    With `access_log`, each request is logged as "METHOD PATH QUERY STATUS MICROSECONDS": the time
    gunicorn measured from reading the request to the end of the response.
    """
    command = [str(VENV_BIN / "gunicorn"), "config.wsgi", "--workers", str(workers), "--bind", f"127.0.0.1:{port}"]
    command += ["--log-level", "warning", "--timeout", "60"]
    if access_log is not None:
        access_log.write_text("")
        command += ["--access-logfile", str(access_log), "--access-logformat", "%(m)s %(U)s %(q)s %(s)s %(D)s"]
    process = subprocess.Popen(
        command, cwd=ROOT, env=env, stdout=log.open("w"), stderr=subprocess.STDOUT, start_new_session=True
    )
    wait_for_port(port)
    return process


def start_asgi_server(env: dict[str, str], port: int, workers: int, log: Path, root: Path = ROOT) -> subprocess.Popen:
    """gunicorn config.asgi:application with uvicorn workers (production's command for the site with
    its event streams), in its own group, serving the code of `root` (another checkout, to compare).
    It runs on the CPUs this process may use when it starts."""
    command = [str(VENV_BIN / "gunicorn"), "config.asgi:application", "-k", "uvicorn_worker.UvicornWorker"]
    command += ["--workers", str(workers), "--bind", f"127.0.0.1:{port}", "--log-level", "warning", "--timeout", "60"]
    process = subprocess.Popen(
        command, cwd=root, env=env, stdout=log.open("w"), stderr=subprocess.STDOUT, start_new_session=True
    )
    wait_for_port(port)
    return process


def start_celery_worker(
    env: dict[str, str], log: Path, *, concurrency: int = 2, beat: bool = False
) -> subprocess.Popen:
    """A Celery worker (prefork) in its own process group, so that it can be killed whole."""
    command = [str(VENV_BIN / "celery"), "-A", "config", "worker", "--loglevel=WARNING", f"--concurrency={concurrency}"]
    command += ["--without-gossip", "--without-mingle", "--without-heartbeat"]
    if beat:
        schedule = Path(tempfile.mkdtemp(prefix="slowhand-bench-beat-")) / "schedule"
        command += ["--beat", f"--schedule={schedule}"]
    return subprocess.Popen(
        command, cwd=ROOT, env=env, stdout=log.open("a"), stderr=subprocess.STDOUT, start_new_session=True
    )


def stop_group(process: subprocess.Popen, sig: int = signal.SIGTERM, timeout: float = 30) -> None:
    """Signal a process this benchmark started (and its own process group), then wait for it."""
    if process.poll() is not None:
        return
    try:
        os.killpg(process.pid, sig)
    except ProcessLookupError:
        return
    try:
        process.wait(timeout)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(10)


def children_of(pid: int) -> list[int]:
    path = Path(f"/proc/{pid}/task/{pid}/children")
    try:
        return [int(x) for x in path.read_text().split()]
    except OSError:
        return []


def rss_kib(pid: int) -> tuple[int, int]:
    """(VmRSS, VmHWM) of a process in KiB: its resident memory now and at its peak."""
    fields = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        name, _, value = line.partition(":")
        if name in ("VmRSS", "VmHWM"):
            fields[name] = int(value.split()[0])
    return fields.get("VmRSS", 0), fields.get("VmHWM", 0)


def process_ticks(pid: int) -> int:
    """CPU clock ticks used by a process, with those of its children it has waited for."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return 0
    fields = stat.rsplit(")", 1)[1].split()
    return sum(int(x) for x in fields[11:15])  # utime, stime, cutime, cstime


def machine_ticks() -> tuple[int, int]:
    """(busy, total) CPU clock ticks of the whole machine since boot, all cores together."""
    with open("/proc/stat") as stat:
        values = [int(x) for x in stat.readline().split()[1:9]]
    idle = values[3] + values[4]
    return sum(values) - idle, sum(values)


def bench_database_pids() -> list[int]:
    import psycopg

    with psycopg.connect(f"{POSTGRES}/postgres", autocommit=True) as conn:
        rows = conn.execute("SELECT pid FROM pg_stat_activity WHERE datname = %s", [BENCH_DB]).fetchall()
    return [row[0] for row in rows]


class OtherLoad:
    """The share of the machine's CPU that processes outside the benchmark used during a phase.

    The benchmark's own processes: this one and the children it has waited for (the clients),
    the given server processes, and PostgreSQL's backends on the bench database. Everything else
    (other people's tests, PostgreSQL's background writers) counts as other load.
    """

    def __init__(self, pids) -> None:
        self.pids = pids  # a callable giving the server processes to count as ours

    def _ours(self) -> dict[int, int]:
        pids = {os.getpid(), *self.pids(), *bench_database_pids()}
        return {pid: process_ticks(pid) for pid in pids}

    def start(self) -> None:
        self.machine = machine_ticks()
        self.before = self._ours()

    def share(self) -> float:
        busy, total = machine_ticks()
        after = self._ours()
        ours = sum(ticks - self.before.get(pid, 0) for pid, ticks in after.items())
        return max(0.0, (busy - self.machine[0] - ours) / max(1, total - self.machine[1]))


def verify_games(env: dict[str, str] | None = None) -> str:
    """Run `manage.py verify_games` on the bench database; its summary line."""
    result = subprocess.run(
        [PYTHON, "manage.py", "verify_games"],
        cwd=ROOT,
        env=env or bench_env(),
        capture_output=True,
        text=True,
        timeout=1800,
    )
    lines = [line for line in result.stdout.splitlines() if line.strip()]
    summary = next((line for line in reversed(lines) if line.startswith("checked ")), "(no summary line)")
    if result.returncode != 0:
        summary += f" [exit {result.returncode}: {result.stderr.strip().splitlines()[-1:]}]"
    return summary


def machine() -> str:
    cores = os.cpu_count()
    model = ""
    with open("/proc/cpuinfo") as info:
        for line in info:
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    with open("/proc/meminfo") as info:
        total_kib = int(info.readline().split()[1])
    return f"{cores} cores ({model}), {total_kib / 1024 / 1024:.1f} GiB memory"


def load_average() -> str:
    """The machine's 1-minute load average: other work running beside a benchmark shows here."""
    one, five, _ = os.getloadavg()
    return f"load average {one:.2f} (1 min), {five:.2f} (5 min)"


def wait_for_quiet(threshold: float = 1.0, limit: float = 180.0) -> str:
    """Wait (at most `limit` seconds) for the 1-minute load average to fall below `threshold`.

    Other work on the machine slows every figure; the report says how long it waited and the load
    it started under. BENCH_NO_WAIT=1 starts at once.
    """
    if os.environ.get("BENCH_NO_WAIT") == "1" or os.getloadavg()[0] < threshold:
        return ""
    print(f"waiting up to {limit:.0f} s for a quieter machine ({load_average()})", flush=True)
    start = time.monotonic()
    while time.monotonic() - start < limit and os.getloadavg()[0] >= threshold:
        time.sleep(5)
    quiet = "quiet" if os.getloadavg()[0] < threshold else "still busy"
    return f"waited {time.monotonic() - start:.0f} s for the load average to fall below {threshold} ({quiet})"


def pyplot():
    """matplotlib's pyplot, drawing to files only (installed by the `bench` extra)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def finish_axis(axis, *, xlabel: str, ylabel: str, title: str, title_size: float | None = 10) -> None:
    """The look every benchmark plot shares: labelled axes from zero up, a light grid, a small legend."""
    axis.set_xlabel(xlabel)
    axis.set_ylabel(ylabel)
    axis.set_ylim(bottom=0)
    axis.set_title(title, fontsize=title_size)
    axis.grid(alpha=0.3)
    axis.legend(fontsize=8)


def save_figure(fig, path: Path) -> None:
    fig.tight_layout()
    fig.savefig(path)
    pyplot().close(fig)


def percentile(values: list[float], share: float) -> float:
    """The nearest-rank percentile (share 0.5 = median, 0.95 = p95)."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    rank = max(0, min(len(ordered) - 1, round(share * len(ordered) + 0.5) - 1))
    return ordered[rank]


def median(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


class Report:
    """Print each figure on its own line as it comes, and keep them for bench/results/<name>.txt."""

    def __init__(self, name: str, title: str) -> None:
        self.name = name
        self.lines: list[str] = []
        waited = wait_for_quiet()
        self.line(f"== {title}")
        if waited:
            self.line(waited)
        self.line(f"machine: {machine()}")
        self.line(f"date: {time.strftime('%Y-%m-%d %H:%M:%S %Z')}; {load_average()}")

    def line(self, text: str = "") -> None:
        print(text, flush=True)
        self.lines.append(text)

    def save(self, *, collect: bool = True) -> Path:
        """Write bench/results/<name>.txt and, with `collect`, refresh results.txt from every file."""
        self.line(f"at the end: {load_average()}")
        RESULTS.mkdir(parents=True, exist_ok=True)
        path = RESULTS / f"{self.name}.txt"
        path.write_text("\n".join(self.lines) + "\n")
        print(f"(saved {path.relative_to(ROOT)})", flush=True)
        if collect:
            collect_results()
        return path


# The benchmarks in the order of bench/results/results.txt.
ORDER = (
    "engine", "bots", "sweep", "api_load", "history", "memory", "fault_worker_kill", "fault_redis_down", "db_outage",
    "streams", "push_latency", "tournament_pairing", "soak",
)  # fmt: skip


def collect_results() -> Path:
    """bench/results/results.txt: every benchmark's latest figures, one section each."""
    sections = [
        "Slowhand benchmark results: each section is the output of the latest run of one script",
        "(bench/<name>.py, saved as bench/results/<name>.txt). Reproduce with `.venv/bin/python -m bench.<name>`.",
    ]
    for name in ORDER:
        part = RESULTS / f"{name}.txt"
        if part.exists():
            sections += ["", part.read_text().rstrip()]
    path = RESULTS / "results.txt"
    path.write_text("\n".join(sections) + "\n")
    return path


class WebhookReceiver:
    """A local HTTP server taking webhook POSTs; it counts each X-Slowhand-Delivery id it receives.

    A delivery is recorded as soon as its body has arrived, before the (optional) slow answer: what
    a receiver has taken in is what it would act on, even if the sender dies before the answer.
    """

    def __init__(self, delay: float = 0.0) -> None:
        self.delay = delay
        self.received: Counter[str] = Counter()
        self.events: Counter[str] = Counter()
        self.lock = threading.Lock()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                raw = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                with receiver.lock:
                    receiver.received[self.headers.get("X-Slowhand-Delivery", "?")] += 1
                    try:
                        receiver.events[json.loads(raw).get("event", "?")] += 1
                    except ValueError:
                        receiver.events["?"] += 1
                if receiver.delay:
                    time.sleep(receiver.delay)
                self.send_response(204)
                self.end_headers()

            def log_message(self, *args) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_port}/hook"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self) -> WebhookReceiver:
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.server.shutdown()
        self.server.server_close()

    def total(self) -> int:
        with self.lock:
            return sum(self.received.values())

    def unique(self) -> int:
        with self.lock:
            return len(self.received)

    def duplicates(self) -> dict[str, int]:
        with self.lock:
            return {key: count for key, count in self.received.items() if count > 1}


def wait_until(condition, timeout: float, interval: float = 0.2) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(interval)
    return condition()
