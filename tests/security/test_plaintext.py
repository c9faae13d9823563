"""Finding 3, plaintext: serving, or sending a token, in clear to or from another machine
needs an explicit ``--insecure``.

No test connects anywhere but loopback: the server refusals happen before anything
listens (the command runs in the test's process: ``in_process.run_arena``), and the
client's judgement of "another machine" is forced by patching ``loopback_host`` (its
spelling rules have a test of their own) while the real arena listens on 127.0.0.1.
"""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

import pytest
from in_process import run_arena
from server.support import Processes, self_signed, stub, token

from arena.cli import arena_client, build_parser
from arena.referee.channels import loopback_host
from arena.server.config import ServeConfig, ServeConfigError, validate
from arena.v1 import arena_pb2


def test_loopback_is_judged_by_spelling_alone() -> None:
    for host in ("127.0.0.1", "127.8.9.1", "::1", "[::1]", "localhost", "LocalHost.",
                 "arena.localhost", "::ffff:127.0.0.1"):  # fmt: skip
        assert loopback_host(host), host
    for host in ("0.0.0.0", "::", "[::]", "192.0.2.1", "10.0.0.1", "arena.example.org",
                 "localhost.example.org", "127.0.0.1.example.org", "fe80::1"):  # fmt: skip
        assert not loopback_host(host), host


@pytest.mark.parametrize("host", ["0.0.0.0", "::", "192.0.2.1", "arena.example.org"])
def test_serve_on_another_host_without_tls_needs_insecure(tmp_path: Path, host: str) -> None:
    """On a35e272 `arena serve --host 0.0.0.0` served plaintext to every interface
    without a word, and owners' tokens crossed the network in clear."""
    db = tmp_path / "serve.db"
    refused = run_arena("serve", "--db", str(db), "--host", host, "--port", "0")
    assert refused.returncode == 2
    assert "--insecure" in refused.stderr
    assert "--tls-cert" in refused.stderr
    assert not db.exists()  # refused before anything was opened or bound
    validate(ServeConfig(db=str(db), host=host, insecure=True))
    cert, key = self_signed(tmp_path)
    validate(ServeConfig(db=str(db), host=host, tls_cert=str(cert), tls_key=str(key)))
    for loopback in ("127.0.0.1", "localhost", "::1"):
        validate(ServeConfig(db=str(db), host=loopback))
    with pytest.raises(ServeConfigError):
        validate(ServeConfig(db=str(db), host=host))


def _run(*argv: str) -> tuple[int, str, str]:
    """Run an author command in this process (its parser and its run function)."""
    args = build_parser().parse_args(argv)
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = int(args.run(args))
    return status, out.getvalue(), err.getvalue()


def test_author_commands_send_no_token_in_clear_to_another_machine(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On a35e272 `arena submit --arena HOST:PORT` sent the token in clear to any host
    (arena_client.py had no such check, and no --insecure)."""
    db = tmp_path / "serve.db"
    alice = token(db, "alice")
    procs = Processes()
    try:
        server = procs.serve(db, "--table-size", "2", "--verify-games", "0")
        (bot,) = procs.bots([str(Path(__file__).parents[2] / "sample_bots" / "random_bot.py")])
        # The arena listens on loopback; the client is made to see another machine.
        monkeypatch.setattr(arena_client, "loopback_host", lambda host: False)
        common = ("--arena", server.address, "--token", alice)
        status, _, err = _run("submit", *common, "--name", "mine", "--endpoint", bot.address)
        assert status == 2
        assert "not sending your token in clear" in err
        assert "--insecure" in err
        for command in (("retire", "--name", "mine"), ("update", "--name", "mine")):
            status, _, err = _run(*command, *common)
            assert status == 2, command
            assert "not sending your token in clear" in err
        with stub(server.address) as client:  # nothing reached the arena
            assert not client.ListBots(arena_pb2.ListBotsRequest(), timeout=5).bots
        status, out, err = _run("bots", *common)  # the token is optional here: left out
        assert status == 0
        assert "listing without it" in err
        status, out, _ = _run(
            "submit", *common, "--name", "mine", "--endpoint", bot.address, "--insecure",
            "--no-wait",
        )  # fmt: skip
        assert status == 0
        status, out, _ = _run("bots", *common)
        assert status == 0
        assert bot.address not in out  # listed without the token: no endpoint shown
        status, out, _ = _run("bots", *common, "--insecure")
        assert status == 0
        assert bot.address in out  # the token went: the owner sees her endpoint
    finally:
        procs.kill_all()
