"""Built-in in-process policies by name (``--bot random``, ``builtin = "greedy"``): each
game lists its own (``Game.policies``)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from arena.games import AnyGame, PolicyFactory


def builtin_names(game: AnyGame) -> list[str]:
    """The built-in policies of ``game``."""
    return sorted(game.policies)


def builtin_factory(game: AnyGame, name: str) -> PolicyFactory:
    """A constructor ``seed -> Policy`` of a built-in policy of ``game`` (KeyError if it
    has none of that name)."""
    return game.policies[name]


def refused_at_table(game: AnyGame, names: Iterable[str], config: Any) -> str | None:
    """Why one of the built-ins ``names`` cannot sit at the table ``config`` of ``game``
    (``Game.policy_refusal``), or None."""
    for name in names:
        why = game.policy_refusal(name, config)
        if why is not None:
            return f"{game.name} offers no built-in {name!r} at this table: {why}"
    return None


def missing_builtin(game: AnyGame, name: str) -> str:
    """Why ``game`` has no built-in ``name``, for a person who asked for it: the game's
    own reason where it names one (``Game.unavailable_policies``), else the built-ins
    it has."""
    why = game.unavailable_policies.get(name)
    if why is not None:
        return f"{game.name} offers no built-in {name!r}: {why}"
    return (
        f"{game.title} has no built-in {name!r}; its built-ins are {', '.join(builtin_names(game))}"
    )
