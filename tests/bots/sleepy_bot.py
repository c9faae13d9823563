"""Sleeps ``--sleep-ms`` (default 2000) before every decision, then answers correctly
(a random legal action): a TIMEOUT on every decision whose deadline is shorter."""

from __future__ import annotations

import argparse
import time

from botkit import bot_info, split_args

from arena.games.abluxxen import Action, Observation
from arena.policies import RandomPolicy
from arena.sdk import run_bot


class SleepyPolicy(RandomPolicy):
    """Random play, after a nap."""

    def __init__(self, sleep_ms: int) -> None:
        super().__init__()
        self._sleep_s = sleep_ms / 1000

    def choose(self, obs: Observation) -> Action:
        """Sleep, then a random legal action."""
        time.sleep(self._sleep_s)
        action: Action = super().choose(obs)
        return action


def _options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--sleep-ms", type=int, default=2000, help="nap per decision")


if __name__ == "__main__":
    args, rest = split_args(__doc__ or "", _options)
    run_bot(lambda: SleepyPolicy(args.sleep_ms), info=bot_info("sleepy"), argv=rest)
