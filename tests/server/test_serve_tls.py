"""TLS on the arena's port (the author CLI with --ca) and TLS to a bot that asks for it
(tls://HOST:PORT, trusted through --bot-ca). Certificates are made by `cryptography`."""

from __future__ import annotations

from pathlib import Path

import pytest

from .support import RANDOM_BOT, TLS_BOT, Processes, arena_cli, self_signed, token


@pytest.mark.slow
def test_tls_on_the_arena_port_and_to_bots(tmp_path: Path) -> None:
    cert, key = self_signed(tmp_path)
    db = tmp_path / "serve.db"
    alice = token(db, "alice")
    procs = Processes()
    try:
        server = procs.serve(
            db, "--table-size", "2", "--hello-timeout-s", "2",
            "--tls-cert", str(cert), "--tls-key", str(key), "--bot-ca", str(cert),
        )  # fmt: skip
        port = server.address.rsplit(":", 1)[1]
        arena = f"localhost:{port}"
        secure = arena_cli("bots", "--arena", arena, "--ca", str(cert))
        assert secure.returncode == 0, secure.stderr
        assert "no bots yet" in secure.stdout

        plain = arena_cli("bots", "--arena", arena)
        assert plain.returncode == 1
        assert "add --tls" in plain.stderr
        untrusted = arena_cli("bots", "--arena", arena, "--tls")
        assert untrusted.returncode == 1
        assert "--ca" in untrusted.stderr

        tls_bot, plain_bot = procs.bots(
            [TLS_BOT, "--cert", str(cert), "--key", str(key)], [RANDOM_BOT]
        )
        common = ("--arena", arena, "--ca", str(cert), "--token", alice)
        ok = arena_cli(
            "submit", *common, "--name", "secure", "--endpoint", f"tls://{tls_bot.address}"
        )
        assert ok.returncode == 0, ok.stdout + ok.stderr
        assert "'secure': active" in ok.stdout
        # A plain bot named as tls:// fails its Hello: the handshake does not happen.
        wrong = arena_cli(
            "submit", *common, "--name", "notls", "--endpoint", f"tls://{plain_bot.address}"
        )
        assert wrong.returncode == 1
        assert "suspended (verification failed: Hello" in wrong.stdout
    finally:
        procs.kill_all()


@pytest.mark.slow
def test_check_bot_checks_a_bot_that_serves_tls(tmp_path: Path) -> None:
    cert, key = self_signed(tmp_path)
    procs = Processes()
    try:
        (tls_bot,) = procs.bots([TLS_BOT, "--cert", str(cert), "--key", str(key)])
        endpoint = f"tls://{tls_bot.address}"
        ok = arena_cli("check-bot", endpoint, "--bot-ca", str(cert), "--games", "2")
        assert ok.returncode == 0, ok.stdout + ok.stderr
        assert "Hello: 'tls-random'" in ok.stdout
        assert ok.stdout.rstrip().endswith("PASS")
        # Without the CA the certificate is not trusted: the Hello fails, plainly.
        untrusted = arena_cli("check-bot", endpoint, "--games", "1")
        assert untrusted.returncode == 1
        assert "FAIL  Hello" in untrusted.stdout
        plain = arena_cli("check-bot", tls_bot.address, "--bot-ca", str(cert))
        assert plain.returncode == 2
        assert f"tls://{tls_bot.address}" in plain.stderr
    finally:
        procs.kill_all()
