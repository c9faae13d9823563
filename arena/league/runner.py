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

A database that cannot be written (a full disk: ``arena.store.unwritable``) stops the
league the same way, with a LeagueError that says so and what to do: whatever could not
be written is played again, with the same deal, when the same command runs again.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from arena.store import Store, StoreError
from arena.store.rows import HeldMatch, MatchRow, SeatRow

from .commit import Standings, rate_and_record
from .config import LeagueConfig, LeagueConfigError
from .entrants import StreamSlots
from .executors import Executor, ExecutorError, make_executor
from .groups import group_seats
from .joint import JointFit, Outcomes, Separated, fit, ranked
from .progress import Progress
from .rating import RatingModel, Skill
from .schedule import Scheduler, Table, tables_per_group

log = logging.getLogger("arena.league")


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
    executor: str = "local"
    """Where the matches ran."""
    workers_lost: list[str] = field(default_factory=list)
    """Workers that died during the run, each with why (the league went on without)."""
    replayed: int = 0
    """Matches played again because the worker playing them died."""
    separated: Separated | None = None
    """The board the stop rule (``--until separated``) stopped the league on."""


def rating_model(config: LeagueConfig) -> RatingModel:
    """The league's TrueSkill environment."""
    draw = config.draw_probability
    if draw < 0:
        draw = config.game_plugin.rating_defaults(config.preset, config.table_size).draw_probability
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


class _Committed:
    """What a league has committed, in index order: how many matches, the ratings now,
    and the ratings after each recent match, which the tables still to come are shown.

    Table k is chosen (matchmaking, the sigma stopping rule) with the ratings after match
    k - lag, lag being the league's concurrency (see the module doc)."""

    def __init__(
        self, standings: Standings, lag: int, group_size: int = 0, *, joint: bool = False
    ) -> None:
        self.standings = standings
        self.lag = lag
        self.joint = joint
        """Whether tables and the stop rule are shown the joint model (each match's
        ranks are then kept until the model shown has taken them in)."""
        self.group_size = group_size
        """Duplicate deal groups rated as one: tables per group (0: each table alone)."""
        self._group: list[Sequence[SeatRow]] = []
        """The seats of the current group's tables committed so far."""
        self.count = 0
        """Matches committed: the next one to commit has this index."""
        self._after: dict[int, dict[str, Skill]] = {-1: dict(standings.skills)}
        """The ratings after each match, by its index (-1: before the first)."""
        self._ranks: dict[int, dict[str, int]] = {}
        """The ranks each match was rated on, by index, until ``_shown`` takes them in."""
        self._shown = Outcomes()
        """The joint model's counts after match ``_shown_after``: what tables are shown.
        Tables are chosen in index order (a resumed league's from the first), so the
        counts shown only ever move forward."""
        self._shown_after = -1
        self._joint: tuple[int, JointFit] | None = None
        """The last joint fit handed out, and the match it follows."""

    def replay(self, done: Sequence[MatchRow]) -> None:
        """Rebuild the ratings after every match committed before this run (a resumed
        league regenerates its tables from the first, so it is shown them all again)."""
        for row in sorted(done, key=lambda m: m.idx):
            seats = self._to_rate(row)
            ranks = {seat.bot: seat.rank for seat in seats}
            if seats:
                self.standings.apply(self.standings.rated(seats))
            self._after[row.idx] = dict(self.standings.skills)
            if self.joint:
                self._ranks[row.idx] = ranks
        self.count = len(done)

    def commit(self, store: Store, finished: HeldMatch) -> None:
        """Rate and record the next match in index order."""
        seats = self._to_rate(finished.match)
        rate_and_record(store, self.standings, finished, seats)
        self._after[self.count] = dict(self.standings.skills)
        if self.joint:
            self._ranks[self.count] = {seat.bot: seat.rank for seat in seats}
        self._after.pop(self.count - self.lag - 1, None)  # no table to come is shown it
        self.count += 1

    def _to_rate(self, match: MatchRow) -> Sequence[SeatRow]:
        """The seats a match's commit rates: its own, or with deal groups rated as one,
        nothing until the group's last table, which rates the whole group."""
        if not self.group_size:
            return match.seats
        self._group.append(match.seats)
        if (match.idx + 1) % self.group_size:
            return []
        seats, self._group = group_seats(self._group), []
        return seats

    def known_for(self, index: int) -> bool:
        """Whether the ratings that table ``index`` is shown are committed (if they are
        not, the match they follow is still to be committed)."""
        return max(index - self.lag, -1) in self._after or index - self.lag < self.count

    def shown_to(self, index: int) -> dict[str, Skill]:
        """The ratings table ``index`` is chosen with."""
        return self._after[max(index - self.lag, -1)]

    def joint_shown_to(self, index: int, bots: Sequence[str]) -> JointFit:
        """The joint model table ``index`` is chosen with (after match index - lag)."""
        after = max(index - self.lag, -1)
        if self._joint is not None and self._joint[0] == after:
            return self._joint[1]
        while self._shown_after < after:
            self._shown_after += 1
            ranks = self._ranks.pop(self._shown_after, None)
            if ranks:
                self._shown.add(ranks)
        # A cold fit: a warm start would make the fit depend (within the tolerance) on
        # which fits came before, and a resumed league must be shown exactly the same.
        joint = fit(self._shown, bots)
        self._joint = (after, joint)
        return joint


