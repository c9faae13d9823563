"""Helpers for the engine tests: readable hand-built positions and random play.

``build_state`` turns a description by *values* (hands, displays, pool, deck top-first,
shadow, discard) into a full State with distinct card ids, puts every card not named
somewhere (by default at the bottom of the deck) and checks card conservation.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, Literal

from arena.games import abluxxen as ab
from arena.games.abluxxen.cards import JOKER, NUM_CARDS, VALUE_OF
from arena.games.abluxxen.state import CardSet, Event, State

J = JOKER
"""A joker, in value lists."""

Slot = int | Sequence[int]
"""A pool slot by value: one card, or a duel group (bottom card first)."""


class _Ids:
    """Hands out distinct card ids of a wanted value, lowest id first."""

    def __init__(self) -> None:
        self.free: dict[int, list[int]] = {v: [] for v in range(1, JOKER + 1)}
        for card in range(NUM_CARDS):
            self.free[VALUE_OF[card]].append(card)

    def take(self, value: int) -> int:
        if value not in self.free:
            raise ValueError(f"{value!r} is not a card value 1..14")
        if not self.free[value]:
            raise ValueError(f"the position uses more cards of value {value} than exist")
        return self.free[value].pop(0)

    def rest(self) -> list[int]:
        return sorted(c for cards in self.free.values() for c in cards)


def set_value(values: Sequence[int]) -> int:
    """The value of a set given by its card values (jokers alone: 14)."""
    naturals = {v for v in values if v != J}
    if not values or len(naturals) > 1:
        raise ValueError(f"{list(values)} is not a set")
    return naturals.pop() if naturals else J


def build_state(
    players: int = 4,
    preset_name: str = "amigo",
    *,
    hands: Sequence[Sequence[int]],
    displays: Sequence[Sequence[Sequence[int]]] = (),
    pool: Sequence[Slot] = (),
    deck: Sequence[int] = (),
    shadow: Sequence[int] = (),
    discard: Sequence[int] = (),
    known: Mapping[int, Sequence[int]] | None = None,
    active: int = 0,
    rest: Literal["deck", "discard"] = "deck",
    deals: int = 1,
    duplicate: bool = False,
    **overrides: Any,
) -> State:
    """A new match whose first deal is at the start of ``active``'s turn (see ``place``).

    Values: 1..13, ``J`` (14) for a joker; the other arguments are ``place``'s.
    """
    config = ab.make_config(players, preset_name, deals=deals, duplicate=duplicate, **overrides)
    state = ab.new_game_from_decks(config, ab.shuffle_decks(config, random.Random(0)))
    state.events = []
    return place(
        state,
        hands=hands,
        displays=displays,
        pool=pool,
        deck=deck,
        shadow=shadow,
        discard=discard,
        known=known,
        active=active,
        rest=rest,
    )


def place(
    state: State,
    *,
    hands: Sequence[Sequence[int]],
    displays: Sequence[Sequence[Sequence[int]]] = (),
    pool: Sequence[Slot] = (),
    deck: Sequence[int] = (),
    shadow: Sequence[int] = (),
    discard: Sequence[int] = (),
    known: Mapping[int, Sequence[int]] | None = None,
    active: int | None = None,
    rest: Literal["deck", "discard"] = "deck",
) -> State:
    """Replace the zones of the current deal by a position at the start of ``active``'s
    turn (default: the seat whose turn it is), keeping the match so far.

    ``displays[seat]`` lists sets oldest first; ``deck`` is top card first; the cards
    not named go to the bottom of the deck (``rest="deck"``) or onto the discard pile
    (``rest="discard"``, so the deck is exactly as given). ``known[seat]`` lists the
    values publicly known to be in that hand. Checks card conservation.
    """
    players = state.config.players
    ids = _Ids()
    if len(hands) != players:
        raise ValueError("one hand per seat")
    state.hands = [[[] for _ in range(J + 1)] for _ in range(players)]
    for seat, hand in enumerate(hands):
        for value in hand:
            state.hands[seat][value].append(ids.take(value))
    state.hand_sizes = [len(hand) for hand in hands]
    state.known = [[0] * (J + 1) for _ in range(players)]
    for seat, values in (known or {}).items():
        for value in values:
            state.known[seat][value] += 1
    state.displays = [[] for _ in range(players)]
    for seat, sets in enumerate(displays):
        for values in sets:
            cards = tuple(ids.take(v) for v in values)
            card_set: CardSet = (set_value(values), cards)
            state.displays[seat].append(card_set)
    state.pool = [
        [ids.take(slot)] if isinstance(slot, int) else [ids.take(v) for v in slot] for slot in pool
    ]
    state.shadow = [[] for _ in range(J + 1)]
    for value in shadow:
        state.shadow[value].append(ids.take(value))
    named_discard = [ids.take(v) for v in discard]
    top_first = [ids.take(v) for v in deck]
    leftover = ids.rest()
    state.discard = named_discard + (leftover if rest == "discard" else [])
    state.deck = (leftover if rest == "deck" else []) + top_first[::-1]
    state.turn = 0
    if active is not None:
        state.active = active
    state.kind = ab.DecisionKind.PLAY
    state.deciding = state.active
    state.played = None
    state.checks = []
    state.victim = -1
    state.drawer = -1
    state.draws_left = 0
    state.abluxxed = False
    ab.check_invariants(state)
    return state


def act(state: State, *actions: ab.Action) -> State:
    """Apply actions in order through the checked ``apply``, checking conservation."""
    for action in actions:
        ab.apply(state, action)
        ab.check_invariants(state)
    return state


def pool_values(state: State) -> list[list[int]]:
    """The pool by values, slot by slot."""
    return [[VALUE_OF[c] for c in slot] for slot in state.pool]


def display_values(state: State, seat: int) -> list[list[int]]:
    """A display by values, oldest set first; each set's values sorted."""
    return [sorted(VALUE_OF[c] for c in cards) for _, cards in state.displays[seat]]


