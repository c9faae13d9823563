#!/usr/bin/env python3
"""Print the example JSON of docs/json-formats.md (so the doc can be regenerated).

The example is a 2-player ``ravensburger-2014`` deal capped at 3 turns
(``ab.make_config(2, "ravensburger-2014", max_turns=3)``), shuffled with
``random.Random(seed)`` and played by choosing uniformly among the legal actions with
the same RNG. With the default seed the three turns contain a take, a leave, a discard,
pool draws and deck draws.

``--part`` picks what to print:

- ``record`` (default): the game record (``GameRecord.to_json``);
- ``observation``: ``Observation.to_json`` of ``--seat`` after ``--at`` actions;
- ``events``: the events as ``--seat`` may see them (``events.view``; ``--seat -1`` for
  the full form with card ids);
- ``state``: ``state_to_json`` after ``--at`` actions (hidden information: never for bots).

JSON is printed with short lists and small objects kept on one line.
"""

from __future__ import annotations

import argparse
import json
import random
from typing import Any

from arena.games import abluxxen as ab
from arena.games.abluxxen import events as ev

DEFAULT_SEED = 815
WIDTH = 100


def play_example(seed: int, stop_after: int | None = None) -> ab.State:
    """The example deal, stopped after ``stop_after`` actions (None: played to the end)."""
    config = ab.make_config(2, "ravensburger-2014", max_turns=3)
    rng = random.Random(seed)
    state = ab.new_game(config, rng)
    applied = 0
    while state.kind is not None and (stop_after is None or applied < stop_after):
        ab.apply(state, rng.choice(ab.legal_actions(state)))
        applied += 1
    return state


def compact(data: Any, indent: int = 0) -> str:
    """JSON with nested structure indented and short scalar-only values on one line."""
    flat = json.dumps(data)
    pad = " " * indent
    inner = " " * (indent + 2)
    if isinstance(data, list):
        if not data:
            return "[]"
        if len(flat) + indent <= WIDTH:
            return flat
        if all(not isinstance(x, list | dict) for x in data):
            return "[\n" + _wrap([json.dumps(x) for x in data], inner) + "\n" + pad + "]"
        items = ",\n".join(inner + compact(x, indent + 2) for x in data)
        return "[\n" + items + "\n" + pad + "]"
    if isinstance(data, dict):
        if not data:
            return "{}"
        if len(flat) + indent <= WIDTH:
            return flat
        items = ",\n".join(
            f"{inner}{json.dumps(k)}: {compact(v, indent + 2)}" for k, v in data.items()
        )
        return "{\n" + items + "\n" + pad + "}"
    return flat


def _wrap(items: list[str], pad: str) -> str:
    """Comma-separated items, as many to a line as fit in WIDTH."""
    lines: list[str] = []
    line = ""
    for item in items:
        if line and len(pad) + len(line) + len(item) + 2 > WIDTH:
            lines.append(pad + line + ",")
            line = ""
        line = f"{line}, {item}" if line else item
    lines.append(pad + line)
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument(
        "--part", choices=("record", "observation", "events", "state"), default="record"
    )
    parser.add_argument("--seat", type=int, default=0, help="observing seat (-1: full events)")
    parser.add_argument("--at", type=int, default=None, help="actions applied before the snapshot")
    args = parser.parse_args()
    state = play_example(args.seed, args.at)
    out: Any
    if args.part == "record":
        out = ab.record_of(state).to_json()
    elif args.part == "observation":
        out = ab.observe(state, args.seat).to_json()
    elif args.part == "events":
        seat = None if args.seat < 0 else args.seat
        out = (
            [ev.to_json(e) for e in state.events] if seat is None else ev.views(state.events, seat)
        )
    else:
        out = ab.state_to_json(state)
    print(compact(out))


if __name__ == "__main__":
    main()
