"""The ``ray`` executor: tables on long-lived actors of a Ray cluster (the ``ray``
extra: ``pip install 'bot-arena[ray]'``).

Without an address the head starts a local cluster with one CPU per worker; with
``ray_address`` it joins a running one (``ray start --head`` on the head node). Every
actor runs ``MatchWorker``, the same referee as the other executors, with the league's
entrants started on its node: a managed bot's command runs there, and a remote bot's
endpoint must be reachable from there. Ray places the actors and reports their deaths;
tables and finished matches go over a TCP connection from the head to each actor
(``ray_actor``), so the head must reach every node (as Ray itself requires).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import socket
from collections.abc import Sequence
from typing import Any

from arena import DISTRIBUTION

from .base import ExecutorError, Recipe, WorkerLostError
from .framed import GONE_TIMEOUT_S, FramedWorker
from .pool import PoolExecutor, WorkerHandle
from .ray_actor import STREAM_LIMIT, RayMatchWorker

CONNECT_TIMEOUT_S = 5.0
"""How long the head tries to reach a Ray address before saying it cannot."""

LOCAL_SYSTEM_CONFIG = {"worker_niceness": 0}
"""The local cluster's settings. Ray runs its workers at nice 15 by default, so that its
own daemons stay responsive on a node busy with tasks; here the workers are the
referees and the managed bots they start, which a nice of 15 starves whenever anything
else runs on the machine: beside two busy processes a league's two actors took 25 s
to start, against 0.6 s alone, and its 24 matches were done 38 s after the actors were
asked for, against 1 s. They run at the head's own priority, as the ``processes``
executor's workers do. A cluster the league joins (``ray_address``) keeps its
operator's settings."""


def import_ray() -> Any:
    """The ``ray`` module, or an ExecutorError saying how to install it."""
    try:
        import ray  # an optional extra: imported only when used
    except ImportError:
        raise ExecutorError(
            f"the ray executor needs Ray, which is not installed: pip install "
            f"'{DISTRIBUTION}[ray]' (or choose --executor local or processes)"
        ) from None
    return ray


def check_reachable(address: str) -> None:
    """A clear ExecutorError for a Ray address nothing answers at (before Ray's own
    long retries)."""
    host, sep, port = address.removeprefix("ray://").rpartition(":")
    if not sep or not port.isdigit():
        raise ExecutorError(
            f"Ray address {address!r} is not HOST:PORT (the head's GCS port, 6379 by default)"
        )
    try:
        with socket.create_connection((host.strip("[]"), int(port)), CONNECT_TIMEOUT_S):
            pass
    except OSError as error:
        why = error.strerror or str(error) or type(error).__name__
        raise ExecutorError(
            f"cannot reach the Ray cluster at {address}: {why}; start one there with "
            "`ray start --head`, or leave out --ray-address for a local one"
        ) from None


class RayWorker(FramedWorker):
    """One actor: Ray starts it and reports its death; its matches go over a TCP
    connection in frames (``ray_actor``)."""

    def __init__(self, name: str, ray: Any, actor: Any) -> None:
        super().__init__(name)
        self.ray = ray
        self.actor = actor
        self.pid = 0
        """The actor's process id, once started (for its node's logs, and tests)."""
        self._stream: asyncio.StreamWriter | None = None
        self._watch: asyncio.Task[None] | None = None
        self._death = ""
        """Why Ray says the actor died ("" while it has not)."""

    async def _call(self, method: str, *args: Any) -> Any:
        try:
            return await getattr(self.actor, method).remote(*args)
        except self.ray.exceptions.RayActorError as error:
            raise WorkerLostError(_first_line(error)) from None

    async def start(self, recipe: Recipe) -> None:
        self.pid = int(await self._call("pid"))
        token = secrets.token_bytes(32)
        host, port = await self._call("listen", token)
        self._watch = asyncio.create_task(self._watch_actor())
        try:
            reader, writer = await asyncio.open_connection(host, port, limit=STREAM_LIMIT)
        except OSError as error:
            raise ExecutorError(
                f"worker {self.name} listens at {host}:{port}, which this head cannot "
                f"reach ({error.strerror or error}); the head must reach every node of "
                "the cluster"
            ) from None
        self._stream = writer
        writer.write(token)
        await self._begin(reader, writer, recipe)

    async def _watch_actor(self) -> None:
        """Wait on the actor's serve call: when it fails, the actor is dead, and its
        connection is closed here (a vanished node may leave it half-open)."""
        try:
            await self.actor.serve.remote()
        except asyncio.CancelledError:
            raise
        except Exception as error:
            self._death = _first_line(error)
            if self._stream is not None:
                self._stream.transport.abort()

    async def _gone(self) -> None:
        if self._watch is not None:
            await asyncio.shield(self._watch)

    def _who(self) -> str:
        return f"actor pid {self.pid}"

    def _why(self) -> str:
        return self._death or f"actor pid {self.pid}: its connection closed"

    async def kill(self) -> None:
        with contextlib.suppress(Exception):
            self.ray.kill(self.actor, no_restart=True)
        if self._stream is not None:
            self._stream.transport.abort()
        await self._end_reader()
        watch = self._watch
        if watch is not None and watch is not asyncio.current_task() and not watch.done():
            try:  # Ray's word that the actor is gone, so that nothing of it outlives the head
                async with asyncio.timeout(GONE_TIMEOUT_S):
                    await asyncio.shield(watch)
            except TimeoutError:
                watch.cancel()


def _first_line(error: BaseException) -> str:
    """The first line of Ray's (long) account of an actor's death."""
    return str(error).splitlines()[0] if str(error) else "its actor died"


class RayExecutor(PoolExecutor):
    """Jobs on the actors of a Ray cluster."""

    name = "ray"

    def __init__(self, recipe: Recipe, workers: int, address: str = "") -> None:
        super().__init__(recipe)
        self.count = workers
        self.address = address
        self.ray = import_ray()
        self._connected = False

    async def open(self) -> Sequence[WorkerHandle]:
        ray = self.ray
        if self.address:
            check_reachable(self.address)
        try:
            ray.init(
                address=self.address or None,
                num_cpus=None if self.address else max(self.count, 1),
                include_dashboard=False,
                logging_level=logging.ERROR,
                configure_logging=True,
                **({} if self.address else {"_system_config": LOCAL_SYSTEM_CONFIG}),
            )
        except (ConnectionError, RuntimeError, ValueError) as error:
            raise ExecutorError(f"cannot start or join a Ray cluster: {error}") from None
        self._connected = True
        cpus = int(ray.cluster_resources().get("CPU", 0))
        count = self.count or max(cpus, 1)
        if count > cpus:
            raise ExecutorError(
                f"the Ray cluster has {cpus} CPU(s) and each worker takes one: ask for at "
                f"most {cpus} workers"
            )
        # Few calls at once: pid, listen, the serve call that waits for its end.
        actor = ray.remote(RayMatchWorker).options(num_cpus=1, max_concurrency=8, max_restarts=0)
        return [RayWorker(str(n + 1), ray, actor.remote()) for n in range(count)]

    async def close(self) -> None:
        if self._connected:
            self.ray.shutdown()
            self._connected = False
