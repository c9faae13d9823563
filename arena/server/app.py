"""Start and stop the arena: the gRPC server (Arena, health, reflection) and the ladder,
in one event loop, on one database."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

import grpc
from google.protobuf.message import DecodeError
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection

from arena.league.executors import Executor
from arena.referee.channels import read_roots
from arena.sdk.server import listen_problem
from arena.store import Store, StoreError, open_store

from .config import ServeConfig
from .connections import (
    AddressCalls,
    FdLimit,
    connection_cap,
    raise_fd_limit,
    server_options,
)
from .errors import PlainErrors, abort
from .intervals_cache import stop_fit_worker
from .ladder import Ladder
from .read_processes import ReadProcesses
from .reads import ReadPool
from .servicer import ArenaServicer
from .wire import ARENA, add_arena_servicer

log = logging.getLogger("arena.serve")

ARENA_SERVICE: Final = ARENA.full_name
""""arena.v1.Arena"."""
MAX_REQUEST_BYTES: Final = 64 * 1024
"""Every Arena request is small; anything bigger is refused by gRPC itself."""
MAX_REPLY_BYTES: Final = 16 * 1024 * 1024
"""A full match record fits easily."""
SERVER_OPTIONS: Final = (
    ("grpc.max_receive_message_length", MAX_REQUEST_BYTES),
    ("grpc.max_send_message_length", MAX_REPLY_BYTES),
    ("grpc.so_reuseport", 0),  # a second arena on a taken port must fail, not share it
)


CANNOT_BIND: Final = (
    "the port may be taken, or the address may not be this machine's; check --host and --port"
)
"""Why gRPC could not bind although a plain socket could a moment before (a race)."""


def host_port(host: str, port: int) -> str:
    """``host:port``, bracketing an IPv6 host."""
    if ":" in host and not host.startswith("["):
        host = f"[{host}]"
    return f"{host}:{port}"


@dataclass(slots=True)
class RunningArena:
    """A started arena."""

    server: grpc.aio.Server
    """The gRPC server."""
    port: int
    """The bound port."""
    ladder: Ladder
    """The ladder (verifications and matches)."""
    store: Store
    """The open database."""
    reads: ReadPool
    """The read threads (the web app's reads, the rank intervals' lookups)."""
    public_reads: ReadProcesses | None
    """The public reads' processes (None: they run on ``reads``)."""
    health: Any
    """The health servicer (set NOT_SERVING on shutdown)."""
    ladder_task: asyncio.Task[None]
    """The ladder's scheduling loop."""

    @property
    def address(self) -> str:
        """HOST:PORT clients use."""
        return host_port(self.ladder.config.host, self.port)

    async def stop(self, grace_s: float | None = None) -> None:
        """Graceful shutdown: report NOT_SERVING and refuse submissions, let running
        matches finish within the grace period (abandoning the rest unrated), stop
        the server, close the database."""
        grace = self.ladder.config.grace_s if grace_s is None else grace_s
        await self.health.enter_graceful_shutdown()
        await self.ladder.shutdown(grace)
        await self.ladder_task
        await self.server.stop(1.0)
        stop_fit_worker()
        if self.public_reads is not None:
            self.public_reads.close()
        self.reads.close()
        self.store.close()


class UndecodableRequests(grpc.aio.ServerInterceptor):  # type: ignore[misc]
    """A request to the Arena service whose bytes are not its message is INVALID_ARGUMENT
    in words (left to gRPC, it is UNKNOWN, naming protobuf's DecodeError)."""

    async def intercept_service(self, continuation: Any, details: Any) -> Any:
        """The method's handler, reading the request's bytes itself."""
        handler = await continuation(details)
        method = str(details.method)
        if (
            handler is None
            or not method.startswith(f"/{ARENA_SERVICE}/")
            or handler.unary_unary is None
            or handler.request_deserializer is None
        ):
            return handler
        return grpc.unary_unary_rpc_method_handler(
            _parsed(handler.unary_unary, handler.request_deserializer, method),
            response_serializer=handler.response_serializer,
        )


def _parsed(behavior: Any, parse: Callable[[bytes], Any], method: str) -> Any:
    async def handle(data: bytes, context: Any) -> Any:
        try:
            request = parse(data)
        except DecodeError:
            await abort(
                context,
                grpc.StatusCode.INVALID_ARGUMENT,
                f"the request's bytes are not a {method.rsplit('/', 1)[-1]} request of "
                f"{ARENA_SERVICE}; send the message of arena.proto",
            )
        return await behavior(request, context)

    return handle


def _credentials(config: ServeConfig) -> grpc.ServerCredentials | None:
    if config.tls_cert is None or config.tls_key is None:
        return None
    return grpc.ssl_server_credentials(
        [(Path(config.tls_key).read_bytes(), Path(config.tls_cert).read_bytes())]
    )


def _connection_limits(config: ServeConfig) -> tuple[FdLimit, int]:
    """Raise the open-files limit; the client connections it leaves room for."""
    fds = raise_fd_limit()
    return fds, connection_cap(config.max_connections, fds.soft)


