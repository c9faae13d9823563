"""What every request passes before a handler sees it, and what every answer carries.

- ``HostCheck``: the ``Host`` a request names must be one the app is served under
  (``AllowedHosts``). A page on another site can rebind its own name's DNS to this
  machine and then read the app (or post to it) as "same origin"; its requests still
  name that site in ``Host``, so an app on loopback answers loopback names only.
- ``BodyLimit``: no request body over ``MAX_BODY_BYTES``: refused by its
  ``Content-Length`` before anything is read, and a body without one (chunked) is read
  only up to the limit.
- ``NoSniff``: ``X-Content-Type-Options: nosniff`` on every answer, so a browser never
  takes JSON or text that quotes a bot's words for a page or a script.
"""

from __future__ import annotations

import urllib.parse
from dataclasses import dataclass
from typing import Final

from starlette.exceptions import HTTPException
from starlette.responses import PlainTextResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from arena.referee.channels import loopback_host

MAX_BODY_BYTES: Final = 4096
"""The largest request body taken: the only bodies are the play pages' forms, a few
fields each."""


@dataclass(frozen=True)
class AllowedHosts:
    """The names a request's ``Host`` may give."""

    names: frozenset[str] | None
    """Besides loopback's names and addresses (``loopback_host``); None: any host."""

    def allows(self, host_header: str | None) -> bool:
        """Whether a request with this ``Host`` is answered. None (no ``Host``, which
        no browser sends, so no page can make such a request) is."""
        if self.names is None or host_header is None:
            return True
        try:
            name = urllib.parse.urlsplit(f"//{host_header}").hostname
        except ValueError:  # "[::1" and the like
            return False
        if not name:
            return False
        return loopback_host(name) or name.rstrip(".") in self.names


def allowed_hosts(loopback: bool, names: tuple[str, ...] = ()) -> AllowedHosts:
    """The hosts an app answers: listening on loopback, loopback names and ``names``;
    beyond loopback, ``names`` if any are given, else any host (a page of another site
    that rebinds its name to the app's address reads only what any visitor reads; the
    human seat needs its token there, which such a page does not have)."""
    lowered = frozenset(n.lower().rstrip(".") for n in names)
    return AllowedHosts(lowered if loopback or lowered else None)


class HostCheck:
    """403 for a request whose ``Host`` is not one of ``hosts``."""

    def __init__(self, app: ASGIApp, hosts: AllowedHosts) -> None:
        self.app = app
        self.hosts = hosts

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            host = _header(scope, b"host")
            if not self.hosts.allows(host):
                response = PlainTextResponse(
                    "this app is not served under that name: open it by the address it "
                    "printed (on loopback: 127.0.0.1 or localhost), or start it with "
                    "--host-name NAME for a name a proxy in front of it passes on",
                    status_code=403,
                )
                await response(scope, receive, send)
                return
        await self.app(scope, receive, send)


class BodyTooLargeError(HTTPException):
    """A request's body is larger than ``MAX_BODY_BYTES``."""

    def __init__(self) -> None:
        super().__init__(413, f"a request body here is at most {MAX_BODY_BYTES} bytes")


class BodyLimit:
    """At most ``MAX_BODY_BYTES`` of a request's body (413 beyond)."""

    def __init__(self, app: ASGIApp, max_bytes: int = MAX_BODY_BYTES) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        length = _header(scope, b"content-length")
        if length is not None and not (length.isascii() and length.isdigit()):
            await PlainTextResponse("Content-Length must be a number", 400)(scope, receive, send)
            return
        if length is not None and int(length) > self.max_bytes:
            # Refused before a byte of it is read.
            error = BodyTooLargeError()
            response = PlainTextResponse(error.detail, error.status_code, headers=CLOSE)
            await response(scope, receive, send)
            return
        taken = 0
        refused = False

        async def bounded() -> Message:
            nonlocal taken, refused
            message = await receive()
            if message["type"] == "http.request":
                taken += len(message.get("body", b""))
                if taken > self.max_bytes:
                    refused = True
                    raise BodyTooLargeError()  # answered by the app's error handler
            return message

        async def closing(message: Message) -> None:
            if refused and message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", []), CLOSE_HEADER]}
            await send(message)

        await self.app(scope, bounded, closing)


CLOSE: Final = {"Connection": "close"}
"""On a refused body's answer: the server then closes the connection rather than read
(and drop) the rest of the body."""
CLOSE_HEADER: Final = (b"connection", b"close")


NOSNIFF: Final = (b"x-content-type-options", b"nosniff")


class NoSniff:
    """``X-Content-Type-Options: nosniff`` on every answer."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_header(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = [h for h in message.get("headers", []) if h[0].lower() != NOSNIFF[0]]
                message = {**message, "headers": [*headers, NOSNIFF]}
            await send(message)

        await self.app(scope, receive, send_with_header)


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope["headers"]:
        if key == name:
            text: str = value.decode("latin-1")
            return text
    return None
