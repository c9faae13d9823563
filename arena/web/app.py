"""The app factory: routes, static files, the request guards (``guards.py``: the Host,
the body's size, ``nosniff``), the read limit and the error pages.

Every handler hands its read (and its rendering) to the source's read pool with
``handling.read(request, job)``; the event loop only routes and sends. Only GET (and
HEAD) exist, but for the human seat's tables (``play_pages``: a person's own match, on
loopback or with the play token): nothing a visitor sends changes the database.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable
from functools import partial
from http import HTTPStatus
from typing import Final

from starlette.applications import Starlette
from starlette.datastructures import Headers
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.gzip import GZipMiddleware
from starlette.requests import Request
from starlette.responses import (
    HTMLResponse,
    JSONResponse,
    PlainTextResponse,
    Response,
)
from starlette.routing import Mount, Route
from starlette.types import ASGIApp, Receive, Scope, Send

from arena.server.intervals_cache import stop_fit_worker
from arena.server.pages import PageTokens
from arena.server.ratelimit import TokenBuckets, peer_key
from arena.store import Store, open_store

from . import assets, boards, live_pages, pages, play_pages
from .data import LadderIntervals, Shared
from .guards import AllowedHosts, BodyLimit, HostCheck, NoSniff
from .handling import Refused, read, source_of
from .live import Live
from .pages import MAX_PARAM
from .play_room import PlayRoom
from .render import render
from .source import WebSource


class ReadLimit:
    """At most ``rate`` requests a second per client address (``burst`` at once), counted
    as ``arena serve`` counts its gRPC reads (``TokenBuckets``, ``peer_key``)."""

    def __init__(self, app: ASGIApp, rate: float, burst: int) -> None:
        self.app = app
        self.buckets = TokenBuckets(rate, burst) if rate > 0 else None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        # The human seat's pages are a person's own table (loopback or its token), not
        # public reads: a quick player must not be slowed down by the read limit.
        if self.buckets is None or scope["type"] != "http" or _is_play(scope["path"]):
            await self.app(scope, receive, send)
            return
        host = scope["client"][0] if scope.get("client") else ""
        kind = "ipv6" if ":" in host else "ipv4"
        wait_s = self.buckets.acquire(
            peer_key(f"{kind}:[{host}]:0" if kind == "ipv6" else f"{kind}:{host}:0")
        )
        if wait_s:
            response = PlainTextResponse(
                f"too many requests from this address; try again in {wait_s:.1f} s",
                status_code=429,
                headers={"Retry-After": str(max(1, round(wait_s)))},
            )
            await response(scope, receive, send)
            return
        await self.app(scope, receive, send)


def _is_play(path: str) -> bool:
    return path == "/play" or path.startswith("/play/")


HEADINGS: Final = {
    400: "This address asks for something the arena cannot read",
    403: "Not allowed",
    404: "Not found",
    405: "Not allowed here",
    409: "Not shown while it is played",
    500: "The arena failed to answer",
    503: "The arena is busy",
}
"""An error page's title, by status (other statuses: HTTP's own phrase)."""


async def _error(request: Request, error: Exception) -> Response:
    """The error as JSON under ``/api/``, else as a page with the site's header, a title
    that says what is wrong, and a way back: the first page, and the ladder the address
    names when there is one."""
    status = error.status_code if isinstance(error, HTTPException) else 500
    detail = error.detail if isinstance(error, HTTPException) else "the arena failed to answer"
    if request.url.path.startswith("/api/"):
        return JSONResponse({"error": detail}, status_code=status)
    source = source_of(request)
    named = request.query_params.get("ladder", "")
    context = {
        "title": source.title,
        "heading": HEADINGS.get(status) or HTTPStatus(status).phrase,
        "message": detail,
    }

    def job(store: Store) -> str:
        known = 0 < len(named) <= MAX_PARAM and source.shows(named) and named in store.ladders()
        return render("error.html", ladder=named if known else None, **context)

    try:
        text = await read(request, job)
    except Exception:
        # The pool is full (the very cause of a 503) or the store fails (perhaps the cause
        # of this error): the page still goes out, rendered here, without the ladder's link.
        text = render("error.html", ladder=None, **context)
    return HTMLResponse(text, status_code=status)


async def static_file(request: Request) -> Response:
    """One of our scripts, styles or icons (``assets``: hashed names cached for a year)."""
    return _static(request, request.path_params["name"])


async def favicon(request: Request) -> Response:
    """``/favicon.ico``, asked for by clients that read no page's ``<link rel=icon>``:
    the SVG icon, revalidated (the pages link its hashed name)."""
    return _static(request, "favicon.svg")


def _static(request: Request, name: str) -> Response:
    asset = assets.static_files().get(name)
    if asset is None:
        raise Refused(404, f"no static file {name[:100]!r} here")
    return assets.answer(
        asset,
        name,
        request.headers.get("accept-encoding"),
        request.headers.get("if-none-match"),
    )


UNCOMPRESSED: Final = ("/static/", "/favicon.ico", "/game/", "/events", "/play")
"""Paths the ``Compress`` middleware leaves alone: files compressed once at start
(``assets``); the live stream (each event must go out as it is written); the human
seat's tables (a person's own, small, behind a cookie: no compressed answer there for
a page of another site to measure, as BREACH does)."""


class Compress:
    """gzip for the pages and JSON (Starlette's ``GZipMiddleware``, above 1000 bytes, to
    clients that accept it; level 6: most of level 9's gain for a fraction of its
    time), but not for the paths of ``UNCOMPRESSED``. Whether a client accepts gzip is
    read as the static files read it (``assets.accepts_gzip``): Starlette's own test
    finds "gzip" anywhere in the header, so ``gzip;q=0`` (a refusal) got gzip."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self.gzip = GZipMiddleware(app, minimum_size=1000, compresslevel=6)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (
            scope["type"] == "http"
            and not scope["path"].startswith(UNCOMPRESSED)
            and assets.accepts_gzip(Headers(scope=scope).get("accept-encoding"))
        ):
            await self.gzip(scope, receive, send)
        else:
            await self.app(scope, receive, send)