def _log_connection_limits(config: ServeConfig, fds: FdLimit, cap: int) -> None:
    raised = f" (raised from {fds.before})" if fds.soft != fds.before else ""
    log.info(
        "open files limit %d%s: at most %d client connections, closed after %g s idle",
        fds.soft,
        raised,
        cap,
        config.idle_timeout_s,
    )
    if cap < config.max_connections:
        log.warning(
            "--max-connections %d is more than this process's open files limit (%d, hard "
            "limit %d) leaves for clients: at most %d; raise the hard limit (ulimit -Hn, "
            "systemd LimitNOFILE=) for more",
            config.max_connections,
            fds.soft,
            fds.hard,
            cap,
        )


async def start_arena(
    config: ServeConfig,
    *,
    store: Store | None = None,
    clock: Callable[[], float] = time.monotonic,
) -> RunningArena:
    """Open the database (or take ``store``, opened on ``config.db``), start the ladder
    and serve. OSError, in words that end with what to change, if it cannot listen (the
    port is taken, the host is not this machine's); StoreError if the database cannot be
    written; ExecutorError if matches cannot run on the executor asked for. ``clock``
    paces the ladder's retries of a database it cannot write."""
    if store is None:
        store = open_store(config.db)
    reads: ReadPool | None = None
    public_reads: ReadProcesses | None = None
    executor: Executor | None = None
    try:
        store.claim(
            "serve",
            f"another `arena serve` is already using {store.where}; stop it first, or give "
            "this one another --db",
        )
        roots = read_roots(config.bot_ca) if config.bot_ca else None
        try:
            ladder = Ladder(config, store, root_certificates=roots, clock=clock)
        except Exception as error:  # its first write: the ladder's row
            fault = store.write_fault(error)
            if fault is None:
                raise
            raise StoreError(f"cannot write the database ({fault.why}); {fault.advice}") from None
        await ladder.executor.start()  # ExecutorError: nothing was played
        executor = ladder.executor
        fds, cap = _connection_limits(config)
        server = grpc.aio.server(
            options=SERVER_OPTIONS
            + server_options(cap, config.idle_timeout_s, config.max_connection_age_s),
            interceptors=[
                PlainErrors(),
                UndecodableRequests(),
                AddressCalls(config.max_calls_per_address),
            ],
        )
        reads = ReadPool(config.db)
        if config.read_processes:
            public_reads = ReadProcesses(config.db, processes=config.read_processes)
        add_arena_servicer(ArenaServicer(config, store, ladder, reads, public_reads), server)
        health_servicer = health.aio.HealthServicer()
        health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
        reflection.enable_server_reflection(
            (ARENA_SERVICE, health.SERVICE_NAME, reflection.SERVICE_NAME), server
        )
        address = host_port(config.host, config.port)
        problem = listen_problem(config.host, config.port)
        if problem is not None:  # in words (gRPC's own failure only says "Failed to bind")
            raise OSError(f"cannot listen on {address}: {problem}")
        credentials = _credentials(config)
        try:
            if credentials is None:
                port: int = server.add_insecure_port(address)
            else:
                port = server.add_secure_port(address, credentials)
        except RuntimeError as error:  # grpcio raises here when it cannot bind
            raise OSError(f"cannot listen on {address}: {CANNOT_BIND} ({error})") from error
        if port == 0:
            raise OSError(f"cannot listen on {address}: {CANNOT_BIND}")
        await server.start()
        _log_connection_limits(config, fds, cap)

        async def report_health(serving: bool) -> None:
            # NOT_SERVING while the database cannot be written or no worker is left (the
            # ladder's status says why); ignored once shutdown has begun.
            status = health_pb2.HealthCheckResponse.SERVING
            if not serving:
                status = health_pb2.HealthCheckResponse.NOT_SERVING
            for service in ("", ARENA_SERVICE):
                await health_servicer.set(service, status)

        await report_health(True)
        ladder.report_health = report_health
    except BaseException:
        if executor is not None:
            await executor.stop()
        if public_reads is not None:
            public_reads.close()
        if reads is not None:
            reads.close()
        store.close()
        raise
    ladder_task = asyncio.create_task(ladder.run(), name="ladder")
    return RunningArena(
        server, port, ladder, store, reads, public_reads, health_servicer, ladder_task
    )


Companion = Callable[[RunningArena], Awaitable[Callable[[], Awaitable[None]]]]
"""Something served beside the arena (the web app): started with the running arena, it
returns how to stop it; stopped before the arena."""


async def serve(
    config: ServeConfig,
    *,
    on_ready: Callable[[RunningArena], None],
    companions: Sequence[Companion] = (),
) -> None:
    """Run until SIGTERM or SIGINT, then shut down gracefully."""
    arena = await start_arena(config)
    stops: list[Callable[[], Awaitable[None]]] = []
    try:
        for companion in companions:
            stops.append(await companion(arena))
    except BaseException:
        for stop_companion in reversed(stops):
            await stop_companion()
        await arena.stop()
        raise
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    on_ready(arena)
    try:
        await stop.wait()
        log.info("shutting down: no new submissions or matches")
    finally:
        for sig in (signal.SIGTERM, signal.SIGINT):
            with contextlib.suppress(Exception):
                loop.remove_signal_handler(sig)
        for stop_companion in reversed(stops):
            await stop_companion()
        await arena.stop()
    log.info("stopped; `arena serve` on the same --db continues where this left off")
