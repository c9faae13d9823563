"""The canonical legal action set of each decision kind (FLUXX.md §14), as a function of
the state: the engine builds each set once, when it asks the decision, from here."""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from .actions import (
    ACTIONS,
    DISCARD_DEATH,
    DISCARD_GOAL_OF,
    DISCARD_LONE_DEATH,
    DISCARD_OF,
    DONE,
    GET_ON_WITH_IT,
    GIVE_OF,
    GIVE_WAR_OF,
    KEEP,
    KEEP_DEATH,
    LEFT,
    PAY,
    PLAY_OF,
    RIGHT,
    SEAT_OF,
    STOP,
    TAKE_OF,
    TARGET_OF,
    Action,
    DecisionKind,
    exchange_code,
)
from .cards import (
    DEATH,
    FIRST_CREEPER,
    FIRST_KEEPER,
    FIRST_RULE,
    TRADE_HANDS,
)
from .cards import (
    GET_ON_WITH_IT as GET_ON_WITH_IT_RULE,
)
from .flow import OP_FINISH, OP_SIMPLIFY
from .state import Z_RULES, State


def play(state: State, seat: int) -> list[Action]:
    """PLAY: every main-hand card, then the free actions §6.5 allows."""
    legal = [PLAY_OF[c] for c in sorted(state.hands[seat])]
    if state.loc[GET_ON_WITH_IT_RULE] == Z_RULES:
        legal.append(GET_ON_WITH_IT)
    table = state.tables[seat]
    if len(table) == 1 and table[0] == DEATH:
        legal.append(DISCARD_LONE_DEATH)
    return legal


def play_temp(state: State, seat: int) -> list[Action]:
    """PLAY_TEMP: every card of the top temp hand."""
    return [PLAY_OF[c] for c in sorted(state.temp[-1])] if state.temp else []


def death_discard(state: State, seat: int) -> list[Action]:
    """DEATH_DISCARD: each own Keeper/Creeper other than Death."""
    return [DISCARD_OF[c] for c in sorted(state.tables[seat]) if c != DEATH]


def death_alone(state: State, seat: int) -> list[Action]:
    """DEATH_ALONE."""
    return [DISCARD_DEATH, KEEP_DEATH]


def own_keepers(state: State, seat: int) -> list[Action]:
    """DISCARD_KEEPER_LIMIT: each own Keeper (not Creepers)."""
    return [DISCARD_OF[c] for c in sorted(state.tables[seat]) if FIRST_KEEPER <= c < FIRST_CREEPER]


def own_hand(state: State, seat: int) -> list[Action]:
    """DISCARD_HAND_LIMIT: each main-hand card."""
    return [DISCARD_OF[c] for c in sorted(state.hands[seat])]


def taxes_choice(state: State, seat: int) -> list[Action]:
    """TAXES_CHOICE."""
    return [PAY, KEEP]


def war_target(state: State, seat: int) -> list[Action]:
    """WAR_TARGET: each other seat."""
    return [GIVE_WAR_OF[s] for s in range(state.config.players) if s != seat]


def goal_discard(state: State, seat: int) -> list[Action]:
    """GOAL_DISCARD: the two older Goals while 3 are out, else both (§7.3, §7.4)."""
    goals = state.goals
    eligible = goals[:2] if len(goals) == 3 else goals
    return [DISCARD_GOAL_OF[g] for g in sorted(eligible)]


def choose_player(state: State, seat: int) -> list[Action]:
    """CHOOSE_PLAYER: Trade Hands any other seat; Use What You Take other seats with
    cards [D28] (the Action resolving is the FINISH frame on top)."""
    frame = state.stack[-1] if state.stack else [-1, -1]
    n = state.config.players
    if frame[0] == OP_FINISH and frame[1] == TRADE_HANDS:
        return [SEAT_OF[s] for s in range(n) if s != seat]
    return [SEAT_OF[s] for s in range(n) if s != seat and state.hands[s]]


def rotate_direction(state: State, seat: int) -> list[Action]:
    """ROTATE_DIRECTION: both, also with 2 seats."""
    return [LEFT, RIGHT]


