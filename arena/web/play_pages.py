"""The human seat's pages: a person's table (the board, the clock, the match so far, and
the legal actions when it is their turn: buttons, or cards ticked in one go), and a form
that starts a table against built-in bots. The lobby's pages: ``lobby_pages``.

Access: ``play_access``. Each page shows one seat, its person's: at a lobby table the
seat the request's key opens, else the table's one person (its id is their secret). After a
choice the page shows at once, then reloads and long-polls: it waits until its person
decides again or the match is over (WAIT_S at most, then shows "waiting" and reloads).
"""

from __future__ import annotations

import asyncio
import hmac
import secrets
from typing import Any, Final

from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response
from starlette.routing import Route

from arena.games import board_of, seat_moment
from arena.names import BadNameError, check_name
from arena.policies.registry import builtin_factory
from arena.referee import Seat, builtin_seat
from arena.referee.human import HumanSeat, Moment

from . import lobby_pages
from .handling import Refused, whole_number
from .play_access import (
    admitted,
    form_int,
    keep_token,
    offered_games,
    posted_here,
    read_form,
    room_of,
    seat_key,
    table_options,
)
from .play_openspiel import openspiel_offered
from .play_picks import checkboxes, picked
from .play_room import PlayRoom, PlayTable, TablesFullError
from .render import board_template, render

WAIT_S: Final = 20.0
"""How long a page waits for the person's turn before it shows "waiting" and reloads."""


# -- whose page ------------------------------------------------------------------------


def _table(request: Request, room: PlayRoom) -> PlayTable:
    table = room.tables.get(request.path_params["table"])
    if table is None:
        raise Refused(404, "no such table here (the app may have restarted)")
    return table


def _viewer(request: Request, table: PlayTable) -> int:
    """The seat this request's person holds (Refused: none)."""
    if not table.keys:
        return next(iter(table.people))
    key = seat_key(request, table.id).encode()
    for known, seat in table.keys.items():
        if hmac.compare_digest(known.encode(), key):
            return seat
    raise Refused(
        403,
        "this table's seats belong to the people who joined it; open or join a table "
        "in the lobby (/play/lobby)",
    )


# -- pages -----------------------------------------------------------------------------


def _settled(moment: Moment, after: int) -> bool:
    return moment.version > after and (moment.decision is not None or moment.over is not None)


async def _moment(table: PlayTable, human: HumanSeat, after: int | None) -> Moment:
    """The first moment past ``after`` at which the person decides or the match is over,
    waiting up to WAIT_S; else the current moment (at once for None: a page opened)."""
    loop = asyncio.get_running_loop()
    until = loop.time() + WAIT_S
    moment = human.moment()
    while after is not None and not _settled(moment, after) and not table.over:
        left = until - loop.time()
        if left <= 0:
            break
        moment = await human.next_moment(moment.version, left)
    task = table.task
    if moment.over is not None and task is not None and not task.done():
        # The seat has been told the end; the table still makes its last board and
        # records the match: show the end once that is done.
        await asyncio.wait({task}, timeout=max(0.0, until - loop.time()))
    return human.moment()


def _log(table: PlayTable, seat: int) -> list[str]:
    """The match so far in words, as ``seat`` saw it: the game's replay text once over;
    while it runs, what the board told the seat at each of its decisions."""
    if seat in table.ends:
        return table.ends[seat]
    asked = table.people[seat].asked
    lines = table.logs.setdefault(seat, [])
    # Each decision's events once: a page costs the decisions since the last one shown.
    for decision in asked[table.logged.get(seat, 0) : len(asked)]:
        view = seat_moment(table.game, decision.observation, decision.events, table.names)
        lines.extend(str(line) for line in view["board"].get("events", ()))
    table.logged[seat] = len(asked)
    return lines


