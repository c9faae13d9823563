"""CPU-bound built-in policies decide in policy processes (arena/referee/policy_processes.py):
a search that holds its interpreter holds up only its own table while another match on
the referee's loop plays to its end; a hosted policy plays the same match as in process;
a worker that dies or hangs faults only the seats it hosts and the match completes; and
every worker is ended, by its id, when the pool stops, the arena exits or is killed.

Each test starts its own pool (``PolicyProcesses``) and stops it at the end."""

from __future__ import annotations

import asyncio
import functools
import os
import select
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from arena.games import get as get_game
from arena.policies import RandomPolicy, builtin_factory
from arena.referee import (
    FaultKind,
    LocalSeat,
    MatchOutcome,
    MatchSpec,
    ProcessSeat,
    RemoteSeat,
    Seat,
    builtin_seat,
    run_match,
)
from arena.referee import policy_processes as processes
from arena.referee.ending import streams_ended
from arena.referee.policy_processes import PolicyProcesses

from .hosted_policies import (
    BUSY_FIFO,
    BUSY_FLAGS,
    SPIN_GUARD_S,
    BusyPolicy,
    CountingPolicy,
    DyingPolicy,
    StuckPolicy,
)
from .scripted import run_virtual
from .test_policy_threads import prompt_bot

GONE_GUARD_S = 60.0
"""How long a test waits at most for a worker that should end to be gone."""


@pytest.fixture
def pool() -> Iterator[PolicyProcesses]:
    """Two policy processes of the test's own, ended (by their ids) at its end."""
    workers = PolicyProcesses(size=2)
    try:
        yield workers
    finally:
        workers.stop()


def spec(match_id: str, players: int, game: str = "abluxxen", **options: Any) -> MatchSpec:
    plugin = get_game(game)
    return MatchSpec(
        match_id=match_id,
        config=plugin.make_config(players, None),
        seed=5,
        deadline_ms=30,
        game=plugin,
        **options,
    )


def _read_indices(fd: int, count: int) -> list[int]:
    """``count`` bytes from a FIFO (the busy policies' indices as they start spinning)."""
    got = b""
    while len(got) < count:
        ready, _, _ = select.select([fd], [], [], SPIN_GUARD_S)
        assert ready, "the busy policies did not start"
        got += os.read(fd, count - len(got))
    return list(got)


