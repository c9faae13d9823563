"""The Ray actor of the ``ray`` executor: a long-lived asyncio referee on a cluster node.

Ray places the actor, starts it where the cluster has room and tells the head when it
dies; the matches themselves go over one TCP connection from the head, in the same
frames as a local worker process's pipes (``frame_server``). A Ray call per match
cost its worker about 2 ms of CPU (a task's C++ bookkeeping, a hop between Ray's
thread and the actor's event loop, and the result's serialization) on a match of 5 ms
(docs/BENCHMARKS.md, "Scale: slow bots, workers and executors"); a frame costs what a pipe does.

The connection is opened by the head to the address the actor listens on, and the
first bytes must be the token the head gave the actor through Ray: nothing is
unpickled from anyone else who finds the port.

A plain class, made a Ray actor by the head (``ray.remote``) only when the ``ray``
executor is used, so this module imports without Ray installed.
"""

from __future__ import annotations

import asyncio
import hmac
import os

from arena.gctune import tune_for_latency

from .frame_server import FrameServer

TOKEN_TIMEOUT_S = 10.0
"""How long a connection may take to present the token before it is closed."""
STREAM_LIMIT = 1 << 26
"""The largest frame a stream buffers (a finished match with its record)."""


class RayMatchWorker:
    """One worker: a listener for the head's connection, and the referee it serves."""

    def __init__(self) -> None:
        tune_for_latency()
        self._token = b""
        self._listener: asyncio.Server | None = None
        self._served: asyncio.Future[None] | None = None
        self._claimed = False

    def pid(self) -> int:
        """The actor's process id (tests kill it)."""
        return os.getpid()

    async def listen(self, token: bytes) -> tuple[str, int]:
        """Listen for the head on this node; the host and port to connect to."""
        import ray  # the actor runs only on a Ray cluster

        host: str = ray.util.get_node_ip_address()  # type: ignore[no-untyped-call]
        return await self.listen_on(host, token)

    async def listen_on(self, host: str, token: bytes) -> tuple[str, int]:
        """Listen for the head at ``host``; the host and port to connect to."""
        if len(token) < 16:
            raise ValueError("a token of at least 16 bytes keeps strangers out")
        self._token = token
        self._served = asyncio.get_running_loop().create_future()
        self._listener = await asyncio.start_server(
            self._connected, host=host, port=0, limit=STREAM_LIMIT
        )
        port = int(self._listener.sockets[0].getsockname()[1])
        return host, port

    async def serve(self) -> None:
        """Returns when the head's connection has ended; the head keeps this call
        waiting, and learns from its failure that the actor died."""
        assert self._served is not None
        await asyncio.shield(self._served)

    async def _connected(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            async with asyncio.timeout(TOKEN_TIMEOUT_S):
                presented = await reader.readexactly(len(self._token))
        except (TimeoutError, asyncio.IncompleteReadError, ConnectionError):
            writer.close()
            return
        if self._claimed or not hmac.compare_digest(presented, self._token):
            writer.close()
            return
        self._claimed = True
        if self._listener is not None:
            self._listener.close()  # one head, one connection
        transport = writer.transport
        assert isinstance(transport, asyncio.WriteTransport)
        server = FrameServer(reader, transport)
        try:
            await server.serve()
            await server.drain()
        finally:
            writer.close()
            if self._served is not None and not self._served.done():
                self._served.set_result(None)
