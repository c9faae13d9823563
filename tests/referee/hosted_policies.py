"""Policies for the policy processes' tests (tests/referee/test_policy_processes.py),
importable in a policy process (it gets the test's ``sys.path``).

They talk to the test through files named in the environment (a worker inherits the
test's environment when the test's own pool starts it): a FIFO on which a spinning
policy says it has started, and a flag file whose first byte releases it.
"""

from __future__ import annotations

import mmap
import os
import signal
import time
from typing import Any, ClassVar, Final

BUSY_FIFO: Final = "ARENA_TEST_BUSY_FIFO"
"""The environment variable naming the FIFO a BusyPolicy writes its index to when it
starts spinning."""
BUSY_FLAGS: Final = "ARENA_TEST_BUSY_FLAGS"
"""The environment variable naming the file whose first byte, once not 0, stops every
BusyPolicy's spin."""
SPIN_GUARD_S: Final = 120.0
"""How long a BusyPolicy spins at most: far beyond the test's own run, so that a test
whose release never comes fails (its policy says so) instead of hanging."""


class BusyPolicy:
    """Its first decision is CPU work: pure Python arithmetic (which holds the GIL of
    the process it runs in) until the test releases it, after writing its seat index
    (the seed) to the FIFO. Every other decision is the first legal action. Notes the
    process it lives in (``pid-<seed>`` beside the flag file)."""

    cpu_bound: ClassVar[bool] = True

    def __init__(self, seed: int | None = None) -> None:
        self.index = int(seed or 0)
        self.spun = False
        flags = os.environ[BUSY_FLAGS]
        with open(os.path.join(os.path.dirname(flags), f"pid-{self.index}"), "w") as out:
            out.write(str(os.getpid()))

    def choose(self, obs: Any) -> Any:
        if not self.spun:
            self.spun = True
            fifo = os.open(os.environ[BUSY_FIFO], os.O_WRONLY)
            os.write(fifo, bytes([self.index]))
            os.close(fifo)
            with (
                open(os.environ[BUSY_FLAGS], "r+b") as handle,
                mmap.mmap(handle.fileno(), 0) as flags,
            ):
                guard = time.monotonic() + SPIN_GUARD_S
                spins = 0
                total = 0
                while flags[0] == 0:
                    total += spins * spins % 7
                    spins += 1
                    if spins % 100_000 == 0 and time.monotonic() > guard:
                        return None  # not released: no action, a fault the test sees
        return obs.legal[0]


class DyingPolicy:
    """Kills the process it lives in (SIGKILL) on its second decision, unless that is the
    test's own process (its seed is the test's pid): a policy process dying mid-match."""

    cpu_bound: ClassVar[bool] = True

    def __init__(self, seed: int | None = None) -> None:
        self.spare = seed
        self.decisions = 0

    def choose(self, obs: Any) -> Any:
        self.decisions += 1
        if self.decisions == 2 and os.getpid() != self.spare:
            os.kill(os.getpid(), signal.SIGKILL)
        return obs.legal[0]


class StuckPolicy:
    """Never answers its first decision (waits on a pipe nobody writes to)."""

    cpu_bound: ClassVar[bool] = True

    def __init__(self, seed: int | None = None) -> None:
        self._never, self._kept = os.pipe()

    def choose(self, obs: Any) -> Any:
        os.read(self._never, 1)
        return obs.legal[0]


class CountingPolicy:
    """Keeps state from one decision to the next: its n-th decision takes legal action
    n modulo their number."""

    cpu_bound: ClassVar[bool] = True

    def __init__(self, seed: int | None = None) -> None:
        self.n = int(seed or 0)

    def choose(self, obs: Any) -> Any:
        self.n += 1
        return obs.legal[self.n % len(obs.legal)]
