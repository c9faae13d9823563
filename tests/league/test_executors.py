"""The executors play the same league: every match's seats, ranks and faults and the
final ratings are equal on local, processes and ray, also when a worker is SIGKILLed
mid-match (its matches are played again on the others, with the same deals) and when
the head is (the same command resumes)."""

from __future__ import annotations

import asyncio
import os
import signal
import sqlite3
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from server.support import children

from arena.league.config import Entrant, LeagueConfig, LeagueConfigError, build_config
from arena.league.executors import Executor, ExecutorError, LeagueRecipe, make_executor
from arena.league.executors.processes import ProcessesExecutor, ProcessWorker
from arena.league.runner import LeagueError, LeagueSummary, run_league
from arena.store import open_store

from .conftest import ARENA, ROOT, arena

RANDOM_BOT = f"python {ROOT / 'sample_bots' / 'random_bot.py'}"
ILLEGAL_BOT = f"python {ROOT / 'tests' / 'bots' / 'illegal_bot.py'}"

Dump = tuple[list[tuple[object, ...]], list[tuple[object, ...]], list[tuple[object, ...]]]


def _config(db: Path, **changes: Any) -> LeagueConfig:
    """Built-ins, a managed SDK bot and a managed bot whose every answer is illegal
    (faults and forfeits), on a schedule that follows the ratings."""
    config = LeagueConfig(
        bots=(
            Entrant("r1", builtin="random"),
            Entrant("g1", builtin="greedy"),
            Entrant("sdk", command=RANDOM_BOT),
            Entrant("bad", command=ILLEGAL_BOT),
            Entrant("r2", builtin="random"),
        ),
        name="same",
        table_size=4,
        matches=24,
        schedule="rating",
        concurrency=6,
        seed=2026,
        # Generous: the results must not depend on the machine's load (at 1 s, a loaded
        # machine once made a managed bot time out in one run and not in the other).
        deadline_ms=30_000,
        db=str(db),
    )
    return replace(config, **changes)


def _run(config: LeagueConfig, executor: Executor | None = None, **hooks: Any) -> LeagueSummary:
    async def main() -> LeagueSummary:
        store = open_store(config.db)
        try:
            return await run_league(config, store, executor=executor, **hooks)
        finally:
            store.close()

    return asyncio.run(main())


def _dump(db: Path) -> Dump:
    """Every match's seats (bot, score, rank, fault counts), every fault, the ratings."""
    with sqlite3.connect(db) as conn:
        seats = conn.execute(
            "SELECT m.idx, m.seed, s.seat, s.bot, s.score, s.rank, s.forfeited, s.timeouts, "
            "s.errors, s.invalid FROM matches m JOIN seats s ON s.match_id = m.id "
            "ORDER BY m.idx, s.seat"
        ).fetchall()
        faults = conn.execute(
            "SELECT match_id, seat, n, kind, detail FROM faults ORDER BY match_id, seat, n"
        ).fetchall()
        ratings = conn.execute(
            "SELECT bot, mu, sigma, matches FROM ratings ORDER BY bot"
        ).fetchall()
    return seats, faults, ratings


def _assert_same(db: Path, expected: Dump) -> None:
    """The league in ``db`` equals the reference; if not, the message names the first
    rows that differ and the faults found on one side only (a fault that depends on
    timing is the likely cause, and its detail says which)."""
    got = _dump(db)
    if got == expected:
        return
    lines = []
    for part, mine, theirs in zip(("seats", "faults", "ratings"), got, expected, strict=True):
        different = [(a, b) for a, b in zip(mine, theirs, strict=False) if a != b]
        if len(mine) != len(theirs):
            lines.append(f"{part}: {len(mine)} rows here, {len(theirs)} in the reference")
        for a, b in different[:4]:
            lines.append(f"{part}:\n  here      {a}\n  reference {b}")
    here, reference = set(got[1]), set(expected[1])
    lines += [f"fault only here: {row}" for row in sorted(here - reference)[:8]]
    lines += [f"fault only in the reference: {row}" for row in sorted(reference - here)[:8]]
    pytest.fail("the league differs from the local executor's:\n" + "\n".join(lines))


