"""Answers every decision with a well-formed action that the rules forbid now, spelled
out (the SDK sends an action that is not in the legal list as an AbluxxenAction): a PLAY
of a value it does not hold, a pool slot past the end of the pool, the other decision's
choice (TAKE_BACK when asked to TAKE or LEAVE, and the reverse), an impossible shadow
stack."""

from __future__ import annotations

from collections import Counter

from botkit import bot_info

from arena.games import abluxxen as ab
from arena.games.abluxxen import Action, DecisionKind, Observation
from arena.sdk import run_bot


class IllegalPolicy:
    """Always an illegal but well-formed action."""

    def choose(self, obs: Observation) -> Action:
        """An action of the right shape for no legal reason."""
        decision = obs.decision
        if decision is DecisionKind.PLAY:
            return _unheld_play(obs.hand)
        if decision is DecisionKind.ATTACKER_TAKE:
            return ab.TAKE_BACK
        if decision is DecisionKind.VICTIM_CHOICE:
            return ab.TAKE
        if decision is DecisionKind.DRAW or decision is DecisionKind.OPTIONAL_DRAW:
            return ab.pool(len(obs.pool))  # one past the last slot
        if decision is DecisionKind.SHADOW_PICK:
            return ab.shadow_pick(ab.JOKER)  # jokers never enter the shadow display
        raise ValueError(f"no decision pending: {decision}")


def _unheld_play(hand: tuple[int, ...]) -> Action:
    """A set of a value the hand holds too few of (one more card than it has)."""
    counts = Counter(hand)
    value = min(range(1, 14), key=lambda v: counts[v])  # fewest held: never all 8
    return ab.play(value, counts[value] + 1)


if __name__ == "__main__":
    run_bot(IllegalPolicy, info=bot_info("illegal"))
