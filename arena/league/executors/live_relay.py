"""Live logs of matches played on a worker, relayed to the head that lets people follow
them (``arena.referee.live``): the worker's side.

A job the head sends as watched gets a ``LiveLog`` on the worker, which the referee
appends to as it does on the head's own loop. Every ``RELAY_EVERY_S`` while such a job is
in play, the worker sends one ``("live", batch)`` frame with what each log gained since
the last: per job its number, the actions' codes and their ages (seconds before the frame
left). Nothing else crosses: the head already has each match's seed and seats, and
rebuilds the public board from the codes itself. The head stamps the ages on its own
clock (``LiveLog.taken_ago``), so workers on other machines need no common clock.

One frame per worker per interval, however many matches it plays, rather than one per
decision: a fast match makes hundreds of decisions a second, and a frame costs a write
on each side. A log is dropped when its job ends, as the head drops its own.
"""

from __future__ import annotations

from array import array
from typing import Final

from arena.referee.live import LiveLog

RELAY_EVERY_S: Final = 0.25
"""How often a worker sends its watched matches' new actions (watchers see a match
seconds behind play: a quarter of a second more is not seen)."""

LiveBatch = list[tuple[int, array, array]]  # type: ignore[type-arg]
"""Per watched job: its number, ages (``array('d')``, seconds) and codes (``array('q')``)."""


class LiveRelay:
    """The watched jobs in play on a worker, and how much of each log was sent."""

    def __init__(self) -> None:
        self._logs: dict[int, LiveLog] = {}
        self._sent: dict[int, int] = {}

    def __bool__(self) -> bool:
        return bool(self._logs)

    def watch(self, number: int) -> LiveLog:
        """A log for job ``number``, relayed until ``forget``."""
        log = self._logs[number] = LiveLog()
        self._sent[number] = 0
        return log

    def forget(self, number: int) -> None:
        """Job ``number`` is over: its log goes, sent or not."""
        self._logs.pop(number, None)
        self._sent.pop(number, None)

    def batch(self, now: float) -> LiveBatch:
        """What each log gained since the last batch, with ages measured at ``now``."""
        out: LiveBatch = []
        for number, log in self._logs.items():
            sent = self._sent[number]
            if len(log) == sent:
                continue
            ages = array("d", (now - at for at in log.times[sent:]))
            out.append((number, ages, log.codes[sent:]))
            self._sent[number] = len(log)
        return out
