"""A one-ply policy that knows the Goals: it tries each legal action on one sampled world
and keeps the one whose outcome scores best.

The world is drawn from the observation alone (``determinize``: other hands and the draw
pile at random, consistent with what the seat knows), so the policy plays the same
served as a bot as in-process and learns nothing it may not know. Each action is applied
to a copy of that world by the engine itself, so every rule (who meets a Goal, what a
New Rule changes, what an Action does) is the engine's, never a second copy. The outcome
is scored:

* a win for this seat is best, a win for another seat is worst (so it never plays a Goal
  another seat meets, nor a card that completes another seat's Goal);
* otherwise: this seat's progress towards the Goals in play (their Keepers on its table,
  and in its hand) minus the leading opponent's progress on its table, Keepers in play,
  Creepers as a handicap, and a Keeper limit counted against seats that hold more
  Keepers than it allows (so limits are played against the leader).
"""

from __future__ import annotations

import random
from typing import Final

from arena.policies import MatchInfo, seed_for_match

from .actions import Action
from .cards import (
    ALL_YOU_NEED_IS_LOVE,
    BRAIN,
    BRAIN_NO_TV,
    FIVE_KEEPERS,
    LOVE,
    PAIR_GOALS,
    PARTY,
    PARTY_FOOD,
    PARTY_SNACKS,
    PEACE,
    PEACE_NO_WAR,
    TEN_CARDS_IN_HAND,
)
from .engine import apply_unchecked
from .numbers import inflation, keeper_limit
from .observation import Observation
from .resample import determinize
from .state import Z_HAND, Z_TABLE, State

WIN: Final = 1000.0
"""The score of a win (negated: another seat's win)."""
ON_TABLE: Final = 4.0
"""Per card a Goal in play needs that is on the seat's table."""
IN_HAND: Final = 1.5
"""Per card a Goal in play needs that is in this seat's hand (ready to play)."""
KEEPER: Final = 0.5
"""Per Keeper in play: raw material for the next Goals, and for 5 Keepers."""
CREEPER: Final = 2.0
"""Per Creeper on the seat's table: it blocks every Goal that does not name it."""
OPPONENT: Final = 1.0
"""Weight of the leading opponent's progress against this seat's."""
HAND_CARD: Final = 0.2
"""Per card in this seat's hand: more choices later."""

_SINGLE: Final = {ALL_YOU_NEED_IS_LOVE: (LOVE,), BRAIN_NO_TV: (BRAIN,), PEACE_NO_WAR: (PEACE,)}


def _needs(goal: int) -> tuple[int, ...]:
    """The Keepers (and named Creepers) a Goal asks one seat to hold ((): a counting Goal)."""
    pair = PAIR_GOALS.get(goal)
    if pair is not None:
        return pair
    if goal == PARTY_SNACKS:
        return (PARTY, *PARTY_FOOD)
    return _SINGLE.get(goal, ())


NEEDS: Final = {goal: _needs(goal) for goal in range(25, 54)}
"""Per Goal: the cards it asks for."""


def progress(state: State, seat: int, mine: bool) -> float:
    """How near ``seat`` is to meeting the Goals in play, judged from its table (and its
    hand when ``mine``: another seat's hand is unknown)."""
    loc = state.loc
    table = Z_TABLE + seat
    hand = Z_HAND + seat
    best = 0.0
    for goal in state.goals:
        needs = NEEDS.get(goal, ())
        if needs:
            if goal == PARTY_SNACKS:
                needs = needs[: 2 + inflation(state)]
            score = ON_TABLE * sum(1 for c in needs if loc[c] == table)
            if mine:
                score += IN_HAND * sum(1 for c in needs if loc[c] == hand)
        elif goal == FIVE_KEEPERS:
            score = ON_TABLE * state.keepers[seat] * 2 / (5 + inflation(state))
        else:
            assert goal == TEN_CARDS_IN_HAND
            score = ON_TABLE * len(state.hands[seat]) * 2 / (10 + inflation(state))
        best = max(best, score)
    keepers = state.keepers[seat]
    creepers = len(state.tables[seat]) - keepers
    limit = keeper_limit(state)
    if 0 <= limit < keepers:  # the limit will cost this seat Keepers
        best *= limit / keepers
        keepers = limit
    return best + KEEPER * keepers - CREEPER * creepers


def evaluate(state: State, seat: int) -> float:
    """The outcome for ``seat``: a win, a loss, or its progress against the leader."""
    result = state.result
    if result is not None:
        if result.winner < 0:
            return 0.0
        return WIN if result.winner == seat else -WIN
    others = [progress(state, s, False) for s in range(state.config.players) if s != seat]
    own = progress(state, seat, True) + HAND_CARD * len(state.hands[seat])
    return own - OPPONENT * max(others)


class GreedyPolicy:
    """Tries every legal action on one world sampled from the observation and takes the
    best-scoring outcome (``evaluate``); ties go to the canonical order.

    ``seed`` drives the sampled worlds, so two instances with the same seed play alike."""

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    def match_start(self, info: MatchInfo) -> None:
        """Served as a bot: reseed from the match, so each match replays identically."""
        self._rng.seed(seed_for_match(info))

    def choose(self, obs: Observation) -> Action:
        """The legal action whose outcome scores best."""
        return self.choose_in(obs, None)

    def choose_in(self, obs: Observation, world: State | None) -> Action:
        """``choose``, judged in ``world`` (a state consistent with ``obs``: a search's
        sample) instead of one sampled here; None: sample one."""
        legal = obs.legal
        if len(legal) == 1:
            return legal[0]
        scores = self._scores(obs, world)
        best, best_score = legal[0], -2 * WIN
        for action, score in zip(legal, scores, strict=True):
            if score > best_score:
                best, best_score = action, score
        return best

    def ranked(self, obs: Observation, world: State | None = None) -> list[Action]:
        """The legal actions, best first (ties in canonical order), judged as
        ``choose_in`` judges: the order in which a search (``arena/policies/ismcts.py``)
        widens."""
        legal = obs.legal
        if len(legal) == 1:
            return list(legal)
        scores = self._scores(obs, world)
        order = sorted(range(len(legal)), key=lambda index: -scores[index])
        return [legal[index] for index in order]

    def _scores(self, obs: Observation, world: State | None) -> list[float]:
        """Each legal action's outcome, scored on ``world`` (None: one sampled from
        ``obs``)."""
        if world is None:
            world = determinize(obs, self._rng)
        seat = obs.seat
        scores = []
        for action in obs.legal:
            trial = world.clone()
            apply_unchecked(trial, action)
            scores.append(evaluate(trial, seat))
        return scores


def standings(state: State) -> list[float]:
    """Per seat, its progress towards the Goals in play, judged from everything (a
    search's sampled world): how a search (``Game.standings``) ranks seats mid-match."""
    return [
        progress(state, seat, True) + HAND_CARD * len(state.hands[seat])
        for seat in range(state.config.players)
    ]
