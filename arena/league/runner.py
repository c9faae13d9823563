"""Run a league: start and health-check the entrants, schedule, run matches
concurrently, and commit each result with its rating update — in match-index order.

Why index order: TrueSkill updates depend on their order, and the schedule (for
matchmaking and the sigma stopping rule) depends on the ratings. Committing strictly in
index order, and letting match k see only the ratings after match k - concurrency, makes
the whole league a deterministic function of its configuration and the bots' play: a
league killed at any moment and resumed ends with exactly the matches and ratings of an
uninterrupted run. A match that finishes while an earlier one still runs is held in the
store (``held_matches``) until it can be rated, so a resumed league rates it as it was
rather than dealing the same deal to the same bots again; only matches cut short by the
kill are played again (match ids come from the league and the index, never the seed, so
nothing is ever counted twice).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import secrets
import time
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass, field

from arena.policies import Policy
from arena.policies.registry import builtin_factory
from arena.referee import (
    DownSeat,
    LocalSeat,
    MatchSpec,
    RemoteSeat,
    Seat,
    run_match,
)
from arena.referee.channels import ChannelPool
from arena.referee.hello import hello, unsupported
from arena.store import Store, StoreError
from arena.store.sqlite import HeldMatch, MatchRow

from .commit import Standings, rate_and_record
from .config import LeagueConfig, LeagueConfigError
from .processes import BotStartError, ManagedBot
from .progress import Progress
from .rating import RatingModel, Skill
from .results import finished_match, match_id
from .schedule import Scheduler, Table, derived_seed

MAX_RESTARTS = 3
"""A managed bot that dies is restarted at most this often per league run."""
PROBE_TIMEOUT_S = 1.0
"""Hello timeout for a bot suspected down before each of its matches."""
PROBE_BACKOFF_S = 2.0
"""After a failed probe, the bot's matches fault at once for this long before the next
probe; the wait doubles with each failed probe, up to PROBE_BACKOFF_MAX_S."""
PROBE_BACKOFF_MAX_S = 30.0


class LeagueError(RuntimeError):
    """A league that cannot start or continue, with what to do."""


@dataclass(slots=True)
class LeagueSummary:
    """What a league run did."""

    league_id: str
    ladder: str
    played: int = 0
    """Matches played in this run."""
    resumed_from: int = 0
    """Matches already in the database when this run started."""
    total: int = 0
    """Matches in the league when it ended."""
    wall_s: float = 0.0
    decisions: int = 0
    restarts: dict[str, int] = field(default_factory=dict)
    """Managed bots restarted after dying, and how often."""
    last_words: dict[str, list[str]] = field(default_factory=dict)
    """A managed bot's last stderr lines before it last died."""
    faulted: dict[str, int] = field(default_factory=dict)
    """Faults per bot in this run."""


def rating_model(config: LeagueConfig) -> RatingModel:
    """The league's TrueSkill environment."""
    draw = config.draw_probability
    if draw < 0:
        draw = config.game_plugin.rating_defaults(config.preset).draw_probability
    return RatingModel(tau=config.tau, draw_probability=draw)


def check_identity(config: LeagueConfig, stored: dict[str, object]) -> None:
    """A stored league must have been started with the same configuration."""
    saved = json.loads(str(stored["config_json"]))
    old, new = saved.get("identity") or {}, json.loads(json.dumps(config.identity()))
    if "seed" not in saved and new.get("seed") is None:
        # Created before seeds were drawn at random (the default was 1): the same
        # command, without --seed, still resumes it with its own seed.
        new["seed"] = old.get("seed")
    if old != new:
        changed = ", ".join(
            f"{key} {old.get(key)!r} -> {new.get(key)!r}"
            for key in sorted(set(old) | set(new))
            if old.get(key) != new.get(key)
        )
        raise LeagueConfigError(
            f"league {config.league_id!r} already exists in this database with a different "
            f"configuration ({changed}); use another --name (or database) for a new league, "
            "or repeat the original settings to resume it"
        )


