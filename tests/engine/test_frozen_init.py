"""The observations' hand-written constructors (arena/games/frozen_init.py): they set
every field, in the dataclass's order, and the object stays frozen, compiled or not
(this file runs in the pure-Python pass too)."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

from arena.games import get as get_game
from arena.games.frozen_init import interpreted_init


def _observations() -> list[Any]:
    """A mid-game observation of each game (its deciding seat's, legal actions and all)."""
    out = []
    for name in ("abluxxen", "fluxx"):
        game = get_game(name)
        rng = random.Random(7)
        state = game.new_match(game.make_config(3), rng)
        for _ in range(25):
            seat = game.deciding(state)
            if seat is None:
                break
            game.apply(state, rng.choice(game.observe(state, seat).legal))
        seat = game.deciding(state)
        assert seat is not None
        out.append(game.observe(state, seat))
    return out


def _distinct(observation: Any, flip: bool) -> dict[str, Any]:
    """The observation's fields, each int, bool and str one given a value of its own, so
    a constructor that stores one argument under another field's name shows."""
    values = {}
    for index, field in enumerate(dataclasses.fields(observation)):
        value = getattr(observation, field.name)
        if type(value) is int:
            value = 1000 + index
        elif type(value) is bool:
            value = (index % 2 == 0) != flip
        elif type(value) is str:
            value = f"field-{index}"
        values[field.name] = value
    return values


@pytest.mark.parametrize("flip", [False, True])
@pytest.mark.parametrize("observation", _observations(), ids=["abluxxen", "fluxx"])
def test_the_constructor_stores_every_argument_in_its_own_field(
    observation: Any, flip: bool
) -> None:
    cls = type(observation)
    values = _distinct(observation, flip)
    for built in (cls(**values), cls(*values.values())):
        for name, value in values.items():
            stored = getattr(built, name)
            # Compiled, int and bool fields are stored unboxed: equal, not the same object.
            assert stored == value if type(value) in (int, bool, str) else stored is value, name
    same = {f.name: getattr(observation, f.name) for f in dataclasses.fields(observation)}
    assert cls(**same) == observation


@pytest.mark.parametrize("observation", _observations(), ids=["abluxxen", "fluxx"])
def test_an_observation_stays_frozen(observation: Any) -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        observation.seat = 1 - observation.seat
    assert dataclasses.replace(observation, seat=observation.seat).seat == observation.seat


def test_an_interpreted_class_gets_the_generated_frozen_constructor() -> None:
    @dataclasses.dataclass(frozen=True, slots=True, init=False)
    class Pair:
        left: int
        right: str

        def __init__(self, left: int, right: str) -> None:
            self.left = left  # type: ignore[misc]
            self.right = right  # type: ignore[misc]

    with pytest.raises(dataclasses.FrozenInstanceError):
        Pair(1, "a")  # interpreted, plain stores meet the frozen __setattr__
    interpreted_init(Pair)
    pair = Pair(1, right="a")
    assert (pair.left, pair.right) == (1, "a")
    with pytest.raises(dataclasses.FrozenInstanceError):
        pair.left = 2  # type: ignore[misc]
