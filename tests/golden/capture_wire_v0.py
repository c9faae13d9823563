"""Records every message the referee sent to each seat, as bytes, for a fixed set of
matches: the golden file ``abluxxen_wire.jsonl.gz`` that ``test_golden_wire.py``
compares the current referee against.

This script ran once, on commit a35e272 (before games became plug-ins), and is kept as
the record of how the golden file was made; it uses that commit's API and does not run
on later commits. The test file holds the same match list and scripted replies.
"""

from __future__ import annotations

import asyncio
import base64
import gzip
import json
import random
import sys
from dataclasses import dataclass, field

from arena.games import abluxxen as ab
from arena.referee.faults import Fault
from arena.referee.match import MatchSpec, run_match
from arena.referee.seats import Decision, Reply
from arena.v1 import abluxxen_pb2, bot_pb2

# (match_id, players, preset, deals, duplicate, seed, max_strikes, time_bank_ms)
MATCHES = [
    ("golden-2-amigo", 2, "amigo", 1, False, 11, 3, 0),
    ("golden-3-advanced", 3, "amigo-advanced", 2, False, 12, 3, 500),
    ("golden-4-expert", 4, "amigo-expert", 1, False, 13, 0, 0),
    ("golden-5-ravensburger", 5, "ravensburger-2014", 1, False, 14, 3, 0),
    ("golden-2-ravensburger", 2, "ravensburger-2014", 2, False, 15, 3, 0),
    ("golden-4-dup", 4, "amigo", 1, True, 16, 2, 0),
    ("golden-3-amigo", 3, "amigo", 3, False, 17, 3, 250),
]


@dataclass
class ScriptedSeat:
    """A remote seat that answers from a seeded RNG: mostly a legal index, sometimes a
    spelled-out action (legal or not) or an index out of range, to put faults in the
    stream."""

    name: str
    seed: int
    sent: list[str] = field(default_factory=list)
    remote: bool = True

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)

    async def open(self, start: bot_pb2.MatchStart, timeout_s: float) -> Fault | None:
        self.sent.append(_b64(bot_pb2.ArenaMessage(start=start).SerializeToString()))
        return None

    async def decide(self, decision: Decision) -> Reply:
        assert decision.message is not None
        self.sent.append(_b64(decision.message))
        legal = decision.observation.legal
        roll = self.rng.random()
        reply = bot_pb2.BotMessage(request_id=decision.request_id)
        if roll < 0.04:
            reply.legal_index = len(legal) + 3
        elif roll < 0.10:
            code = self.rng.randrange(len(ab.ACTIONS))
            reply.abluxxen.CopyFrom(abluxxen_pb2.AbluxxenAction(code=code))
        else:
            reply.legal_index = self.rng.randrange(len(legal))
        return Reply(message=reply, elapsed_s=0.0)

    async def close(self, over: bot_pb2.MatchOver, timeout_s: float) -> None:
        self.sent.append(_b64(bot_pb2.ArenaMessage(over=over).SerializeToString()))


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


async def capture() -> list[dict[str, object]]:
    out = []
    for match_id, players, preset, deals, duplicate, seed, strikes, bank in MATCHES:
        config = ab.make_config(players, preset, deals=deals, duplicate=duplicate)
        spec = MatchSpec(
            match_id, config, seed=seed, deadline_ms=700, time_bank_ms=bank, max_strikes=strikes
        )
        seats = [ScriptedSeat(f"bot-{i}", seed * 10 + i) for i in range(players)]
        await run_match(spec, seats)
        out.append({"match_id": match_id, "seats": [s.sent for s in seats]})
    return out


if __name__ == "__main__":
    rows = asyncio.run(capture())
    with gzip.open(sys.argv[1], "wt") as f:
        for row in rows:
            f.write(json.dumps(row) + "\n")
