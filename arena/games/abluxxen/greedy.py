"""A one-ply heuristic: abluxx when possible, shed big sets, keep jokers, draw what combines.

Every decision is scored from the observation alone (no memory, no look-ahead), so the
policy plays the same from a served bot as in-process. The weights were tuned by playing
against RandomPolicy (tests/sdk/test_greedy.py measures the result).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import ClassVar, Final

from arena.policies import MatchInfo, seed_for_match

from .actions import Action, ActionKind, DecisionKind
from .cards import JOKER
from .observation import Observation

MAX_NUMBER: Final = 13
"""The highest number card; a joker set (value 14) is above it."""

NEAR_END_SUPPLY: Final = 8
"""Cards left in deck + pool below which the game is about to end by exhaustion: every
card taken into the hand then counts -1 at the end, so stop taking and drawing."""

JOKER_COST: Final = 2.5
"""Score charged per joker spent on a set that neither abluxxes nor empties the hand:
a joker kept is a wildcard for a bigger or safer set later."""

ABLUXX_WEIGHT: Final = 1.5
"""Score per abluxxed card: the victim loses those display cards and must refill."""

EMPTY_HAND_BONUS: Final = 100.0
"""Emptying the hand ends the deal while this seat holds nothing: almost always best."""

SPLIT_COST: Final = 0.4
"""Per number card of the played value left behind in the hand: a split set is smaller
(easier to abluxx, fewer cards shed) when it is played later."""

VALUE_WEIGHT: Final = 0.08
"""Per value point: a high set is harder to abluxx."""


class GreedyPolicy:
    """Scores each legal action with hand-written heuristics and takes the best.

    ``seed`` only breaks exact ties, so two instances with the same seed play alike.
    """

    instant: ClassVar[bool] = True
    """A decision takes microseconds: in-process seats run it on the loop, inside its
    turn budget (``referee/seats.py``), where a thread would cost more than it."""

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    def match_start(self, info: MatchInfo) -> None:
        """Served as a bot: reseed from the match, so each match replays identically."""
        self._rng.seed(seed_for_match(info))

    def choose(self, obs: Observation) -> Action:
        """The legal action with the highest heuristic score."""
        scorer = _Scorer(obs)
        best: list[Action] = []
        best_score = float("-inf")
        for action in obs.legal:
            score = scorer.score(action)
            if score > best_score:
                best, best_score = [action], score
            elif score == best_score:
                best.append(action)
        return best[0] if len(best) == 1 else self._rng.choice(best)

    def ranked(self, obs: Observation, world: object = None) -> list[Action]:
        """``ranked``: the order in which a search (``arena/policies/ismcts.py``) widens
        (these heuristics judge the observation alone: no ``world``)."""
        return ranked(obs)


def ranked(obs: Observation) -> list[Action]:
    """The legal actions, best first by the same scores ``GreedyPolicy`` uses (ties in
    canonical order): search bots expand moves in this order."""
    scorer = _Scorer(obs)
    scored = [(-scorer.score(action), index) for index, action in enumerate(obs.legal)]
    scored.sort()
    return [obs.legal[index] for _, index in scored]


class _Scorer:
    """Scores the actions of one observation; caches what every action needs."""

    def __init__(self, obs: Observation) -> None:
        self.obs = obs
        self.hand = Counter(obs.hand)
        self.jokers = self.hand[JOKER]
        self.supply = obs.deck_size + sum(len(slot) for slot in obs.pool)

    def score(self, action: Action) -> float:
        """Higher is better; only comparable within one decision."""
        decision = self.obs.decision
        if decision is DecisionKind.PLAY:
            return self._play(action)
        if decision is DecisionKind.ATTACKER_TAKE:
            return self._take(action)
        if decision is DecisionKind.VICTIM_CHOICE:
            return self._victim(action)
        if decision is DecisionKind.DRAW or decision is DecisionKind.OPTIONAL_DRAW:
            return self._draw(action)
        if decision is DecisionKind.SHADOW_PICK:
            return self.hand[action.value] + action.value / 100
        return 0.0

    # ------------------------------------------------------------------------ PLAY

    def _play(self, action: Action) -> float:
        obs = self.obs
        count = action.count
        if count == len(obs.hand):
            return EMPTY_HAND_BONUS + count
        abluxxed = self._abluxx_cards(action.value, count)
        score = 2.0 * count + ABLUXX_WEIGHT * abluxxed + VALUE_WEIGHT * action.value
        if action.jokers and not abluxxed:
            score -= JOKER_COST * action.jokers
        if action.value <= MAX_NUMBER:
            score -= SPLIT_COST * (self.hand[action.value] - action.naturals)
        return score

    def _abluxx_cards(self, value: int, count: int) -> float:
        """Cards this set would abluxx: other seats' top sets, then (duel) the shadow."""
        obs = self.obs
        expert = obs.config.options.expert_ones
        cards = 0.0
        for seat, display in enumerate(obs.displays):
            if seat == obs.seat or not display:
                continue
            top_value, naturals, jokers = display[-1]
            if naturals + jokers != count:
                continue
            if top_value < value or (expert and value == 1 and top_value >= MAX_NUMBER):
                cards += count
        cards += self._shadow_gain(value, count)
        return cards

    def _shadow_gain(self, value: int, count: int) -> float:
        """Duel: the shadow stack taken goes into our hand, which is worth it only when
        it combines with what we hold; an uncombinable one is a small loss."""
        whole = self.obs.config.options.shadow_take == "whole_stack"
        best: float | None = None
        for stack_value, size in enumerate(self.obs.shadow, start=1):
            if stack_value >= value or not (size == count if whole else size >= count):
                continue
            gain = count / 2 if self.hand[stack_value] else -count / 2
            best = gain if best is None else max(best, gain)
        return best or 0.0

    # --------------------------------------------------------- abluxx resolution

    def _victim_set(self) -> tuple[int, int, int]:
        obs = self.obs
        return obs.displays[obs.victim][-1]

    def _combines(self, value: int, jokers: int) -> bool:
        return jokers > 0 or value == JOKER or self.hand[value] > 0

    def _take(self, action: Action) -> float:
        value, _, jokers = self._victim_set()
        take = self.supply > NEAR_END_SUPPLY and self._combines(value, jokers)
        return 1.0 if (action.kind is ActionKind.TAKE) == take else 0.0

    def _victim(self, action: Action) -> float:
        value, _, jokers = self._victim_set()
        # Cards that match the hand (or jokers) make a bigger set later; otherwise a
        # fresh draw, maybe a pool card that combines, is better.
        keep = self._combines(value, jokers)
        return 1.0 if (action.kind is ActionKind.TAKE_BACK) == keep else 0.0

    # ------------------------------------------------------------------------ draws

    def _draw(self, action: Action) -> float:
        if action.kind is ActionKind.PASS:
            return 0.0
        optional = self.obs.decision is DecisionKind.OPTIONAL_DRAW
        if optional and self.supply <= NEAR_END_SUPPLY:
            return -10.0
        if action.kind is ActionKind.DECK:
            # An unseen card: worth drawing when owed (any pool card that does not
            # combine is no better), not when the draw is optional.
            return 0.5 if not optional else -0.5
        return self._slot_value(self.obs.pool[action.slot]) - (1.0 if optional else 0.0)

    def _slot_value(self, cards: Sequence[int]) -> float:
        """What a pool slot is worth in hand; a duel group adds cards beyond the first."""
        value = 0.0
        for card in cards:
            if card == JOKER:
                value += 3.0
            elif self.hand[card]:
                value += 1.0 + 0.5 * self.hand[card] + card / 100
            else:
                value -= 0.5
        return value - 0.5 * (len(cards) - 1)
