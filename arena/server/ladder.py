"""The live ladder of ``arena serve``: verify submitted bots, keep playing rated matches
among the active ones, suspend bots that keep failing.

Everything here runs on the server's event loop, as do the gRPC handlers, so the store
(one SQLite connection) and the in-memory ratings are only ever touched by one thing at
a time. A match is committed with its rating update in one transaction the moment it
ends (completion order: a live ladder with changing bots has no index order to keep);
a match cut off by shutdown is never committed, so nothing is ever half-recorded, and
its bots are simply matched again after the restart.

Match seeds come from ``secrets``: a seed that could be derived from anything public
would let a bot know the deal in advance.

An endpoint is dialled only if this run's allowlist allows it: the database may hold
endpoints submitted under a wider ``--allow``. Such a bot is suspended when the ladder
starts, before it is verified, and before it is seated.

Whatever a bot says (its Hello, its errors, its faults' details) is stored as given, cut
to a length (``arena.text.capped``), and shown only through ``arena.text.shown``.

A database that cannot be written (a full disk, a read-only file, another process
holding it: ``arena.store.unwritable``) pauses the ladder instead of failing each match
in turn: no match starts, the health service says NOT_SERVING, the status line says
why, and the log says what to do (once when it starts, then once per
``STORE_LOG_EVERY_S``). Every write that failed or came after (a finished match with
its ratings, a bot's placement or failure count, a verification's verdict) is kept in
memory, in order, and written once the database can be written again; the ladder
checks that with the first kept write (or a probe) after a wait that doubles from
``STORE_RETRY_S`` up to ``STORE_RETRY_MAX_S``, on its clock, then resumes by itself.
Matches already in play go on and their results are kept the same way; only a shutdown
while the database still cannot be written loses them (the log names them).

An arena whose own process runs short of file descriptors (or of memory for sockets:
``headroom.py``) cannot reach healthy bots, and what fails then is not held against any
bot. The ladder looks at its headroom once per ``LOOK_EVERY_S``, and again whenever it
could not reach a bot (a Hello before a match, a verification); a failure during a span
in which it was short counts for nothing. A Hello that failed so starts no match and
counts no failure; a match in which a seat could not be reached so is void (neither
recorded nor rated, ``served.py``); a verification that failed so leaves its bot
verifying, to be verified again once the arena recovers. Meanwhile the ladder pauses:
no match starts, no verification dials, the health service says NOT_SERVING, the status
line says the arena is short of descriptors (no figures: they are the organizer's), and
the log says so with the figures and what to do (once when it starts, then once per
``SHORT_LOG_EVERY_S``). The first look that finds headroom again resumes it: the
channels to bots not in play are closed (a channel whose connects failed is in gRPC's
reconnect backoff, for up to two minutes), and the waiting verifications start.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections import Counter, deque
from collections.abc import Awaitable, Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any, Final

from arena.league.commit import Standings, rate_and_record
from arena.league.executors import Executor, ExecutorError, executor_for
from arena.league.executors.base import LocalExecutor
from arena.league.joint import JointFit
from arena.league.rating import RatingModel
from arena.league.results import match_id
from arena.referee import SeatOutcome
from arena.referee.channels import ChannelPool
from arena.referee.hello import hello
from arena.referee.live import WATCHABLE, LiveLog, LiveMatch
from arena.store import Store
from arena.store.registry import (
    MAX_REASON,
    MAX_VERSION,
    BotEntry,
    BotStatus,
    change_bot,
    claim_match_index,
    ensure_league,
    get_bot,
    list_bots,
)
from arena.store.rows import HeldMatch
from arena.store.unwritable import WriteFault
from arena.text import capped

from .allowlist import Allowlist
from .config import ServeConfig
from .headroom import LOOK_EVERY_S, Headroom, Shortage
from .matchmaking import Matchmaker
from .served import ServedMatch, ServedOutcome, ServedRecipe, ServedReferee
from .verify import ARENA_FAILED, verify_bot

log = logging.getLogger("arena.serve")

IDLE_POLL_S: Final = 2.0
"""The scheduler looks again at least this often (every change also wakes it)."""
VERIFY_AT_ONCE: Final = 2
"""Verifications running at the same time (each plays a few games)."""
MAX_REPLY_BYTES: Final = 4096
"""Bot replies larger than this are OVERSIZED faults (as in leagues)."""
STORE_RETRY_S: Final = 1.0
"""First wait before writing again to a database that could not be written."""
STORE_RETRY_MAX_S: Final = 60.0
"""The wait doubles after each failed attempt, up to this."""
STORE_LOG_EVERY_S: Final = 60.0
"""While the database cannot be written, the log says so at most this often."""
SHORT_LOG_EVERY_S: Final = 60.0
"""While the arena is short of descriptors, the log says so at most this often."""


@dataclass(frozen=True, slots=True)
class RunningMatch:
    """A ladder match being played."""

    match_id: str
    """Its id (its record is not served until it ends)."""
    seats: tuple[str, ...]
    """Bots by seat."""
    started_at: float
    """Unix seconds."""


@dataclass(slots=True)
class StorePause:
    """The ladder paused because its database cannot be written."""

    fault: WriteFault
    """Why (from the last failed write)."""
    since: float
    """Clock time of the first failed write."""
    wait_s: float
    """The wait before the next attempt (doubling)."""
    retry_at: float
    """Clock time of the next attempt."""
    logged_at: float
    """Clock time of the last log line about it."""
    attempts: int = 1
    """Writes tried since it began (each one transaction)."""


@dataclass(slots=True)
class ShortPause:
    """The ladder paused because the arena's own process is short of descriptors (or
    memory for sockets)."""

    shortage: Shortage
    """What it is short of (from the last look that found it short)."""
    since: float
    """Loop time it began."""
    logged_at: float
    """Loop time of the last log line about it."""
    spared: int = 0
    """Failures to reach a bot not held against it meanwhile (Hellos, void matches,
    verifications)."""


Write = Callable[[], object]
"""One store write: a single transaction (run again from the start if it fails)."""


@dataclass(frozen=True, slots=True)
class KeptWrite:
    """A write waiting for the database."""

    what: str
    """What it writes, for the log."""
    write: Write
    """The write."""
    match_id: str = ""
    """The finished match it commits, if it does."""


class Ladder:
    """The verifier and the match loop."""

    def __init__(
        self,
        config: ServeConfig,
        store: Store,
        *,
        root_certificates: bytes | None = None,
        clock: Callable[[], float] = time.monotonic,
        headroom: Headroom | None = None,
    ) -> None:
        self.config = config
        self.store = store
        self.clock = clock
        """Seconds, for the retries of a database that cannot be written (tests give a
        clock of their own)."""
        self.headroom = headroom if headroom is not None else Headroom()
        """The arena's own headroom (tests give a probe of their own)."""
        self._short: ShortPause | None = None
        self._next_look = 0.0
        """Loop time of the next look at the headroom."""
        self._deferred: set[str] = set()
        """Bots whose verification waits for the arena to recover."""
        self.report_health: Callable[[bool], Awaitable[None]] | None = None
        """Told (awaited) whenever the ladder starts or stops being able to serve: False
        while its database cannot be written (``arena serve`` sets the health service)."""
        self._health_reported = True
        self._pause: StorePause | None = None
        self._unwritten: deque[KeptWrite] = deque()
        """Writes waiting for the database, oldest first."""
        self._suspended_here: set[tuple[str, str]] = set()
        """Bots (name, endpoint) this run suspended for an endpoint it does not allow."""
        self._roots = root_certificates
        self.pool = ChannelPool(root_certificates=root_certificates)
        recipe = ServedRecipe(root_certificates)
        self.executor: Executor = (
            LocalExecutor(recipe, ServedReferee(self.pool, owns_pool=False, headroom=self.headroom))
            if config.executor == "local"
            else executor_for(
                config.executor,
                recipe,
                workers=config.workers,
                ray_address=config.ray_address,
            )
        )
        """Where matches are played (the ladder itself stays here)."""
        self.allowlist = Allowlist(config.allow)
        self.game = config.game_plugin
        draw = self.game.rating_defaults(config.preset, config.table_size).draw_probability
        self.model = RatingModel(tau=config.tau, draw_probability=draw)
        self.standings = Standings(self.model, config.ladder)
        self.standings.apply(store.ratings(config.ladder))
        self.rated_matches = int(
            store.read("SELECT count(*) FROM matches WHERE league_id = ?", (config.league_id,))[0][
                0
            ]
        )
        self.running: dict[str, RunningMatch] = {}
        self.followed = False
        """Whether people may follow its matches as they are played (``arena serve``'s
        web app sets it): each match is then registered in ``WATCHABLE`` with a live log,
        fed wherever the executor plays it."""
        self.active_bots = 0
        self._looked = False
        """The scheduler has looked at the bots once (until then the status is
        "starting")."""
        self._halted: str | None = None
        """Why no match can be played in this run any more (every worker of the executor
        died), or None."""
        self._matchmaker = Matchmaker(self.model)
        self.joint_source: Callable[[], JointFit] = JointFit.empty
        """The ladder's joint model as last fitted (the server's intervals cache)."""
        self.after_commit: Callable[[], None] = lambda: None
        """Called after each commit (the intervals cache refits in the background)."""
        self._game_config = config.game_config()
        self._game_json = self.game.config_to_json(self._game_config)
        self._busy: Counter[str] = Counter()
        self._rests_until: dict[str, float] = {}
        """Loop time at which each resting bot may be seated again (config.rest_s)."""
        self._tasks: set[asyncio.Task[None]] = set()
        self._verifying: dict[str, asyncio.Task[None]] = {}
        self._verify_slots = asyncio.Semaphore(VERIFY_AT_ONCE)
        self._owner_turns: dict[str, asyncio.Lock] = {}
        """Per owner: held while one of its bots is verified."""
        self._wake = asyncio.Event()
        self._stopping = False
        self._logged_status = ""
        ensure_league(
            store,
            config.league_id,
            {"serve": {"preset": config.preset, "table_size": config.table_size}},
        )

    @property
    def played(self) -> dict[str, int]:
        """Rated matches per bot."""
        return self.standings.played

    @property
    def stopping(self) -> bool:
        """True once shutdown began: no new matches, no new submissions."""
        return self._stopping

    def wake(self) -> None:
        """Make the scheduler look at the bots again now."""
        self._wake.set()

    @property
    def store_problem(self) -> str | None:
        """Why the database cannot be written now (SQLite's words, nothing about the
        host), or None if it can."""
        return None if self._pause is None else self._pause.fault.why

    @property
    def short_of(self) -> str | None:
        """What the arena's own process is short of now ("file descriptors"), or None."""
        return None if self._short is None else self._short.shortage.what

    @property
    def kept_matches(self) -> int:
        """Finished matches kept in memory until the database can be written."""
        return sum(1 for kept in self._unwritten if kept.match_id)

    # ------------------------------------------ a database that cannot be written

    def _write(self, write: Write, what: str, *, match_id: str = "") -> None:
        """Run ``write`` now; or, while the database cannot be written (or earlier
        writes still wait), keep it to run after them."""
        kept = KeptWrite(what, write, match_id)
        if self._pause is None and not self._unwritten:
            try:
                write()
                return
            except Exception as error:
                fault = self.store.write_fault(error)
                if fault is None:
                    raise
                self._unwritten.append(kept)
                self._store_failed(fault)
                return
        self._unwritten.append(kept)

    def _store_failed(self, fault: WriteFault) -> None:
        """A write failed: pause (or stay paused), wait longer before the next attempt,
        and say so in the log when it starts, then once per STORE_LOG_EVERY_S."""
        now = self.clock()
        pause = self._pause
        if pause is None:
            self._pause = StorePause(fault, now, STORE_RETRY_S, now + STORE_RETRY_S, now)
            log.error(
                "ladder paused: cannot write the database (%s); %s. No match starts until "
                "it can be written; %d finished match(es) and %d other change(s) are kept "
                "in memory and written then, and the ladder resumes by itself (the next "
                "attempt in %g s). Stopping the arena before then loses what is kept.",
                fault.why,
                fault.advice,
                self.kept_matches,
                len(self._unwritten) - self.kept_matches,
                STORE_RETRY_S,
            )
        else:
            pause.fault = fault
            pause.attempts += 1
            pause.wait_s = min(pause.wait_s * 2, STORE_RETRY_MAX_S)
            pause.retry_at = now + pause.wait_s
            if now - pause.logged_at >= STORE_LOG_EVERY_S:
                pause.logged_at = now
                log.warning(
                    "ladder still paused after %.0f s: cannot write the database (%s); %s. "
                    "%d finished match(es) kept in memory; next attempt in %g s",
                    now - pause.since,
                    fault.why,
                    fault.advice,
                    self.kept_matches,
                    pause.wait_s,
                )
        self.wake()

    def _retry_writes(self) -> None:
        """Write what was kept, oldest first, stopping at the first failure; with
        nothing kept, a probe write. Resume if everything was written."""
        pause = self._pause
        assert pause is not None
        try:
            if not self._unwritten:
                self._probe()
            while self._unwritten:
                kept = self._unwritten[0]
                try:
                    kept.write()
                except Exception as error:
                    if self.store.write_fault(error) is not None:
                        raise
                    # A bug, not the disk: say so, go on with the rest.
                    log.exception("writing %s failed; it is dropped", kept.what)
                self._unwritten.popleft()
        except Exception as error:
            fault = self.store.write_fault(error)
            if fault is None:  # only the probe gets here with another error: a bug
                log.exception("the ladder's probe write failed")
                fault = WriteFault(str(error), f"check {self.store.where}")
            self._store_failed(fault)
            return
        self._pause = None
        log.warning(
            "ladder resumed: the database can be written again after %.0f s; what was "
            "kept is written (%d attempt(s))",
            self.clock() - pause.since,
            pause.attempts + 1,
        )
        self.wake()

    def _probe(self) -> None:
        """A write that changes nothing in the end (a value changed and put back in one
        transaction), to learn whether the database can be written."""
        with self.store.transaction() as db:
            for sql in (
                "UPDATE leagues SET status = status || '.' WHERE id = ?",
                "UPDATE leagues SET status = substr(status, 1, length(status) - 1) WHERE id = ?",
            ):
                db.execute(sql, (self.config.league_id,))

    # ------------------------------------------- the arena's own headroom

    async def _watch_headroom(self) -> None:
        """Look at the arena's headroom once per LOOK_EVERY_S: pause when it is short,
        resume when it is not any more."""
        now = self.headroom.now()
        if now < self._next_look:
            return
        self._next_look = now + LOOK_EVERY_S
        shortage = self.headroom.look()
        pause = self._short
        if shortage is not None:
            self._short_of(shortage)
        elif pause is not None:
            await self._recover(pause)

    def _short_of(self, shortage: Shortage, spared: str = "") -> None:
        """The arena is (or was, while something failed to reach a bot) short: pause,
        and say so in the log when it starts, then once per SHORT_LOG_EVERY_S; ``spared``
        says what failure is not held against a bot."""
        now = self.headroom.now()
        pause = self._short
        if pause is None:
            pause = self._short = ShortPause(shortage, now, now)
            log.error(
                "ladder paused: the arena itself is short (%s); %s. No bot is blamed "
                "meanwhile: no match starts, verifications wait, and a Hello or a match "
                "that could not reach a bot counts for nothing. The ladder looks again "
                "every %g s and resumes by itself.",
                shortage.why,
                shortage.advice,
                LOOK_EVERY_S,
            )
        else:
            pause.shortage = shortage
            if now - pause.logged_at >= SHORT_LOG_EVERY_S:
                pause.logged_at = now
                log.warning(
                    "ladder still paused after %.0f s: the arena itself is short (%s); %s",
                    now - pause.since,
                    shortage.why,
                    shortage.advice,
                )
        if spared:
            pause.spared += 1
            log.warning("not held against any bot (the arena was short): %s", spared)
        self.wake()

    async def _recover(self, pause: ShortPause) -> None:
        """The arena has headroom again: close the channels to the bots not in play
        (their connects may have failed, and gRPC would wait out its reconnect backoff
        before trying again), start the verifications that waited, resume."""
        self._short = None
        playing = {b.endpoint for b in list_bots(self.store) if self._busy[b.name] > 0}
        for endpoint in self.pool.endpoints():
            if endpoint not in playing:
                await self.pool.discard(endpoint)
        waiting = sorted(self._deferred)
        self._deferred.clear()
        log.warning(
            "ladder resumed: the arena has headroom again after %.0f s; %d failure(s) to "
            "reach a bot were not held against it; %d verification(s) start again",
            self.headroom.now() - pause.since,
            pause.spared,
            len(waiting),
        )
        for name in waiting:
            self.verify(name)
        self.wake()

    async def _report_health(self) -> None:
        """Tell ``report_health`` when the ladder starts or stops being able to serve."""
        serving = self._pause is None and self._halted is None and self._short is None
        if serving != self._health_reported and self.report_health is not None:
            self._health_reported = serving
            await self.report_health(serving)

    # ------------------------------------------------------------- the loop

    async def run(self) -> None:
        """Schedule matches until ``shutdown``; first resume verifications that a
        previous run left unfinished; first of all, suspend the bots whose endpoints
        this run's allowlist does not allow."""
        for entry in list_bots(self.store):
            if entry.status in (BotStatus.ACTIVE, BotStatus.VERIFYING):
                self._suspend_if_not_allowed(entry)
        for entry in list_bots(self.store):
            if entry.status is BotStatus.VERIFYING:
                self.verify(entry.name)
        while not self._stopping:
            self._wake.clear()
            pause = self._pause
            if pause is not None and self.clock() >= pause.retry_at:
                self._retry_writes()
            try:
                await self._watch_headroom()
            except Exception:  # a bug: log it, keep serving
                log.exception("the ladder could not look at its headroom")
            try:
                self._start_matches()
            except Exception:  # a bug (or a database error): log it, keep serving, retry
                log.exception("the ladder could not schedule matches")
            self._looked = True
            self._refresh_status()
            await self._report_health()
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(self._next_look_s()):
                    await self._wake.wait()
        self._refresh_status()

    def _next_look_s(self) -> float:
        """Seconds until the scheduler looks again unless woken: at the latest when the
        first resting bot may play again, when the paused ladder tries its database
        again, or when it looks at its headroom."""
        now = asyncio.get_running_loop().time()
        ends = [t - now for t in self._rests_until.values() if t > now]
        ends.append(max(self._next_look - self.headroom.now(), 0.0))
        if self._pause is not None:
            ends.append(max(self._pause.retry_at - self.clock(), 0.0))
        return min([IDLE_POLL_S, *ends])

    def _start_matches(self) -> None:
        size = self.config.table_size
        active = [
            b
            for b in list_bots(self.store)
            if b.status is BotStatus.ACTIVE and not self._suspend_if_not_allowed(b)
        ]
        self.active_bots = len(active)
        if self._pause is not None or self._halted is not None or self._short is not None:
            # The database cannot be written, no worker is left, or the arena is short
            # of descriptors: no match starts.
            return
        by_name = {b.name: b for b in active}
        now = asyncio.get_running_loop().time()
        self._rests_until = {n: t for n, t in self._rests_until.items() if t > now}
        while len(self._tasks) < self.config.concurrency:
            free = [
                b
                for b in active
                if self._busy[b.name] < self.config.bot_streams and b.name not in self._rests_until
            ]
            if len(free) < size:
                return
            seats = self._matchmaker.table(
                [b.name for b in free],
                size,
                self.joint_source(),
                self.standings.played,
                {b.name: b.placement_left for b in free},
            )
            table = tuple(by_name[name] for name in seats)
            self._busy.update(seats)
            task = asyncio.create_task(self._play(table), name=f"ladder {' '.join(seats)}")
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    def _suspend_if_not_allowed(self, bot: BotEntry) -> bool:
        """Suspend ``bot`` if this run's allowlist does not allow its endpoint (it was
        submitted under a wider ``--allow``); True if so. Pure: nothing is dialled."""
        if self.allowlist.refusal(bot.endpoint) is None:
            return False
        self.cancel_verification(bot.name)
        if (bot.name, bot.endpoint) not in self._suspended_here:  # once, even if kept
            self._suspended_here.add((bot.name, bot.endpoint))
            self._write(partial(self._suspend_not_allowed, bot), f"suspending bot {bot.name}")
        return True

    def _suspend_not_allowed(self, bot: BotEntry) -> None:
        change_bot(
            self.store,
            bot.name,
            status=BotStatus.SUSPENDED,
            status_reason=(
                f"its endpoint {bot.endpoint} is not allowed by this arena's --allow, so "
                "the arena does not connect to it; run the bot on an allowed host, then: "
                f"arena update --name {bot.name} --endpoint HOST:PORT"
            ),
        )
        log.warning(
            "bot %s suspended: its endpoint %s is not allowed by --allow (%s)",
            bot.name,
            capped(bot.endpoint, MAX_REASON),
            self.allowlist.text,
        )

    @property
    def status(self) -> str:
        """The ladder in one line, as of now (ListBots and GetLeaderboard show it)."""
        return self._status()[0]

    def _status(self) -> tuple[str, str]:
        """The status line, and what kind of line it is (logged when the kind changes).
        A match is in play from its start (its bots' Hello) until it is committed: its
        task, not its entry in ``running``, which appears only after the Hellos."""
        size = self.config.table_size
        active = self.active_bots
        in_play = len(self._tasks)
        if self._stopping:
            status = f"stopping: finishing {in_play} match(es)"
            kind = status
        elif not self._looked:
            status = kind = "starting"
        elif self._pause is not None:
            kept = self.kept_matches
            status = (
                f"paused: the arena cannot write its database ({self._pause.fault.why}); "
                "no match starts until it can, then the ladder resumes by itself; "
                f"{kept} finished match(es) kept until then, {len(self.running)} in play"
            )
            kind = "paused"  # logged by _store_failed, with what to do
        elif self._short is not None:
            waiting = len(self._deferred)
            status = (
                f"paused: the arena is short of {self._short.shortage.what}; no match "
                "starts and no bot is blamed until it has enough again, then the ladder "
                f"resumes by itself; {waiting} verification(s) wait, "
                f"{len(self.running)} match(es) in play"
            )
            kind = "short"  # logged by _short_of, with what to do
        elif self._halted is not None:
            status = (
                f"halted: no match can be played ({self._halted}); restart arena serve to "
                f"play again; {self.rated_matches} rated match(es) so far"
            )
            kind = "halted"  # logged by _halt
        elif active < size:
            status = (
                f"waiting: {active} active bot(s), a table needs {size}; matches start when "
                f"{size - active} more bot(s) pass verification"
            )
            kind = status
        else:
            status = (
                f"running: {in_play} match(es) in play among {active} active bots; "
                f"{self.rated_matches} rated match(es) so far"
            )
            kind = f"running with {active}"
        return status, kind

    def _refresh_status(self) -> None:
        """Log the status line when its kind changed."""
        status, kind = self._status()
        if kind != self._logged_status:
            self._logged_status = kind
            if kind not in ("paused", "short", "halted"):
                log.info("ladder %s", status)

    # ------------------------------------------------------------ a match

    async def _play(self, table: tuple[BotEntry, ...]) -> None:
        names = tuple(b.name for b in table)
        current = ""
        try:
            started = self.headroom.now()
            # A bot that is down costs its table only a Hello, not a rated forfeit.
            answers = await asyncio.gather(
                *(
                    hello(
                        self.pool.get(b.endpoint),
                        b.endpoint,
                        self.config.hello_timeout_s,
                        game=self.game.name,
                    )
                    for b in table
                )
            )
            down = [
                (b, capped(a.error, MAX_REASON))
                for b, a in zip(table, answers, strict=True)
                if a.error
            ]
            if down and (shortage := self.headroom.blame(started)) is not None:
                self._short_of(
                    shortage,
                    f"the Hello before a match failed for {', '.join(b.name for b, _ in down)}",
                )
                return
            for bot, error in down:
                self._write(
                    partial(self._count_failure, bot, f"unreachable before a match: {error}"),
                    f"bot {bot.name}'s failure count",
                )
            if down or self._pause is not None or self._short is not None:
                return  # (paused meanwhile: no match starts)
            try:
                index = claim_match_index(self.store, self.config.league_id)
            except Exception as error:
                fault = self.store.write_fault(error)
                if fault is None:
                    raise
                self._store_failed(fault)
                return
            current = match_id(self.config.league_id, index)
            seed = secrets.randbits(63)
            self.running[current] = RunningMatch(current, names, time.time())
            job = ServedMatch(
                match_id=current,
                game=self.game.name,
                config=self._game_config,
                seed=seed,
                seats=tuple((b.name, b.endpoint) for b in table),
                deadline_ms=self.config.deadline_ms,
                max_strikes=self.config.max_strikes,
                connect_timeout_s=self.config.hello_timeout_s,
                max_reply_bytes=MAX_REPLY_BYTES,
                league_id=self.config.league_id,
                index=index,
                ladder=self.config.ladder,
                game_json=self._game_json,
            )
            with self._watched(job, names) as live:
                outcome: ServedOutcome = await self.executor.play(job, live)
            if outcome.void is not None:
                self._short_of(
                    outcome.void,
                    f"match {current} among {', '.join(names)} is void (not recorded, not "
                    "rated): a seat could not be reached",
                )
                return
            self._commit(outcome, table)
        except ExecutorError as error:  # every worker died: nothing can be played now
            self._halt(str(error))
        except Exception:  # a bug, not a bot fault: keep the ladder going, say so loudly
            log.exception("ladder match %s among %s failed", current or "(unstarted)", names)
        finally:
            self.running.pop(current, None)
            self._busy.subtract(names)
            if self.config.rest_s > 0:
                rested = asyncio.get_running_loop().time() + self.config.rest_s
                self._rests_until.update(dict.fromkeys(names, rested))
            # Out of the count before the scheduler wakes (the done-callback that also
            # removes it runs only after the scheduler has looked): else the ladder sees
            # this match still in play and starts nothing until its next timed look.
            task = asyncio.current_task()
            if task is not None:
                self._tasks.discard(task)
            self.wake()

    @contextlib.contextmanager
    def _watched(self, job: ServedMatch, names: Sequence[str]) -> Iterator[LiveLog | None]:
        """The match's live log while it is played, watchable by the web app in this
        process (None: nobody follows matches live here). Dropped when the match ends."""
        if not self.followed:
            yield None
            return
        match = LiveMatch(job.match_id, self.game, job.config, job.seed, None, tuple(names),
                          time.time())  # fmt: skip
        with WATCHABLE.playing(match) as log:
            yield log

    def _halt(self, why: str) -> None:
        """Start no more matches in this run, and say so once: else every match would
        fail at once and the scheduler would start the next in a tight loop."""
        if self._halted is not None:
            return
        lost = self.executor.report.lost  # the executor's own words speak of a league
        self._halted = f"every worker died: {'; '.join(lost)}" if lost else why
        log.error(
            "ladder halted: no match can be played (%s). Reads, submissions and "
            "verifications go on; every finished match is recorded. Restart `arena serve` "
            "to play again.",
            self._halted,
        )
        self.wake()

    def _commit(self, outcome: ServedOutcome, table: tuple[BotEntry, ...]) -> None:
        finished = outcome.finished
        played_in = finished.match.id
        self._write(partial(self._record, finished), f"match {played_in}", match_id=played_in)
        for bot, seat in zip(table, outcome.seats, strict=True):
            self._write(
                partial(self._after_match, bot, seat, played_in),
                f"bot {bot.name} after match {played_in}",
            )

    def _record(self, finished: HeldMatch) -> None:
        """Rate a finished match and commit it with the ratings (one transaction)."""
        rate_and_record(self.store, self.standings, finished)
        self.rated_matches += 1
        self.after_commit()
        log.info("match %s: %s", finished.match.id, _seats_text(finished))

    def _still_same(self, bot: BotEntry) -> BotEntry | None:
        """The bot now, if it is still active at the endpoint it had (a match says
        nothing about a bot that was updated, retired or suspended meanwhile)."""
        now = get_bot(self.store, bot.name)
        if now is None or now.status is not BotStatus.ACTIVE or now.endpoint != bot.endpoint:
            return None
        return now

    def _after_match(self, bot: BotEntry, seat: SeatOutcome, played_in: str) -> None:
        now = self._still_same(bot)
        if now is None:
            return
        changes: dict[str, Any] = {}
        if now.placement_left > 0:
            changes["placement_left"] = now.placement_left - 1
        if seat.forfeited:
            first = seat.faults[0]
            self._count_failure(
                now,
                f"forfeited {played_in} after {len(seat.faults)} fault(s), first "
                f"{first.kind}: {capped(first.detail, MAX_REASON)}",
                changes,
            )
            return
        if now.failing_streak:
            changes["failing_streak"] = 0
        if changes:
            change_bot(self.store, now.name, **changes)

    def _count_failure(
        self, bot: BotEntry, reason: str, changes: dict[str, Any] | None = None
    ) -> None:
        now = self._still_same(bot)
        if now is None:
            return
        reason = capped(reason, MAX_REASON)
        streak = now.failing_streak + 1
        update: dict[str, Any] = {**(changes or {}), "failing_streak": streak}
        if streak >= self.config.suspend_after:
            update["status"] = BotStatus.SUSPENDED
            update["status_reason"] = (
                f"failed {streak} match(es) in a row (last: {reason}); fix the bot (arena "
                f"check-bot ENDPOINT), then re-activate it: arena update --name {now.name}"
            )
            log.warning("bot %s suspended: %s", now.name, reason)
        else:
            log.info("bot %s failed (%d in a row): %s", now.name, streak, reason)
        change_bot(self.store, now.name, **update)

    # ------------------------------------------------------- verification

    def verify(self, name: str) -> None:
        """(Re-)verify a bot in VERIFYING, replacing a verification already running."""
        self.cancel_verification(name)
        task = asyncio.create_task(self._verify(name), name=f"verify {name}")
        self._verifying[name] = task

        def forget(done: asyncio.Task[None]) -> None:
            if self._verifying.get(name) is done:
                del self._verifying[name]

        task.add_done_callback(forget)

    def cancel_verification(self, name: str) -> None:
        """Stop verifying ``name`` (retired, or submitted again)."""
        self._deferred.discard(name)
        task = self._verifying.pop(name, None)
        if task is not None:
            task.cancel()

    async def _verify(self, name: str) -> None:
        bot = get_bot(self.store, name)
        if bot is None or bot.status is not BotStatus.VERIFYING:
            return
        if self._suspend_if_not_allowed(bot):
            self.wake()
            return
        config = self.config
        # One verification at a time per owner, and only then a shared slot: an owner's
        # slow bots queue behind each other instead of holding every slot.
        turn = self._owner_turns.setdefault(bot.owner, asyncio.Lock())
        async with turn, self._verify_slots:
            if self._short is not None:  # it would only fail: wait for the arena
                self._defer(bot, self._short.shortage)
                return
            started = self.headroom.now()
            self._write(
                partial(
                    change_bot,
                    self.store,
                    name,
                    status_reason=(
                        f"verifying: Hello, then {config.verify_games} conformance game(s)"
                    ),
                ),
                f"bot {name} being verified",
            )
            try:
                verdict = await verify_bot(
                    bot.endpoint,
                    game=self.game,
                    preset=config.preset,
                    table_size=config.table_size,
                    games=config.verify_games,
                    deadline_ms=config.deadline_ms,
                    max_strikes=config.max_strikes,
                    hello_timeout_s=config.hello_timeout_s,
                    root_certificates=self._roots,
                )
            except Exception:  # a bug: the bot is not to blame, say so
                log.exception("verifying %s failed", name)
                verdict_ok, reason, version = False, ARENA_FAILED, ""
            else:
                verdict_ok, reason, version = verdict.ok, verdict.reason, verdict.version
        # The bot's own words (its Hello, its errors): capped before the store.
        reason, version = capped(reason, MAX_REASON), capped(version, MAX_VERSION)
        if self._still_verifying(bot) is None:
            return  # retired or changed meanwhile; a newer verification decides
        if not verdict_ok and (shortage := self.headroom.blame(started)) is not None:
            self._short_of(shortage, f"bot {name}'s verification failed: {reason}")
            self._defer(bot, shortage)
            return
        if verdict_ok:
            await self._fresh_channel(bot.endpoint)
        self._write(
            partial(self._settle, bot, verdict_ok, reason, version), f"bot {name}'s verification"
        )

    def _defer(self, bot: BotEntry, shortage: Shortage) -> None:
        """Leave ``bot`` verifying until the arena has headroom again (``_recover``
        verifies it then)."""
        self._deferred.add(bot.name)
        self._write(
            partial(
                self._still_verifying_then,
                bot,
                status_reason=(
                    f"waiting: the arena is short of {shortage.what} (its own, not the "
                    "bot's); the bot is verified once it has enough again"
                ),
            ),
            f"bot {bot.name} waiting for verification",
        )
        self.wake()

    def _still_verifying_then(self, bot: BotEntry, **changes: Any) -> None:
        """Change ``bot`` if it is still being verified at the endpoint it had."""
        if self._still_verifying(bot) is not None:
            change_bot(self.store, bot.name, **changes)

    def _still_verifying(self, bot: BotEntry) -> BotEntry | None:
        """The bot now, if it is still being verified at the endpoint it had."""
        now = get_bot(self.store, bot.name)
        if now is None or now.status is not BotStatus.VERIFYING or now.endpoint != bot.endpoint:
            return None
        return now

    def _settle(self, bot: BotEntry, verdict_ok: bool, reason: str, version: str) -> None:
        """Store a verification's verdict (unless the bot changed meanwhile)."""
        name, config = bot.name, self.config
        if self._still_verifying(bot) is None:
            return
        if verdict_ok:
            change_bot(
                self.store,
                name,
                status=BotStatus.ACTIVE,
                status_reason="",
                version=version,
                placement_left=config.placement_matches,
                failing_streak=0,
            )
            log.info("bot %s (%s) verified: active", name, version)
        else:
            change_bot(
                self.store,
                name,
                status=BotStatus.SUSPENDED,
                status_reason=f"verification failed: {reason}",
                version=version,
            )
            log.info("bot %s failed verification: %s", name, reason)
        self.wake()

    async def _fresh_channel(self, endpoint: str) -> None:
        """Drop the pooled channel to a re-verified endpoint unless a match uses it: a
        channel to a bot that was down may be in reconnect backoff for minutes."""
        in_use = any(
            b.endpoint == endpoint for b in list_bots(self.store) if self._busy[b.name] > 0
        )
        if not in_use:
            await self.pool.discard(endpoint)

    # ----------------------------------------------------------- shutdown

    async def shutdown(self, grace_s: float) -> None:
        """Start no more matches; let running ones finish within ``grace_s``, then
        abandon the rest unrated (the restart matches their bots again). Unfinished
        verifications stop; their bots stay VERIFYING and are verified after a restart."""
        self._stopping = True
        self.wake()
        verifying = list(self._verifying.values())
        for task in verifying:
            task.cancel()
        pending = set(self._tasks)
        if pending:
            log.info("waiting up to %g s for %d running match(es)", grace_s, len(pending))
            unfinished = pending
            if grace_s > 0:
                _, unfinished = await asyncio.wait(pending, timeout=grace_s)
            abandoned = [m.match_id for m in self.running.values()]
            for task in unfinished:
                task.cancel()
            await asyncio.gather(*unfinished, return_exceptions=True)
            if abandoned and unfinished:
                log.warning("abandoned unfinished match(es), unrated: %s", ", ".join(abandoned))
        await asyncio.gather(*verifying, return_exceptions=True)
        if self._pause is not None:
            self._retry_writes()  # a last attempt: what is still kept now is lost
        if self._unwritten:
            log.error(
                "stopped with the database still not writable: %d change(s) kept in memory "
                "are lost, among them the finished match(es) %s",
                len(self._unwritten),
                ", ".join(k.match_id for k in self._unwritten if k.match_id) or "(none)",
            )
        await self.executor.stop()
        await self.pool.close()


def _seats_text(finished: HeldMatch) -> str:
    """``name#rank`` by seat, ``forfeited`` marked."""
    return "  ".join(
        f"{s.bot}#{s.rank}{' forfeited' if s.forfeited else ''}" for s in finished.match.seats
    )
