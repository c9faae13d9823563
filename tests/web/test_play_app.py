"""The human seat's pages in-process: beyond loopback only with the play token, a table
started from the form against built-in bots, bad input refused in plain words, a stale
choice refused without losing the decision, and a whole match played by posting the
offered choices, recorded (unrated) and replayable as the person saw it."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from arena.store import open_store
from arena.web.app import create_app
from arena.web.guards import allowed_hosts
from arena.web.play_record import UNRATED_LEAGUE
from arena.web.play_room import PlayRoom, PlaySettings
from arena.web.source import database_source

HERE = "127.0.0.1:8000"
FORM = {
    "game": "abluxxen",
    "players-abluxxen": "3",
    "preset-abluxxen": "amigo",
    "bots-abluxxen": "random",
    "name": "ann",
}


def client(db: Path, **settings: Any) -> TestClient:
    open_store(db).close()
    room = PlayRoom(PlaySettings(db=db, **settings))
    hosts = allowed_hosts(room.settings.loopback)
    app = create_app(database_source(db, read_rate=0.0), hosts=hosts, play=room)
    # The address a person opens (Host 127.0.0.1:8000), as `arena play` prints it.
    return TestClient(app, base_url=f"http://{HERE}", follow_redirects=False)


@pytest.fixture
def web(tmp_path: Path) -> Iterator[TestClient]:
    with client(tmp_path / "arena.db") as c:
        yield c


def _choices(page: str) -> tuple[str, int] | None:
    """(request id, number of legal choices) of a page offering choices (as buttons, or
    as cards to tick: each is posted by its index too)."""
    form = re.search(
        r'data-choices="(\d+)">\s*<input type="hidden" name="request" value="(\d+)"', page
    )
    if form is None:
        return None
    return form[2], int(form[1])


def _turn(web: TestClient, page: str) -> str:
    """Follow the page's reloads (each waits for the person's turn) until it offers a
    choice or shows the end."""
    for _ in range(100):
        reload = re.search(r'data-reload-url="([^"]+)"', page)
        if reload is None:
            return page
        page = web.get(reload[1]).text
    raise AssertionError("the page kept waiting")


def test_beyond_loopback_the_tables_need_the_token(tmp_path: Path) -> None:
    with client(tmp_path / "a.db", loopback=False) as c:
        answer = c.get("/play")
        assert answer.status_code == 403
        assert "only with a token" in answer.text
    with client(tmp_path / "b.db", loopback=False, token="s3cret") as c:
        assert c.get("/play").status_code == 403
        assert "give the play token" in c.get("/play/abc").text
        assert c.get("/play?token=wrong").status_code == 403
        assert c.post("/play", data=FORM).status_code == 403
        assert c.get("/play?token=s3cret").status_code == 200  # and the cookie is kept
        assert c.get("/play").status_code == 200
        assert c.post("/play", data=FORM).status_code == 303


@pytest.mark.parametrize(
    ("headers", "refusal"),
    [
        ({"origin": "https://evil.example"}, "posted from another site"),
        ({"origin": "null"}, "posted from another site"),  # a sandboxed page
        ({"origin": "http://127.0.0.1:9999"}, "posted from another site"),  # another port
        ({"sec-fetch-site": "cross-site"}, "posted from another site"),
        ({"sec-fetch-site": "same-site"}, "posted from another site"),
        # A site that rebinds its name's DNS to 127.0.0.1 posts as itself, same-origin.
        ({"host": "evil.example:8000", "origin": "http://evil.example:8000"}, "not served under"),
    ],
)
def test_forms_posted_from_another_site_are_refused(
    web: TestClient, headers: dict[str, str], refusal: str
) -> None:
    answer = web.post("/play", data=FORM, headers=headers)
    assert answer.status_code == 403
    assert refusal in answer.text
    room = web.app.state.play  # type: ignore[attr-defined]
    assert not room.tables, "the refused form started a table"
    started = web.post("/play", data=FORM)
    assert started.status_code == 303
    table = started.headers["location"]
    choose = {"request": "1", "choice": "0"}
    assert web.post(table, data=choose, headers=headers).status_code == 403
    # The person's own page posts same-origin, as browsers say.
    same = {"origin": f"http://{HERE}", "sec-fetch-site": "same-origin"}
    assert web.post("/play", data=FORM, headers=same).status_code == 303


def test_bad_forms_are_refused_in_plain_words(web: TestClient) -> None:
    cases = {
        "players-abluxxen": ("9", "players"),
        "bots-abluxxen": ("nope", "no built-in bot &#39;nope&#39;; choose one of"),
        "game": ("chess", "chess"),
        "name": ("a\nb", "name"),
    }
    for field, (value, words) in cases.items():
        answer = web.post("/play", data={**FORM, field: value})
        assert answer.status_code == 400, field
        assert words in answer.text, (field, answer.text)
        assert "Error" not in answer.text  # no class names
    assert "no such table" in web.get("/play/nothing-here").text
    assert web.post("/play", content=b"x" * 5000).status_code == 413


def test_a_person_plays_a_whole_match_and_it_is_recorded(tmp_path: Path, web: TestClient) -> None:
    started = web.post("/play", data=FORM)
    assert started.status_code == 303
    table = started.headers["location"]
    page = _turn(web, web.get(table).text)
    first = _choices(page)
    assert first is not None
    request, buttons = first
    assert buttons > 0

    stale = web.post(table, data={"request": str(int(request) + 7), "choice": "0"})
    assert stale.status_code == 409
    assert "that choice was for an earlier decision" in stale.text
    again = _choices(stale.text)
    assert again is not None
    assert again[0] == request  # the decision is still waiting
    out_of_range = web.post(table, data={"request": request, "choice": str(buttons)})
    assert out_of_range.status_code == 409
    assert f"there is no choice {buttons + 1}" in out_of_range.text

    chooser = random.Random(1)
    for _ in range(1000):
        offered = _choices(page)
        if offered is None:
            break
        request, buttons = offered
        answer = web.post(
            table, data={"request": request, "choice": str(chooser.randrange(buttons))}
        )
        assert answer.status_code == 303
        page = _turn(web, web.get(answer.headers["location"]).text)
    assert "The match is over" in page
    match_id = re.search(r'class="match-id">([^<]+)<', page)
    assert match_id is not None
    assert match_id[1].startswith(f"{UNRATED_LEAGUE}/")

    store = open_store(tmp_path / "arena.db", read_only=True)
    try:
        row = store.match(match_id[1])
        assert store.ratings(row.ladder if row else "") == []  # recorded, not rated
    finally:
        store.close()
    assert row is not None
    seat = next(s.seat for s in row.seats if s.bot == "ann")
    replay = web.get(f"/replay/{match_id[1]}?seat={seat}")
    assert replay.status_code == 200
    assert replay.text.count("data-hand=") == 1


@pytest.mark.slow
def test_arena_serve_offers_its_game_at_play_and_shows_what_was_played(tmp_path: Path) -> None:
    """``arena serve --web-port 0 --web-play``: the start page offers the arena's game
    only; a table started there is played on the arena's loop and recorded (unrated), and
    its match is shown beside the arena's ladder."""
    import urllib.parse
    import urllib.request
    from urllib.parse import urljoin

    from server.support import Processes

    db = tmp_path / "serve.db"
    processes = Processes()
    try:
        server = processes.serve(db, "--table-size", "3", "--web-port", "0", "--web-play")
        assert server.popen.stdout is not None
        base = next(
            line.removeprefix("arena web serving on ").strip()
            for line in server.popen.stdout
            if line.startswith("arena web serving on ")
        )
        with urllib.request.urlopen(base + "/play", timeout=30) as answer:
            start = answer.read().decode()
        assert re.findall(r'<option value="([^"]+)">', start) == ["abluxxen"]
        form = {**FORM, "players-abluxxen": "2", "bots-abluxxen": "greedy"}
        with urllib.request.urlopen(
            base + "/play", data=urllib.parse.urlencode(form).encode(), timeout=30
        ) as answer:  # followed to the table
            page = answer.read().decode()
            table = answer.url
        while reload := re.search(r'data-reload-url="([^"]+)"', page):
            with urllib.request.urlopen(urljoin(table, reload[1]), timeout=60) as answer:
                page = answer.read().decode()
        for _ in range(1000):
            offered = _choices(page)
            if offered is None:
                break
            request, _buttons = offered
            body = urllib.parse.urlencode({"request": request, "choice": "0"})
            with urllib.request.urlopen(table, data=body.encode(), timeout=60) as answer:
                page = answer.read().decode()
            while reload := re.search(r'data-reload-url="([^"]+)"', page):
                with urllib.request.urlopen(urljoin(table, reload[1]), timeout=60) as answer:
                    page = answer.read().decode()
        assert "The match is over" in page
        match_id = re.search(r'class="match-id">([^<]+)<', page)
        assert match_id is not None
        with urllib.request.urlopen(f"{base}/match/{match_id[1]}", timeout=30) as answer:
            assert answer.status == 200
    finally:
        processes.kill_all()