def test_a_cpu_bound_builtin_thinks_in_another_process_while_the_loop_plays_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two tables whose built-in spins (pure Python: it holds its interpreter) until
    released: on the loop the loop would stop; on a thread the spin would run in this
    process. Here each spins in a worker process of its own, and another match on the
    loop (a bot with deadlines, a built-in) plays to its end while both spin."""
    fifo, flags = tmp_path / "started", tmp_path / "flags"
    os.mkfifo(fifo)
    flags.write_bytes(b"\0")
    monkeypatch.setenv(BUSY_FIFO, str(fifo))
    monkeypatch.setenv(BUSY_FLAGS, str(flags))
    tables = 2
    workers = PolicyProcesses(size=tables)
    started = os.open(fifo, os.O_RDWR)  # read and write: never at EOF, no writer waits

    async def scenario() -> tuple[list[int], MatchOutcome, list[MatchOutcome]]:
        busy = [
            asyncio.create_task(
                run_match(
                    spec(f"busy{i}", 2),
                    [
                        builtin_seat(f"busy{i}", BusyPolicy, i, pool=workers),
                        LocalSeat(f"r{i}", RandomPolicy(i), off_loop=True),
                    ],
                )
            )
            for i in range(tables)
        ]
        spinning = await asyncio.to_thread(_read_indices, started, tables)
        other_seats: list[Seat] = [
            RemoteSeat("bot", prompt_bot(), max_reply_bytes=4096),
            LocalSeat("r", RandomPolicy(9), off_loop=True),
        ]
        other = await run_match(spec("other", 2), other_seats)
        assert not any(task.done() for task in busy)  # both still spinning
        with flags.open("r+b") as handle:  # in place: a truncated mapping would SIGBUS
            handle.write(b"\1")  # release them
        done = await asyncio.gather(*busy)
        await streams_ended()
        return spinning, other, done

    try:
        spinning, other, done = run_virtual(scenario())
    finally:
        workers.stop()
        os.close(started)
    assert sorted(spinning) == list(range(tables))
    pids = {int((tmp_path / f"pid-{i}").read_text()) for i in range(tables)}
    assert os.getpid() not in pids
    assert len(pids) == tables  # a worker each
    assert other.decisions > 20
    assert all(not seat.faults for seat in other.seats)  # the bot met every deadline
    for outcome in done:
        assert outcome.decisions > 20
        faults = [seat.faults for seat in outcome.seats]
        assert faults == [[], []]  # released, not guarded


def test_builtins_decide_where_their_kind_says() -> None:
    """The search in a policy process, instant ones on the loop, others on a thread."""
    assert isinstance(
        builtin_seat("s", builtin_factory(get_game("abluxxen"), "ismcts"), 1), ProcessSeat
    )
    quick = builtin_seat("r", builtin_factory(get_game("abluxxen"), "random"), 1)
    assert isinstance(quick, LocalSeat)
    assert not quick._off_loop  # instant: on the loop
    thinking = builtin_seat("g", builtin_factory(get_game("fluxx"), "greedy"), 1)
    assert isinstance(thinking, LocalSeat)
    assert thinking._off_loop  # a policy thread


def _actions(outcome: MatchOutcome) -> list[tuple[int, int]]:
    return [(line["seat"], line["action"]) for line in outcome.record if line["type"] == "decision"]


@pytest.mark.parametrize("game", ["abluxxen", "fluxx"])
def test_a_hosted_builtin_plays_the_same_match_as_in_process(
    game: str, pool: PolicyProcesses
) -> None:
    """Built in the worker from its factory and seed, fed the bot's request (the
    game's wire): the same choices, decision for decision, as the same policy on a
    thread; a policy keeps its state from one decision to the next."""
    search: Any = builtin_factory(get_game(game), "ismcts")
    thinker = functools.partial(search, iterations=4)

    def play(hosted: bool) -> MatchOutcome:
        def seat(name: str, factory: Any, seed: int) -> Seat:
            if hosted:
                return ProcessSeat(name, factory, seed, pool=pool)
            return LocalSeat(name, factory(seed), off_loop=True)

        seats = [
            seat("thinker", thinker, 11),
            seat("counting", CountingPolicy, 3),
            LocalSeat("random", RandomPolicy(4), off_loop=True),
        ]
        return run_virtual(run_match(spec("same", 3, game), seats))

    hosted, local = play(True), play(False)
    assert _actions(hosted) == _actions(local)
    assert hosted.decisions > 20
    assert all(not seat.faults for seat in hosted.seats)


def test_a_policy_process_that_dies_faults_only_its_seat(pool: PolicyProcesses) -> None:
    """Its worker killed mid-match: that seat faults (DISCONNECTED, with the pid and the
    signal) at once on every decision until it is forfeited, the match completes, the
    seat hosted in the other worker plays on, and the next policy gets a new worker."""
    seats: list[Seat] = [
        ProcessSeat("dying", DyingPolicy, os.getpid(), pool=pool),
        ProcessSeat("counting", CountingPolicy, 0, pool=pool),
        LocalSeat("random", RandomPolicy(3), off_loop=True),
    ]
    outcome = run_virtual(run_match(spec("dies", 3, max_strikes=3), seats))
    dying, counting, _ = outcome.seats
    assert dying.forfeited
    assert len(dying.faults) == 3
    assert {fault.kind for fault in dying.faults} == {FaultKind.DISCONNECTED}
    assert "policy process died" in dying.faults[0].detail
    assert "killed by signal SIGKILL" in dying.faults[0].detail
    assert not counting.faults
    assert outcome.decisions > 20
    dead = seats[0].hosted.pid  # type: ignore[attr-defined]
    assert dead not in pool.pids()
    again = run_virtual(run_match(spec("again", 2), [
        ProcessSeat("counting", CountingPolicy, 1, pool=pool),
        LocalSeat("random", RandomPolicy(5), off_loop=True),
    ]))  # fmt: skip
    assert all(not seat.faults for seat in again.seats)
    assert len(pool.pids()) == 2


def test_a_policy_process_that_hangs_is_ended_and_faults_its_seat(
    pool: PolicyProcesses, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No answer within the hang guard (set to a second here; 10 minutes in the arena):
    the worker is ended and its seat faulted, so the match completes."""
    monkeypatch.setattr(processes, "HANG_GUARD_S", 1.0)
    seats: list[Seat] = [
        ProcessSeat("stuck", StuckPolicy, 0, pool=pool),
        LocalSeat("random", RandomPolicy(3), off_loop=True),
    ]
    outcome = run_virtual(run_match(spec("hangs", 2, max_strikes=3), seats))
    stuck = outcome.seats[0]
    assert stuck.forfeited
    assert {fault.kind for fault in stuck.faults} == {FaultKind.DISCONNECTED}
    assert "ended by the arena, as it gave no answer to a decision within 1 s" in (
        stuck.faults[0].detail
    )


