"""Parsing ``--bot`` arguments: ``NAME=HOST:PORT`` (a remote bot) or a built-in
in-process policy (``random``, ``greedy``, or ``NAME=random``)."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from arena.policies import Policy
from arena.referee.channels import EndpointError, parse_endpoint

_NAME_CHARS = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-")
BUILTIN_POLICIES: dict[str, str] = {
    "random": "arena.policies.random_policy:RandomPolicy",
    "greedy": "arena.policies.greedy:GreedyPolicy",
}
"""Built-in in-process policies by name, as ``module:class``."""


class EntrantError(ValueError):
    """A ``--bot`` argument that names no bot."""


@dataclass(frozen=True, slots=True)
class EntrantSpec:
    """One entrant: a name and either an endpoint or a built-in policy."""

    name: str
    """The entrant's unique name."""
    endpoint: str | None = None
    """HOST:PORT of a remote bot."""
    builtin: str | None = None
    """Name of a built-in policy."""


def builtin_factory(name: str) -> Callable[[int], Policy]:
    """A constructor ``seed -> Policy`` of a built-in policy."""
    module_name, _, attr = BUILTIN_POLICIES[name].partition(":")
    factory: Callable[[int], Policy] = getattr(importlib.import_module(module_name), attr)
    return factory


def check_name(name: str) -> str:
    """A valid entrant name (1–40 of letters, digits, ``_ . -``)."""
    if not name or len(name) > 40 or not set(name) <= _NAME_CHARS:
        raise EntrantError(f"bad bot name {name!r}: use 1-40 letters, digits, '_', '.' or '-'")
    return name


def parse_entrant(text: str) -> EntrantSpec:
    """Parse one ``--bot`` value."""
    name, sep, target = text.partition("=")
    if not sep:
        target, name = text, text
    if target in BUILTIN_POLICIES:
        return EntrantSpec(check_name(name), builtin=target)
    if ":" not in target:
        known = ", ".join(BUILTIN_POLICIES)
        raise EntrantError(
            f"--bot {text!r}: {target!r} is neither HOST:PORT nor a built-in bot ({known})"
        )
    try:
        parse_endpoint(target)
    except EndpointError as error:
        raise EntrantError(f"--bot {text!r}: {error}") from None
    if not sep:
        raise EntrantError(f"--bot {text!r}: name the bot, e.g. --bot mybot={target}")
    return EntrantSpec(check_name(name), endpoint=target)


def parse_entrants(values: Sequence[str]) -> list[EntrantSpec]:
    """Parse every ``--bot``; names must be unique."""
    entrants = [parse_entrant(v) for v in values]
    seen: set[str] = set()
    for entrant in entrants:
        if entrant.name in seen:
            raise EntrantError(
                f"two bots are named {entrant.name!r}; give each a unique name (NAME=...)"
            )
        seen.add(entrant.name)
    return entrants
