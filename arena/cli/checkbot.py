"""``arena check-bot HOST:PORT``: a bot author's conformance check before submitting.

Hello must answer; then the bot plays a series of games of ``--game`` from random seats,
against built-in random opponents, over the tables the game lists for the check (so every
decision kind comes up) and at every table size the bot declares (every size of the game
if it declares none), at least one game at each table; every fault is reported. Exit
status 0 only if the bot answered Hello and made every decision legally within its
deadline.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from typing import Any

from arena.referee.channels import ChannelPool, EndpointError, parse_bot_endpoint
from arena.referee.conformance import CheckReport, check_bot
from arena.referee.faults import Fault, FaultKind
from arena.text import shown

from .entrants import EntrantError, add_bot_ca_option, bot_roots
from .game_option import GameOptionError, add_game_option, chosen_game
from .match_cmd import MAX_LIMIT

__all__ = ["CheckReport", "check_bot", "print_report", "register", "run"]


def register(sub: Any) -> None:
    """Add the ``check-bot`` subcommand."""
    parser: argparse.ArgumentParser = sub.add_parser(
        "check-bot", help="check that a bot follows the contract before you submit it"
    )
    parser.add_argument(
        "endpoint",
        metavar="HOST:PORT",
        help="where the bot listens; tls://HOST:PORT for a bot that serves TLS",
    )
    add_bot_ca_option(parser)
    add_game_option(parser, preset=False)
    parser.add_argument("--games", type=int, default=6, help="games to play (default 6)")
    parser.add_argument(
        "--deadline-ms", type=int, default=1000, help="per-decision deadline (default 1000)"
    )
    parser.add_argument("--seed", type=int, default=1, help="seed of shuffles and seats")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Run the check and print the report; 0 if it passed, 1 if not, 2 on bad input."""
    try:
        chosen_game(args.game)
        _, _, tls = parse_bot_endpoint(args.endpoint)
    except (EndpointError, GameOptionError) as error:
        print(f"arena check-bot: {error}", file=sys.stderr)
        return 2
    if args.games < 1:
        print("arena check-bot: --games must be at least 1", file=sys.stderr)
        return 2
    if args.deadline_ms < 1:
        print(
            f"arena check-bot: --deadline-ms {args.deadline_ms} must be positive", file=sys.stderr
        )
        return 2
    if args.deadline_ms > MAX_LIMIT:  # an int32 field of MatchStart
        print(
            f"arena check-bot: --deadline-ms {args.deadline_ms} must be at most {MAX_LIMIT}",
            file=sys.stderr,
        )
        return 2
    roots = None
    if args.bot_ca:
        if not tls:
            print(
                "arena check-bot: --bot-ca is for a bot that serves TLS; "
                f"write the endpoint as tls://{args.endpoint}",
                file=sys.stderr,
            )
            return 2
        try:
            roots = bot_roots(args)
        except EntrantError as error:
            print(f"arena check-bot: {error}", file=sys.stderr)
            return 2
    report = asyncio.run(_check(args, roots))
    print_report(report)
    return 0 if report.passed else 1


async def _check(args: argparse.Namespace, roots: bytes | None) -> CheckReport:
    pool = ChannelPool(root_certificates=roots)
    try:
        return await check_bot(
            chosen_game(args.game),
            args.endpoint,
            args.games,
            args.deadline_ms,
            args.seed,
            pool=pool,
        )
    finally:
        await pool.close()


def print_report(report: CheckReport) -> None:
    """The report, plainly."""
    if report.hello_error:
        print(f"FAIL  Hello: {shown(report.hello_error)}")
        return
    print(f"ok    Hello: '{shown(report.name)}' at {shown(report.endpoint)}")
    kinds = ", ".join(f"{k} {n}" for k, n in sorted(report.decisions.items()))
    tables = ", ".join(f"{players}p {preset}" for players, preset in report.tables)
    print(f"      {report.games} games at the tables: {tables}")
    print(f"      decisions: {kinds}")
    print(f"      slowest answer {report.slowest_ms:.1f} ms")
    lines = fault_lines(report.faults)
    for line in lines[:20]:
        print(line)
    if len(lines) > 20:
        print(f"FAIL  ... and {len(lines) - 20} more lines")
    print("PASS" if report.passed else f"FAIL  {len(report.faults)} fault(s)")


def fault_lines(faults: list[tuple[int, Fault]]) -> list[str]:
    """One line per fault, except that the faults of a stream already broken (every
    later decision of that game: "the stream is closed") fold into one line per game, so
    the first cause of each game stays in view."""
    lines: list[str] = []
    folds: dict[int, tuple[int, int]] = {}  # game -> (its fold line, faults folded)
    for game, fault in faults:
        if fault.kind == FaultKind.DISCONNECTED and fault.detail.startswith("the stream is closed"):
            at, count = folds.get(game, (len(lines), 0))
            if at == len(lines):
                lines.append("")
            folds[game] = (at, count + 1)
            lines[at] = (
                f"FAIL  game {game}: {count + 1} later decision(s) DISCONNECTED, the stream "
                "being closed (played by fallback)"
            )
        else:
            lines.append(shown(f"FAIL  game {game}: {fault.kind}: {fault.detail}"))
    return lines
