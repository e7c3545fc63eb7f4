"""Run every benchmark, one after the other, each in its own process.

    .venv/bin/python -m bench.run_all [--skip sweep,memory]

About 35 minutes on two cores. Each script prints its figures and saves them under bench/results/
(with its plots); bench/results/results.txt gathers the latest figures of all of them.
"""

from __future__ import annotations

import argparse
import subprocess
import sys

from bench.common import ORDER, ROOT


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--skip", default="", help="comma-separated names to leave out")
    args = parser.parse_args()
    skip = set(filter(None, args.skip.split(",")))
    failed = []
    for name in ORDER:
        if name in skip:
            continue
        print(f"\n### bench.{name}", flush=True)
        if subprocess.run([sys.executable, "-m", f"bench.{name}"], cwd=ROOT, check=False).returncode != 0:
            failed.append(name)
    if failed:
        raise SystemExit(f"failed: {', '.join(failed)}")


if __name__ == "__main__":
    main()
