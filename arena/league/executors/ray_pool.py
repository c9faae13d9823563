"""The ``ray`` executor: tables on long-lived actors of a Ray cluster (the ``ray``
extra: ``pip install 'abluxxen-arena[ray]'``).

Without an address the head starts a local cluster with one CPU per worker; with
``ray_address`` it joins a running one (``ray start --head`` on the head node). Every
actor runs ``MatchWorker``, the same referee as the other executors, with the league's
entrants started on its node: a managed bot's command runs there, and a remote bot's
endpoint must be reachable from there.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib.metadata
import logging
import socket
from collections.abc import Sequence
from typing import Any

from .base import ExecutorError, ExecutorReport, Recipe, WorkerLostError
from .pool import PoolExecutor, WorkerHandle
from .ray_actor import RayMatchWorker

CONNECT_TIMEOUT_S = 5.0
"""How long the head tries to reach a Ray address before saying it cannot."""


def import_ray() -> Any:
    """The ``ray`` module, or an ExecutorError saying how to install it."""
    try:
        import ray  # an optional extra: imported only when used
    except ImportError:
        raise ExecutorError(
            f"the ray executor needs Ray, which is not installed: pip install "
            f"'{_distribution()}[ray]' (or choose --executor local or processes)"
        ) from None
    return ray


def _distribution() -> str:
    """The name this package is installed under (for the install advice)."""
    names = importlib.metadata.packages_distributions().get("arena") or ["arena"]
    return names[0]


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


class RayWorker(WorkerHandle):
    """One actor."""

    def __init__(self, name: str, ray: Any, actor: Any) -> None:
        super().__init__(name)
        self.ray = ray
        self.actor = actor
        self.pid = 0
        """The actor's process id, once started (for its node's logs, and tests)."""

    async def _call(self, method: str, *args: Any) -> Any:
        ref = getattr(self.actor, method).remote(*args)
        try:
            return await ref
        except asyncio.CancelledError:
            # The head gave the match up: the actor stops playing it too.
            with contextlib.suppress(Exception):
                self.ray.cancel(ref)
            raise
        except self.ray.exceptions.RayActorError as error:
            why = str(error).splitlines()[0] if str(error) else "its actor died"
            raise WorkerLostError(why) from None

    async def start(self, recipe: Recipe) -> None:
        error = await self._call("start", recipe)
        if error is not None:
            raise ExecutorError(error)
        self.pid = int(await self._call("pid"))

    async def play(self, job: Any) -> Any:
        return await self._call("play", job)

    async def stop(self) -> ExecutorReport:
        report: ExecutorReport = await self._call("stop")
        return report

    async def kill(self) -> None:
        with contextlib.suppress(Exception):
            self.ray.kill(self.actor, no_restart=True)


class RayExecutor(PoolExecutor):
    """Jobs on the actors of a Ray cluster."""

    name = "ray"

    def __init__(
        self, recipe: Recipe, workers: int, address: str = "", *, concurrency: int = 1000
    ) -> None:
        super().__init__(recipe)
        self.concurrency = concurrency
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
        actor = ray.remote(RayMatchWorker).options(
            num_cpus=1, max_concurrency=self.concurrency + 8, max_restarts=0
        )
        return [RayWorker(str(n + 1), ray, actor.remote()) for n in range(count)]

    async def close(self) -> None:
        if self._connected:
            self.ray.shutdown()
            self._connected = False