@pytest.fixture(scope="module")
def local_result(tmp_path_factory: pytest.TempPathFactory) -> Dump:
    """The league on the local executor, the reference of every other run."""
    db = tmp_path_factory.mktemp("local") / "local.db"
    summary = _run(_config(db))
    assert summary.played == 24
    seats, faults, ratings = _dump(db)
    assert faults, "the illegal bot's faults are part of what must be equal"
    assert len({row[0] for row in seats}) == 24
    return seats, faults, ratings


@pytest.mark.slow
def test_the_processes_executor_plays_the_same_league(tmp_path: Path, local_result: Dump) -> None:
    db = tmp_path / "processes.db"
    summary = _run(_config(db, executor="processes", workers=2))
    assert summary.executor == "processes"
    assert summary.workers_lost == []
    _assert_same(db, local_result)


@pytest.mark.slow
def test_a_worker_killed_mid_match_has_its_matches_played_again(
    tmp_path: Path, local_result: Dump, caplog: pytest.LogCaptureFixture
) -> None:
    db = tmp_path / "killed-worker.db"
    config = _config(db, executor="processes", workers=2)
    executor = ProcessesExecutor(LeagueRecipe(config), workers=2)
    killed: list[int] = []

    def kill_a_busy_worker(committed: int) -> None:
        if killed or committed < 3:
            return
        for worker in executor.workers:
            assert isinstance(worker, ProcessWorker)
            if worker.unanswered and worker.pid is not None:
                os.kill(worker.pid, signal.SIGKILL)
                killed.append(worker.pid)
                return

    summary = _run(config, executor, on_commit=kill_a_busy_worker)
    assert killed, "a worker should have been killed with matches in play"
    assert len(summary.workers_lost) == 1
    assert "killed by signal SIGKILL" in summary.workers_lost[0]
    assert summary.replayed >= 1  # its unanswered tables, and any sent before its death showed
    assert summary.played == 24
    _assert_same(db, local_result)  # nothing lost, nothing counted twice, same deals
    assert "is played again on another worker" in caplog.text
    seeds = {str(row[1]) for row in local_result[0]}
    assert not [seed for seed in seeds if seed in caplog.text], "a deal's seed was logged"


@pytest.mark.slow
def test_a_league_whose_every_worker_dies_stops_and_resumes(
    tmp_path: Path, local_result: Dump
) -> None:
    db = tmp_path / "all-dead.db"
    config = _config(db, executor="processes", workers=1)
    executor = ProcessesExecutor(LeagueRecipe(config), workers=1)

    killed: list[int] = []

    def kill_the_worker(committed: int) -> None:
        worker = executor.workers[0]
        assert isinstance(worker, ProcessWorker)
        if committed >= 2 and not killed and worker.pid is not None:
            os.kill(worker.pid, signal.SIGKILL)
            killed.append(worker.pid)

    with pytest.raises(LeagueError, match=r"every worker died .*the same command resumes it"):
        _run(config, executor, on_commit=kill_the_worker)
    assert 2 <= len(_dump(db)[0]) // 4 < 24
    _run(config)  # the same league again, resumed (on the local executor this time)
    _assert_same(db, local_result)


@pytest.mark.slow
def test_a_head_killed_with_sigkill_resumes_on_processes(
    tmp_path: Path, local_result: Dump
) -> None:
    db = tmp_path / "killed-head.db"
    args = [
        "league", "--name", "same", "--bot", "r1=random", "--bot", "g1=greedy",
        "--bot", f"sdk=cmd:{RANDOM_BOT}", "--bot", f"bad=cmd:{ILLEGAL_BOT}",
        "--bot", "r2=random", "--matches", "24", "--schedule", "rating",
        "--concurrency", "6", "--seed", "2026", "--db", str(db), "--quiet",
        "--executor", "processes", "--workers", "2",
    ]  # fmt: skip
    head = subprocess.Popen([*ARENA, *args], cwd=ROOT, stdout=subprocess.DEVNULL)
    try:
        committed, workers = 0, list[int]()
        deadline = time.monotonic() + 120
        while committed < 4 and time.monotonic() < deadline and head.poll() is None:
            time.sleep(0.05)
            if len(workers) < 2:  # each worker, once it has started its managed bots
                workers = [p for p in children(head.pid) if children(p)]
            if db.exists():
                try:
                    with sqlite3.connect(db, timeout=1) as conn:
                        committed = conn.execute("SELECT count(*) FROM matches").fetchone()[0]
                except sqlite3.OperationalError:
                    continue
        os.kill(head.pid, signal.SIGKILL)
    finally:
        head.kill()
        head.wait(timeout=10)
    assert 4 <= committed < 24, "the head should be killed mid-league"
    assert len(workers) == 2, "two workers, each with its managed bots"
    deadline = time.monotonic() + 30  # the workers die with the head (parent-death signal)
    while any(Path(f"/proc/{p}").exists() for p in workers) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(Path(f"/proc/{p}").exists() for p in workers)
    resumed = arena(*args, timeout=300)
    assert resumed.returncode == 0, resumed.stderr
    assert "resumed after" in resumed.stdout
    _assert_same(db, local_result)


