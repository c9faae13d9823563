"""Following a match that a worker process plays (``arena serve --executor processes``):
the worker relays its live log (codes and ages, nothing else) to the serving process,
whose web app shows the public board from it, a delay behind play, as for a match on
its own loop. A real worker process and real gRPC bots, which decide only when the test
lets them (scripted seats); the delay on a fake clock."""

from __future__ import annotations

import asyncio
import random
import re
import signal
import threading
import time
import urllib.request
from array import array
from collections.abc import Sequence
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from starlette.testclient import TestClient
from web.kit import history

from arena.games import get
from arena.league.executors import Executor
from arena.league.executors.live_relay import LiveRelay
from arena.league.executors.processes import ProcessesExecutor
from arena.league.executors.ray_pool import RayExecutor
from arena.referee.live import WATCHABLE, LiveLog, LiveMatch
from arena.referee.record import decode_record
from arena.sdk import BotInfo
from arena.sdk.server import launch
from arena.sdk.servicer import PolicyServicer
from arena.server.reads import ReadPool
from arena.server.served import ServedMatch, ServedRecipe
from arena.v1 import arena_pb2
from arena.web.app import create_app
from arena.web.guards import allowed_hosts
from arena.web.source import WebSource

from .support import (
    Processes,
    stub,
    submit,
    token,
    until_async,
    wait_status,
    wait_until,
)

GAME = get("abluxxen")
CONFIG = GAME.make_config(2, "amigo")
NAMES = ("ann", "bo")
MATCH = "serve/000001"


class Gated:
    """Decides (at random, seeded) only when the test opens the gate, one decision a
    pass: the match moves exactly as far as the test says."""

    threaded = True  # it blocks: never on the bot's event loop

    def __init__(self, gate: threading.Semaphore) -> None:
        self.gate = gate
        self.rng = random.Random(1)

    def choose(self, obs: Any) -> Any:
        self.gate.acquire()
        return self.rng.choice(list(obs.legal))


def _job(endpoint: str) -> ServedMatch:
    return ServedMatch(
        match_id=MATCH, game=GAME.name, config=CONFIG, seed=11,
        seats=tuple((name, endpoint) for name in NAMES), deadline_ms=120_000, max_strikes=3,
        connect_timeout_s=30.0, max_reply_bytes=1 << 20, league_id="serve", index=1,
        ladder="serve/abluxxen/amigo/2p", game_json=GAME.config_to_json(CONFIG),
    )  # fmt: skip


def _after(codes: Sequence[int]) -> Any:
    """The match from its seed after ``codes`` (each checked legal)."""
    state = GAME.new_match(CONFIG, random.Random(11))
    for code in codes:
        GAME.apply(state, GAME.action_from_code(code))
    return state


def _web(db: Path) -> TestClient:
    source = WebSource(
        ReadPool(db),
        owns_reads=True,
        read_rate=0.0,
        running=lambda: set(WATCHABLE.ids()),
        watching=WATCHABLE.get,
        watch_delay_s=0.0,
    )
    return TestClient(create_app(source, hosts=allowed_hosts(True)), base_url="http://127.0.0.1")


def _executor(name: str) -> Executor:
    if name == "ray":
        pytest.importorskip("ray")
        return RayExecutor(ServedRecipe(None), workers=1)
    return ProcessesExecutor(ServedRecipe(None), workers=1)


@pytest.mark.slow
@pytest.mark.parametrize("executor_name", ["processes", "ray"])
def test_a_match_on_a_worker_process_is_followed_from_the_serving_process(
    tmp_path: Path, executor_name: str
) -> None:
    board = GAME.board
    assert board is not None
    executor = _executor(executor_name)

    async def scenario() -> None:
        gate = threading.Semaphore(0)
        bot = await launch(
            PolicyServicer(lambda: Gated(gate), BotInfo("gated", games=(GAME.name,))),
            address="127.0.0.1:0",
        )
        await executor.start()
        try:
            watched = LiveMatch(MATCH, GAME, CONFIG, 11, None, NAMES, time.time())
            sent_at = time.monotonic()
            with WATCHABLE.playing(watched) as log:
                playing = asyncio.create_task(executor.play(_job(f"127.0.0.1:{bot.port}"), log))
                gate.release(6)
                await until_async(lambda: len(log) == 6, "six decisions relayed")
                await asyncio.to_thread(_seen_live, tmp_path, watched, board)
                assert sent_at <= log.times[0] <= log.times[-1] <= time.monotonic()
                gate.release(100_000)  # the rest of the match
                outcome = await playing
                relayed = list(log.codes)
            assert WATCHABLE.get(MATCH) is None  # gone with its match
            assert executor.workers[0]._live == {}  # type: ignore[attr-defined]  # nor kept here
        finally:
            gate.release(100_000)
            await executor.stop()
            await bot.server.stop(0)
        record = decode_record(outcome.finished.record)
        played = [line["action"] for line in record if line["type"] == "decision"]
        assert relayed == played[: len(relayed)]  # the worker's actions, in order

    asyncio.run(scenario())