def _page_context(
    table: PlayTable, seat: int, moment: Moment, message: str | None
) -> dict[str, Any]:
    decision = moment.decision
    view: dict[str, Any] | None = None
    boxes = None
    if decision is not None:
        view = seat_moment(table.game, decision.observation, decision.events, table.names)
        picks = board_of(table.game).card_picks(decision.observation)
        boxes = checkboxes(picks) if picks is not None else None
    final = table.finals.get(seat)
    human = table.people[seat]
    if view is None and final is None and human.asked:
        # Between its person's decisions a page shows the board as it was at the last.
        last = human.asked[-1]
        view = {"board": seat_moment(table.game, last.observation, (), table.names)["board"]}
    left_s, bank_s = moment.clock(asyncio.get_running_loop().time())
    return {
        "table": table,
        "seat": seat,
        "human": human,
        "moment": moment,
        "decision": decision,
        "view": view if decision is not None else None,
        "picks": boxes,
        "clock": {"left_ms": round(left_s * 1000), "bank_ms": round(bank_s * 1000)},
        "log": _log(table, seat),
        "board": (view or final or {}).get("board"),
        "final": final,
        "board_template": board_template(table.game.name),
        "message": message,
        "over": table.over,
    }


async def play_page(request: Request) -> Response:
    """The person's table: the board and the legal actions when it is their turn."""
    room = room_of(request)
    by_query = admitted(request, room)
    table = _table(request, room)
    seat = _viewer(request, table)
    given = request.query_params.get("after")
    after = None if given is None else whole_number(given, "after", negative=True)
    moment = await _moment(table, table.people[seat], after)
    context = _page_context(table, seat, moment, None)
    text = await asyncio.to_thread(render, "play.html", title="Play", **context)
    return keep_token(request, HTMLResponse(text), room, by_query)


async def play_choose(request: Request) -> Response:
    """The person chose (a button, or ticked cards): take it, then show the table when
    it is their turn again."""
    room = room_of(request)
    admitted(request, room)
    posted_here(request)
    table = _table(request, room)
    seat = _viewer(request, table)
    human = table.people[seat]
    fields = await read_form(request)
    form = dict(fields)
    request_id = form_int(form, "request")
    if "choice" in form:
        problem = human.choose(request_id, form_int(form, "choice"))
    else:
        problem = _choose_cards(human, request_id, [v for k, v in fields if k == "card"], table)
    if problem is None:
        # The page at once (the choice taken, the others to play): it then waits for
        # the person's next turn itself, so the browser is never left on this post.
        return RedirectResponse(f"/play/{table.id}", status_code=303)
    context = _page_context(table, seat, human.moment(), problem)
    text = await asyncio.to_thread(render, "play.html", title="Play", **context)
    return HTMLResponse(text, status_code=409)


def _choose_cards(
    human: HumanSeat, request_id: int, ticked: list[str], table: PlayTable
) -> str | None:
    """Ticked cards as the legal actions they mean (``play_picks``); why not, in words."""
    decision = human.moment().decision
    if decision is None or decision.request_id != request_id:
        return human.choose(request_id, 0)  # says why in the seat's words
    picks = board_of(table.game).card_picks(decision.observation)
    if picks is None:
        return "this decision is not made by ticking cards; choose one of the buttons"
    chosen = picked(picks, ticked[:64])
    if isinstance(chosen, str):
        return chosen
    return human.choose(request_id, *chosen)


async def start_page(request: Request) -> Response:
    """A form that starts a table against the game's built-in bots."""
    room = room_of(request)
    by_query = admitted(request, room)
    if not room.settings.offer_builtin:
        raise Refused(404, "this arena starts no tables from the page; see arena play")
    text = await asyncio.to_thread(
        render,
        "play_start.html",
        title="Play",
        games=offered_games(room),
        openspiel=openspiel_offered(room.settings.games),
        settings=room.settings,
    )
    return keep_token(request, HTMLResponse(text), room, by_query)


async def start_table(request: Request) -> Response:
    """Start a table from the form: game, preset, players, the bots' policy, a name."""
    room = room_of(request)
    admitted(request, room)
    posted_here(request)
    if not room.settings.offer_builtin:
        raise Refused(404, "this arena starts no tables from the page; see arena play")
    form = dict(await read_form(request))
    game, config, policy = table_options(form, room)
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
    *lobby_pages.ROUTES,  # before /play/{table}: "lobby" is no table's id
    Route("/play/{table}", play_page, methods=["GET"]),
    Route("/play/{table}", play_choose, methods=["POST"]),
]
"""The human seat's pages: the only ones that take a POST (a person's own table)."""
