"""A person's seat: a transport fed by a web page (``arena play``, the web app's play
page) instead of a bot's stream.

The referee asks it like any other seat (``Seat``): each decision is built from
``observe()`` and the seat's events only. The seat holds the pending decision for the
page to show, and waits for the page to choose one of its legal actions by index, for
``think_s`` (generous, and the person's own: the match's per-decision deadline is for
bots), then draws on its time bank (``bank_s`` for the whole match), as the referee's
deadline and time bank work for a bot. A choice that does not fit (another request, an
index out of range) is refused in words and the seat goes on waiting; no choice in time
is a TIMEOUT fault, as for a bot.

A person may choose several of a decision's actions at once when the game asks the same
decision again for each (discarding down to a hand limit, one card a decision): the
first is the answer, the others are kept and answer the seat's next decisions of the
same kind while they are legal there (then the plan is dropped and the person asked).
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from enum import Enum
from typing import Any, Final

from arena.v1 import bot_pb2

from .faults import Fault, FaultKind
from .replies import checked_action
from .seats import Decision, Reply

DEFAULT_THINK_S: Final = 600.0
"""How long a person has for one decision by default (``arena play --think-s``)."""
DEFAULT_BANK_S: Final = 300.0
"""A person's time bank for a whole match by default, drawn on past ``think_s``."""


@dataclass(frozen=True, slots=True)
class Moment:
    """What the page shows: the seat's pending decision, or the match's end."""

    version: int
    """Grows with every change; a page waits for a version after the one it shows."""
    decision: Decision | None
    """The decision awaiting the person's choice (None between decisions and once over)."""
    over: bot_pb2.MatchOver | None
    """The match's end, as every seat is told it (None while it runs)."""
    think_until: float | None = None
    """Loop time at which the pending decision's own time runs out (then the bank)."""
    bank_s: float = 0.0
    """The time bank left when the pending decision was asked (all of it once over)."""

    def clock(self, now: float) -> tuple[float, float]:
        """(seconds left for this decision, seconds left in the bank) at loop time
        ``now``: the decision's own time first, then the bank."""
        if self.think_until is None:
            return 0.0, self.bank_s
        over = now - self.think_until
        if over <= 0:
            return -over, self.bank_s
        return 0.0, max(0.0, self.bank_s - over)


class HumanSeat:
    """One person at a web page (see the module)."""

    def __init__(self, name: str, *, think_s: float = DEFAULT_THINK_S, bank_s: float = 0.0) -> None:
        if not think_s > 0:
            raise ValueError("a person's time per decision must be more than 0 seconds")
        if not bank_s >= 0:
            raise ValueError("a person's time bank must be 0 seconds or more")
        self.name = name
        self.think_s = think_s
        self.bank_s = bank_s
        """The bank left (drawn on when a decision takes longer than ``think_s``)."""
        self.asked: list[Decision] = []
        """Every decision the seat was asked, in order (the page's log of the match)."""
        self._plan: list[Any] = []
        self._plan_kind: Enum | None = None
        self._think_until: float | None = None
        self._decision: Decision | None = None
        self._answer: asyncio.Future[int] | None = None
        self._over: bot_pb2.MatchOver | None = None
        self._version = 0
        self._changed = asyncio.Event()

    def moment(self) -> Moment:
        """What the page shows now."""
        return Moment(self._version, self._decision, self._over, self._think_until, self.bank_s)

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

    def choose(self, request_id: int, index: int, *then: int) -> str | None:
        """The person chose legal action ``index`` of request ``request_id`` (and
        ``then`` for the next decisions of the same kind, see the module); None if
        taken, else why not, in words."""
        decision = self._decision
        answer = self._answer
        if self._over is not None:
            return "the match is over"
        if decision is None or answer is None or answer.done():
            return "it is not your turn; the page shows the match as it is now"
        if request_id != decision.request_id:
            return "that choice was for an earlier decision; the page shows the current one"
        legal = decision.observation.legal
        choices = len(legal)
        for one in (index, *then):
            if not 0 <= one < choices:
                return f"there is no choice {one + 1}; choose one of the {choices} offered"
        if len({index, *then}) != 1 + len(then):
            return "the same choice was given twice"
        self._plan = [legal[one] for one in then]
        self._plan_kind = decision.observation.decision
        answer.set_result(index)
        return None

    def _planned(self, decision: Decision) -> Reply | None:
        """The answer the person chose ahead for this decision, if it is legal here."""
        obs = decision.observation
        if not self._plan or obs.decision != self._plan_kind or self._plan[0] not in obs.legal:
            self._plan = []
            return None
        action = self._plan.pop(0)
        return Reply(action=action)

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
        """Show the decision and wait up to ``think_s`` (then the bank) for the
        person's choice."""
        self.asked.append(decision)
        planned = self._planned(decision)
        if planned is not None:
            return planned
        loop = asyncio.get_running_loop()
        started = loop.time()
        answer: asyncio.Future[int] = loop.create_future()
        self._decision = decision
        self._answer = answer
        self._think_until = started + self.think_s
        self._change()
        try:
            async with asyncio.timeout(self.think_s + self.bank_s):
                index = await answer
        except TimeoutError:
            self.bank_s = 0.0
            fault = Fault(
                FaultKind.TIMEOUT,
                f"no choice within {self.think_s:g} s and the time bank "
                "(a person's time per decision)",
                decision.request_id,
            )
            return Reply(fault=fault, elapsed_s=loop.time() - started)
        finally:
            self._decision = None
            self._answer = None
            self._think_until = None
            self._change()
        elapsed = loop.time() - started
        self.bank_s = max(0.0, self.bank_s - max(0.0, elapsed - self.think_s))
        action, wrong = checked_action(
            decision.observation.legal[index], decision.observation.legal, decision.request_id
        )
        return Reply(action=action, fault=wrong, elapsed_s=elapsed)

    async def close(self, over: bot_pb2.MatchOver, timeout_s: float) -> None:
        """Keep the match's end for the page."""
        self._over = over
        self._change()
