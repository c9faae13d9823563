"""The human seat's tables: matches with a person at one seat, played on the app's loop.

The person is a seat like any other (``arena.referee.human.HumanSeat``): the referee asks
it with requests built from ``observe()``, and the page offers exactly the legal actions
of the pending decision, as buttons. The match runs on the app's event loop; the page
waits (long-polls) until it is the person's turn again or the match is over. The person's
time per decision is generous and configurable; the bots keep their own deadline.

``arena play --bot ...`` starts one table and prints its address; ``arena web`` offers a
page that starts one against the game's built-in bots. On loopback nobody else can reach
the tables; an app listening beyond loopback serves them only with the play token (given
once as ``?token=``, then kept in a cookie), and not at all without one.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from arena.games import AnyGame
from arena.referee import MatchOutcome, MatchSpec, Seat, run_match
from arena.referee.human import DEFAULT_THINK_S, HumanSeat
from arena.referee.replay_steps import replay_step

from .play_record import new_match_id, record_played

log = logging.getLogger(__name__)

MAX_TABLES: Final = 8
"""Tables running at once in one app (a finished table stays viewable)."""
MAX_KEPT: Final = 64
"""Tables kept in memory, finished ones included (the oldest finished go first)."""


class TablesFullError(RuntimeError):
    """As many tables as one app plays at once are being played."""


@dataclass
class PlaySettings:
    """How the app's tables are played and kept."""

    think_s: float = DEFAULT_THINK_S
    """A person's time per decision."""
    deadline_ms: int = 1000
    """The bots' deadline per decision."""
    token: str | None = None
    """Required to play when ``loopback`` is false (and then the only way in)."""
    loopback: bool = True
    """Whether the app listens on this machine only."""
    db: str | Path | None = None
    """Where finished matches are recorded (None: not recorded)."""
    rated: bool = False
    """Whether recorded matches are rated (the opt-in ladder ``play/...``)."""
    offer_builtin: bool = True
    """Whether ``/play`` offers a page that starts a table against built-in bots."""
    games: tuple[str, ...] | None = None
    """The games that page offers (None: every game with a board)."""


@dataclass
class PlayTable:
    """One match with a person at it."""

    id: str
    game: AnyGame
    config: Any
    seat: int
    """The person's seat."""
    human: HumanSeat
    names: list[str]
    spec: MatchSpec
    task: asyncio.Task[None] | None = None
    outcome: MatchOutcome | None = None
    recorded_as: str | None = None
    """The match id in the database, once recorded."""
    problem: str | None = None
    """Why the match could not be played or recorded, in words."""
    final: dict[str, Any] | None = None
    """The last step of the match as the person saw it (once over)."""
    closers: list[Callable[[], Awaitable[None]]] = field(default_factory=list)
    """Run when the match is over (close the bots' channels)."""


class PlayRoom:
    """The app's tables (kept in memory; each finished match is in the database)."""

    def __init__(self, settings: PlaySettings) -> None:
        self.settings = settings
        self.tables: dict[str, PlayTable] = {}

    def running(self) -> int:
        """Tables still being played."""
        return sum(1 for t in self.tables.values() if t.outcome is None and t.problem is None)

    def start(
        self,
        game: AnyGame,
        config: Any,
        opponents: Sequence[Seat],
        *,
        name: str = "you",
        seat: int = 0,
        seed: int | None = None,
        closers: Sequence[Callable[[], Awaitable[None]]] = (),
    ) -> PlayTable:
        """Start a match with the person at ``seat`` and ``opponents`` in the other
        seats, in order (on the running loop)."""
        players = game.players_of(config)
        if len(opponents) != players - 1:
            raise ValueError(f"{len(opponents)} opponents for a {players}-player table")
        if not 0 <= seat < players:
            raise ValueError(f"the person's seat must be 0..{players - 1}")
        if self.running() >= MAX_TABLES:
            raise TablesFullError(f"{MAX_TABLES} tables are being played here; try again later")
        self._forget_old()
        human = HumanSeat(name, think_s=self.settings.think_s)
        seats: list[Seat] = list(opponents)
        seats.insert(seat, human)
        spec = MatchSpec(
            new_match_id(self.settings.rated),
            config,
            seed=seed if seed is not None else secrets.randbits(63),
            deadline_ms=self.settings.deadline_ms,
            game=game,
        )
        table = PlayTable(
            secrets.token_urlsafe(12),
            game,
            config,
            seat,
            human,
            [s.name for s in seats],
            spec,
            closers=list(closers),
        )
        table.task = asyncio.create_task(self._play(table, seats), name=f"play {table.id}")
        self.tables[table.id] = table
        return table

    def _forget_old(self) -> None:
        finished = [k for k, t in self.tables.items() if t.outcome is not None or t.problem]
        while len(self.tables) >= MAX_KEPT and finished:
            del self.tables[finished.pop(0)]

    async def _play(self, table: PlayTable, seats: list[Seat]) -> None:
        try:
            outcome = await run_match(table.spec, seats)
            table.final = await asyncio.to_thread(_final_step, outcome, table.seat)
            table.outcome = outcome
            if self.settings.db is not None:
                table.recorded_as = await asyncio.to_thread(
                    record_played,
                    self.settings.db,
                    table.game,
                    table.config,
                    outcome,
                    table.spec.seed,
                    rated=self.settings.rated,
                )
        except Exception as error:  # shown on the page, never a traceback
            log.exception("table %s failed", table.id)
            table.problem = f"the match could not be finished or recorded: {error}"
        finally:
            for close in table.closers:
                await close()
            table.human.wake()

    async def stop(self) -> None:
        """Cancel the tables still running (the app is stopping)."""
        tasks = [t.task for t in self.tables.values() if t.task is not None and not t.task.done()]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


def _final_step(outcome: MatchOutcome, seat: int) -> dict[str, Any]:
    lines = json.loads(json.dumps(outcome.record))
    return replay_step(lines, 10**9, seat)
