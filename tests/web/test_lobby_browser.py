"""Tables people share, in a real ``arena web`` and headless Chromium: two people (two
browser contexts, each its own cookies) open and join a table from the lobby, the host
starts it, a bot fills the third seat, and both play it to the end; neither page nor
anything sent to it ever holds the other's seat; the match is recorded, rated on the
play ladder and listed. The clock counts down from the server's figures (fake timers)."""

from __future__ import annotations

import contextlib
import json
import random
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from arena.store import open_store

from .conftest import shot
from .play_kit import choose

pytestmark = pytest.mark.slow

OVER = "The match is over"
LOOK_MS = 100
MAX_LOOKS = 20_000
"""A guard against a match that never ends: at LOOK_MS a look, far beyond pytest's own
timeout, so that a slow machine (more looks per choice) never trips it."""


class Person:
    """One person: a browser context of their own, recording everything it is sent (a
    HAR file, written when the context closes) and every page it showed."""

    def __init__(self, browser: Any, name: str, tmp_path: Path) -> None:
        self.name = name
        self.har = tmp_path / f"{name}.har"
        self.context = browser.new_context(
            viewport={"width": 1280, "height": 900}, record_har_path=str(self.har)
        )
        self.page = self.context.new_page()
        self.shown: list[str] = []
        self.errors: list[str] = []
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))

    def look(self) -> None:
        """Keep the page's DOM as it is now."""
        self.shown.append(self.page.content())

    def sent(self) -> list[str]:
        """Every HTML answer this person's browser received (once its context closed)."""
        entries = json.loads(self.har.read_text())["log"]["entries"]
        return [
            e["response"]["content"].get("text", "")
            for e in entries
            if "text/html" in e["response"]["content"].get("mimeType", "")
        ]

    def seat(self) -> int:
        heading = self.page.locator("h1").inner_text()
        found = re.search(rf"you are seat (\d) \({self.name}\)", heading)
        assert found is not None, heading
        return int(found[1])


@pytest.fixture
def people(browser: Any, tmp_path: Path) -> Iterator[Callable[[str], Person]]:
    made: list[Person] = []

    def make(name: str) -> Person:
        made.append(Person(browser, name, tmp_path))
        return made[-1]

    try:
        yield make
    finally:
        for person in made:
            with contextlib.suppress(PlaywrightError):
                person.context.close()
    for person in made:
        assert not person.errors, f"{person.name}'s page's scripts failed: {person.errors}"


def _open_table(page: Any, base: str, name: str, players: str = "3") -> str:
    page.goto(f"{base}/play/lobby")
    page.select_option("select[name=game]", "abluxxen")
    page.select_option("select[name=players-abluxxen]", players)
    page.select_option("select[name=preset-abluxxen]", "amigo")
    page.locator("form.start input[name=name]").fill(name)
    with page.expect_navigation():
        page.locator("form.start button[type=submit]").click()
    assert "/play/lobby/" in page.url
    table: str = page.url.rsplit("/", 1)[1]
    return table


def _play_to_the_end(players: list[Person], rng: random.Random) -> int:
    """Each person chooses whenever their page offers a choice, until both pages show
    the end; the choices made."""
    made = 0
    over = [False] * len(players)
    for _ in range(MAX_LOOKS):
        if all(over):
            return made
        for n, person in enumerate(players):
            page = person.page
            turn = page.locator("form#choices").or_(page.locator("h2", has_text=OVER))
            # Each page waits (long-polls) for its own turn, so look at each in turn. A
            # page whose reload is pending answers no query until it loads: a look is a
            # wait with a timeout, and at 500 ms those waits were a fifth of the test.
            try:
                turn.first.wait_for(timeout=LOOK_MS)
            except PlaywrightError:
                continue
            person.look()
            if page.locator("h2", has_text=OVER).count():
                over[n] = True
                continue
            choose(page, rng)
            made += 1
    raise AssertionError(f"the match did not end within {MAX_LOOKS} looks")


