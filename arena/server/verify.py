"""Verifying a submitted bot before it joins the ladder: Hello, then a short
conformance run (``arena check-bot``'s) at the ladder's own table (its game, preset and
table size), on a channel of its own."""

from __future__ import annotations

import logging
import secrets
from dataclasses import dataclass
from typing import Final

from arena.games import AnyGame
from arena.referee.channels import ChannelPool
from arena.referee.conformance import check_bot
from arena.referee.hello import hello, unsupported

log = logging.getLogger("arena.serve")

ARENA_FAILED: Final = (
    "the arena could not verify the bot: an error in the arena, not in the bot (the "
    "organizer's log has the details); try again later with `arena update --name NAME`"
)
"""The reason given when verifying fails for a reason of the arena's own."""


@dataclass(frozen=True, slots=True)
class Verdict:
    """The verification's outcome."""

    ok: bool
    """True if the bot may play."""
    reason: str
    """Why not, in words the author can act on."""
    version: str = ""
    """"NAME VERSION" from the bot's Hello."""


async def verify_bot(
    endpoint: str,
    *,
    game: AnyGame,
    preset: str,
    table_size: int,
    games: int,
    deadline_ms: int,
    max_strikes: int,
    hello_timeout_s: float,
    root_certificates: bytes | None,
) -> Verdict:
    """Hello (the bot must play the ladder's game, preset and table size), then ``games``
    conformance games at that table (``table_size`` seats, ``preset``: the table a ladder
    match seats the bot at) without a single fault. An error of the arena's own
    is logged and the verdict says so in words (never an exception's class name): this
    never raises but for cancellation."""
    # A fresh channel: a pooled one may still be backing off from an earlier failure.
    pool = ChannelPool(root_certificates=root_certificates)
    try:
        answer = await hello(
            pool.get(endpoint), endpoint, timeout_s=hello_timeout_s, game=game.name
        )
        if answer.error or answer.reply is None:
            return Verdict(False, f"Hello: {answer.error}")
        reply = answer.reply
        version = f"{reply.name} {reply.version}".strip()
        if why := unsupported(reply, table_size, preset):
            return Verdict(
                False,
                f"the bot cannot play this arena's ladder ({table_size} players, preset "
                f"{preset!r}): {why}",
                version,
            )
        if games == 0:
            return Verdict(True, "", version)
        report = await check_bot(
            game,
            endpoint,
            games,
            deadline_ms,
            secrets.randbits(32),  # unpredictable: a bot cannot prepare for its check
            tables=[(table_size, preset)],
            pool=pool,
            hello_timeout_s=hello_timeout_s,
            stop_after_faults=1,
            max_strikes=max_strikes,
        )
        if report.passed:
            return Verdict(True, "", version)
        if report.hello_error:
            return Verdict(False, f"Hello: {report.hello_error}", version)
        number, fault = report.faults[0]
        return Verdict(
            False,
            f"{len(report.faults)} fault(s) in conformance game {number} (deadline "
            f"{deadline_ms} ms); first: {fault.kind}: {fault.detail}. Check it with "
            "`arena check-bot ENDPOINT`, fix the bot, then `arena update --name NAME`",
            version,
        )
    except Exception:
        log.exception("verifying the bot at %s failed in the arena", endpoint)
        return Verdict(False, ARENA_FAILED)
    finally:
        await pool.close()
