"""Plays at random, except at a table of three seats: there every answer is an action
no rule ever allows (a shadow pick of a joker). It declares only the preset ``amigo``
in Hello and no table sizes (so: every size), like a bot written for a four-player
amigo ladder that was never tried at three."""

from __future__ import annotations

import random
from dataclasses import replace

from botkit import bot_info

from arena.games import abluxxen as ab
from arena.games.abluxxen import Action, Observation
from arena.policies import MatchInfo
from arena.sdk import run_bot

WRONG_AT = 3
"""The table size it gets wrong."""


class ThreeSeatPolicy:
    """Random legal actions; an illegal one at every decision of a three-seat table."""

    def __init__(self) -> None:
        self._rng = random.Random()
        self._wrong = False

    def match_start(self, info: MatchInfo) -> None:
        """Learn the table's size."""
        self._wrong = info.players == WRONG_AT

    def choose(self, obs: Observation) -> Action:
        """A random legal action, or at three seats one never legal."""
        if self._wrong:
            return ab.shadow_pick(ab.JOKER)  # jokers never enter the shadow display
        return self._rng.choice(obs.legal)


if __name__ == "__main__":
    run_bot(ThreeSeatPolicy, info=replace(bot_info("three-seat"), presets=("amigo",)))
