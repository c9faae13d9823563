"""The match list's sortable columns in a real headless Chromium (``arena.js``)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from playwright.sync_api import expect

from .kit import LADDER, history, record_one

pytestmark = pytest.mark.slow


def _column(page: Any, index: int) -> list[str]:
    values: list[str] = page.eval_on_selector_all(
        f"table.matches tbody tr td:nth-child({index})",
        "(cells) => cells.map((c) => c.dataset.value ?? c.textContent.trim())",
    )
    return values


def test_a_header_sorts_the_rows_shown_each_click_the_other_way(
    tmp_path: Path, page: Any, web_server: Callable[..., str]
) -> None:
    db = tmp_path / "arena.db"
    history(db, matches=60)
    # The history's timeouts are drawn at random: the first page surely has one fault.
    record_one(db, ["ada", "bea", "cyd"], fault_detail="an answer of no legal action")
    base = web_server(db)
    page.goto(f"{base}/matches?ladder={quote(LADDER, safe='')}")
    shown = set(_column(page, 1))
    faults = page.get_by_role("button", name="faults")
    faults.click()
    header = page.locator("table.matches th", has_text="faults")
    expect(header).to_have_attribute("aria-sort", "ascending")
    counts = [int(v) for v in _column(page, 5)]
    assert counts == sorted(counts)
    assert counts[0] < counts[-1]
    faults.click()
    expect(header).to_have_attribute("aria-sort", "descending")
    assert [int(v) for v in _column(page, 5)] == sorted(counts, reverse=True)
    page.get_by_role("button", name="end").click()
    ends = _column(page, 3)
    assert ends == sorted(ends)
    # The reasons in the game's words; the identifiers (score_limit) only in the data.
    reasons = set(page.locator("table.matches td.end").all_inner_texts())
    assert "score limit" in reasons
    assert not any("_" in reason for reason in reasons)
    assert set(_column(page, 1)) == shown  # the same rows, only reordered


def test_filters_and_pages_both_ways_in_the_browser(
    tmp_path: Path, page: Any, web_server: Callable[..., str]
) -> None:
    db = tmp_path / "arena.db"
    history(db, matches=130)
    base = web_server(db)
    page.goto(base)
    page.get_by_role("link", name="matches").first.click()
    page.get_by_label("bot", exact=True).fill("CY")  # part of a name, any case
    page.get_by_role("button", name="filter").click()
    rows = page.locator("table.matches tbody tr")
    expect(rows).to_have_count(50)
    assert all("cyd" in text for text in rows.all_inner_texts())
    first = rows.first.get_attribute("data-match")
    page.get_by_role("link", name="older matches →").click()
    expect(rows.first).not_to_have_attribute("data-match", first or "")
    assert all("cyd" in text for text in rows.all_inner_texts())
    page.get_by_role("link", name="← newer matches").click()
    expect(rows.first).to_have_attribute("data-match", first or "")
    expect(page.get_by_label("bot", exact=True)).to_have_value("CY")  # the form keeps them
    times = page.locator("table.matches td.when time").all_inner_texts()
    assert all(text.endswith(" UTC") for text in times)
