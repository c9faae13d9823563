"""The public reads have a limit per client address. They had none: one anonymous
client polling in a loop took as much of the arena as it could.

Fails on a35e272: there is no read limit (nor its option, so the arena does not even
start with it). Passes now: each client address gets ``--read-burst`` reads at once and
then ``--read-rate`` per second; beyond that every read (with or without a token) is
RESOURCE_EXHAUSTED saying when to try again, and costs the arena no database work.
"""

from __future__ import annotations

from pathlib import Path

import grpc
import pytest
from server.support import Processes, auth, rpc_error, stub, token

from arena.v1 import arena_pb2


@pytest.mark.slow
def test_an_anonymous_poller_is_held_to_the_read_rate(tmp_path: Path) -> None:
    db = tmp_path / "serve.db"
    alice = token(db, "alice")
    procs = Processes()
    try:
        # One read per 1000 s after a burst of three: the fourth read is refused whatever
        # the speed of the machine.
        server = procs.serve(db, "--read-rate", "0.001", "--read-burst", "3")
        with stub(server.address) as client:
            client.ListBots(arena_pb2.ListBotsRequest(), timeout=10)
            client.GetLeaderboard(arena_pb2.GetLeaderboardRequest(), timeout=10)
            client.ListMatches(arena_pb2.ListMatchesRequest(), timeout=10)
            for call in (
                lambda: client.ListMatches(arena_pb2.ListMatchesRequest(), timeout=10),
                lambda: client.GetMatch(arena_pb2.GetMatchRequest(match_id="x"), timeout=10),
                lambda: client.ListBots(
                    arena_pb2.ListBotsRequest(), timeout=10, metadata=auth(alice)
                ),
            ):
                refused = rpc_error(call)
                assert refused.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
                details = refused.details() or ""
                assert "reads per second" in details
                assert "try again in" in details
    finally:
        procs.kill_all()