def league_seed(stored: dict[str, object]) -> int:
    """The seed a stored league was created with (drawn at random unless given)."""
    saved = json.loads(str(stored["config_json"]))
    seed = saved.get("seed", saved["settings"].get("seed"))
    if not isinstance(seed, int):
        raise LeagueConfigError(f"league {stored['id']!r} has no seed in its database row")
    return seed


class _Entrants:
    """The running entrants: managed processes, remote endpoints, built-in policies."""

    def __init__(self, config: LeagueConfig) -> None:
        self.config = config
        self.managed = {
            b.name: ManagedBot(b.name, b.command) for b in config.bots if b.command is not None
        }
        self.endpoints = {b.name: b.endpoint for b in config.bots if b.endpoint is not None}
        self.builtin = {b.name: b.builtin for b in config.bots if b.builtin is not None}
        self.pool = ChannelPool()
        self.suspect: set[str] = set()
        self._restart_lock = asyncio.Lock()
        self.last_words: dict[str, list[str]] = {}
        self.down: dict[str, tuple[float, float, str]] = {}
        """Bots found down by a probe: (no new probe before, that wait, why)."""
        cap = config.bot_streams
        self.streams = (
            {b.name: asyncio.Semaphore(cap) for b in config.bots if b.builtin is None}
            if cap > 0
            else {}
        )
        """Per remote or managed bot, its matches in play (``bot_streams``; none: no cap)."""

    @contextlib.asynccontextmanager
    async def streams_for(self, names: Sequence[str]) -> AsyncIterator[None]:
        """Hold a stream slot of every capped bot of a table while it plays. Slots are
        taken in name order, so two tables waiting for each other's bots cannot
        deadlock."""
        async with contextlib.AsyncExitStack() as held:
            for name in sorted(set(names)):
                slot = self.streams.get(name)
                if slot is not None:
                    await held.enter_async_context(slot)
            yield

    async def start(self) -> None:
        """Start managed bots, then Hello every bot; any failure stops the league."""
        try:
            for bot in self.managed.values():
                self.endpoints[bot.name] = await bot.start()
        except BotStartError as error:
            await self.stop()
            raise LeagueError(str(error)) from None
        problems = []
        for name, endpoint in self.endpoints.items():
            assert endpoint is not None
            answer = await hello(
                self.pool.get(endpoint), endpoint, timeout_s=5.0, game=self.config.game
            )
            if answer.error:
                problems.append(f"bot {name!r}: {answer.error}")
            elif answer.reply is not None and (
                why := unsupported(answer.reply, self.config.table_size, self.config.preset)
            ):
                problems.append(f"bot {name!r} cannot play this league's tables: {why}")
        if problems:
            await self.stop()
            raise LeagueError(
                "the league did not start, nothing was played:\n  " + "\n  ".join(problems)
            )

    async def seat(self, name: str, policy_seed: int) -> Seat:
        """A seat for one match. A bot suspected down (it disconnected in an earlier
        match) is probed with a quick Hello first; if that fails too, the seat faults at
        once instead of waiting out the connect timeout."""
        if name in self.builtin:
            factory = builtin_factory(self.config.game_plugin, str(self.builtin[name]))
            policy: Policy = factory(policy_seed)
            return LocalSeat(name, policy)
        endpoint = self.endpoints[name]
        assert endpoint is not None
        if name in self.suspect:
            loop = asyncio.get_running_loop()
            down = self.down.get(name)
            if down is not None and loop.time() < down[0]:
                return DownSeat(name, down[2])  # probed and down a moment ago
            answer = await hello(self.pool.get(endpoint), endpoint, timeout_s=PROBE_TIMEOUT_S)
            if answer.error:
                # Not again for a while (doubling up to PROBE_BACKOFF_MAX_S): a dead bot
                # would otherwise cost every one of its matches a whole probe timeout.
                wait = min(2 * down[1], PROBE_BACKOFF_MAX_S) if down else PROBE_BACKOFF_S
                self.down[name] = (loop.time() + wait, wait, answer.error)
                return DownSeat(name, answer.error)
            self.suspect.discard(name)
            self.down.pop(name, None)
        return RemoteSeat(name, self.pool.get(endpoint), max_reply_bytes=4096)

    async def after_disconnect(self, name: str) -> None:
        """A bot disconnected: restart it if it is ours (at most MAX_RESTARTS times),
        else (or if that fails) probe it before its next match."""
        bot = self.managed.get(name)
        if bot is not None and not bot.running and bot.restarts < MAX_RESTARTS:
            async with self._restart_lock:
                if not bot.running:
                    self.last_words[name] = await bot.final_words()
                    try:
                        self.endpoints[name] = await bot.restart()
                        return
                    except BotStartError:
                        pass
        self.suspect.add(name)

    async def stop(self) -> None:
        """Stop managed bots and close channels."""
        await self.pool.close()
        for bot in self.managed.values():
            await bot.stop()


