"""The executor a league's (or a served ladder's) settings ask for."""

from __future__ import annotations

import os

from ..config import LeagueConfig
from .base import Executor, ExecutorError, LocalExecutor, Recipe
from .worker import LeagueRecipe


def executor_for(kind: str, recipe: Recipe, *, workers: int = 0, ray_address: str = "") -> Executor:
    """``local`` (default), ``processes`` or ``ray``, with ``workers`` workers (0: one
    per core here, or per CPU of the Ray cluster), each running ``recipe``'s referee
    (with as many matches at once as the head sends it)."""
    if kind == "local":
        return LocalExecutor(recipe)
    if kind == "processes":
        from .processes import ProcessesExecutor  # only when used

        return ProcessesExecutor(recipe, workers or os.cpu_count() or 1)
    if kind == "ray":
        from .ray_pool import RayExecutor  # only when used

        return RayExecutor(recipe, workers, ray_address)
    raise ExecutorError(f"unknown executor {kind!r}; choose local, processes or ray")


def make_executor(config: LeagueConfig) -> Executor:
    """The executor of a league's settings, its workers playing the league's tables."""
    return executor_for(
        config.executor,
        LeagueRecipe(config),
        workers=config.workers,
        ray_address=config.ray_address,
    )
