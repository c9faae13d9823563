"""What the referee benchmarks subtract: the game's own work, and the seats they play with.

The referee's own work on a match is what ``run_match`` costs beyond the calls it makes
into the Game interface. ``play_alone`` makes the same calls in the same order, with
nothing around them: per match ``new_match`` and ``config_to_json`` (the record's
header); per decision ``deciding``, ``observe``, ``events``, the wire's request,
``action_code`` and ``apply_legal``; at the end ``result`` and ``record_json`` (the game's
record, before the referee serializes it). Everything else is the referee's: seats,
deadlines, faults, the record's lines, MatchStart and MatchOver. Used by
``bench_openspiel.py`` (CPU time) and ``count_match_instructions.py`` (instructions).
"""

from __future__ import annotations

import random
from typing import Any

from bench_referee import _InstantSeat

from arena.games import AnyGame


class AtOnceSeat(_InstantSeat):
    """An instant seat that says its open and close never wait and that it reads no
    MatchStart or MatchOver, as the in-process seats of built-in bots do
    (``arena/referee/each_seat.py``, ``arena/referee/messages.py``)."""

    at_once = True
    reads_messages = False


def play_alone(game: AnyGame, config: Any, matches: int) -> tuple[int, int]:
    """Play ``matches`` (seeds 0, 1, ...) through the Game interface alone, each seat
    taking the first legal action, as the benchmarks' seats do: the decisions made and
    the requests' bytes."""
    decisions = size = 0
    for index in range(matches):
        state = game.new_match(config, random.Random(index))
        game.config_to_json(config)
        cursors = [0] * game.players_of(config)
        while (seat := game.deciding(state)) is not None:
            obs = game.observe(state, seat)
            events = game.events(state)
            since = events[cursors[seat] :]
            cursors[seat] = len(events)
            size += len(game.wire.decide_request(decisions + 1, 1000, 0, obs, since))
            action = obs.legal[0]
            game.action_code(action)
            game.apply_legal(state, action)
            decisions += 1
        game.result(state)
        game.record_json(state)
    return decisions, size