def exchange_keepers(state: State, seat: int) -> list[Action]:
    """EXCHANGE_KEEPERS: each own Keeper with each Keeper on another table."""
    tables = state.tables
    own = sorted(c for c in tables[seat] if FIRST_KEEPER <= c < FIRST_CREEPER)
    others = sorted(
        c
        for s, table in enumerate(tables)
        if s != seat
        for c in table
        if FIRST_KEEPER <= c < FIRST_CREEPER
    )
    return [ACTIONS[exchange_code(k, o)] for k in own for o in others]


def trash_something(state: State, seat: int) -> list[Action]:
    """TRASH_SOMETHING: each Keeper/Creeper on any table."""
    return [TARGET_OF[c] for c in sorted(c for t in state.tables for c in t)]


def steal_something(state: State, seat: int) -> list[Action]:
    """STEAL_SOMETHING: each Keeper/Creeper on another seat's table."""
    return [
        TARGET_OF[c] for c in sorted(c for s, t in enumerate(state.tables) if s != seat for c in t)
    ]


def trash_rule(state: State, seat: int) -> list[Action]:
    """TRASH_RULE: each New Rule in play."""
    return [TARGET_OF[r] for r in sorted(state.rules)]


def simplify(state: State, seat: int) -> list[Action]:
    """SIMPLIFY: each rule not yet chosen while fewer than the cap are chosen; STOP."""
    frame = state.stack[-1]
    assert frame[0] == OP_SIMPLIFY
    chosen = frame[2:]
    legal = (
        [TARGET_OF[r] for r in sorted(state.rules) if r not in chosen]
        if len(chosen) < frame[1]
        else []
    )
    legal.append(STOP)
    return legal


def replay_from_discard(state: State, seat: int) -> list[Action]:
    """REPLAY_FROM_DISCARD: each Action or New Rule in the discard pile."""
    return [TAKE_OF[c] for c in sorted(state.discard) if c >= FIRST_RULE]


def deal_card(state: State, seat: int) -> list[Action]:
    """DEAL_CARD: each pool card."""
    return [GIVE_OF[c] for c in sorted(state.pool)]


def tax_give(state: State, seat: int) -> list[Action]:
    """TAX_GIVE: each own main-hand card not yet given."""
    marks = state.marks[seat]
    return [GIVE_OF[c] for c in sorted(state.hands[seat]) if c not in marks]


def trash_day(state: State, seat: int) -> list[Action]:
    """TRASH_DAY: each own main-hand card and own Keeper/Creeper not yet chosen; DONE."""
    marks = state.marks[seat]
    cards = sorted(state.hands[seat] + state.tables[seat])
    legal = [DISCARD_OF[c] for c in cards if c not in marks]
    legal.append(DONE)
    return legal


LEGAL: Final[dict[DecisionKind, Callable[[State, int], list[Action]]]] = {
    DecisionKind.PLAY: play,
    DecisionKind.PLAY_TEMP: play_temp,
    DecisionKind.DEATH_DISCARD: death_discard,
    DecisionKind.DEATH_ALONE: death_alone,
    DecisionKind.DISCARD_KEEPER_LIMIT: own_keepers,
    DecisionKind.DISCARD_HAND_LIMIT: own_hand,
    DecisionKind.TAXES_CHOICE: taxes_choice,
    DecisionKind.WAR_TARGET: war_target,
    DecisionKind.GOAL_DISCARD: goal_discard,
    DecisionKind.CHOOSE_PLAYER: choose_player,
    DecisionKind.ROTATE_DIRECTION: rotate_direction,
    DecisionKind.EXCHANGE_KEEPERS: exchange_keepers,
    DecisionKind.TRASH_SOMETHING: trash_something,
    DecisionKind.STEAL_SOMETHING: steal_something,
    DecisionKind.TRASH_RULE: trash_rule,
    DecisionKind.SIMPLIFY: simplify,
    DecisionKind.REPLAY_FROM_DISCARD: replay_from_discard,
    DecisionKind.DEAL_CARD: deal_card,
    DecisionKind.TAX_GIVE: tax_give,
    DecisionKind.TRASH_DAY: trash_day,
}
"""The legal-set function of every decision kind: ``LEGAL[kind](state, seat)``."""


def legal_for(state: State, kind: DecisionKind, seat: int) -> list[Action]:
    """The canonical legal set of ``kind`` for ``seat`` in this state."""
    return LEGAL[kind](state, seat)
