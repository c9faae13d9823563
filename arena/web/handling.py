"""What every route handler shares: the error in plain words (``Refused``), strict
numbers from the address, the app's source, and the read pool every handler hands its
read (and its rendering) to. The route modules (``pages``, ``boards``, ``play_pages``,
``owners``, ``replays``) import it; ``app`` builds the routes from them, so the imports
run one way: app -> pages -> handling."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Final, TypeVar

from starlette.exceptions import HTTPException
from starlette.requests import Request

from arena.store import Store

from .source import WebSource

T = TypeVar("T")


class Refused(HTTPException):
    """A request answered with an error status and a message in plain words."""


_WHOLE: Final = re.compile(r"[0-9]{1,9}")
_SIGNED: Final = re.compile(r"-?[0-9]{1,9}")


def whole_number(text: str, what: str, *, negative: bool = False) -> int:
    """``text`` as a number of at most 9 ASCII digits (with ``negative``, after an
    optional ``-``); Refused (400) otherwise, naming ``what``. ``int()`` alone would take
    other scripts' digits and fail on others that ``str.isdigit`` admits (``²``)."""
    if (_SIGNED if negative else _WHOLE).fullmatch(text) is None:
        raise Refused(400, f"{what} must be a whole number (0, 1, 2, ...), not {text[:20]!r}")
    return int(text)


def source_of(request: Request) -> WebSource:
    """The app's source."""
    source: WebSource = request.app.state.source
    return source


async def read(request: Request, job: Callable[[Store], T]) -> T:
    """``job(store)`` on the read pool (503 while the pool has all it takes)."""
    source = source_of(request)
    if source.reads.busy:
        raise Refused(503, "the arena is answering many reads at the moment; try again in a second")
    return await source.reads.run(job)
