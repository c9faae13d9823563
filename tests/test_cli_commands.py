"""The ``arena`` command's table of subcommands: each names the module that registers
it, and a command line imports only its own command's module (most of a run's start
was importing every command's, the server's included)."""

from __future__ import annotations

import argparse
import subprocess
import sys

from arena.cli import COMMANDS, build_parser


def _commands(parser: argparse.ArgumentParser) -> list[str]:
    (sub,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    return list(sub.choices)


def test_the_help_says_the_arena_hosts_any_game() -> None:
    description = build_parser().description or ""
    assert "card-game" not in description
    assert "abluxxen, fluxx, openspiel:NAME" in description


def test_every_command_is_in_the_table_in_the_order_of_the_help() -> None:
    assert _commands(build_parser()) == list(COMMANDS)


def test_each_command_parses_with_its_own_module_alone() -> None:
    for command, module in COMMANDS.items():
        same_module = [name for name, owner in COMMANDS.items() if owner == module]
        assert _commands(build_parser(command)) == same_module, command


def test_a_command_line_imports_only_its_own_command() -> None:
    probe = (
        "import sys\n"
        "from arena.cli import build_parser\n"
        "build_parser('replay').parse_args(['replay', 'x.jsonl.gz'])\n"
        "print(sorted(m for m in sys.modules if m.startswith(('arena.cli.', 'arena.server'))))\n"
    )
    loaded = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=60, check=True
    ).stdout
    assert "arena.cli.replay_cmd" in loaded
    for other in ("arena.cli.serve_cmd", "arena.cli.author_cmd", "arena.server"):
        assert f"'{other}" not in loaded, loaded
