"""Managed bots: local commands the arena starts on a free port and stops at the end.

The command gets ``--port 0`` appended; the bot prints ``arena-bot listening on
HOST:PORT`` (the SDK does) and the arena reads its endpoint from that line. A command
starting with ``python``/``python3`` runs with the arena's own interpreter, so sample
bots work from the project's virtual environment. On Linux each bot gets a parent-death
signal, so even a league killed with SIGKILL leaves no bot running. A bot's stderr is
read for its whole life and its last lines kept: a bot that fails to start, or dies, is
reported with them.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import os
import shlex
import signal
import sys
from collections import deque
from typing import Final

LISTENING_PREFIX: Final = "arena-bot listening on "
STDERR_LINES: Final = 8
"""How many of a managed bot's last stderr lines are kept to explain its death."""


class BotStartError(RuntimeError):
    """A managed bot that did not come up."""


def die_with_parent() -> None:  # pragma: no cover - runs in the child
    """Ask Linux to SIGTERM this process when its parent dies."""
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


_LAUNCHER: Final = """\
import ctypes, os, signal, sys
try:
    ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
except (OSError, AttributeError):
    pass
if os.getppid() != int(sys.argv[1]):
    sys.exit("the arena exited before its bot started")
try:
    os.execvp(sys.argv[2], sys.argv[2:])
except OSError as error:
    sys.exit(f"cannot run {sys.argv[2]!r}: {error.strerror}")
"""
"""Sets the parent-death signal, then becomes the bot (the signal survives ``exec``).
A ``preexec_fn`` would do it in the forked child before ``exec``, but that makes
Python fork the whole arena, gRPC's threads included, and run gRPC's fork handlers in
the child, which can abort it (a bot, or a test's server, died with SIGABRT before it
started)."""


def launched(argv: list[str]) -> list[str]:
    """``argv`` started through the launcher on Linux (as is elsewhere)."""
    if not sys.platform.startswith("linux"):
        return argv
    return [sys.executable, "-S", "-c", _LAUNCHER, str(os.getpid()), *argv]


def command_argv(command: str) -> list[str]:
    """The argv of a bot command, with ``--port 0`` appended."""
    argv = shlex.split(command)
    if not argv:
        raise BotStartError("empty bot command")
    if argv[0] in ("python", "python3"):
        argv[0] = sys.executable
    return [*argv, "--port", "0"]


class ManagedBot:
    """One local bot process."""

    def __init__(self, name: str, command: str, *, cwd: str | None = None) -> None:
        self.name = name
        self.command = command
        self.cwd = cwd
        self.endpoint = ""
        self.restarts = 0
        self._process: asyncio.subprocess.Process | None = None
        self._drain: asyncio.Task[None] | None = None
        self._stderr_drain: asyncio.Task[None] | None = None
        self._stderr_tail: deque[str] = deque(maxlen=STDERR_LINES)

    @property
    def pid(self) -> int | None:
        """The process id while running."""
        return self._process.pid if self._process is not None else None

    @property
    def running(self) -> bool:
        """True while the process lives."""
        return self._process is not None and self._process.returncode is None

    async def start(self, timeout_s: float = 30.0) -> str:
        """Start the process and wait for its listening line; returns the endpoint."""
        argv = command_argv(self.command)
        try:
            process = await asyncio.create_subprocess_exec(
                *launched(argv),
                stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.PIPE,
                stdin=asyncio.subprocess.DEVNULL,
                cwd=self.cwd,
            )
        except OSError as error:
            raise BotStartError(
                f"bot {self.name!r}: cannot run {argv[0]!r}: {error.strerror}"
            ) from None
        self._process = process
        self._stderr_tail.clear()
        self._stderr_drain = asyncio.create_task(self._keep_stderr(process))
        assert process.stdout is not None
        try:
            async with asyncio.timeout(timeout_s):
                while True:
                    line = (await process.stdout.readline()).decode(errors="replace")
                    if not line:
                        code = await process.wait()
                        with contextlib.suppress(TimeoutError):
                            async with asyncio.timeout(1.0):
                                await self._stderr_drain  # the rest of what it said
                        raise BotStartError(
                            f"bot {self.name!r}: {self.command!r} exited with status {code} "
                            f"before listening{self._said()}"
                        )
                    if line.startswith(LISTENING_PREFIX):
                        self.endpoint = line[len(LISTENING_PREFIX) :].strip()
                        break
        except TimeoutError:
            await self.stop()
            raise BotStartError(
                f"bot {self.name!r}: {self.command!r} printed no '{LISTENING_PREFIX}HOST:PORT' "
                f"line within {timeout_s:g} s{self._said()}"
            ) from None
        self._drain = asyncio.create_task(self._discard_output(process))
        return self.endpoint

    def last_words(self) -> list[str]:
        """The last lines the bot wrote to stderr (at most STDERR_LINES)."""
        return list(self._stderr_tail)

    async def final_words(self, timeout_s: float = 1.0) -> list[str]:
        """``last_words`` of a bot that has exited, once its stderr is read to the end
        (its exit can be seen before the pipe's last lines are read)."""
        drain = self._stderr_drain
        if drain is not None and not self.running:
            with contextlib.suppress(TimeoutError, asyncio.CancelledError):
                await asyncio.wait_for(asyncio.shield(drain), timeout_s)
        return self.last_words()

    def _said(self) -> str:
        lines = self.last_words()
        if not lines:
            return " (it wrote nothing to stderr)"
        return "; the end of its stderr:\n" + "\n".join(f"    {line}" for line in lines)

    async def _keep_stderr(self, process: asyncio.subprocess.Process) -> None:
        """Read the bot's stderr for as long as it lives (so a chatty bot never blocks on
        a full pipe), keeping the last lines: why a bot died is in them."""
        assert process.stderr is not None
        pending = ""
        while chunk := await process.stderr.read(65536):
            *lines, pending = (pending + chunk.decode(errors="replace")).split("\n")
            self._stderr_tail.extend(line.rstrip()[:500] for line in lines if line.strip())
            pending = pending[-4096:]
        if pending.strip():
            self._stderr_tail.append(pending.rstrip()[:500])

    @staticmethod
    async def _discard_output(process: asyncio.subprocess.Process) -> None:
        assert process.stdout is not None
        while await process.stdout.read(65536):
            pass

    async def restart(self) -> str:
        """Stop (if needed) and start again; counts restarts."""
        await self.stop()
        self.restarts += 1
        return await self.start()

    async def stop(self, grace_s: float = 5.0) -> None:
        """SIGTERM, then SIGKILL after ``grace_s``; always reaps the process."""
        process = self._process
        if process is None:
            return
        if process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                process.send_signal(signal.SIGTERM)
            try:
                async with asyncio.timeout(grace_s):
                    await process.wait()
            except TimeoutError:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(process.pid, signal.SIGKILL)
                await process.wait()
        for drain in (self._drain, self._stderr_drain):
            if drain is not None:
                drain.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await drain
        self._process = None
