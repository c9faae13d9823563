"""A person's seat: a transport fed by a web page (``arena play``, the web app's play
page) instead of a bot's stream.

The referee asks it like any other seat (``Seat``): each decision is built from
``observe()`` and the seat's events only. The seat holds the pending decision for the
page to show, and waits for the page to choose one of its legal actions by index, for
``think_s`` (generous, and the person's own: the match's per-decision deadline is for
bots). A choice that does not fit (another request, an index out of range) is refused in
words and the seat goes on waiting; no choice in time is a TIMEOUT fault, as for a bot.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Final

from arena.v1 import bot_pb2

from .faults import Fault, FaultKind
from .replies import checked_action
from .seats import Decision, Reply

DEFAULT_THINK_S: Final = 600.0
"""How long a person has for one decision by default (``arena play --think-s``)."""


@dataclass(frozen=True, slots=True)
class Moment:
    """What the page shows: the seat's pending decision, or the match's end."""

    version: int
    """Grows with every change; a page waits for a version after the one it shows."""
    decision: Decision | None
    """The decision awaiting the person's choice (None between decisions and once over)."""
    over: bot_pb2.MatchOver | None
    """The match's end, as every seat is told it (None while it runs)."""


class HumanSeat:
    """One person at a web page (see the module)."""

    def __init__(self, name: str, *, think_s: float = DEFAULT_THINK_S) -> None:
        if not think_s > 0:
            raise ValueError("a person's time per decision must be more than 0 seconds")
        self.name = name
        self.think_s = think_s
        self._decision: Decision | None = None
        self._answer: asyncio.Future[int] | None = None
        self._over: bot_pb2.MatchOver | None = None
        self._version = 0
        self._changed = asyncio.Event()

    def moment(self) -> Moment:
        """What the page shows now."""
        return Moment(self._version, self._decision, self._over)

    async def next_moment(self, after: int, timeout_s: float) -> Moment:
        """The first moment whose version is past ``after``, or the current one once
        ``timeout_s`` has passed (a page waits for the bots' moves this way)."""
        try:
            async with asyncio.timeout(timeout_s):
                while self._version <= after:
                    await self._changed.wait()
        except TimeoutError:
            pass
        return self.moment()

    def choose(self, request_id: int, index: int) -> str | None:
        """The person chose legal action ``index`` of request ``request_id``; None if
        taken, else why not, in words."""
        decision = self._decision
        answer = self._answer
        if self._over is not None:
            return "the match is over"
        if decision is None or answer is None or answer.done():
            return "it is not your turn; the page shows the match as it is now"
        if request_id != decision.request_id:
            return "that choice was for an earlier decision; the page shows the current one"
        choices = len(decision.observation.legal)
        if not 0 <= index < choices:
            return f"there is no choice {index + 1}; choose one of the {choices} offered"
        answer.set_result(index)
        return None

    def wake(self) -> None:
        """Wake the pages waiting for a change (the match ended some other way)."""
        self._change()

    def _change(self) -> None:
        self._version += 1
        self._changed.set()
        self._changed = asyncio.Event()

    async def open(self, start: bot_pb2.MatchStart, timeout_s: float) -> Fault | None:
        """Nothing to open: the page comes when the person does."""
        return None

    async def decide(self, decision: Decision) -> Reply:
        """Show the decision and wait up to ``think_s`` for the person's choice."""
        loop = asyncio.get_running_loop()
        started = loop.time()
        answer: asyncio.Future[int] = loop.create_future()
        self._decision = decision
        self._answer = answer
        self._change()
        try:
            async with asyncio.timeout(self.think_s):
                index = await answer
        except TimeoutError:
            fault = Fault(
                FaultKind.TIMEOUT,
                f"no choice within {self.think_s:g} s (a person's time per decision)",
                decision.request_id,
            )
            return Reply(fault=fault, elapsed_s=loop.time() - started)
        finally:
            self._decision = None
            self._answer = None
            self._change()
        elapsed = loop.time() - started
        action, wrong = checked_action(
            decision.observation.legal[index], decision.observation.legal, decision.request_id
        )
        return Reply(action=action, fault=wrong, elapsed_s=elapsed)

    async def close(self, over: bot_pb2.MatchOver, timeout_s: float) -> None:
        """Keep the match's end for the page."""
        self._over = over
        self._change()