class WebApp(Starlette):
    """Starlette, with ``NoSniff`` outside even its error middleware, so that the
    answer to a failed request carries the header too."""

    def build_middleware_stack(self) -> ASGIApp:
        """Starlette's stack, inside ``NoSniff``."""
        return NoSniff(super().build_middleware_stack())


def create_app(
    source: WebSource,
    *,
    hosts: AllowedHosts,
    routes: list[Route | Mount] | None = None,
    play: PlayRoom | None = None,
) -> Starlette:
    """The web app over ``source``, answering requests whose ``Host`` is one of
    ``hosts`` (``guards.allowed_hosts``); ``routes`` adds routes (before the built-in
    ones); ``play`` serves the human seat's tables (none without it)."""

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        try:
            yield
        finally:
            if play is not None:
                await play.stop()
            await app.state.live.close()
            source.close()
            stop_fit_worker()

    app = WebApp(
        routes=[
            *(routes or []),
            *pages.ROUTES,
            *boards.ROUTES,
            *live_pages.ROUTES,
            *play_pages.ROUTES,
            Route("/static/{name}", static_file),
            Route("/favicon.ico", favicon),
        ],
        middleware=[
            Middleware(HostCheck, hosts=hosts),
            Middleware(BodyLimit),
            Middleware(ReadLimit, rate=source.read_rate, burst=source.read_burst),
            Middleware(Compress),
        ],
        exception_handlers={HTTPException: _error, 500: _error},
        lifespan=lifespan,
    )
    assets.static_files()  # hashed and compressed once, at start
    app.state.source = source
    app.state.live = Live(source)
    app.state.tokens = PageTokens()
    app.state.shared = Shared()
    app.state.intervals = LadderIntervals(partial(open_store, source.reads.db, read_only=True))
    app.state.play = play
    return app


Handler = Callable[[Request], Awaitable[Response]]
