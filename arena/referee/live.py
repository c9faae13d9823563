"""Matches being played, for people who watch them (the web app's ``/live`` pages).

The referee appends each action it applies to the match's ``LiveLog`` (its code and when,
nothing else: a list append per decision, and only for matches that are watchable). A
watcher rebuilds the match from its start up to the actions older than the organiser's
delay, and is shown only the game's public view of it (``Board.public_view``: what every
seat may see), never a seat's own hand.

``WATCHABLE`` holds this process's watchable matches by id: ``arena serve``'s ladder
registers each match it starts while its web app lets people follow them, and the web
app of the same process reads them. A match its executor plays elsewhere (a worker
process, a Ray actor) is logged there and its log relayed back, codes and ages only
(``arena.league.executors.live_relay``): the seed and every state stay where they were.
"""

from __future__ import annotations

import bisect
import random
import threading
import time
from array import array
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Final

from arena.games import AnyGame, Deal

DEFAULT_DELAY_S: Final = 5.0
"""How far behind play people following a match see it, unless the organiser says."""


class LiveLog:
    """The actions applied so far: when (monotonic seconds) and which (action codes),
    in two flat arrays (12 bytes a decision: a thousand matches in flight hold a few
    MB, where a tuple per decision would hold tens)."""

    __slots__ = ("codes", "times")

    def __init__(self) -> None:
        self.times = array("d")
        self.codes = array("q")

    def taken(self, at: float, code: int) -> None:
        """The action ``code`` was applied at ``at``."""
        self.times.append(at)
        self.codes.append(code)

    def taken_ago(self, now: float, ages: Sequence[float], codes: Sequence[int]) -> None:
        """Actions relayed from another process: each ``codes[i]`` was applied
        ``ages[i]`` seconds before ``now`` (this process's clock: another machine's
        clock is never compared with it). A relay's transit only makes an action look
        later, so a watcher's delay is never cut short; times stay in order."""
        last = self.times[-1] if self.times else float("-inf")
        for age, code in zip(ages, codes, strict=True):
            last = max(last, now - age)
            self.times.append(last)
            self.codes.append(code)

    def __len__(self) -> int:
        return len(self.codes)


@dataclass(slots=True)
class LiveMatch:
    """A watchable match: how it started, and its log. The seed stays on the server."""

    match_id: str
    game: AnyGame
    config: Any
    seed: int
    deal: Deal | None
    names: tuple[str, ...]
    started_at: float
    """Unix seconds."""
    log: LiveLog = field(default_factory=LiveLog)
    _cursor: tuple[Any, int] | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def public_view(
        self, delay_s: float, clock: Callable[[], float] = time.monotonic
    ) -> tuple[dict[str, Any], int]:
        """The game's public board after every action taken at least ``delay_s`` ago,
        and how many actions that is. Replays forward from where the last watcher left
        off (a match only moves forward), under a lock: pages ask from many threads."""
        board = self.game.board
        if board is None:
            raise LookupError(f"{self.game.title} has no board to watch a match on")
        # Appended in time order: those taken by the cutoff are a prefix.
        shown = bisect.bisect_right(self.log.times, clock() - delay_s)
        codes = self.log.codes
        with self._lock:
            state, applied = self._cursor if self._cursor is not None else (self._start(), 0)
            if shown < applied:  # an earlier watcher asked with a shorter delay
                state, applied = self._start(), 0
            for code in codes[applied:shown]:
                self.game.apply_legal(state, self.game.action_from_code(code))
            self._cursor = (state, shown)
            view = board.public_view(state, self.game.events(state), self.names)
        return view, shown

    def _start(self) -> Any:
        if self.deal is not None:
            return self.game.new_match_from_deal(self.config, self.deal)
        return self.game.new_match(self.config, random.Random(self.seed))


class Watchable:
    """This process's watchable matches, by id."""

    def __init__(self) -> None:
        self._matches: dict[str, LiveMatch] = {}

    @contextmanager
    def playing(self, match: LiveMatch) -> Iterator[LiveLog]:
        """``match`` is watchable while the block runs; its log, for the referee."""
        self._matches[match.match_id] = match
        try:
            yield match.log
        finally:
            self._matches.pop(match.match_id, None)

    def get(self, match_id: str) -> LiveMatch | None:
        """The match if it is being played here now."""
        return self._matches.get(match_id)

    def ids(self) -> Sequence[str]:
        """The ids of the matches being played here now."""
        return list(self._matches)


WATCHABLE = Watchable()
"""This process's watchable matches (see the module)."""
