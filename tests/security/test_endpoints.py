"""Finding 3, endpoints: a retired bot's endpoint stays with its owner until released;
refusals do not tell about other owners' bots; the ladder's channel to an endpoint a bot
left is closed."""

from __future__ import annotations

import asyncio
from pathlib import Path

import grpc
import pytest
from server.support import (
    RANDOM_BOT,
    Processes,
    arena_cli,
    auth,
    free_port,
    rpc_error,
    stub,
    submit,
    token,
)

from arena.server.app import start_arena
from arena.server.config import ServeConfig
from arena.v1 import arena_pb2, arena_pb2_grpc


@pytest.mark.slow
def test_a_retired_bots_endpoint_stays_with_its_owner_until_released(tmp_path: Path) -> None:
    """On a35e272 another owner could submit a retired bot's endpoint at once
    (servicer.py _endpoint_free skipped retired bots) and get that process rated under
    a new name; there was no way to release an endpoint."""
    db = tmp_path / "serve.db"
    alice, bob = token(db, "alice"), token(db, "bob")
    procs = Processes()
    try:
        server = procs.serve(db, "--table-size", "2", "--verify-games", "0")
        endpoint = f"127.0.0.1:{free_port()}"
        with stub(server.address) as client:
            submit(client, alice, "champ", endpoint)
            client.RetireBot(
                arena_pb2.RetireBotRequest(name="champ"), timeout=5, metadata=auth(alice)
            )
            for spelling in (endpoint, endpoint.replace("127.0.0.1", "localhost")):
                copy = arena_pb2.SubmitBotRequest(name="copy", endpoint=spelling)
                error = rpc_error(client.SubmitBot, copy, timeout=5, metadata=auth(bob))
                assert error.code() == grpc.StatusCode.ALREADY_EXISTS
            # Its owner may submit the process anew; the retired bot cannot come back then.
            submit(client, alice, "champ2", endpoint)
            back = arena_pb2.UpdateBotRequest(name="champ")
            error = rpc_error(client.UpdateBot, back, timeout=5, metadata=auth(alice))
            assert error.code() == grpc.StatusCode.ALREADY_EXISTS
            assert "your bot 'champ2'" in (error.details() or "")
            client.RetireBot(
                arena_pb2.RetireBotRequest(name="champ2"), timeout=5, metadata=auth(alice)
            )

        # The owner releases them with the real command: then anyone may submit it.
        for name in ("champ", "champ2"):
            released = arena_cli(
                "retire", "--arena", server.address, "--token", alice, "--name", name, "--release"
            )
            assert released.returncode == 0, released.stderr
            assert "endpoint released" in released.stdout
        with stub(server.address) as client:
            submit(client, bob, "copy", endpoint)
            listed = client.ListBots(
                arena_pb2.ListBotsRequest(owner="alice"), timeout=5, metadata=auth(alice)
            )
            assert {b.name: b.endpoint for b in listed.bots} == {"champ": "", "champ2": ""}
            again = arena_pb2.UpdateBotRequest(name="champ")
            error = rpc_error(client.UpdateBot, again, timeout=5, metadata=auth(alice))
            assert error.code() == grpc.StatusCode.INVALID_ARGUMENT
            assert "--endpoint HOST:PORT" in (error.details() or "")
    finally:
        procs.kill_all()


def test_a_refusal_says_only_that_the_endpoint_is_held(tmp_path: Path) -> None:
    """On a35e272 the refusal said "another owner's bot already plays there" for a bot
    that was not retired, and let a retired one's endpoint through: a prober learned
    whether the holder still played. Now the words are the same whoever holds the
    endpoint and whatever its state, and name neither the bot nor its owner."""
    db = tmp_path / "serve.db"
    alice, bob = token(db, "alice"), token(db, "bob")
    procs = Processes()
    try:
        server = procs.serve(db, "--table-size", "2", "--verify-games", "0")
        playing, retired = f"127.0.0.1:{free_port()}", f"127.0.0.1:{free_port()}"
        with stub(server.address) as client:
            submit(client, alice, "secret-one", playing)
            submit(client, alice, "secret-two", retired)
            client.RetireBot(
                arena_pb2.RetireBotRequest(name="secret-two"), timeout=5, metadata=auth(alice)
            )
            words = set()
            for endpoint in (playing, retired):
                request = arena_pb2.SubmitBotRequest(name="probe", endpoint=endpoint)
                error = rpc_error(client.SubmitBot, request, timeout=5, metadata=auth(bob))
                assert error.code() == grpc.StatusCode.ALREADY_EXISTS
                details = error.details() or ""
                for private in ("secret", "alice", "owner", "plays", "retired", "active"):
                    assert private not in details, details
                words.add(details.replace(endpoint, "ENDPOINT"))
            assert len(words) == 1, words
            assert "another bot holds it" in words.pop()
    finally:
        procs.kill_all()


def test_the_ladders_channel_to_an_endpoint_a_bot_left_is_closed(tmp_path: Path) -> None:
    """On a35e272 UpdateBot with a new endpoint and RetireBot left the ladder's pooled
    channel to the old endpoint open for the life of the arena (nothing but the
    re-verification of the same endpoint ever discarded one)."""
    procs = Processes()
    try:
        first, second, third = procs.bots([RANDOM_BOT], [RANDOM_BOT], [RANDOM_BOT])
        db = tmp_path / "serve.db"
        alice = token(db, "alice")
        config = ServeConfig(
            db=str(db), port=0, table_size=2, verify_games=0, deadline_ms=500, grace_s=0
        )

        async def until_shut(channel: grpc.aio.Channel) -> None:
            async with asyncio.timeout(60):
                while channel.get_state() is not grpc.ChannelConnectivity.SHUTDOWN:
                    await asyncio.sleep(0.05)

        async def scenario() -> None:
            arena = await start_arena(config)
            try:
                async with grpc.aio.insecure_channel(f"127.0.0.1:{arena.port}") as channel:
                    client = arena_pb2_grpc.ArenaStub(channel)
                    for name, bot in (("mover", first), ("leaver", second)):
                        request = arena_pb2.SubmitBotRequest(name=name, endpoint=bot.address)
                        await client.SubmitBot(request, timeout=5, metadata=auth(alice))
                    async with asyncio.timeout(60):  # the ladder plays on its channels
                        while arena.ladder.rated_matches < 1:
                            await asyncio.sleep(0.05)
                    pool = arena.ladder.pool
                    moved_from = pool.get(first.address)  # the ladder's own channel
                    move = arena_pb2.UpdateBotRequest(name="mover", endpoint=third.address)
                    await client.UpdateBot(move, timeout=5, metadata=auth(alice))
                    await until_shut(moved_from)
                    assert pool.get(first.address) is not moved_from  # a new one if asked
                    left = pool.get(second.address)
                    retire = arena_pb2.RetireBotRequest(name="leaver")
                    await client.RetireBot(retire, timeout=5, metadata=auth(alice))
                    await until_shut(left)
            finally:
                await arena.stop(0)

        asyncio.run(scenario())
    finally:
        procs.kill_all()
