"""The turn (FLUXX.md §6): start, Death, draw phase, play phase with its free actions,
end phase, next turn; and the decisions they ask."""

from __future__ import annotations

from . import legal
from .actions import (
    DISCARD_DEATH,
    DISCARD_LONE_DEATH_CODE,
    GET_ON_WITH_IT_CODE,
    Action,
    DecisionKind,
)
from .cards import (
    DEATH,
    FIRST_PLAY_RANDOM,
    NO_HAND_BONUS,
)
from .flow import (
    OP_DEATH,
    OP_DRAW_PHASE,
    OP_END_PHASE,
    OP_NEXT_TURN,
    OP_PLAY_PHASE,
    OP_RESOLVE,
    OP_SETTLE,
    OP_TURN_START,
    ask,
    end_game,
    rng,
)
from .moves import discard_cards, draw_into
from .numbers import (
    ALL,
    draw_target,
    hand_limit,
    inflation,
    keeper_limit,
    play_target,
    plays_left,
)
from .state import Z_HAND, Z_RULES, Z_TABLE, Z_TRANSIT, Frame, State


def op_turn_start(state: State, frame: Frame) -> None:
    """§6.1: end at the turn cap [D43], else start the turn's phases."""
    stack = state.stack
    stack.pop()
    if state.turn >= state.config.options.max_turns:
        end_game(state, -1, "turn_cap")
        return
    state.turn += 1
    state.drawn = 0
    state.played = 0
    state.events.append(("turn", state.turn, state.active, state.extra))
    stack += ([OP_NEXT_TURN], [OP_END_PHASE], [OP_PLAY_PHASE], [OP_DRAW_PHASE], [OP_DEATH])


def op_death(state: State, frame: Frame) -> None:
    """§6.2: Death on the active table takes one other card of it, or may go itself."""
    state.stack.pop()
    seat = state.active
    if state.loc[DEATH] != Z_TABLE + seat:
        return
    state.stack.append([OP_SETTLE])
    others = legal.death_discard(state, seat)
    if others:
        ask(state, DecisionKind.DEATH_DISCARD, seat, others)
    else:
        ask(state, DecisionKind.DEATH_ALONE, seat, legal.death_alone(state, seat))


def on_death_discard(state: State, seat: int, action: Action) -> None:
    """DEATH_DISCARD: the chosen card goes."""
    discard_cards(state, (action.card,), seat, "death")


def on_death_alone(state: State, seat: int, action: Action) -> None:
    """DEATH_ALONE: discard Death or keep it."""
    if action is DISCARD_DEATH:
        discard_cards(state, (DEATH,), seat, "lone_death")
    else:
        state.events.append(("keep_death", seat))


def op_draw_phase(state: State, frame: Frame) -> None:
    """§6.3: No-Hand Bonus, then the draw target as computed when the phase begins;
    one unit; the owed-draw window opens [D49]."""
    stack = state.stack
    stack.pop()
    seat = state.active
    target = draw_target(state)
    hand = state.hands[seat]
    if not hand and state.loc[NO_HAND_BONUS] == Z_RULES:
        draw_into(state, seat, 3 + inflation(state), hand, Z_HAND + seat, "hand")
    draw_into(state, seat, target, hand, Z_HAND + seat, "hand")
    state.drawn = target
    state.window = True
    stack.append([OP_SETTLE])


def op_play_phase(state: State, frame: Frame) -> None:
    """§6.4: the next play, or the end of the plays."""
    seat = state.active
    hand = state.hands[seat]
    if not hand or plays_left(state) <= 0:
        state.window = False
        state.stack.pop()
        return
    loc = state.loc
    if state.played == 0 and len(hand) >= 2 and loc[FIRST_PLAY_RANDOM] == Z_RULES:
        target = play_target(state)
        if target == ALL or target >= 2:
            ordered = sorted(hand)
            card = ordered[rng(state).randrange(len(ordered))]
            _play_from_hand(state, seat, card, "random")
            return
    ask(state, DecisionKind.PLAY, seat, legal.play(state, seat))


def _play_from_hand(state: State, seat: int, card: int, how: str) -> None:
    state.played += 1
    state.hands[seat].remove(card)
    state.loc[card] = Z_TRANSIT
    state.transit.append(card)
    state.events.append(("play", seat, card, how))
    state.stack += ([OP_SETTLE], [OP_RESOLVE, card])


def on_play(state: State, seat: int, action: Action) -> None:
    """PLAY: a card from the main hand, or a free action (§6.5)."""
    code = action.code
    if code == GET_ON_WITH_IT_CODE:
        hand = state.hands[seat]
        discard_cards(state, sorted(hand), seat, "get_on_with_it")
        draw_into(state, seat, 3 + inflation(state), hand, Z_HAND + seat, "hand")
        state.window = False
        state.stack.pop()  # the play phase is over [D23]
        state.stack.append([OP_SETTLE])
    elif code == DISCARD_LONE_DEATH_CODE:
        discard_cards(state, (DEATH,), seat, "lone_death")
        state.stack.append([OP_SETTLE])
    else:
        _play_from_hand(state, seat, action.card, "hand")


def op_end_phase(state: State, frame: Frame) -> None:
    """§6.6: the active seat discards Keepers, then hand cards, down to the limits."""
    seat = state.active
    limit = keeper_limit(state)
    if 0 <= limit < state.keepers[seat]:
        ask(state, DecisionKind.DISCARD_KEEPER_LIMIT, seat, legal.own_keepers(state, seat))
        return
    limit = hand_limit(state)
    hand = state.hands[seat]
    if 0 <= limit < len(hand):
        ask(state, DecisionKind.DISCARD_HAND_LIMIT, seat, legal.own_hand(state, seat))
        return
    state.stack.pop()


def on_limit_discard(state: State, seat: int, action: Action) -> None:
    """DISCARD_KEEPER_LIMIT / DISCARD_HAND_LIMIT: one card; settle follows."""
    keeper = state.loc[action.card] >= Z_TABLE
    discard_cards(state, (action.card,), seat, "keeper_limit" if keeper else "hand_limit")
    if state.stack[-1][0] != OP_SETTLE:
        state.stack.append([OP_SETTLE])


def op_next_turn(state: State, frame: Frame) -> None:
    """§6.7: an extra turn after Take Another Turn, else the next seat [D24]."""
    stack = state.stack
    stack.pop()
    if state.another:
        state.extra = True
    else:
        state.extra = False
        state.active = (state.active + 1) % state.config.players
    state.another = False
    stack.append([OP_TURN_START])
