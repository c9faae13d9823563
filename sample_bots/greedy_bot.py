"""A bot that plays the one-ply heuristics of ``arena.policies.GreedyPolicy``.

Run from the repository root: ``python sample_bots/greedy_bot.py --port 50062``.
"""

from arena.policies import GreedyPolicy
from arena.sdk import BotInfo, run_bot

INFO = BotInfo(name="greedy", version="1.0", author="Abluxxen Arena samples")


if __name__ == "__main__":
    # GreedyPolicy keeps no memory between decisions; a fresh one per match all the same.
    run_bot(GreedyPolicy, info=INFO)
