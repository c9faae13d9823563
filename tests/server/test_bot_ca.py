"""``--bot-ca FILE`` on every command that calls bots (match, league, play, check-bot,
serve): a bot serving TLS with a private CA is reached by trusting that CA, and a CA
file that cannot be used is refused before anything runs, saying why (the refusals call
each command's ``main`` in the test's process: ``in_process.run_arena``)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from in_process import run_arena

from arena.referee.channels import RootsError, read_roots

from .support import TLS_BOT, Processes, arena_cli, self_signed


def test_read_roots_refuses_a_missing_file_and_one_without_a_certificate(
    tmp_path: Path,
) -> None:
    with pytest.raises(RootsError, match=r"cannot read the CA file .*missing\.pem"):
        read_roots(tmp_path / "missing.pem")
    key_only = tmp_path / "key.pem"
    key_only.write_text("-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n")
    with pytest.raises(RootsError, match="holds no PEM certificate"):
        read_roots(key_only)
    cert, _ = self_signed(tmp_path)
    assert read_roots(cert) == cert.read_bytes()


@pytest.mark.parametrize("command", ["match", "league", "check-bot", "play"])
def test_an_unusable_bot_ca_is_refused_before_anything_runs(tmp_path: Path, command: str) -> None:
    db = tmp_path / "arena.db"
    args = {
        "match": ["--bot", "random", "--bot", "greedy"],
        "league": ["--bot", "random", "--bot", "greedy", "--table-size", "2", "--db", str(db)],
        "check-bot": ["tls://127.0.0.1:9"],
        "play": ["--bot", "random", "--db", str(db)],
    }[command]
    result = run_arena(command, *args, "--bot-ca", str(tmp_path / "nowhere.pem"))
    assert result.returncode == 2, result.stdout + result.stderr
    assert "cannot read the CA file" in result.stderr
    assert "nowhere.pem" in result.stderr
    assert not db.exists()  # refused before the database was touched


@pytest.mark.slow
def test_match_and_league_reach_a_tls_bot_through_bot_ca(tmp_path: Path) -> None:
    cert, key = self_signed(tmp_path)
    procs = Processes()
    try:
        (bot,) = procs.bots([TLS_BOT, "--cert", str(cert), "--key", str(key)])
        seat = f"t=tls://127.0.0.1:{bot.address.rsplit(':', 1)[1]}"
        played = arena_cli("match", "--bot", seat, "--bot", "random", "--bot-ca", str(cert))
        assert played.returncode == 0, played.stdout + played.stderr
        assert "timeouts=0 errors=0 invalid=0" in played.stdout

        # Without the CA the certificate is not trusted, and the hint names the option.
        untrusted = arena_cli("match", "--bot", seat, "--bot", "random")
        assert untrusted.returncode == 2
        assert "--bot-ca" in untrusted.stderr

        db = tmp_path / "league.db"
        league = arena_cli(
            "league", "--bot", seat, "--bot", "r=random", "--table-size", "2",
            "--matches", "2", "--db", str(db), "--bot-ca", str(cert), "--quiet",
        )  # fmt: skip
        assert league.returncode == 0, league.stdout + league.stderr
        with sqlite3.connect(db) as conn:
            assert conn.execute("SELECT count(*) FROM matches").fetchone()[0] == 2
            assert conn.execute("SELECT count(*) FROM faults").fetchone()[0] == 0
    finally:
        procs.kill_all()