def deck_values(state: State) -> list[int]:
    """The deck by values, top card first."""
    return [VALUE_OF[c] for c in reversed(state.deck)]


def shadow_values(state: State) -> dict[int, int]:
    """The shadow display: value -> cards of it (values with no card left out)."""
    return {v: len(stack) for v, stack in enumerate(state.shadow) if stack}


def codes(actions: Sequence[ab.Action]) -> list[int]:
    """Action codes."""
    return [a.code for a in actions]


def event_types(state: State, start: int = 0) -> list[str]:
    """The types of the events from index ``start`` on."""
    return [str(e[0]) for e in state.events[start:]]


def snapshot(state: State) -> str:
    """The complete state as canonical JSON text, to compare states exactly."""
    return json.dumps(ab.state_to_json(state), sort_keys=True)


Policy = Callable[[State, list[ab.Action]], ab.Action]


def random_policy(rng: random.Random) -> Policy:
    """Choose uniformly among the legal actions."""

    def choose(state: State, legal: list[ab.Action]) -> ab.Action:
        return rng.choice(legal)

    return choose


def play_states(state: State, policy: Policy, max_steps: int = 100_000) -> Iterator[State]:
    """Play to the end with ``policy``, yielding the state before each action."""
    for _ in range(max_steps):
        if state.is_over:
            return
        yield state
        legal = ab.legal_actions(state)
        ab.apply(state, policy(state, legal))
    raise AssertionError(f"the match did not end within {max_steps} actions")


def random_game(config: ab.GameConfig, seed: int) -> State:
    """A whole match played by uniformly random choices, reproducible from ``seed``."""
    state = ab.new_game(config, random.Random(seed))
    for _ in play_states(state, random_policy(random.Random(seed + 1))):
        pass
    return state


PRESET_NAMES: tuple[str, ...] = tuple(ab.PRESETS)
"""Every preset name."""


def field_int(event: Event, index: int) -> int:
    """An integer field of an event (``event[0]`` is its type)."""
    value = event[index]
    assert isinstance(value, int), event
    return value


def field_cards(event: Event, index: int) -> tuple[int, ...]:
    """A tuple field of an event (cards, scores, hand cards)."""
    value = event[index]
    assert isinstance(value, tuple), event
    return tuple(int(x) for x in value)


def events_of(state: State, kind: str) -> list[Event]:
    """The events of one type, in order."""
    return [e for e in state.events if e[0] == kind]