@pytest.mark.slow
def test_the_ray_executor_plays_the_same_league_even_losing_an_actor(
    tmp_path: Path, local_result: Dump
) -> None:
    pytest.importorskip("ray")
    from arena.league.executors.ray_pool import RayExecutor, RayWorker

    db = tmp_path / "ray.db"
    assert _run(_config(db, executor="ray", workers=2)).executor == "ray"
    _assert_same(db, local_result)

    db = tmp_path / "ray-killed.db"
    config = _config(db, executor="ray", workers=2)
    executor = RayExecutor(LeagueRecipe(config), workers=2)
    killed: list[int] = []
    niceness: list[int] = []

    def kill_a_busy_actor(committed: int) -> None:
        if killed or committed < 3:
            return
        for worker in executor.workers:
            assert isinstance(worker, RayWorker)
            if worker.in_play and worker.alive:
                niceness.append(os.getpriority(os.PRIO_PROCESS, worker.pid))
                os.kill(worker.pid, signal.SIGKILL)
                killed.append(worker.pid)
                return

    summary = _run(config, executor, on_commit=kill_a_busy_actor)
    assert killed, "an actor should have been killed with matches in play"
    # The local cluster's referees run at the head's priority, not Ray's nice 15.
    assert niceness == [os.getpriority(os.PRIO_PROCESS, 0)]
    assert len(summary.workers_lost) == 1
    assert summary.played == 24
    _assert_same(db, local_result)


def test_a_missing_ray_extra_is_named_with_how_to_install_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # what an install without the extra sees
    config = _config(tmp_path / "no-ray.db", executor="ray")
    with pytest.raises(ExecutorError, match=r"pip install 'bot-arena\[ray\]'"):
        make_executor(config)


@pytest.mark.slow
def test_an_unreachable_ray_address_fails_clearly_and_leaves_no_database(
    tmp_path: Path,
) -> None:
    pytest.importorskip("ray")
    db = tmp_path / "unreachable.db"
    run = arena(
        "league", "--bot", "a=random", "--bot", "b=random", "--table-size", "2",
        "--matches", "2", "--db", str(db), "--executor", "ray",
        "--ray-address", "127.0.0.1:9", "--quiet",
    )  # fmt: skip
    assert run.returncode == 2
    assert "cannot reach the Ray cluster at 127.0.0.1:9" in run.stderr
    assert "Traceback" not in run.stderr
    assert not db.exists()


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"executor": "threads"}, "unknown executor 'threads'; choose local, processes, ray"),
        ({"executor": "processes", "workers": -1}, "workers must not be negative"),
        ({"ray_address": "10.0.0.1:6379"}, "a Ray address needs the ray executor"),
    ],
)
def test_bad_executor_settings_are_refused_plainly(settings: dict[str, Any], message: str) -> None:
    file_settings = {
        "matches": 2,
        "table_size": 2,
        "bot": [{"name": "a", "builtin": "random"}, {"name": "b", "builtin": "random"}],
        **settings,
    }
    with pytest.raises(LeagueConfigError, match=message):
        build_config(file_settings, {})


def test_the_executor_is_not_part_of_the_league_identity(tmp_path: Path) -> None:
    local = _config(tmp_path / "x.db")
    elsewhere = replace(local, name="", executor="ray", workers=3, ray_address="h:1")
    assert replace(local, name="").league_id == elsewhere.league_id
