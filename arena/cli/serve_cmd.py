"""``arena serve``: run a competition (the Arena service and a live ladder)."""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
from collections.abc import Awaitable, Callable
from typing import Any, Final

from arena.games import DEFAULT_GAME
from arena.league.config import EXECUTORS
from arena.league.executors import ExecutorError
from arena.league.rating import LADDER_TAU
from arena.referee.live import DEFAULT_DELAY_S
from arena.server.allowlist import DEFAULT_ALLOW
from arena.server.app import Companion, RunningArena, serve
from arena.server.config import (
    DEFAULT_PORT,
    DEFAULT_READ_BURST,
    DEFAULT_READ_PROCESSES,
    DEFAULT_READ_RATE,
    ServeConfig,
    ServeConfigError,
    validate,
)
from arena.store import StoreError, masked
from arena.text import ShownLogFormatter, shown

from .entrants import add_bot_ca_option
from .game_option import add_game_option
from .web_cmd import READY as WEB_READY
from .web_cmd import add_serving_options, missing_web_packages, serving_options

READY = "arena serving on {address}"
"""The first line on stdout once the arena serves (tests read the port from it)."""


def register(sub: Any) -> None:
    """Add the ``serve`` subcommand."""
    parser: argparse.ArgumentParser = sub.add_parser(
        "serve",
        help="run a competition: bot authors submit endpoints, a ladder plays them",
        description="Serve the Arena gRPC service and run a continuous, rated ladder among "
        "the submitted bots. Create owners' tokens with `arena token create`. Stop with "
        "Ctrl-C or SIGTERM; the same command on the same --db continues where it stopped. "
        "See docs/serve.md.",
    )
    parser.add_argument(
        "--db",
        required=True,
        help="database: a file (created if missing) or postgresql://USER@HOST:PORT/DB",
    )
    parser.add_argument(
        "--host",
        default="127.0.0.1",
        help="listen address (default 127.0.0.1); another than loopback needs TLS or --insecure",
    )
    parser.add_argument(
        "--insecure",
        action="store_true",
        help="serve without TLS on a host other than loopback: tokens cross the network in "
        "clear (a network you trust only)",
    )
    parser.add_argument(
        "--port", type=int, default=DEFAULT_PORT, help=f"port (default {DEFAULT_PORT}; 0: any)"
    )
    add_game_option(parser)
    parser.add_argument("--table-size", type=int, default=4, help="seats per match (default 4)")
    parser.add_argument(
        "--allow",
        action="append",
        metavar="HOST_PATTERN",
        help="hosts bot endpoints may name: address, network, name or *.glob, optionally "
        f":PORT or :LOW-HIGH; repeatable (default: {' '.join(DEFAULT_ALLOW)})",
    )
    parser.add_argument("--tls-cert", help="PEM certificate chain: serve the arena over TLS")
    parser.add_argument("--tls-key", help="PEM private key of --tls-cert")
    add_bot_ca_option(parser)
    parser.add_argument("--deadline-ms", type=int, default=1000, help="per decision (1000)")
    parser.add_argument("--max-strikes", type=int, default=3, help="faults before a forfeit (3)")
    parser.add_argument("--concurrency", type=int, default=2, help="matches at once (default 2)")
    parser.add_argument("--bot-streams", type=int, default=1, help="matches per bot at once (1)")
    parser.add_argument(
        "--placement-matches", type=int, default=3, help="first matches of a new bot (default 3)"
    )
    parser.add_argument(
        "--suspend-after",
        type=int,
        default=3,
        help="failing matches in a row (forfeited or unreachable) before suspension (3)",
    )
    parser.add_argument(
        "--submit-limit",
        type=int,
        default=10,
        help="changes (submissions, updates, retirements) per owner per minute (10)",
    )
    parser.add_argument(
        "--auth-fail-limit",
        type=int,
        default=10,
        help="failed authentications per caller address per minute before its calls with "
        "a token are refused for the rest of the minute (10)",
    )
    parser.add_argument(
        "--verify-games", type=int, default=2, help="conformance games to verify a bot (2)"
    )
    parser.add_argument(
        "--hello-timeout-s", type=float, default=3.0, help="Hello and connect timeout (3)"
    )
    parser.add_argument(
        "--grace-s", type=float, default=10.0, help="shutdown: time for running matches (10)"
    )
    parser.add_argument(
        "--max-connections",
        type=int,
        default=1000,
        help="client connections at once; more are closed at once (default 1000; never more "
        "than half the file descriptors the process may open)",
    )
    parser.add_argument(
        "--max-calls-per-address",
        type=int,
        default=32,
        help="calls at once from one client address (default 32)",
    )
    parser.add_argument(
        "--idle-timeout-s",
        type=float,
        default=60.0,
        help="close a client connection without a call for this long (default 60)",
    )
    parser.add_argument(
        "--max-connection-age-s",
        type=float,
        default=1800.0,
        help="close any client connection after this long (default 1800)",
    )
    parser.add_argument(
        "--rest-s",
        type=float,
        default=0.0,
        help="seconds a bot rests after each match before it is seated again (default 0)",
    )
    parser.add_argument(
        "--tau", type=float, default=LADDER_TAU, help=f"TrueSkill dynamics (default {LADDER_TAU})"
    )
    parser.add_argument(
        "--read-rate",
        type=float,
        default=DEFAULT_READ_RATE,
        help="reads (bots, leaderboard, matches) per second per client address "
        f"(default {DEFAULT_READ_RATE:g}; 0: no limit)",
    )
    parser.add_argument(
        "--read-burst",
        type=int,
        default=DEFAULT_READ_BURST,
        help=f"reads a client address may make at once (default {DEFAULT_READ_BURST})",
    )
    parser.add_argument(
        "--read-processes",
        type=int,
        default=DEFAULT_READ_PROCESSES,
        help="processes of their own the public reads run in, apart from the referee "
        f"(default {DEFAULT_READ_PROCESSES}; 0: threads of the arena's process)",
    )
    parser.add_argument(
        "--web-port",
        type=int,
        help="also serve the web app (live leaderboard, matches, replays) on this port "
        "(0: any free one); it reads like the gRPC reads, off the referee's loop",
    )
    parser.add_argument(
        "--web-host",
        default="127.0.0.1",
        help="the web app's listen address (default 127.0.0.1, this machine only); another "
        "than loopback needs TLS (--tls-cert serves the web app too) or --insecure",
    )
    add_serving_options(parser, "web-")
    parser.add_argument(
        "--web-play",
        action="store_true",
        help="the web app also offers /play: a person plays the game's built-in bots "
        "(recorded unrated; beyond loopback only with --play-token)",
    )
    parser.add_argument("--play-token", help="the token /play needs beyond loopback")
    parser.add_argument(
        "--web-watch-delay-s",
        type=float,
        default=DEFAULT_DELAY_S,
        help="people may follow the ladder's matches live on the web app's /live pages "
        f"(the public view only), this many seconds behind play (default "
        f"{DEFAULT_DELAY_S:g})",
    )
    parser.add_argument(
        "--web-no-watch",
        action="store_true",
        help="nobody may follow a match while it is played (the home page still lists them)",
    )
    parser.add_argument(
        "--executor",
        choices=EXECUTORS,
        default="local",
        help="where matches run: local (this process, the default), processes (local "
        "worker processes) or ray (a Ray cluster; the [ray] extra)",
    )
    parser.add_argument(
        "--workers", type=int, default=0, help="workers of processes/ray (0: one per core/CPU)"
    )
    parser.add_argument(
        "--ray-address", default="", help="HOST:PORT of a running Ray cluster (default: local)"
    )
    parser.add_argument("--quiet", action="store_true", help="log warnings only")
    parser.set_defaults(run=run)


