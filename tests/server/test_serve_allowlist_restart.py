"""An endpoint the current allowlist does not allow is never dialled, even one stored
under a wider --allow before a restart: the ladder suspends its bot when it starts
(before verifying or seating it), and `arena update` without a new endpoint is refused
as a new submission of it would be."""

from __future__ import annotations

import signal
import time
from pathlib import Path

import grpc
import pytest

from arena.store import open_store
from arena.store.registry import BotStatus, add_bot, change_bot
from arena.v1 import arena_pb2, arena_pb2_grpc

from .support import (
    RANDOM_BOT,
    Processes,
    auth,
    bot_named,
    rpc_error,
    stub,
    submit,
    token,
    wait_status,
    wait_until,
)

ARGS = ("--table-size", "2", "--placement-matches", "1", "--verify-games", "1")
NOT_ALLOWED = "is not allowed by this arena's --allow"


def _matches_of(client: arena_pb2_grpc.ArenaStub, name: str) -> int:
    bot = bot_named(client, name)
    assert bot is not None
    return bot.matches


@pytest.mark.slow
def test_a_restart_with_a_narrower_allowlist_stops_dialling_a_stored_endpoint(
    tmp_path: Path,
) -> None:
    db = tmp_path / "serve.db"
    alice, bob = token(db, "alice"), token(db, "bob")
    procs = Processes()
    try:
        roamer_bot, home_bot, third_bot = procs.bots([RANDOM_BOT], [RANDOM_BOT], [RANDOM_BOT])
        port = roamer_bot.address.rpartition(":")[2]
        roaming = f"localhost:{port}"  # a name rule: not allowed by 127.0.0.0/8 alone
        wide = procs.serve(db, *ARGS, "--allow", "localhost", "--allow", "127.0.0.0/8")
        with stub(wide.address) as client:
            submit(client, alice, "roamer", roaming)
            submit(client, bob, "homebody", home_bot.address)
            wait_status(client, "roamer", arena_pb2.BOT_STATUS_ACTIVE)
            wait_until(lambda: _matches_of(client, "roamer") >= 1, 20, "a match for roamer")
        wide.popen.send_signal(signal.SIGTERM)
        assert wide.popen.wait(timeout=120) == 0

        log = tmp_path / "narrow.log"
        narrow = procs.serve(db, *ARGS, "--allow", "127.0.0.0/8", stderr=log)
        with stub(narrow.address) as client:
            roamer = wait_status(client, "roamer", arena_pb2.BOT_STATUS_SUSPENDED, 10)
            assert NOT_ALLOWED in roamer.status_reason
            assert "arena update --name roamer --endpoint" in roamer.status_reason
            assert roaming not in roamer.status_reason  # hidden from the others
            owned = client.ListBots(
                arena_pb2.ListBotsRequest(owner="alice"), timeout=5, metadata=auth(alice)
            ).bots[0]
            assert f"its endpoint {roaming} {NOT_ALLOWED}" in owned.status_reason
            assert "bot roamer suspended: its endpoint" in log.read_text()

            # The ladder plays on without it.
            played = roamer.matches
            submit(client, bob, "third", third_bot.address)
            wait_status(client, "third", arena_pb2.BOT_STATUS_ACTIVE)
            wait_until(lambda: _matches_of(client, "third") >= 2, 20, "matches without roamer")
            assert _matches_of(client, "roamer") == played

            # An update without a new endpoint is refused as a new submission would be,
            # and changes nothing.
            refused = rpc_error(
                client.UpdateBot,
                arena_pb2.UpdateBotRequest(name="roamer"),
                timeout=5,
                metadata=auth(alice),
            )
            assert refused.code() == grpc.StatusCode.PERMISSION_DENIED
            fresh = rpc_error(
                client.SubmitBot,
                arena_pb2.SubmitBotRequest(name="roamer2", endpoint=roaming),
                timeout=5,
                metadata=auth(alice),
            )
            assert fresh.code() == grpc.StatusCode.PERMISSION_DENIED
            assert refused.details() == fresh.details()
            time.sleep(0.5)
            still = bot_named(client, "roamer")
            assert still is not None
            assert still.status == arena_pb2.BOT_STATUS_SUSPENDED
            assert NOT_ALLOWED in still.status_reason

            # The way back: an allowed endpoint.
            client.UpdateBot(
                arena_pb2.UpdateBotRequest(name="roamer", endpoint=roamer_bot.address),
                timeout=5,
                metadata=auth(alice),
            )
            wait_status(client, "roamer", arena_pb2.BOT_STATUS_ACTIVE)
    finally:
        procs.kill_all()


@pytest.mark.slow
def test_stored_bots_outside_the_allowlist_are_suspended_before_verification(
    tmp_path: Path,
) -> None:
    """Active and verifying bots stored at endpoints this run does not allow are
    suspended at start; neither is verified or seated (nothing listens there: a dial
    would show as an 'unreachable' reason instead)."""
    db = tmp_path / "serve.db"
    token(db, "alice")
    store = open_store(db)
    try:
        add_bot(store, "waiting", "alice", "localhost:9", "")
        add_bot(store, "playing", "alice", "tls://localhost:10", "")
        add_bot(store, "elsewhere", "alice", "127.0.0.1:11", "")
        change_bot(store, "playing", status=BotStatus.ACTIVE, status_reason="")
        change_bot(store, "elsewhere", status=BotStatus.RETIRED, status_reason="retired")
    finally:
        store.close()
    procs = Processes()
    try:
        server = procs.serve(db, *ARGS, "--allow", "127.0.0.0/8")
        with stub(server.address) as client:
            for name in ("waiting", "playing"):
                bot = wait_status(client, name, arena_pb2.BOT_STATUS_SUSPENDED, 10)
                assert bot.status_reason.startswith("its endpoint ")
                assert f"ENDPOINT {NOT_ALLOWED}" in bot.status_reason
                assert "unreachable" not in bot.status_reason
            retired = bot_named(client, "elsewhere")
            assert retired is not None
            assert retired.status == arena_pb2.BOT_STATUS_RETIRED
            listing = client.ListBots(arena_pb2.ListBotsRequest(), timeout=5)
            assert listing.ladder_status.startswith("waiting: 0 active bot(s)")
    finally:
        procs.kill_all()
