"""Play one scheduled table to a finished match: the one code path of every executor.

A MatchWorker owns the entrants of the process it runs in (managed bots are started
there, where their matches are played) and plays any number of tables at once on its
event loop. The head never sees a seat; it gets the finished match back, rows and
record, exactly as the store will keep it.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace

from arena.referee import MatchSpec, run_match, seats_ended
from arena.referee.live import LiveLog
from arena.store.rows import HeldMatch

from ..config import LeagueConfig
from ..entrants import Entrants, EntrantsError
from ..results import finished_match, match_id
from ..schedule import Table, derived_seed
from .base import ExecutorReport


class MatchWorker:
    """A league's referee: its entrants, and the tables it is given to play."""

    def __init__(self, config: LeagueConfig) -> None:
        self.config = config
        self.entrants = Entrants(config)
        self.game = config.game_plugin
        self.game_config = config.game_config()
        self.game_json = self.game.config_to_json(self.game_config)

    async def start(self) -> str | None:
        """Start the managed bots and Hello every bot; why that failed, or None."""
        try:
            await self.entrants.start()
        except EntrantsError as error:
            return str(error)
        return None

    async def play(self, table: Table, live: LiveLog | None = None) -> HeldMatch:
        """Play one table; bot faults are in the result, never raised (``live``: where
        its applied actions go, if anyone follows it)."""
        seats = [
            await self.entrants.seat(name, derived_seed(table.seed, table.index, s))
            for s, name in enumerate(table.seats)
        ]
        outcome = await run_match(replace(self.spec(table), live=live), seats)
        if self.config.bot_streams > 0:
            # A capped bot's slot is free once its stream has ended, not when MatchOver
            # was sent: it may still be busy with this match, and a cap of one means one.
            await seats_ended(seats)
        for seat_outcome in outcome.seats:
            if any(f.kind == "DISCONNECTED" for f in seat_outcome.faults):
                await self.entrants.after_disconnect(seat_outcome.name)
        return finished_match(
            outcome,
            league_id=self.config.league_id,
            index=table.index,
            ladder=self.config.ladder,
            seed=table.seed,
            game_json=self.game_json,
        )

    def spec(self, table: Table) -> MatchSpec:
        """The match a table plays."""
        config = self.config
        deal = None
        if table.deal_group is not None:
            deal = self.game.deal(self.game_config, random.Random(table.seed))
        return MatchSpec(
            match_id=match_id(config.league_id, table.index),
            config=self.game_config,
            game=self.game,
            seed=table.seed,
            deal=deal,
            deadline_ms=config.deadline_ms,
            time_bank_ms=config.time_bank_ms,
            max_strikes=config.max_strikes,
            # A duplicate deal is being played at other tables right now: MatchOver
            # must not carry its record (every hand and the deck order).
            publish_record=table.deal_group is None,
        )

    def report(self) -> ExecutorReport:
        """Managed bots restarted after dying, how often, and their last words."""
        restarts = {n: b.restarts for n, b in self.entrants.managed.items() if b.restarts}
        return ExecutorReport(restarts=restarts, last_words=dict(self.entrants.last_words))

    async def stop(self) -> None:
        """Stop the managed bots and close the channels."""
        await self.entrants.stop()


@dataclass(frozen=True, slots=True)
class LeagueRecipe:
    """A league's referee, as sent to each worker."""

    config: LeagueConfig
    """The league (its entrants are started on the worker)."""

    def build(self) -> MatchWorker:
        """The league's MatchWorker."""
        return MatchWorker(self.config)