MAX_WATCH_DELAY_S: Final = 3600.0
"""The longest delay a live page may run behind play."""


def _config(args: argparse.Namespace) -> ServeConfig:
    return ServeConfig(
        db=args.db,
        host=args.host,
        port=args.port,
        game=args.game or DEFAULT_GAME,
        preset=args.preset or "",
        table_size=args.table_size,
        deadline_ms=args.deadline_ms,
        max_strikes=args.max_strikes,
        concurrency=args.concurrency,
        bot_streams=args.bot_streams,
        placement_matches=args.placement_matches,
        suspend_after=args.suspend_after,
        allow=tuple(args.allow) if args.allow else DEFAULT_ALLOW,
        tls_cert=args.tls_cert,
        tls_key=args.tls_key,
        bot_ca=args.bot_ca,
        submit_limit=args.submit_limit,
        auth_fail_limit=args.auth_fail_limit,
        insecure=args.insecure,
        verify_games=args.verify_games,
        hello_timeout_s=args.hello_timeout_s,
        grace_s=args.grace_s,
        max_connections=args.max_connections,
        max_calls_per_address=args.max_calls_per_address,
        idle_timeout_s=args.idle_timeout_s,
        max_connection_age_s=args.max_connection_age_s,
        rest_s=args.rest_s,
        tau=args.tau,
        read_rate=args.read_rate,
        read_burst=args.read_burst,
        read_processes=args.read_processes,
        executor=args.executor,
        workers=args.workers,
        ray_address=args.ray_address,
    )


