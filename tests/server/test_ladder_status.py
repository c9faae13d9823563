"""The ladder's status line counts the matches in play: in ListBots/GetLeaderboard (and
so `arena bots`), as of the moment it is asked, and in the log line `arena serve`
writes when the ladder starts running."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from arena.v1 import arena_pb2

from .support import (
    FLAG_BOT,
    RANDOM_BOT,
    Processes,
    arena_cli,
    stub,
    submit,
    token,
    wait_status,
    wait_until,
)

IN_PLAY = re.compile(
    r"running: 1 match\(es\) in play among 2 active bots; \d+ rated match\(es\) so far"
)


@pytest.mark.slow
def test_the_status_line_counts_the_match_in_play(tmp_path: Path) -> None:
    db = tmp_path / "serve.db"
    log = tmp_path / "serve.log"
    flag = tmp_path / "slow"
    flag.touch()  # every decision of the slow bot takes 100 ms: a match lasts seconds
    alice = token(db, "alice")
    procs = Processes()
    try:
        server = procs.serve(
            db, "--table-size", "2", "--verify-games", "0", "--grace-s", "0", stderr=log
        )
        slow, quick = procs.bots(
            [FLAG_BOT, "--slow-flag", str(flag), "--sleep-ms", "100"], [RANDOM_BOT]
        )
        with stub(server.address) as client:
            submit(client, alice, "slowpoke", slow.address)
            submit(client, alice, "quick", quick.address)
            wait_status(client, "slowpoke", arena_pb2.BOT_STATUS_ACTIVE)
            wait_status(client, "quick", arena_pb2.BOT_STATUS_ACTIVE)

            def in_play() -> list[arena_pb2.MatchSummary]:
                request = arena_pb2.ListMatchesRequest(include_running=True)
                return [m for m in client.ListMatches(request, timeout=5).matches if m.running]

            wait_until(in_play, 120, "a match in play")
            status = client.ListBots(arena_pb2.ListBotsRequest(), timeout=5).ladder_status
            assert IN_PLAY.fullmatch(status), status
            board = client.GetLeaderboard(arena_pb2.GetLeaderboardRequest(), timeout=5)
            assert IN_PLAY.fullmatch(board.ladder_status), board.ladder_status
            assert len(in_play()) == 1  # still the same one: the count was not early

        shown = arena_cli("bots", "--arena", server.address)
        assert shown.returncode == 0, shown.stderr
        assert IN_PLAY.search(shown.stdout), shown.stdout
        # The log's one line about it, written as the first match started.
        lines = [line for line in log.read_text().splitlines() if "ladder running:" in line]
        assert len(lines) == 1, lines
        assert "ladder running: 1 match(es) in play among 2 active bots" in lines[0]
    finally:
        procs.kill_all()
