"""MatchStart and MatchOver (``messages.py``): built for the seats that read them, empty
for those that say they do not, the same record either way, and the per-table part of
MatchStart never shared between seats or matches."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from arena.games import get
from arena.games.openspiel.result import OpenSpielResult
from arena.policies import RandomPolicy
from arena.referee import LocalSeat, MatchOutcome, MatchSpec, run_match
from arena.referee.record import decode_record, encode_record
from arena.referee.seats import Decision, Reply
from arena.v1 import bot_pb2

KUHN = "openspiel:kuhn_poker"


class _Reader:
    """A seat that reads its messages (it says nothing about them) and keeps them; it
    decides as a random policy."""

    def __init__(self, name: str, seed: int) -> None:
        self.name = name
        self._policy = LocalSeat(name, RandomPolicy(seed))
        self.starts: list[bot_pb2.MatchStart] = []
        self.overs: list[bot_pb2.MatchOver] = []

    async def open(self, start: bot_pb2.MatchStart, timeout_s: float) -> None:
        self.starts.append(start)

    async def decide(self, decision: Decision) -> Reply:
        return await self._policy.decide(decision)

    async def close(self, over: bot_pb2.MatchOver, timeout_s: float) -> None:
        self.overs.append(over)


class _NonReader(_Reader):
    reads_messages = False


class _Vandal(_Reader):
    """Reads its MatchStart, then scribbles over it (as a seat may: it is its own)."""

    async def open(self, start: bot_pb2.MatchStart, timeout_s: float) -> None:
        self.starts.append(bot_pb2.MatchStart.FromString(start.SerializeToString()))
        start.names.append("intruder")
        start.players = 9
        start.deadline_ms = 1
        start.openspiel.game = "tampered"


def _play(seats: list[Any], match_id: str = "m/1", seed: int = 5) -> MatchOutcome:
    game = get(KUHN)
    spec = MatchSpec(match_id, game.make_config(2), seed=seed, game=game, deadline_ms=700)
    return asyncio.run(run_match(spec, seats))


def _without_times(outcome: MatchOutcome) -> list[dict[str, Any]]:
    lines = decode_record(encode_record(outcome.record, outcome.game_record_json))
    for line in lines:
        line.pop("ms", None)
    return lines


def test_only_seats_that_read_the_messages_get_them_filled() -> None:
    reader, other = _Reader("reader", 1), _NonReader("other", 2)
    outcome = _play([reader, other])

    (start,) = reader.starts
    assert (start.match_id, list(start.names), start.seat) == ("m/1", ["reader", "other"], 0)
    assert (start.game, start.players, start.deadline_ms) == (KUHN, 2, 700)
    assert start.openspiel.game == "kuhn_poker(players=2)"
    (over,) = reader.overs
    assert list(over.ranks) == [s.rank for s in outcome.seats]
    assert over.record_json == outcome.game_record_json
    assert isinstance(outcome.result, OpenSpielResult)
    assert over.openspiel.returns == list(outcome.result.returns)

    assert other.starts == [bot_pb2.MatchStart()]
    assert other.overs == [bot_pb2.MatchOver()]


def test_a_match_nobody_reads_messages_of_records_the_same() -> None:
    read = _play([_Reader("a", 1), _Reader("b", 2)])
    unread = _play([_NonReader("a", 1), _NonReader("b", 2)])
    assert _without_times(read) == _without_times(unread)
    game_record = unread.record[-1]["game_record"]
    assert unread.game_record_json == json.dumps(game_record, separators=(",", ":"))
    assert unread.game_record_json == read.game_record_json


def test_the_per_table_part_of_match_start_is_never_shared() -> None:
    # Every seat scribbles over its MatchStart: no other seat, of this match or the
    # next at the same table, may see it.
    for match_id in ("m/1", "m/2"):
        seats = [_Vandal("a", 1), _Vandal("b", 2)]
        _play(seats, match_id)
        for seat, vandal in enumerate(seats):
            (start,) = vandal.starts
            assert (start.match_id, list(start.names), start.seat) == (match_id, ["a", "b"], seat)
            assert (start.players, start.deadline_ms) == (2, 700)
            assert start.openspiel.game == "kuhn_poker(players=2)"
