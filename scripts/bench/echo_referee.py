"""A referee that plays nothing: it answers every job with the same finished match.

``bench_scale.py`` runs it on the ``ray`` executor to time what the executor adds per
match (a table out, a finished match back) without a match's own cost. A module of its
own so that a worker process can import it by name (the benchmark runs as __main__).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from arena.league.executors.base import ExecutorReport


class EchoReferee:
    """Answers each job with ``answer`` at once."""

    def __init__(self, answer: Any) -> None:
        self.answer = answer

    async def start(self) -> str | None:
        return None

    async def play(self, job: Any, live: Any = None) -> Any:
        return self.answer

    def report(self) -> ExecutorReport:
        return ExecutorReport()

    async def stop(self) -> None:
        return None


@dataclass(frozen=True)
class EchoRecipe:
    """An EchoReferee answering ``answer``."""

    answer: Any

    def build(self) -> EchoReferee:
        return EchoReferee(self.answer)
