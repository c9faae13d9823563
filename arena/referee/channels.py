"""gRPC channels to bots: one shared channel per endpoint, many match streams on it.

An endpoint is ``HOST:PORT`` (plain gRPC) or ``tls://HOST:PORT`` (the bot serves TLS;
the arena checks its certificate against the pool's CA file, or the system's roots).

The pool also keeps each endpoint's health: a bot whose streams keep breaking (it closes
them, ends them with an error, floods them, is down) is backed off. After
``BACKOFF_AFTER`` broken streams in a row the pool opens no new stream to it for a
while (1 s, doubling with each further broken stream up to ``BACKOFF_MAX_S``): its seats
fault at once (DISCONNECTED, saying so) instead of reconnecting, so a failing bot costs
the arena no stream churn; the first stream that ends well clears the record. Schedulers
can ask ``ChannelPool.backoff_s`` and seat such a bot less.
"""

from __future__ import annotations

import asyncio
import ipaddress
import re
import weakref
from pathlib import Path
from typing import Final

import grpc

from .ending import streams_ended

CHANNEL_GRACE_S: Final = 600.0
"""How long a match still running on a channel being retired (``ChannelPool.retire``)
may go on before the channel is closed under it (a ladder match takes far less)."""
RETIRE_WAIT_S: Final = 5.0
"""How long ``ChannelPool.close`` waits for the calls on channels being retired (by then
the matches on them have ended or been cancelled)."""
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


def loopback_host(host: str) -> bool:
    """Whether ``host`` (a name, or an address, IPv6 with or without brackets) names
    this machine's loopback by its spelling alone, nothing resolved: ``localhost`` and
    ``*.localhost`` (RFC 6761, any case, a final dot or not), ``127.0.0.0/8``, ``::1``,
    and those as IPv4-mapped IPv6 addresses."""
    bare = host[1:-1] if host.startswith("[") and host.endswith("]") else host
    try:
        address = ipaddress.ip_address(bare)
    except ValueError:
        name = bare.lower().rstrip(".")
        return name == "localhost" or name.endswith(".localhost")
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    return address.is_loopback


_OPTIONS: Final = (
    ("grpc.max_receive_message_length", MAX_RECEIVE_BYTES),
    ("grpc.max_send_message_length", 16 << 20),
    ("grpc.enable_retries", 0),
    # A channel's connection is its own: gRPC otherwise shares one among the process's
    # channels to the same address, with its reconnect backoff (up to two minutes after
    # connects failed), and a fresh channel (a verification's, or one opened after the
    # arena was short of descriptors) would wait that out instead of connecting.
    ("grpc.use_local_subchannel_pool", 1),
)


class RootsError(ValueError):
    """A CA file (``--bot-ca``) that cannot be used, saying why."""


PEM_CERTIFICATE: Final = b"-----BEGIN CERTIFICATE-----"


def read_roots(path: str | Path) -> bytes:
    """The PEM roots in ``path`` (``--bot-ca``), checked before any bot is called: a
    missing file or one without a certificate would otherwise surface only as every TLS
    bot's failed handshake. RootsError says what is wrong."""
    try:
        data = Path(path).read_bytes()
    except OSError as error:
        raise RootsError(f"cannot read the CA file {path}: {error.strerror or error}") from None
    if PEM_CERTIFICATE not in data:
        raise RootsError(
            f"the CA file {path} holds no PEM certificate (a {PEM_CERTIFICATE.decode()} "
            "block): give the certificate of the CA that signed the bots' certificates"
        )
    return data


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


BACKOFF_AFTER: Final = 3
"""Broken streams in a row after which an endpoint is backed off."""
BACKOFF_FIRST_S: Final = 1.0
"""The first backoff; each further broken stream doubles it."""
BACKOFF_MAX_S: Final = 60.0
"""The longest backoff."""


