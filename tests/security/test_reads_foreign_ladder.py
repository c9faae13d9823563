"""GetLeaderboard serves only the arena's own ladder. It served any ladder the database
held: the standings of a league run on the same file (another competition, a private
test league) were public through the arena.

Fails on a35e272: the other league's ladder is served. Passes now: any ladder but the
arena's own is NOT_FOUND, and the refusal names the arena's ladder.
"""

from __future__ import annotations

from pathlib import Path

import grpc
import pytest
from server.support import Processes, arena_cli, rpc_error, stub

from arena.v1 import arena_pb2

from .reads_support import LADDER, history_db

FOREIGN = "lg/abluxxen/amigo/4p"


@pytest.mark.slow
def test_only_the_arenas_own_ladder_is_served(tmp_path: Path) -> None:
    db = history_db(tmp_path / "serve.db", matches=20, bots=20, other_league=True)
    procs = Processes()
    try:
        server = procs.serve(db, "--table-size", "4")
        with stub(server.address) as client:
            own = client.GetLeaderboard(arena_pb2.GetLeaderboardRequest(), timeout=10)
            assert own.ladder == LADDER
            assert own.rows
            named = client.GetLeaderboard(arena_pb2.GetLeaderboardRequest(ladder=LADDER))
            assert [r.name for r in named.rows] == [r.name for r in own.rows]
            for ladder in (FOREIGN, "nothing/at/all/4p"):
                refused = rpc_error(
                    client.GetLeaderboard,
                    arena_pb2.GetLeaderboardRequest(ladder=ladder),
                    timeout=10,
                )
                assert refused.code() == grpc.StatusCode.NOT_FOUND
                assert LADDER in (refused.details() or "")
        shown = arena_cli("leaderboard", "--arena", server.address, "--ladder", FOREIGN)
        assert shown.returncode == 1
        assert "NOT_FOUND" in shown.stderr
        assert "bot0" not in shown.stdout
    finally:
        procs.kill_all()