class _Committed:
    """What a league has committed, in index order: how many matches, the ratings now,
    and the ratings after each recent match, which the tables still to come are shown.

    Table k is chosen (matchmaking, the sigma stopping rule) with the ratings after match
    k - lag, lag being the league's concurrency (see the module doc)."""

    def __init__(self, standings: Standings, lag: int) -> None:
        self.standings = standings
        self.lag = lag
        self.count = 0
        """Matches committed: the next one to commit has this index."""
        self._after: dict[int, dict[str, Skill]] = {-1: dict(standings.skills)}
        """The ratings after each match, by its index (-1: before the first)."""

    def replay(self, done: Sequence[MatchRow]) -> None:
        """Rebuild the ratings after every match committed before this run (a resumed
        league regenerates its tables from the first, so it is shown them all again)."""
        for row in sorted(done, key=lambda m: m.idx):
            self.standings.apply(self.standings.rated(row.seats))
            self._after[row.idx] = dict(self.standings.skills)
        self.count = len(done)

    def commit(self, store: Store, finished: HeldMatch) -> None:
        """Rate and record the next match in index order."""
        rate_and_record(store, self.standings, finished)
        self._after[self.count] = dict(self.standings.skills)
        self._after.pop(self.count - self.lag - 1, None)  # no table to come is shown it
        self.count += 1

    def known_for(self, index: int) -> bool:
        """Whether the ratings that table ``index`` is shown are committed (if they are
        not, the match they follow is still to be committed)."""
        return max(index - self.lag, -1) in self._after or index - self.lag < self.count

    def shown_to(self, index: int) -> dict[str, Skill]:
        """The ratings table ``index`` is chosen with."""
        return self._after[max(index - self.lag, -1)]


def _claim(store: Store, league_id: str) -> None:
    """Make this process the only one running the league on this database."""
    try:
        store.claim(
            f"league {league_id}",
            f"league {league_id!r} is already running on {store.path} (another `arena "
            "league`); wait for it to end, or stop it, before running it again",
        )
    except StoreError as error:
        raise LeagueError(str(error)) from None


def _create_league(config: LeagueConfig, store: Store) -> int:
    """Store a new league and its bots; its seed (drawn at random unless given)."""
    seed = config.seed if config.seed is not None else secrets.randbits(63)
    store.create_league(
        config.league_id,
        {"identity": config.identity(), "settings": config.to_json(), "seed": seed},
    )
    for bot in config.bots:
        store.upsert_bot(bot.name, bot.kind, bot.target)
    return seed


