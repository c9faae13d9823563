"""Parsing ``--bot`` arguments: ``NAME=HOST:PORT`` (a remote bot) or one of the game's
built-in in-process policies (``random``, ``greedy``, or ``NAME=random``)."""

from __future__ import annotations

import argparse
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from arena.names import BadNameError, check_name
from arena.policies.registry import builtin_factory
from arena.referee.channels import EndpointError, RootsError, parse_bot_endpoint, read_roots

__all__ = [
    "EntrantError",
    "EntrantSpec",
    "add_bot_ca_option",
    "bot_roots",
    "builtin_factory",
    "parse_entrants",
]


class EntrantError(ValueError):
    """A ``--bot`` argument that names no bot."""


def add_bot_ca_option(parser: argparse.ArgumentParser) -> None:
    """``--bot-ca FILE``, for every command that calls bots."""
    parser.add_argument(
        "--bot-ca",
        metavar="FILE",
        help="PEM roots to trust for tls://HOST:PORT bots (default: the system's roots)",
    )


def bot_roots(args: argparse.Namespace) -> bytes | None:
    """The roots ``--bot-ca`` names (None: the system's); EntrantError if the file cannot
    be used."""
    if not args.bot_ca:
        return None
    try:
        return read_roots(args.bot_ca)
    except RootsError as error:
        raise EntrantError(f"--bot-ca: {error}") from None


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
    """HOST:PORT of a remote bot (tls://HOST:PORT for one serving TLS)."""
    builtin: str | None = None
    """Name of a built-in policy."""


def parse_entrant(
    text: str, builtins: Collection[str], unavailable: Mapping[str, str] | None = None
) -> EntrantSpec:
    """Parse one ``--bot`` value; ``builtins`` are the game's built-in policies,
    ``unavailable`` the ones it cannot offer with why (``Game.unavailable_policies``)."""
    name, sep, target = text.partition("=")
    if not sep:
        target, name = text, text
    if target in builtins:
        return EntrantSpec(_name(name), builtin=target)
    if unavailable and target in unavailable:
        raise EntrantError(f"--bot {text!r}: no built-in {target!r} here: {unavailable[target]}")
    if ":" not in target:
        known = ", ".join(sorted(builtins))
        raise EntrantError(
            f"--bot {text!r}: {target!r} is neither HOST:PORT nor a built-in bot ({known})"
        )
    try:
        parse_bot_endpoint(target)
    except EndpointError as error:
        raise EntrantError(f"--bot {text!r}: {error}") from None
    if not sep:
        raise EntrantError(f"--bot {text!r}: name the bot, e.g. --bot mybot={target}")
    return EntrantSpec(_name(name), endpoint=target)


def parse_entrants(
    values: Sequence[str], builtins: Collection[str], unavailable: Mapping[str, str] | None = None
) -> list[EntrantSpec]:
    """Parse every ``--bot``; names must be unique."""
    entrants = [parse_entrant(v, builtins, unavailable) for v in values]
    seen: set[str] = set()
    for entrant in entrants:
        if entrant.name in seen:
            raise EntrantError(
                f"two bots are named {entrant.name!r}; give each a unique name (NAME=...)"
            )
        seen.add(entrant.name)
    return entrants
