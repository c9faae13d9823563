"""Submitted bots in a lobby table's empty seats: the bots registered in the arena's
database (``arena.store.registry``, status active), each asked Hello first, as
``arena match`` asks a remote bot, and seated only if it takes this game, table size and
preset. Their endpoints are used, never shown.
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Final

from arena.games import AnyGame
from arena.referee import RemoteSeat, Seat
from arena.referee.channels import ChannelPool
from arena.referee.hello import hello, unsupported
from arena.store import open_store
from arena.store.registry import BotEntry, BotStatus, bot_page

SUBMITTED: Final = "submitted"
"""The lobby form's choice of submitted bots for the empty seats."""
LOOKED_AT: Final = 200
"""Submitted bots read to choose from (one indexed page): the read stays bounded."""
ASKED: Final = 12
"""Bots asked Hello at most for one table (each waits up to HELLO_S)."""
HELLO_S: Final = 3.0


def _active(db: str | Path) -> list[BotEntry]:
    store = open_store(db, read_only=True)
    try:
        return [b for b in bot_page(store, limit=LOOKED_AT) if b.status is BotStatus.ACTIVE]
    finally:
        store.close()


async def submitted_seats(
    db: str | Path,
    game: AnyGame,
    config: object,
    count: int,
    taken: list[str],
    pool: ChannelPool,
) -> list[Seat] | str:
    """``count`` seats of submitted bots (none named as ``taken``), chosen at random
    among the active ones that take this table; or why not, in words."""
    bots = [b for b in await asyncio.to_thread(_active, db) if b.name not in taken]
    random.SystemRandom().shuffle(bots)
    players, preset = game.players_of(config), game.preset_of(config) or ""
    seats: list[Seat] = []
    for bot in bots[:ASKED]:
        if len(seats) == count:
            break
        channel = pool.get(bot.endpoint)
        answer = await hello(channel, bot.endpoint, HELLO_S, game=game.name)
        if answer.error or answer.reply is None:
            continue
        if unsupported(answer.reply, players, preset, game.name):
            continue
        seats.append(RemoteSeat(bot.name, channel, max_reply_bytes=4096))
    if len(seats) < count:
        return (
            f"only {len(seats)} submitted bots could take a seat at this table, not "
            f"{count}: start it with built-in bots, or when more people have joined"
        )
    return seats
