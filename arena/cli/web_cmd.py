"""``arena web``: the web app (leaderboards, charts, matches, replays) over a database."""

from __future__ import annotations

import argparse
import importlib.util
import sys
from typing import Any, Final

from arena.league.config import DEFAULT_DB

READY: Final = "arena web serving on {url}"
"""The first line on stdout once the app serves (tests read the address from it)."""
DEFAULT_PORT: Final = 8080
WEB_PACKAGES: Final = ("starlette", "uvicorn", "jinja2", "plotly")
"""What the web app imports (the ``web`` extra)."""


def missing_web_packages() -> str | None:
    """Why the web app cannot run here (a package of the ``web`` extra is missing), or
    None."""
    missing = [name for name in WEB_PACKAGES if importlib.util.find_spec(name) is None]
    if not missing:
        return None
    return (
        f"the web app needs {', '.join(missing)}, which {'is' if len(missing) == 1 else 'are'} "
        "not installed; install the arena's web extra: pip install -e '.[web]' in the "
        "arena's checkout (./scripts/setup does it)"
    )


def register(sub: Any) -> None:
    """Add the ``web`` subcommand."""
    parser: argparse.ArgumentParser = sub.add_parser(
        "web",
        help="serve the web app (leaderboards, charts, matches, replays) over a database",
        description="Serve the web app over a league or arena database: each ladder's live "
        "leaderboard, rating chart and head-to-head, the matches with filters, each bot's "
        "page and each finished match. Read-only. See docs/web.md.",
    )
    parser.add_argument("--db", default=DEFAULT_DB, help=f"database (default {DEFAULT_DB})")
    parser.add_argument(
        "--host", default="127.0.0.1", help="listen address (default 127.0.0.1, this machine only)"
    )
    parser.add_argument(
        "--port", type=int, default=DEFAULT_PORT, help=f"port (default {DEFAULT_PORT}; 0: any)"
    )
    parser.add_argument(
        "--play-token",
        help="the token a browser must bring to play at /play when --host is not a loopback "
        "address (without one, /play is served on loopback only)",
    )
    parser.add_argument(
        "--rated-play",
        action="store_true",
        help="rate the matches people play at /play (ladder play/GAME/PRESET/Np)",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Serve until Ctrl-C."""
    problem = missing_web_packages()
    if problem is not None:
        print(f"arena web: {problem}", file=sys.stderr)
        return 2
    from arena.store import StoreError, open_store
    from arena.web.app import create_app
    from arena.web.server import bind
    from arena.web.server import run as serve
    from arena.web.source import database_source

    try:
        open_store(args.db, read_only=True).close()  # says plainly if it is no arena database
        sock = bind(args.host, args.port)
    except (StoreError, OSError) as error:
        print(f"arena web: {error}", file=sys.stderr)
        return 2
    from arena.web.play_room import PlayRoom, PlaySettings
    from arena.web.server import is_loopback

    room = PlayRoom(
        PlaySettings(
            token=args.play_token,
            loopback=is_loopback(args.host),
            db=args.db,
            rated=args.rated_play,
        )
    )
    app = create_app(database_source(args.db), play=room)

    def ready(url: str) -> None:
        print(READY.format(url=url), flush=True)

    serve(app, sock, ready)
    return 0
