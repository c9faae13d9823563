#!/usr/bin/env python3
"""CPU per DecideRequest: the referee's direct bytes against protobuf messages.

For each game, collects every decision of seeded random 4-player games (the seat's
observation and the events since its last decision), then encodes all of them, rounds
alternating between the two encoders, and keeps each encoder's best round:
- ``direct``: the game's ``decide_request`` (``wire_bytes``: what the referee sends);
- ``messages``: the same request built as protobuf messages and serialized (what the
  referee would cost without the direct encoder; the bytes are equal, tests check).

The build in use is the one the process imports (compiled if current; pure Python with
ARENA_PURE_PYTHON=1). Last line JSON: per game µs per request for each encoder and their
ratio.

    .venv/bin/python scripts/bench/bench_wire.py [--games 20] [--rounds 5]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from arena import native  # noqa: E402
from arena.games import get  # noqa: E402
from arena.games.abluxxen import events as ab_views  # noqa: E402
from arena.games.abluxxen import wire as ab_wire  # noqa: E402
from arena.games.fluxx import events as fx_events  # noqa: E402
from arena.games.fluxx import wire as fx_wire  # noqa: E402
from arena.v1 import bot_pb2, fluxx_pb2  # noqa: E402


def _positions(game: str, games: int) -> list[tuple[Any, list[Any], Any, int]]:
    """(observation, new events, state, cursor) at every decision of random games."""
    out = []
    plugin = get(game)
    config = plugin.make_config(4, "")  # the default preset: amigo, pegasus-2011
    for seed in range(games):
        state: Any = plugin.new_match(config, random.Random(seed))
        chooser = random.Random(seed + 1)
        cursors = [0, 0, 0, 0]
        while (seat := plugin.deciding(state)) is not None:
            obs = plugin.observe(state, seat)
            out.append((obs, list(state.events[cursors[seat] :]), state.clone(), cursors[seat]))
            cursors[seat] = len(state.events)
            plugin.apply(state, chooser.choice(obs.legal), seat)
    return out


def _abluxxen_messages(obs: Any, events: list[Any], state: Any, cursor: int) -> bytes:
    views = ab_views.views(state.events, obs.seat, cursor)
    request = bot_pb2.DecideRequest(
        request_id=9, deadline_ms=750, abluxxen=ab_wire.decision_to_proto(obs, views)
    )
    return bot_pb2.ArenaMessage(decide=request).SerializeToString()


def _fluxx_messages(obs: Any, events: list[Any], state: Any, cursor: int) -> bytes:
    decision = fluxx_pb2.FluxxDecision(
        observation=fx_wire.observation_to_proto(obs),
        legal=[fx_wire.action_to_proto(a) for a in obs.legal],
        events=[fx_wire.event_to_proto(e, fx_events.is_private(e, obs.seat)) for e in events],
    )
    request = bot_pb2.DecideRequest(request_id=9, deadline_ms=750, fluxx=decision)
    return bot_pb2.ArenaMessage(decide=request).SerializeToString()


def _direct(game: str) -> Callable[[Any, list[Any], Any, int], bytes]:
    """The referee's encoder of ``game``."""
    encode = get(game).wire.decide_request

    def direct(obs: Any, events: list[Any], state: Any, cursor: int) -> bytes:
        return encode(9, 750, 0, obs, events)

    return direct


def _best_us(encode: Callable[[Any, list[Any], Any, int], bytes], positions: list[Any]) -> float:
    started = time.process_time()
    for obs, events, state, cursor in positions:
        encode(obs, events, state, cursor)
    return (time.process_time() - started) / len(positions) * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    result: dict[str, Any] = {"compiled": native.compiled()}
    for game, messages in (("abluxxen", _abluxxen_messages), ("fluxx", _fluxx_messages)):
        direct = _direct(game)
        positions = _positions(game, args.games)
        for obs, events, state, cursor in positions[:50]:  # the same bytes, as tests check
            assert direct(obs, events, state, cursor) == messages(obs, events, state, cursor)
        best = {"direct": float("inf"), "messages": float("inf")}
        for _ in range(args.rounds):
            best["direct"] = min(best["direct"], _best_us(direct, positions))
            best["messages"] = min(best["messages"], _best_us(messages, positions))
        result[game] = {
            "requests": len(positions),
            "direct_us": round(best["direct"], 2),
            "messages_us": round(best["messages"], 2),
            "messages_over_direct": round(best["messages"] / best["direct"], 2),
        }
        print(
            f"{game}: {len(positions)} requests; direct {best['direct']:.1f} µs, "
            f"messages {best['messages']:.1f} µs per request"
        )
    print(json.dumps(result))


if __name__ == "__main__":
    main()
