"""`arena serve --rest-s`: a bot rests after each ladder match before it is seated
again, so a small ladder does not play hundreds of matches a minute."""

from __future__ import annotations

import time
from pathlib import Path

from arena.v1 import arena_pb2, arena_pb2_grpc

from .support import RANDOM_BOT, Processes, bot_named, stub, submit, token, wait_status, wait_until

ARGS = ("--table-size", "2", "--deadline-ms", "500", "--placement-matches", "0")


def _matches(client: arena_pb2_grpc.ArenaStub, name: str) -> int:
    bot = bot_named(client, name)
    return bot.matches if bot is not None else 0


def test_bots_rest_between_ladder_matches(tmp_path: Path) -> None:
    db = tmp_path / "serve.db"
    alice = token(db, "alice")
    procs = Processes()
    try:
        server = procs.serve(db, *ARGS, "--rest-s", "1.5")
        first, second = procs.bots([RANDOM_BOT], [RANDOM_BOT])
        with stub(server.address) as client:
            submit(client, alice, "one", first.address)
            submit(client, alice, "two", second.address)
            wait_status(client, "one", arena_pb2.BOT_STATUS_ACTIVE)
            wait_status(client, "two", arena_pb2.BOT_STATUS_ACTIVE)
            wait_until(lambda: _matches(client, "one") >= 1 or None, 20, "a first match")
            before = _matches(client, "one")
            time.sleep(4.0)
            played = _matches(client, "one") - before
            # A match between two random bots takes well under a second, so without
            # rests this would be dozens; with 1.5 s rests, at most 4.0 / 1.5 + 1.
            assert 1 <= played <= 3, played
    finally:
        procs.kill_all()
