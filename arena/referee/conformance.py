"""The conformance run: Hello, then games against built-in random opponents.

``arena check-bot`` runs it for a bot author over ``tables_to_check``: the tables the
game lists in ``check_tables`` (so every decision kind comes up) that the bot declares,
and one table of every size the bot declares that those leave out, so no table size the
bot may be seated at goes unplayed. ``arena serve`` runs a short one at its ladder's own
table to verify a submitted bot before it joins the ladder. The bot plays from random
seats; every fault is collected with the game it happened in.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from arena.games import AnyGame
from arena.policies import RandomPolicy
from arena.v1 import bot_pb2

from .channels import ChannelPool
from .faults import Fault
from .hello import hello, unsupported
from .match import MatchSpec, run_match
from .seats import LocalSeat, RemoteSeat, Seat


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
    tables: list[tuple[int, str]] = field(default_factory=list)
    """The (players, preset) tables played, each at least once (``tables_to_check``, or
    the tables the caller chose)."""

    @property
    def passed(self) -> bool:
        """True if the bot answered Hello and never faulted."""
        return not self.hello_error and not self.faults and self.games > 0


def tables_to_check(game: AnyGame, reply: bot_pb2.HelloReply) -> list[tuple[int, str]]:
    """The (players, preset) tables a check plays for a bot whose Hello is ``reply``:
    the game's ``check_tables`` the bot declares, then, for every table size the bot
    declares (every size of the game if it declares none) that those leave out, one table
    at the game's default preset if the bot plays it, else at the first preset of the
    game's it plays. Empty if the bot declares no table of the game at all."""
    tables = [t for t in game.check_tables if not unsupported(reply, *t)]
    presets = [p for p in game.presets if not reply.presets or p in reply.presets]
    if not presets:
        return tables
    preset = game.default_preset if game.default_preset in presets else presets[0]
    played = {players for players, _ in tables}
    for players in game.table_sizes:
        if players not in played and not unsupported(reply, players, preset):
            tables.append((players, preset))
    return tables


async def check_bot(
    game: AnyGame,
    endpoint: str,
    games: int,
    deadline_ms: int,
    seed: int,
    *,
    tables: Sequence[tuple[int, str]] | None = None,
    pool: ChannelPool | None = None,
    hello_timeout_s: float = 5.0,
    stop_after_faults: int = 0,
    max_strikes: int = 0,
) -> CheckReport:
    """Hello, then ``games`` games of ``game`` from random seats, cycling through the
    tables, and at least one game at each; collect every problem.

    ``tables``: the (players, preset) tables to play (``arena serve``: its ladder's);
    default ``tables_to_check``. A table the bot does not declare is left out.

    ``pool``: reach the bot through this pool (and leave it open), e.g. one that trusts
    a CA for ``tls://`` endpoints; default: a pool of its own, closed at the end.
    ``stop_after_faults``: end the run after the game in which the bot reached this many
    faults (0 = play every game), so a broken bot is rejected quickly.
    ``max_strikes``: forfeit the bot's seat after this many faults in a game (0 = never,
    to see every fault; a few, so a bot that hangs costs a few deadlines, not a game's).
    """
    report = CheckReport(endpoint)
    own_pool = pool is None
    channels = ChannelPool() if pool is None else pool
    try:
        channel = channels.get(endpoint)
        answer = await hello(channel, endpoint, timeout_s=hello_timeout_s, game=game.name)
        if answer.error:
            report.hello_error = answer.error
            return report
        assert answer.reply is not None
        report.name = answer.reply.name
        # Only the tables the bot says (in Hello) it plays.
        asked = list(game.check_tables if tables is None else tables)
        played = (
            tables_to_check(game, answer.reply)
            if tables is None
            else [t for t in asked if not unsupported(answer.reply, *t)]
        )
        if not played:
            report.hello_error = (
                f"the bot plays none of the check's tables {asked}: "
                + unsupported(answer.reply, *asked[0])
            )
            return report
        report.tables = played
        rng = random.Random(seed)
        for number in range(max(games, len(played))):
            players, preset = played[number % len(played)]
            bot_seat = rng.randrange(players)
            seats: list[Seat] = [
                RemoteSeat("bot", channel, max_reply_bytes=4096)
                if s == bot_seat
                # On the loop: a uniform pick costs microseconds and cannot block, and
                # a verification's virtual-clock tests count on its taking no time.
                else LocalSeat(f"random{s}", RandomPolicy(rng.getrandbits(32)))
                for s in range(players)
            ]
            spec = MatchSpec(
                match_id=f"check-{number + 1}",
                config=game.make_config(players, preset),
                seed=rng.getrandbits(32),
                deadline_ms=deadline_ms,
                max_strikes=max_strikes,
                game=game,
            )
            outcome = await run_match(spec, seats)
            report.games += 1
            for line in outcome.record:
                if line["type"] == "decision" and line["seat"] == bot_seat:
                    report.decisions[line["kind"]] += 1
                    report.slowest_ms = max(report.slowest_ms, line["ms"])
            report.faults += [(number + 1, f) for f in outcome.seats[bot_seat].faults]
            if stop_after_faults and len(report.faults) >= stop_after_faults:
                break
        return report
    finally:
        if own_pool:
            await channels.close()
