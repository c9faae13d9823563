"""Rating charts drawn on the server as SVG: no chart script on any page, and nothing to
fetch, so the static export draws them offline as the app does.

This module only measures: it turns the series ``data.chart_series`` builds (per bot:
x, mu and the band mu ± 3 sigma) into a ``Chart`` of plain numbers and labels, which
``templates/_chart.html`` writes as SVG. The template prints every name, so the
autoescaping and ``arena.text.shown`` of every page (``render.py``) apply to them too:
a bot's name is always text in the SVG, never markup.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final

WIDTH: Final = 960
"""The drawing's width in SVG units (it is scaled to the page's width)."""
HEIGHT: Final = 380
LEFT: Final = 62
"""Room for the y axis's labels and title."""
RIGHT: Final = 14
TOP: Final = 12
BOTTOM: Final = 52
"""Room for the x axis's labels and title."""
TICKS: Final = 6
"""About this many labelled ticks on each axis (those inside the data's range)."""
PAD: Final = 0.04
"""Room above and below the bands, as a share of their range."""
PALETTE: Final = (
    "#1f77b4",
    "#d62728",
    "#2ca02c",
    "#ff7f0e",
    "#9467bd",
    "#8c564b",
    "#e377c2",
    "#7f7f7f",
    "#bcbd22",
    "#17becf",
)
"""One colour per bot, in the order of its series (ten: the ladder chart's bots)."""


@dataclass(frozen=True, slots=True)
class Tick:
    """A labelled tick: where it is (SVG units along its axis) and its label."""

    at: float
    label: str


@dataclass(frozen=True, slots=True)
class Line:
    """One bot's series as the SVG draws it."""

    bot: str
    colour: str
    line: str
    """The polyline's points: mu after each rated match."""
    band: str
    """The polygon's points: mu + 3 sigma forward, mu - 3 sigma back."""
    last: str
    """Its newest point in words (the line's tooltip)."""


@dataclass(frozen=True, slots=True)
class Chart:
    """A rating chart: the plot area, the axes' ticks and one ``Line`` per bot."""

    lines: list[Line]
    x_ticks: list[Tick]
    y_ticks: list[Tick]
    points: int
    """Each bot's newest this many rated matches, at most (the note under the chart)."""
    width: int = WIDTH
    height: int = HEIGHT
    left: int = LEFT
    right: int = WIDTH - RIGHT
    top: int = TOP
    bottom: int = HEIGHT - BOTTOM


def nice_ticks(low: float, high: float, count: int = TICKS) -> tuple[list[float], int]:
    """About ``count`` round values (multiples of 1, 2 or 5 times a power of ten) from
    ``low`` to ``high``, and the decimals their labels need."""
    if not (math.isfinite(low) and math.isfinite(high)):
        low, high = 0.0, 1.0
    if high <= low:
        low, high = low - 1, high + 1
    power = 10.0 ** math.floor(math.log10((high - low) / max(1, count - 1)))

    def span(step: float) -> tuple[int, int]:
        return math.ceil(low / step - 1e-9), math.floor(high / step + 1e-9)

    def miss(step: float) -> tuple[int, float]:  # ticks away from count; fewer on a tie
        first, last = span(step)
        return abs(last - first + 1 - count), -step

    step = min((m * power for m in (1, 2, 5, 10)), key=miss)
    first, last = span(step)
    decimals = max(0, -math.floor(math.log10(step) + 1e-9))
    return [round(i * step, decimals) for i in range(first, last + 1)], decimals


def _scale(lo: float, hi: float, start: float, end: float) -> tuple[float, float]:
    """(a, b) with a * lo + b = start and a * hi + b = end."""
    a = (end - start) / (hi - lo)
    return a, start - a * lo


def _points(xs: Sequence[float], ys: Sequence[float]) -> str:
    return " ".join(f"{x:.1f},{y:.1f}" for x, y in zip(xs, ys, strict=True))


def rating_chart(series: Mapping[str, Mapping[str, Sequence[float]]], points: int) -> Chart:
    """The chart of ``series`` (``data.chart_series``: per bot ``x``, ``mu``, ``low``
    and ``high``): x spans the bots' rated matches, y every band with a little room."""
    drawn = {bot: s for bot, s in series.items() if s["x"]}
    if not drawn:
        return Chart([], [], [], points)
    xs = [x for s in drawn.values() for x in s["x"]]
    x_lo, x_hi = min(xs), max(xs)
    if x_hi == x_lo:
        x_lo, x_hi = x_lo - 1, x_hi + 1
    x_values = [v for v in nice_ticks(x_lo, x_hi)[0] if v == int(v)]  # whole matches
    y_lo = min(y for s in drawn.values() for y in s["low"])
    y_hi = max(y for s in drawn.values() for y in s["high"])
    pad = max(y_hi - y_lo, 1.0) * PAD
    y_lo, y_hi = y_lo - pad, y_hi + pad
    y_values, decimals = nice_ticks(y_lo, y_hi)
    chart = Chart([], [], [], points)
    ax, bx = _scale(x_lo, x_hi, chart.left, chart.right)
    ay, by = _scale(y_lo, y_hi, chart.bottom, chart.top)
    lines = []
    for i, (bot, s) in enumerate(drawn.items()):
        px = [ax * x + bx for x in s["x"]]
        lines.append(
            Line(
                bot=bot,
                colour=PALETTE[i % len(PALETTE)],
                line=_points(px, [ay * y + by for y in s["mu"]]),
                band=_points(
                    px + px[::-1],
                    [ay * y + by for y in s["high"]] + [ay * y + by for y in s["low"][::-1]],
                ),
                last=f"mu {s['mu'][-1]:.2f} after {int(s['x'][-1])} rated matches",
            )
        )
    return Chart(
        lines=lines,
        x_ticks=[Tick(round(ax * v + bx, 1), f"{v:.0f}") for v in x_values],
        y_ticks=[Tick(round(ay * v + by, 1), f"{v:.{decimals}f}") for v in y_values],
        points=points,
    )
