"""``arena check-bot HOST:PORT``: a bot author's conformance check before submitting.

Hello must answer; then the bot plays a series of games from random seats, against
built-in random opponents, over every table size and preset (so every decision kind,
the duel's included, comes up); every fault is reported. Exit status 0 only if the bot
answered Hello and made every decision legally within its deadline.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from arena.games import abluxxen as ab
from arena.policies import RandomPolicy
from arena.referee import Fault, LocalSeat, MatchSpec, RemoteSeat, Seat, run_match
from arena.referee.channels import ChannelPool, EndpointError, parse_endpoint
from arena.referee.hello import hello

CHECK_TABLES: tuple[tuple[int, str], ...] = (
    (4, "amigo"),
    (2, "amigo"),
    (3, "amigo-expert"),
    (5, "ravensburger-2014"),
    (2, "ravensburger-2014"),
    (4, "amigo-advanced"),
)
"""Table sizes and presets the check cycles through."""


@dataclass(slots=True)
class CheckReport:
    """What a check found."""

    endpoint: str
    """The bot checked."""
    hello_error: str = ""
    """Why Hello failed, if it did."""
    name: str = ""
    """The bot's name from Hello."""
    games: int = 0
    """Games played."""
    decisions: Counter[str] = field(default_factory=Counter)
    """Decisions the bot made, by kind."""
    faults: list[tuple[int, Fault]] = field(default_factory=list)
    """Every fault, with the game it happened in."""
    slowest_ms: float = 0.0
    """The slowest answer."""

    @property
    def passed(self) -> bool:
        """True if the bot answered Hello and never faulted."""
        return not self.hello_error and not self.faults and self.games > 0


def register(sub: Any) -> None:
    """Add the ``check-bot`` subcommand."""
    parser: argparse.ArgumentParser = sub.add_parser(
        "check-bot", help="check that a bot follows the contract before you submit it"
    )
    parser.add_argument("endpoint", metavar="HOST:PORT", help="where the bot listens")
    parser.add_argument("--games", type=int, default=6, help="games to play (default 6)")
    parser.add_argument("--deadline-ms", type=int, default=1000, help="per-decision deadline")
    parser.add_argument("--seed", type=int, default=1, help="seed of shuffles and seats")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Run the check and print the report; 0 if it passed, 1 if not, 2 on bad input."""
    try:
        parse_endpoint(args.endpoint)
    except EndpointError as error:
        print(f"arena check-bot: {error}", file=sys.stderr)
        return 2
    if args.games < 1:
        print("arena check-bot: --games must be at least 1", file=sys.stderr)
        return 2
    report = asyncio.run(check_bot(args.endpoint, args.games, args.deadline_ms, args.seed))
    print_report(report)
    return 0 if report.passed else 1


async def check_bot(endpoint: str, games: int, deadline_ms: int, seed: int) -> CheckReport:
    """Hello, then ``games`` games from random seats; collect every problem."""
    report = CheckReport(endpoint)
    pool = ChannelPool()
    try:
        channel = pool.get(endpoint)
        answer = await hello(channel, endpoint)
        if answer.error:
            report.hello_error = answer.error
            return report
        assert answer.reply is not None
        report.name = answer.reply.name
        rng = random.Random(seed)
        for game in range(games):
            players, preset = CHECK_TABLES[game % len(CHECK_TABLES)]
            bot_seat = rng.randrange(players)
            seats: list[Seat] = [
                RemoteSeat("bot", channel, max_reply_bytes=4096)
                if s == bot_seat
                else LocalSeat(f"random{s}", RandomPolicy(rng.getrandbits(32)))
                for s in range(players)
            ]
            spec = MatchSpec(
                match_id=f"check-{game + 1}",
                config=ab.make_config(players, preset),
                seed=rng.getrandbits(32),
                deadline_ms=deadline_ms,
                max_strikes=0,
            )
            outcome = await run_match(spec, seats)
            report.games += 1
            for line in outcome.record:
                if line["type"] == "decision" and line["seat"] == bot_seat:
                    report.decisions[line["kind"]] += 1
                    report.slowest_ms = max(report.slowest_ms, line["ms"])
            report.faults += [(game + 1, f) for f in outcome.seats[bot_seat].faults]
        return report
    finally:
        await pool.close()


def print_report(report: CheckReport) -> None:
    """The report, plainly."""
    if report.hello_error:
        print(f"FAIL  Hello: {report.hello_error}")
        return
    print(f"ok    Hello: {report.name!r} at {report.endpoint}")
    kinds = ", ".join(f"{k} {n}" for k, n in sorted(report.decisions.items()))
    print(f"      {report.games} games, decisions: {kinds}")
    print(f"      slowest answer {report.slowest_ms:.1f} ms")
    shown = report.faults[:20]
    for game, fault in shown:
        print(f"FAIL  game {game}: {fault.kind}: {fault.detail}")
    if len(report.faults) > len(shown):
        print(f"FAIL  ... and {len(report.faults) - len(shown)} more faults")
    print("PASS" if report.passed else f"FAIL  {len(report.faults)} fault(s)")
