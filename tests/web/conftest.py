"""The web app's test kit: a real server (``arena web`` as a subprocess, on port 0,
killed by its pid) and a real headless Chromium (Debian's, driven by Playwright).

Other web tests (the replay boards, the human seat) reuse these fixtures:
``web_server(db)`` starts the app over a database and gives its address; ``browser``
is one Chromium per test session; ``page`` is a fresh page whose screenshot is saved
under the test's ``tmp_path`` when the test ends (``shot(page, tmp_path, name)`` saves
more).
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from server.support import Processes, _read_line

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
READY = "arena web serving on "


def shot(page: Any, tmp_path: Path, name: str) -> Path:
    """Save a full-page screenshot under ``tmp_path``."""
    path = tmp_path / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """One headless Chromium per test module (Debian's; ./scripts/setup installs it).
    Not per session: Playwright's sync API keeps an event loop running in this thread
    while it is open, and a later test of the same worker that calls asyncio.run() would
    fail ("cannot be called from a running event loop")."""
    if not CHROMIUM.exists():
        pytest.fail(f"{CHROMIUM} is missing: ./scripts/setup installs Debian's chromium")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True
        )
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture
def page(browser: Any, tmp_path: Path) -> Iterator[Any]:
    """A fresh page; a dialog (an ``alert`` a hostile name got to run) fails the test;
    its last screenshot is saved as ``tmp_path/last.png``."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    tab = context.new_page()
    dialogs: list[str] = []

    def on_dialog(dialog: Any) -> None:
        dialogs.append(dialog.message)
        dialog.dismiss()

    tab.on("dialog", on_dialog)
    errors: list[str] = []
    tab.on("pageerror", lambda error: errors.append(str(error)))
    try:
        yield tab
        assert not dialogs, f"the page ran a script: dialogs {dialogs}"
        assert not errors, f"the page's scripts failed: {errors}"
    finally:
        with contextlib.suppress(Exception):
            shot(tab, tmp_path, "last")
        context.close()


@pytest.fixture
def web_server() -> Iterator[Callable[..., str]]:
    """``web_server(db, *args)`` starts ``arena web --db DB --port 0 ARGS`` and returns
    its address (``http://127.0.0.1:PORT``); every server started is killed by its pid
    when the test ends."""
    processes = Processes()

    def start(db: Path, *args: str) -> str:
        popen = processes.spawn(
            [sys.executable, "-m", "arena.cli", "web", "--db", str(db), "--port", "0", *args]
        )
        return _read_line(popen, READY, 60)

    try:
        yield start
    finally:
        processes.kill_all()
