"""The Arena service's lists in pages, against a real `arena serve` on a database with a
history already in it: every row once, in order, for every list and filter; old clients
(no page token) get the first page; page tokens are opaque, and any token the arena did
not give for that list and those filters is INVALID_ARGUMENT in plain words."""

from __future__ import annotations

import base64
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import grpc
import pytest

from arena.league.leaderboard import leaderboard
from arena.store import open_store
from arena.store.registry import BotStatus, list_bots
from arena.store.synthetic import add_bots, add_matches
from arena.v1 import arena_pb2

from .support import Processes, arena_cli, rpc_error, stub

Code = grpc.StatusCode
LADDER = "serve/abluxxen/amigo/4p"
NAMES = [f"b{i:03d}" for i in range(130)]
UNLIMITED = ("--table-size", "4", "--read-rate", "100000", "--read-burst", "100000")


@pytest.fixture(scope="module")
def history(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A serve database: 130 bots of two owners (30 retired), 1,203 ladder matches (four
    at each finish time, so the index breaks ties), and another league's 60 matches."""
    db = tmp_path_factory.mktemp("pages") / "serve.db"
    store = open_store(db)
    try:
        add_bots(store, NAMES[:100], owner="ann")
        add_bots(store, NAMES[100:], owner="bob", status=BotStatus.RETIRED, endpoint_port=30000)
        add_matches(
            store,
            league_id=LADDER,
            ladder=LADDER,
            bots=NAMES,
            count=1203,
            same_time=4,
            league_config={"serve": {"preset": "amigo", "table_size": 4}},
        )
        add_matches(store, league_id="lg", ladder="lg/abluxxen/amigo/4p", bots=NAMES, count=60)
    finally:
        store.close()
    return db


def _walk(call: Callable[[Any], Any], request: Any, items: str) -> tuple[list[Any], int]:
    """Every item of a list, page by page; and the number of pages."""
    seen: list[Any] = []
    pages = 0
    while True:
        reply = call(request)
        pages += 1
        seen += getattr(reply, items)
        if not reply.next_page_token:
            return seen, pages
        request.page_token = reply.next_page_token


@pytest.mark.slow
def test_every_list_walks_every_row_once_in_order(history: Path) -> None:
    store = open_store(history)
    try:
        newest_first = store.matches(league_id=LADDER)[::-1]
        board = leaderboard(store, LADDER)
        bots = [b.name for b in list_bots(store)]
    finally:
        store.close()
    procs = Processes()
    try:
        server = procs.serve(history, *UNLIMITED)
        with stub(server.address) as client:
            matches, pages = _walk(
                lambda r: client.ListMatches(r, timeout=60),
                arena_pb2.ListMatchesRequest(limit=97, include_running=True),
                "matches",
            )
            assert [m.match_id for m in matches] == [m.id for m in newest_first]
            assert pages == 13
            assert all(m.ladder == LADDER for m in matches)
            mine, _ = _walk(
                lambda r: client.ListMatches(r, timeout=60),
                arena_pb2.ListMatchesRequest(bot="b007", limit=10),
                "matches",
            )
            expected = [m.id for m in newest_first if any(s.bot == "b007" for s in m.seats)]
            assert [m.match_id for m in mine] == expected
            assert len(expected) > 20

            listed, _ = _walk(
                lambda r: client.ListBots(r, timeout=60),
                arena_pb2.ListBotsRequest(page_size=13),
                "bots",
            )
            assert [b.name for b in listed] == bots == NAMES
            owned, _ = _walk(
                lambda r: client.ListBots(r, timeout=60),
                arena_pb2.ListBotsRequest(owner="bob", page_size=7),
                "bots",
            )
            assert [b.name for b in owned] == NAMES[100:]

            rows, _ = _walk(
                lambda r: client.GetLeaderboard(r, timeout=60),
                arena_pb2.GetLeaderboardRequest(page_size=9, include_retired=True),
                "rows",
            )
            assert [(r.rank, r.name, r.conservative, r.matches, r.wins) for r in rows] == [
                (r.rank, r.name, r.conservative, r.matches, r.wins) for r in board
            ]
            # Each page's rank intervals (from a window of bots around it) are the whole
            # leaderboard's.
            assert [
                (r.rank_low, r.rank_high, r.p_above_next if r.HasField("p_above_next") else None)
                for r in rows
            ] == [(r.rank_low, r.rank_high, r.p_above_next) for r in board]
            assert any(r.rank_low < r.rank_high for r in rows)
            active, _ = _walk(
                lambda r: client.GetLeaderboard(r, timeout=60),
                arena_pb2.GetLeaderboardRequest(page_size=9),
                "rows",
            )
            kept = [r.name for r in board if r.name in NAMES[:100]]
            assert [r.name for r in active] == kept
            assert [r.rank for r in active] == list(range(1, len(kept) + 1))
            assert {r.status for r in active} == {arena_pb2.BOT_STATUS_SUSPENDED}

            # Clients that know nothing of pages get the first page, with the defaults.
            first = client.ListMatches(arena_pb2.ListMatchesRequest(), timeout=60)
            assert [m.match_id for m in first.matches] == [m.id for m in newest_first[:50]]
            assert first.next_page_token
            assert len(client.ListBots(arena_pb2.ListBotsRequest(), timeout=60).bots) == 100
            whole = client.GetLeaderboard(arena_pb2.GetLeaderboardRequest(), timeout=60)
            assert len(whole.rows) == 100
            assert not whole.next_page_token

        # The CLI pages through every list.
        shown = arena_cli("bots", "--arena", server.address, "--format", "json")
        assert shown.returncode == 0, shown.stderr
        assert [b["name"] for b in json.loads(shown.stdout)["bots"]] == NAMES
        shown = arena_cli("leaderboard", "--arena", server.address, "--all", "--format", "json")
        assert shown.returncode == 0, shown.stderr
        assert [r["name"] for r in json.loads(shown.stdout)] == [r.name for r in board]
        shown = arena_cli("matches", "--arena", server.address, "--limit", "1100")
        assert shown.returncode == 0, shown.stderr
        listed_ids = [line.split()[0] for line in shown.stdout.splitlines()[:-1]]
        assert listed_ids == [m.id for m in newest_first[:1100]]
        assert "(1100 finished, 0 playing" in shown.stdout
    finally:
        procs.kill_all()


def _refused(call: Callable[[], object]) -> str:
    error = rpc_error(call)
    assert error.code() == Code.INVALID_ARGUMENT, error
    return error.details() or ""


def test_page_tokens_are_opaque_and_a_forged_one_is_invalid_argument(history: Path) -> None:
    procs = Processes()
    try:
        server = procs.serve(history, *UNLIMITED)
        with stub(server.address) as client:
            first = client.ListMatches(arena_pb2.ListMatchesRequest(limit=5), timeout=60)
            token = first.next_page_token
            assert token
            assert set(token) <= set(
                "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
            )
            last = first.matches[-1]
            assert last.match_id not in token
            assert str(int(last.at)) not in token
            second = client.ListMatches(
                arena_pb2.ListMatchesRequest(limit=5, page_token=token), timeout=10
            )
            assert second.matches[0].match_id != last.match_id

            def matches(page_token: str, bot: str = "") -> Callable[[], object]:
                request = arena_pb2.ListMatchesRequest(limit=5, bot=bot, page_token=page_token)
                return lambda: client.ListMatches(request, timeout=60)

            flipped = token[:-3] + ("A" if token[-3] != "A" else "B") + token[-2:]
            raw = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))
            tag, payload = raw[:16], json.loads(raw[16:])
            payload[3] = [1e300, 0]  # well-formed, another position, the old tag
            moved = tag + json.dumps(payload, separators=(",", ":")).encode()
            forged = [
                flipped,
                token[:-1],
                token + "A",
                "garbage",
                "%%%%",
                base64.urlsafe_b64encode(moved).decode().rstrip("="),
                base64.urlsafe_b64encode(b"\0" * 16 + b'[1,"matches",[""],[1e300,0]]').decode(),
                "A" * 5000,
            ]
            for bad in forged:
                message = _refused(matches(bad))
                assert message.startswith("page_token is not a token this arena gave")
                assert "without page_token" in message
                assert "Traceback" not in message
            # A token belongs to its list and its filters.
            assert _refused(matches(token, bot="b001"))
            bots_token = client.ListBots(
                arena_pb2.ListBotsRequest(page_size=2), timeout=10
            ).next_page_token
            assert _refused(matches(bots_token))
            assert _refused(
                lambda: client.ListBots(
                    arena_pb2.ListBotsRequest(owner="ann", page_token=bots_token), timeout=10
                )
            )
            assert _refused(
                lambda: client.GetLeaderboard(
                    arena_pb2.GetLeaderboardRequest(page_token=bots_token), timeout=10
                )
            )
            for negative in (
                lambda: client.ListBots(arena_pb2.ListBotsRequest(page_size=-1), timeout=60),
                lambda: client.GetLeaderboard(
                    arena_pb2.GetLeaderboardRequest(page_size=-1), timeout=10
                ),
                lambda: client.ListMatches(arena_pb2.ListMatchesRequest(limit=-1), timeout=60),
            ):
                assert "negative" in _refused(negative)
        # Tokens last as long as the arena: after a restart, start again.
        procs.kill(server)
        server = procs.serve(history, *UNLIMITED)
        with stub(server.address) as client:
            message = _refused(
                lambda: client.ListMatches(
                    arena_pb2.ListMatchesRequest(limit=5, page_token=token), timeout=10
                )
            )
            assert "restarts" in message
    finally:
        procs.kill_all()


def test_pages_are_capped(history: Path) -> None:
    procs = Processes()
    try:
        server = procs.serve(history, *UNLIMITED)
        with stub(server.address) as client:
            big = client.ListMatches(arena_pb2.ListMatchesRequest(limit=100000), timeout=60)
            assert len(big.matches) == 500
            rows = client.GetLeaderboard(arena_pb2.GetLeaderboardRequest(page_size=9999)).rows
            assert len(rows) == 100
    finally:
        procs.kill_all()
