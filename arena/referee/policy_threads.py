"""Threads on which built-in policies decide, off the referee's event loop.

A policy's ``choose`` is plain CPU work (or, for a broken one, a wait) that never
yields: on the loop, one slow decision (an ISMCTS search at five seats takes a good part
of a second) stops every match, read and page the loop serves until it returns. On a
thread of its own, the loop goes on between the decision's bytecodes: other matches
progress, replies are read, and a policy that blocks holds up only its own table.

Threads for the built-ins that may think a little (Fluxx's greedy: a tenth of a
millisecond of CPU a decision, under one at worst): a thread shares the policy's state
(its random generator, anything it learns during a match) as it is, costs a hop per
decision far cheaper than a process's, and a policy that blocks on a lock or an event of
this process works the same on it. What a thread cannot do is run Python in parallel:
a policy holds the GIL while it runs, and the loop waits for it each time it wants it
back (at most the interpreter's switch interval, 5 ms, per wait). So a built-in whose
decisions are searches of many milliseconds (``cpu_bound``: ``ismcts``) decides in a
policy process instead (``policy_processes.py``); docs/scale.md gives the measured
costs of both.

A decision is charged the time its ``choose`` took, measured on the thread: not the
wait for a free thread, nor the loop's own delay in taking the result.
"""

from __future__ import annotations

import asyncio
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Final

from arena.policies import Policy

POLICY_THREADS: Final = 32
"""Decisions of in-process policies running at once in one process; more wait for a
thread, in order. Each table asks one seat at a time, so this is the number of tables
whose built-in seats can think at once (a web app plays at most 8; a league as many as
its concurrency)."""

_lock = threading.Lock()
_executor: ThreadPoolExecutor | None = None


def policy_executor() -> ThreadPoolExecutor:
    """The process's policy threads (started as decisions need them)."""
    global _executor
    with _lock:
        if _executor is None:
            _executor = ThreadPoolExecutor(POLICY_THREADS, thread_name_prefix="arena-policy")
        return _executor


async def choose_off_loop(policy: Policy, observation: Any) -> tuple[Any, float]:
    """``policy.choose(observation)`` on a policy thread, and the seconds it took."""
    loop = asyncio.get_running_loop()
    return await loop.run_in_executor(policy_executor(), _timed_choice, policy, observation)


def _timed_choice(policy: Policy, observation: Any) -> tuple[Any, float]:
    started = time.perf_counter()
    action = policy.choose(observation)
    return action, time.perf_counter() - started
