"""Built-in in-process policies by name (``--bot random``, ``builtin = "greedy"``): each
game lists its own (``Game.policies``)."""

from __future__ import annotations

from arena.games import AnyGame, PolicyFactory


def builtin_names(game: AnyGame) -> list[str]:
    """The built-in policies of ``game``."""
    return sorted(game.policies)


def builtin_factory(game: AnyGame, name: str) -> PolicyFactory:
    """A constructor ``seed -> Policy`` of a built-in policy of ``game`` (KeyError if it
    has none of that name)."""
    return game.policies[name]
