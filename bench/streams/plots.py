"""The plots of the run: latency, CPU, memory and the tables held, against polling."""

from __future__ import annotations

from pathlib import Path

from bench.common import finish_axis, percentile, pyplot, save_figure
from bench.streams.audit import GOAL_P95_MS, Step
from bench.streams.pollers import Polling


def plot(steps: list[Step], polls: list[Polling], path: Path) -> None:
    plt = pyplot()
    fig, ((cdf, bars, timeline), (cpu, memory, tables)) = plt.subplots(2, 3, figsize=(14, 7), dpi=90)
    plot_cdf(cdf, steps)
    plot_percentiles(bars, steps)
    plot_timeline(timeline, steps)
    plot_cpu(cpu, steps)
    plot_memory(memory, steps)
    plot_tables(tables, steps, polls)
    fig.suptitle("Slowhand event streams: gunicorn + uvicorn worker on core 0, load generator on core 1", fontsize=10)
    save_figure(fig, path)


def plot_cdf(axis, steps: list[Step]) -> None:
    for step in steps:
        values = sorted(v * 1000 for v in step.latency.to_client)
        if values:
            axis.plot(values, [(i + 1) / len(values) for i in range(len(values))], label=f"{step.streams:,} streams")
    axis.axvline(GOAL_P95_MS, color="grey", linestyle="--", label="500 ms")
    axis.set_xscale("log")
    finish_axis(axis, xlabel="commit -> client (ms)", ylabel="share of events", title="Event latency (CDF)")


def plot_percentiles(axis, steps: list[Step]) -> None:
    x = range(len(steps))
    for offset, (share, name) in zip((-0.25, 0, 0.25), ((0.5, "p50"), (0.95, "p95"), (0.99, "p99")), strict=True):
        heights = [percentile(s.latency.to_client, share) * 1000 for s in steps]
        axis.bar([i + offset for i in x], heights, width=0.25, label=name)
    axis.axhline(GOAL_P95_MS, color="grey", linestyle="--", label="goal: p95 < 500 ms")
    axis.set_xticks(list(x), [f"{s.streams:,}\n{s.rate:.1f} moves/s" for s in steps])
    finish_axis(axis, xlabel="open streams", ylabel="commit -> client (ms)", title="Latency percentiles")


def plot_timeline(axis, steps: list[Step]) -> None:
    """The median latency of the moves committed in each second of the window: a queue that grows
    shows as a rising line."""
    for step in steps:
        by_second: dict[int, list[float]] = {}
        for at, latency in step.latency.over_time:
            by_second.setdefault(int(at), []).append(latency)
        seconds = sorted(by_second)
        medians = [percentile(by_second[t], 0.5) for t in seconds]
        axis.plot(seconds, medians, label=f"{step.streams:,} streams")
    finish_axis(axis, xlabel="second of the moves window", ylabel="median commit -> client (s)", title="Over time")


def plot_cpu(axis, steps: list[Step]) -> None:
    x = range(len(steps))
    axis.bar([i - 0.2 for i in x], [s.idle["server"] for s in steps], width=0.4, label="idle")
    axis.bar([i + 0.2 for i in x], [s.moving["server"] for s in steps], width=0.4, label="moves")
    axis.set_xticks(list(x), [f"{s.streams:,}\n{s.cpu_per_move_ms:.0f} ms a move" for s in steps])
    finish_axis(axis, xlabel="open streams", ylabel="% of one core", title="Server CPU")


def plot_memory(axis, steps: list[Step]) -> None:
    axis.plot([0] + [s.streams for s in steps], [steps[0].rss_before] + [s.rss_after for s in steps], "o-",
              label="server RSS")  # fmt: skip
    for step in steps:
        axis.annotate(
            f"{step.kib_per_stream:.0f} KiB/stream", (step.streams, step.rss_after), xytext=(-70, -14),
            textcoords="offset points", fontsize=8,
        )  # fmt: skip
    finish_axis(axis, xlabel="open streams", ylabel="MiB", title="Server memory")


def plot_tables(axis, steps: list[Step], polls: list[Polling]) -> None:
    names = [f"{s.streams:,} streams\np95 {s.p95:,.0f} ms" for s in steps]
    names += ["polling 2 s\nfull GET", "polling 2 s\nIf-None-Match"]
    heights = [s.streams for s in steps] + [p.tables for p in polls]
    colours = ["tab:green" if s.met() else "tab:red" for s in steps] + ["tab:orange", "tab:olive"]
    axis.bar(names, heights, color=colours, label="open tables")
    finish_axis(axis, xlabel="streams: green if the goal was met", ylabel="open tables", title="Tables held")
    axis.set_yscale("log")
    axis.set_ylim(1, max(heights) * 3)
    axis.tick_params(axis="x", labelsize=8)
