"""One bot process holds one ladder entry: an endpoint another bot holds (retired too,
until its owner releases it) is refused, under any spelling of the same host and port
(lower case, localhost and every loopback address as one host, tls:// or not); and bot
names that differ only in case are one name."""

from __future__ import annotations

from pathlib import Path

import grpc

from arena.server.allowlist import endpoint_key
from arena.v1 import arena_pb2, arena_pb2_grpc

from .support import Processes, auth, free_port, rpc_error, stub, submit, token

TAKEN = "is taken"


def _refused(
    client: arena_pb2_grpc.ArenaStub, token_text: str, request: object, code: grpc.StatusCode
) -> str:
    call = client.SubmitBot if isinstance(request, arena_pb2.SubmitBotRequest) else client.UpdateBot
    error = rpc_error(call, request, timeout=5, metadata=auth(token_text))
    assert error.code() == code, error.details()
    return error.details() or ""


def test_spellings_of_one_endpoint_share_a_key() -> None:
    same = ("127.0.0.1:7000", "localhost:7000", "LocalHost.:7000", "tls://127.0.0.1:7000",
            "[::1]:7000", "[::ffff:127.0.0.1]:7000", "127.0.0.2:7000")  # fmt: skip
    assert {endpoint_key(e) for e in same} == {"loopback:7000"}
    assert endpoint_key("10.0.0.1:7000") == endpoint_key("[::ffff:10.0.0.1]:7000")
    assert endpoint_key("Bots.Example.org:1") == endpoint_key("bots.example.org.:1")
    distinct = ("127.0.0.1:7001", "10.0.0.1:7000", "bots.example.org:7000", "[fd00::1]:7000")
    assert len({endpoint_key(e) for e in distinct} | {"loopback:7000"}) == 5


def test_an_endpoint_in_use_is_refused_under_any_spelling(tmp_path: Path) -> None:
    db = tmp_path / "serve.db"
    alice, bob = token(db, "alice"), token(db, "bob")
    procs = Processes()
    try:
        server = procs.serve(db, "--table-size", "2", "--verify-games", "1")
        port, other_port = free_port(), free_port()
        with stub(server.address) as client:
            submit(client, alice, "first", f"127.0.0.1:{port}")
            spellings = (f"127.0.0.1:{port}", f"localhost:{port}", f"LOCALHOST:{port}",
                         f"tls://127.0.0.1:{port}", f"[::1]:{port}")  # fmt: skip
            for endpoint in spellings:
                request = arena_pb2.SubmitBotRequest(name="copycat", endpoint=endpoint)
                why = _refused(client, bob, request, grpc.StatusCode.ALREADY_EXISTS)
                assert TAKEN in why
                assert "another bot holds it" in why
                assert "first" not in why  # whose it is stays private
                mine = _refused(
                    client,
                    alice,
                    arena_pb2.SubmitBotRequest(name="second", endpoint=endpoint),
                    grpc.StatusCode.ALREADY_EXISTS,
                )
                assert "your bot 'first'" in mine

            # Updates too: a new endpoint, or a retired bot coming back where another plays.
            submit(client, bob, "copycat", f"127.0.0.1:{other_port}")
            move = arena_pb2.UpdateBotRequest(name="copycat", endpoint=f"localhost:{port}")
            assert TAKEN in _refused(client, bob, move, grpc.StatusCode.ALREADY_EXISTS)
            client.UpdateBot(  # its own endpoint, spelled otherwise: fine
                arena_pb2.UpdateBotRequest(name="copycat", endpoint=f"localhost:{other_port}"),
                timeout=5,
                metadata=auth(bob),
            )
            client.RetireBot(
                arena_pb2.RetireBotRequest(name="first"), metadata=auth(alice), timeout=5
            )
            # Retired, the bot keeps its endpoint for its owner until she releases it.
            assert TAKEN in _refused(client, bob, move, grpc.StatusCode.ALREADY_EXISTS)
            client.RetireBot(
                arena_pb2.RetireBotRequest(name="first", release_endpoint=True),
                metadata=auth(alice),
                timeout=5,
            )
            client.UpdateBot(move, timeout=5, metadata=auth(bob))  # free now
            back = arena_pb2.UpdateBotRequest(name="first")
            assert "gave up its endpoint" in _refused(
                client, alice, back, grpc.StatusCode.INVALID_ARGUMENT
            )
            back.endpoint = f"127.0.0.1:{port}"
            assert TAKEN in _refused(client, alice, back, grpc.StatusCode.ALREADY_EXISTS)
    finally:
        procs.kill_all()


def test_names_differing_only_in_case_are_one_name(tmp_path: Path) -> None:
    db = tmp_path / "serve.db"
    alice, bob = token(db, "alice"), token(db, "bob")
    procs = Processes()
    try:
        server = procs.serve(db, "--table-size", "2", "--verify-games", "1")
        with stub(server.address) as client:
            submit(client, alice, "MyBot", f"127.0.0.1:{free_port()}")
            for owner in (bob, alice):
                request = arena_pb2.SubmitBotRequest(
                    name="mybot", endpoint=f"127.0.0.1:{free_port()}"
                )
                why = _refused(client, owner, request, grpc.StatusCode.ALREADY_EXISTS)
                assert "'MyBot' exists" in why
    finally:
        procs.kill_all()
