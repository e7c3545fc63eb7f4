"""Event streams on one machine: thousands of open game streams while moves go on, against 2-second polling.

Run from the project folder, with PostgreSQL on 127.0.0.1:5432 (user postgres, trust auth),
`redis-server` installed and `.venv/bin/pip install -e '.[bench]'` done (for the plot):

    .venv/bin/python -m bench.streams [--streams 1000,5000] [--seconds 60] [--rate 20] [--quick]
        [--workers 2] [--pollers 0] [--storm 60 --cut-after 10]
    .venv/bin/python -m bench.streams.opening [--streams 2000] [--root ../another-checkout]

It drops, recreates and migrates the database `slowhand_bench` (or $SLOWHAND_BENCH_DB, whose name
must begin so), then starts on core 0
(the CPU affinity they inherit, as `taskset -c 0` gives it) a private redis-server on a free port
(cache, Celery broker and the streams' pub/sub), the site as production runs it, `gunicorn
config.asgi:application -k uvicorn_worker.UvicornWorker` (one worker by default: one core) with
DJANGO_DEBUG=0 and rate limits that never bite, and a Celery worker that plays the computer
players' moves. This process, the load generator, then moves itself to core 1. PostgreSQL is the
machine's own and runs on either core.

The tables: `--games` two-seat Scat games with 99 lives each (so that none ends within the run),
one in five against the good bot. Scripted players (in this process) keep the moves at `--rate` a
second in all, the bots' included: a scripted player plays a random legal action from the detail
its own stream last brought (as the table page does), or from a GET where it has no fresh one;
the bots answer through the Celery worker as they would in production.

1. Polling, before any stream opens, the moves going on: `--pollers` clients, each the player of
   a different game on a keep-alive connection, GET /api/v1/games/{id}/ as fast as the server
   answers, first plainly, then with If-None-Match (a browser revalidating its cache gets a 304
   while nothing changed). The tables one server core holds polling every 2 s = answers/s * 2.
2. For each N of `--streams` (cumulative: the streams of a step stay open in the next), open game
   streams up to N: every player's own (SSE, with their token), then signed-in spectators spread
   evenly over the games, 20 a spectator (the most a player may hold). Then an idle window (no
   moves): the server's CPU with N streams open, and whether every stream had its keep-alives;
   then `--seconds` of moves at `--rate`. For every "move" event a stream receives it records the
   time; the latency is that time minus the move's commit, taken as its Move.created_at (set inside
   the move's transaction, a few milliseconds before COMMIT, so the latency is slightly overstated).
   A subscriber of this process on the private Redis notes when each move was published (after
   commit), which splits the latency into commit -> publish -> client.
3. Once the last moves are in (or 30 s have passed), every stream is checked against the database:
   still open, and every move of its game since it opened (its first event's id: the revision the
   game was at) received once and in order (the ids are the game's revisions, one a move).
4. With `--storm S` (bench/streams/storm.py), S seconds of moves at `--rate` during which, after
   `--cut-after` seconds, every open stream is cut at once and opened again at once with
   Last-Event-ID (1,000 connecting together): how long until all are back, how many refused, every
   move once and in order across the cut, the p95 latency of each second, an SVG under docs/.
5. At the end every stream is closed at once, as a restarting proxy would close them; when the
   browsers would come back (EventSource retries after 3 s) it counts the leases (live.leases)
   still held in Redis and tries one new stream for each spectator who had held 20.

Memory per stream: the server processes' RSS (from /proc) after N streams opened, minus before the
first opened, over N. CPU: utime+stime of the server processes (and of the Celery worker,
PostgreSQL's backends on the bench database, redis-server and this process) over each window, in
percent of one core, with each core's busy share and what processes outside the benchmark used
(other people's work on a shared machine). It also prints the server's warnings by phase. Figures
go to bench/results/streams.txt, the plots to bench/results/streams.png. About 8 minutes with the
defaults; `--quick` (small N, short windows) takes about 2."""
