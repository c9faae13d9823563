"""A live page in a real headless Chromium: it asks for the board again about once a
second (Playwright's fake clock, no waiting), shows the match as it moves on, and stops
asking once the match is over. The app is served by uvicorn on a thread of this test,
over a source whose watchable match the test moves by hand."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from arena.games import get
from arena.referee.live import LiveMatch
from arena.server.reads import ReadPool
from arena.web.app import create_app
from arena.web.guards import allowed_hosts
from arena.web.server import WebOptions, bind, start, url_of
from arena.web.source import InPlay, WebSource

from .kit import history
from .test_live import NAMES, _match, _played

pytestmark = pytest.mark.slow


class Followed:
    """The match the app's source offers, which the test ends by setting it to None."""

    def __init__(self, match: LiveMatch) -> None:
        self.match: LiveMatch | None = match

    def watching(self, match_id: str) -> LiveMatch | None:
        return self.match if match_id == "live/1" else None

    def running(self) -> set[str]:
        return {"live/1"} if self.match is not None else set()


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[str, Followed, list[int]]]:
    db = tmp_path / "arena.db"
    history(db, matches=3)
    game = get("abluxxen")
    # On a thread: Playwright's sync API keeps an event loop running on this one.
    with ThreadPoolExecutor(1) as thread_of_its_own:
        _, codes = thread_of_its_own.submit(_played, game, 9).result(120)
    followed = Followed(_match(game, 9, codes[:10]))
    source = WebSource(
        ReadPool(db),
        owns_reads=True,
        read_rate=0.0,
        running=followed.running,
        in_play=lambda: [InPlay("live/1", NAMES, 1.7e9)] if followed.match else [],
        watching=followed.watching,
        watch_delay_s=0.0,
    )
    app = create_app(source, hosts=allowed_hosts(True))
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    sock = bind("127.0.0.1", 0)
    options = WebOptions(max_connections=16, idle_timeout_s=30.0)
    server, task = asyncio.run_coroutine_threadsafe(start(app, sock, options), loop).result(60)
    try:
        yield url_of(sock, options), followed, codes
    finally:

        async def stop() -> None:
            await server.stop()
            await task

        asyncio.run_coroutine_threadsafe(stop(), loop).result(60)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(60)
        loop.close()
        sock.close()


def test_a_live_page_follows_the_match_until_it_ends(
    page: Any, served: tuple[str, Followed, list[int]]
) -> None:
    base, followed, codes = served
    page.clock.install()
    page.goto(f"{base}/live/live/1")
    holder = page.locator(".live-holder")
    expect(holder).to_contain_text("10 decisions in")
    match = followed.match
    assert match is not None
    for n, code in enumerate(codes[10:14], 10):
        match.log.taken(float(n), code)
    page.clock.run_for(1000)
    expect(holder).to_have_attribute("data-updates", "1")
    expect(holder).to_contain_text("14 decisions in")
    assert page.locator("[data-hand]").count() == 0  # nobody's hand, ever
    followed.match = None  # the match ends
    page.clock.run_for(1000)
    expect(holder).to_have_attribute("data-updates", "2")
    expect(page.get_by_role("link", name="Its replay")).to_have_attribute("href", "/match/live/1")
    page.clock.run_for(5000)  # no more asking once the match is over
    expect(holder).to_have_attribute("data-updates", "2")
