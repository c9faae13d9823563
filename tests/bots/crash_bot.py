"""Answers ``--after N`` decisions (default 5, counted over the whole process) with
random legal actions, then the process dies (``os._exit(1)``) on the next one."""

from __future__ import annotations

import argparse
import itertools
import os
import sys

from botkit import bot_info, split_args

from arena.games.abluxxen import Action, Observation
from arena.policies import RandomPolicy
from arena.sdk import run_bot


class CrashPolicy(RandomPolicy):
    """Random play until the shared counter reaches ``after``."""

    def __init__(self, counter: itertools.count[int], after: int) -> None:
        super().__init__()
        self._counter = counter
        self._after = after

    def choose(self, obs: Observation) -> Action:
        """A random legal action, or the end of the process."""
        if next(self._counter) >= self._after:
            print(f"crash_bot: exiting after {self._after} decisions", file=sys.stderr, flush=True)
            os._exit(1)  # no cleanup, no goodbye: as a segfault would
        action: Action = super().choose(obs)
        return action


def _options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--after", type=int, default=5, help="decisions answered before dying")


if __name__ == "__main__":
    args, rest = split_args(__doc__ or "", _options)
    decisions = itertools.count()  # shared by every match: "the process" answers N
    run_bot(lambda: CrashPolicy(decisions, args.after), info=bot_info("crash"), argv=rest)
