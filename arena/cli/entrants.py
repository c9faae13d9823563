"""Parsing ``--bot`` arguments: ``NAME=HOST:PORT`` (a remote bot) or one of the game's
built-in in-process policies (``random``, ``greedy``, or ``NAME=random``)."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from arena.names import BadNameError, check_name
from arena.policies.registry import builtin_factory
from arena.referee.channels import EndpointError, parse_endpoint

__all__ = ["EntrantError", "EntrantSpec", "builtin_factory", "parse_entrants"]


class EntrantError(ValueError):
    """A ``--bot`` argument that names no bot."""


def _name(name: str) -> str:
    try:
        return check_name(name)
    except BadNameError as error:
        raise EntrantError(str(error)) from None


@dataclass(frozen=True, slots=True)
class EntrantSpec:
    """One entrant: a name and either an endpoint or a built-in policy."""

    name: str
    """The entrant's unique name."""
    endpoint: str | None = None
    """HOST:PORT of a remote bot."""
    builtin: str | None = None
    """Name of a built-in policy."""


def parse_entrant(text: str, builtins: Collection[str]) -> EntrantSpec:
    """Parse one ``--bot`` value; ``builtins`` are the game's built-in policies."""
    name, sep, target = text.partition("=")
    if not sep:
        target, name = text, text
    if target in builtins:
        return EntrantSpec(_name(name), builtin=target)
    if ":" not in target:
        known = ", ".join(sorted(builtins))
        raise EntrantError(
            f"--bot {text!r}: {target!r} is neither HOST:PORT nor a built-in bot ({known})"
        )
    try:
        parse_endpoint(target)
    except EndpointError as error:
        raise EntrantError(f"--bot {text!r}: {error}") from None
    if not sep:
        raise EntrantError(f"--bot {text!r}: name the bot, e.g. --bot mybot={target}")
    return EntrantSpec(_name(name), endpoint=target)


def parse_entrants(values: Sequence[str], builtins: Collection[str]) -> list[EntrantSpec]:
    """Parse every ``--bot``; names must be unique."""
    entrants = [parse_entrant(v, builtins) for v in values]
    seen: set[str] = set()
    for entrant in entrants:
        if entrant.name in seen:
            raise EntrantError(
                f"two bots are named {entrant.name!r}; give each a unique name (NAME=...)"
            )
        seen.add(entrant.name)
    return entrants
