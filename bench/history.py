"""A move's server time and SQL queries at history lengths 10, 1,000 and 10,000 moves.

Run from the project folder, with PostgreSQL on 127.0.0.1:5432 (user postgres, trust auth) and
`redis-server` installed (and `.venv/bin/pip install -e '.[bench]'` for the plot):

    .venv/bin/python -m bench.history [--moves 60] [--lengths 10,1000,10000]

It drops, recreates and migrates the database `slowhand_bench` (no other) and uses a private
redis-server as the Celery broker and cache, with production settings (DJANGO_DEBUG=0). For each
history length it starts a real two-seat Scat game through the services, plays its first turn
through the API, then pads the history with bulk-created Move rows up to that length and sets the
game's version to match (as tests/api/test_query_budget.py does: real moves cannot make a game
10,000 moves long, and a move reads the snapshot, never the history). After 20 warm-up moves in
another game, it plays `--moves` real moves in each game through the API in this process
(Django's test client: middleware, token authentication, the view, the service, the response; no
network), one move per game per round so that warm-up and drift weigh on every length alike,
alternately drawing from the stock and discarding, and reports the median and p90 server time of a move POST and the SQL
queries of each kind of move (counted on separate moves, so that counting does not slow the
timed ones). Requirement: the time stays within 20% of the shortest history's, and the query
counts are the same. With `--profile` it also prints where a move's time goes, by package
(cProfile over 200 more moves). Plots move time against history length to bench/results/history.png and
writes bench/results/history.txt.

(The padded games are not replayable, so `verify_games` would report them: this database is
the benchmark's own and is recreated on every run.)
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from bench.common import (
    RESULTS,
    PrivateRedis,
    Report,
    finish_axis,
    median,
    percentile,
    pyplot,
    reset_database,
    save_figure,
    setup_django,
)


def started_game(index: int):
    from accounts.models import ApiToken, User
    from games import services

    users = [User.objects.create(username=f"history-{index}-{side}", password="!") for side in "ab"]
    game = services.create_game(creator=users[0], kind="scat", num_seats=2, move_time_limit=86400)
    services.join_game(game_id=game.public_id, user=users[1])
    keys = [ApiToken.issue(user=user, name="bench")[1] for user in users]
    return game.public_id, keys


def play(client_for, game_id: str, capture: bool) -> tuple[str, float, int]:
    """One move through the API by whoever is to act: (kind of move, seconds, queries or 0)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from games.engine import get_rules
    from games.models import Game

    game = Game.objects.get(public_id=game_id)
    rules = get_rules(game.kind)
    seat = game.to_act_seat
    legal = rules.legal_actions(rules.from_json(game.state), seat)
    action = next((a for a in legal if a["type"] == "draw_stock"), None) or next(
        a for a in legal if a["type"] == "discard"
    )
    client = client_for[seat]
    body = {"action": action, "version": game.version}
    queries = 0
    start = time.perf_counter()
    if capture:
        with CaptureQueriesContext(connection) as captured:
            response = client.post(f"/api/v1/games/{game_id}/moves/", body, format="json")
        queries = len(captured)
    else:
        response = client.post(f"/api/v1/games/{game_id}/moves/", body, format="json")
    seconds = time.perf_counter() - start
    if response.status_code != 201:
        raise RuntimeError(f"move refused: {response.status_code} {response.content[:300]!r}")
    if response.json()["game"]["status"] != "active":
        raise RuntimeError("the game ended during the benchmark; use fewer --moves")
    return action["type"], seconds, queries


def pad(game_id: str, length: int) -> None:
    from django.db import transaction

    from games.models import Game, Move

    with transaction.atomic():
        game = Game.objects.select_for_update().get(public_id=game_id)
        padding = [
            Move(game=game, seq=seq, seat=seq % 2, action={"type": "draw_stock"}, events=[])
            for seq in range(game.version + 1, length + 1)
        ]
        Move.objects.bulk_create(padding, batch_size=5000)
        Game.objects.filter(pk=game.pk).update(version=max(game.version, length))


PACKAGES = [
    ("/celery/", "celery"), ("/kombu/", "kombu"), ("/redis/", "redis-py"), ("/django/db/", "Django ORM"),
    ("/psycopg/", "psycopg (incl. waiting for PostgreSQL)"), ("/rest_framework/", "DRF"), ("/django/", "Django, other"),
    ("/games/engine/", "rules engine"), ("/games/", "games app"), ("/accounts/", "accounts app"),
]  # fmt: skip


