"""What the fuzz tests start from: the game's every action, real decisions and finished
matches (random play with fixed seeds, once per session: every decision kind, every table
the conformance check plays), and the numbers a protobuf field can hold."""

from __future__ import annotations

import functools
import random
from dataclasses import dataclass
from typing import Any

from hypothesis import strategies as st

from arena.games import AnyGame
from arena.games import get as get_game
from arena.v1 import bot_pb2

GAME: AnyGame = get_game("abluxxen")

INT32 = st.integers(-(2**31), 2**31 - 1)
UINT64 = st.integers(0, 2**64 - 1)
NUMBERS = st.one_of(st.integers(-3, 130), INT32)
"""Field values: mostly near the game's ranges (values, slots, codes up to 130), some
anywhere in int32."""


def _every_action() -> list[Any]:
    config = GAME.make_config(4)
    actions = []
    for code in range(GAME.num_distinct_actions(config)):
        try:
            actions.append(GAME.action_from_code(code))
        except ValueError:
            continue
    return actions


ACTIONS = _every_action()
"""Every action of the game."""


def spelled(action: Any) -> Any:
    """The game's message of ``action``, as a bot spells it out in a reply."""
    message = bot_pb2.BotMessage()
    GAME.wire.fill_reply(message, action)
    return getattr(message, GAME.wire.oneof)


@dataclass(frozen=True, slots=True)
class Point:
    """One decision of one seat: its observation (legal actions included) and the raw
    events since that seat's previous decision."""

    observation: Any
    events: tuple[object, ...]


def _play(players: int, preset: str, seed: int, deals: int = 1) -> tuple[Any, list[Point]]:
    """A random match and its decisions (at most a few per decision kind)."""
    game = GAME
    config = game.make_config(players, preset, deals=deals)
    state = game.new_match(config, random.Random(seed))
    rng = random.Random(seed + 1)
    seen = [0] * players
    points: list[Point] = []
    per_kind: dict[object, int] = {}
    while (seat := game.deciding(state)) is not None:
        obs = game.observe(state, seat)
        events = game.events(state)
        if per_kind.get(obs.decision, 0) < 4:
            per_kind[obs.decision] = per_kind.get(obs.decision, 0) + 1
            points.append(Point(obs, tuple(events[seen[seat] :])))
        seen[seat] = len(events)
        game.apply_legal(state, rng.choice(list(obs.legal)))
    return state, points


@functools.cache
def decision_points() -> tuple[Point, ...]:
    """Decisions of every kind, from every table ``check-bot`` plays."""
    points: list[Point] = []
    for n, (players, preset) in enumerate(GAME.check_tables):
        points += _play(players, preset, 1000 + n)[1]
    return tuple(points)


@functools.cache
def finished_states() -> tuple[Any, ...]:
    """A few finished matches: a duel, a table of five, two deals, and a short one."""
    return tuple(
        _play(players, preset, seed, deals)[0]
        for players, preset, seed, deals in (
            (2, "amigo", 1, 1),
            (5, "ravensburger-2014", 2, 1),
            (3, "amigo-expert", 3, 2),
            (2, "ravensburger-2014", 4, 1),
        )
    )


def middle_state(seed: int) -> Any:
    """A match part-way through (a pending decision, a played set, draws owed …)."""
    game = GAME
    rng = random.Random(seed)
    players = 2 + seed % 4
    state = game.new_match(game.make_config(players, GAME.presets[seed % 4]), rng)
    for _ in range(rng.randrange(1, 60)):
        seat = game.deciding(state)
        if seat is None:
            break
        game.apply_legal(state, rng.choice(list(game.observe(state, seat).legal)))
    return state
