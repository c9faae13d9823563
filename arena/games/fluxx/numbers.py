"""The numbers in force, computed live from the state (FLUXX.md §5).

Every function reads only public state, so observations can show the same numbers.
"""

from __future__ import annotations

from typing import Final

from .cards import (
    DRAW_RULES,
    HAND_LIMIT_RULES,
    INFLATION,
    KEEPER_LIMIT_RULES,
    PARTY,
    PARTY_BONUS,
    PLAY_ALL,
    POOR_BONUS,
    RICH_BONUS,
)
from .state import Z_RULES, Z_TABLE, State

ALL: Final = -1
"""The play target under Play All."""
NO_LIMIT: Final = -1
"""A limit that is not in force."""


def inflation(state: State) -> int:
    """I: 1 if Inflation is in play, else 0."""
    return 1 if state.loc[INFLATION] == Z_RULES else 0


def _bonus(state: State, rule: int, fewest: bool) -> bool:
    """Poor / Rich Bonus: the active seat has strictly fewer / more Keepers than every
    other seat [D15]."""
    if state.loc[rule] != Z_RULES:
        return False
    counts = state.keepers
    active = state.active
    own = counts[active]
    if fewest:
        return all(own < c for s, c in enumerate(counts) if s != active)
    return all(own > c for s, c in enumerate(counts) if s != active)


def party(state: State, i: int) -> int:
    """The Party Bonus: 1+I if it is in play and The Party is on a table."""
    loc = state.loc
    if loc[PARTY_BONUS] == Z_RULES and loc[PARTY] >= Z_TABLE:
        return 1 + i
    return 0


def draw_target(state: State) -> int:
    """The active seat's draw target."""
    loc = state.loc
    i = 1 if loc[INFLATION] == Z_RULES else 0
    base = 1 + state.escalation
    for card in DRAW_RULES:
        if loc[card] == Z_RULES:
            base = card - 52
            break
    target = base + i + party(state, i)
    if loc[POOR_BONUS] == Z_RULES and _bonus(state, POOR_BONUS, True):
        target += 1 + i
    return target


def play_target(state: State) -> int:
    """The active seat's play target, or ALL under Play All."""
    loc = state.loc
    if loc[PLAY_ALL] == Z_RULES:
        return ALL
    i = 1 if loc[INFLATION] == Z_RULES else 0
    base = 1 + state.escalation
    for card in (58, 59, 60):
        if loc[card] == Z_RULES:
            base = card - 56
            break
    target = base + i + party(state, i)
    if loc[RICH_BONUS] == Z_RULES and _bonus(state, RICH_BONUS, False):
        target += 1 + i
    return target


def plays_left(state: State) -> int:
    """Plays the active seat has left: its hand size under Play All, else the play
    target minus plays made (never below 0) [D16]."""
    target = play_target(state)
    if target == ALL:
        return len(state.hands[state.active])
    left = target - state.played
    return left if left > 0 else 0


def hand_limit(state: State) -> int:
    """The hand limit in force, or NO_LIMIT."""
    loc = state.loc
    for card in HAND_LIMIT_RULES:
        if loc[card] == Z_RULES:
            return card - 62 + (1 if loc[INFLATION] == Z_RULES else 0)
    return NO_LIMIT


def keeper_limit(state: State) -> int:
    """The Keeper limit in force, or NO_LIMIT."""
    loc = state.loc
    for card in KEEPER_LIMIT_RULES:
        if loc[card] == Z_RULES:
            return card - 63 + (1 if loc[INFLATION] == Z_RULES else 0)
    return NO_LIMIT
