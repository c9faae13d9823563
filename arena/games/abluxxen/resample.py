"""Determinization: a full state consistent with what one seat knows.

Search bots sample the unknown cards (other hands, the deck order) and play out; the
hidden-information tests use the same sampler to check that observations depend only on
what the seat may know. ``determinize(obs, rng)`` rebuilds every public zone and the
seat's own hand from the observation, puts each opponent's publicly known cards in that
opponent's hand, and deals every remaining card at random into the unknown part of the
other hands and the deck. So ``observe(determinize(obs, rng), obs.seat) == obs``.

The sampled state has no history and no events, and the shuffles of later deals are new
random ones: it is a world to search in, not a record of the real match.
"""

from __future__ import annotations

import random

from .actions import DecisionKind
from .cards import CARDS_OF_VALUE, JOKER, VALUE_OF, CardId
from .engine import shuffle_decks
from .observation import Observation
from .state import CardSet, State


class InconsistentObservationError(ValueError):
    """The observation's card counts cannot come from one deck of 109 cards."""


def determinize(obs: Observation, rng: random.Random) -> State:
    """A random full state that ``obs.seat`` cannot tell from the real one."""
    config = obs.config
    n = config.players
    free: list[list[CardId]] = [list(CARDS_OF_VALUE[v]) for v in range(JOKER + 1)]
    for row in free:
        rng.shuffle(row)

    def take(value: int) -> CardId:
        if not free[value]:
            raise InconsistentObservationError(f"more cards of value {value} than exist")
        return free[value].pop()

    state = State.__new__(State)
    state.config = config
    state.deal = obs.deal
    state.start_seat = obs.start_seat
    state.hands = [[[] for _ in range(JOKER + 1)] for _ in range(n)]
    state.hand_sizes = list(obs.hand_sizes)
    state.known = [[0] * (JOKER + 1) for _ in range(n)]
    state.displays = []
    for display in obs.displays:
        sets: list[CardSet] = []
        for value, naturals, jokers in display:
            cards = [take(value) for _ in range(naturals)] + [take(JOKER) for _ in range(jokers)]
            sets.append((value, tuple(cards)))
        state.displays.append(sets)
    state.pool = [[take(v) for v in slot] for slot in obs.pool]
    state.discard = [take(v) for v in obs.discard]
    state.shadow = [[] for _ in range(JOKER + 1)]
    for index, count in enumerate(obs.shadow):
        state.shadow[index + 1] = [take(index + 1) for _ in range(count)]
    for value in obs.hand:
        state.hands[obs.seat][value].append(take(value))
    unknown_slots: list[int] = []
    for seat in range(n):
        for value in obs.known[seat]:
            state.known[seat][value] += 1
            if seat != obs.seat:
                state.hands[seat][value].append(take(value))
        if seat != obs.seat:
            missing = obs.hand_sizes[seat] - len(obs.known[seat])
            if missing < 0:
                raise InconsistentObservationError(f"seat {seat} has more known cards than cards")
            unknown_slots += [seat] * missing
    rest = [card for row in free for card in row]
    if len(rest) != len(unknown_slots) + obs.deck_size:
        raise InconsistentObservationError(
            f"{len(rest)} unseen cards for {len(unknown_slots)} hidden hand cards and a deck "
            f"of {obs.deck_size}"
        )
    rng.shuffle(rest)
    for seat, card in zip(unknown_slots, rest, strict=False):
        state.hands[seat][VALUE_OF[card]].append(card)
    state.deck = rest[len(unknown_slots) :]
    state.turn = obs.turn
    state.active = obs.active
    state.kind = obs.decision
    state.deciding = obs.deciding
    state.played = _played_set(state, obs)
    state.checks = list(reversed(obs.checks))
    state.victim = obs.victim
    state.drawer = obs.drawer
    state.draws_left = obs.draws_left
    state.abluxxed = obs.abluxxed
    state.deal_results = list(obs.past_deals)
    state.match_scores = [sum(d.scores[s] for d in obs.past_deals) for s in range(n)]
    state.match_hands = [sum(d.hand_cards[s] for d in obs.past_deals) for s in range(n)]
    state.result = None
    state.decks = shuffle_decks(config, rng)
    state.history = []
    state.events = []
    return state


def _played_set(state: State, obs: Observation) -> CardSet | None:
    """The set played this turn is the active seat's top set (§4); reuse its card ids."""
    if obs.played is None:
        return None
    display = state.displays[obs.active]
    if obs.decision is not DecisionKind.PLAY and display:
        return display[-1]
    raise InconsistentObservationError("a set was played but the active display is empty")
