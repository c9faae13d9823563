"""The Arena service's refusals against a real server: tokens, ownership, the
allowlist, names, fields, the rate limit, matches that are not finished, and a bot
that fails verification."""

from __future__ import annotations

from pathlib import Path

import grpc
import pytest

from arena.v1 import arena_pb2

from .support import (
    GARBAGE_BOT,
    RANDOM_BOT,
    THREE_SEAT_BOT,
    Processes,
    arena_cli,
    auth,
    bot_named,
    rpc_error,
    stub,
    submit,
    token,
    wait_status,
)

Code = grpc.StatusCode


@pytest.mark.slow
def test_refusals_say_what_to_do(tmp_path: Path) -> None:
    db = tmp_path / "serve.db"
    alice, bob = token(db, "alice"), token(db, "bob")
    procs = Processes()
    try:
        server = procs.serve(db, "--table-size", "3", "--submit-limit", "12")
        (bot,) = procs.bots([RANDOM_BOT])
        with stub(server.address) as client:
            request = arena_pb2.SubmitBotRequest(name="mine", endpoint=bot.address)

            missing = rpc_error(lambda: client.SubmitBot(request, timeout=5))
            assert missing.code() == Code.UNAUTHENTICATED
            assert "--token" in (missing.details() or "")
            wrong = rpc_error(
                lambda: client.SubmitBot(request, timeout=5, metadata=auth(alice + "x"))
            )
            assert wrong.code() == Code.UNAUTHENTICATED
            assert "not valid" in (wrong.details() or "")
            not_bearer = rpc_error(
                lambda: client.SubmitBot(request, timeout=5, metadata=(("authorization", alice),))
            )
            assert not_bearer.code() == Code.UNAUTHENTICATED

            submit(client, alice, "mine", bot.address)
            wait_status(client, "mine", arena_pb2.BOT_STATUS_ACTIVE)

            taken = rpc_error(lambda: submit(client, bob, "mine", bot.address))
            assert taken.code() == Code.ALREADY_EXISTS
            assert "choose another name" in (taken.details() or "")

            for call in (
                lambda: client.UpdateBot(
                    arena_pb2.UpdateBotRequest(name="mine"), timeout=5, metadata=auth(bob)
                ),
                lambda: client.RetireBot(
                    arena_pb2.RetireBotRequest(name="mine"), timeout=5, metadata=auth(bob)
                ),
            ):
                denied = rpc_error(call)
                assert denied.code() == Code.PERMISSION_DENIED
                assert "belongs to another owner" in (denied.details() or "")
            unknown = rpc_error(
                lambda: client.RetireBot(
                    arena_pb2.RetireBotRequest(name="nobody"), timeout=5, metadata=auth(bob)
                )
            )
            assert unknown.code() == Code.NOT_FOUND

            # Outside the allowlist: refused, nothing stored, so nothing verified (only a
            # stored bot is ever dialled). The refusal itself is pure: test_serve_parts.py
            # shows it resolves and connects nothing; this test never lets the server
            # near a non-loopback address.
            for endpoint in ("10.1.2.3:50051", "tls://10.1.2.3:50051", "[::ffff:10.1.2.3]:50051"):
                refused = rpc_error(submit, client, bob, "probe", endpoint)
                assert refused.code() == Code.PERMISSION_DENIED
                assert "allowlist" in (refused.details() or "")
                assert bot_named(client, "probe") is None

            for name, endpoint, description in (
                ("bad name", bot.address, ""),
                ("ok", "no-port", ""),
                ("ok", "http://127.0.0.1:5", ""),
                ("ok", bot.address, "x" * 501),
            ):
                bad = rpc_error(
                    client.SubmitBot,
                    arena_pb2.SubmitBotRequest(
                        name=name, endpoint=endpoint, description=description
                    ),
                    timeout=5,
                    metadata=auth(bob),
                )
                assert bad.code() == Code.INVALID_ARGUMENT, (name, endpoint)

            for match_id in ("serve/abluxxen/amigo/3p/000000", "nothing"):
                absent = rpc_error(
                    client.GetMatch,
                    arena_pb2.GetMatchRequest(match_id=match_id, full=True),
                    timeout=5,
                )
                assert absent.code() == Code.NOT_FOUND

            # Bob has used 9 of his 12 submissions this minute (refusals count too).
            for n in range(3):
                rpc_error(submit, client, bob, f"x{n}", "10.0.0.1:1")
            limited = rpc_error(lambda: submit(client, bob, "late", bot.address))
            assert limited.code() == Code.RESOURCE_EXHAUSTED
            assert "per minute" in (limited.details() or "")
            # Alice has her own budget.
            retired = client.RetireBot(
                arena_pb2.RetireBotRequest(name="mine"), timeout=5, metadata=auth(alice)
            ).bot
            assert retired.status == arena_pb2.BOT_STATUS_RETIRED

        cli = arena_cli(
            "submit", "--arena", server.address, "--token", alice,
            "--name", "far", "--endpoint", "10.1.2.3:50051",
        )  # fmt: skip
        assert cli.returncode == 1
        assert "PERMISSION_DENIED" in cli.stderr
        assert "allowlist" in cli.stderr
        no_token = arena_cli("retire", "--arena", server.address, "--name", "mine")
        assert no_token.returncode == 2
        assert "--token" in no_token.stderr
    finally:
        procs.kill_all()


