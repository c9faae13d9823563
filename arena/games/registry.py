"""The games the arena knows, by name (OpenSpiel's ``register_game``/``load_game``).

A built-in game is listed here by the module that defines it, and imported the first time
it is asked for; that module's ``GAME`` is the game. Another package registers its game
by calling ``register`` (or through the ``arena.games`` entry point group, whose entries
name such a module). Nothing above ``arena/games`` imports a game's package.

A family of games is named ``FAMILY:SPEC`` (``openspiel:leduc_poker``): the family's
module resolves the spec (its ``resolve(spec)`` returns the game or raises
UnknownGameError saying why), so its games are never listed one by one; ``names()``
lists the built-in and registered games only, ``families()`` how to name a family's.
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Sequence
from typing import Any, Final

from .base import Game

DEFAULT_GAME: Final = "abluxxen"
"""The game of every command, config and database that names none."""

BUILTIN_GAMES: Final[dict[str, str]] = {
    "abluxxen": "arena.games.abluxxen.game",
    "fluxx": "arena.games.fluxx.game",
}
"""Built-in games by name: the module whose ``GAME`` is the game."""

FAMILIES: Final[dict[str, tuple[str, str]]] = {
    "openspiel": (
        "arena.games.openspiel.family",
        "openspiel:NAME[(params)], any game OpenSpiel registers, in its own game-string "
        "syntax (e.g. openspiel:leduc_poker, 'openspiel:goofspiel(num_cards=4)')",
    ),
}
"""Families of games by prefix: the module that resolves a ``PREFIX:SPEC`` name, and how
to name one of its games (help texts)."""

ENTRY_POINT_GROUP: Final = "arena.games"

AnyGame = Game[Any, Any, Any, Any]
"""A game as the layers above see it: its own types are opaque to them."""

_games: dict[str, AnyGame] = {}
_family_games: dict[str, AnyGame] = {}
"""Family games resolved so far, by the name asked for (kept out of ``names()``)."""
MAX_FAMILY_GAMES: Final = 256
"""Family games kept resolved at once: names can come from requests (a web page's
address), so the oldest is let go beyond this."""


class UnknownGameError(LookupError):
    """A game name nobody registered."""

    def __str__(self) -> str:
        return str(self.args[0])


def register(game: AnyGame) -> None:
    """Make ``game`` known by ``game.name`` (again: the later registration wins)."""
    _games[game.name] = game


@functools.cache
def _modules() -> dict[str, str]:
    """Every listed game's module, by name. Read once, on first use, not at import:
    importlib.metadata reads every installed package's metadata (tens of ms, more than
    the engines), and a bot's first decision must not pay for it again."""
    from importlib.metadata import entry_points

    modules = dict(BUILTIN_GAMES)
    for entry in entry_points(group=ENTRY_POINT_GROUP):
        modules.setdefault(entry.name, entry.value)
    return modules


def names() -> list[str]:
    """Every known game's name, sorted."""
    return sorted(set(_games) | set(_modules()))


def families() -> list[str]:
    """How to name a game of each family, for help texts."""
    return [how for _, how in FAMILIES.values()]


def family_wildcards() -> list[str]:
    """``FAMILY:*`` for every family: in a bot's Hello, one entry that declares it plays
    every game of the family (see ``plays``)."""
    return [f"{prefix}:*" for prefix in FAMILIES]


def plays(declared: Sequence[str], game: str) -> bool:
    """Whether a bot that declares the games ``declared`` plays ``game``: an empty list
    means any game, an entry ``FAMILY:*`` every game of that family."""
    if not declared or game in declared:
        return True
    prefix, colon, _ = game.partition(":")
    return bool(colon) and f"{prefix}:*" in declared


def _family_game(name: str) -> AnyGame:
    """The game ``PREFIX:SPEC`` of a family, resolved by the family's module."""
    game = _family_games.get(name)
    if game is not None:
        return game
    prefix, _, spec = name.partition(":")
    family = FAMILIES.get(prefix)
    if family is None:
        raise UnknownGameError(
            f"unknown game {name!r}; the arena plays: {', '.join(names())}, "
            f"and {'; '.join(families())}"
        )
    resolved: AnyGame = importlib.import_module(family[0]).resolve(spec)
    _family_games[name] = _family_games[resolved.name] = resolved
    while len(_family_games) > MAX_FAMILY_GAMES:
        del _family_games[next(iter(_family_games))]
    return resolved


def get(name: str) -> AnyGame:
    """The game called ``name``; UnknownGameError naming the known games otherwise."""
    game = _games.get(name)
    if game is not None:
        return game
    if ":" in name:
        return _family_game(name)
    module = _modules().get(name)
    if module is None:
        raise UnknownGameError(
            f"unknown game {name!r}; the arena plays: {', '.join(names())}, "
            f"and {'; '.join(families())}"
        )
    loaded: AnyGame = importlib.import_module(module).GAME
    _games.setdefault(name, loaded)
    return _games[name]


def preset_or_default(name: str, preset: str) -> str:
    """``preset``, or else the default preset of the game ``name`` ("" if no game has
    that name: whoever validates the settings says so)."""
    if preset:
        return preset
    try:
        return get(name).default_preset
    except UnknownGameError:
        return ""


def all_games() -> list[AnyGame]:
    """Every known game, by name."""
    return [get(name) for name in names()]


def by_oneof(field: str) -> AnyGame | None:
    """The game whose protobuf oneof field is ``field`` (a request's ``game`` case).
    The games already loaded are asked first: importing every other game's package is
    done only for a field none of them has."""
    for game in [*_games.values(), *_family_games.values()]:
        if game.wire.oneof == field:
            return game
    for game in all_games():
        if game.wire.oneof == field:
            return game
    return None
