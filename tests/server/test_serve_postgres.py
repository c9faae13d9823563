"""``arena serve`` on PostgreSQL: one server per database (an advisory lock), tokens made
by ``arena token`` on the same URL, and a lost database connection handled as a full
disk is: the ladder pauses, keeps the finished match in memory, says why without naming
the host, retries on its clock, and commits the match once the server takes
connections again. Real bots, a real PostgreSQL server, a fake clock for the ladder."""

from __future__ import annotations

import asyncio
from pathlib import Path

import grpc
import psycopg
import pytest

from arena.server.app import start_arena
from arena.server.config import ServeConfig
from arena.server.ladder import STORE_RETRY_MAX_S, STORE_RETRY_S
from arena.server.reads import UNREADABLE
from arena.store import StoreError, open_store
from arena.store.pg_cluster import TempCluster
from arena.store.postgres import PostgresStore
from arena.v1 import arena_pb2, arena_pb2_grpc
from server.support import FLAG_BOT, Clock, Processes, arena_cli, auth
from server.support import until_async as _until


@pytest.mark.slow
def test_serve_on_postgresql_pauses_on_a_lost_connection_and_loses_nothing(
    tmp_path: Path, pg_cluster: TempCluster
) -> None:
    url = pg_cluster.create_database("serve_lost")
    made = arena_cli("token", "create", "alice", "--db", url)
    assert made.returncode == 0, made.stderr
    alice = made.stdout.split()[-1]
    flag = tmp_path / "slow"
    procs = Processes()
    try:
        bots = procs.bots(
            [FLAG_BOT, "--slow-flag", str(flag), "--sleep-ms", "100"],
            [FLAG_BOT, "--slow-flag", str(flag), "--sleep-ms", "100"],
        )
        asyncio.run(_scenario(pg_cluster, url, alice, flag, [b.address for b in bots]))
    finally:
        procs.kill_all()
        pg_cluster.sql('ALTER DATABASE "serve_lost" ALLOW_CONNECTIONS true')


async def _scenario(
    cluster: TempCluster, url: str, alice: str, flag: Path, endpoints: list[str]
) -> None:
    clock = Clock()
    config = ServeConfig(
        db=url, port=0, table_size=2, concurrency=1, verify_games=0, placement_matches=0
    )
    arena = await start_arena(config, clock=clock)
    ladder = arena.ladder
    store = ladder.store
    assert isinstance(store, PostgresStore)
    try:
        second = open_store(url)
        try:  # one `arena serve` per database
            with pytest.raises(StoreError, match="another `arena serve` is already using"):
                second.claim("serve", "another `arena serve` is already using it")
        finally:
            second.close()
        async with grpc.aio.insecure_channel(arena.address) as channel:
            client = arena_pb2_grpc.ArenaStub(channel)
            flag.touch()  # the bots think slowly: a match is in play when the link breaks
            for name, endpoint in zip(("one", "two"), endpoints, strict=True):
                request = arena_pb2.SubmitBotRequest(name=name, endpoint=endpoint)
                await client.SubmitBot(request, metadata=auth(alice))
            await _until(lambda: ladder.running, "a match in play")
            in_play = next(iter(ladder.running))
            rated = ladder.rated_matches

            # The server ends the arena's session and takes no new ones for a while.
            cluster.sql('ALTER DATABASE "serve_lost" ALLOW_CONNECTIONS false')
            pid = store.live().info.backend_pid
            with psycopg.connect(cluster.admin_url(), autocommit=True) as admin:
                admin.execute("SELECT pg_terminate_backend(%s)", (pid,))
            flag.unlink()  # the match ends now; its commit fails
            await _until(lambda: ladder.store_problem is not None, "the ladder to pause")
            await _until(lambda: not ladder.running, "the match to end")
            assert ladder.kept_matches == 1
            # Which the ladder meets first, the match's commit on the ended session or a
            # read of its scheduler trying a new one, depends on the machine's pace; either
            # way it says the connection is gone.
            assert ladder.store_problem in (
                "the database server ended the connection",
                "the connection to the database server was lost",
            )
            # Public reads cannot reach the database either: UNAVAILABLE, in plain words
            # that name nothing of the host.
            with pytest.raises(grpc.aio.AioRpcError) as unread:
                await client.ListBots(arena_pb2.ListBotsRequest())
            assert unread.value.code() == grpc.StatusCode.UNAVAILABLE
            assert unread.value.details() == UNREADABLE

            clock.now += STORE_RETRY_S  # a retry: connecting again is refused
            ladder.wake()
            await _until(
                lambda: ladder.store_problem == "the connection to the database server was lost",
                "a failed reconnection",
            )
            assert ladder.kept_matches == 1

            cluster.sql('ALTER DATABASE "serve_lost" ALLOW_CONNECTIONS true')
            clock.now += STORE_RETRY_MAX_S
            ladder.wake()
            await _until(lambda: ladder.store_problem is None, "the ladder to resume")
            assert store.match(in_play) is not None
            assert store.record(in_play) is not None
            assert ladder.rated_matches == rated + 1
            await _until(lambda: ladder.rated_matches >= rated + 2, "matches to resume")
            listed = await client.ListBots(arena_pb2.ListBotsRequest())  # reads again
            assert listed.ladder_status.startswith("running:"), listed.ladder_status
            history = "SELECT count(*) FROM rating_history WHERE match_id = ?"
            assert store.read(history, (in_play,))[0][0] == 2
        # The served database reads as any other: the leaderboard from the command line.
        shown = await asyncio.to_thread(arena_cli, "ratings", "--db", url)
        assert shown.returncode == 0, shown.stderr
        assert "one" in shown.stdout
        assert "two" in shown.stdout
    finally:
        await arena.stop(0)
