"""Meeting Goals, blocking, and the win check (FLUXX.md §10, §11.3)."""

from __future__ import annotations

from .cards import (
    ALL_YOU_NEED_IS_LOVE,
    BAKED_POTATO,
    BRAIN,
    BRAIN_NO_TV,
    DEATH,
    FIVE_KEEPERS,
    LOVE,
    PAIR_GOALS,
    PARTY,
    PARTY_FOOD,
    PARTY_SNACKS,
    PEACE,
    PEACE_NO_WAR,
    POTATO,
    SILVER_LINING,
    TELEVISION,
    TEN_CARDS_IN_HAND,
    WAR,
)
from .numbers import inflation
from .state import Z_RULES, Z_TABLE, State

_CREEPER_IDS = (WAR, 22, DEATH, POTATO)


def barred(state: State, seat: int, goal: int) -> bool:
    """Whether ``seat`` can meet no Goal now: a Creeper blocks it or the Baked Potato
    excludes it (§10.2). ``goal`` names the Goal in question (its named Creepers do not
    block)."""
    loc = state.loc
    zone = Z_TABLE + seat
    potato = loc[POTATO]
    if loc[BAKED_POTATO] == Z_RULES and potato >= Z_TABLE and potato != zone:
        return True
    if loc[SILVER_LINING] == Z_RULES:
        return False
    named = PAIR_GOALS.get(goal, ())
    for creeper in _CREEPER_IDS:
        if loc[creeper] != zone or creeper in named:
            continue
        if creeper == POTATO and loc[BAKED_POTATO] == Z_RULES:
            continue
        if creeper == DEATH and len(state.tables[seat]) == 1:
            continue
        return True
    return False


def _counting(state: State, counts: list[int], threshold: int, goal: int) -> int:
    """§10.3: the one unbarred seat with the highest count, if it reaches the threshold
    and no other seat ties it unbarred [D11]."""
    best = max(counts)
    if best < threshold:
        return -1
    leaders = [s for s, c in enumerate(counts) if c == best and not barred(state, s, goal)]
    return leaders[0] if len(leaders) == 1 else -1


def meeting_seat(state: State, goal: int) -> int:
    """The seat that meets ``goal`` now, or -1."""
    loc = state.loc
    pair = PAIR_GOALS.get(goal)
    if pair is not None:
        zone = loc[pair[0]]
        if zone < Z_TABLE or zone != loc[pair[1]]:
            return -1
        seat = zone - Z_TABLE
    elif goal == TEN_CARDS_IN_HAND:
        return _counting(state, [len(h) for h in state.hands], 10 + inflation(state), goal)
    elif goal == FIVE_KEEPERS:
        return _counting(state, state.keepers, 5 + inflation(state), goal)
    elif goal == ALL_YOU_NEED_IS_LOVE:
        zone = loc[LOVE]
        if zone < Z_TABLE or state.keepers[zone - Z_TABLE] != 1:
            return -1
        seat = zone - Z_TABLE
    elif goal == BRAIN_NO_TV:
        zone = loc[BRAIN]
        if zone < Z_TABLE or loc[TELEVISION] >= Z_TABLE:
            return -1
        seat = zone - Z_TABLE
    elif goal == PEACE_NO_WAR:
        zone = loc[PEACE]
        if zone < Z_TABLE or loc[WAR] >= Z_TABLE:
            return -1
        seat = zone - Z_TABLE
    else:  # PARTY_SNACKS
        assert goal == PARTY_SNACKS, goal
        zone = loc[PARTY]
        if zone < Z_TABLE or sum(1 for f in PARTY_FOOD if loc[f] == zone) < 1 + inflation(state):
            return -1
        seat = zone - Z_TABLE
    return -1 if barred(state, seat, goal) else seat


def find_winner(state: State) -> int:
    """§10.4: the one seat meeting one or both Goals in play, or -1 (also with 3 Goals
    out, or when two seats meet the two Goals of a Double Agenda)."""
    goals = state.goals
    if not goals or len(goals) > 2:
        return -1
    first = meeting_seat(state, goals[0])
    if len(goals) == 1:
        return first
    second = meeting_seat(state, goals[1])
    if first < 0:
        return second
    if second < 0 or second == first:
        return first
    return -1
