"""Settle: the state checks after every resolution step, in order (FLUXX.md §9) [D20].

The SETTLE frame stays on the stack while one of its checks waits for a decision, and
runs again from step 1 once it is answered (each War move, Taxes discard and limit
discard is itself a resolution step).
"""

from __future__ import annotations

from . import legal
from .actions import PAY, Action, DecisionKind
from .cards import MONEY, PEACE, SILVER_LINING, TAXES, WAR
from .flow import ask, end_game
from .goals import find_winner
from .moves import discard_cards, draw_into, move_to_table
from .numbers import draw_target, hand_limit, keeper_limit
from .state import Z_HAND, Z_RULES, Z_TABLE, Frame, State


def op_settle(state: State, frame: Frame) -> None:
    """Run §9 steps 1–5 until nothing changes, or until a decision is needed."""
    loc = state.loc
    while True:
        zone = loc[TAXES]
        if zone >= Z_TABLE and zone == loc[MONEY] and not state.taxes_keep:
            holder = zone - Z_TABLE
            if loc[SILVER_LINING] == Z_RULES:
                ask(state, DecisionKind.TAXES_CHOICE, holder, legal.taxes_choice(state, holder))
                return
            discard_cards(state, (TAXES, MONEY), holder, "taxes")
            continue
        zone = loc[WAR]
        if zone >= Z_TABLE and zone == loc[PEACE]:
            holder = zone - Z_TABLE
            ask(state, DecisionKind.WAR_TARGET, holder, legal.war_target(state, holder))
            return
        if _limits(state):
            return
        winner = find_winner(state)
        if winner >= 0:
            end_game(state, winner, "goal")
            return
        if state.window:
            owed = draw_target(state) - state.drawn
            if owed > 0:
                seat = state.active
                draw_into(state, seat, owed, state.hands[seat], Z_HAND + seat, "hand")
                state.drawn += owed
                continue
        break
    state.stack.pop()


def _limits(state: State) -> bool:
    """§9 step 3: ask the first non-active seat over a limit to discard one card."""
    keepers = keeper_limit(state)
    hand = hand_limit(state)
    if keepers < 0 and hand < 0:
        return False
    n = state.config.players
    active = state.active
    for k in range(1, n):
        seat = (active + k) % n
        if 0 <= keepers < state.keepers[seat]:
            ask(state, DecisionKind.DISCARD_KEEPER_LIMIT, seat, legal.own_keepers(state, seat))
            return True
        if 0 <= hand < len(state.hands[seat]):
            ask(state, DecisionKind.DISCARD_HAND_LIMIT, seat, legal.own_hand(state, seat))
            return True
    return False


def on_taxes_choice(state: State, seat: int, action: Action) -> None:
    """TAXES_CHOICE: PAY discards both (Taxes first); KEEP leaves the pair [D7, D45]."""
    if action is PAY:
        discard_cards(state, (TAXES, MONEY), seat, "taxes")
    else:
        state.taxes_keep = True
        state.events.append(("taxes_keep", seat))


def on_war_target(state: State, seat: int, action: Action) -> None:
    """WAR_TARGET: War moves to the chosen seat's table [D6]."""
    move_to_table(state, WAR, action.seat, "war")
