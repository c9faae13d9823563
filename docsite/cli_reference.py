"""The command-line reference page, written from the ``arena`` command's own argparse
parsers (``arena --help`` and each subcommand's), so it cannot drift from the code."""

from __future__ import annotations

import argparse
import os
from collections.abc import Iterator

from arena.cli import COMMANDS, build_parser

WIDTH = "100"
"""Columns argparse wraps the help to (it reads ``COLUMNS``): the page is the same on
every terminal."""


def _subparsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def _commands(
    words: str, parser: argparse.ArgumentParser
) -> Iterator[tuple[str, argparse.ArgumentParser]]:
    """``parser`` and every nested subcommand's parser, with its command line."""
    yield words, parser
    for name, sub in _subparsers(parser).items():
        yield from _commands(f"{words} {name}", sub)


def _block(words: str, parser: argparse.ArgumentParser, level: str) -> str:
    return f"{level} `{words}`\n\n```text\n{parser.format_help().rstrip()}\n```\n"


def cli_reference() -> str:
    """The page: ``arena --help``, then each command's help (subcommands nested)."""
    previous = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = WIDTH
    try:
        parts = [
            "# Command-line reference\n\n"
            "Every `arena` command's `--help`, generated from the command's own parsers when "
            "the site is built. The walk-throughs are in the [README](../index.md), "
            "[matches.md](../matches.md), [leagues.md](../leagues.md), "
            "[serve.md](../serve.md) and [web.md](../web.md).\n",
            _block("arena", build_parser(), "##"),
        ]
        for command in COMMANDS:
            (parser,) = (
                p for name, p in _subparsers(build_parser(command)).items() if name == command
            )
            for words, sub in _commands(f"arena {command}", parser):
                parts.append(_block(words, sub, "##" if words.count(" ") == 1 else "###"))
        return "\n".join(parts)
    finally:
        if previous is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = previous
