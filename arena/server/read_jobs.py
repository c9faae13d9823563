"""The public reads' work, as plain functions of a read-only Store and picklable values,
so that they can run in the read processes (``read_processes``) as well as on the
read threads: reading the rows, building the reply's protobuf messages and serializing
them, which is where a read's CPU goes. What only the arena's own process knows (its
page tokens' secret, the matches each bot has played since it started, the kept rank
intervals, the matches being played) is passed in or done by the caller.

A page comes back as the serialized bytes of a reply holding only its rows (``Page``):
the caller sends them on with its own fields (``arena.server.wire``) and neither
unpickles, builds nor serializes a message per row on the arena's event loop.
"""

from __future__ import annotations

import json
from collections.abc import Mapping

import grpc

from arena.league.intervals import RankInterval
from arena.league.leaderboard import standing_row, with_interval
from arena.referee.record import RecordError, decode_record
from arena.referee.replay import replay_lines
from arena.store import Store
from arena.store.registry import BotStatus, bot_page
from arena.store.rows import standing_key
from arena.v1 import arena_pb2

from .views import bot_message, finished_match, leaderboard_row

Scalar = str | int | float | bool
Page = tuple[bytes, list[Scalar] | None]
"""A page's rows as a serialized reply of those rows alone, and the position after its
last (None: the list ends)."""


def bots(
    store: Store,
    owner: str | None,
    after: str | None,
    size: int,
    viewer: str | None,
    played: Mapping[str, int],
) -> Page:
    """A page of submitted bots (endpoints only to their owner ``viewer``): a
    ``ListBotsReply`` of its ``bots``."""
    found = bot_page(store, owner, after=after, limit=size + 1)
    more = len(found) > size
    found = found[:size]
    messages = [
        bot_message(b, matches=played.get(b.name, 0), show_endpoint=viewer == b.owner)
        for b in found
    ]
    reply = arena_pb2.ListBotsReply(bots=messages).SerializeToString()
    return reply, [found[-1].name] if more else None


def leaderboard(
    store: Store,
    ladder: str,
    after: tuple[float, str, int] | None,
    size: int,
    include_retired: bool,
    intervals: Mapping[str, RankInterval],
) -> Page:
    """A page of the ladder's standings, best first, with the rank intervals given: a
    ``GetLeaderboardReply`` of its ``rows``."""
    standings = store.standings(
        ladder,
        after=(after[0], after[1]) if after else None,
        limit=size + 1,
        include_retired=include_retired,
    )
    more = len(standings) > size
    standings = standings[:size]
    first = after[2] + 1 if after else 1  # ranks go on from the previous page
    ranked = [
        with_interval(standing_row(rank, standing.rating, standing.stats), intervals)
        for rank, standing in enumerate(standings, start=first)
    ]
    rows = [
        leaderboard_row(row, BotStatus(standing.status) if standing.status else None)
        for row, standing in zip(ranked, standings, strict=True)
    ]
    reply = arena_pb2.GetLeaderboardReply(rows=rows).SerializeToString()
    if not more:
        return reply, None
    last = standings[-1].rating
    return reply, [standing_key(last.mu, last.sigma), last.bot, first + size - 1]


def matches(
    store: Store,
    league_id: str,
    bot: str | None,
    before: tuple[float, int] | None,
    limit: int,
) -> Page:
    """A page of the league's finished matches (of one bot), newest first: a
    ``ListMatchesReply`` of its ``matches``."""
    rows = store.match_page(league_id, bot=bot, before=before, limit=limit + 1)
    more = len(rows) > limit
    rows = rows[:limit]
    position: list[Scalar] | None = [rows[-1].finished_at, rows[-1].idx] if more else None
    reply = arena_pb2.ListMatchesReply(matches=[finished_match(row) for row in rows])
    return reply.SerializeToString(), position


def match(
    store: Store, league_id: str, match_id: str, seat: int | None
) -> bytes | tuple[grpc.StatusCode, str]:
    """A finished match of the league, as ``seat`` saw it (None: everything, with its
    record), as a serialized ``GetMatchReply``; or why not (a status and words). Read,
    decoded and serialized here: a record is tens of kB of JSON once unpacked."""
    row = store.match(match_id)
    # Only this arena's ladder: another league in the database may still replay a
    # duplicate deal, whose record must not be out before it has been played.
    if row is None or row.league_id != league_id:
        return (
            grpc.StatusCode.NOT_FOUND,
            f"no finished match {match_id!r} on this arena; list them with "
            "ListMatches (arena matches --arena HOST:PORT)",
        )
    try:
        lines = decode_record(store.record(match_id) or b"")
    except RecordError as error:
        return grpc.StatusCode.DATA_LOSS, f"the record of {match_id!r} is unreadable: {error}"
    reply = arena_pb2.GetMatchReply(match=finished_match(row))
    if seat is not None:
        if not 0 <= seat < len(row.seats):
            return grpc.StatusCode.INVALID_ARGUMENT, f"seat must be 0..{len(row.seats) - 1}"
        reply.replay.extend(replay_lines(lines, seat))
    else:
        reply.replay.extend(replay_lines(lines, None))
        reply.record_json.extend(json.dumps(line, separators=(",", ":")) for line in lines)
    return reply.SerializeToString()
