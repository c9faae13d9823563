"""Card identities and values (RULES.md §1).

Cards 0..103 are number cards, eight of each value 1..13 (card ``8*(v-1) + k`` has
value ``v``); cards 104..108 are the five jokers. The engine tracks every physical card
by id so that conservation is checkable, but players only ever see values.
"""

from __future__ import annotations

from typing import Final

CardId = int
"""A physical card, 0..108."""
Value = int
"""A card value: 1..13 for number cards, 14 for a joker (RULES.md §4: "higher than 13")."""

NUM_CARDS: Final = 109
NUM_NUMBER_CARDS: Final = 104
COPIES_PER_VALUE: Final = 8
MAX_NUMBER_VALUE: Final = 13
JOKER: Final = 14
"""The value of a joker (and of a set of jokers played alone)."""
FIRST_JOKER: Final = 104
HAND_SIZE: Final = 13
DUEL_HAND_SIZE: Final = 11
DUEL_JOKERS_EACH: Final = 2
POOL_SIZE: Final = 6
SHADOW_SIZE: Final = 13

VALUE_OF: Final[tuple[Value, ...]] = tuple(
    (card // COPIES_PER_VALUE) + 1 if card < FIRST_JOKER else JOKER for card in range(NUM_CARDS)
)
"""``VALUE_OF[card]`` is the value of a card id."""

CARDS_OF_VALUE: Final[tuple[tuple[CardId, ...], ...]] = tuple(
    tuple(c for c in range(NUM_CARDS) if VALUE_OF[c] == v) for v in range(JOKER + 1)
)
"""``CARDS_OF_VALUE[v]`` lists the ids with value v (index 0 is empty)."""

VALUES: Final = range(1, JOKER + 1)
"""Every value a hand can hold, jokers included."""
NUMBER_VALUES: Final = range(1, MAX_NUMBER_VALUE + 1)


def value_name(value: Value) -> str:
    """A short human name: ``"7"`` or ``"J"`` for a joker."""
    return "J" if value == JOKER else str(value)