def run(args: argparse.Namespace) -> int:
    """Serve until a signal; 0 after a clean shutdown, 2 on bad settings."""
    config = _config(args)
    try:
        validate(config)
    except ServeConfigError as error:
        print(f"arena serve: {error}", file=sys.stderr)
        return 2
    # The log quotes bots' words: every line goes through arena.text.shown.
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(ShownLogFormatter("%(asctime)s %(levelname)s %(message)s"))
    logging.basicConfig(level=logging.WARNING if args.quiet else logging.INFO, handlers=[handler])

    companions: list[Companion] = []
    web_url: list[str] = []
    if not 0 <= args.web_watch_delay_s <= MAX_WATCH_DELAY_S:
        print(
            f"arena serve: --web-watch-delay-s must be 0..{MAX_WATCH_DELAY_S:g} seconds, not "
            f"{args.web_watch_delay_s:g} (--web-no-watch: nobody follows matches live)",
            file=sys.stderr,
        )
        return 2
    if args.web_port is not None:
        problem = missing_web_packages()
        if problem is not None:
            print(f"arena serve: --web-port: {problem}", file=sys.stderr)
            return 2
        try:
            web_options = serving_options(args, args.web_host, "web-")
        except ValueError as error:
            print(f"arena serve: {error}", file=sys.stderr)
            return 2

        async def web(arena: RunningArena) -> Callable[[], Awaitable[None]]:
            from arena.web.embed import start_web

            url, stop = await start_web(
                arena,
                args.web_host,
                args.web_port,
                options=web_options,
                host_names=tuple(args.web_host_name),
                play=args.web_play,
                play_token=args.play_token,
                watch_delay_s=None if args.web_no_watch else args.web_watch_delay_s,
            )
            web_url.append(url)
            return stop

        companions.append(web)

    def ready(arena: RunningArena) -> None:
        print(READY.format(address=arena.address), flush=True)
        print(
            f"  ladder {config.ladder}, database {masked(config.db)}, bots allowed on "
            f"{', '.join(config.allow)}{', TLS' if config.tls_cert else ''}",
            flush=True,
        )
        for url in web_url:
            print(WEB_READY.format(url=url), flush=True)

    try:
        asyncio.run(serve(config, on_ready=ready, companions=companions))
    except (StoreError, ExecutorError) as error:
        print(f"arena serve: {shown(str(error))}", file=sys.stderr)
        return 2
    except OSError as error:
        print(f"arena serve: {error}", file=sys.stderr)  # app.py says what to change
        return 2
    return 0
