"""A bot that plays each game by that game's built-in ``greedy`` policy (Abluxxen: the
one-ply heuristics of its GreedyPolicy; Fluxx: a one-ply search that knows the Goals).

Run from the repository root: ``python sample_bots/greedy_bot.py --port 50062``.
"""

from typing import Any

from arena.games import all_games, get
from arena.policies import MatchInfo
from arena.sdk import BotInfo, run_bot

GAMES = tuple(game.name for game in all_games() if "greedy" in game.policies)
INFO = BotInfo(name="greedy", version="1.0", author="Bot Arena samples", games=GAMES)


class Greedy:
    """The match's game's greedy policy, chosen when the match starts."""

    def match_start(self, info: MatchInfo) -> None:
        """Make the game's policy; its own hook seeds its tie-breaks from the match."""
        policy: Any = get(info.game).policies["greedy"](None)
        policy.match_start(info)
        self._policy = policy

    def choose(self, obs: Any) -> Any:
        """The game's greedy choice."""
        return self._policy.choose(obs)


if __name__ == "__main__":
    # A fresh Greedy() per match (it keeps no memory across matches).
    run_bot(Greedy, info=INFO)