def test_two_people_share_a_table_with_a_bot_and_each_sees_only_their_own_seat(
    web_server: Callable[..., str], people: Callable[[str], Person], tmp_path: Path
) -> None:
    db = tmp_path / "arena.db"
    open_store(db).close()
    base = web_server(db, "--rated-play")
    ann, bob = people("ann"), people("bob")

    table = _open_table(ann.page, base, "ann")
    expect(ann.page.locator("ol.people")).to_have_text(re.compile(r"ann \(host\) — you"))
    bob.page.goto(f"{base}/play")
    bob.page.locator("a", has_text="Open or join a table in the lobby").click()
    row = bob.page.locator(f'tr[data-table="{table}"]')
    expect(row.locator("td.people")).to_have_text("ann")
    expect(row).to_contain_text("1 of 3")
    with bob.page.expect_navigation():
        row.locator("a", has_text="join").click()
    bob.page.locator("form.join input[name=name]").fill("bob")
    with bob.page.expect_navigation():
        bob.page.locator("form.join button").click()
    expect(bob.page.locator("p.waiting")).to_contain_text("Waiting for the host")
    expect(ann.page.locator("ol.people")).to_contain_text("bob")  # the host's page follows
    shot(ann.page, tmp_path, "lobby-host")
    with ann.page.expect_navigation():
        ann.page.locator("form.start-table button").click()
    expect(ann.page.locator("h1")).to_contain_text(re.compile(r"you are seat \d \(ann\)"))
    made = _play_to_the_end([ann, bob], random.Random(7))
    assert made > 0
    seats = {"ann": ann.seat(), "bob": bob.seat()}
    assert seats["ann"] != seats["bob"]
    shot(bob.page, tmp_path, "lobby-over-bob")
    for person in (ann, bob):
        mine = seats[person.name]
        log = person.page.locator("ol.log li")
        assert log.count() > 5  # the whole match in words, as this person saw it
        expect(person.page.locator("ol.log")).to_contain_text(
            f"as seat {mine} ({person.name}) saw it"
        )

    link = ann.page.locator("p.recorded a.match-id")
    match_id = link.inner_text().strip()
    assert bob.page.locator("p.recorded a.match-id").inner_text().strip() == match_id
    store = open_store(db, read_only=True)
    try:
        row = store.match(match_id)
        ratings = {r.bot: r.matches for r in store.ratings("play/abluxxen/amigo/3p")}
    finally:
        store.close()
    assert row is not None
    assert {s.bot for s in row.seats} == {"ann", "bob", "random-1"}
    assert ratings == {"ann": 1, "bob": 1, "random-1": 1}
    ann.page.goto(f"{base}/matches?ladder=play/abluxxen/amigo/3p")
    expect(ann.page.locator(f'a[href*="{match_id.split("/")[-1]}"]').first).to_be_visible()
    ann.page.goto(base)
    expect(ann.page.locator('main a[href*="ladder=play/abluxxen/amigo/3p"]').first).to_be_visible()

    # Neither page showed, and neither browser was sent, the other's seat.
    for person in (ann, bob):
        person.context.close()
    for person, other in ((ann, bob), (bob, ann)):
        mine, theirs = seats[person.name], seats[other.name]
        sent = [text for text in person.sent() if "you are seat" in text]
        assert len(sent) > 5, person.name
        for text in [*sent, *person.shown]:
            assert f'data-hand="{theirs}"' not in text, f"{person.name} got {other.name}'s hand"
            assert f"you are seat {theirs} " not in text
        assert any(f'data-hand="{mine}"' in text for text in person.shown)


def test_the_clock_counts_down_the_decision_then_the_bank(
    web_server: Callable[..., str], people: Callable[[str], Person], tmp_path: Path
) -> None:
    db = tmp_path / "arena.db"
    open_store(db).close()
    base = web_server(db)
    ann = people("ann")
    page = ann.page
    # Fake timers, stopped: the page's clock moves only when the test says.
    page.clock.install(time=1_000_000)
    page.clock.pause_at(1_001_000)
    _open_table(page, base, "ann", players="2")
    with page.expect_navigation():
        page.locator("form.start-table button").click()
    # The bot may be first: the page then reloads itself on its own timer (stopped with
    # the page's clock) until the person's turn.
    choices = page.locator("form#choices")
    for _ in range(30):
        expect(choices.or_(page.locator("[data-reload-ms]"))).to_be_attached(timeout=30_000)
        if choices.count():
            break
        with page.expect_navigation():
            page.clock.run_for(1000)
    expect(choices).to_be_visible()
    clock = page.locator(".clock[data-running]")
    left_ms = int(clock.get_attribute("data-left-ms"))
    bank_ms = int(clock.get_attribute("data-bank-ms"))
    assert 590_000 < left_ms <= 600_000
    assert bank_ms == 300_000

    def shown(ms: int) -> str:
        s = max(0, ms // 1000)
        return f"{s // 60}:{s % 60:02d}"

    expect(clock.locator(".clock-left")).to_have_text(shown(left_ms))
    page.clock.run_for(61_000)
    expect(clock.locator(".clock-left")).to_have_text(shown(left_ms - 61_000))
    expect(clock.locator(".clock-bank")).to_have_text("5:00")
    page.clock.run_for(left_ms - 61_000 + 30_000)  # 30 s into the bank
    expect(clock.locator(".clock-left")).to_have_text("0:00")
    expect(clock.locator(".clock-bank")).to_have_text("4:30")
    shot(page, tmp_path, "clock")
