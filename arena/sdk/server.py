"""Start a gRPC server for a Bot servicer, with health checking and reflection."""

from __future__ import annotations

import errno
import socket
from dataclasses import dataclass
from typing import Any, Final

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection

from arena.v1 import bot_pb2, bot_pb2_grpc

from .info import BotInfo
from .servicer import PolicyFactory, PolicyServicer

BOT_SERVICE: Final = bot_pb2.DESCRIPTOR.services_by_name["Bot"].full_name
""""arena.v1.Bot"."""

MAX_RECEIVE_BYTES: Final = 64 * 1024 * 1024
"""MatchOver may carry a whole match record as JSON, beyond gRPC's default of 4 MiB."""

SERVER_OPTIONS: Final = (
    ("grpc.max_receive_message_length", MAX_RECEIVE_BYTES),
    # gRPC sets SO_REUSEPORT by default, so a second bot on a taken port would start
    # "fine" and share the traffic; refuse instead.
    ("grpc.so_reuseport", 0),
)


@dataclass(frozen=True, slots=True)
class RunningBot:
    """A started bot server."""

    server: grpc.aio.Server
    """The started server."""
    port: int
    """The bound port."""
    health: Any
    """Its ``grpc_health.v1.health.aio.HealthServicer`` (to announce a shutdown)."""


def host_port(host: str, port: int) -> str:
    """``host:port`` as gRPC wants it, bracketing an IPv6 host."""
    if ":" in host and not host.startswith("["):
        host = f"[{host}]"
    return f"{host}:{port}"


PORT_ADVICE: Final = "choose another --port (0: any free port)"
"""What to do about a port that cannot be used."""
HOST_ADVICE: Final = (
    "choose another --host (127.0.0.1: this machine only, 0.0.0.0: every interface)"
)
"""What to do about a host that cannot be listened on."""


@dataclass(frozen=True, slots=True)
class ListenProblem:
    """Why a server cannot listen where it was told."""

    reason: str
    """What is wrong, e.g. "the port is taken (another process listens there)"."""
    advice: str
    """What to change (``--host`` or ``--port``)."""

    def __str__(self) -> str:
        return f"{self.reason}; {self.advice}"


def listen_problem(host: str, port: int) -> ListenProblem | None:
    """Why nothing can listen on ``host:port``, or None if a plain socket can bind there.
    Checked before gRPC binds: gRPC's own failure only says "Failed to bind" (after
    logging lines of its own). Every address ``host`` resolves to is tried: one where the
    port is taken is a problem (a client may reach the other process there); one that is
    not this machine's only if none is (``localhost`` without IPv6 is fine)."""
    bare = host[1:-1] if host.startswith("[") and host.endswith("]") else host
    try:
        infos = socket.getaddrinfo(
            bare or None, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )
    except (socket.gaierror, UnicodeError) as error:
        why = error.strerror if isinstance(error, OSError) and error.strerror else error
        return ListenProblem(f"cannot resolve {host!r} ({why})", HOST_ADVICE)
    failures: list[OSError] = []
    for family, kind, proto, _, sockaddr in infos:
        try:
            with socket.socket(family, kind, proto) as probe:
                # As gRPC does: a port in TIME_WAIT is free, a listening one is not.
                probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
                probe.bind(sockaddr)
        except OSError as error:
            if error.errno == errno.EADDRINUSE:
                return ListenProblem(
                    "the port is taken (another process listens there)", PORT_ADVICE
                )
            failures.append(error)
    if len(failures) < len(infos):
        return None
    if any(f.errno == errno.EADDRNOTAVAIL for f in failures):
        return ListenProblem(f"{bare} is not an address of this machine", HOST_ADVICE)
    if any(f.errno == errno.EACCES for f in failures):
        return ListenProblem(f"no permission to listen on port {port}", PORT_ADVICE)
    return ListenProblem(failures[0].strerror or str(failures[0]), "check --host and --port")


async def launch(servicer: bot_pb2_grpc.BotServicer, *, address: str) -> RunningBot:
    """Serve ``servicer`` on ``address`` (port 0 = any free port) with health checking
    ("" and "arena.v1.Bot" SERVING) and reflection; raise OSError if it cannot bind."""
    server = grpc.aio.server(options=SERVER_OPTIONS)
    bot_pb2_grpc.add_BotServicer_to_server(servicer, server)
    health_servicer = health.aio.HealthServicer()
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
    reflection.enable_server_reflection(
        (BOT_SERVICE, health.SERVICE_NAME, reflection.SERVICE_NAME), server
    )
    try:
        port: int = server.add_insecure_port(address)
    except RuntimeError as error:  # grpcio raises here when it cannot bind
        raise OSError(
            f"cannot listen on {address}: the port may be taken, or the address not be "
            f"this machine's ({error})"
        ) from error
    if port == 0:
        raise OSError(
            f"cannot listen on {address}: the port may be taken, or the address not be "
            "this machine's"
        )
    await server.start()
    for service in ("", BOT_SERVICE):
        await health_servicer.set(service, health_pb2.HealthCheckResponse.SERVING)
    return RunningBot(server, port, health_servicer)


async def start_server(
    servicer: bot_pb2_grpc.BotServicer, *, address: str = "127.0.0.1:0"
) -> tuple[grpc.aio.Server, int]:
    """Start serving ``servicer``; returns the started ``grpc.aio.Server`` and its port.
    For hand-written servicers; policies go through ``create_server``."""
    bot = await launch(servicer, address=address)
    return bot.server, bot.port


async def create_server(
    factory: PolicyFactory, *, info: BotInfo, address: str = "127.0.0.1:0"
) -> tuple[grpc.aio.Server, int]:
    """Start a bot server that plays each match with a fresh ``factory()`` policy.

    Returns the started ``grpc.aio.Server`` and its bound port; stop it with
    ``await server.stop(grace)``.
    """
    return await start_server(PolicyServicer(factory, info), address=address)
