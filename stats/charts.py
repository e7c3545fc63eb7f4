"""The rating-history chart, drawn on the server as SVG geometry: no script, no library, no CDN.

Coordinates leave here as ready-made strings, so template localization (a decimal comma in
Turkish, Persian digits) can never reach the SVG's numbers; only the axis labels, which people read,
are written in the reader's language.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from config import l10n

from .ratings import INITIAL_MU, INITIAL_SIGMA, shown_value

WIDTH = 640
HEIGHT = 220
PAD_LEFT, PAD_RIGHT, PAD_TOP, PAD_BOTTOM = 44, 12, 12, 28


@dataclass(frozen=True)
class ChartPoint:
    x: str
    y: str
    mu: float
    sigma: float
    at: datetime | None  # None for the starting rating, before the first game


@dataclass(frozen=True)
class Tick:
    y: str
    label: str


@dataclass(frozen=True)
class RatingChart:
    width: int
    height: int
    line: str  # polyline points: mu after each game
    band: str  # polygon points: mu ± sigma, the uncertainty
    points: list[ChartPoint]
    ticks: list[Tick]
    plot_left: int
    plot_right: int
    label_x: int
    plot_bottom: int
    first_at: datetime | None
    last_at: datetime | None


def _nice_step(span: float, count: int = 4) -> float:
    raw = span / count
    magnitude = 10 ** math.floor(math.log10(raw))
    return next(m * magnitude for m in (1, 2, 2.5, 5, 10) if m * magnitude >= raw)


def _fmt(value: float) -> str:
    return f"{value:.1f}"


def rating_chart(
    history: Sequence[tuple[datetime, float, float]], *, from_start: bool, width: int = WIDTH, height: int = HEIGHT
) -> RatingChart | None:
    """The chart of (when, mu, sigma) after each game; `from_start` adds the rating everyone starts with."""
    if not history:
        return None
    series: list[tuple[datetime | None, float, float]] = list(history)
    if from_start:
        series.insert(0, (None, INITIAL_MU, INITIAL_SIGMA))
    low = min(mu - sigma for _at, mu, sigma in series)
    high = max(mu + sigma for _at, mu, sigma in series)
    step = _nice_step(max(high - low, 1.0))
    low = math.floor(low / step) * step
    high = math.ceil(high / step) * step
    left, right = PAD_LEFT, width - PAD_RIGHT
    top, bottom = PAD_TOP, height - PAD_BOTTOM

    def x_at(i: int) -> float:
        return left + (right - left) * (i / (len(series) - 1) if len(series) > 1 else 0.5)

    def y_at(value: float) -> float:
        return bottom - (bottom - top) * (value - low) / (high - low)

    points = [
        ChartPoint(x=_fmt(x_at(i)), y=_fmt(y_at(mu)), mu=round(mu, 1), sigma=round(sigma, 1), at=at)
        for i, (at, mu, sigma) in enumerate(series)
    ]
    upper = [f"{_fmt(x_at(i))},{_fmt(y_at(mu + sigma))}" for i, (_at, mu, sigma) in enumerate(series)]
    lower = [f"{_fmt(x_at(i))},{_fmt(y_at(mu - sigma))}" for i, (_at, mu, sigma) in enumerate(series)]
    ticks = []
    value = low
    while value <= high + step / 2:
        # Read, so localized, and on the scale the site shows ratings in (never below 0: no tick there).
        if value >= 0:
            ticks.append(Tick(y=_fmt(y_at(value)), label=l10n.number(shown_value(value))))
        value += step
    return RatingChart(
        width=width,
        height=height,
        line=" ".join(f"{p.x},{p.y}" for p in points),
        band=" ".join(upper + list(reversed(lower))),
        points=points,
        ticks=ticks,
        plot_left=left,
        plot_right=right,
        label_x=left - 6,
        plot_bottom=bottom,
        first_at=history[0][0],
        last_at=history[-1][0],
    )
