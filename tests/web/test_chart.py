"""The rating chart drawn on the server (``arena/web/chart.py``, ``_chart.html``): its
ticks, its lines where the data puts them, and names always as text."""

from __future__ import annotations

import re
from xml.etree import ElementTree

from arena.text import shown
from arena.web.chart import nice_ticks, rating_chart
from arena.web.render import render

from .kit import HOSTILE

SVG = "{http://www.w3.org/2000/svg}"


def series(bots: dict[str, list[float]]) -> dict[str, dict[str, list[float]]]:
    """Per bot: mu after its matches 1, 2, ... and a band of ±2 around it."""
    return {
        bot: {
            "x": [float(i + 1) for i in range(len(mus))],
            "mu": mus,
            "low": [m - 2 for m in mus],
            "high": [m + 2 for m in mus],
        }
        for bot, mus in bots.items()
    }


def test_ticks_are_round_and_inside_the_range() -> None:
    assert nice_ticks(0, 100) == ([0, 20, 40, 60, 80, 100], 0)
    assert nice_ticks(12.3, 37.9) == ([15, 20, 25, 30, 35], 0)
    assert nice_ticks(-3.1, 55.2) == ([0, 10, 20, 30, 40, 50], 0)
    assert nice_ticks(0.31, 0.58) == ([0.35, 0.4, 0.45, 0.5, 0.55], 2)
    values, _ = nice_ticks(5, 5)  # one value: a range around it
    assert values[0] < 5 < values[-1]


def points(text: str) -> list[tuple[float, float]]:
    return [(float(x), float(y)) for x, y in re.findall(r"([-0-9.]+),([-0-9.]+)", text)]


def test_each_bot_is_a_line_where_its_ratings_are_on_the_axes() -> None:
    data = series({"ada": [25.0, 27.0, 30.0], "bea": [25.0, 22.0, 20.5, 19.0]})
    chart = rating_chart(data, 200)
    assert [line.bot for line in chart.lines] == ["ada", "bea"]
    assert len({line.colour for line in chart.lines}) == 2
    # The axes' labels turn pixels back into matches and ratings.
    (x0, x1), (y0, y1) = chart.x_ticks[:2], chart.y_ticks[:2]

    def value(at: float, a: float, b: float, la: str, lb: str) -> float:
        return float(la) + (at - a) * (float(lb) - float(la)) / (b - a)

    for line in chart.lines:
        drawn = points(line.line)
        assert [round(value(x, x0.at, x1.at, x0.label, x1.label), 1) for x, _ in drawn] == data[
            line.bot
        ]["x"]
        mus = [value(y, y0.at, y1.at, y0.label, y1.label) for _, y in drawn]
        assert all(abs(m - e) < 0.05 for m, e in zip(mus, data[line.bot]["mu"], strict=True))
        assert len(points(line.band)) == 2 * len(drawn)
        for x, y in (*drawn, *points(line.band)):  # everything inside the plot area
            assert chart.left <= x <= chart.right
            assert chart.top <= y <= chart.bottom
    assert "mu 19.00 after 4 rated matches" in chart.lines[1].last
    assert rating_chart({}, 200).lines == []


def test_the_svg_shows_hostile_names_as_text() -> None:
    names = [*HOSTILE, "ada"]
    chart = rating_chart(series({shown(n): [25.0, 26.0] for n in names}), 200)
    html = render("_chart.html", chart=chart, chart_id="c")
    assert "<script" not in html
    assert "<img" not in html
    assert "\u202e" not in html
    assert "\x1b" not in html
    svg = ElementTree.fromstring(html[html.index("<svg") : html.index("</svg>") + 6])
    groups = svg.findall(f".//{SVG}g[@class='series']")
    assert sorted(g.attrib["data-bot"] for g in groups) == sorted(shown(n) for n in names)
    titles = [g.findtext(f"{SVG}title") or "" for g in groups]
    assert all(
        t.startswith(g.attrib["data-bot"] + ": mu ") for t, g in zip(titles, groups, strict=True)
    )
    assert svg.findall(f".//{SVG}polyline")
    assert len(svg.findall(f".//{SVG}text")) > 6
    assert render("_chart.html", chart=rating_chart({}, 200), chart_id="c").count("No rated") == 1