def _claim(store: Store, league_id: str) -> None:
    """Make this process the only one running the league on this database."""
    try:
        store.claim(
            f"league {league_id}",
            f"league {league_id!r} is already running on {store.where} (another `arena "
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
    """One run of a league, its executor started: tables started in index order, at
    most ``concurrency`` at once, and their results committed in index order."""

    def __init__(
        self,
        config: LeagueConfig,
        store: Store,
        executor: Executor,
        committed: _Committed,
        seed: int,
        *,
        progress: Progress | None,
        on_commit: Callable[[int], None] | None,
    ) -> None:
        self.config = config
        self.store = store
        self.executor = executor
        self.slots_of_bots = StreamSlots(config)
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
        self.summary = LeagueSummary(
            config.league_id,
            config.ladder,
            resumed_from=committed.count,
            executor=executor.name,
        )
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
        by_ratings = self.config.by_ratings
        if by_ratings:
            while not self.committed.known_for(index):
                self.committed_event.clear()
                await self.committed_event.wait()
                self._check_failures()
        if index >= self.committed.count and self._stop_rule_met(index):
            return None
        if not by_ratings:
            return self.scheduler.next_table()
        joint = None
        if self.config.schedule == "informative":
            joint = self.committed.joint_shown_to(index, self.names)
        return self.scheduler.next_table(self.committed.shown_to(index), joint)

    def _stop_rule_met(self, index: int) -> bool:
        """A stopping rule holds on the ratings table ``index`` is shown: every sigma is
        below ``until_sigma``, or (at the start of a round, so every bot has played
        equally often) every pair of neighbours is separated (``until_separated``)."""
        config = self.config
        if not config.stops_by_rule:
            return False
        shown = self.committed.shown_to(index)
        if config.until_sigma > 0 and all(s.sigma < config.until_sigma for s in shown.values()):
            return True
        if config.until_separated <= 0 or index % config.round_matches:
            return False
        order = sorted(self.names, key=lambda n: (-shown[n].conservative, n))
        board = ranked(self.committed.joint_shown_to(index, self.names), order)
        if board.p_order < config.until_separated:
            return False
        self.summary.separated = Separated(max(index - self.committed.lag, -1) + 1, order, board)
        return True

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
            async with self.slots_of_bots.hold(table.seats):
                await self._play_table(table)
        except Exception as error:
            self.failures.append(error)
            self.committed_event.set()
        finally:
            self.slots.release()

    async def _play_table(self, table: Table) -> None:
        """Play one table (wherever the executor runs it) and commit what can be."""
        finished = await self.executor.play(table)
        if table.index != self.committed.count:
            # An earlier match still runs: keep this one safe from a kill until then.
            self.store.hold_match(finished.match, finished.config, finished.faults, finished.record)
        self.buffered[table.index] = finished
        self._commit_ready()

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
        """Stop the league if a match failed unexpectedly (or could not be written)."""
        if self.failures:
            error = self.failures[0]
            cannot_write = unwritable(error, self.store, self.committed.count)
            if cannot_write is not None:
                raise cannot_write from error
            if isinstance(error, ExecutorError):  # every worker lost: says so itself
                raise LeagueError(str(error)) from None
            log.error("a match failed unexpectedly", exc_info=error)
            raise LeagueError(
                "a match failed unexpectedly: an error of the arena, not of a bot (its "
                "traceback is above); the league stops, and the same command resumes it"
            ) from error

    async def _stop(self) -> None:
        """Cancel the matches still running (cut short: played again on resume), then
        stop the entrants."""
        for task in list(self.tasks):
            task.cancel()
        for task in list(self.tasks):
            with contextlib.suppress(asyncio.CancelledError):
                await task
        report = await self.executor.stop()
        self.summary.restarts = report.restarts
        self.summary.last_words = report.last_words
        self.summary.workers_lost = report.lost
        self.summary.replayed = report.replayed
        if self.progress is not None:
            self.progress.close()


def unwritable(error: BaseException, store: Store, committed: int) -> LeagueError | None:
    """The LeagueError of a database that cannot be written (saying what to do), if
    that is what ``error`` is."""
    fault = store.write_fault(error)
    if fault is None:
        return None
    return LeagueError(
        f"stopped: cannot write the database ({fault.why}); {fault.advice}, then run the "
        f"same command again to resume: the {committed} match(es) committed are kept, and "
        "any match whose result could not be written is played again with the same deal"
    )


async def run_league(
    config: LeagueConfig,
    store: Store,
    *,
    progress: Progress | None = None,
    on_commit: Callable[[int], None] | None = None,
    executor: Executor | None = None,
) -> LeagueSummary:
    """Run (or resume) a league to its end, its matches on ``executor`` (default: the
    one the configuration names)."""
    try:
        return await _run_league(
            config,
            store,
            progress=progress,
            on_commit=on_commit,
            executor=executor if executor is not None else make_executor(config),
        )
    except ExecutorError as error:
        raise LeagueError(str(error)) from None
    except Exception as error:  # a write outside a match's task
        committed = len(store.finished_indices(config.league_id))
        cannot_write = unwritable(error, store, committed)
        if cannot_write is None:
            raise
        raise cannot_write from error


async def _run_league(
    config: LeagueConfig,
    store: Store,
    *,
    progress: Progress | None,
    on_commit: Callable[[int], None] | None,
    executor: Executor,
) -> LeagueSummary:
    _claim(store, config.league_id)
    model = rating_model(config)
    stored = store.league(config.league_id)
    if stored is not None:
        check_identity(config, stored)
    names = [b.name for b in config.bots]
    standings = Standings(
        model, config.ladder, dict.fromkeys(names, Skill()), dict.fromkeys(names, 0)
    )
    group_size = tables_per_group(len(names), config.table_size, True) if config.rate_groups else 0
    committed = _Committed(
        standings,
        lag=config.concurrency,
        group_size=group_size,
        joint=config.schedule == "informative" or config.until_separated > 0,
    )
    committed.replay(store.matches(league_id=config.league_id))
    await executor.start()
    seed = _create_league(config, store) if stored is None else league_seed(stored)
    run = _LeagueRun(
        config, store, executor, committed, seed, progress=progress, on_commit=on_commit
    )
    return await run.run()
