"""The lobby in-process: a person opens a table, others join it by its link until it is
full (then refused in words), only the host starts it, each person's page shows their
own seat and no other's (and no page shows one without a seat's key), the list is
bounded, and a table nobody starts expires (on a fake clock)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from arena.store import open_store
from arena.web.app import create_app
from arena.web.guards import allowed_hosts
from arena.web.lobby import MAX_OPEN, OPEN_FOR_S
from arena.web.play_access import seat_cookie
from arena.web.play_room import PlayRoom, PlaySettings
from arena.web.source import database_source

HERE = "127.0.0.1:8000"
OPEN = {
    "game": "abluxxen",
    "players-abluxxen": "3",
    "preset-abluxxen": "amigo",
    "bots-abluxxen": "random",
}


class Clock:
    """The lobby's clock, moved by the test."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def client(db: Path, clock: Clock, **settings: Any) -> TestClient:
    open_store(db).close()
    room = PlayRoom(PlaySettings(db=db, **settings), clock=clock)
    app = create_app(database_source(db, read_rate=0.0), hosts=allowed_hosts(True), play=room)
    return TestClient(app, base_url=f"http://{HERE}", follow_redirects=False)


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def web(tmp_path: Path, clock: Clock) -> Iterator[TestClient]:
    with client(tmp_path / "arena.db", clock) as c:
        yield c


def _as(web: TestClient, method: str, path: str, key: str, table: str, **kw: Any) -> Any:
    """A request by the person holding ``key`` at ``table`` ("": nobody's), with no
    other cookie: each person is a browser of their own."""
    web.cookies.clear()
    headers = {"cookie": f"{seat_cookie(table)}={key}"} if key else {}
    answer = web.request(method, path, headers=headers, **kw)
    web.cookies.clear()
    return answer


def _key(answer: Any, table: str) -> str:
    cookie = answer.headers["set-cookie"]
    found = re.search(rf"{re.escape(seat_cookie(table))}=([^;]+);", cookie)
    assert found is not None, cookie
    assert "HttpOnly" in cookie
    assert "SameSite=strict" in cookie
    assert "Path=/play/" in cookie
    return found[1]


def _open(web: TestClient, name: str, **fields: str) -> tuple[str, str]:
    web.cookies.clear()
    answer = web.post("/play/lobby", data={**OPEN, "name": name, **fields})
    assert answer.status_code == 303, answer.text
    table = answer.headers["location"].removeprefix("/play/lobby/")
    return table, _key(answer, table)


def _join(web: TestClient, table: str, name: str) -> Any:
    return _as(web, "POST", f"/play/lobby/{table}/join", "", table, data={"name": name})


def test_people_join_a_table_until_it_is_full_and_the_host_starts_it(web: TestClient) -> None:
    table, ann = _open(web, "ann")
    listed = web.get("/play/lobby").text
    assert f'data-table="{table}"' in listed
    assert "1 of 3" in listed
    assert "ann" in listed
    assert "/play/lobby" in web.get("/play").text  # the solo page links the lobby

    bob = _key(joined := _join(web, table, "bob"), table)
    assert joined.status_code == 303
    assert _join(web, table, "bob").status_code == 409  # a name once per table
    carl = _key(_join(web, table, "carl"), table)
    full = _join(web, table, "dave")
    assert full.status_code == 409
    assert "this table is full: 3 of 3 seats are taken" in full.text
    assert "3 of 3" in web.get("/play/lobby").text
    page = _as(web, "GET", f"/play/lobby/{table}", "", table).text
    assert "This table is full" in page
    assert "Join this table" not in page
    assert "you" not in re.findall(r"<li>([^<]*)</li>", page)

    refused = _as(web, "POST", f"/play/lobby/{table}/start", bob, table)
    assert refused.status_code == 409
    assert "only the person who opened this table can start it" in refused.text
    host_page = _as(web, "GET", f"/play/lobby/{table}", ann, table).text
    assert "Start the match" in host_page
    assert "ann (host) — you" in host_page
    started = _as(web, "POST", f"/play/lobby/{table}/start", ann, table)
    assert started.status_code == 303
    assert started.headers["location"] == f"/play/{table}"
    assert table not in web.get("/play/lobby").text  # no longer waiting
    late = _join(web, table, "erin")
    assert late.status_code == 409
    assert "this table has started" in late.text
    # Those at the table are sent to it; the others are told it started.
    there = _as(web, "GET", f"/play/lobby/{table}", carl, table)
    assert there.status_code == 303
    assert there.headers["location"] == f"/play/{table}"

    seats: dict[str, int] = {}
    hands: list[str] = []
    for name, key in (("ann", ann), ("bob", bob), ("carl", carl)):
        page = _as(web, "GET", f"/play/{table}", key, table).text
        seat = int(re.search(r"you are seat (\d) \(([^)]*)\)", page)[1])  # type: ignore[index]
        assert f"you are seat {seat} ({name})" in page
        seats[name] = seat
        # This person's hand (once they have been asked), and nobody else's.
        shown = re.findall(r'data-hand="(\d)"', page)
        assert shown in ([], [str(seat)])
        hands += shown
    assert sorted(seats.values()) == [0, 1, 2]  # three people, no bot
    assert hands  # the first to decide sees their hand
    for key in ("", "not-a-key", ann + "x"):
        nobody = _as(web, "GET", f"/play/{table}", key, table)
        assert nobody.status_code == 403
        assert "belong to the people who joined it" in nobody.text
        assert "data-hand" not in nobody.text
        posted = _as(
            web,
            "POST",
            f"/play/{table}",
            key,
            table,
            data={"request": "1", "choice": "0"},
        )
        assert posted.status_code == 403


