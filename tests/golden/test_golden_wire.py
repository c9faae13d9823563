"""The bytes on the wire are those of the arena before games became plug-ins.

``abluxxen_wire.jsonl.gz`` holds every message (MatchStart, each DecideRequest,
MatchOver) that the referee of commit a35e272 sent each seat of seven scripted matches
(``capture_wire_v0.py``: every preset, 2-5 players, several deals, a duplicate match,
time banks, forfeits, and faults from replies out of range or spelled out illegally).
The same matches, played by the current referee with the same scripted replies, must
send exactly the same bytes: bots in use see no change.
"""

from __future__ import annotations

import asyncio
import base64
import gzip
import json
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

import pytest

from arena.games import get
from arena.referee.faults import Fault
from arena.referee.match import MatchSpec, run_match
from arena.referee.replies import read_reply
from arena.referee.seats import Decision, Reply
from arena.v1 import abluxxen_pb2, bot_pb2

GOLDEN = Path(__file__).with_name("abluxxen_wire.jsonl.gz")
GAME = get("abluxxen")


class Match(NamedTuple):
    """One scripted match, as in capture_wire_v0.py."""

    match_id: str
    players: int
    preset: str
    deals: int
    duplicate: bool
    seed: int
    max_strikes: int
    time_bank_ms: int


MATCHES = [
    Match("golden-2-amigo", 2, "amigo", 1, False, 11, 3, 0),
    Match("golden-3-advanced", 3, "amigo-advanced", 2, False, 12, 3, 500),
    Match("golden-4-expert", 4, "amigo-expert", 1, False, 13, 0, 0),
    Match("golden-5-ravensburger", 5, "ravensburger-2014", 1, False, 14, 3, 0),
    Match("golden-2-ravensburger", 2, "ravensburger-2014", 2, False, 15, 3, 0),
    Match("golden-4-dup", 4, "amigo", 1, True, 16, 2, 0),
    Match("golden-3-amigo", 3, "amigo", 3, False, 17, 3, 250),
]


def _number_of_codes() -> int:
    """``len(ab.ACTIONS)``, which the capture drew spelled-out codes from."""
    from arena.games.abluxxen import ACTIONS

    return len(ACTIONS)


@dataclass
class ScriptedSeat:
    """Answers as the capture's seat did (the same RNG draws), through the same reply
    reader as a remote seat, and keeps every message it was sent."""

    name: str
    seed: int
    sent: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)

    async def open(self, start: bot_pb2.MatchStart, timeout_s: float) -> Fault | None:
        self.sent.append(_b64(bot_pb2.ArenaMessage(start=start).SerializeToString()))
        return None

    async def decide(self, decision: Decision) -> Reply:
        self.sent.append(_b64(decision.request_bytes()))
        legal = decision.observation.legal
        roll = self.rng.random()
        reply = bot_pb2.BotMessage(request_id=decision.request_id)
        if roll < 0.04:
            reply.legal_index = len(legal) + 3
        elif roll < 0.10:
            code = self.rng.randrange(_number_of_codes())
            reply.abluxxen.CopyFrom(abluxxen_pb2.AbluxxenAction(code=code))
        else:
            reply.legal_index = self.rng.randrange(len(legal))
        action, fault = read_reply(reply, legal, decision.wire)
        return Reply(action=action, fault=fault)

    async def close(self, over: bot_pb2.MatchOver, timeout_s: float) -> None:
        self.sent.append(_b64(bot_pb2.ArenaMessage(over=over).SerializeToString()))


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


def _golden() -> dict[str, list[list[str]]]:
    with gzip.open(GOLDEN, "rt") as f:
        rows = [json.loads(line) for line in f]
    return {row["match_id"]: row["seats"] for row in rows}


@pytest.mark.parametrize("match", MATCHES, ids=[m[0] for m in MATCHES])
def test_the_referee_sends_the_bytes_it_sent_before(match: Match) -> None:
    config = GAME.make_config(
        match.players, match.preset, deals=match.deals, duplicate=match.duplicate
    )
    spec = MatchSpec(
        match.match_id,
        config,
        seed=match.seed,
        deadline_ms=700,
        time_bank_ms=match.time_bank_ms,
        max_strikes=match.max_strikes,
        game=GAME,
    )
    seats = [ScriptedSeat(f"bot-{i}", match.seed * 10 + i) for i in range(match.players)]
    asyncio.run(run_match(spec, seats))
    expected = _golden()[match.match_id]
    for index, seat in enumerate(seats):
        assert len(seat.sent) == len(expected[index]), f"seat {index}: message count"
        for number, (got, want) in enumerate(zip(seat.sent, expected[index], strict=True)):
            assert got == want, f"seat {index}, message {number}: bytes differ"
