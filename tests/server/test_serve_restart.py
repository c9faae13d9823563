"""A running match's record is never served; SIGTERM abandons a match that outlives the
grace period (unrated, never half-recorded); a restart on the same database keeps
every bot, status, rating and match, and the ladder plays on."""

from __future__ import annotations

import signal
import sqlite3
import time
from pathlib import Path

import grpc
import pytest

from arena.v1 import arena_pb2

from .support import (
    FLAG_BOT,
    RANDOM_BOT,
    Processes,
    bot_named,
    rpc_error,
    stub,
    submit,
    token,
    wait_status,
    wait_until,
)

ARGS = ("--table-size", "2", "--deadline-ms", "1000", "--placement-matches", "1")


def _counts(db: Path) -> tuple[int, int, int, int]:
    with sqlite3.connect(db) as conn:
        return (
            conn.execute("SELECT count(*) FROM matches").fetchone()[0],
            conn.execute("SELECT count(*) FROM records").fetchone()[0],
            conn.execute("SELECT count(DISTINCT match_id) FROM seats").fetchone()[0],
            conn.execute("SELECT count(DISTINCT match_id) FROM rating_history").fetchone()[0],
        )


@pytest.mark.slow
def test_running_matches_are_private_and_a_restart_keeps_everything(tmp_path: Path) -> None:
    db = tmp_path / "serve.db"
    flag = tmp_path / "slow"
    alice, bob = token(db, "alice"), token(db, "bob")
    procs = Processes()
    try:
        server = procs.serve(db, *ARGS, "--grace-s", "0.5", stderr=tmp_path / "first.log")
        slow, fast = procs.bots(
            [FLAG_BOT, "--slow-flag", str(flag), "--sleep-ms", "100"], [RANDOM_BOT]
        )
        with stub(server.address) as client:
            submit(client, alice, "slowpoke", slow.address)
            submit(client, bob, "quick", fast.address)
            wait_status(client, "slowpoke", arena_pb2.BOT_STATUS_ACTIVE)
            wait_status(client, "quick", arena_pb2.BOT_STATUS_ACTIVE)
            wait_until(
                lambda: (b := bot_named(client, "quick")) and b.matches >= 2, 20, "two matches"
            )
            flag.touch()  # from the next decision on, every match lasts seconds
            flagged_at = time.time()

            def running() -> arena_pb2.MatchSummary | None:
                listing = client.ListMatches(
                    arena_pb2.ListMatchesRequest(include_running=True), timeout=5
                )
                # One that started after the flag: every one of its slowpoke decisions
                # takes 100 ms, so it is still running below. (One that started before
                # may be nearly over: it could end before the checks.)
                live = [m for m in listing.matches if m.running and m.at > flagged_at]
                return live[0] if live else None

            live = wait_until(running, 120, "a slow match in play")
            assert {s.bot for s in live.seats} == {"slowpoke", "quick"}
            assert not live.end_reason
            assert all(s.rank == 0 for s in live.seats)
            for view in (
                arena_pb2.GetMatchRequest(match_id=live.match_id, full=True),
                arena_pb2.GetMatchRequest(match_id=live.match_id, seat=0),
            ):
                hidden = rpc_error(client.GetMatch, view, timeout=5)
                assert hidden.code() == grpc.StatusCode.FAILED_PRECONDITION
                assert "still being played" in (hidden.details() or "")

            before_bots = {
                b.name: (b.status, b.matches, b.owner)
                for b in client.ListBots(arena_pb2.ListBotsRequest(), timeout=5).bots
            }
            before_board = {
                r.name: (r.mu, r.sigma, r.matches)
                for r in client.GetLeaderboard(arena_pb2.GetLeaderboardRequest(), timeout=5).rows
            }
            before_matches = [
                m.match_id
                for m in client.ListMatches(arena_pb2.ListMatchesRequest(limit=500)).matches
            ]

        server.popen.send_signal(signal.SIGTERM)
        assert server.popen.wait(timeout=120) == 0
        log = (tmp_path / "first.log").read_text()
        assert "abandoned unfinished match(es), unrated: " + live.match_id in log
        matches, records, seated, rated = _counts(db)
        assert matches == records == seated == rated == len(before_matches)

        flag.unlink()
        again = procs.serve(db, *ARGS, stderr=tmp_path / "second.log")
        with stub(again.address) as client:
            after_bots = {
                b.name: (b.status, b.matches, b.owner)
                for b in client.ListBots(arena_pb2.ListBotsRequest(), timeout=5).bots
            }
            assert after_bots.keys() == before_bots.keys()
            for name, (status, played, owner) in after_bots.items():
                assert (status, owner) == (before_bots[name][0], before_bots[name][2])
                assert played >= before_bots[name][1]
            kept = [
                m.match_id
                for m in client.ListMatches(arena_pb2.ListMatchesRequest(limit=500)).matches
            ]
            assert set(before_matches) <= set(kept)
            assert live.match_id not in kept  # abandoned, and its id never reused
            full = client.GetMatch(
                arena_pb2.GetMatchRequest(match_id=before_matches[0], full=True), timeout=5
            )
            assert full.record_json
            # The ratings went on from where they were (or are exactly as they were).
            board = {
                r.name: (r.mu, r.sigma, r.matches)
                for r in client.GetLeaderboard(arena_pb2.GetLeaderboardRequest(), timeout=5).rows
            }
            for name, (_, _, played) in board.items():
                if played == before_board[name][2]:
                    assert board[name] == before_board[name]
            wait_until(
                lambda: (
                    (b := bot_named(client, "quick")) and b.matches > before_bots["quick"][1] + 1
                ),
                20,
                "the ladder playing on after the restart",
            )
    finally:
        procs.kill_all()
