"""The lobby's pages (``lobby.py``): the tables waiting for people and a form to open
one; a table's page, where people join it by its link and its host starts it.

Access as for every table (``play_access``). Opening or joining a table keeps the
person's seat key in a cookie of that table; once the host starts it, each person's page
(``/play/ID``) shows their own seat only.
"""

from __future__ import annotations

import asyncio
from typing import Final

from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response
from starlette.routing import Route

from arena.referee.channels import ChannelPool

from .handling import Refused
from .lobby import MAX_OPEN, OPEN_FOR_S, LobbyRefusedError
from .lobby_bots import SUBMITTED, submitted_seats
from .play_access import (
    admitted,
    keep_seat,
    keep_token,
    offered_games,
    posted_here,
    read_form,
    room_of,
    seat_key,
    table_options,
)
from .play_openspiel import openspiel_offered
from .play_room import PlayRoom, TablesFullError
from .render import render


async def lobby_page(request: Request) -> Response:
    """The tables waiting for people, and the form that opens one."""
    room = room_of(request)
    by_query = admitted(request, room)
    text = await asyncio.to_thread(
        render,
        "lobby.html",
        title="Lobby",
        openings=room.lobby.listed()[:MAX_OPEN],
        games=offered_games(room),
        openspiel=openspiel_offered(room.settings.games),
        settings=room.settings,
        open_minutes=round(OPEN_FOR_S / 60),
        submitted=_submitted(room),
    )
    return keep_token(request, HTMLResponse(text), room, by_query)


def _submitted(room: PlayRoom) -> tuple[str, ...]:
    """The lobby's choice of submitted bots, when the app has a database to find them."""
    return (SUBMITTED,) if room.settings.db is not None else ()


async def open_table(request: Request) -> Response:
    """Open a table from the form; the person is its host."""
    room = room_of(request)
    admitted(request, room)
    posted_here(request)
    form = dict(await read_form(request))
    game, config, policy = table_options(form, room, also=_submitted(room))
    rated = room.settings.rated and form.get("rated") == "yes"
    try:
        opening, key = room.lobby.open(
            game, config, rated=rated, bots=policy, name=form.get("name", "")
        )
    except LobbyRefusedError as error:
        raise Refused(409, str(error)) from None
    answer = RedirectResponse(f"/play/lobby/{opening.id}", status_code=303)
    return keep_seat(request, answer, opening.id, key)


async def table_page(request: Request) -> Response:
    """A waiting table: who is there, a form to join it, the host's start."""
    room = room_of(request)
    by_query = admitted(request, room)
    table_id = request.path_params["table"]
    key = seat_key(request, table_id)
    started = room.tables.get(table_id)
    if started is not None and key and key in started.keys:
        return RedirectResponse(f"/play/{table_id}", status_code=303)
    opening = room.lobby.get(table_id)
    if opening is None:
        try:
            room.lobby.join(table_id, "")  # never seats: says why the table is not waiting
        except LobbyRefusedError as error:
            raise Refused(404 if started is None else 409, str(error)) from None
    text = await asyncio.to_thread(
        render,
        "lobby_table.html",
        title="Lobby",
        opening=opening,
        place=opening.seat_of(key) if opening and key else None,
    )
    return keep_token(request, HTMLResponse(text), room, by_query)


async def join_table(request: Request) -> Response:
    """Take a seat at a waiting table under the name given."""
    room = room_of(request)
    admitted(request, room)
    posted_here(request)
    table_id = request.path_params["table"]
    opening = room.lobby.get(table_id)
    there = f"/play/lobby/{table_id}"
    if opening is not None and opening.seat_of(seat_key(request, table_id)) is not None:
        return RedirectResponse(there, status_code=303)  # already at it
    form = dict(await read_form(request))
    try:
        key = room.lobby.join(table_id, form.get("name", ""))
    except LobbyRefusedError as error:
        raise Refused(409, str(error)) from None
    return keep_seat(request, RedirectResponse(there, status_code=303), table_id, key)


async def start_table(request: Request) -> Response:
    """The host starts the table: bots fill the empty seats."""
    room = room_of(request)
    admitted(request, room)
    posted_here(request)
    table_id = request.path_params["table"]
    key = seat_key(request, table_id)
    pool = ChannelPool()
    try:
        opening = room.lobby.hosted(table_id, key)
        fill = None
        if opening.bots == SUBMITTED and room.settings.db is not None:
            free = opening.size - len(opening.people)
            found = await submitted_seats(
                room.settings.db, opening.game, opening.config, free, opening.names, pool
            )
            if isinstance(found, str):
                raise LobbyRefusedError(found)
            fill = found
        table = room.lobby.start(table_id, key, fill, closers=[pool.close])
    except LobbyRefusedError as error:
        await pool.close()
        raise Refused(409, str(error)) from None
    except TablesFullError as error:
        await pool.close()
        raise Refused(503, str(error)) from None
    return RedirectResponse(f"/play/{table.id}", status_code=303)


ROUTES: Final = [
    Route("/play/lobby", lobby_page, methods=["GET"]),
    Route("/play/lobby", open_table, methods=["POST"]),
    Route("/play/lobby/{table}", table_page, methods=["GET"]),
    Route("/play/lobby/{table}/join", join_table, methods=["POST"]),
    Route("/play/lobby/{table}/start", start_table, methods=["POST"]),
]
"""The lobby's pages (under ``/play``: the same access, outside the read limit)."""