@pytest.mark.slow
def test_a_bot_that_fails_verification_is_suspended_with_the_reason(tmp_path: Path) -> None:
    db = tmp_path / "serve.db"
    alice = token(db, "alice")
    procs = Processes()
    try:
        server = procs.serve(
            db, "--table-size", "2", "--deadline-ms", "300", "--hello-timeout-s", "1"
        )
        (garbage,) = procs.bots([GARBAGE_BOT])
        run = arena_cli(
            "submit", "--arena", server.address, "--token", alice,
            "--name", "garbage", "--endpoint", garbage.address,
        )  # fmt: skip
        assert run.returncode == 1
        assert "suspended" in run.stdout
        assert "MALFORMED" in run.stdout
        with stub(server.address) as client:
            bot = bot_named(client, "garbage")
            assert bot is not None
            assert bot.status == arena_pb2.BOT_STATUS_SUSPENDED
            assert bot.status_reason.startswith("verification failed:")
            assert "arena check-bot" in bot.status_reason
            # Nothing listens here: Hello fails and says so.
            submit(client, alice, "ghost", "127.0.0.1:9")
            ghost = wait_status(client, "ghost", arena_pb2.BOT_STATUS_SUSPENDED)
            assert "Hello" in ghost.status_reason
            assert "verifying" not in client.ListBots(arena_pb2.ListBotsRequest()).ladder_status
    finally:
        procs.kill_all()


@pytest.mark.slow
def test_verification_plays_the_ladders_own_table(tmp_path: Path) -> None:
    # The bot is right at four and two seats (where the check's own tables of its preset
    # are) and wrong at three: a three-seat ladder must find out before it seats it.
    db = tmp_path / "serve.db"
    alice = token(db, "alice")
    procs = Processes()
    try:
        server = procs.serve(
            db, "--table-size", "3", "--preset", "amigo", "--deadline-ms", "300",
            "--hello-timeout-s", "1",
        )  # fmt: skip
        (bot,) = procs.bots([THREE_SEAT_BOT])
        run = arena_cli(
            "submit", "--arena", server.address, "--token", alice,
            "--name", "three", "--endpoint", bot.address,
        )  # fmt: skip
        assert run.returncode == 1, run.stdout + run.stderr
        assert "suspended" in run.stdout
        assert "ILLEGAL" in run.stdout
        with stub(server.address) as client:
            entry = bot_named(client, "three")
            assert entry is not None
            assert entry.status == arena_pb2.BOT_STATUS_SUSPENDED
            assert entry.status_reason.startswith("verification failed:")
    finally:
        procs.kill_all()
