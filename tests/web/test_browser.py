"""The web app in a real headless Chromium against a real ``arena web`` server."""

from __future__ import annotations

import re
from collections.abc import Callable
from itertools import combinations
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from playwright.sync_api import expect

from arena.store import open_store
from arena.text import shown

from .conftest import shot
from .kit import BOTS, HOSTILE, LADDER, history, record_one

pytestmark = pytest.mark.slow


def ladder_url(base: str) -> str:
    return f"{base}/ladder?ladder={quote(LADDER, safe='')}"


def expected_head_to_head(db: Path) -> dict[tuple[str, str], tuple[int, int]]:
    """(a, b) -> (matches a finished ahead of b, matches both played), straight from
    every seat in the database."""
    store = open_store(db, read_only=True)
    try:
        tables: dict[str, list[tuple[str, int]]] = {}
        for match_id, bot, rank in store.read("SELECT match_id, bot, rank FROM seats"):
            tables.setdefault(match_id, []).append((bot, rank))
    finally:
        store.close()
    counts: dict[tuple[str, str], list[int]] = {}
    for seats in tables.values():
        for (a, ra), (b, rb) in combinations(seats, 2):
            for x, rx, y, ry in ((a, ra, b, rb), (b, rb, a, ra)):
                entry = counts.setdefault((x, y), [0, 0])
                entry[1] += 1
                entry[0] += rx < ry
    return {pair: (c[0], c[1]) for pair, c in counts.items()}


def chart_lines(page: Any, chart: str) -> dict[str, list[tuple[float, float]]]:
    """Per bot, the points of its line in the chart ``chart`` (a CSS selector), turned
    back into (rated matches, rating) by the labels of the chart's axes."""
    found: dict[str, Any] = page.evaluate(
        """(selector) => {
          const svg = document.querySelector(selector + " svg");
          const ticks = (axis, attr) => Array.from(
            svg.querySelectorAll(`.${axis} text:not(.title)`),
            (t) => [Number(t.getAttribute(attr)), Number(t.textContent)]);
          const lines = {};
          svg.querySelectorAll("g.series").forEach((g) => {
            lines[g.dataset.bot] = g.querySelector("polyline.line").getAttribute("points")
              .trim().split(/\\s+/).map((p) => p.split(",").map(Number));
          });
          return {x: ticks("x-axis", "x"), y: ticks("y-axis", "y"), lines};
        }""",
        chart,
    )

    def axis(ticks: list[list[float]]) -> Callable[[float], float]:
        (a, va), (b, vb) = ticks[0], ticks[-1]
        return lambda at: va + (at - a) * (vb - va) / (b - a)

    x, y = axis(found["x"]), axis(found["y"])
    assert len(found["x"]) >= 3
    assert len(found["y"]) >= 3
    return {bot: [(x(px), y(py)) for px, py in points] for bot, points in found["lines"].items()}


def test_the_leaderboard_chart_and_head_to_head_show_the_database(
    tmp_path: Path, web_server: Callable[..., str], page: Any
) -> None:
    db = tmp_path / "arena.db"
    history(db)
    base = web_server(db)
    page.goto(ladder_url(base))

    store = open_store(db, read_only=True)
    try:
        standings = store.standings(LADDER, limit=100)
        ratings = {
            bot: [mu for (mu,) in store.read(
                "SELECT mu FROM rating_history WHERE ladder = ? AND bot = ? ORDER BY match_id",
                (LADDER, bot),
            )]
            for bot in BOTS
        }  # fmt: skip
    finally:
        store.close()
    rows = page.locator("table.leaderboard tbody tr")
    expect(rows).to_have_count(len(BOTS))
    for position, standing in enumerate(standings):
        row = rows.nth(position)
        cells = row.locator("td")
        expect(cells.nth(0)).to_have_text(str(position + 1))
        expect(cells.nth(1)).to_have_text(re.compile(r"^\d+–\d+$"))  # its 95% rank interval
        expect(cells.nth(3)).to_have_text(standing.rating.bot)
        expect(cells.nth(4)).to_have_text(f"{standing.rating.mu:.2f}")
        low = standing.rating.mu - 3 * standing.rating.sigma
        high = standing.rating.mu + 3 * standing.rating.sigma
        expect(cells.nth(5)).to_have_text(f"{low:.2f} … {high:.2f}")
        expect(cells.nth(6)).to_have_text(str(int(standing.stats["matches"])))
        expect(cells.nth(9)).to_have_text(str(int(standing.stats["timeouts"])))

    # The chart (SVG drawn by the server): one line per bot, each with its band, each
    # point where the axes' labels say the bot's rating was after that rated match.
    expect(page.locator("#chart-ladder svg g.series")).to_have_count(len(BOTS))
    drawn = chart_lines(page, "#chart-ladder")
    assert sorted(drawn) == sorted(BOTS)
    legend = page.locator("#chart-ladder .legend .name").all_inner_texts()
    assert sorted(legend) == sorted(BOTS)
    for bot, mus in ratings.items():
        assert [round(x, 1) for x, _ in drawn[bot]] == list(range(1, len(mus) + 1))
        assert [y for _, y in drawn[bot]] == pytest.approx(mus, abs=0.05)

    # The head-to-head matrix: every ordered pair as the seats in the database say.
    expected = expected_head_to_head(db)
    cells = page.locator("table.h2h td[data-row]")
    expect(cells).to_have_count(len(BOTS) * (len(BOTS) - 1))
    found = {
        (c["row"], c["col"]): (int(c["ahead"]), int(c["met"]))
        for c in cells.evaluate_all("cs => cs.map(c => ({...c.dataset}))")
    }
    assert found == {pair: expected.get(pair, (0, 0)) for pair in found}
    assert any(met for _, met in found.values())
    shot(page, tmp_path, "ladder")


