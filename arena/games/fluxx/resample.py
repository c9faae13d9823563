"""Determinization and resampling: full states consistent with what one seat knows.

``determinize(obs, rng)`` rebuilds every public zone and the seat's own private zones
from an observation and deals every card the seat has not seen at random into the
hidden places (other hands, other seats' picks, temp hands and pool when the seat is not
the active one, the draw pile), so ``observe(determinize(obs, rng), obs.seat) == obs``.
A Creeper the seat has not seen can only be in the draw pile (§8.2) and goes there.
The sampled state has a new seed, no history and no events: a world to search in.

``resample_hidden(state, seat, rng)`` does the same on a real state, keeping its history
and events: the hidden-information tests compare the seat's observations of both.
"""

from __future__ import annotations

import random

from .actions import Action, DecisionKind
from .cards import IS_CREEPER, NUM_CARDS, CardId
from .flow import OP_TRASH_DAY
from .legal import legal_for
from .observation import Observation, observe
from .state import (
    Z_BASIC,
    Z_BOX,
    Z_DISCARD,
    Z_DRAW,
    Z_GOALS,
    Z_HAND,
    Z_META,
    Z_POOL,
    Z_RULES,
    Z_TABLE,
    Z_TEMP,
    Z_TRANSIT,
    State,
    count_keepers,
    empty_state,
)


class InconsistentObservationError(ValueError):
    """The observation's card counts cannot come from one deck of 100 cards."""


def determinize(obs: Observation, rng: random.Random) -> State:
    """A random full state that ``obs.seat`` cannot tell from the real one."""
    config = obs.config
    n = config.players
    me = obs.seat
    mine = me == obs.active
    state = empty_state(config, rng.getrandbits(63))
    loc = state.loc
    seen = [False] * NUM_CARDS

    def put(cards: list[CardId], zone: int) -> list[CardId]:
        for c in cards:
            if seen[c]:
                raise InconsistentObservationError(f"card {c} is in two places")
            seen[c] = True
            loc[c] = zone
        return cards

    loc[0] = Z_BASIC
    seen[0] = True
    if 1 not in obs.box:
        loc[1] = Z_META
        seen[1] = True
    state.box = put(list(obs.box), Z_BOX)
    state.discard = put(list(obs.discard), Z_DISCARD)
    state.rules = put(list(obs.rules), Z_RULES)
    state.goals = put(list(obs.goals), Z_GOALS)
    state.transit = put(list(obs.transit), Z_TRANSIT)
    state.tables = [put(list(t), Z_TABLE + s) for s, t in enumerate(obs.tables)]
    state.hands[me] = put(list(obs.hand), Z_HAND + me)
    if mine:
        state.temp = [put(list(t), Z_TEMP) for t in obs.temp]
        state.pool = put(list(obs.pool), Z_POOL)
        state.allot = [put(list(a), Z_POOL) for a in obs.allot]
    unseen = [c for c in range(NUM_CARDS) if not seen[c]]
    creepers = [c for c in unseen if IS_CREEPER[c]]
    others = [c for c in unseen if not IS_CREEPER[c]]
    rng.shuffle(others)
    hidden = sum(obs.hand_sizes) - obs.hand_sizes[me]
    if not mine:
        hidden += sum(obs.temp_sizes) + obs.pool_size + sum(obs.allot_sizes)
    if len(unseen) != hidden + obs.draw_size or len(creepers) > obs.draw_size:
        raise InconsistentObservationError(
            f"{len(unseen)} unseen cards ({len(creepers)} Creepers) for {hidden} hidden "
            f"hand/temp/pool cards and a draw pile of {obs.draw_size}"
        )

    def deal(count: int, zone: int) -> list[CardId]:
        cards = others[len(others) - count :]
        del others[len(others) - count :]
        return put(cards, zone)

    for s in range(n):
        if s != me:
            state.hands[s] = deal(obs.hand_sizes[s], Z_HAND + s)
    if not mine:
        state.temp = [deal(size, Z_TEMP) for size in obs.temp_sizes]
        state.pool = deal(obs.pool_size, Z_POOL)
        state.allot = [deal(size, Z_POOL) for size in obs.allot_sizes]
    draw = others + creepers
    rng.shuffle(draw)
    state.draw = put(draw, Z_DRAW)
    trash_day = any(f[0] == OP_TRASH_DAY for f in obs.stack)
    for s in range(n):
        if s == me:
            state.marks[s] = list(obs.marks)
        elif obs.mark_counts[s]:
            pickable = state.hands[s] + (state.tables[s] if trash_day else [])
            state.marks[s] = rng.sample(sorted(pickable), obs.mark_counts[s])
    count_keepers(state)
    _copy_public(state, obs)
    return state


def _copy_public(state: State, obs: Observation) -> None:
    state.turn = obs.turn
    state.active = obs.active
    state.extra = obs.extra
    state.another = obs.another
    state.drawn = obs.drawn
    state.played = obs.played
    state.window = obs.window
    state.escalation = obs.escalation
    state.taxes_keep = obs.taxes_keep
    state.decisions = obs.decisions
    state.stack = [list(f) for f in obs.stack]
    state.result = obs.result
    state.kind = obs.decision
    state.deciding = obs.deciding
    state.legal = _legal(state, obs.decision, obs.deciding)


def _legal(state: State, kind: DecisionKind | None, seat: int) -> list[Action]:
    return legal_for(state, kind, seat) if kind is not None else []


def resample_hidden(state: State, seat: int, rng: random.Random) -> State:
    """A copy of ``state`` in which everything ``seat`` may not know is dealt anew: the
    other hands (and picks), the temp hands and pool unless ``seat`` is active, the draw
    pile order and the seed. History and events are kept as they are."""
    other = determinize(observe(state, seat), rng)
    other.history = list(state.history)
    other.events = list(state.events)
    return other
