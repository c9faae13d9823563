"""Processes in which CPU-bound built-in policies decide, outside the referee's process.

A policy thread (``policy_threads.py``) takes a slow decision off the event loop but not
off the interpreter: a search such as ``ismcts`` holds the GIL while it runs, and eight
five-seat tables of it left the loop so little of it that ``arena serve``'s ladder
played 1-3% of its matches and its reads took over half a second at the median
(docs/BENCHMARKS.md, "Built-in policies beside a live ladder"). A policy that says it is
``cpu_bound`` therefore decides in a **policy process**: one of a few worker processes
(``POLICY_PROCESSES``, one per core), started as seats need them and kept for the
arena's life. A seat's policy is built in one of them when its match starts (from its
factory and seed: the same policy, seeded the same, as in process), kept there for the
match (a policy keeps state from one decision to the next) and dropped at its end. A
decision goes as a bot gets it (the request the game's wire writes) and comes back as a
bot answers (``policy_worker.py``), with the CPU seconds ``choose`` took, which is what
the seat is charged (not the wait for a busy worker, nor the trip).

The workers run at a lower priority (``NICENESS``): the referee's process and the bots it
waits for come first, so a slow policy slows its own tables, not the ladder beside them.

A worker that dies faults only the seats it hosts (DISCONNECTED, with its pid and exit);
one that gives no answer for ``HANG_GUARD_S`` (far beyond any real decision, waits for
a busy worker included) is ended and faults them too; a match never hangs on a worker.
Later seats go to the live workers, and a new one is started in a dead one's place.
The workers are ended by ``stop_policy_processes()`` (the ``arena`` command calls it on
its way out; an ``atexit`` hook otherwise) and die with the arena on Linux (a
parent-death signal).

The pool is the process's, not a loop's: each worker has a writer thread (requests,
framed on the loop, go out in order without the loop ever waiting on a full pipe) and
a reader thread that hands each answer to the loop that asked. Frames are pickled
tuples of numbers and bytes (and a policy's factory, by reference): safe, as both ends
are the arena's own processes; nothing a bot sends is unpickled.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import itertools
import os
import pickle
import queue
import select
import signal
import struct
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from typing import IO, Any, Final


def _cores() -> int:
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


POLICY_PROCESSES: Final = max(1, min(_cores(), 8))
"""Policy processes at most: one per core this process may run on, at most 8. Each
decides one decision at a time; more wait in order."""

NICENESS: Final = 10
"""How much lower the workers' priority is than the arena's (``nice``). Within the
arena's session: Linux shares the CPU fairly between sessions (autogroups) and counts
the workers with the arena there; in a session of their own they would also yield to
every other session of the machine, which on a shared one starved them."""

HANG_GUARD_S: Final = 600.0
"""A worker that has not answered a decision this long after it was asked is ended (a
decision of the default search takes well under a second, and a busy worker's queue a
few more)."""

STOP_WAIT_S: Final = 5.0
"""How long a worker may take to exit once told to, before it is killed."""

_LENGTH: Final = struct.Struct(">I")


class PolicyLostError(RuntimeError):
    """The worker hosting the policy is gone (the message says why)."""


class PolicyFailedError(RuntimeError):
    """The policy could not be built or raised while deciding (the message has its
    traceback)."""


def frame(message: Any) -> bytes:
    """One length-prefixed pickled message."""
    body = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    return _LENGTH.pack(len(body)) + body


def read_frame(stream: IO[bytes]) -> Any:
    """The next message from a blocking stream, or None at its end."""
    header = stream.read(_LENGTH.size)
    if len(header) < _LENGTH.size:
        return None
    (length,) = _LENGTH.unpack(header)
    body = stream.read(length)
    if len(body) < length:
        return None
    return pickle.loads(body)


class _Waiter:
    """A decision asked of a worker: the loop that waits, its future, when it was sent."""

    __slots__ = ("future", "loop", "sent")

    def __init__(self, loop: asyncio.AbstractEventLoop, future: asyncio.Future[Any]) -> None:
        self.loop = loop
        self.future = future
        self.sent = time.monotonic()


def _settle(future: asyncio.Future[Any], result: Any, error: BaseException | None) -> None:
    if future.done():  # the decision was given up (its match cancelled)
        return
    if error is not None:
        future.set_exception(error)
    else:
        future.set_result(result)


_spawns: queue.SimpleQueue[tuple[list[str], Future[subprocess.Popen[bytes]]]] = queue.SimpleQueue()
_spawner: threading.Thread | None = None
_spawner_lock = threading.Lock()


def _spawn(argv: list[str]) -> subprocess.Popen[bytes]:
    """Start a worker from the spawner thread, which lives as long as this process: a
    parent-death signal fires when the *thread* that started the child ends, and the
    loop asking may be on a thread that ends before the arena does (a test client's)."""
    global _spawner
    with _spawner_lock:
        if _spawner is None:
            _spawner = threading.Thread(target=_spawning, name="arena-policy-spawner", daemon=True)
            _spawner.start()
    started: Future[subprocess.Popen[bytes]] = Future()
    _spawns.put((argv, started))
    return started.result()


def _spawning() -> None:
    while True:
        argv, started = _spawns.get()
        try:
            # No preexec_fn (it would fork the whole arena, gRPC's threads included): the
            # worker sets its parent-death signal and its priority itself.
            started.set_result(
                subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
            )
        except BaseException as error:
            started.set_exception(error)


class PolicyProcess:
    """One worker process hosting policies, and the threads that talk to it."""

    def __init__(self) -> None:
        self.process = _spawn(
            [sys.executable, "-m", "arena.referee.policy_worker", str(os.getpid())]
        )
        self.pid = self.process.pid
        self.hosted = 0
        """Policies placed here and not yet dropped."""
        self.alive = True
        self._why: str | None = None
        self._ended_by_us: str | None = None
        # Reentrant: a seat dropped by the garbage collector (``ProcessSeat``'s finalizer)
        # may drop its policy from inside any allocation, this lock's sections included.
        self._lock = threading.RLock()
        self._waiting: dict[int, _Waiter] = {}
        self._numbers = itertools.count(1)
        self._outbox: queue.SimpleQueue[bytes | None] = queue.SimpleQueue()
        self._outbox.put(frame(("path", list(sys.path))))
        self._writer = threading.Thread(
            target=self._write, name=f"arena-policy-writer-{self.pid}", daemon=True
        )
        self._reader = threading.Thread(
            target=self._read, name=f"arena-policy-reader-{self.pid}", daemon=True
        )
        self._writer.start()
        self._reader.start()

    def add(self, key: int, factory: Callable[[int | None], Any], seed: int | None) -> None:
        """Build a policy here as ``factory(seed)``, known by ``key``."""
        with self._lock:
            self.hosted += 1
        self._outbox.put(frame(("new", key, pickle.dumps(factory), seed)))

    def drop(self, key: int) -> None:
        """Forget the policy ``key`` (its match is over)."""
        with self._lock:
            self.hosted -= 1
        if self.alive:
            self._outbox.put(frame(("drop", key)))

    async def choose(self, key: int, request: bytes) -> tuple[bytes, float]:
        """Ask policy ``key`` about ``request`` (a serialized ``ArenaMessage{decide}``,
        as a bot gets it): its reply (a serialized ``BotMessage``) and the CPU seconds
        the decision took."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[tuple[bytes, float]] = loop.create_future()
        number = next(self._numbers)
        with self._lock:
            if not self.alive:
                raise PolicyLostError(self.why())
            self._waiting[number] = _Waiter(loop, future)
        self._outbox.put(frame(("choose", number, key, request)))
        try:
            return await future
        finally:
            with self._lock:
                self._waiting.pop(number, None)

    def why(self) -> str:
        """Why the worker is gone, in words."""
        return self._why or f"pid {self.pid}: gone"

    def stop(self) -> None:
        """End the worker (SIGTERM by its pid, SIGKILL if it does not exit) and wait
        for it: any decision it still owes is moot."""
        self._ended_by_us = "as the arena is stopping"
        # Popen's signals go only to a process not yet reaped (never to a reused pid).
        with contextlib.suppress(ProcessLookupError):
            self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(STOP_WAIT_S)
        except subprocess.TimeoutExpired:
            self._end("as it did not exit when told to")
            self.process.wait()
        self._reader.join(STOP_WAIT_S)
        self._writer.join(STOP_WAIT_S)

    # -- the threads -----------------------------------------------------------------

    def _write(self) -> None:
        stdin = self.process.stdin
        assert stdin is not None
        try:
            while (data := self._outbox.get()) is not None:
                stdin.write(data)
                stdin.flush()
        except OSError:
            pass  # the worker is gone: the reader sees its end and says why
        finally:
            with contextlib.suppress(OSError):
                stdin.close()

    def _read(self) -> None:
        stdout = self.process.stdout
        assert stdout is not None
        fd = stdout.fileno()
        buffer = bytearray()
        try:
            while True:
                ready, _, _ = select.select([fd], [], [], self._guard_wait())
                if not ready:
                    self._check_hung()
                    continue
                data = os.read(fd, 1 << 16)
                if not data:
                    break
                buffer += data
                while len(buffer) >= _LENGTH.size:
                    (length,) = _LENGTH.unpack_from(buffer)
                    if len(buffer) < _LENGTH.size + length:
                        break
                    message = pickle.loads(buffer[_LENGTH.size : _LENGTH.size + length])
                    del buffer[: _LENGTH.size + length]
                    self._answer(message)
        except Exception as error:  # an answer that cannot be read: an arena bug
            self._end(f"as its answer could not be read ({type(error).__name__}: {error})")
        finally:
            stdout.close()
            self._lost()

    def _guard_wait(self) -> float:
        with self._lock:
            oldest = min((w.sent for w in self._waiting.values()), default=None)
        if oldest is None:
            return HANG_GUARD_S
        return max(0.0, oldest + HANG_GUARD_S - time.monotonic()) + 0.1

    def _check_hung(self) -> None:
        with self._lock:
            oldest = min((w.sent for w in self._waiting.values()), default=None)
        if oldest is not None and time.monotonic() - oldest >= HANG_GUARD_S:
            self._end(f"as it gave no answer to a decision within {HANG_GUARD_S:g} s")

    def _answer(self, message: Any) -> None:
        kind, number = message[0], message[1]
        with self._lock:
            waiter = self._waiting.pop(number, None)
        if waiter is None:
            return  # given up meanwhile
        if kind == "chose":
            self._call(waiter, (message[2], message[3]), None)
        else:
            self._call(waiter, None, PolicyFailedError(message[2]))

    def _call(self, waiter: _Waiter, result: Any, error: BaseException | None) -> None:
        with contextlib.suppress(RuntimeError):  # that loop is closed: nobody waits
            waiter.loop.call_soon_threadsafe(_settle, waiter.future, result, error)

    def _end(self, why: str) -> None:
        """Kill the worker (by its pid), for ``why``."""
        self._ended_by_us = why
        with contextlib.suppress(ProcessLookupError):
            self.process.kill()

    def _lost(self) -> None:
        """The worker's stdout closed: it is gone (or ends now); every waiter learns why."""
        try:
            code = self.process.wait(STOP_WAIT_S)
        except subprocess.TimeoutExpired:
            self._end("as it closed its output but did not exit")
            code = self.process.wait()
        if code < 0:
            how = f"killed by signal {signal.Signals(-code).name}"
        else:
            how = f"exited with status {code}"
        why = f"pid {self.pid}: {how}"
        if self._ended_by_us:
            why = f"pid {self.pid}: ended by the arena, {self._ended_by_us}"
        with self._lock:
            self._why = why
            self.alive = False
            waiters = list(self._waiting.values())
            self._waiting.clear()
        for waiter in waiters:
            self._call(waiter, None, PolicyLostError(why))
        self._outbox.put(None)  # ends the writer


class HostedPolicy:
    """A policy living in a policy process, from its match's start to its end."""

    def __init__(self, host: PolicyProcess, key: int) -> None:
        self.host = host
        self.key = key
        self._dropped = False

    @property
    def pid(self) -> int:
        """The worker's process id."""
        return self.host.pid

    async def choose(self, request: bytes) -> tuple[bytes, float]:
        """See ``PolicyProcess.choose``."""
        return await self.host.choose(self.key, request)

    def drop(self) -> None:
        """The match is over: the worker forgets the policy (once)."""
        if not self._dropped:
            self._dropped = True
            self.host.drop(self.key)


class PolicyProcesses:
    """The process's policy workers: each policy goes to the live one hosting fewest,
    a new one is started while there are fewer than ``size``."""

    def __init__(self, size: int = POLICY_PROCESSES) -> None:
        self.size = size
        self._hosts: list[PolicyProcess] = []
        self._keys = itertools.count(1)
        self._lock = threading.Lock()

    def place(self, factory: Callable[[int | None], Any], seed: int | None) -> HostedPolicy:
        """Build ``factory(seed)`` in a worker."""
        with self._lock:
            self._hosts = [host for host in self._hosts if host.alive]
            if len(self._hosts) < self.size:
                self._hosts.append(PolicyProcess())
            host = min(self._hosts, key=lambda h: h.hosted)
            key = next(self._keys)
            host.add(key, factory, seed)
        return HostedPolicy(host, key)

    def pids(self) -> list[int]:
        """The live workers' process ids."""
        with self._lock:
            return [host.pid for host in self._hosts if host.alive]

    def stop(self) -> None:
        """End every worker (by its id) and wait for each."""
        with self._lock:
            hosts, self._hosts = self._hosts, []
        for host in hosts:
            host.stop()


_pool_lock = threading.Lock()
_pool: PolicyProcesses | None = None


def policy_processes() -> PolicyProcesses:
    """The process's policy workers (none started until a policy is placed)."""
    global _pool
    with _pool_lock:
        if _pool is None:
            _pool = PolicyProcesses()
            atexit.register(stop_policy_processes)
        return _pool


def stop_policy_processes() -> None:
    """End the process's policy workers, if any were started (safe to call again)."""
    with _pool_lock:
        pool = _pool
    if pool is not None:
        pool.stop()
