"""Perft-style counts: the number of distinct legal action sequences of each length from
fixed positions. The numbers were computed once with the engine and checked by hand at
depths 1 and 2 (e.g. 4p amigo: 25 plays, each followed by an optional draw of 6 slots,
the deck or a pass: 25 * 8 = 200); any change to the legal sets or to the flow of
decisions changes them."""

from __future__ import annotations

import random

import pytest

from arena.games import abluxxen as ab
from arena.games.abluxxen.state import State


def perft(state: State, depth: int) -> int:
    """Action sequences of length ``depth`` (a finished match ends a sequence early)."""
    if depth == 0 or state.is_over:
        return 1
    total = 0
    for action in ab.legal_actions(state):
        child = state.clone()
        ab.apply_unchecked(child, action)
        total += perft(child, depth - 1)
    return total


def start(players: int, preset_name: str, seed: int, prefix: int = 0) -> State:
    """The position after ``prefix`` random actions of the match shuffled with ``seed``."""
    state = ab.new_game(ab.make_config(players, preset_name), random.Random(seed))
    rng = random.Random(seed)
    for _ in range(prefix):
        ab.apply(state, rng.choice(ab.legal_actions(state)))
    return state


CASES = [
    # (players, preset, seed, random prefix, counts at depths 1, 2, 3, 4)
    (4, "amigo", 1, 0, (25, 200, 5000, 34144)),
    (2, "ravensburger-2014", 2, 0, (13, 325, 3235, 41513)),
    (2, "amigo", 3, 0, (35, 513, 12447, 145936)),
    (3, "amigo-expert", 4, 0, (13, 455, 5090, 41992)),
    (5, "amigo-advanced", 5, 0, (13, 169, 3968, 66858)),
    (4, "amigo", 6, 40, (7, 175, 770, 6545)),
    (2, "amigo", 7, 30, (8, 104, 456, 3100)),
]


@pytest.mark.parametrize(
    ("players", "preset_name", "seed", "prefix", "counts"),
    CASES,
    ids=[f"{p}p-{name}-seed{seed}-after{prefix}" for p, name, seed, prefix, _ in CASES],
)
@pytest.mark.slow
def test_perft(
    players: int, preset_name: str, seed: int, prefix: int, counts: tuple[int, ...]
) -> None:
    state = start(players, preset_name, seed, prefix)
    before = ab.state_to_json(state)
    assert tuple(perft(state, depth) for depth in range(1, len(counts) + 1)) == counts
    assert ab.state_to_json(state) == before
