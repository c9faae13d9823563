"""The web app's pages and JSON in-process (Starlette's TestClient over the real app, a
real database and the real read pool): secrecy, pagination, owners, bad input."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from starlette.testclient import TestClient

from arena.referee.record import decode_record
from arena.referee.replay import replay_lines
from arena.store import open_store
from arena.store.registry import change_bot
from arena.store.synthetic import add_bots, add_matches
from arena.store.tokens import create_token
from arena.web.app import create_app
from arena.web.guards import allowed_hosts
from arena.web.source import database_source

from .kit import LADDER, LEAGUE, history, real_record, record_one

Q = quote(LADDER, safe="")


def client(db: Path, host: str = "127.0.0.1", **settings: Any) -> TestClient:
    settings.setdefault("read_rate", 0.0)
    app = create_app(database_source(db, **settings), hosts=allowed_hosts(True))
    return TestClient(app, base_url="http://127.0.0.1:8080", client=(host, 40000))


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "arena.db"
    history(path, matches=120)
    return path


@pytest.fixture
def web(db: Path) -> Iterator[TestClient]:
    with client(db) as c:
        yield c


def first_match(db: Path) -> str:
    return f"{LEAGUE}/000003"


def test_a_seat_sees_only_its_replay_and_everything_shows_the_record(
    db: Path, web: TestClient
) -> None:
    lines = decode_record(real_record())
    match_id = first_match(db)
    seat = web.get(f"/api/replay/{match_id}?seat=1").json()
    assert seat["lines"] == list(replay_lines(lines, 1))
    assert seat["record"] == []  # the whole record (every hand) only with everything shown
    everything = web.get(f"/api/replay/{match_id}").json()
    assert everything["lines"] == list(replay_lines(lines, None))
    assert everything["record"] == lines
    page = web.get(f"/match/{match_id}?seat=1").text
    assert "as seat 1" in page
    assert web.get(f"/api/replay/{match_id}?seat=3").status_code == 400


def test_a_running_match_and_an_unshown_ladder_are_never_shown(db: Path) -> None:
    match_id = first_match(db)
    with client(db, running=lambda: {match_id}) as web:
        for url in (f"/api/replay/{match_id}", f"/match/{match_id}?seat=0"):
            answer = web.get(url)
            assert answer.status_code == 409
            assert "still being played" in answer.text
    with client(db, ladders=frozenset({"serve/other/2p"})) as web:
        assert web.get(f"/api/replay/{match_id}").status_code == 404
        assert web.get(f"/ladder?ladder={Q}").status_code == 404
        assert web.get(f"/matches?ladder={Q}").status_code == 404
        assert LADDER not in web.get("/").text


def test_a_duplicate_table_is_hidden_until_its_deal_group_is_in(tmp_path: Path) -> None:
    db = tmp_path / "dup.db"
    bots = ["b0", "b1", "b2", "b3", "b4", "b5", "b6"]
    league_config: dict[str, object] = {
        "settings": {"duplicate": True, "bots": bots[:6], "table_size": 3}
    }
    history(db, bots=bots, matches=1, league_config=league_config)  # table 0 of 2
    with client(db) as web:
        refused = web.get(f"/api/replay/{LEAGUE}/000000?seat=0")
        assert refused.status_code == 403
        assert "still to be played at other tables (1 of 2 played)" in refused.json()["error"]
        assert web.get(f"/match/{LEAGUE}/000000").status_code == 403
        store = open_store(db)
        try:
            add_matches(store, league_id=LEAGUE, ladder=LADDER, bots=bots, count=1,
                        table_size=3, first_index=1, record=real_record())  # fmt: skip
        finally:
            store.close()
        assert web.get(f"/api/replay/{LEAGUE}/000000?seat=0").status_code == 200


def _walk(web: TestClient, url: str) -> list[str]:
    """Every match id of a list, page after page."""
    seen: list[str] = []
    while True:
        text = web.get(url).text
        seen += re.findall(r'<tr data-match="([^"]+)">', text)
        more = re.search(r'class="more"[^>]* href="([^"]+)"', text)
        if more is None:
            return seen
        url = more.group(1).replace("&amp;", "&")


def test_the_match_list_pages_through_every_match_once(db: Path, web: TestClient) -> None:
    store = open_store(db, read_only=True)
    try:
        newest_first = [m.id for m in store.match_page(LEAGUE, before=None, limit=1000)]
        of_bot = [m.id for m in store.match_page(LEAGUE, bot="cyd", before=None, limit=1000)]
        faulted = {
            r[0]
            for r in store.read("SELECT match_id FROM seats WHERE timeouts + errors + invalid > 0")
        }
    finally:
        store.close()
    assert _walk(web, f"/matches?ladder={Q}") == newest_first
    assert _walk(web, f"/matches?ladder={Q}&bot=cyd") == of_bot
    with_faults = _walk(web, f"/matches?ladder={Q}&faults=1")
    assert with_faults == [m for m in newest_first if m in faulted]
    assert with_faults  # the history has faults to find
    assert _walk(web, f"/bot/cyd?ladder={Q}") == of_bot


def test_bad_input_is_refused_in_plain_words(web: TestClient) -> None:
    forged = web.get(f"/matches?ladder={Q}&page=AAAA")
    assert forged.status_code == 400
    assert "start again from the first page" in forged.text
    assert web.get("/match/x?seat=two").status_code == 400
    missing = web.get("/match/no-such-match")
    assert missing.status_code == 404
    assert "no finished match" in missing.text
    assert web.get("/ladder").status_code == 400
    assert web.get("/ladder?ladder=nope").status_code == 404
    assert web.post("/").status_code == 405  # nothing here writes
    assert web.get(f"/ladder?ladder={'x' * 400}").status_code == 400
    for answer in (forged, missing):
        assert "Error" not in answer.text  # no exception class names


def test_an_endpoint_is_shown_only_to_its_owner(db: Path) -> None:
    store = open_store(db)
    try:
        add_bots(store, ["sub"], owner="alice", endpoint_port=20000)
        change_bot(store, "sub", status_reason="cannot connect to 127.0.0.1:20000: refused")
        alice, bob = create_token(store, "alice"), create_token(store, "bob")
    finally:
        store.close()
    with client(db) as web:
        public = web.get("/api/bot/sub").json()
        assert public["endpoint"] == ""
        assert "127.0.0.1:20000" not in str(public)
        assert "ENDPOINT" in public["status_reason"]
        assert "127.0.0.1:20000" not in web.get("/bot/sub").text
        mine = web.get("/api/bot/sub", headers={"Authorization": f"Bearer {alice}"}).json()
        assert mine["endpoint"] == "127.0.0.1:20000"
        theirs = web.get("/api/bot/sub", headers={"Authorization": f"Bearer {bob}"}).json()
        assert theirs["endpoint"] == ""
        wrong = web.get("/api/bot/sub", headers={"Authorization": "Bearer nope.nope"})
        assert wrong.status_code == 401
    with client(db, host="192.0.2.7") as far:
        answer = far.get("/api/bot/sub", headers={"Authorization": f"Bearer {alice}"})
        assert answer.status_code == 403
        assert "only over TLS or from this machine" in answer.json()["error"]


def test_a_hostile_fault_detail_shows_as_text(db: Path, web: TestClient) -> None:
    detail = "<script>alert(3)</script>\u202e\x1b[2J"
    match_id = record_one(db, ["ada", "bea", "cyd"], fault_detail=detail)
    page = web.get(f"/bot/ada?ladder={Q}").text
    assert '<td class="detail">&lt;script&gt;alert(3)&lt;/script&gt;\\u202e\\x1b[2J</td>' in page
    assert "<script>alert" not in page
    assert match_id in page


def test_reads_are_limited_per_client_address(db: Path) -> None:
    with client(db, read_rate=0.001, read_burst=2) as web:
        assert [web.get("/").status_code for _ in range(3)] == [200, 200, 429]


@pytest.mark.slow
def test_arena_serve_shows_its_own_ladder_only(tmp_path: Path) -> None:
    """``arena serve --web-port``: the same app on the arena's loop, its ladder only."""
    from server.support import Processes

    from arena.server.config import ServeConfig

    db = tmp_path / "serve.db"
    ladder = ServeConfig(db=str(db), port=0, table_size=3).ladder
    history(db, matches=10, ladder=ladder, league=ladder)  # the arena's own ladder
    history(db, matches=10)  # a league run on the same file: not the arena's to publish
    processes = Processes()
    try:
        server = processes.serve(db, "--table-size", "3", "--web-port", "0")
        assert server.popen.stdout is not None
        base = next(
            line.removeprefix("arena web serving on ").strip()
            for line in server.popen.stdout
            if line.startswith("arena web serving on ")
        )
        import urllib.error
        import urllib.request

        def status(path: str) -> int:
            try:
                with urllib.request.urlopen(base + path, timeout=30) as answer:
                    return int(answer.status)
            except urllib.error.HTTPError as error:
                return error.code

        assert status(f"/ladder?ladder={quote(ladder, safe='')}") == 200
        assert status(f"/api/replay/{ladder}/000001?seat=0") == 200
        assert status(f"/ladder?ladder={Q}") == 404
        assert status(f"/api/replay/{LEAGUE}/000001") == 404
    finally:
        processes.kill_all()


