"""``arena web``: the web app (leaderboards, charts, matches, replays) over a database."""

from __future__ import annotations

import argparse
import importlib.util
import sys
from typing import TYPE_CHECKING, Any, Final

from arena.league.config import DEFAULT_DB

if TYPE_CHECKING:
    from arena.web.server import WebOptions

READY: Final = "arena web serving on {url}"
"""The first line on stdout once the app serves (tests read the address from it)."""
DEFAULT_PORT: Final = 8080
DEFAULT_MAX_CONNECTIONS: Final = 256
DEFAULT_IDLE_TIMEOUT_S: Final = 10.0
WEB_PACKAGES: Final = ("starlette", "uvicorn", "jinja2")
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


def add_serving_options(parser: argparse.ArgumentParser, prefix: str = "") -> None:
    """The options of how the web app is served: the names it answers, its connections
    and its timeout; ``prefix`` (``web-``) names them inside ``arena serve``, whose
    --tls-cert, --tls-key and --insecure serve the web app too."""
    parser.add_argument(
        f"--{prefix}host-name",
        action="append",
        default=[],
        metavar="NAME",
        help="a name the web app is asked under besides loopback's (a proxy in front of "
        "it that passes on the browser's Host); repeatable. Requests naming another "
        "host are refused (on loopback; beyond it, only once a name is given)",
    )
    parser.add_argument(
        f"--{prefix}max-connections",
        type=int,
        default=DEFAULT_MAX_CONNECTIONS,
        help="web connections at once; more are closed at once (default "
        f"{DEFAULT_MAX_CONNECTIONS}; never more than an eighth of the file descriptors "
        "the process may open)",
    )
    parser.add_argument(
        f"--{prefix}idle-timeout-s",
        type=float,
        default=DEFAULT_IDLE_TIMEOUT_S,
        help="close a web connection that has not sent a whole request this long after "
        f"it opened or its last answer (default {DEFAULT_IDLE_TIMEOUT_S:g})",
    )
    if prefix:
        return
    parser.add_argument("--tls-cert", help="PEM certificate chain: serve the app over HTTPS")
    parser.add_argument("--tls-key", help="PEM private key of --tls-cert")
    parser.add_argument(
        "--insecure",
        action="store_true",
        help="serve plain HTTP on a host other than loopback: the play token crosses the "
        "network in clear (a network you trust only)",
    )


def serving_options(args: argparse.Namespace, host: str, prefix: str = "") -> WebOptions:
    """The web app's ``WebOptions`` from ``add_serving_options``'s options (and the TLS
    ones); ValueError in words if they do not go together or with listening on ``host``
    (beyond loopback only over TLS or with --insecure)."""
    from arena.web.server import WebOptions, options_problem, plain_http_problem

    attr = prefix.replace("-", "_")
    options = WebOptions(
        max_connections=getattr(args, f"{attr}max_connections"),
        idle_timeout_s=getattr(args, f"{attr}idle_timeout_s"),
        tls_cert=args.tls_cert,
        tls_key=args.tls_key,
    )
    problem = options_problem(options, prefix) or plain_http_problem(
        host, options.tls, args.insecure, f"--{prefix}host"
    )
    if problem is not None:
        raise ValueError(problem)
    return options


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
    add_serving_options(parser)
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
    from arena.web.guards import allowed_hosts
    from arena.web.server import bind, is_loopback
    from arena.web.server import run as serve
    from arena.web.source import database_source

    try:
        options = serving_options(args, args.host)
        open_store(args.db, read_only=True).close()  # says plainly if it is no arena database
        sock = bind(args.host, args.port)
    except (ValueError, StoreError, OSError) as error:
        print(f"arena web: {error}", file=sys.stderr)
        return 2
    from arena.web.play_room import PlayRoom, PlaySettings

    room = PlayRoom(
        PlaySettings(
            token=args.play_token,
            loopback=is_loopback(args.host),
            db=args.db,
            rated=args.rated_play,
        )
    )
    hosts = allowed_hosts(is_loopback(args.host), tuple(args.host_name))
    app = create_app(database_source(args.db), hosts=hosts, play=room)

    def ready(url: str) -> None:
        print(READY.format(url=url), flush=True)

    serve(app, sock, ready, options)
    return 0
