"""Finding 3, limits: failed authentications are limited per caller address and logged
with it; every change (retirements too) counts against the owner's rate limit."""

from __future__ import annotations

from pathlib import Path

import grpc
from server.support import Processes, auth, free_port, rpc_error, stub, submit, token

from arena.server.auth import peer_address
from arena.v1 import arena_pb2


def test_failed_authentications_are_limited_per_address_and_logged(tmp_path: Path) -> None:
    """On a35e272 a wrong token was refused as often as anyone liked, from anywhere,
    and nothing was logged (auth.py: no limit, no log)."""
    db = tmp_path / "serve.db"
    log = tmp_path / "serve.log"
    alice = token(db, "alice")
    token_id, secret = alice.split(".")
    procs = Processes()
    try:
        server = procs.serve(db, "--table-size", "2", "--auth-fail-limit", "3", stderr=log)
        request = arena_pb2.SubmitBotRequest(name="bot", endpoint=f"127.0.0.1:{free_port()}")
        with stub(server.address) as client:
            for guess in ("nope", f"{token_id}.wrong", f"{token_id}.{secret[:-1]}x"):
                error = rpc_error(client.SubmitBot, request, timeout=5, metadata=auth(guess))
                assert error.code() == grpc.StatusCode.UNAUTHENTICATED
            # Past the limit every call with a token is refused, the right one too ...
            for call, message in (
                (client.SubmitBot, request),
                (client.ListBots, arena_pb2.ListBotsRequest()),
            ):
                error = rpc_error(call, message, timeout=5, metadata=auth(alice))
                assert error.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
                assert "failed authentications from your address" in (error.details() or "")
            # ... but not a public read without one.
            assert client.ListBots(arena_pb2.ListBotsRequest(), timeout=5).ladder
        text = log.read_text(encoding="utf-8")
        failures = [line for line in text.splitlines() if "authentication failed from" in line]
        assert len(failures) == 3, text
        assert all("ipv4:127.0.0.1" in line for line in failures)
        assert "refused for a while" in failures[-1]
        assert secret not in text
        assert secret[:-1] not in text
    finally:
        procs.kill_all()


def test_a_peer_is_its_address_not_its_port() -> None:
    assert peer_address("ipv4:127.0.0.1:50123") == "ipv4:127.0.0.1"
    assert peer_address("ipv4:127.0.0.1:50124") == peer_address("ipv4:127.0.0.1:50123")
    assert peer_address("ipv6:[::1]:50123") == "ipv6:[::1]"
    assert peer_address("unix:/tmp/socket") == "unix:/tmp/socket"


def test_retiring_counts_against_the_owners_rate_limit(tmp_path: Path) -> None:
    """On a35e272 RetireBot took no part in the owner's rate limit (servicer.py RetireBot
    called caller() directly, not _owner()): an owner could retire without end."""
    db = tmp_path / "serve.db"
    alice, bob = token(db, "alice"), token(db, "bob")
    procs = Processes()
    try:
        server = procs.serve(db, "--table-size", "2", "--submit-limit", "3")
        with stub(server.address) as client:
            submit(client, alice, "a", f"127.0.0.1:{free_port()}")  # 1
            retire = arena_pb2.RetireBotRequest(name="a")
            client.RetireBot(retire, timeout=5, metadata=auth(alice))  # 2
            client.RetireBot(retire, timeout=5, metadata=auth(alice))  # 3
            error = rpc_error(client.RetireBot, retire, timeout=5, metadata=auth(alice))
            assert error.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
            assert "retirements" in (error.details() or "")
            update = arena_pb2.UpdateBotRequest(name="a")
            error = rpc_error(client.UpdateBot, update, timeout=5, metadata=auth(alice))
            assert error.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
            submit(client, bob, "b", f"127.0.0.1:{free_port()}")  # per owner
    finally:
        procs.kill_all()
