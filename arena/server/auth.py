"""Who is calling: the owner named by the ``authorization: Bearer TOKEN`` metadata.

Failed authentications are counted per peer address (the caller's host, not its port:
a new connection is no new address) and logged with it; past the limit, every call from
that address that carries a token is refused (RESOURCE_EXHAUSTED) until the window
slides, whether its token is right or not, so a guesser learns nothing more. Calls
without a token (the public reads) are never refused for it.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any, Final

import grpc

from arena.store import Store
from arena.store.tokens import owner_of

from .errors import abort
from .ratelimit import RateLimiter

log = logging.getLogger("arena.serve")

NO_TOKEN: Final = (
    "this call needs your token: pass --token TOKEN (or set ARENA_TOKEN), sent as the "
    "metadata 'authorization: Bearer TOKEN'. No token yet? Ask the organizer "
    "(arena token create OWNER --db FILE)"
)
BAD_TOKEN: Final = (
    "the token is not valid (unknown, revoked or mistyped); check it, or ask the organizer "
    "for a new one (arena token create OWNER --db FILE)"
)


def bearer_token(context: Any) -> str | None:
    """The token in the call's metadata, or None if there is no authorization entry."""
    for key, value in context.invocation_metadata() or ():
        if key.lower() == "authorization":
            text = value.decode() if isinstance(value, bytes) else str(value)
            scheme, _, token = text.strip().partition(" ")
            if scheme.lower() == "bearer" and token.strip():
                return token.strip()
            return ""  # present but not a bearer token: as wrong as a bad token
    return None


def peer_address(peer: str) -> str:
    """The address part of a gRPC peer (``ipv4:127.0.0.1:5000`` -> ``ipv4:127.0.0.1``,
    ``ipv6:[::1]:5000`` -> ``ipv6:[::1]``); other peers as they are."""
    kind, _, rest = peer.partition(":")
    if kind in ("ipv4", "ipv6") and ":" in rest:
        return f"{kind}:{rest.rpartition(':')[0]}"
    return peer


class Authenticator:
    """Tokens checked against the store, failures limited per peer address."""

    def __init__(
        self,
        store: Store,
        failure_limit: int,
        window_s: float = 60.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.store = store
        self.failures = RateLimiter(failure_limit, window_s, clock)

    async def caller(self, context: Any, *, required: bool) -> str | None:
        """The calling owner; aborts with UNAUTHENTICATED if a token is wrong (or missing
        when ``required``), RESOURCE_EXHAUSTED if its address failed too often."""
        token = bearer_token(context)
        if token is None:
            if required:
                await abort(context, grpc.StatusCode.UNAUTHENTICATED, NO_TOKEN)
            return None
        peer = peer_address(str(context.peer() or "unknown"))
        wait_s = self.failures.wait_s(peer)
        if wait_s:
            await abort(
                context,
                grpc.StatusCode.RESOURCE_EXHAUSTED,
                f"too many failed authentications from your address (the limit is "
                f"{self.failures.limit} a minute); try again in {wait_s:.0f} s with a valid "
                "token",
            )
        owner = owner_of(self.store, token) if token else None
        if owner is None:
            self.failures.acquire(peer)
            limited = self.failures.wait_s(peer) > 0
            log.warning(
                "authentication failed from %s (an unknown, revoked or mistyped token)%s",
                peer,
                "; its further tokens are refused for a while" if limited else "",
            )
            await abort(context, grpc.StatusCode.UNAUTHENTICATED, BAD_TOKEN)
        return owner
