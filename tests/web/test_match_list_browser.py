"""The match list's sortable columns in a real headless Chromium (``arena.js``)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from playwright.sync_api import expect

from .kit import LADDER, history

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
    assert set(_column(page, 1)) == shown  # the same rows, only reordered
