"""A person names an OpenSpiel game on the play form: a bad, refused or overlong name is
refused in plain words; in a real headless Chromium a kuhn_poker match is played to the
end from the form, the board showing the person's own OpenSpiel strings only."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect
from starlette.testclient import TestClient

from arena.store import open_store

from .test_play_app import client

FORM = {"game": "openspiel", "openspiel-game": "kuhn_poker", "bots-openspiel": "random"}


@pytest.fixture
def web(tmp_path: Path) -> Iterator[TestClient]:
    with client(tmp_path / "arena.db") as test_client:
        yield test_client


def test_the_form_offers_a_named_openspiel_game(web: TestClient) -> None:
    page = web.get("/play").text
    assert '<option value="openspiel">' in page
    assert 'name="openspiel-game" maxlength="200"' in page
    started = web.post("/play", data={**FORM, "name": "ann"})  # players left blank
    assert started.status_code == 303, started.text
    table = web.get(started.headers["location"]).text
    assert "kuhn_poker" in table


def test_bad_openspiel_names_are_refused_in_plain_words(web: TestClient) -> None:
    cases = {
        "no_such_game": "OpenSpiel has no game &#39;no_such_game&#39;",
        "kuhn_poker(colour=red)": "kuhn_poker has no parameter &#39;colour&#39;",
        "catch": "single-agent",
        "kuhn_poker(": "not an OpenSpiel game string",
        "": "name an OpenSpiel game",
        "x" * 201: "at most 200 characters",
    }
    for spec, words in cases.items():
        answer = web.post("/play", data={**FORM, "openspiel-game": spec})
        assert answer.status_code == 400, spec
        assert words in answer.text, (spec, answer.text)
        assert "Error" not in answer.text  # no class names
    many = web.post("/play", data={**FORM, "players-openspiel": "11"})
    assert many.status_code == 400
    assert "x" * 201 not in web.post("/play", data={**FORM, "openspiel-game": "x" * 201}).text


def test_a_table_the_cfr_bot_cannot_solve_is_refused_in_plain_words(web: TestClient) -> None:
    cfr = {**FORM, "bots-openspiel": "openspiel_cfr", "name": "ann"}
    refused = web.post("/play", data={**cfr, "players-openspiel": "5"})
    assert refused.status_code == 400
    assert "kuhn_poker at 2/3/4 players" in refused.text
    assert "(this table has 5)" in refused.text
    assert web.post("/play", data={**cfr, "players-openspiel": "2"}).status_code == 303


def test_a_room_without_the_family_does_not_offer_it(tmp_path: Path) -> None:
    with client(tmp_path / "arena.db", games=("abluxxen",)) as web:
        assert '<option value="openspiel">' not in web.get("/play").text
        refused = web.post("/play", data=FORM)
        assert refused.status_code == 400


def test_a_person_plays_kuhn_poker_to_the_end_in_a_browser(
    tmp_path: Path, web_server: Callable[..., str], page: Any
) -> None:
    db = tmp_path / "play.db"
    open_store(db).close()
    base = web_server(db)
    page.goto(f"{base}/play")
    page.select_option("select[name=game]", "openspiel")
    page.fill("input[name=openspiel-game]", "kuhn_poker")
    page.fill("input[name=players-openspiel]", "2")
    page.fill("input[name=name]", "ann")
    with page.expect_navigation():
        page.locator("form.start button[type=submit]").click()
    expect(page.locator("h1")).to_contain_text("Kuhn Poker (OpenSpiel)")
    over = page.locator("h2", has_text="The match is over")
    clicks = 0
    for _ in range(20):
        buttons = page.locator("button.choice")
        expect(buttons.first.or_(over)).to_be_visible()
        if over.count():
            break
        # The person's board: their own seat's strings, no other seat's.
        expect(page.locator(".os-seat")).to_have_count(1)
        expect(page.locator(".os-seat.viewer .os-label").first).to_have_text("information state")
        labels = [t.strip() for t in buttons.all_inner_texts()]
        assert set(labels) <= {"Pass", "Bet"}, labels
        with page.expect_navigation():
            buttons.first.click()
        clicks += 1
    else:
        raise AssertionError("the match did not end within 20 clicks")
    assert clicks >= 1
    link = page.locator("p.recorded a.match-id")
    expect(link).to_be_visible()
    store = open_store(db, read_only=True)
    try:
        row = store.match(link.inner_text().strip())
    finally:
        store.close()
    assert row is not None
    assert "ann" in [s.bot for s in row.seats]
