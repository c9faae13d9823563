"""The match list and the home page (in-process, over a real database): every filter
against a brute-force reading of the same rows, paging both ways, dates people read."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

import pytest
from starlette.testclient import TestClient

from arena.store import open_store
from arena.store.rows import MatchRow
from arena.store.synthetic import add_matches
from arena.store.web_reads import bots_like
from arena.web.ladders import by_game, label

from .kit import BOTS, LADDER, LEAGUE, history, real_record, record_one
from .test_app import client

Q = quote(LADDER, safe="")
DAY_S = 86400.0
LATER = 1.7e9 + 3 * DAY_S
"""The second batch of matches finishes three days after the first."""


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "arena.db"
    history(path, matches=130)
    store = open_store(path)
    try:
        add_matches(store, league_id=LEAGUE, ladder=LADDER, bots=BOTS, count=40, table_size=3,
                    first_index=130, start=LATER, record=real_record())  # fmt: skip
    finally:
        store.close()
    return path


@pytest.fixture
def web(db: Path) -> Iterator[TestClient]:
    with client(db) as c:
        yield c


@pytest.fixture
def every(db: Path) -> list[MatchRow]:
    """Every match of the ladder, newest first: what the filters are checked against."""
    store = open_store(db, read_only=True)
    try:
        return list(store.match_page(LEAGUE, before=None, limit=10_000))
    finally:
        store.close()


def _ids(text: str) -> list[str]:
    return re.findall(r'<tr data-match="([^"]+)">', text)


def _link(text: str, rel: str) -> str | None:
    found = re.search(rf'rel="{rel}" href="([^"]+)"', text)
    return None if found is None else found.group(1).replace("&amp;", "&")


def _walk(web: TestClient, url: str, rel: str = "next") -> tuple[list[str], str]:
    """Every id from ``url`` on, following ``rel`` links; and the last page's address."""
    seen: list[str] = []
    while True:
        text = web.get(url).text
        seen += _ids(text)
        step = _link(text, rel)
        if step is None:
            return seen, url
        url = step


def test_pages_go_both_ways_and_either_order(web: TestClient, every: list[MatchRow]) -> None:
    newest_first = [m.id for m in every]
    down, last = _walk(web, f"/matches?ladder={Q}")
    assert down == newest_first
    # Back up from the last page: each page's rows again, in the list's order.
    text = web.get(last).text
    pages = [_ids(text)]
    while (up := _link(text, "prev")) is not None:
        text = web.get(up).text
        pages.insert(0, _ids(text))
    assert [i for page in pages for i in page] == newest_first
    assert all(len(page) == 50 for page in pages[:-1])
    oldest, _ = _walk(web, f"/matches?ladder={Q}&order=oldest")
    assert oldest == newest_first[::-1]


def _seated(match: MatchRow, names: set[str]) -> set[int]:
    return {s.seat for s in match.seats if s.bot in names}


@pytest.mark.parametrize("text", ["cyd", "Y", "a"])
def test_a_bot_filter_takes_part_of_a_name(
    web: TestClient, every: list[MatchRow], text: str
) -> None:
    names = {b for b in BOTS if text.lower() in b}
    assert names
    expected = [m.id for m in every if _seated(m, names)]
    assert _walk(web, f"/matches?ladder={Q}&bot={text}")[0] == expected


def test_an_opponent_filter_keeps_the_matches_two_bots_met_in(
    web: TestClient, every: list[MatchRow]
) -> None:
    expected = [
        m.id
        for m in every
        if any(a != b for a in _seated(m, {"ada"}) for b in _seated(m, {"cyd", "fay"}))
    ]
    assert 0 < len(expected) < len(every)
    # "cyd" and "fay" are the bots holding "y": either counts as the opponent.
    found, _ = _walk(web, f"/matches?ladder={Q}&bot=ada&opponent=y")
    assert found == expected


def test_end_reason_and_faults_filter_together(web: TestClient, db: Path) -> None:
    # The history's timeouts are drawn at random: this one is sure to be found.
    sure = record_one(db, ["ada", "bea", "cyd"], fault_detail="an answer of no legal action")
    store = open_store(db, read_only=True)
    try:
        every = list(store.match_page(LEAGUE, before=None, limit=10_000))
        faulted = {
            r[0]
            for r in store.read("SELECT match_id FROM seats WHERE timeouts + errors + invalid > 0")
        }
    finally:
        store.close()
    expected = [m.id for m in every if m.end_reason == "score_limit" and m.id in faulted]
    assert sure in expected
    assert _walk(web, f"/matches?ladder={Q}&end=score_limit&faults=1")[0] == expected
    ended = [m.id for m in every if m.end_reason == "deck_exhausted"]
    assert _walk(web, f"/matches?ladder={Q}&end=deck_exhausted")[0] == ended


