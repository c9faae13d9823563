"""What each page costs a browser, in a real headless Chromium against a real
``arena web``: little script, static files cached for a year and compressed, pages
compressed, nothing fetched from beyond this machine. Times are the benchmark's
(``scripts/bench/bench_page_load.py``), never asserted here."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from playwright.sync_api import expect

from arena.store import open_store

from .conftest import shot
from .kit import LADDER, history

pytestmark = pytest.mark.slow

SCRIPT_BUDGET = 300_000
"""Bytes of script a page may run, at most (decoded)."""
IMMUTABLE = "public, max-age=31536000, immutable"


def every_page(db: Path) -> dict[str, str]:
    store = open_store(db, read_only=True)
    try:
        match_id = store.read("SELECT id FROM matches ORDER BY finished_at DESC LIMIT 1")[0][0]
        bot = store.standings(LADDER, limit=1)[0].rating.bot
    finally:
        store.close()
    q = quote(LADDER, safe="")
    return {
        "index": "/",
        "leaderboard": f"/ladder?ladder={q}",
        "match_list": f"/matches?ladder={q}",
        "bot_page": f"/bot/{quote(bot, safe='')}?ladder={q}",
        "match": f"/match/{quote(match_id, safe='')}",
        "replay": f"/replay/{quote(match_id, safe='')}?seat=all",
    }


def test_every_page_is_light_cached_compressed_and_stays_on_this_machine(
    tmp_path: Path, web_server: Callable[..., str], browser: Any
) -> None:
    db = tmp_path / "arena.db"
    history(db)
    base = web_server(db)
    statics: set[str] = set()
    for name, path in every_page(db).items():
        # A new context for each page: an empty cache, as a first visit.
        context = browser.new_context()
        page = context.new_page()
        answers: list[Any] = []
        requests: list[str] = []
        page.on("request", lambda request, urls=requests: urls.append(request.url))
        page.on("response", lambda answer, got=answers: got.append(answer))
        try:
            page.goto(base + path, wait_until="load")
            if name == "leaderboard":  # its chart and matrix come in a request of their own
                expect(page.locator(".charts")).to_have_attribute("data-loaded", "1")
            outside = [url for url in requests if not url.startswith(base + "/")]
            assert not outside, (name, outside)

            scripts = [a for a in answers if a.request.resource_type == "script"]
            inline = page.evaluate(
                "Array.from(document.scripts).filter(s => !s.src)"
                ".reduce((n, s) => n + s.text.length, 0)"
            )
            total = sum(len(a.body()) for a in scripts) + inline
            assert 0 < total <= SCRIPT_BUDGET, (name, total)

            for answer in answers:
                kind = answer.request.resource_type
                headers = answer.all_headers()
                if kind in ("script", "stylesheet"):
                    statics.add(answer.url)
                    assert answer.status == 200, answer.url
                    assert headers.get("cache-control") == IMMUTABLE, answer.url
                    assert headers.get("content-encoding") == "gzip", answer.url
                    assert headers.get("x-content-type-options") == "nosniff", answer.url
                elif kind == "document" and len(answer.body()) >= 1000:
                    assert headers.get("content-encoding") == "gzip", (name, answer.url)
        finally:
            if name == "replay":
                shot(page, tmp_path, name)
            context.close()
    # Our script and style, and the replay's script and board stylesheet.
    assert {url.rsplit("/", 1)[-1].split(".")[0] for url in statics} == {
        "arena",
        "replay",
        "board",
    }


def test_a_warm_visit_fetches_no_script_or_style_again(
    tmp_path: Path, web_server: Callable[..., str], browser: Any
) -> None:
    db = tmp_path / "arena.db"
    history(db)
    base = web_server(db)
    paths = every_page(db)
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(base + paths["bot_page"], wait_until="load")
        page.goto(base + paths["match_list"], wait_until="load")
        # Resource Timing's transferSize is 0 for what the cache answered, without asking
        # the server (a revalidation moves at least its headers).
        cached = page.evaluate(
            "performance.getEntriesByType('resource')"
            ".filter(r => ['script', 'link'].includes(r.initiatorType))"
            ".map(r => [r.name, r.transferSize])"
        )
        assert len(cached) == 2  # arena.css and arena.js
        assert all(size == 0 for _, size in cached), cached
    finally:
        context.close()
