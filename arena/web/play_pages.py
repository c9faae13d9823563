"""The human seat's pages: a person's table (the board, and the legal actions as buttons
when it is their turn), and a form that starts a table against built-in bots.

Access: see ``play_room``'s module. The page long-polls: it waits until the person decides
again or the match is over (WAIT_S at most, then shows "waiting" and reloads).
"""

from __future__ import annotations

import asyncio
import hmac
import secrets
import urllib.parse
from typing import Any, Final

from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response
from starlette.routing import Route

from arena.games import AnyGame, InvalidOptionsError, all_games, get, seat_moment
from arena.names import BadNameError, check_name
from arena.policies.registry import builtin_factory
from arena.referee import Seat, builtin_seat
from arena.referee.human import Moment

from .handling import Refused, whole_number
from .play_openspiel import CHOICE, named_game, openspiel_offered, players_field
from .play_room import PlayRoom, PlayTable, TablesFullError
from .render import board_template, render

COOKIE: Final = "arena_play"
"""The cookie that keeps the play token after ``?token=``."""
WAIT_S: Final = 20.0
"""How long a page waits for the person's turn before it shows "waiting" and reloads."""


# -- access ----------------------------------------------------------------------------


def _room(request: Request) -> PlayRoom:
    room: PlayRoom | None = getattr(request.app.state, "play", None)
    if room is None:
        raise Refused(404, "this arena has no human seat")
    return room


def _admitted(request: Request, room: PlayRoom) -> bool:
    """Whether the request may play; True if it brought the token in its query (the
    response then keeps it in a cookie)."""
    settings = room.settings
    if settings.token is None:
        if settings.loopback:
            return False
        raise Refused(
            403,
            "the human seat is served beyond this machine only with a token: start the app "
            "with --play-token (or on 127.0.0.1)",
        )
    given = request.query_params.get("token")
    if given is not None and hmac.compare_digest(given.encode(), settings.token.encode()):
        return True
    cookie = request.cookies.get(COOKIE, "")
    if hmac.compare_digest(cookie.encode(), settings.token.encode()):
        return False
    if settings.loopback:
        return False  # on loopback the token is not needed
    raise Refused(403, "give the play token: open the address printed with ?token=")


def _posted_here(request: Request) -> None:
    """Refuse a form posted from another site (cross-site request forgery): on loopback
    no token guards the tables, so any page the person visits could otherwise post
    here. Browsers name the posting page's origin (``Origin``, ``Sec-Fetch-Site``). (A
    page that rebinds its own name's DNS to this machine posts as "same origin", but
    with its name as ``Host``: ``guards.HostCheck`` refuses that for every page.)"""
    host = request.headers.get("host", "")
    origin = request.headers.get("origin")
    if request.headers.get("sec-fetch-site") in ("cross-site", "same-site") or (
        origin is not None and urllib.parse.urlsplit(origin).netloc != host
    ):
        raise Refused(403, "a form posted from another site is refused; play from this page")


def _keep_token(
    request: Request, response: Response, room: PlayRoom, admitted_by_query: bool
) -> Response:
    if admitted_by_query and room.settings.token is not None:
        # Secure when served over TLS: the browser then never sends it in clear.
        secure = request.url.scheme == "https"
        response.set_cookie(
            COOKIE, room.settings.token, httponly=True, samesite="strict", secure=secure
        )
    return response


def _table(request: Request, room: PlayRoom) -> PlayTable:
    table = room.tables.get(request.path_params["table"])
    if table is None:
        raise Refused(404, "no such table here (the app may have restarted)")
    return table


async def _form(request: Request) -> dict[str, str]:
    body = await request.body()  # at most guards.MAX_BODY_BYTES
    try:
        pairs = urllib.parse.parse_qsl(body.decode(), strict_parsing=False)
    except (UnicodeDecodeError, ValueError):
        raise Refused(400, "that form could not be read") from None
    return dict(pairs)


def _int(form: dict[str, str], name: str) -> int:
    return whole_number(form.get(name, ""), f"the form's {name}", negative=True)


# -- pages -----------------------------------------------------------------------------


def _settled(moment: Moment, after: int) -> bool:
    return moment.version > after and (moment.decision is not None or moment.over is not None)


async def _moment(table: PlayTable, after: int) -> Moment:
    """The first moment past ``after`` at which the person decides or the match is over,
    waiting up to WAIT_S; else the current moment."""
    loop = asyncio.get_running_loop()
    until = loop.time() + WAIT_S
    moment = table.human.moment()
    while not _settled(moment, after) and table.problem is None and table.outcome is None:
        left = until - loop.time()
        if left <= 0:
            break
        moment = await table.human.next_moment(moment.version, left)
    task = table.task
    if moment.over is not None and task is not None and not task.done():
        # The seat has been told the end; the table still makes its last board and
        # records the match: show the end once that is done.
        await asyncio.wait({task}, timeout=max(0.0, until - loop.time()))
    return table.human.moment()


