"""Built-in in-process policies by name (``--bot random``, ``builtin = "greedy"``)."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Final

from .base import Policy

BUILTIN_POLICIES: Final[dict[str, str]] = {
    "random": "arena.policies.random_policy:RandomPolicy",
    "greedy": "arena.policies.greedy:GreedyPolicy",
}
"""Built-in policies by name, as ``module:class``; each takes a seed."""


def builtin_factory(name: str) -> Callable[[int], Policy]:
    """A constructor ``seed -> Policy`` of a built-in policy."""
    module_name, _, attr = BUILTIN_POLICIES[name].partition(":")
    factory: Callable[[int], Policy] = getattr(importlib.import_module(module_name), attr)
    return factory
