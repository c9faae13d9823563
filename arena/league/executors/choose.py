"""The executor a league's settings ask for."""

from __future__ import annotations

import os

from ..config import LeagueConfig
from .base import Executor, ExecutorError, LocalExecutor


def make_executor(config: LeagueConfig) -> Executor:
    """``local`` (default), ``processes`` or ``ray``, with ``workers`` workers (0: one
    per core here, or per CPU of the Ray cluster)."""
    if config.executor == "local":
        return LocalExecutor(config)
    if config.executor == "processes":
        from .processes import ProcessesExecutor  # only when used

        return ProcessesExecutor(config, config.workers or os.cpu_count() or 1)
    if config.executor == "ray":
        from .ray_pool import RayExecutor  # only when used

        return RayExecutor(config, config.workers, config.ray_address)
    raise ExecutorError(f"unknown executor {config.executor!r}; choose local, processes or ray")
