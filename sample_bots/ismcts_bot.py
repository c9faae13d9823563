"""A bot that plays each game by information-set Monte Carlo tree search: the arena's
generic search (``arena.policies.ismcts``) with the game's own ``ismcts`` settings, on
every game that offers it. It declares every OpenSpiel game (``openspiel:*``) and ends a
match of one without a witness (no ``ismcts``: ``arena/games/openspiel/witness.py``) at
its start, with the reason.

Run from the repository root: ``python sample_bots/ismcts_bot.py --port 50063``.
``--iterations N`` sets the search per decision (default: the game's own budget);
``--time-limit-ms MS`` cuts a search short so that its answer beats the arena's deadline
(default 1000 ms) on a busy machine; 0 means no limit (the bot's choices then depend only
on the match, not the machine).
"""

from typing import Any

from arena.games import all_games, family_wildcards, get
from arena.policies import MatchInfo
from arena.policies.registry import missing_builtin
from arena.sdk import BotInfo, bot_arg_parser, run_bot

GAMES = (
    *(game.name for game in all_games() if "ismcts" in game.policies),
    *family_wildcards(),
)
INFO = BotInfo(name="ismcts", version="2.0", author="Bot Arena samples", games=GAMES)

DEFAULT_TIME_LIMIT_MS = 700
"""Leaves 300 ms of the default deadline for the stream, the SDK and a late wake-up."""


class Search:
    """The match's game's search, made when the match starts."""

    def __init__(self, settings: dict[str, Any]) -> None:
        self._settings = settings

    def match_start(self, info: MatchInfo) -> None:
        """Make the game's search; its own hook seeds it from the match id and seat."""
        game = get(info.game)
        if "ismcts" not in game.policies:
            raise ValueError(missing_builtin(game, "ismcts"))
        policy: Any = game.policies["ismcts"](None, **self._settings)
        policy.match_start(info)
        self._policy = policy

    def choose(self, obs: Any) -> Any:
        """The search's choice."""
        return self._policy.choose(obs)


def main() -> None:
    parser = bot_arg_parser(f"Arena bot {INFO.name!r} {INFO.version}")
    parser.add_argument(
        "--iterations", type=int, help="search iterations per decision (default: the game's)"
    )
    parser.add_argument(
        "--time-limit-ms",
        type=int,
        default=DEFAULT_TIME_LIMIT_MS,
        help=f"stop a search after this long (default {DEFAULT_TIME_LIMIT_MS}; 0: no limit)",
    )
    args = parser.parse_args()
    if args.iterations is not None and args.iterations < 1:
        parser.error(f"--iterations {args.iterations} must be at least 1")
    if args.time_limit_ms < 0:
        parser.error(f"--time-limit-ms {args.time_limit_ms} cannot be negative")
    settings: dict[str, Any] = {}
    if args.iterations is not None:
        settings["iterations"] = args.iterations
    if args.time_limit_ms:
        settings["time_limit_s"] = args.time_limit_ms / 1000
    # A fresh Search per match, reseeded from the match id and seat by its match_start.
    run_bot(
        lambda: Search(settings),
        info=INFO,
        argv=["--host", args.host, "--port", str(args.port)],
    )


if __name__ == "__main__":
    main()