class _LeagueRun:
    """One run of a league, its entrants started: tables started in index order, at
    most ``concurrency`` at once, and their results committed in index order."""

    def __init__(
        self,
        config: LeagueConfig,
        store: Store,
        entrants: _Entrants,
        committed: _Committed,
        seed: int,
        *,
        progress: Progress | None,
        on_commit: Callable[[int], None] | None,
    ) -> None:
        self.config = config
        self.store = store
        self.entrants = entrants
        self.committed = committed
        self.names = [b.name for b in config.bots]
        self.scheduler = Scheduler(
            self.names,
            config.table_size,
            seed,
            kind=config.schedule,
            duplicate=config.duplicate,
            model=committed.standings.model,
        )
        self.game = config.game_plugin
        self.game_config = config.game_config()
        self.game_json = self.game.config_to_json(self.game_config)
        self.summary = LeagueSummary(config.league_id, config.ladder, resumed_from=committed.count)
        self.started = time.monotonic()
        self.buffered: dict[int, HeldMatch] = {}
        """Finished matches waiting for an earlier one, by index."""
        self.held = store.held_matches(config.league_id)
        """Matches finished before a kill, not rated yet."""
        self.committed_event = asyncio.Event()
        """Set after each commit (and each failure)."""
        self.slots = asyncio.Semaphore(config.concurrency)
        self.tasks: set[asyncio.Task[None]] = set()
        self.failures: list[BaseException] = []
        self.progress = progress
        self.on_commit = on_commit
        """Called with the number of matches committed, after each commit."""

    async def run(self) -> LeagueSummary:
        """Play the league to its end, then stop the entrants."""
        progress = self.progress
        if progress is not None:
            progress.total = self.config.total_matches
            progress.update(self.committed.count, self._leader())
        try:
            await self._play_all()
        finally:
            await self._stop()
        self.store.finish_league(self.config.league_id)
        self.summary.total = self.committed.count
        self.summary.wall_s = time.monotonic() - self.started
        return self.summary

    async def _play_all(self) -> None:
        """Start every table in index order, skipping those committed before this run
        and committing as played those held before a kill; then wait for the last."""
        index = 0
        while index < self.config.total_matches:
            table = await self._next_table(index)
            if table is None:
                break
            if index >= self.committed.count and not self._take_held(table):
                await self._start(table)
            index += 1
        while self.tasks:
            await asyncio.gather(*self.tasks)
        self._check_failures()

    async def _next_table(self, index: int) -> Table | None:
        """Table ``index``, or None where the sigma stopping rule ends the league before
        it. A table chosen by the ratings waits for the ratings it is shown."""
        by_ratings = self.config.schedule == "rating" or self.config.until_sigma > 0
        if by_ratings:
            while not self.committed.known_for(index):
                self.committed_event.clear()
                await self.committed_event.wait()
                self._check_failures()
        if index >= self.committed.count and self._stop_rule_met(index):
            return None
        return self.scheduler.next_table(self.committed.shown_to(index) if by_ratings else None)

    def _stop_rule_met(self, index: int) -> bool:
        """Every sigma table ``index`` is shown is below ``until_sigma`` (if set)."""
        until = self.config.until_sigma
        if until <= 0:
            return False
        return all(s.sigma < until for s in self.committed.shown_to(index).values())

    def _take_held(self, table: Table) -> bool:
        """Commit the table's match as it was played before a kill, if it was held with
        these bots in these seats; whether it was."""
        kept = self.held.pop(table.index, None)
        if kept is None or [s.bot for s in kept.match.seats] != list(table.seats):
            return False
        self.buffered[table.index] = kept  # rated as it was played, not dealt again
        self._commit_ready()
        return True

    async def _start(self, table: Table) -> None:
        """Play a table in a task of its own once one of ``concurrency`` slots is free."""
        await self.slots.acquire()
        self._check_failures()
        task = asyncio.create_task(self._play(table))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def _play(self, table: Table) -> None:
        """Play a table with each of its bots' stream slots held; a failure here is a
        bug, not a bot fault: it stops the league cleanly."""
        try:
            async with self.entrants.streams_for(table.seats):
                await self._play_table(table)
        except Exception as error:
            self.failures.append(error)
            self.committed_event.set()
        finally:
            self.slots.release()

    async def _play_table(self, table: Table) -> None:
        """Play one table and commit what can be."""
        seats = [
            await self.entrants.seat(name, derived_seed(table.seed, table.index, s))
            for s, name in enumerate(table.seats)
        ]
        outcome = await run_match(self._spec(table), seats)
        for seat_outcome in outcome.seats:
            if any(f.kind == "DISCONNECTED" for f in seat_outcome.faults):
                await self.entrants.after_disconnect(seat_outcome.name)
        finished = finished_match(
            outcome,
            league_id=self.config.league_id,
            index=table.index,
            ladder=self.config.ladder,
            seed=table.seed,
            game_json=self.game_json,
        )
        if table.index != self.committed.count:
            # An earlier match still runs: keep this one safe from a kill until then.
            self.store.hold_match(finished.match, finished.config, finished.faults, finished.record)
        self.buffered[table.index] = finished
        self._commit_ready()

    def _spec(self, table: Table) -> MatchSpec:
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

    def _commit_ready(self) -> None:
        """Commit, each with its rating update, the finished matches next in index
        order."""
        while self.committed.count in self.buffered:
            finished = self.buffered.pop(self.committed.count)
            self.committed.commit(self.store, finished)
            self._count(finished)
            if self.on_commit is not None:
                self.on_commit(self.committed.count)
            if self.progress is not None:
                self.progress.update(self.committed.count, self._leader())
        self.committed_event.set()

    def _count(self, finished: HeldMatch) -> None:
        """Count a committed match in the summary."""
        summary = self.summary
        summary.played += 1
        summary.decisions += finished.match.decisions
        for seat in finished.match.seats:
            faults = seat.timeouts + seat.errors + seat.invalid
            if faults:
                summary.faulted[seat.bot] = summary.faulted.get(seat.bot, 0) + faults

    def _leader(self) -> str:
        """The best bot by conservative rating, for the progress line."""
        standings = self.committed.standings
        if not any(standings.played.values()):
            return ""
        skills = standings.skills
        best = max(self.names, key=lambda n: (skills[n].conservative, n))
        return f"{best} ({skills[best].conservative:.1f})"

    def _check_failures(self) -> None:
        """Stop the league if a match failed unexpectedly."""
        if self.failures:
            error = self.failures[0]
            raise LeagueError(f"a match failed unexpectedly: {error!r}") from error

    async def _stop(self) -> None:
        """Cancel the matches still running (cut short: played again on resume), then
        stop the entrants."""
        for task in list(self.tasks):
            task.cancel()
        for task in list(self.tasks):
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self.summary.restarts = {
            n: b.restarts for n, b in self.entrants.managed.items() if b.restarts
        }
        self.summary.last_words = self.entrants.last_words
        await self.entrants.stop()
        if self.progress is not None:
            self.progress.close()


async def run_league(
    config: LeagueConfig,
    store: Store,
    *,
    progress: Progress | None = None,
    on_commit: Callable[[int], None] | None = None,
) -> LeagueSummary:
    """Run (or resume) a league to its end."""
    _claim(store, config.league_id)
    model = rating_model(config)
    stored = store.league(config.league_id)
    if stored is not None:
        check_identity(config, stored)
    names = [b.name for b in config.bots]
    standings = Standings(
        model, config.ladder, dict.fromkeys(names, Skill()), dict.fromkeys(names, 0)
    )
    committed = _Committed(standings, lag=config.concurrency)
    committed.replay(store.matches(league_id=config.league_id))
    entrants = _Entrants(config)
    await entrants.start()
    seed = _create_league(config, store) if stored is None else league_seed(stored)
    run = _LeagueRun(
        config, store, entrants, committed, seed, progress=progress, on_commit=on_commit
    )
    return await run.run()
