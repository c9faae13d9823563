"""What clients may hold of the arena: connections, their lifetime, calls per address.

Every connection a client opens costs the arena a file descriptor, and so does every
connection the arena opens itself: to the bots it plays, to a bot it verifies (a fresh
channel each time), and its database. Once the descriptors run out the arena can no
longer dial a bot: healthy bots fail their Hello, and the ladder, which then blames no
bot (``headroom.py``), plays nothing until descriptors are free again. So:

- at start the soft limit on open files is raised to the hard limit (``raise_fd_limit``);
- client connections are capped (``grpc.max_allowed_incoming_connections``: gRPC closes
  a connection over the cap as soon as it accepts it) at ``--max-connections``, and never
  at more than half of what the limit leaves after ``FD_RESERVE`` (``connection_cap``);
  the web app's connections (``--web-port``, ``arena/web/server.py``) at never more than
  an eighth (``web_connection_cap``); the rest, at least three eighths, is the arena's
  own, for its bots, verifications and database;
- a connection with no call for ``--idle-timeout-s`` is closed
  (``grpc.max_connection_idle_ms``), one that has not finished its handshake sooner
  (``grpc.server_handshake_timeout_ms``), and any connection after
  ``--max-connection-age-s`` (``grpc.max_connection_age_ms``, its calls then get
  ``AGE_GRACE_S`` to finish, or the age if shorter): a held health Watch cannot keep a
  slot for ever;
- one connection carries at most ``MAX_STREAMS`` calls at once, and one client address
  (an IPv6 /64) at most ``--max-calls-per-address`` over all its connections
  (``AddressCalls``), RESOURCE_EXHAUSTED past that.

gRPC has no cap of connections per address (its connection quota is global), and a
connection that never makes a call is invisible to an interceptor; a client that fills
every slot with idle connections shuts other clients out until its connections time
out. A firewall rule limiting connections per source address (e.g. iptables
``connlimit``) is the remedy; see docs/serve.md.
"""

from __future__ import annotations

import inspect
import ipaddress
import resource
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Final

import grpc

from .errors import abort

FD_RESERVE: Final = 64
"""Descriptors set aside before sharing the rest: the interpreter's, gRPC's own (epoll,
wakeup and timer descriptors), the database and its WAL, lock and log files."""
HANDSHAKE_TIMEOUT_S: Final = 10.0
"""A connection that has not finished its (TLS or HTTP/2) handshake by then is closed
(gRPC's default is 120 s); never more than the idle timeout."""
AGE_GRACE_S: Final = 30.0
"""After ``--max-connection-age-s``, the calls on a connection get this long to end (at
most the age itself)."""
MAX_STREAMS: Final = 32
"""Calls at once on one connection (HTTP/2 streams); the Arena's own calls are unary and
a client makes one at a time. Above the 16 refused reads the arena may hold for one
address (``servicer.MAX_HELD_PER_ADDRESS``), so a held client still gets its refusals
at once instead of waiting for a stream."""


@dataclass(frozen=True, slots=True)
class FdLimit:
    """The process's limit on open files, before and after ``raise_fd_limit``."""

    before: int
    """The soft limit found."""
    soft: int
    """The soft limit now."""
    hard: int
    """The hard limit (only root can raise it)."""


