"""The human seat's tables: matches with people at some seats, played on the app's loop.

Each person is a seat like any other (``arena.referee.human.HumanSeat``): the referee asks
it with requests built from ``observe()``, and that person's page offers exactly the
legal actions of the pending decision. The match runs on the app's event loop; a page
waits (long-polls) until it is its person's turn again or the match is over. A person's
time per decision is generous and configurable, with a time bank; the bots keep their
own deadline.

``arena play --bot ...`` starts one table with one person and prints its address (the
table's id is that person's secret); ``arena web`` offers a page that starts one against
the game's built-in bots, and a lobby (``lobby.py``) where people open tables that others
join by their link; each person there holds a key to their own seat. Who may reach the
tables at all: ``play_access``.
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
from arena.referee.human import DEFAULT_BANK_S, DEFAULT_THINK_S, HumanSeat
from arena.referee.replay import replay_lines
from arena.referee.replay_steps import replay_step

from .lobby import Lobby
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
    bank_s: float = DEFAULT_BANK_S
    """A person's time bank for a match, drawn on past ``think_s``."""
    deadline_ms: int = 1000
    """The bots' deadline per decision."""
    token: str | None = None
    """Required to play when ``loopback`` is false (and then the only way in)."""
    loopback: bool = True
    """Whether the app listens on this machine only."""
    db: str | Path | None = None
    """Where finished matches are recorded (None: not recorded)."""
    rated: bool = False
    """Whether recorded matches are rated (the opt-in ladder ``play/...``); a lobby
    table may then be opened unrated too."""
    offer_builtin: bool = True
    """Whether ``/play`` offers a page that starts a table against built-in bots."""
    games: tuple[str, ...] | None = None
    """The games that page offers (None: every game with a board)."""


@dataclass
class PlayTable:
    """One match with people at it."""

    id: str
    game: AnyGame
    config: Any
    people: dict[int, HumanSeat]
    """The people, by seat."""
    names: list[str]
    spec: MatchSpec
    rated: bool
    """Whether the match is rated when recorded."""
    keys: dict[str, int] = field(default_factory=dict)
    """Each person's secret key to their seat (lobby tables, whose ids are listed);
    empty: the table's id is its one person's secret (``arena play``, the solo form)."""
    task: asyncio.Task[None] | None = None
    outcome: MatchOutcome | None = None
    recorded_as: str | None = None
    """The match id in the database, once recorded."""
    problem: str | None = None
    """Why the match could not be played or recorded, in words."""
    finals: dict[int, dict[str, Any]] = field(default_factory=dict)
    """Per person's seat: the last step of the match as they saw it (once over)."""
    ends: dict[int, list[str]] = field(default_factory=dict)
    """Per person's seat: the whole match in words as they saw it (once over)."""
    closers: list[Callable[[], Awaitable[None]]] = field(default_factory=list)
    """Run when the match is over (close the bots' channels)."""
    logs: dict[int, list[str]] = field(default_factory=dict)
    """Per person's seat: the match in words so far (the page's log, grown as shown)."""
    logged: dict[int, int] = field(default_factory=dict)
    """Per person's seat: how many of its decisions ``logs`` holds."""

    @property
    def over(self) -> bool:
        """Whether the match is over (played, or failed)."""
        return self.outcome is not None or self.problem is not None


