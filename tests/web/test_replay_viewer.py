"""The replay viewer as people watch it, in a real headless Chromium against a real
``arena web``: autoplay at its speeds (on Playwright's fake clock, never a sleep), the
slider, ten quick presses of → that move exactly ten steps, a step's permalink, the
replay's JSON downloaded, the match page leading with the board and its log folded,
Fluxx cards that open to their text by tap and keyboard with a key to the colours, and
the steps in words (no enum names, times people read)."""

from __future__ import annotations

import datetime
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from playwright.sync_api import expect

from arena.games.fluxx.card_text import TEXT
from arena.games.fluxx.cards import NAMES
from arena.store import open_store

from .conftest import shot
from .kit import history

pytestmark = pytest.mark.slow

ENUM_NAME = re.compile(r"\b[A-Z]{2,}_[A-Z_]+\b")


def _served(
    tmp_path: Path, web_server: Callable[..., str], game: str = "abluxxen"
) -> tuple[str, str]:
    """A real ``arena web`` over one recorded match of ``game``: its address and the
    match's id."""
    db = tmp_path / "arena.db"
    history(db, matches=1, game=game)
    store = open_store(db, read_only=True)
    try:
        match_id = str(store.read("SELECT id FROM matches ORDER BY idx LIMIT 1")[0][0])
    finally:
        store.close()
    return web_server(db), match_id


def _settled(page: Any, step: int) -> None:
    """Wait until the viewer shows ``step`` and has nothing left to fetch."""
    expect(page.locator(".step-number")).to_have_text(str(step))
    expect(page.locator("#replay")).to_have_attribute("data-settled", str(step))


def test_autoplay_runs_at_its_speed_on_a_fake_clock_and_pauses(
    tmp_path: Path, web_server: Callable[..., str], page: Any
) -> None:
    base, match_id = _served(tmp_path, web_server)
    start = datetime.datetime(2026, 1, 1, tzinfo=datetime.UTC)
    page.clock.install(time=start)
    page.goto(f"{base}/replay/{quote(match_id, safe='')}?seat=all")
    _settled(page, 0)
    page.clock.pause_at(start + datetime.timedelta(seconds=10))  # time moves only when told
    play = page.locator("button.play")
    play.click()
    expect(play).to_have_attribute("aria-pressed", "true")
    page.clock.run_for(999)
    _settled(page, 0)  # 1×: one step a second
    page.clock.run_for(1)
    _settled(page, 1)
    page.clock.run_for(1000)
    _settled(page, 2)
    page.locator("select.speed").select_option("4")
    page.clock.run_for(250)  # 4×: a step each quarter second
    _settled(page, 3)
    page.clock.run_for(250)
    _settled(page, 4)
    page.keyboard.press("Space")  # pauses
    expect(play).to_have_attribute("aria-pressed", "false")
    page.clock.run_for(5000)
    _settled(page, 4)
    page.keyboard.press("Space")  # plays on
    page.clock.run_for(250)
    _settled(page, 5)
    play.click()

    # The slider goes straight to a step; the address keeps it.
    page.locator("input.scrubber").fill("20")
    _settled(page, 20)
    assert "step=20" in page.url
    shot(page, tmp_path, "replay-player")


def test_ten_quick_presses_move_exactly_ten_steps(
    tmp_path: Path, web_server: Callable[..., str], page: Any
) -> None:
    base, match_id = _served(tmp_path, web_server)
    page.goto(f"{base}/replay/{quote(match_id, safe='')}?seat=1")
    _settled(page, 0)
    for _ in range(10):  # as fast as the keyboard sends them, while steps are loading
        page.keyboard.press("ArrowRight")
    _settled(page, 10)
    for _ in range(3):
        page.keyboard.press("ArrowLeft")
    _settled(page, 7)
    assert page.url.endswith("?seat=1&step=7")


def test_a_step_has_a_permalink_and_the_replay_downloads_as_json(
    tmp_path: Path, web_server: Callable[..., str], page: Any
) -> None:
    base, match_id = _served(tmp_path, web_server)
    quoted = quote(match_id, safe="")
    page.goto(f"{base}/replay/{quoted}?seat=2&step=6")
    _settled(page, 6)
    page.locator("a.next").click()
    _settled(page, 7)
    link = page.locator("a.permalink", has_text="link to this step")
    expect(link).to_be_visible()
    address = f"/replay/{quote(match_id)}?seat=2&step=7"
    expect(link).to_have_attribute("href", address)
    expect(page.locator("a.view-link").first).to_have_attribute("href", re.compile("step=7"))

    with page.expect_download() as downloading:
        page.locator("a.download").click()
    download = downloading.value
    assert download.suggested_filename.endswith("-seat-2.json")
    saved = tmp_path / "replay.json"
    download.save_as(saved)
    replay = json.loads(saved.read_text(encoding="utf-8"))
    assert replay["seat"] == 2
    assert replay["record"] == []  # a seat's view: never the full record
    assert replay == page.request.get(f"{base}/api/replay/{quoted}?seat=2").json()

    link.click()
    _settled(page, 7)
    assert page.url == base + address


