"""Plays randomly; while the file given as --slow-flag exists, it first sleeps
--sleep-ms before each decision (to keep a ladder match running while a test looks).
With --asleep FILE, that file exists while it sleeps (a test then knows a match is held
in one of its decisions)."""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from arena.games.abluxxen import Action, Observation
from arena.policies import RandomPolicy
from arena.sdk import BotInfo, run_bot

parser = argparse.ArgumentParser(add_help=False)
parser.add_argument("--slow-flag", required=True)
parser.add_argument("--sleep-ms", type=int, default=150)
parser.add_argument("--asleep", default="")
options, rest = parser.parse_known_args()
FLAG = Path(options.slow_flag)
ASLEEP = Path(options.asleep) if options.asleep else None


class FlagPolicy(RandomPolicy):
    """Random, slow while the flag file exists. Always on the SDK's decision thread: a
    sleep on its event loop (where the SDK moves a match's quick decisions) would keep
    the bot from answering anything else, its Hellos included."""

    threaded = True

    def choose(self, obs: Observation) -> Action:
        if FLAG.exists():
            if ASLEEP is not None:
                ASLEEP.touch()
            time.sleep(options.sleep_ms / 1000)
            if ASLEEP is not None:
                ASLEEP.unlink(missing_ok=True)
        action: Action = super().choose(obs)
        return action


if __name__ == "__main__":
    run_bot(FlagPolicy, info=BotInfo(name="flag", version="test"), argv=rest)
