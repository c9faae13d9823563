"""A submitted bot as the Arena service shows it (``arena.server.views.bot_message``):
its endpoint only to its owner, and out of its status reason (where error messages may
quote it) for everyone else.

``GET /api/bot/NAME`` with ``Authorization: Bearer TOKEN`` of the bot's owner adds the
endpoint; pages never show it. A token is taken only over TLS (the app's own, or a TLS
proxy on this machine that says so in ``X-Forwarded-Proto``, which uvicorn believes from
loopback only) or from a loopback client: never in clear across a network.
"""

from __future__ import annotations

import ipaddress
from typing import Any

from google.protobuf.json_format import MessageToDict
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from arena.server.auth import BAD_TOKEN
from arena.server.views import bot_message
from arena.store import Store
from arena.store.registry import BotEntry, get_bot
from arena.store.tokens import owner_of

from .handling import Refused, read


def public_bot(entry: BotEntry) -> dict[str, Any]:
    """What anyone may see of a submitted bot (every text ``shown``)."""
    return _as_dict(entry, show_endpoint=False)


def _as_dict(entry: BotEntry, *, show_endpoint: bool) -> dict[str, Any]:
    message = bot_message(entry, matches=0, show_endpoint=show_endpoint)
    data = MessageToDict(
        message, preserving_proto_field_name=True, always_print_fields_with_no_presence=True
    )
    data.pop("matches", None)  # the ladder's count lives in its leaderboard
    data["status"] = str(entry.status)
    return data


def _bearer(request: Request) -> str | None:
    header = request.headers.get("authorization")
    if header is None:
        return None
    scheme, _, token = header.strip().partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise Refused(401, BAD_TOKEN)
    host = request.client.host if request.client else ""
    try:
        loopback = ipaddress.ip_address(host).is_loopback
    except ValueError:
        loopback = False
    if not loopback and request.url.scheme != "https":
        raise Refused(
            403,
            "tokens are taken only over TLS or from this machine (this app speaks plain "
            "HTTP); ask from the arena's machine, over https, or through a TLS proxy on it",
        )
    return token.strip()


async def bot_json(request: Request) -> Response:
    """A submitted bot; with its owner's token, its endpoint too."""
    name = request.path_params["name"]
    if len(name) > 300:
        raise Refused(400, "that bot name is too long")
    token = _bearer(request)

    def job(store: Store) -> dict[str, Any] | None:
        entry = get_bot(store, name)
        if entry is None:
            return None
        viewer = owner_of(store, token) if token is not None else None
        if token is not None and viewer is None:
            raise Refused(401, BAD_TOKEN)
        return _as_dict(entry, show_endpoint=viewer == entry.owner)

    answer = await read(request, job)
    if answer is None:
        raise Refused(404, f"no submitted bot {name!r} here")
    return JSONResponse(answer, headers={"Cache-Control": "no-store"})
