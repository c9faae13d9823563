"""The rules engine: setup, the run loop, the legal sets and ``apply`` (FLUXX.md §4, §14).

``apply`` checks an action against the pending decision's canonical legal set (built
once when the decision was asked), then ``_apply`` records it, lets the decision's
handler change the state, and runs the frame stack (``flow.py``) until the next
decision or the end. Nothing here does I/O or reads a clock; all randomness comes from
the match's seed (``flow.rng``).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Final

from . import effects, turn
from .actions import ACTIONS, Action, DecisionKind, IllegalActionError, MalformedActionError
from .cards import DECK_CARDS, IS_CREEPER, CardId
from .flow import OP_SETTLE, OP_TURN_START, rng
from .moves import draw_into
from .options import GameConfig
from .settle import on_taxes_choice, on_war_target, op_settle
from .state import Z_BASIC, Z_BOX, Z_DRAW, Z_HAND, Z_META, Z_TABLE, Frame, State, empty_state

Op = Callable[[State, Frame], None]
Handler = Callable[[State, int, Action], None]

OPS: Final[tuple[Op, ...]] = (
    turn.op_turn_start,
    turn.op_death,
    turn.op_draw_phase,
    turn.op_play_phase,
    turn.op_end_phase,
    turn.op_next_turn,
    op_settle,
    effects.op_resolve,
    effects.op_finish,
    effects.op_compound,
    effects.op_deal,
    effects.op_taxation,
    effects.op_trash_day,
    effects.op_simplify,
    effects.op_agenda_left,
)
"""Each op's function, by op code (``flow.OP_*``)."""


HANDLERS: Final[dict[DecisionKind, Handler]] = {
    DecisionKind.PLAY: turn.on_play,
    DecisionKind.PLAY_TEMP: effects.on_play_temp,
    DecisionKind.DEATH_DISCARD: turn.on_death_discard,
    DecisionKind.DEATH_ALONE: turn.on_death_alone,
    DecisionKind.DISCARD_KEEPER_LIMIT: turn.on_limit_discard,
    DecisionKind.DISCARD_HAND_LIMIT: turn.on_limit_discard,
    DecisionKind.TAXES_CHOICE: on_taxes_choice,
    DecisionKind.WAR_TARGET: on_war_target,
    DecisionKind.GOAL_DISCARD: effects.on_goal_discard,
    DecisionKind.CHOOSE_PLAYER: effects.on_choose_player,
    DecisionKind.ROTATE_DIRECTION: effects.on_rotate,
    DecisionKind.EXCHANGE_KEEPERS: effects.on_exchange,
    DecisionKind.TRASH_SOMETHING: effects.on_trash_something,
    DecisionKind.STEAL_SOMETHING: effects.on_steal,
    DecisionKind.TRASH_RULE: effects.on_trash_rule,
    DecisionKind.SIMPLIFY: effects.on_simplify,
    DecisionKind.REPLAY_FROM_DISCARD: effects.on_replay,
    DecisionKind.DEAL_CARD: effects.on_deal_card,
    DecisionKind.TAX_GIVE: effects.on_tax_give,
    DecisionKind.TRASH_DAY: effects.on_trash_day,
}
"""Each decision kind's answer handler."""


# --------------------------------------------------------------------------- setup


def new_game(config: GameConfig, rng_: random.Random) -> State:
    """A new match seeded from ``rng_``, its first decision pending."""
    return new_game_from_seed(config, rng_.getrandbits(63))


def new_game_from_seed(config: GameConfig, seed: int) -> State:
    """A new match from its seed (as recorded): shuffle, deal, Creeper replacement (§4)."""
    state = empty_state(config, seed)
    meta = config.options.meta_rule
    loc = state.loc
    loc[0] = Z_BASIC
    if meta == "none":
        loc[1] = Z_BOX
        state.box.append(1)
    else:
        loc[1] = Z_META
    deck: list[CardId] = []
    for card in DECK_CARDS:
        if meta == "no_creepers" and IS_CREEPER[card]:
            loc[card] = Z_BOX
            state.box.append(card)
        else:
            deck.append(card)
    rng(state).shuffle(deck)
    deck.reverse()  # the first card dealt is the top (the end of the list)
    for card in deck:
        loc[card] = Z_DRAW
    state.draw = deck
    n = config.players
    dealt: list[list[CardId]] = [[] for _ in range(n)]
    for _ in range(3):
        for seat in range(n):
            card = deck.pop()
            dealt[seat].append(card)
            loc[card] = Z_HAND + seat
    for seat in range(n):
        state.hands[seat] = [c for c in dealt[seat] if not IS_CREEPER[c]]
        state.events.append(("setup_deal", seat, tuple(dealt[seat])))
    for seat in range(n):
        hand = state.hands[seat]
        for card in dealt[seat]:
            if IS_CREEPER[card]:
                loc[card] = Z_TABLE + seat
                state.tables[seat].append(card)
                state.events.append(("creeper", seat, card))
        if len(hand) < 3:
            draw_into(state, seat, 3 - len(hand), hand, Z_HAND + seat, "hand")
    state.stack = [[OP_TURN_START], [OP_SETTLE]]
    run(state)
    return state


# ---------------------------------------------------------------- the run loop


def run(state: State) -> None:
    """Execute frames until a decision is pending or the match is over."""
    stack = state.stack
    ops = OPS
    while state.kind is None and stack:
        frame = stack[-1]
        ops[frame[0]](state, frame)


def legal_actions(state: State, seat: int | None = None) -> list[Action]:
    """The pending decision's canonical legal set (FLUXX.md §14), sorted by code; empty
    for a seat that is not deciding."""
    if state.kind is None or (seat is not None and seat != state.deciding):
        return []
    return list(state.legal)


def apply(state: State, action: Action | object, seat: int | None = None) -> None:
    """Answer the pending decision with ``action`` for the deciding seat (or ``seat``,
    which must be the deciding one).

    ``action`` may be anything (it often comes from a bot): MalformedActionError if it
    is not an action of the game, IllegalActionError naming the legal set if the rules
    do not allow it now.
    """
    if not isinstance(action, Action):
        raise MalformedActionError(f"{action!r} is not an Action")
    canonical = ACTIONS.get(action.code)
    if canonical is not action and (
        canonical is None
        or (canonical.kind, canonical.card, canonical.seat, canonical.other)
        != (action.kind, action.card, action.seat, action.other)
    ):  # A copy of an action is taken as the original; a forged one is malformed.
        raise MalformedActionError(f"{action!r} does not match the action with its code")
    kind = state.kind
    if kind is None:
        raise IllegalActionError("the match is over; no action is legal")
    if seat is not None and seat != state.deciding:
        raise IllegalActionError(
            f"seat {seat} cannot act: seat {state.deciding} decides {kind.name}"
        )
    if canonical not in state.legal:
        legal = ", ".join(str(a) for a in state.legal)
        raise IllegalActionError(
            f"{action} is not legal for seat {state.deciding} at {kind.name}; legal: {legal}"
        )
    _apply(state, kind, canonical)


def apply_unchecked(state: State, action: Action) -> None:
    """Apply an action known to be legal (taken from ``legal_actions``): for playouts."""
    kind = state.kind
    assert kind is not None
    _apply(state, kind, action)


def _apply(state: State, kind: DecisionKind, action: Action) -> None:
    seat = state.deciding
    state.history.append((seat, action.code))
    state.decisions += 1
    state.kind = None
    state.legal = []
    HANDLERS[kind](state, seat, action)
    run(state)
