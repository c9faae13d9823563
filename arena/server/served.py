"""A ladder match as a job any executor can run (``arena serve --executor``).

The ladder keeps choosing tables, claiming match indices and rating results in its own
process; only the match itself runs where the executor puts it. On the ``local``
executor the referee shares the ladder's channel pool (and its bots' health) and its
headroom; on the others each worker has a pool and a headroom of its own, trusting the
same roots for ``tls://`` bots.

A match in which a seat could not be reached (a DISCONNECTED fault) while the process
that played it was short of descriptors or memory (``headroom.py``) is **void**: the
ladder neither records nor rates it, and counts nothing against its bots. The channels
to those seats' bots are renewed: one that failed to connect may be in gRPC's reconnect
backoff for minutes, and the pool's health record of the endpoint counted the breaks.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from arena.games import get as get_game
from arena.league.executors import ExecutorReport
from arena.league.results import finished_match
from arena.referee import MatchSpec, RemoteSeat, SeatOutcome, run_match, seats_ended
from arena.referee.channels import CHANNEL_GRACE_S, ChannelPool
from arena.referee.faults import FaultKind
from arena.referee.live import LiveLog
from arena.store.rows import HeldMatch

from .headroom import Headroom, Shortage


@dataclass(frozen=True, slots=True)
class ServedMatch:
    """One ladder match: everything a worker needs to play it (the seed included,
    which never leaves the arena's own processes)."""

    match_id: str
    """The ladder's id of the match."""
    game: str
    """The game's registry name."""
    config: Any
    """The game's configuration."""
    seed: int
    """Seed of the shuffles."""
    seats: tuple[tuple[str, str], ...]
    """(bot name, endpoint) by seat."""
    deadline_ms: int
    """Per-decision deadline."""
    max_strikes: int
    """Faults before a forfeit."""
    connect_timeout_s: float
    """How long a bot may take to accept the match's stream."""
    max_reply_bytes: int
    """Larger replies are OVERSIZED faults."""
    league_id: str
    """The ladder's league row."""
    index: int
    """The match's index in it."""
    ladder: str
    """The ladder it is rated on."""
    game_json: dict[str, Any]
    """The game's configuration as the store keeps it."""

    def __str__(self) -> str:
        """How logs name it: never with its seed."""
        return f"match {self.match_id}"


@dataclass(frozen=True, slots=True)
class ServedOutcome:
    """A played ladder match as it travels back: the rows the store keeps, and each
    seat's outcome (the ladder counts forfeits against its bots). Rows, not the game's
    own result objects, which need not survive a trip between processes (the compiled
    build's classes do not pickle)."""

    finished: HeldMatch
    """The match's rows, faults and encoded record."""
    seats: tuple[SeatOutcome, ...]
    """By seat."""
    void: Shortage | None = None
    """Why the match is void (see the module): the shortage of the process that played
    it; None if it counts."""


class ServedReferee:
    """Plays ServedMatch jobs on a channel pool."""

    def __init__(
        self, pool: ChannelPool, *, owns_pool: bool, headroom: Headroom | None = None
    ) -> None:
        self.pool = pool
        self.owns_pool = owns_pool
        self.headroom = headroom if headroom is not None else Headroom()

    async def start(self) -> str | None:
        return None  # the ladder Hellos each table's bots before every match

    async def play(self, job: ServedMatch, live: LiveLog | None = None) -> ServedOutcome:
        """Play ``job``; its applied actions go to ``live`` if given (the ladder's log,
        or on a worker the relay's)."""
        spec = MatchSpec(
            match_id=job.match_id,
            config=job.config,
            game=get_game(job.game),
            seed=job.seed,
            deadline_ms=job.deadline_ms,
            max_strikes=job.max_strikes,
            connect_timeout_s=job.connect_timeout_s,
            live=live,
        )
        seats = [
            RemoteSeat(name, self.pool.get(endpoint), max_reply_bytes=job.max_reply_bytes)
            for name, endpoint in job.seats
        ]
        started = self.headroom.now()
        outcome = await run_match(spec, seats)
        # The ladder frees the bots' stream slots when this returns: once their streams
        # have ended (a bot may still be busy with this match until then).
        await seats_ended(seats)
        void = self._void(job, outcome.seats, started)
        finished = finished_match(
            outcome,
            league_id=job.league_id,
            index=job.index,
            ladder=job.ladder,
            seed=job.seed,
            game_json=job.game_json,
        )
        return ServedOutcome(finished, tuple(outcome.seats), void)

    def _void(self, job: ServedMatch, seats: list[SeatOutcome], started: float) -> Shortage | None:
        """Why the match is void (None if it is not): a seat could not be reached while
        this process was short (looked at only if one could not)."""
        unreached = [
            endpoint
            for (_, endpoint), seat in zip(job.seats, seats, strict=True)
            if any(f.kind is FaultKind.DISCONNECTED for f in seat.faults)
        ]
        if not unreached:
            return None
        shortage = self.headroom.blame(started)
        if shortage is not None:
            for endpoint in dict.fromkeys(unreached):
                self.pool.retire(endpoint, CHANNEL_GRACE_S)
        return shortage

    def report(self) -> ExecutorReport:
        return ExecutorReport()

    async def stop(self) -> None:
        if self.owns_pool:
            await self.pool.close()


@dataclass(frozen=True, slots=True)
class ServedRecipe:
    """The ladder's referee, as sent to each worker."""

    root_certificates: bytes | None
    """PEM roots trusted for ``tls://`` bots (None: the system's)."""

    def build(self) -> ServedReferee:
        """A referee with a channel pool of its own."""
        return ServedReferee(
            ChannelPool(root_certificates=self.root_certificates),
            owns_pool=True,
            headroom=Headroom(),
        )