def _page_context(table: PlayTable, moment: Moment, message: str | None) -> dict[str, Any]:
    decision = moment.decision
    view: dict[str, Any] | None = None
    if decision is not None:
        view = seat_moment(table.game, decision.observation, decision.events, table.names)
    return {
        "table": table,
        "moment": moment,
        "decision": decision,
        "view": view,
        "board": (view or table.final or {}).get("board"),
        "final": table.final,
        "board_template": board_template(table.game.name),
        "message": message,
        "over": table.outcome is not None or table.problem is not None,
    }


async def play_page(request: Request) -> Response:
    """The person's table: the board and the legal actions when it is their turn."""
    room = _room(request)
    by_query = _admitted(request, room)
    table = _table(request, room)
    after = whole_number(request.query_params.get("after", "-1"), "after", negative=True)
    moment = await _moment(table, after)
    context = _page_context(table, moment, None)
    text = await asyncio.to_thread(render, "play.html", title="Play", **context)
    return _keep_token(request, HTMLResponse(text), room, by_query)


async def play_choose(request: Request) -> Response:
    """The person chose: take it, then show the table when it is their turn again."""
    room = _room(request)
    _admitted(request, room)
    _posted_here(request)
    table = _table(request, room)
    form = await _form(request)
    request_id, index, version = _int(form, "request"), _int(form, "choice"), _int(form, "version")
    problem = table.human.choose(request_id, index)
    if problem is None:
        return RedirectResponse(f"/play/{table.id}?after={version}", status_code=303)
    context = _page_context(table, table.human.moment(), problem)
    text = await asyncio.to_thread(render, "play.html", title="Play", **context)
    return HTMLResponse(text, status_code=409)


def _games(room: PlayRoom) -> list[AnyGame]:
    offered = room.settings.games
    return [
        game
        for game in all_games()
        if game.board is not None and (offered is None or game.name in offered)
    ]


async def start_page(request: Request) -> Response:
    """A form that starts a table against the game's built-in bots."""
    room = _room(request)
    by_query = _admitted(request, room)
    if not room.settings.offer_builtin:
        raise Refused(404, "this arena starts no tables from the page; see arena play")
    text = await asyncio.to_thread(
        render,
        "play_start.html",
        title="Play",
        games=_games(room),
        openspiel=openspiel_offered(room.settings.games),
        settings=room.settings,
    )
    return _keep_token(request, HTMLResponse(text), room, by_query)


async def start_table(request: Request) -> Response:
    """Start a table from the form: game, preset, players, the bots' policy, a name."""
    room = _room(request)
    _admitted(request, room)
    _posted_here(request)
    if not room.settings.offer_builtin:
        raise Refused(404, "this arena starts no tables from the page; see arena play")
    form = await _form(request)
    try:
        chosen = form.get("game", "")
        if chosen == CHOICE and openspiel_offered(room.settings.games):
            game = named_game(form)  # a game the person names: its fields end in CHOICE
            form[f"players-{CHOICE}"] = players_field(form, game)
        else:
            game = get(chosen)
            chosen = game.name
            if game not in _games(room):
                raise InvalidOptionsError(f"{game.title} is not played here")
        # Each game's fields are its own (the form offers every game at once).
        config = game.make_config(
            _int(form, f"players-{chosen}"), form.get(f"preset-{chosen}") or None
        )
        policy = form.get(f"bots-{chosen}", "random")
        if policy not in game.policies:
            known = ", ".join(sorted(game.policies))
            raise InvalidOptionsError(f"no built-in bot {policy!r}; choose one of {known}")
    except (InvalidOptionsError, LookupError) as error:
        raise Refused(400, str(error)) from None
    try:
        name = check_name((form.get("name") or "you").strip())
    except BadNameError as error:
        raise Refused(400, str(error)) from None
    players = game.players_of(config)
    rng = secrets.SystemRandom()
    factory = builtin_factory(game, policy)
    opponents: list[Seat] = [
        builtin_seat(f"{policy}-{n}", factory, rng.getrandbits(32)) for n in range(1, players)
    ]
    try:
        table = room.start(game, config, opponents, name=name, seat=rng.randrange(players))
    except TablesFullError as error:
        raise Refused(503, str(error)) from None
    return RedirectResponse(f"/play/{table.id}", status_code=303)


ROUTES: Final = [
    Route("/play", start_page, methods=["GET"]),
    Route("/play", start_table, methods=["POST"]),
    Route("/play/{table}", play_page, methods=["GET"]),
    Route("/play/{table}", play_choose, methods=["POST"]),
]
"""The human seat's pages: the only ones that take a POST (a person's own table)."""
