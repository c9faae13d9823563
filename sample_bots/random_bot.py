"""A bot that plays a uniformly random legal action.

Run from the repository root: ``python sample_bots/random_bot.py --port 50061``.
"""

from arena.policies import RandomPolicy
from arena.sdk import BotInfo, run_bot

INFO = BotInfo(name="random", version="1.0", author="Abluxxen Arena samples")


if __name__ == "__main__":
    # A fresh RandomPolicy() per match; its match_start hook seeds it from the match id
    # and seat, so a replayed match is played the same way.
    run_bot(RandomPolicy, info=INFO)
