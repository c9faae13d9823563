"""Templates: Jinja2 with autoescaping, and every shown string made visible.

Autoescaping makes ``<script>`` and quotes text; ``finalize`` also passes every string
an expression prints through ``arena.text.shown``, so control, bidirectional and
invisible characters (which would reorder or hide what is around them) show as visible
escapes, as in the terminal. Both apply to every ``{{ ... }}``: no template can forget.
"""

from __future__ import annotations

import datetime
from functools import cache
from typing import Any

from jinja2 import ChoiceLoader, Environment, FunctionLoader, PackageLoader, select_autoescape
from markupsafe import Markup

from arena.games import UnknownGameError, get
from arena.text import shown

from . import assets
from .ladders import ended

GAME_BOARD_PREFIX = "game/"
"""Templates named ``game/NAME/board.html`` are the game NAME's board fragment, which its
package ships (``Game.board.template()``)."""


def _finalize(value: Any) -> Any:
    if isinstance(value, str) and not isinstance(value, Markup):
        return shown(value)
    return value


def _game_board(name: str) -> str | None:
    """The board fragment of ``game/NAME/board.html`` (None: no such template)."""
    parts = name.split("/")
    if len(parts) != 3 or parts[0] + "/" != GAME_BOARD_PREFIX or parts[2] != "board.html":
        return None
    try:
        board = get(parts[1]).board
    except UnknownGameError:
        return None
    return None if board is None else board.template()


def board_template(game: str) -> str:
    """The template name of ``game``'s board fragment."""
    return f"{GAME_BOARD_PREFIX}{game}/board.html"


def when(unix_s: float) -> str:
    """A moment as people read it: ``2026-11-29 02:14 UTC``."""
    return datetime.datetime.fromtimestamp(unix_s, datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")


def iso(unix_s: float) -> str:
    """A moment for ``<time datetime>``: ISO 8601, UTC, to the second."""
    moment = datetime.datetime.fromtimestamp(unix_s, datetime.UTC).replace(microsecond=0)
    return moment.isoformat().replace("+00:00", "Z")


@cache
def environment() -> Environment:
    """The app's template environment (one per process; rendering is thread-safe)."""
    env = Environment(
        loader=ChoiceLoader([PackageLoader("arena.web", "templates"), FunctionLoader(_game_board)]),
        autoescape=select_autoescape(default=True, default_for_string=True),
        finalize=_finalize,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["num"] = lambda value, places=2: f"{value:.{places}f}"
    env.filters["when"] = when
    env.filters["iso"] = iso
    env.filters["ended"] = ended
    env.globals["static_url"] = assets.url
    env.globals["board_css_url"] = assets.board_css_url
    return env


def render(template: str, **context: Any) -> str:
    """``template`` rendered with ``context``."""
    return environment().get_template(template).render(**context)