def test_bad_openings_are_refused_in_words(web: TestClient) -> None:
    for fields, words in (
        ({"name": "<b>x</b>"}, "bad bot name"),
        ({"name": ""}, "bad bot name"),
        ({"name": "ann", "players-abluxxen": "9"}, "players"),
        ({"name": "ann", "bots-abluxxen": "nope"}, "no built-in bot"),
    ):
        answer = web.post("/play/lobby", data={**OPEN, **fields})
        assert answer.status_code in (400, 409), fields
        assert words in answer.text, (fields, answer.text)
        assert "<b>x</b>" not in answer.text
    assert "No table is waiting" in web.get("/play/lobby").text
    missing = web.get("/play/lobby/nothing-here")
    assert missing.status_code == 404
    assert "no such table is waiting here" in missing.text


def test_the_lobby_is_bounded_and_a_table_nobody_starts_expires(
    web: TestClient, clock: Clock
) -> None:
    first, _ann = _open(web, "ann")
    clock.now += OPEN_FOR_S / 2
    for n in range(1, MAX_OPEN):
        _open(web, f"host{n}")
    refused = web.post("/play/lobby", data={**OPEN, "name": "late"})
    assert refused.status_code == 409
    assert f"{MAX_OPEN} tables are waiting for people here" in refused.text
    assert web.get("/play/lobby").text.count("data-table=") == MAX_OPEN

    clock.now += OPEN_FOR_S / 2 + 1  # the first table has waited too long
    listed = web.get("/play/lobby").text
    assert first not in listed
    assert listed.count("data-table=") == MAX_OPEN - 1
    gone = _join(web, first, "bob")
    assert gone.status_code == 409
    assert "nobody started it within 15 minutes" in gone.text
    _open(web, "late")  # its place is free again


def test_only_a_rated_arena_rates_a_lobby_table(tmp_path: Path, clock: Clock) -> None:
    with client(tmp_path / "a.db", clock) as web:
        assert 'name="rated"' not in web.get("/play/lobby").text
        _open(web, "ann", rated="yes")
        assert "unrated" in web.get("/play/lobby").text
    with client(tmp_path / "b.db", clock, rated=True) as web:
        assert 'name="rated"' in web.get("/play/lobby").text
        _open(web, "ann", rated="yes")
        _open(web, "bob")
        rows = re.findall(r"<td>(rated|unrated)</td>", web.get("/play/lobby").text)
        assert sorted(rows) == ["rated", "unrated"]


@pytest.mark.slow  # bot processes
def test_submitted_bots_fill_the_empty_seats(tmp_path: Path, clock: Clock) -> None:
    """Bots registered in the arena's database (active ones only, each saying Hello
    first: real bot processes) take the seats nobody took; too few are refused in words."""
    from server.support import RANDOM_BOT, Processes

    from arena.store.registry import BotStatus, add_bot, change_bot

    db = tmp_path / "arena.db"
    processes = Processes()
    try:
        first, second = processes.bots([RANDOM_BOT], [RANDOM_BOT])
        store = open_store(db)
        try:
            for name, proc in (("rb1", first), ("rb2", second), ("asleep", second)):
                add_bot(store, name, "owner", proc.address, "")
            for name in ("rb1", "rb2"):
                change_bot(store, name, status=BotStatus.ACTIVE)
        finally:
            store.close()
        with client(db, clock) as web:
            assert "bots submitted to this arena" in web.get("/play/lobby").text
            table, ann = _open(web, "ann", **{"bots-abluxxen": "submitted"})
            started = _as(web, "POST", f"/play/lobby/{table}/start", ann, table)
            assert started.status_code == 303, started.text
            names = web.app.state.play.tables[table].names  # type: ignore[attr-defined]
            assert sorted(names) == ["ann", "rb1", "rb2"]  # never the suspended one
            big, host = _open(web, "bob", **{"bots-abluxxen": "submitted", "players-abluxxen": "4"})
            refused = _as(web, "POST", f"/play/lobby/{big}/start", host, big)
            assert refused.status_code == 409
            assert "only 2 submitted bots could take a seat at this table, not 3" in refused.text
            assert big in web.get("/play/lobby").text  # still waiting
    finally:
        processes.kill_all()