def test_hostile_names_show_as_text_everywhere(
    tmp_path: Path, web_server: Callable[..., str], page: Any
) -> None:
    db = tmp_path / "arena.db"
    history(db, bots=(*HOSTILE, "ada", "bea", "cyd"))
    base = web_server(db)
    everyone = sorted(shown(n) for n in (*HOSTILE, "ada", "bea", "cyd"))
    pages = [
        ladder_url(base),
        f"{base}/matches?ladder={quote(LADDER, safe='')}",
        f"{base}/bot/{quote(HOSTILE[0], safe='')}?ladder={quote(LADDER, safe='')}",
    ]
    for url in pages:
        page.goto(url)
        page.wait_for_load_state("load")
        # Nothing a name holds became an element: no script but ours, no image at all.
        assert page.locator("img").count() == 0
        sources = page.evaluate("Array.from(document.scripts, s => s.src || s.type || 'inline')")
        ours = re.compile(r"/static/arena\.[0-9a-f]{12}\.js$")
        assert all(ours.search(s) for s in sources), sources
        body = page.inner_text("body")
        for name in HOSTILE:
            assert shown(name) in body, (url, name)
        assert "\u202e" not in body
        assert "\x1b" not in body
        if url == pages[0]:
            names = page.locator("table.leaderboard td.name").all_inner_texts()
            assert sorted(names) == everyone
            expect(page.locator("#chart-ladder svg g.series")).to_have_count(len(everyone))
            legend = page.locator("#chart-ladder .legend .name").all_inner_texts()
            assert sorted(legend) == everyone
            assert sorted(chart_lines(page, "#chart-ladder")) == everyone
            shot(page, tmp_path, "hostile")


def test_the_live_leaderboard_follows_a_finished_match(
    tmp_path: Path, web_server: Callable[..., str], page: Any
) -> None:
    db = tmp_path / "arena.db"
    history(db)
    base = web_server(db)
    page.goto(ladder_url(base))
    expect(page.locator("[data-live]")).to_have_attribute("data-live", "on")
    row = page.locator("table.leaderboard tbody tr[data-bot='gil'] td.matches")
    before = int(row.inner_text())
    charts = page.locator(".charts")
    expect(charts).to_have_attribute("data-loaded", "1")
    record_one(db, ["gil", "ada", "bea"])
    expect(row).to_have_text(str(before + 1), timeout=15_000)
    expect(page.locator("[data-live]")).to_have_attribute("data-updates", "1")
    # Every fifth update also fetches the chart again (SVG from the server, no script).
    # Only the updates are counted here: rows and charts fetched within a second of the
    # last are the ones every page shares (data.Shared), which may not hold the match yet.
    for update in range(2, 6):
        record_one(db, ["gil", "ada", "bea"])
        expect(page.locator("[data-live]")).to_have_attribute("data-updates", str(update))
    expect(charts).to_have_attribute("data-loaded", "2", timeout=15_000)
    expect(page.locator("#chart-ladder svg g.series")).to_have_count(len(BOTS))
    shot(page, tmp_path, "live")


def test_the_static_export_draws_from_a_file_offline(tmp_path: Path, page: Any) -> None:
    db = tmp_path / "arena.db"
    history(db)
    report = tmp_path / "ratings.html"
    from arena.web.export import static_html

    store = open_store(db, read_only=True)
    try:
        report.write_text(static_html(store, [LADDER]), encoding="utf-8")
    finally:
        store.close()
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    page.goto(report.as_uri())
    expect(page.locator("table.leaderboard tbody tr")).to_have_count(len(BOTS))
    lines = chart_lines(page, "#chart-1")
    assert sorted(lines) == sorted(BOTS)
    assert page.evaluate("document.scripts.length") == 0  # the chart is SVG: no script
    assert requests == [report.as_uri()]  # nothing fetched: every style inline
    shot(page, tmp_path, "export")
