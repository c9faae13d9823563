"""A bot that plays Abluxxen by the one-ply heuristics of ``GreedyPolicy``.

Run from the repository root: ``python sample_bots/greedy_bot.py --port 50062``.
"""

from arena.games.abluxxen.greedy import GreedyPolicy
from arena.sdk import BotInfo, run_bot

INFO = BotInfo(name="greedy", version="1.0", author="Abluxxen Arena samples")


if __name__ == "__main__":
    # A fresh GreedyPolicy() per match (it keeps no memory; its tie-breaks are seeded
    # from the match id and seat by its match_start hook).
    run_bot(GreedyPolicy, info=INFO)
