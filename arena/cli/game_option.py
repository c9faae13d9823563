"""``--game NAME`` (default: the registry's default game) and ``--preset`` (default: the
game's own), for every command that plays or checks matches."""

from __future__ import annotations

import argparse

from arena.games import DEFAULT_GAME, AnyGame, UnknownGameError, families, names
from arena.games import get as get_game


class GameOptionError(ValueError):
    """An unknown ``--game``."""


def add_game_option(parser: argparse.ArgumentParser, *, preset: bool = True) -> None:
    """Add ``--game`` (and ``--preset`` unless told not to)."""
    parser.add_argument(
        "--game",
        default=None,
        metavar="NAME",
        help=f"the game: {', '.join(names())}, or {'; or '.join(families())} "
        f"(default {DEFAULT_GAME})",
    )
    if preset:
        parser.add_argument(
            "--preset", default=None, help="rule preset (default: the game's default)"
        )


def chosen_game(name: str | None) -> AnyGame:
    """The game ``--game`` names; GameOptionError naming the known games otherwise."""
    try:
        return get_game(name or DEFAULT_GAME)
    except UnknownGameError as error:
        raise GameOptionError(f"--game: {error}") from None


def chosen_preset(game: AnyGame, preset: str | None) -> str:
    """``--preset``, or the game's default."""
    return preset or game.default_preset
