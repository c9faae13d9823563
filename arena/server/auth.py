"""Who is calling: the owner named by the ``authorization: Bearer TOKEN`` metadata."""

from __future__ import annotations

from typing import Any, Final

import grpc

from arena.store import Store
from arena.store.tokens import owner_of

from .errors import abort

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


async def caller(context: Any, store: Store, *, required: bool) -> str | None:
    """The calling owner; aborts with UNAUTHENTICATED if a token is wrong (or missing
    when ``required``)."""
    token = bearer_token(context)
    if token is None:
        if required:
            await abort(context, grpc.StatusCode.UNAUTHENTICATED, NO_TOKEN)
        return None
    owner = owner_of(store, token) if token else None
    if owner is None:
        await abort(context, grpc.StatusCode.UNAUTHENTICATED, BAD_TOKEN)
    return owner