def _seen_live(tmp_path: Path, watched: LiveMatch, board: Any) -> None:
    """What people see of the match six decisions in: the public board, and only what
    the delay has let through (a fake clock), on the page as in the view."""
    codes = list(watched.log.codes)
    times = list(watched.log.times)
    _after(codes)  # every relayed code is legal in turn: the match's own actions
    for now, shown in [(times[0] + 4.999, 0), (times[2] + 5.0, None), (times[-1] + 5.0, 6)]:
        view, count = watched.public_view(5.0, clock=lambda now=now: now)  # type: ignore[misc]
        if shown is not None:
            assert count == shown
        state = _after(codes[:count])
        assert view == board.public_view(state, GAME.events(state), NAMES)
        assert all(seat["hand"] is None for seat in view["seats"])  # nobody's hand
    db = tmp_path / "arena.db"
    history(db, matches=1)
    with _web(db) as web:
        page = web.get(f"/live-board/{quote(MATCH)}")
        assert 'data-over="0"' in page.text
        assert "6 decisions in" in page.text
        assert "data-hand" not in page.text


def test_relayed_actions_keep_their_ages_on_the_receiving_clock() -> None:
    log = LiveLog()
    log.taken_ago(100.0, [3.0, 2.5], [7, 8])
    assert list(log.times) == [97.0, 97.5]
    # A later batch that travelled faster may seem older than what came before: times
    # stay in order (a watcher's cut-off is a prefix of the log), never earlier.
    log.taken_ago(100.2, [3.0, 0.2], [9, 10])
    assert list(log.times) == [97.0, 97.5, 97.5, 100.0]
    assert list(log.codes) == [7, 8, 9, 10]


def test_a_worker_relays_only_new_codes_and_their_ages_and_forgets_ended_jobs() -> None:
    relay = LiveRelay()
    assert not relay
    first, second = relay.watch(1), relay.watch(2)
    first.taken(10.0, 5)
    first.taken(10.5, 6)
    assert relay.batch(11.0) == [(1, array("d", [1.0, 0.5]), array("q", [5, 6]))]
    assert relay.batch(11.5) == []  # nothing new
    first.taken(11.6, 7)
    second.taken(11.7, 8)
    assert relay.batch(12.0) == [
        (1, array("d", [12.0 - 11.6]), array("q", [7])),
        (2, array("d", [12.0 - 11.7]), array("q", [8])),
    ]
    relay.forget(1)
    relay.forget(2)
    assert not relay
    assert relay.batch(13.0) == []


SLEEPY_BOT = str(Path(__file__).resolve().parents[1] / "bots" / "sleepy_bot.py")


@pytest.mark.slow
def test_arena_serve_on_worker_processes_shows_its_matches_live(tmp_path: Path) -> None:
    """``arena serve --executor processes --web-port``: a match in progress links to its
    live page, whose board moves on as the worker plays (bots that nap 100 ms a decision,
    so a match lasts seconds; the page shows it without delay, ``--web-watch-delay-s 0``)."""
    db = tmp_path / "serve.db"
    procs = Processes()
    try:
        server = procs.serve(
            db, "--table-size", "2", "--deadline-ms", "5000", "--executor", "processes",
            "--workers", "1", "--web-port", "0", "--web-watch-delay-s", "0",
            "--verify-games", "1", "--grace-s", "1",  # what the test reads comes sooner
        )  # fmt: skip
        assert server.popen.stdout is not None
        base = next(  # the line after "arena serving on" (read from the same buffer)
            line.removeprefix("arena web serving on ").strip()
            for line in server.popen.stdout
            if line.startswith("arena web serving on ")
        )
        bots = procs.bots([SLEEPY_BOT, "--sleep-ms", "100"], [SLEEPY_BOT, "--sleep-ms", "100"])
        owner = token(db, "alice")
        with stub(server.address) as client:
            for name, bot in zip(("nap1", "nap2"), bots, strict=True):
                submit(client, owner, name, bot.address)
            for name in ("nap1", "nap2"):
                wait_status(client, name, arena_pb2.BOT_STATUS_ACTIVE, 120)

        def get(path: str) -> str:
            with urllib.request.urlopen(base + path, timeout=30) as answer:
                return str(answer.read().decode())

        def live_link() -> str | None:
            found = re.search(r'href="/live/([^"]+)"', get("/"))
            return found.group(1) if found else None

        def decisions_in(match: str) -> int | None:
            board = get(f"/live-board/{match}")
            counted = re.search(r"(\d+) decisions? in", board)
            assert "data-hand" not in board  # the public board: nobody's hand
            return int(counted.group(1)) if counted else None

        match = wait_until(live_link, 120, "a match in progress with a live page")
        first = wait_until(lambda: decisions_in(match), 60, "the live board")
        wait_until(
            lambda: (
                (decisions_in(match) or 0) > first or 'data-over="1"' in get(f"/live-board/{match}")
            ),
            60,
            "the board to move on",
        )
        assert first >= 0
        assert (decisions_in(match) or 0) > first or "not being played" in get(
            f"/live-board/{match}"
        )
        server.popen.send_signal(signal.SIGTERM)
        assert server.popen.wait(timeout=60) == 0
    finally:
        procs.kill_all()
