"""Following a match as it is played: the referee's log of applied actions, the public
board a delay behind play (on a fake clock), the live pages and the home page's list of
matches in progress (in-process, over the real app)."""

from __future__ import annotations

import asyncio
import random
import re
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from arena.games import AnyGame, get
from arena.referee import MatchSpec, builtin_seat, run_match
from arena.referee.live import LiveLog, LiveMatch, Watchable
from arena.server.reads import ReadPool
from arena.web.app import create_app
from arena.web.guards import allowed_hosts
from arena.web.source import InPlay, WebSource

from .kit import history

NAMES = ("ann", "<b>bo</b>", "cy")


def _played(game: AnyGame, seed: int) -> tuple[Any, list[int]]:
    """A real match of three built-in ``random`` seats, with its live log: the config
    and the codes the referee logged (one per decision, checked)."""
    config = game.make_config(3)
    log = LiveLog()
    spec = MatchSpec(match_id="m", config=config, game=game, seed=seed, live=log)
    seats = [builtin_seat(name, game.policies["random"], n) for n, name in enumerate(NAMES)]
    outcome = asyncio.run(run_match(spec, seats))
    assert len(log) == outcome.decisions
    assert list(log.times) == sorted(log.times)
    return config, list(log.codes)


def _match(game: AnyGame, seed: int, codes: list[int]) -> LiveMatch:
    """The match as a watcher sees it, its actions logged one a second from t = 0."""
    config = game.make_config(3)
    match = LiveMatch("live/1", game, config, seed, None, NAMES, 1.7e9)
    for n, code in enumerate(codes):
        match.log.taken(float(n), code)
    return match


def _after(game: AnyGame, seed: int, codes: list[int]) -> Any:
    state = game.new_match(game.make_config(3), random.Random(seed))
    for code in codes:
        game.apply_legal(state, game.action_from_code(code))
    return state


@pytest.mark.parametrize("name", ["abluxxen", "fluxx"])
def test_a_watcher_sees_the_public_board_the_delay_behind_play(name: str) -> None:
    game = get(name)
    board = game.board
    assert board is not None
    _, codes = _played(game, seed=5)
    match = _match(game, 5, codes)
    for now, delay, shown in [
        (10.5, 0.0, 11),
        (30.0, 5.0, 26),
        (12.0, 5.0, 8),
        (1e9, 0, len(codes)),
    ]:
        view, count = match.public_view(delay, clock=lambda now=now: now)  # type: ignore[misc]
        assert count == shown  # every action logged at or before now - delay
        state = _after(game, 5, codes[:shown])
        assert view == board.public_view(state, game.events(state), NAMES)
        assert all(seat["hand"] is None for seat in view["seats"])  # nobody's hand
    _, count = match.public_view(5.0, clock=lambda: 2.0)
    assert count == 0  # before the delay has passed: the deal as it started


def _app(match: LiveMatch | None, db: Path, *, running: bool = True) -> TestClient:
    ids = {"live/1"} if running else set()
    source = WebSource(
        ReadPool(db),
        owns_reads=True,
        read_rate=0.0,
        running=lambda: ids,
        in_play=lambda: [InPlay("live/1", NAMES, 1.7e9)] if running else [],
        watching=lambda match_id: match if match_id == "live/1" else None,
        watch_delay_s=0.0,
    )
    app = create_app(source, hosts=allowed_hosts(True))
    return TestClient(app, base_url="http://127.0.0.1:8080")


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "arena.db"
    history(path, matches=3)
    return path


@pytest.fixture
def abluxxen_match() -> LiveMatch:
    game = get("abluxxen")
    _, codes = _played(game, seed=9)
    return _match(game, 9, codes[:20])


def test_the_live_pages_show_the_public_board_and_the_home_page_lists_the_match(
    db: Path, abluxxen_match: LiveMatch
) -> None:
    with _app(abluxxen_match, db) as web:
        page = web.get("/live/live/1")
        assert page.status_code == 200
        assert "20 decisions in" in page.text
        assert "abx-seat" in page.text  # the game's board
        assert "data-hand" not in page.text  # no seat's hand is drawn
        assert "&lt;b&gt;bo&lt;/b&gt;" in page.text  # names are text
        assert "<b>bo</b>" not in page.text
        fragment = web.get("/live-board/live/1").text
        assert 'data-over="0"' in fragment
        assert "<html" not in fragment
        home = web.get("/").text
        assert "Matches in progress" in home
        assert 'href="/live/live/1"' in home
        # The record of a match being played stays unshown, whatever its live page shows.
        assert web.get("/api/replay/live/1").status_code in (404, 409)


def test_a_match_no_longer_played_points_to_its_replay(db: Path) -> None:
    with _app(None, db, running=False) as web:
        assert web.get("/live/live/1").status_code == 404
        fragment = web.get("/live-board/live/1").text
        assert 'data-over="1"' in fragment
        assert 'href="/match/live/1"' in fragment
        assert "Matches in progress" not in web.get("/").text


def test_a_match_played_where_it_cannot_be_followed_says_so(db: Path) -> None:
    with _app(None, db, running=True) as web:
        answer = web.get("/live/live/1")
        assert answer.status_code == 404
        assert "not where it can be followed" in answer.text
        home = web.get("/").text
        assert "Matches in progress" in home
        assert "/live/live/1" not in home  # listed, without a watch link


def test_a_match_is_watchable_only_while_it_is_played() -> None:
    watchable = Watchable()
    match = LiveMatch("x/1", get("fluxx"), get("fluxx").make_config(2), 1, None, ("a", "b"), 0.0)
    with watchable.playing(match) as log:
        assert log is match.log
        assert watchable.get("x/1") is match
        assert list(watchable.ids()) == ["x/1"]
    assert watchable.get("x/1") is None
    with pytest.raises(RuntimeError), watchable.playing(match):
        raise RuntimeError("a match that fails is gone as well")
    assert watchable.get("x/1") is None


def test_the_organiser_delay_is_checked(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from arena.cli import main

    status = main(["serve", "--db", str(tmp_path / "a.db"), "--web-watch-delay-s", "-1"])
    assert status == 2
    assert re.search(r"--web-watch-delay-s must be 0\.\.3600 seconds", capsys.readouterr().err)
