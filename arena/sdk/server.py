"""Start a gRPC server for a Bot servicer, with health checking and reflection."""

from __future__ import annotations

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
    except RuntimeError as error:  # grpcio raises here when the address is taken
        raise OSError(f"cannot listen on {address}: {error}") from error
    if port == 0:
        raise OSError(f"cannot listen on {address}")
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