def test_the_leaderboard_carries_the_rank_intervals_every_leaderboard_shows(
    db: Path, web: TestClient
) -> None:
    """The web app's leaderboard has each bot's 95% rank interval and the
    probability it is better than the next bot down, the same as `arena ratings`."""
    from arena.league.leaderboard import leaderboard

    store = open_store(db, read_only=True)
    try:
        expected = {
            r.name: (r.rank_low, r.rank_high, r.p_above_next) for r in leaderboard(store, LADDER)
        }
    finally:
        store.close()
    rows = web.get(f"/api/ladder?ladder={Q}").json()["rows"]
    assert {r["bot"]: (r["rank_low"], r["rank_high"], r["p_above_next"]) for r in rows} == expected
    # (A bot ranked by its conservative rating mu - 3 sigma may hold a rank outside its
    # interval, which comes from the whole belief: no order between the two is asked.)
    assert all(1 <= r["rank_low"] <= r["rank_high"] <= len(expected) for r in rows)
    page = web.get(f"/ladder?ladder={Q}").text
    first = rows[0]
    assert f"{first['rank_low']}–{first['rank_high']}" in page


def _first_event(web: TestClient, url: str) -> list[str]:
    """The lines of a live stream up to its first ``matches`` event (it never ends)."""
    lines: list[str] = []
    with web.stream("GET", url) as answer:
        assert answer.status_code == 200
        for line in answer.iter_lines():
            lines.append(line)
            if line.startswith("data:"):
                return lines
    return lines


def test_a_live_page_is_told_of_a_match_recorded_before_it_listened(
    db: Path, web: TestClient
) -> None:
    # The page rendered, then a match was recorded, then the page opened its stream:
    # no watcher saw the ladder move after the page listened, but the page said what it
    # showed (data-head), so it is told at once.
    page = web.get(f"/ladder?ladder={Q}").text
    head = re.search(r'data-head="([^"]*)"', page)
    assert head is not None
    assert head.group(1)
    record_one(db, ["gil", "ada", "bea"])
    lines = _first_event(web, f"/events?ladder={Q}&head={quote(head.group(1))}")
    assert lines[-2:] == ["event: matches", f'data: {{"ladders": ["{LADDER}"]}}']


def test_a_live_stream_with_an_unreadable_head_still_streams(web: TestClient) -> None:
    with web.stream("GET", f"/events?ladder={Q}&head=%1b[31m:x") as answer:
        assert answer.status_code == 200
        assert next(answer.iter_lines()) == "retry: 3000"
