"""Who may use the human seat's pages (the tables, the lobby), and the forms they post.

On loopback nobody else can reach the tables; an app listening beyond loopback serves
them only with the play token (given once as ``?token=``, then kept in a cookie), and
not at all without one. A POST from another site is refused. A person's own seat at a
lobby table is a secret of its own, kept in a cookie of the table (``seat_cookie``).
"""

from __future__ import annotations

import hmac
import urllib.parse
from typing import Any, Final

from starlette.requests import Request
from starlette.responses import Response

from arena.games import AnyGame, InvalidOptionsError, all_games, get
from arena.policies.registry import refused_at_table

from .handling import Refused, whole_number
from .play_openspiel import CHOICE, named_game, openspiel_offered, players_field
from .play_room import PlayRoom

COOKIE: Final = "arena_play"
"""The cookie that keeps the play token after ``?token=``."""


def room_of(request: Request) -> PlayRoom:
    """The app's tables (404 when it has no human seat)."""
    room: PlayRoom | None = getattr(request.app.state, "play", None)
    if room is None:
        raise Refused(404, "this arena has no human seat")
    return room


def admitted(request: Request, room: PlayRoom) -> bool:
    """Whether the request may play (Refused if not); True if it brought the token in
    its query (the response then keeps it in a cookie: ``keep_token``)."""
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


def posted_here(request: Request) -> None:
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


def _set_cookie(request: Request, response: Response, name: str, value: str, path: str) -> None:
    # Secure when served over TLS: the browser then never sends it in clear.
    secure = request.url.scheme == "https"
    response.set_cookie(name, value, path=path, httponly=True, samesite="strict", secure=secure)


def keep_token(
    request: Request, response: Response, room: PlayRoom, admitted_by_query: bool
) -> Response:
    """``response``, keeping the play token in a cookie if the request brought it."""
    if admitted_by_query and room.settings.token is not None:
        _set_cookie(request, response, COOKIE, room.settings.token, "/")
    return response


def seat_cookie(table_id: str) -> str:
    """The cookie that holds a person's seat key at table ``table_id``."""
    return f"arena_seat_{table_id}"


def keep_seat(request: Request, response: Response, table_id: str, key: str) -> Response:
    """``response``, keeping the person's seat key at the table (sent to its pages only)."""
    _set_cookie(request, response, seat_cookie(table_id), key, "/play/")
    return response


def seat_key(request: Request, table_id: str) -> str:
    """The seat key the request brings for table ``table_id`` ("" if none)."""
    return request.cookies.get(seat_cookie(table_id), "")


async def read_form(request: Request) -> list[tuple[str, str]]:
    """The posted form's fields, in order (a name may come several times)."""
    body = await request.body()  # at most guards.MAX_BODY_BYTES
    try:
        return urllib.parse.parse_qsl(body.decode(), strict_parsing=False)
    except (UnicodeDecodeError, ValueError):
        raise Refused(400, "that form could not be read") from None


def form_int(form: dict[str, str], name: str) -> int:
    """A form's number field (Refused in words if it is none)."""
    return whole_number(form.get(name, ""), f"the form's {name}", negative=True)


def offered_games(room: PlayRoom) -> list[AnyGame]:
    """The games the app's start and lobby forms offer (each has a board)."""
    offered = room.settings.games
    return [
        game
        for game in all_games()
        if game.board is not None and (offered is None or game.name in offered)
    ]


def table_options(
    form: dict[str, str], room: PlayRoom, *, also: tuple[str, ...] = ()
) -> tuple[AnyGame, Any, str]:
    """The game, configuration and built-in bots (or one of ``also``) a start form
    names (Refused in words). Each game's fields are its own (the form offers every
    game at once)."""
    try:
        chosen = form.get("game", "")
        if chosen == CHOICE and openspiel_offered(room.settings.games):
            game = named_game(form)  # a game the person names: its fields end in CHOICE
            form[f"players-{CHOICE}"] = players_field(form, game)
        else:
            game = get(chosen)
            chosen = game.name
            if game not in offered_games(room):
                raise InvalidOptionsError(f"{game.title} is not played here")
        config = game.make_config(
            form_int(form, f"players-{chosen}"), form.get(f"preset-{chosen}") or None
        )
        policy = form.get(f"bots-{chosen}", "random")
        if policy not in game.policies and policy not in also:
            known = ", ".join(sorted(game.policies))
            raise InvalidOptionsError(f"no built-in bot {policy!r}; choose one of {known}")
        if why := refused_at_table(game, [policy], config):
            raise InvalidOptionsError(why)
    except (InvalidOptionsError, LookupError) as error:
        raise Refused(400, str(error)) from None
    return game, config, policy
