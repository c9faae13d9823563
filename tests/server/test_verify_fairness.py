"""One owner's slow bots cannot hold every verification slot: an owner's bots are
verified one at a time, so another owner's bot goes through meanwhile."""

from __future__ import annotations

import time
from pathlib import Path

from arena.v1 import arena_pb2

from .support import FLAG_BOT, RANDOM_BOT, Processes, stub, submit, token, wait_status


def test_a_slow_owner_does_not_stall_the_others(tmp_path: Path) -> None:
    db = tmp_path / "serve.db"
    flag = tmp_path / "slow"
    flag.touch()  # every decision of the slow bots takes 300 ms: a check game, many seconds
    mallory, alice = token(db, "mallory"), token(db, "alice")
    procs = Processes()
    try:
        server = procs.serve(db, "--table-size", "2", "--verify-games", "1")
        slow_a, slow_b, quick = procs.bots(
            [FLAG_BOT, "--slow-flag", str(flag), "--sleep-ms", "300"],
            [FLAG_BOT, "--slow-flag", str(flag), "--sleep-ms", "300"],
            [RANDOM_BOT],
        )
        with stub(server.address) as client:
            submit(client, mallory, "slow-a", slow_a.address)
            submit(client, mallory, "slow-b", slow_b.address)
            time.sleep(0.5)  # both of mallory's are queued first
            started = time.monotonic()
            submit(client, alice, "quick", quick.address)
            wait_status(client, "quick", arena_pb2.BOT_STATUS_ACTIVE)
            waited = time.monotonic() - started
            bots = client.ListBots(arena_pb2.ListBotsRequest(), timeout=5).bots
            verifying = [b.name for b in bots if b.status == arena_pb2.BOT_STATUS_VERIFYING]
    finally:
        procs.kill_all()
    assert "slow-a" in verifying or "slow-b" in verifying  # mallory's still going
    assert waited < 8, f"alice's bot waited {waited:.1f} s behind mallory's"
