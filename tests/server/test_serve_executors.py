"""`arena serve --executor processes`: ladder matches on worker processes while the
ladder (tables, ratings, the one writer) stays in the serving process; a worker killed
mid-match is reported and the ladder goes on with the other one. A Ray address nothing
answers at is refused plainly."""

from __future__ import annotations

import os
import signal
import sqlite3
from pathlib import Path

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from arena.v1 import arena_pb2

from .support import (
    GREEDY_BOT,
    RANDOM_BOT,
    Proc,
    Processes,
    arena_cli,
    children,
    stub,
    submit,
    token,
    wait_status,
    wait_until,
)


def _rated(db: Path) -> int:
    try:
        with sqlite3.connect(db, timeout=1) as conn:
            return int(conn.execute("SELECT count(*) FROM matches").fetchone()[0])
    except sqlite3.OperationalError:
        return 0


def _serving_two_bots(
    procs: Processes, db: Path, log: Path, workers: int
) -> tuple[Proc, list[int]]:
    """`arena serve` on `workers` worker processes, two bots submitted and active; the
    server and its workers' pids."""
    alice = token(db, "alice")
    concurrency = str(2 * workers)
    server = procs.serve(
        db, "--table-size", "2", "--deadline-ms", "500", "--concurrency", concurrency,
        "--bot-streams", concurrency, "--executor", "processes", "--workers", str(workers),
        stderr=log,
    )  # fmt: skip
    pids = children(server.pid)
    assert len(pids) == workers
    first, second = procs.bots([RANDOM_BOT], [GREEDY_BOT])
    with stub(server.address) as client:
        for name, bot in (("rando", first), ("greedy", second)):
            submit(client, alice, name, bot.address)
            wait_status(client, name, arena_pb2.BOT_STATUS_ACTIVE, 60)
    return server, pids


@pytest.mark.slow
def test_serve_plays_on_worker_processes_and_survives_losing_one(tmp_path: Path) -> None:
    db, log = tmp_path / "serve.db", tmp_path / "serve.log"
    procs = Processes()
    try:
        server, workers = _serving_two_bots(procs, db, log, workers=2)
        wait_until(lambda: _rated(db) >= 4, 120, "4 rated matches")
        os.kill(workers[0], signal.SIGKILL)
        before = _rated(db)
        wait_until(lambda: _rated(db) >= before + 4, 120, "4 more rated matches")
        wait_until(lambda: "died" in log.read_text(), 30, "the log to say a worker died")
        assert "processes worker 1 died" in log.read_text()
        assert "killed by signal SIGKILL" in log.read_text()
        server.popen.send_signal(signal.SIGTERM)
        assert server.popen.wait(timeout=60) == 0
    finally:
        procs.kill_all()
    assert not any(Path(f"/proc/{pid}").exists() for pid in workers[1:]), "workers stopped"


@pytest.mark.slow
def test_serve_halts_its_ladder_plainly_when_every_worker_dies(tmp_path: Path) -> None:
    """With no worker left every match would fail at once: the ladder starts no more,
    says so once in the log and in its status line, and keeps serving reads."""
    db, log = tmp_path / "serve.db", tmp_path / "serve.log"
    procs = Processes()
    try:
        server, (worker,) = _serving_two_bots(procs, db, log, workers=1)
        with stub(server.address) as client:
            wait_until(lambda: _rated(db) >= 2, 120, "2 rated matches")
            os.kill(worker, signal.SIGKILL)

            def halted() -> str | None:
                status = client.ListBots(arena_pb2.ListBotsRequest(), timeout=5).ladder_status
                return status if status.startswith("halted") else None

            status = wait_until(halted, 60, "the ladder to say it halted")
            assert "every worker died: processes worker 1 died" in status
            assert "restart arena serve" in status
            assert len(client.ListBots(arena_pb2.ListBotsRequest(), timeout=5).bots) == 2
        with grpc.insecure_channel(server.address) as channel:
            health = health_pb2_grpc.HealthStub(channel)

            def not_serving() -> bool:
                answer = health.Check(health_pb2.HealthCheckRequest(service=""), timeout=5)
                return bool(answer.status == health_pb2.HealthCheckResponse.NOT_SERVING)

            # Set by the ladder's loop once it wakes after the halt: waited for, not raced.
            wait_until(not_serving, 30, "the health service to say NOT_SERVING")
        text = log.read_text()
        assert text.count("ladder halted") == 1, text
        assert "ladder match" not in text, "no match failed for want of a worker"
        server.popen.send_signal(signal.SIGTERM)
        assert server.popen.wait(timeout=60) == 0
    finally:
        procs.kill_all()


@pytest.mark.slow
def test_serve_refuses_an_unreachable_ray_address(tmp_path: Path) -> None:
    pytest.importorskip("ray")
    run = arena_cli(
        "serve", "--db", str(tmp_path / "s.db"), "--port", "0", "--executor", "ray",
        "--ray-address", "127.0.0.1:9",
    )  # fmt: skip
    assert run.returncode == 2
    assert "cannot reach the Ray cluster at 127.0.0.1:9" in run.stderr
    assert "Traceback" not in run.stderr
