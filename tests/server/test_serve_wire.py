"""The public reads' replies, sent as bytes assembled around rows serialized in the read
processes (``arena/server/wire.py``), are byte for byte the messages built whole: through
a real `arena serve` on port 0, read as raw bytes, every reply of ListBots,
GetLeaderboard, ListMatches and GetMatch (first and later pages, a seat's view and the
full record) is what its message serializes to, with every field in place."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path

import grpc
import pytest
from google.protobuf.message import Message

from arena.server.app import start_arena
from arena.server.config import ServeConfig
from arena.server.views import finished_match
from arena.server.wire import joined
from arena.store import open_store
from arena.store.registry import BotStatus
from arena.store.synthetic import add_bots, add_matches
from arena.store.tokens import create_token
from arena.v1 import arena_pb2

from .support import auth

ROOT = Path(__file__).resolve().parents[2]
LADDER = "serve/abluxxen/amigo/4p"
NAMES = [f"b{i:03d}" for i in range(30)]

Raw = Callable[[Message, tuple[tuple[str, str], ...]], Awaitable[bytes]]


@pytest.fixture(scope="module")
def history(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """A serve database: 30 bots of ann (10 retired), 120 ladder matches, each with the
    record of a real match; and ann's token."""
    work = tmp_path_factory.mktemp("wire")
    recorded = work / "one.jsonl.gz"
    subprocess.run(
        [sys.executable, "-m", "arena.cli", "match", "--bot", "a=random", "--bot", "b=random",
         "--bot", "c=random", "--bot", "d=random", "--seed", "1", "--record", str(recorded)],
        check=True, capture_output=True, cwd=ROOT, timeout=120,
    )  # fmt: skip
    db = work / "serve.db"
    store = open_store(db)
    try:
        add_bots(store, NAMES[:20], owner="ann")
        add_bots(store, NAMES[20:], owner="ann", status=BotStatus.RETIRED, endpoint_port=30000)
        add_matches(
            store,
            league_id=LADDER,
            ladder=LADDER,
            bots=NAMES,
            count=120,
            record=recorded.read_bytes(),
            league_config={"serve": {"preset": "amigo", "table_size": 4}},
        )
        token = create_token(store, "ann")
    finally:
        store.close()
    return db, token


def _whole(reply_type: type[Message], raw: bytes) -> Message:
    """The reply ``raw`` parses to, after checking it is the bytes it serializes to."""
    reply = reply_type.FromString(raw)
    assert raw == reply.SerializeToString()
    return reply


async def _reads(
    raw: Callable[[str], Raw], token: str, expected_matches: list[arena_pb2.MatchSummary]
) -> None:
    def call(method: str, reply_type: type[Message]) -> Callable[..., Awaitable[Message]]:
        async def ask(request: Message, metadata: tuple[tuple[str, str], ...] = ()) -> Message:
            return _whole(reply_type, await raw(method)(request, metadata))

        return ask

    list_bots = call("ListBots", arena_pb2.ListBotsReply)
    first = await list_bots(arena_pb2.ListBotsRequest(page_size=7))
    assert isinstance(first, arena_pb2.ListBotsReply)
    assert [b.name for b in first.bots] == NAMES[:7]
    assert first.ladder == LADDER
    assert first.ladder_status
    assert first.next_page_token
    assert not any(b.endpoint for b in first.bots)
    owned = await list_bots(
        arena_pb2.ListBotsRequest(page_size=7, page_token=first.next_page_token), auth(token)
    )
    assert isinstance(owned, arena_pb2.ListBotsReply)
    assert [b.name for b in owned.bots] == NAMES[7:14]
    assert all(b.endpoint for b in owned.bots)  # to their owner only

    board = call("GetLeaderboard", arena_pb2.GetLeaderboardReply)
    top = await board(arena_pb2.GetLeaderboardRequest(page_size=8, include_retired=True))
    assert isinstance(top, arena_pb2.GetLeaderboardReply)
    assert top.ladder == LADDER
    assert top.ladder_status
    assert top.next_page_token
    assert [r.rank for r in top.rows] == list(range(1, 9))
    rest = await board(
        arena_pb2.GetLeaderboardRequest(
            page_size=100, include_retired=True, page_token=top.next_page_token
        )
    )
    assert isinstance(rest, arena_pb2.GetLeaderboardReply)
    assert [r.rank for r in rest.rows] == list(range(9, 9 + len(rest.rows)))
    assert len(rest.rows) > 8
    assert not rest.next_page_token

    # ListMatches as the whole message of the stored rows' summaries would be.
    list_matches = call("ListMatches", arena_pb2.ListMatchesReply)
    page = await list_matches(arena_pb2.ListMatchesRequest(limit=10, include_running=True))
    assert isinstance(page, arena_pb2.ListMatchesReply)
    assert page.next_page_token
    whole = arena_pb2.ListMatchesReply(
        matches=expected_matches[:10], next_page_token=page.next_page_token
    )
    assert (
        await raw("ListMatches")(arena_pb2.ListMatchesRequest(limit=10, include_running=True), ())
        == whole.SerializeToString()
    )
    older = await list_matches(
        arena_pb2.ListMatchesRequest(limit=200, page_token=page.next_page_token)
    )
    assert isinstance(older, arena_pb2.ListMatchesReply)
    assert list(older.matches) == expected_matches[10:]
    assert not older.next_page_token

    get_match = call("GetMatch", arena_pb2.GetMatchReply)
    match_id = expected_matches[3].match_id
    seen = await get_match(arena_pb2.GetMatchRequest(match_id=match_id, seat=1))
    everything = await get_match(arena_pb2.GetMatchRequest(match_id=match_id, full=True))
    assert isinstance(seen, arena_pb2.GetMatchReply)
    assert isinstance(everything, arena_pb2.GetMatchReply)
    assert seen.match == everything.match == expected_matches[3]
    assert seen.replay
    assert not seen.record_json
    assert everything.replay
    assert everything.record_json


