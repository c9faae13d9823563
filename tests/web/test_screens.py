"""Every page on any screen, for any person, in a real headless Chromium
against a real ``arena web`` over real matches of both games: no page is wider than a
390-px phone, the dark theme is dark and readable, and axe-core finds no serious or
critical accessibility violation, in the light theme or the dark."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Final
from urllib.parse import quote

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect
from server.support import Processes, _read_line

from arena.store import open_store
from arena.store.synthetic import add_matches
from arena.web.export import static_html

from .conftest import READY, ROOT, shot
from .kit import BOTS, LADDER, history
from .test_live_browser import Followed, served  # noqa: F401 (the live app, a fixture)

pytestmark = pytest.mark.slow

PHONE: Final = {"width": 390, "height": 844}
FLUXX_LADDER: Final = "league-fluxx/fluxx/default/3p"
BLOCKING: Final = ("serious", "critical")
"""axe-core's impacts a page may not have."""


def fluxx_record(tmp: Path) -> bytes:
    """The record of one real 3-player Fluxx match among built-in random bots."""
    path = tmp / "fluxx.jsonl.gz"
    subprocess.run(
        [sys.executable, "-m", "arena.cli", "match", "--game", "fluxx", "--bot", "a=random",
         "--bot", "b=random", "--bot", "c=random", "--seed", "2", "--record", str(path)],
        check=True, capture_output=True, cwd=ROOT,
    )  # fmt: skip
    return path.read_bytes()


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """An ``arena web`` over a database with an Abluxxen ladder and a Fluxx ladder, and
    the static export of both: (its address, the export's file)."""
    tmp = tmp_path_factory.mktemp("screens")
    db = tmp / "arena.db"
    history(db)
    store = open_store(db)
    try:
        add_matches(
            store,
            league_id="league-fluxx",
            ladder=FLUXX_LADDER,
            bots=BOTS,
            count=20,
            table_size=3,
            record=fluxx_record(tmp),
        )
        export = tmp / "ratings.html"
        export.write_text(static_html(store, [LADDER, FLUXX_LADDER]), encoding="utf-8")
    finally:
        store.close()
    processes = Processes()
    try:
        popen = processes.spawn(
            [sys.executable, "-m", "arena.cli", "web", "--db", str(db), "--port", "0"]
        )
        yield _read_line(popen, READY, 60), export
    finally:
        processes.kill_all()


def _newest(db_ladder: str, base: str, page: Any) -> str:
    """The newest match of ``db_ladder``, read from its match list."""
    page.goto(f"{base}/matches?ladder={quote(db_ladder, safe='')}")
    return str(page.locator("table.matches tbody tr").first.get_attribute("data-match"))


def pages(base: str, export: Path, browser: Any) -> dict[str, str]:
    """Every kind of page: name -> address."""
    context = browser.new_context()
    try:
        tab = context.new_page()
        abx = quote(_newest(LADDER, base, tab), safe="")
        fx = quote(_newest(FLUXX_LADDER, base, tab), safe="")
    finally:
        context.close()
    q = quote(LADDER, safe="")
    return {
        "home": f"{base}/",
        "ladder": f"{base}/ladder?ladder={q}",
        "matches": f"{base}/matches?ladder={q}",
        "bot": f"{base}/bot/{BOTS[0]}?ladder={q}",
        "match": f"{base}/match/{abx}",
        "match-as-seat": f"{base}/match/{abx}?seat=1",
        "replay-abluxxen": f"{base}/replay/{abx}?seat=all&step=40",
        "replay-fluxx": f"{base}/replay/{fx}?seat=all&step=40",
        "play": f"{base}/play",
        "play-abluxxen": "abluxxen",  # a table, opened from the form (``open_page``)
        "play-fluxx": "fluxx",
        "lobby": f"{base}/play/lobby",
        "lobby-table": "abluxxen",  # a shared table, opened from the lobby (``open_page``)
        "export": export.as_uri(),
        "404-match": f"{base}/match/abx/999999",
        "404-bot": f"{base}/bot/nobody-here",
        "404-ladder": f"{base}/ladder?ladder=nope",
        "400-step": f"{base}/replay/{abx}?step=abc",
    }