def test_dates_bound_the_list(web: TestClient, every: list[MatchRow]) -> None:
    later = [m.id for m in every if m.finished_at >= LATER]
    assert len(later) == 40
    day = "2023-11-17"  # the day LATER falls on (UTC)
    assert _walk(web, f"/matches?ladder={Q}&from={day}")[0] == later
    assert _walk(web, f"/matches?ladder={Q}&to=2023-11-16")[0] == [
        m.id for m in every if m.finished_at < LATER
    ]
    assert _walk(web, f"/matches?ladder={Q}&from={day}&to={day}&order=oldest")[0] == later[::-1]


def test_times_read_as_dates_and_faults_are_red_only_when_there_are_some(
    db: Path, every: list[MatchRow]
) -> None:
    # The history's timeouts are drawn at random: one match on the first page surely has
    # a fault, and the clean ones are the rest.
    record_one(db, ["ada", "bea", "cyd"], fault_detail="an answer of no legal action")
    with client(db) as web:
        text = web.get(f"/matches?ladder={Q}").text
    assert '<time datetime="2023-11-17T22:13:39Z">2023-11-17 22:13 UTC</time>' in text
    assert f">{int(every[0].finished_at)}" not in text  # no raw Unix time shown
    cells = re.findall(r'<td class="num( fault)?" data-value="(\d+)">', text)
    assert cells
    assert {bool(red) for red, count in cells} == {True, False}
    assert all(bool(red) == (int(count) > 0) for red, count in cells)


def test_filters_that_cannot_be_read_are_refused_in_plain_words(web: TestClient) -> None:
    answer = web.get(f"/matches?ladder={Q}&from=yesterday")
    assert answer.status_code == 400
    assert "YYYY-MM-DD" in answer.text
    unknown = web.get(f"/matches?ladder={Q}&bot=nobody-like-this")
    assert unknown.status_code == 404
    assert "no bot of this ladder has" in unknown.text
    # A page link carries its filters: it cannot be reused with others.
    text = web.get(f"/matches?ladder={Q}&bot=ada").text
    link = _link(text, "next")
    assert link is not None
    assert web.get(link.replace("bot=ada", "bot=cyd")).status_code == 400


def test_name_patterns_are_text_not_wildcards(db: Path) -> None:
    store = open_store(db, read_only=True)
    try:
        assert bots_like(store, LADDER, "%") == []
        assert bots_like(store, LADDER, "_") == []
        assert bots_like(store, LADDER, "A") == ["ada", "bea", "fay"]
        assert bots_like(store, LADDER, "ada") == ["ada"]
    finally:
        store.close()


def test_ladders_read_as_their_game_preset_and_table_size() -> None:
    shown = label("demo/abluxxen/amigo/4p")
    assert (shown.name, shown.league) == ("Abluxxen · amigo · 4 players", "demo")
    assert label("serve/fluxx/basic/3p").name.endswith("· basic · 3 players")
    assert label("an-old-ladder").name == "an-old-ladder"
    groups = by_game(["z/fluxx/basic/2p", "old", "a/abluxxen/amigo/4p", "b/abluxxen/amigo/2p"])
    assert [g.game for g in groups] == ["abluxxen", "fluxx", ""]
    assert [x.id for x in groups[0].ladders] == ["a/abluxxen/amigo/4p", "b/abluxxen/amigo/2p"]


def test_the_home_page_names_ladders_games_and_the_human_seat(tmp_path: Path) -> None:
    db = tmp_path / "home.db"
    ladder = "demo/abluxxen/amigo/3p"
    history(db, matches=5, ladder=ladder, league="demo")
    with client(db) as web:
        text = web.get("/").text
    assert "Abluxxen · amigo · 3 players" in text
    assert f'href="/matches?ladder={ladder}"' in text
    assert "Fluxx" in text  # every game this arena plays, rated or not
    assert 'href="/play"' not in text  # no human seat in this app
