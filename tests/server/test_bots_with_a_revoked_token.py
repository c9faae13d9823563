"""`arena bots` with a token the arena no longer accepts still lists the (public) bots,
and says why the token was not used."""

from __future__ import annotations

from pathlib import Path

import pytest

from arena.store import open_store
from arena.store.tokens import revoke_token

from .support import RANDOM_BOT, Processes, arena_cli, stub, submit, token


@pytest.mark.slow
def test_a_revoked_token_still_lists_the_bots(tmp_path: Path) -> None:
    db = tmp_path / "serve.db"
    alice = token(db, "alice")
    procs = Processes()
    try:
        server = procs.serve(db, "--table-size", "2", "--verify-games", "0")
        (bot,) = procs.bots([RANDOM_BOT])
        with stub(server.address) as client:
            submit(client, alice, "mine", bot.address)
        store = open_store(db)
        try:
            assert revoke_token(store, alice.split(".", 1)[0])
        finally:
            store.close()
        run = arena_cli("bots", "--arena", server.address, "--token", alice)
    finally:
        procs.kill_all()
    assert run.returncode == 0, run.stderr
    assert "mine" in run.stdout
    assert "the token was not accepted" in run.stderr
    assert bot.address not in run.stdout  # endpoints only with a valid owner's token