def open_page(tab: Any, base: str, name: str, address: str) -> None:
    """Load the page, and wait for what it fetches after (the ladder's charts; the
    person's first turn at a table, when the page stops reloading)."""
    if name == "lobby-table":
        tab.goto(f"{base}/play/lobby")
        tab.select_option("select[name=game]", address)
        tab.get_by_label("Your name").fill("ann")
        tab.get_by_role("button", name="Open the table").click()
        expect(tab.locator("h1")).to_be_visible()
        return
    if name.startswith("play-"):
        tab.goto(f"{base}/play")
        tab.select_option("select[name=game]", address)
        tab.locator("form.start button[type=submit]").click()
        expect(tab.locator(".your-turn")).to_be_visible(timeout=30_000)
        return
    tab.goto(address)
    if name == "ladder":
        expect(tab.locator(".charts")).to_have_attribute("data-loaded", "1")


LUMINANCE: Final = """(() => {
  const lum = (css) => {
    const [r, g, b] = css.match(/[0-9.]+/g).slice(0, 3).map((v) => {
      const c = Number(v) / 255;
      return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const style = getComputedStyle(document.body);
  return [lum(style.backgroundColor), lum(style.color)];
})()"""
"""The relative luminance (WCAG's) of the page's background and of its text."""


def theme(tab: Any) -> tuple[float, float]:
    """The page's background luminance, and its text's contrast ratio on it."""
    back, ink = tab.evaluate(LUMINANCE)
    return back, (max(back, ink) + 0.05) / (min(back, ink) + 0.05)


def violations(tab: Any) -> list[str]:
    """axe-core's serious and critical violations on the page: rule, impact, elements."""
    found = Axe().run(tab).response["violations"]
    return [
        f"{v['id']} ({v['impact']}): {[n['target'] for n in v['nodes']][:4]} {v['help']}"
        for v in found
        if v["impact"] in BLOCKING
    ]


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_every_page_fits_a_phone_and_passes_axe(
    site: tuple[str, Path], browser: Any, scheme: str, tmp_path: Path
) -> None:
    base, export = site
    problems: dict[str, list[str]] = {}
    context = browser.new_context(viewport=PHONE, color_scheme=scheme)
    try:
        tab = context.new_page()
        for name, address in pages(base, export, browser).items():
            open_page(tab, base, name, address)
            width = tab.evaluate("document.documentElement.scrollWidth")
            found = violations(tab)
            back, contrast = theme(tab)
            if (back > 0.05) if scheme == "dark" else (back < 0.8):
                found.append(f"background luminance {back:.2f} in the {scheme} theme")
            if contrast < 7:  # the body text: AAA, more than axe's 4.5:1 for any text
                found.append(f"text contrast {contrast:.1f}:1")
            if width > PHONE["width"]:
                found.append(f"{width} px wide")
                shot(tab, tmp_path, f"{name}-{scheme}")
            if found:
                problems[name] = found
    finally:
        context.close()
    assert not problems, "\n".join(f"{k}: {v}" for k, v in problems.items())


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_live_page_fits_a_phone_and_passes_axe(
    served: tuple[str, Followed, list[int]],  # noqa: F811 (the fixture imported above)
    browser: Any,
    scheme: str,
    tmp_path: Path,
) -> None:
    """A match being played (``test_live_browser``'s app, whose match stands still)."""
    base = served[0]
    context = browser.new_context(viewport=PHONE, color_scheme=scheme)
    try:
        tab = context.new_page()
        tab.clock.install()  # the page's refresh never fires: axe reads a still page
        tab.goto(f"{base}/live/live/1")
        expect(tab.locator(".live-holder")).to_contain_text("10 decisions in")
        shot(tab, tmp_path, f"live-{scheme}")
        assert tab.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        assert violations(tab) == []
    finally:
        context.close()
