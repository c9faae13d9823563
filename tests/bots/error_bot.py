"""Answers ``--after N`` decisions of each match (default 5) with random legal actions,
then its policy raises, and the SDK aborts the Play call with status INTERNAL."""

from __future__ import annotations

import argparse

from botkit import bot_info, split_args

from arena.games.abluxxen import Action, Observation
from arena.policies import RandomPolicy
from arena.sdk import run_bot


class ErrorPolicy(RandomPolicy):
    """Random play, then a bug."""

    def __init__(self, after: int) -> None:
        super().__init__()
        self._after = after
        self._answered = 0

    def choose(self, obs: Observation) -> Action:
        """A random legal action, until the bug strikes."""
        if self._answered >= self._after:
            raise RuntimeError(f"error_bot: deliberate failure after {self._after} decisions")
        self._answered += 1
        action: Action = super().choose(obs)
        return action


def _options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--after", type=int, default=5, help="decisions answered per match")


if __name__ == "__main__":
    args, rest = split_args(__doc__ or "", _options)
    run_bot(lambda: ErrorPolicy(args.after), info=bot_info("error"), argv=rest)