class PlayRoom:
    """The app's tables (kept in memory; each finished match is in the database)."""

    def __init__(self, settings: PlaySettings, *, clock: Callable[[], float] | None = None) -> None:
        self.settings = settings
        self.tables: dict[str, PlayTable] = {}
        self.lobby = Lobby(self, clock=clock)
        """The tables people open for others to join (``lobby.py``)."""

    def running(self) -> int:
        """Tables still being played."""
        return sum(1 for t in self.tables.values() if not t.over)

    def people(self) -> int:
        """People seated: at the lobby's open tables and at the tables being played."""
        playing = sum(len(t.people) for t in self.tables.values() if not t.over)
        return playing + self.lobby.people()

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
        """Start a match with one person at ``seat`` and ``opponents`` in the other
        seats, in order (on the running loop)."""
        players = game.players_of(config)
        if len(opponents) != players - 1:
            raise ValueError(f"{len(opponents)} opponents for a {players}-player table")
        if not 0 <= seat < players:
            raise ValueError(f"the person's seat must be 0..{players - 1}")
        others = [s for s in range(players) if s != seat]
        return self.start_people(
            game,
            config,
            {seat: name},
            dict(zip(others, opponents, strict=True)),
            rated=self.settings.rated,
            seed=seed,
            closers=closers,
        )

    def start_people(
        self,
        game: AnyGame,
        config: Any,
        people: dict[int, str],
        bots: dict[int, Seat],
        *,
        rated: bool,
        keys: dict[str, int] | None = None,
        table_id: str | None = None,
        seed: int | None = None,
        closers: Sequence[Callable[[], Awaitable[None]]] = (),
    ) -> PlayTable:
        """Start a match with ``people`` (seat: name) and ``bots`` (seat: seat) filling
        every seat (on the running loop); ``keys``: each person's key to their seat."""
        players = game.players_of(config)
        if sorted([*people, *bots]) != list(range(players)):
            raise ValueError(f"people and bots must fill seats 0..{players - 1} once each")
        if self.running() >= MAX_TABLES:
            raise TablesFullError(f"{MAX_TABLES} tables are being played here; try again later")
        self._forget_old()
        settings = self.settings
        humans = {
            seat: HumanSeat(name, think_s=settings.think_s, bank_s=settings.bank_s)
            for seat, name in people.items()
        }
        seats: list[Seat] = [humans[s] if s in humans else bots[s] for s in range(players)]
        spec = MatchSpec(
            new_match_id(rated),
            config,
            seed=seed if seed is not None else secrets.randbits(63),
            deadline_ms=settings.deadline_ms,
            game=game,
        )
        table = PlayTable(
            table_id or secrets.token_urlsafe(12),
            game,
            config,
            humans,
            [s.name for s in seats],
            spec,
            rated,
            keys=dict(keys or {}),
            closers=list(closers),
        )
        table.task = asyncio.create_task(self._play(table, seats), name=f"play {table.id}")
        self.tables[table.id] = table
        return table

    def _forget_old(self) -> None:
        finished = [k for k, t in self.tables.items() if t.over]
        while len(self.tables) >= MAX_KEPT and finished:
            del self.tables[finished.pop(0)]

    async def _play(self, table: PlayTable, seats: list[Seat]) -> None:
        try:
            outcome = await run_match(table.spec, seats)
            for seat in table.people:
                final, words = await asyncio.to_thread(_final_step, outcome, seat)
                table.finals[seat], table.ends[seat] = final, words
            table.outcome = outcome
            if self.settings.db is not None:
                table.recorded_as = await asyncio.to_thread(
                    record_played,
                    self.settings.db,
                    table.game,
                    table.config,
                    outcome,
                    table.spec.seed,
                    rated=table.rated,
                )
        except Exception as error:  # shown on the page, never a traceback
            log.exception("table %s failed", table.id)
            table.problem = f"the match could not be finished or recorded: {error}"
        finally:
            for close in table.closers:
                await close()
            for human in table.people.values():
                human.wake()

    async def stop(self) -> None:
        """Cancel the tables still running (the app is stopping)."""
        tasks = [t.task for t in self.tables.values() if t.task is not None and not t.task.done()]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


def _final_step(outcome: MatchOutcome, seat: int) -> tuple[dict[str, Any], list[str]]:
    """The match's last step as ``seat`` saw it, and the whole match in its words."""
    lines = json.loads(json.dumps(outcome.record))
    return replay_step(lines, 10**9, seat), list(replay_lines(lines, seat))