def _gone(pid: int) -> bool:
    """Whether the worker ``pid`` has ended (a pid now of another program counts)."""
    try:
        cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return True
    return b"arena.referee.policy_worker" not in cmdline or state == "Z"


def _wait_gone(pid: int) -> bool:
    """Wait (GONE_GUARD_S at most) for ``pid`` to end; whether it did."""
    try:
        handle = os.pidfd_open(pid)
    except ProcessLookupError:
        return True
    try:
        ready, _, _ = select.select([handle], [], [], GONE_GUARD_S)
    finally:
        os.close(handle)
    return bool(ready) or _gone(pid)


def test_stopping_the_pool_ends_every_worker() -> None:
    workers = PolicyProcesses(size=2)
    try:
        outcome = run_virtual(run_match(spec("two", 2), [
            ProcessSeat("a", CountingPolicy, 1, pool=workers),
            ProcessSeat("b", CountingPolicy, 2, pool=workers),
        ]))  # fmt: skip
        pids = workers.pids()
    finally:
        workers.stop()
    assert all(not seat.faults for seat in outcome.seats)
    assert len(pids) == 2
    assert all(_gone(pid) for pid in pids)
    assert workers.pids() == []


_ARENA = """
import asyncio, sys
sys.path[:0] = {path!r}
from referee.hosted_policies import CountingPolicy
from referee.test_policy_processes import spec
from arena.policies import RandomPolicy
from arena.referee import LocalSeat, ProcessSeat, run_match
from arena.referee.policy_processes import policy_processes

seats = [ProcessSeat("a", CountingPolicy, 1), ProcessSeat("b", CountingPolicy, 2),
         LocalSeat("r", RandomPolicy(3))]
asyncio.run(run_match(spec("exit", 3), seats))
print(*policy_processes().pids(), flush=True)
if sys.argv[1] == "wait":
    sys.stdin.read()
"""


@pytest.mark.parametrize("how", ["exits", "is killed"])
def test_the_arena_ends_its_workers_when_it_exits_or_is_killed(how: str) -> None:
    """An arena that exits ends its workers (an atexit hook; the ``arena`` command calls
    the same on its way out); one killed with SIGKILL takes them with it (the workers'
    parent-death signal)."""
    script = _ARENA.format(path=sys.path)
    arena = subprocess.Popen(
        [sys.executable, "-c", script, "wait" if how == "is killed" else "exit"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert arena.stdout is not None
        pids = [int(pid) for pid in arena.stdout.readline().split()]
        assert len(pids) == 2
        if how == "is killed":
            os.kill(arena.pid, signal.SIGKILL)
        arena.wait(GONE_GUARD_S)
    finally:
        if arena.poll() is None:
            arena.kill()
            arena.wait()
    assert all(_wait_gone(pid) for pid in pids)