def test_the_match_page_leads_with_the_board_and_folds_its_log(
    tmp_path: Path, web_server: Callable[..., str], page: Any
) -> None:
    base, match_id = _served(tmp_path, web_server)
    page.goto(f"{base}/match/{quote(match_id, safe='')}?seat=0")
    board = page.locator(".abx-board")
    expect(board).to_be_visible()
    log = page.locator("details.log")
    expect(log).not_to_have_attribute("open", "")
    expect(log.locator("pre.replay")).to_be_hidden()
    assert board.bounding_box()["y"] < log.bounding_box()["y"]
    assert board.bounding_box()["y"] < page.locator("table.seats").bounding_box()["y"]
    page.keyboard.press("ArrowRight")
    _settled(page, 1)
    log.locator("summary").click()
    expect(log.locator("pre.replay")).to_be_visible()
    expect(log.locator("pre.replay")).to_contain_text("#1 ")

    # Each step in words: who chose what, in a time people read; no enum names.
    for step in (1, 2, 3):
        page.goto(f"{base}/match/{quote(match_id, safe='')}?seat=all&step={step}")
        decision = page.locator("p.decision")
        expect(decision).to_contain_text(re.compile(r"chose .+ in (under )?[0-9.]+ (ms|s)\b"))
        text = page.locator(".step").inner_text()
        assert not ENUM_NAME.search(text), text
        assert not re.search(r"\d+\.\d{3} ms", text), text


def test_fluxx_cards_open_to_their_text_by_tap_and_keyboard(
    tmp_path: Path, web_server: Callable[..., str], browser: Any
) -> None:
    base, match_id = _served(tmp_path, web_server, "fluxx")
    context = browser.new_context(has_touch=True, viewport={"width": 1280, "height": 900})
    try:
        _fluxx_cards(context.new_page(), base, match_id, tmp_path)
    finally:
        context.close()


def _fluxx_cards(page: Any, base: str, match_id: str, tmp_path: Path) -> None:
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{base}/replay/{quote(match_id, safe='')}?seat=all&step=3")
    _settled(page, 3)
    key = page.locator("details.fx-key")
    for kind in ("Keeper", "Creeper", "Goal", "New Rule", "Action"):
        expect(key.locator("summary .fx-swatch", has_text=kind)).to_be_visible()

    card = page.locator("details.fx-card:not(.basic)").first
    name = card.locator("summary").inner_text().strip()
    text = TEXT[NAMES.index(name)]
    expect(card.locator(".fx-text")).to_be_hidden()
    expect(card.locator("summary")).to_have_attribute("title", re.compile(re.escape(text)))
    card.locator("summary").tap()
    expect(card.locator(".fx-text")).to_be_visible()
    expect(card.locator(".fx-text")).to_contain_text(text)
    shot(page, tmp_path, "fluxx-card-text")
    card.locator("summary").click()
    expect(card.locator(".fx-text")).to_be_hidden()

    # By keyboard: focus the card, Enter opens it; Space on it is its own, not autoplay.
    card.locator("summary").focus()
    page.keyboard.press("Enter")
    expect(card.locator(".fx-text")).to_be_visible()
    page.keyboard.press("Space")
    expect(card.locator(".fx-text")).to_be_hidden()
    expect(page.locator("button.play")).to_have_attribute("aria-pressed", "false")
    basic = page.locator("details.fx-card.basic")
    basic.locator("summary").click()  # the Basic Rules too, with the numbers in force
    expect(basic.locator(".fx-text")).to_contain_text(TEXT[0])
    assert not errors


def test_a_step_refused_by_the_read_limit_is_fetched_again_and_no_press_is_lost(
    tmp_path: Path, web_server: Callable[..., str], page: Any
) -> None:
    base, match_id = _served(tmp_path, web_server)
    start = datetime.datetime(2026, 1, 1, tzinfo=datetime.UTC)
    page.clock.install(time=start)
    page.goto(f"{base}/replay/{quote(match_id, safe='')}?seat=0")
    _settled(page, 0)
    page.clock.pause_at(start + datetime.timedelta(seconds=10))
    refused: list[str] = []

    def limit_once(route: Any) -> None:
        if refused:
            route.continue_()
            return
        refused.append(route.request.url)  # as the app's read limit answers a busy client
        route.fulfill(status=429, body="too many requests")

    page.route("**/replay-step/**", limit_once)
    with page.expect_response(lambda answer: answer.status == 429):
        for _ in range(3):
            page.keyboard.press("ArrowRight")
    page.clock.run_for(1000)  # the viewer waits a second, then asks again
    _settled(page, 3)
    assert len(refused) == 1
