"""`arena serve` end to end: real server and bot processes on loopback.

Submit through the real CLI, verification, the ladder playing, the leaderboard
changing, the views (matches, one seat's replay, the full record), health and
reflection; and a bot that dies later being suspended and re-activated by its owner.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc

from arena.v1 import arena_pb2

from .support import (
    GREEDY_BOT,
    RANDOM_BOT,
    Processes,
    arena_cli,
    auth,
    bot_named,
    stub,
    submit,
    token,
    wait_status,
    wait_until,
)

# Deadlines are generous: real bot processes on a loaded machine can take a second to
# answer (the ladder's pace is tested on a virtual clock in test_ladder_pace.py).
FAST = ("--table-size", "2", "--deadline-ms", "5000", "--placement-matches", "2")


def _leaderboard(address: str) -> dict[str, dict[str, Any]]:
    run = arena_cli("leaderboard", "--arena", address, "--format", "json")
    assert run.returncode == 0, run.stderr
    return {row["name"]: row for row in json.loads(run.stdout)}


def _board_when(
    address: str, condition: Callable[[dict[str, dict[str, Any]]], bool]
) -> dict[str, dict[str, Any]] | None:
    rows = _leaderboard(address)
    return rows if rows and condition(rows) else None


@pytest.mark.slow
def test_submit_verify_play_and_watch_the_leaderboard(tmp_path: Path) -> None:
    db = tmp_path / "serve.db"
    created = arena_cli("token", "create", "alice", "--db", str(db))
    assert created.returncode == 0, created.stderr
    alice = created.stdout.split()[-1]
    with sqlite3.connect(db) as conn:  # only a hash is stored
        stored = conn.execute("SELECT id, secret_sha256 FROM tokens").fetchall()
    assert len(stored) == 1
    assert alice.split(".")[1] not in db.read_bytes().decode("latin-1")

    procs = Processes()
    try:
        server = procs.serve(db, *FAST)
        first, second = procs.bots([RANDOM_BOT], [GREEDY_BOT])
        run = arena_cli(
            "submit", "--arena", server.address, "--token", alice,
            "--name", "rando", "--endpoint", first.address, "--description", "random moves",
        )  # fmt: skip
        assert run.returncode == 0, run.stdout + run.stderr
        assert "active" in run.stdout
        with stub(server.address) as client:
            waiting = client.ListBots(arena_pb2.ListBotsRequest(), timeout=5)
            assert waiting.ladder == "serve/abluxxen/amigo/2p"
            assert waiting.ladder_status.startswith("waiting: 1 active bot")
            board = arena_cli("leaderboard", "--arena", server.address)
            assert "waiting: 1 active bot" in board.stdout

            submit(client, alice, "greedy", second.address)
            wait_status(client, "greedy", arena_pb2.BOT_STATUS_ACTIVE)
            rows = wait_until(
                lambda: _board_when(server.address, lambda r: len(r) == 2),
                120,
                "both bots on the leaderboard",
            )
            assert rows["rando"]["matches"] == rows["greedy"]["matches"] > 0
            before = rows["rando"]["matches"]
            later = wait_until(
                lambda: _board_when(server.address, lambda r: r["rando"]["matches"] > before + 2),
                120,
                "more matches",
            )
            assert later["rando"]["mu"] != rows["rando"]["mu"]  # the ratings move

            # Everyone sees the bots; only the owner sees where they run.
            anonymous = bot_named(client, "rando")
            assert anonymous is not None
            assert anonymous.endpoint == ""
            assert anonymous.description == "random moves"
            assert anonymous.version == "random 1.0"
            assert anonymous.matches > 0
            mine = client.ListBots(arena_pb2.ListBotsRequest(), timeout=5, metadata=auth(alice))
            assert {b.endpoint for b in mine.bots} == {first.address, second.address}
            listing = arena_cli("bots", "--arena", server.address)
            assert "rando" in listing.stdout
            assert "active" in listing.stdout

            matches = client.ListMatches(arena_pb2.ListMatchesRequest(limit=3), timeout=5)
            assert len(matches.matches) == 3
            newest = matches.matches[0]
            assert not newest.running
            assert newest.end_reason
            assert {s.bot for s in newest.seats} == {"rando", "greedy"}
            assert newest.at >= matches.matches[1].at

            seat_view = client.GetMatch(
                arena_pb2.GetMatchRequest(match_id=newest.match_id, seat=1), timeout=5
            )
            assert "as seat 1" in seat_view.replay[0]
            assert seat_view.replay[-1].startswith("final ranks")
            assert not seat_view.record_json  # one seat's view: no full record
            full = client.GetMatch(
                arena_pb2.GetMatchRequest(match_id=newest.match_id, full=True), timeout=5
            )
            assert "everything revealed" in full.replay[0]
            lines = [json.loads(line) for line in full.record_json]
            assert lines[0]["type"] == "match"
            assert lines[0]["match_id"] == newest.match_id
            assert lines[-1]["type"] == "result"
            # The other seat's dealt cards show only in the full view.
            assert len(full.replay) >= len(seat_view.replay)
            assert full.replay != seat_view.replay

            listed = arena_cli("matches", "--arena", server.address, "--limit", "2")
            assert listed.returncode == 0, listed.stderr
            assert "serve/abluxxen/amigo/2p/" in listed.stdout
            replayed = arena_cli(
                "replay", newest.match_id, "--arena", server.address, "--seat", "0"
            )
            assert replayed.returncode == 0, replayed.stderr
            assert "as seat 0" in replayed.stdout
            missing = arena_cli("replay", "nothing", "--arena", server.address)
            assert missing.returncode == 1
            assert "NOT_FOUND" in missing.stderr

        channel = grpc.insecure_channel(server.address)
        try:
            health = health_pb2_grpc.HealthStub(channel)
            for service in ("", "arena.v1.Arena"):
                answer = health.Check(health_pb2.HealthCheckRequest(service=service), timeout=5)
                assert answer.status == health_pb2.HealthCheckResponse.SERVING
            reflect = reflection_pb2_grpc.ServerReflectionStub(channel)
            replies = reflect.ServerReflectionInfo(
                iter([reflection_pb2.ServerReflectionRequest(list_services="")]), timeout=5
            )
            services = {s.name for r in replies for s in r.list_services_response.service}
            assert "arena.v1.Arena" in services
        finally:
            channel.close()
    finally:
        procs.kill_all()


@pytest.mark.slow
def test_a_bot_that_dies_is_suspended_and_its_owner_reactivates_it(tmp_path: Path) -> None:
    db = tmp_path / "serve.db"
    alice = token(db, "alice")
    procs = Processes()
    try:
        server = procs.serve(db, *FAST, "--suspend-after", "2", "--hello-timeout-s", "5")
        doomed, steady = procs.bots([RANDOM_BOT], [RANDOM_BOT])
        with stub(server.address) as client:
            submit(client, alice, "doomed", doomed.address)
            submit(client, alice, "steady", steady.address)
            wait_status(client, "doomed", arena_pb2.BOT_STATUS_ACTIVE)
            wait_status(client, "steady", arena_pb2.BOT_STATUS_ACTIVE)
            wait_until(
                lambda: (b := bot_named(client, "doomed")) and b.matches >= 3,
                120,
                "matches with both bots",
            )
            procs.kill(doomed)
            suspended = wait_status(client, "doomed", arena_pb2.BOT_STATUS_SUSPENDED)
            assert "failed 2 match(es) in a row" in suspended.status_reason
            assert "arena update --name doomed" in suspended.status_reason
            assert "ENDPOINT" in suspended.status_reason  # the address is the owner's
            status = client.ListBots(arena_pb2.ListBotsRequest(), timeout=5).ladder_status
            assert status.startswith("waiting: 1 active bot")
            steady_now = bot_named(client, "steady")
            assert steady_now is not None
            assert steady_now.status == arena_pb2.BOT_STATUS_ACTIVE

            (revived,) = procs.bots([RANDOM_BOT])
            client.UpdateBot(
                arena_pb2.UpdateBotRequest(name="doomed", endpoint=revived.address),
                timeout=5,
                metadata=auth(alice),
            )
            back = wait_status(client, "doomed", arena_pb2.BOT_STATUS_ACTIVE)
            assert back.failing_streak == 0
            before = back.matches
            wait_until(
                lambda: (b := bot_named(client, "doomed")) and b.matches > before,
                120,
                "the re-activated bot playing again",
            )
    finally:
        procs.kill_all()
