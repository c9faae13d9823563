"""A bot that plays a uniformly random legal action, in every game the arena knows.

Run from the repository root: ``python sample_bots/random_bot.py --port 50061``.
"""

from arena.games import family_wildcards, names
from arena.policies import RandomPolicy
from arena.sdk import BotInfo, run_bot

# A random policy needs nothing of a game but its legal actions: it plays them all.
# "openspiel:*" (a family's wildcard) declares every OpenSpiel game.
INFO = BotInfo(
    name="random",
    version="1.0",
    author="Bot Arena samples",
    games=(*names(), *family_wildcards()),
)

if __name__ == "__main__":
    # A fresh RandomPolicy() per match; its match_start hook seeds it from the match id
    # and seat, so a replayed match is played the same way.
    run_bot(RandomPolicy, info=INFO)
