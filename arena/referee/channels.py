"""gRPC channels to bots: one shared channel per endpoint, many match streams on it."""

from __future__ import annotations

import re
from typing import Final

import grpc

MAX_RECEIVE_BYTES: Final = 1 << 20
"""Hard cap on any message from a bot; larger ones break that stream (OVERSIZED)."""

_ENDPOINT = re.compile(r"^(?P<host>\[[0-9a-fA-F:.]+\]|[A-Za-z0-9_.-]+):(?P<port>\d{1,5})$")


class EndpointError(ValueError):
    """A string that is not HOST:PORT."""


def parse_endpoint(text: str) -> tuple[str, int]:
    """Split and check ``HOST:PORT`` (IPv6 hosts in brackets)."""
    match = _ENDPOINT.match(text.strip())
    if not match:
        raise EndpointError(f"{text!r} is not an endpoint; write HOST:PORT, e.g. 127.0.0.1:50061")
    port = int(match["port"])
    if not 1 <= port <= 65535:
        raise EndpointError(f"port {port} in {text!r} is outside 1..65535")
    return match["host"], port


def open_channel(endpoint: str) -> grpc.aio.Channel:
    """An insecure channel with the arena's message caps (call inside an event loop)."""
    parse_endpoint(endpoint)
    return grpc.aio.insecure_channel(
        endpoint,
        options=[
            ("grpc.max_receive_message_length", MAX_RECEIVE_BYTES),
            ("grpc.max_send_message_length", 16 << 20),
            ("grpc.enable_retries", 0),
        ],
    )


class ChannelPool:
    """One channel per endpoint, closed together."""

    def __init__(self) -> None:
        self._channels: dict[str, grpc.aio.Channel] = {}

    def get(self, endpoint: str) -> grpc.aio.Channel:
        """The channel to ``endpoint``, opened on first use."""
        channel = self._channels.get(endpoint)
        if channel is None:
            channel = open_channel(endpoint)
            self._channels[endpoint] = channel
        return channel

    async def close(self) -> None:
        """Close every channel."""
        for channel in self._channels.values():
            await channel.close()
        self._channels.clear()