def raise_fd_limit() -> FdLimit:
    """Raise the soft limit on open files to the hard limit, if it is lower."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = hard
    if hard == resource.RLIM_INFINITY:  # not on Linux (nr_open bounds it), but possible
        target = max(soft, 1 << 20) if soft != resource.RLIM_INFINITY else soft
    if soft != resource.RLIM_INFINITY and target > soft:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
        except (ValueError, OSError):
            target = soft
        return FdLimit(soft, target, hard)
    return FdLimit(soft, soft, hard)


def connection_cap(requested: int, fd_limit: int) -> int:
    """The client connections the arena accepts at once: ``requested``, but at most half
    of the descriptors the limit leaves after ``FD_RESERVE`` (at least 1)."""
    if fd_limit == resource.RLIM_INFINITY:
        return requested
    return max(1, min(requested, (fd_limit - FD_RESERVE) // 2))


WEB_SHARE: Final = 8
"""The web app takes at most 1/WEB_SHARE of the descriptors left after ``FD_RESERVE``."""


def web_connection_cap(requested: int, fd_limit: int) -> int:
    """The web app's connections at once: ``requested``, but at most an eighth of the
    descriptors the limit leaves after ``FD_RESERVE`` (at least 1), so that beside
    ``connection_cap``'s half for gRPC clients the arena keeps three eighths."""
    if fd_limit == resource.RLIM_INFINITY:
        return requested
    return max(1, min(requested, (fd_limit - FD_RESERVE) // WEB_SHARE))


def server_options(
    max_connections: int, idle_timeout_s: float, max_connection_age_s: float
) -> tuple[tuple[str, int], ...]:
    """gRPC server arguments of the connection cap and the three timeouts."""
    handshake_s = min(HANDSHAKE_TIMEOUT_S, idle_timeout_s)
    return (
        ("grpc.max_allowed_incoming_connections", max_connections),
        ("grpc.max_connection_idle_ms", _ms(idle_timeout_s)),
        ("grpc.server_handshake_timeout_ms", _ms(handshake_s)),
        ("grpc.max_connection_age_ms", _ms(max_connection_age_s)),
        ("grpc.max_connection_age_grace_ms", _ms(min(AGE_GRACE_S, max_connection_age_s))),
        ("grpc.max_concurrent_streams", MAX_STREAMS),
    )


def _ms(seconds: float) -> int:
    return max(1, round(seconds * 1000))


def peer_address(peer: str) -> str:
    """The client address of a gRPC peer string (``ipv4:1.2.3.4:5678`` ->
    ``1.2.3.4``), an IPv6 address as its /64 (one host usually has a whole /64), an
    IPv4-mapped IPv6 address as IPv4; anything else as it is, without a port."""
    scheme, _, rest = peer.partition(":")
    if scheme == "ipv4":
        return rest.rsplit(":", 1)[0]
    if scheme == "ipv6":
        host = rest.rsplit(":", 1)[0].strip("[]").split("%", 1)[0]
        try:
            address = ipaddress.IPv6Address(host)
        except ValueError:
            return host
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, 64), strict=False))
    return scheme or peer


class AddressCalls(grpc.aio.ServerInterceptor):  # type: ignore[misc]  # grpc is untyped
    """At most ``limit`` calls at once from one client address (``peer_address``), over
    all of its connections; past that a call ends RESOURCE_EXHAUSTED before its handler
    runs. Every service counts (health Watch streams too, for as long as they last)."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.calls: Counter[str] = Counter()
        """Calls running now, by client address."""

    async def intercept_service(
        self, continuation: Callable[[Any], Awaitable[Any]], details: Any
    ) -> Any:
        """The call's handler, counted."""
        handler = await continuation(details)
        if handler is None:
            return None
        for kind, make in _KINDS:
            behaviour = getattr(handler, kind, None)
            if behaviour is not None:
                counted = self._counted(behaviour)
                if counted is None:
                    return handler
                return make(
                    counted,
                    request_deserializer=handler.request_deserializer,
                    response_serializer=handler.response_serializer,
                )
        return handler

    def _counted(self, behaviour: Callable[..., Any]) -> Callable[..., Any] | None:
        if inspect.isasyncgenfunction(behaviour):

            async def stream(request: Any, context: Any) -> AsyncIterator[Any]:
                address = await self._enter(context)
                try:
                    async for reply in behaviour(request, context):
                        yield reply
                finally:
                    self._leave(address)

            return stream
        if inspect.iscoroutinefunction(behaviour):

            async def call(request: Any, context: Any) -> Any:
                address = await self._enter(context)
                try:
                    return await behaviour(request, context)
                finally:
                    self._leave(address)

            return call
        return None  # a synchronous handler (none here): left as it is

    async def _enter(self, context: Any) -> str:
        address = peer_address(str(context.peer()))
        if self.calls[address] >= self.limit:
            await abort(
                context,
                grpc.StatusCode.RESOURCE_EXHAUSTED,
                f"this arena takes at most {self.limit} calls at once from one address; "
                "wait for your calls to end before making more",
            )
        self.calls[address] += 1
        return address

    def _leave(self, address: str) -> None:
        self.calls[address] -= 1
        if self.calls[address] <= 0:
            del self.calls[address]


_KINDS: Final = (
    ("unary_unary", grpc.unary_unary_rpc_method_handler),
    ("unary_stream", grpc.unary_stream_rpc_method_handler),
    ("stream_unary", grpc.stream_unary_rpc_method_handler),
    ("stream_stream", grpc.stream_stream_rpc_method_handler),
)
"""Handler kinds and how to rebuild each."""