@pytest.mark.parametrize("read_processes", [2, 0], ids=["processes", "threads"])
def test_public_reads_send_the_bytes_of_their_whole_message(
    history: tuple[Path, str], read_processes: int
) -> None:
    db, token = history
    store = open_store(db)
    try:
        rows = store.match_page(LADDER, limit=200)
    finally:
        store.close()
    expected = [finished_match(row) for row in rows]
    assert len(expected) == 120

    async def scenario() -> None:
        config = ServeConfig(
            db=str(db), port=0, table_size=4, read_processes=read_processes, read_rate=0
        )
        arena = await start_arena(config)
        try:
            async with grpc.aio.insecure_channel(arena.address) as channel:

                def raw(method: str) -> Raw:
                    call = channel.unary_unary(
                        f"/arena.v1.Arena/{method}",
                        request_serializer=lambda request: request.SerializeToString(),
                    )

                    async def send(
                        request: Message, metadata: tuple[tuple[str, str], ...]
                    ) -> bytes:
                        answer = await call(request, metadata=metadata, timeout=60)
                        assert isinstance(answer, bytes)
                        return answer

                    return send

                await _reads(raw, token, expected)
        finally:
            await arena.stop(0)

    asyncio.run(scenario())


def test_joined_parts_are_the_whole_message() -> None:
    """Each reply as the servicer joins it: the fields before the rows, the rows (as a
    read job serializes them), the fields after; empty parts included."""
    row = arena_pb2.LeaderboardRow(rank=1, name="ada", conservative=3.5, rank_low=1)
    summary = arena_pb2.MatchSummary(match_id="m/1", ladder=LADDER)
    running = arena_pb2.MatchSummary(match_id="m/2", ladder=LADDER, running=True)
    bot = arena_pb2.SubmittedBot(name="ada", owner="ann")
    for rows, token in (([row, row], "t"), ([], "")):
        assert (
            joined(
                arena_pb2.GetLeaderboardReply(ladder=LADDER),
                arena_pb2.GetLeaderboardReply(rows=rows).SerializeToString(),
                arena_pb2.GetLeaderboardReply(ladder_status="playing", next_page_token=token),
            )
            == arena_pb2.GetLeaderboardReply(
                ladder=LADDER, rows=rows, ladder_status="playing", next_page_token=token
            ).SerializeToString()
        )
    assert (
        joined(
            arena_pb2.ListMatchesReply(matches=[running]),
            arena_pb2.ListMatchesReply(matches=[summary, summary]).SerializeToString(),
            arena_pb2.ListMatchesReply(next_page_token="t"),
        )
        == arena_pb2.ListMatchesReply(
            matches=[running, summary, summary], next_page_token="t"
        ).SerializeToString()
    )
    assert (
        joined(
            arena_pb2.ListBotsReply(bots=[bot]).SerializeToString(),
            arena_pb2.ListBotsReply(ladder_status="s", ladder=LADDER, next_page_token="t"),
        )
        == arena_pb2.ListBotsReply(
            bots=[bot], ladder_status="s", ladder=LADDER, next_page_token="t"
        ).SerializeToString()
    )