class EndpointHealth:
    """How one endpoint's recent streams ended (see the module), on the arena's clock."""

    __slots__ = ("delay_s", "failures", "last", "retry_at")

    def __init__(self) -> None:
        self.failures = 0
        """Streams in a row that broke."""
        self.last = ""
        """Why the last one broke."""
        self.delay_s = 0.0
        """The current backoff (0: none yet)."""
        self.retry_at = 0.0
        """Clock time before which no new stream is opened."""

    def refusal(self, now: float) -> str | None:
        """Why no stream may be opened now, or None."""
        if now >= self.retry_at:
            return None
        return (
            f"the arena is backing off from this bot for {self.retry_at - now:.1f} s more: "
            f"its last {self.failures} streams broke (the last: {self.last})"
        )

    def broke(self, now: float, why: str) -> None:
        """A stream broke; back off once BACKOFF_AFTER broke in a row (and, past that,
        double the backoff each time a stream opened after it breaks too)."""
        self.failures += 1
        self.last = why
        if self.failures >= BACKOFF_AFTER and now >= self.retry_at:
            self.delay_s = min(BACKOFF_MAX_S, 2 * self.delay_s if self.delay_s else BACKOFF_FIRST_S)
            self.retry_at = now + self.delay_s

    def ended_well(self) -> None:
        """A stream lasted to MatchOver: forget the failures."""
        self.failures = 0
        self.delay_s = 0.0
        self.retry_at = 0.0
        self.last = ""


_HEALTH: weakref.WeakKeyDictionary[grpc.aio.Channel, EndpointHealth] = weakref.WeakKeyDictionary()


def health_of(channel: grpc.aio.Channel) -> EndpointHealth | None:
    """The health record of a pooled channel's endpoint (None for a channel opened
    outside a pool)."""
    try:
        return _HEALTH.get(channel)
    except TypeError:  # not weakly referenceable (a test's stand-in): no pool made it
        return None


class ChannelPool:
    """One channel per endpoint, closed together; each endpoint's health."""

    def __init__(self, *, root_certificates: bytes | None = None) -> None:
        self._channels: dict[str, grpc.aio.Channel] = {}
        self._health: dict[str, EndpointHealth] = {}
        self._roots = root_certificates
        self._retiring: dict[grpc.aio.Channel, asyncio.Task[None]] = {}
        """Channels ``retire`` is closing, with the task that closes them."""

    def get(self, endpoint: str) -> grpc.aio.Channel:
        """The channel to ``endpoint``, opened on first use."""
        channel = self._channels.get(endpoint)
        if channel is None:
            channel = open_channel(endpoint, root_certificates=self._roots)
            self._channels[endpoint] = channel
            _HEALTH[channel] = self._health.setdefault(endpoint, EndpointHealth())
        return channel

    def endpoints(self) -> list[str]:
        """The endpoints the pool has a channel to."""
        return list(self._channels)

    def backoff_s(self, endpoint: str, now: float) -> float:
        """Seconds (from ``now``, the event loop's time) until the pool opens streams to
        ``endpoint`` again: 0 unless it is backed off."""
        health = self._health.get(endpoint)
        return max(0.0, health.retry_at - now) if health is not None else 0.0

    async def discard(self, endpoint: str) -> None:
        """Close the channel to ``endpoint`` (a bot was verified again, or the arena
        recovered from a shortage of descriptors), once
        the streams of finished matches have ended; its health record goes too (a
        re-verified bot starts afresh)."""
        self._health.pop(endpoint, None)
        channel = self._channels.pop(endpoint, None)
        if channel is not None:
            await streams_ended()
            await channel.close()

    def retire(self, endpoint: str, grace_s: float) -> None:
        """Hand out no more the channel to ``endpoint`` (a bot moved away or retired, or
        the channel failed while the arena was short of descriptors: the next ``get``
        opens a new one) and close it in the background as soon as the
        calls on it have ended, at the latest ``grace_s`` from now (then they are
        cancelled). Call inside the event loop. Its health record goes too."""
        self._health.pop(endpoint, None)
        channel = self._channels.pop(endpoint, None)
        if channel is None:
            return
        task = asyncio.get_running_loop().create_task(channel.close(grace_s))
        self._retiring[channel] = task
        task.add_done_callback(lambda _: self._retiring.pop(channel, None))

    async def close(self) -> None:
        """Close every channel, once the streams of finished matches have ended; give
        the channels being retired up to RETIRE_WAIT_S more for their calls to end (a
        retiring close cannot be hurried once begun)."""
        await streams_ended()
        for channel in self._channels.values():
            await channel.close()
        self._channels.clear()
        self._health.clear()
        if self._retiring:
            _, late = await asyncio.wait(list(self._retiring.values()), timeout=RETIRE_WAIT_S)
            for task in late:
                task.cancel()
            await asyncio.gather(*late, return_exceptions=True)
