"""A bot that plays Abluxxen by information-set Monte Carlo tree search (``IsmctsPolicy``).

Run from the repository root: ``python sample_bots/ismcts_bot.py --port 50063``.
``--iterations N`` sets the search per decision; ``--time-limit-ms MS`` cuts a search
short so that its answer beats the arena's deadline (default 1000 ms) on a busy machine;
0 means no limit (the bot's choices then depend only on the match, not the machine).
"""

from functools import partial

from arena.games.abluxxen.ismcts import DEFAULT_ITERATIONS, IsmctsPolicy
from arena.sdk import BotInfo, bot_arg_parser, run_bot

INFO = BotInfo(name="ismcts", version="1.0", author="Abluxxen Arena samples")

DEFAULT_TIME_LIMIT_MS = 700
"""Leaves 300 ms of the default deadline for the stream, the SDK and a late wake-up."""


def main() -> None:
    parser = bot_arg_parser(f"Arena bot {INFO.name!r} {INFO.version}")
    parser.add_argument(
        "--iterations",
        type=int,
        default=DEFAULT_ITERATIONS,
        help=f"search iterations per decision (default {DEFAULT_ITERATIONS})",
    )
    parser.add_argument(
        "--time-limit-ms",
        type=int,
        default=DEFAULT_TIME_LIMIT_MS,
        help=f"stop a search after this long (default {DEFAULT_TIME_LIMIT_MS}; 0: no limit)",
    )
    args = parser.parse_args()
    if args.iterations < 1:
        parser.error(f"--iterations {args.iterations} must be at least 1")
    if args.time_limit_ms < 0:
        parser.error(f"--time-limit-ms {args.time_limit_ms} cannot be negative")
    limit_s = args.time_limit_ms / 1000 if args.time_limit_ms else None
    # A fresh policy per match, reseeded from the match id and seat by its match_start.
    run_bot(
        partial(IsmctsPolicy, iterations=args.iterations, time_limit_s=limit_s),
        info=INFO,
        argv=["--host", args.host, "--port", str(args.port)],
    )


if __name__ == "__main__":
    main()
