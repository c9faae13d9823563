"""gRPC channels to bots: one shared channel per endpoint, many match streams on it.

An endpoint is ``HOST:PORT`` (plain gRPC) or ``tls://HOST:PORT`` (the bot serves TLS;
the arena checks its certificate against the pool's CA file, or the system's roots).
"""

from __future__ import annotations

import re
from typing import Final

import grpc

from .ending import streams_ended

MAX_RECEIVE_BYTES: Final = 1 << 20
"""Hard cap on any message from a bot; larger ones break that stream (OVERSIZED)."""

_ENDPOINT = re.compile(r"(?P<host>\[[0-9a-fA-F:.]+\]|[A-Za-z0-9_.-]+):(?P<port>[0-9]{1,5})")
"""HOST:PORT, ASCII only (matched whole: ``fullmatch``)."""


TLS_SCHEME: Final = "tls://"
"""Prefix of the endpoint of a bot that serves TLS."""


class EndpointError(ValueError):
    """A string that is not HOST:PORT."""


def split_tls(endpoint: str) -> tuple[bool, str]:
    """``(True, "HOST:PORT")`` for ``tls://HOST:PORT``, ``(False, endpoint)`` otherwise."""
    text = endpoint.strip()
    if text.lower().startswith(TLS_SCHEME):
        return True, text[len(TLS_SCHEME) :]
    return False, text


def parse_bot_endpoint(text: str) -> tuple[str, int, bool]:
    """Host, port and whether TLS is asked for, of ``HOST:PORT`` or ``tls://HOST:PORT``."""
    tls, rest = split_tls(text)
    if "://" in rest:
        raise EndpointError(
            f"{text!r}: the only scheme is tls:// (a bot serving TLS); write HOST:PORT "
            "or tls://HOST:PORT"
        )
    host, port = parse_endpoint(rest)
    return host, port, tls


def parse_endpoint(text: str) -> tuple[str, int]:
    """Split and check ``HOST:PORT`` (IPv6 hosts in brackets)."""
    match = _ENDPOINT.fullmatch(text.strip())
    if not match:
        raise EndpointError(f"{text!r} is not an endpoint; write HOST:PORT, e.g. 127.0.0.1:50061")
    port = int(match["port"])
    if not 1 <= port <= 65535:
        raise EndpointError(f"port {port} in {text!r} is outside 1..65535")
    return match["host"], port


_OPTIONS: Final = (
    ("grpc.max_receive_message_length", MAX_RECEIVE_BYTES),
    ("grpc.max_send_message_length", 16 << 20),
    ("grpc.enable_retries", 0),
)


def open_channel(endpoint: str, *, root_certificates: bytes | None = None) -> grpc.aio.Channel:
    """A channel with the arena's message caps (call inside an event loop): insecure for
    ``HOST:PORT``, TLS for ``tls://HOST:PORT`` trusting ``root_certificates`` (PEM; None:
    the system's roots)."""
    host, port, tls = parse_bot_endpoint(endpoint)
    # Always through the DNS resolver: a bare "unix-abstract:50061" or "unix:50061" would
    # otherwise be read as a URI of another scheme (a local socket, no TCP port at all).
    target = f"dns:///{host}:{port}"
    if tls:
        credentials = grpc.ssl_channel_credentials(root_certificates=root_certificates)
        return grpc.aio.secure_channel(target, credentials, options=list(_OPTIONS))
    return grpc.aio.insecure_channel(target, options=list(_OPTIONS))


class ChannelPool:
    """One channel per endpoint, closed together."""

    def __init__(self, *, root_certificates: bytes | None = None) -> None:
        self._channels: dict[str, grpc.aio.Channel] = {}
        self._roots = root_certificates

    def get(self, endpoint: str) -> grpc.aio.Channel:
        """The channel to ``endpoint``, opened on first use."""
        channel = self._channels.get(endpoint)
        if channel is None:
            channel = open_channel(endpoint, root_certificates=self._roots)
            self._channels[endpoint] = channel
        return channel

    async def discard(self, endpoint: str) -> None:
        """Close the channel to ``endpoint`` (a bot moved away or was suspended), once
        the streams of finished matches have ended."""
        channel = self._channels.pop(endpoint, None)
        if channel is not None:
            await streams_ended()
            await channel.close()

    async def close(self) -> None:
        """Close every channel, once the streams of finished matches have ended."""
        await streams_ended()
        for channel in self._channels.values():
            await channel.close()
        self._channels.clear()
