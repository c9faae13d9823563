"""With concurrency 1 the ladder starts the next match as soon as one ends (it used to
count the ending match as still in play and wait for its next timed look, 2 s later)."""

from __future__ import annotations

import time
from pathlib import Path

from arena.v1 import arena_pb2

from .support import RANDOM_BOT, Processes, bot_named, stub, submit, token, wait_status


def test_matches_follow_each_other_without_a_pause(tmp_path: Path) -> None:
    db = tmp_path / "serve.db"
    alice = token(db, "alice")
    procs = Processes()
    try:
        server = procs.serve(
            db, "--table-size", "2", "--verify-games", "0", "--concurrency", "1",
            "--placement-matches", "0",
        )  # fmt: skip
        first, second = procs.bots([RANDOM_BOT], [RANDOM_BOT])
        with stub(server.address) as client:
            submit(client, alice, "one", first.address)
            submit(client, alice, "two", second.address)
            wait_status(client, "one", arena_pb2.BOT_STATUS_ACTIVE)
            wait_status(client, "two", arena_pb2.BOT_STATUS_ACTIVE)

            def played() -> int:
                bot = bot_named(client, "one")
                return bot.matches if bot is not None else 0

            before, started = played(), time.monotonic()
            time.sleep(4.0)
            rate = (played() - before) / (time.monotonic() - started)
    finally:
        procs.kill_all()
    # A random 2-player match takes well under 0.1 s here; one match per 2 s look would
    # be 0.5 matches/s.
    assert rate > 3, f"{rate:.1f} matches/s"
