"""``arena play --bot ...``: play a match yourself, in the browser, against bots.

Starts the web app on loopback (a free port unless ``--port``), seats the person and the
bots (remote ones say Hello first, as in ``arena match``), prints the table's address and
serves until Ctrl-C. The match is recorded in ``--db`` (``--rated``: on the opt-in ladder
``play/GAME/PRESET/Np``). Listening beyond loopback needs a token: ``--play-token``, or one
is made and printed in the address.
"""

from __future__ import annotations

import argparse
import random
import secrets
import sys
from typing import Any, Final

from arena.games import InvalidOptionsError
from arena.league.config import DEFAULT_DB
from arena.names import BadNameError, check_name
from arena.policies.registry import refused_at_table
from arena.referee.human import DEFAULT_THINK_S

from .entrants import EntrantError, add_bot_ca_option, bot_roots, parse_entrants
from .game_option import GameOptionError, add_game_option, chosen_game, chosen_preset
from .web_cmd import add_serving_options, missing_web_packages, serving_options

READY: Final = "arena play: your table is at {url}"
"""Printed once the table is ready (tests read the address from it)."""


def register(sub: Any) -> None:
    """Add the ``play`` subcommand."""
    parser: argparse.ArgumentParser = sub.add_parser(
        "play",
        help="play a match yourself in the browser against bots",
        description="Play a match in the browser against bots: the arena seats you and the "
        "bots, prints your table's address and serves it until Ctrl-C. Your page offers "
        "exactly your legal actions. The match is recorded in --db (rated on the ladder "
        "play/GAME/PRESET/Np with --rated). See docs/web.md.",
    )
    parser.add_argument(
        "--bot",
        action="append",
        required=True,
        metavar="SPEC",
        help="an opponent, as in arena match: NAME=HOST:PORT, or random / greedy (the "
        "game's built-in bots); one per seat besides yours",
    )
    add_game_option(parser)
    parser.add_argument("--name", default="you", help="your name at the table (default you)")
    parser.add_argument("--seat", type=int, default=0, help="your seat, from 0 (default 0)")
    parser.add_argument(
        "--think-s",
        type=float,
        default=DEFAULT_THINK_S,
        help=f"your time per decision in seconds (default {DEFAULT_THINK_S:g})",
    )
    parser.add_argument(
        "--deadline-ms", type=int, default=1000, help="the bots' deadline per decision"
    )
    add_bot_ca_option(parser)
    parser.add_argument("--db", default=DEFAULT_DB, help=f"record here (default {DEFAULT_DB})")
    parser.add_argument(
        "--rated", action="store_true", help="rate the match on the ladder play/GAME/PRESET/Np"
    )
    parser.add_argument("--seed", type=int, help="the deal's seed (default: unguessable)")
    parser.add_argument(
        "--host", default="127.0.0.1", help="listen address (default 127.0.0.1, this machine only)"
    )
    parser.add_argument("--port", type=int, default=0, help="port (default 0: any free one)")
    add_serving_options(parser)
    parser.add_argument(
        "--play-token",
        help="the token a browser beyond loopback must bring (default: one is made when "
        "--host is not a loopback address)",
    )
    parser.set_defaults(run=run)


def _fail(message: str) -> int:
    print(f"arena play: {message}", file=sys.stderr)
    return 2


def run(args: argparse.Namespace) -> int:
    """Check the options, start the app and the table, serve until Ctrl-C."""
    problem = missing_web_packages()
    if problem is not None:
        return _fail(problem)
    try:
        game = chosen_game(args.game)
        preset = chosen_preset(game, args.preset)
        entrants = parse_entrants(args.bot, game.policies, game.unavailable_policies)
        roots = bot_roots(args)
        players = len(entrants) + 1
        config = game.make_config(players, preset)
    except (EntrantError, GameOptionError, InvalidOptionsError) as error:
        return _fail(str(error))
    if why := refused_at_table(game, [e.builtin for e in entrants if e.builtin], config):
        return _fail(why)
    if game.board is None:
        return _fail(f"{game.title} has no board to play on in the browser")
    if not 0 <= args.seat < players:
        return _fail(f"--seat must be 0..{players - 1} at a table of {players}")
    if not args.think_s > 0 or args.deadline_ms <= 0:
        return _fail("--think-s and --deadline-ms must be more than 0")
    try:
        check_name(args.name)
    except BadNameError as error:
        return _fail(f"--name: {error}")
    if any(e.name == args.name for e in entrants):
        return _fail(f"a bot is already named {args.name!r}; choose another --name")
    from arena.web.server import is_loopback

    loopback = is_loopback(args.host)
    token = args.play_token or (None if loopback else secrets.token_urlsafe(18))

    from arena.referee.channels import ChannelPool
    from arena.store import StoreError, open_store
    from arena.web.app import create_app
    from arena.web.guards import allowed_hosts
    from arena.web.play_room import PlayRoom, PlaySettings
    from arena.web.server import bind
    from arena.web.server import run as serve
    from arena.web.source import database_source

    from .match_cmd import entrant_seats

    try:
        options = serving_options(args, args.host)
        open_store(args.db).close()  # creates it, or says plainly that it is no arena database
        sock = bind(args.host, args.port)
    except (ValueError, StoreError, OSError) as error:
        return _fail(str(error))
    settings = PlaySettings(
        think_s=args.think_s,
        deadline_ms=args.deadline_ms,
        token=token,
        loopback=loopback,
        db=args.db,
        rated=args.rated,
        offer_builtin=False,
    )
    room = PlayRoom(settings)
    hosts = allowed_hosts(loopback, tuple(args.host_name))
    app = create_app(database_source(args.db), hosts=hosts, play=room)

    async def ready(url: str) -> None:
        pool = ChannelPool(root_certificates=roots)
        try:
            seats = await entrant_seats(
                game,
                entrants,
                pool,
                random.Random(args.seed),
                players=players,
                preset=preset,
            )
        except BaseException:
            await pool.close()
            raise
        table = room.start(
            game,
            config,
            seats,
            name=args.name,
            seat=args.seat,
            seed=args.seed,
            closers=[pool.close],
        )
        query = f"?token={token}" if token is not None else ""
        print(READY.format(url=f"{url}/play/{table.id}{query}"), flush=True)

    try:
        serve(app, sock, ready, options)
    except EntrantError as error:
        return _fail(str(error))
    return 0
