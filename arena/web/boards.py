"""The replay viewer on the game's board: a finished match step by step, forward and
back (links, buttons and arrow keys), from any seat's view or with everything revealed.

Secrecy is ``replays.shown_match``'s (the gRPC API's rules: never a running match, a
duplicate deal only once its group is in); a seat's step is built from ``observe()`` of
the replayed state (``arena.referee.replay_steps``). The game's fragment and stylesheet
come from its package through ``Game.board``: this module names no game.
"""

from __future__ import annotations

from typing import Any, Final

from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Route

from arena.games import CapabilityMissingError
from arena.referee.record import RecordError, decode_record, record_game
from arena.referee.replay_steps import replay_step
from arena.store import Store

from . import assets, replays
from .handling import Refused, read, source_of, whole_number
from .render import board_template, render


def step_param(text: str | None) -> int:
    """``?step=N``: a step number (absent: the first)."""
    if not text:
        return 0
    return whole_number(text, "step")


def board_step(
    store: Store, source: Any, match_id: str, seat: int | None, step: int
) -> dict[str, Any]:
    """What the step fragment renders, or Refused in words."""
    try:
        return _board_step(store, source, match_id, seat, step)
    except CapabilityMissingError:
        raise Refused(
            404, f"this game has no board; its replay is text: /match/{match_id}"
        ) from None


def match_viewer(
    store: Store, source: Any, match_id: str, seat: int | None, step: int
) -> dict[str, Any] | None:
    """The viewer the match page leads with (None: the game has no board, and the
    page shows its text replay alone); Refused as ``board_step``."""
    try:
        return _board_step(store, source, match_id, seat, step)
    except CapabilityMissingError:
        return None


def _board_step(
    store: Store, source: Any, match_id: str, seat: int | None, step: int
) -> dict[str, Any]:
    match = replays.shown_match(store, source, match_id)
    if seat is not None and not 0 <= seat < len(match.seats):
        raise Refused(400, f"seat must be 0..{len(match.seats) - 1}")
    try:
        lines = decode_record(store.record(match_id) or b"")
        game = record_game(lines)
        moment = replay_step(lines, step, seat)
    except RecordError as error:
        raise Refused(500, f"the record of {match_id!r} is unreadable: {error}") from None
    return {
        "match": match,
        "s": moment,
        "board": moment["board"],
        "game": game.name,
        "board_template": board_template(game.name),
        "view": "all" if seat is None else str(seat),
    }


def _view_and_step(request: Request) -> tuple[str, int | None, int]:
    match_id = request.path_params["match_id"]
    seat = replays.view_param(request.query_params.get("seat"))
    return match_id, seat, step_param(request.query_params.get("step"))


async def replay_page(request: Request) -> Response:
    """The replay viewer: the page, with its first step (or ``?step=``) in place."""
    match_id, seat, step = _view_and_step(request)
    source = source_of(request)

    def job(store: Store) -> str:
        context = board_step(store, source, match_id, seat, step)
        return render("replay.html", title=source.title, seat=seat, **context)

    return HTMLResponse(await read(request, job))


async def replay_step_fragment(request: Request) -> Response:
    """One step as an HTML fragment (the viewer's buttons and keys fetch it)."""
    match_id, seat, step = _view_and_step(request)
    source = source_of(request)

    def job(store: Store) -> str:
        return render("_step.html", **board_step(store, source, match_id, seat, step))

    return HTMLResponse(await read(request, job))


async def game_stylesheet(request: Request) -> Response:
    """A game's board stylesheet, from its package (``assets``: under its hashed name
    ``board.HASH.css``, cached for a year; as ``board.css``, revalidated)."""
    name = request.path_params["game"]
    file = request.path_params["file"]
    asset = assets.board_stylesheet(name)
    if asset is None:
        raise Refused(404, f"no game {name[:100]!r} with a board here")
    if file not in (asset.name, asset.hashed):
        raise Refused(404, f"no {file[:100]!r} for the game {name!r}")
    return assets.answer(
        asset, file, request.headers.get("accept-encoding"), request.headers.get("if-none-match")
    )


ROUTES: Final = [
    Route("/replay/{match_id:path}", replay_page),
    Route("/replay-step/{match_id:path}", replay_step_fragment),
    Route("/game/{game}/{file}", game_stylesheet),
]
"""The viewer's pages; GET (and HEAD) only."""
