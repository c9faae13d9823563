"""The ``arena`` command. Each subcommand lives in its own module (``COMMANDS`` names
it) and registers itself through ``register(subparsers)``; ``run(args)`` returns the
exit status. A command line imports only its command's module."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

# gRPC's C core logs INFO lines to stderr by default (TLS handshake attempts, fork
# warnings) that repeat what our own messages say plainly. Set before grpc is loaded;
# GRPC_VERBOSITY=INFO (or DEBUG) in the environment brings them back.
os.environ.setdefault("GRPC_VERBOSITY", "ERROR")
# The arena forks only to exec managed bots; gRPC's fork handlers would restart its
# pollers in the child before the exec, which under load made a bot's start fail now and
# then ("epoll_wait error: Bad file descriptor" and no bot). Nothing needs them here.
os.environ.setdefault("GRPC_ENABLE_FORK_SUPPORT", "false")

import importlib
from types import ModuleType
from typing import Final

from arena.games import family_wildcards
from arena.games import names as game_names
from arena.gctune import tune_for_latency
from arena.referee.policy_processes import stop_policy_processes

COMMANDS: Final = {
    "league": "league_cmd",
    "ratings": "ratings_cmd",
    "matches": "ratings_cmd",
    "match": "match_cmd",
    "check-bot": "checkbot",
    "replay": "replay_cmd",
    "selfplay": "selfplay",
    "serve": "serve_cmd",
    "token": "token_cmd",
    "submit": "author_cmd",
    "update": "author_cmd",
    "retire": "author_cmd",
    "bots": "author_cmd",
    "leaderboard": "author_cmd",
    "web": "web_cmd",
    "play": "play_cmd",
    "db": "db_cmd",
}
"""Each subcommand and the module that registers and runs it, in the order of
``arena --help``. A command imports its own module only: ``arena replay`` never loads
the server (tests/test_cli_commands.py holds the table to what the modules register)."""


def _module(name: str) -> ModuleType:
    return importlib.import_module(f"{__name__}.{name}")


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The argument parser: of every subcommand, or only of ``command``'s module when it
    is one (what ``main`` parses a command line with)."""
    parser = argparse.ArgumentParser(
        prog="arena",
        description="Arena: referee, leagues and ratings for the bots of any game it hosts "
        f"({', '.join([*game_names(), *(f'{w[:-1]}NAME' for w in family_wildcards())])}).",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    names = [COMMANDS[command]] if command in COMMANDS else COMMANDS.values()
    for name in dict.fromkeys(names):
        _module(name).register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``arena`` console script."""
    if argv is None:
        argv = sys.argv[1:]
    # Only the command's own module is imported (its imports are most of a run's start).
    parser = build_parser(argv[0] if argv else None)
    args = parser.parse_args(argv)
    tune_for_latency()
    try:
        status: int = args.run(args)
    except KeyboardInterrupt:
        print("arena: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader went away (e.g. `arena replay ... | head`): not an error of ours.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    finally:
        stop_policy_processes()  # the built-ins' workers, if any were started
    return status


if __name__ == "__main__":
    sys.exit(main())
