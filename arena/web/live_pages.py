"""Matches people follow as they are played (``/live/ID``): the game's public board
(``Board.public_view``: what every seat may see, nothing only some seats may), a few
seconds behind play (``WebSource.watch_delay_s``, the organiser's choice), refreshed by
the page about once a second. Only matches the source says are watchable
(``WebSource.watching``: ``arena serve``'s own ladder matches; never a duplicate deal,
which ``arena serve`` does not play) and only while they are played; after, the page
points to the replay, shown under the replay rules.
"""

from __future__ import annotations

from typing import Any, Final

from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Route

from arena.games import CapabilityMissingError
from arena.referee.live import LiveMatch
from arena.store import Store

from .handling import Refused, read, source_of
from .render import board_template, render

REFRESH_MS: Final = 1000
"""How often a live page asks for the board again."""


def _moment(match: LiveMatch, delay_s: float) -> dict[str, Any]:
    """What the board fragment renders: the public board ``delay_s`` behind play."""
    try:
        board, shown = match.public_view(delay_s)
    except (LookupError, CapabilityMissingError):
        raise Refused(404, f"{match.game.title} matches cannot be followed live here") from None
    return {
        "match_id": match.match_id,
        "names": match.names,
        "board": board,
        "shown": shown,
        "delay_s": delay_s,
        "board_template": board_template(match.game.name),
        "game": match.game.name,
    }


async def _live(request: Request, template: str) -> Response:
    match_id = request.path_params["match_id"]
    source = source_of(request)
    match = source.watching(match_id)
    if match is None:
        if match_id in source.running():
            raise Refused(404, "this match is being played, but not where it can be followed")
        over = render("_live_board.html", match_id=match_id, over=True)
        if template == "_live_board.html":
            return HTMLResponse(over)
        raise Refused(404, f"no match {match_id!r} is being played here now")
    delay_s = source.watch_delay_s

    def job(_store: Store) -> str:
        context = _moment(match, delay_s)
        return render(template, title=source.title, refresh_ms=REFRESH_MS, **context)

    return HTMLResponse(await read(request, job))


async def live_page(request: Request) -> Response:
    """A match being played, on its public board, behind play by the organiser's delay."""
    return await _live(request, "live.html")


async def live_board(request: Request) -> Response:
    """The board fragment the live page fetches again and again (once the match is
    over: a pointer to its replay)."""
    return await _live(request, "_live_board.html")


ROUTES: Final = [
    Route("/live/{match_id:path}", live_page),
    Route("/live-board/{match_id:path}", live_board),
]
"""GET (and HEAD) only."""