def profile(move, count: int) -> list[str]:
    """cProfile `count` moves; the share of their time spent in each package's own code."""
    import cProfile
    import pstats
    from collections import Counter

    profiler = cProfile.Profile()
    profiler.enable()
    for _ in range(count):
        move()
    profiler.disable()
    shares: Counter[str] = Counter()
    for (filename, _line, _name), (_cc, _nc, own, _cum, _callers) in pstats.Stats(profiler).stats.items():
        shares[next((label for part, label in PACKAGES if part in filename), "Python and the rest")] += own
    total = sum(shares.values())
    return [f"profile of {count} moves (the benchmark's own lookups included), own time by package:"] + [
        f"  {label}: {seconds / total:.0%}" for label, seconds in shares.most_common()
    ]


def plot(rows: list[dict], path: Path) -> None:
    lengths = [r["length"] for r in rows]
    fig, axis = pyplot().subplots(figsize=(6, 3.6), dpi=90)
    axis.plot(lengths, [r["median"] * 1000 for r in rows], "o-", label="median")
    axis.plot(lengths, [r["p90"] * 1000 for r in rows], "s--", label="p90")
    base = rows[0]["median"] * 1000
    axis.axhspan(base * 0.8, base * 1.2, color="green", alpha=0.1, label="±20% of the shortest history's median")
    axis.set_xscale("log")
    axis.set_xticks(lengths, [f"{n:,}" for n in lengths])
    finish_axis(
        axis,
        xlabel="moves already in the game's history",
        ylabel="server time of a move POST (ms)",
        title="Move time against history length (in-process, PostgreSQL)",
    )
    save_figure(fig, path)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=60, help="timed moves per history length")
    parser.add_argument("--counted", type=int, default=10, help="moves whose queries are counted")
    parser.add_argument("--lengths", default="10,1000,10000")
    parser.add_argument("--profile", action="store_true", help="also print where a move's time goes, by package")
    args = parser.parse_args()
    lengths = [int(n) for n in args.lengths.split(",")]

    report = Report("history", "A move's cost against history length (bench/history.py)")
    report.line("history padded with bulk-created Move rows and the game's version set to match")
    reset_database()
    with PrivateRedis() as redis:
        setup_django(REDIS_URL=redis.url())
        from rest_framework.test import APIClient

        def clients_for(keys: list[str]) -> list[APIClient]:
            clients = []
            for key in keys:
                client = APIClient()
                client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
                clients.append(client)
            return clients

        games = []
        for index, length in enumerate(lengths):
            game_id, keys = started_game(index)
            clients = clients_for(keys)
            for _ in range(2):  # the first turn, for real
                play(clients, game_id, capture=False)
            pad(game_id, length)
            games.append((length, game_id, clients))
        warm_id, warm_keys = started_game(len(lengths))
        for _ in range(20):  # warm the process up before anything is timed
            play(clients_for(warm_keys), warm_id, capture=False)

        # Round by round, one move in each game: drift and warm-up weigh on every length alike.
        times: dict[int, dict[str, list[float]]] = {length: {} for length in lengths}
        queries: dict[int, dict[str, set[int]]] = {length: {} for length in lengths}
        for round_no in range(args.moves + args.counted):
            capture = round_no >= args.moves
            rotated = games[round_no % len(games) :] + games[: round_no % len(games)]
            for length, game_id, clients in rotated:
                kind, seconds, count = play(clients, game_id, capture=capture)
                if capture:
                    queries[length].setdefault(kind, set()).add(count)
                else:
                    times[length].setdefault(kind, []).append(seconds)
        rows = []
        for length in lengths:
            every = [t for values in times[length].values() for t in values]
            row = {
                "length": length,
                "median": median(every),
                "p90": percentile(every, 0.9),
                "by_kind": {kind: median(values) for kind, values in times[length].items()},
                "queries": {kind: sorted(counts) for kind, counts in queries[length].items()},
            }
            rows.append(row)
            by_kind = ", ".join(f"{k} {v * 1000:.1f} ms" for k, v in sorted(row["by_kind"].items()))
            counts = ", ".join(f"{k} {'/'.join(map(str, v))}" for k, v in sorted(row["queries"].items()))
            report.line(
                f"history {length:>6,} moves: move POST median {row['median'] * 1000:.1f} ms, "
                f"p90 {row['p90'] * 1000:.1f} ms ({by_kind}); SQL queries per move: {counts}"
            )
        base = rows[0]
        worst = max(abs(r["median"] / base["median"] - 1) for r in rows)
        same = all(r["queries"] == base["queries"] for r in rows)
        report.line(
            f"time within 20% of the {base['length']}-move history's: {'met' if worst <= 0.2 else 'MISSED'} "
            f"(largest difference {worst:.0%})"
        )
        report.line(f"same query count at every length: {'met' if same else 'MISSED'}")
        if args.profile:
            _length, first_id, first_clients = games[0]
            for line in profile(lambda: play(first_clients, first_id, capture=False), 200):
                report.line(line)
        from django.db import connection

        connection.close()
    plot(rows, RESULTS / "history.png")
    report.line("plot: bench/results/history.png")
    report.save()


if __name__ == "__main__":
    main()
