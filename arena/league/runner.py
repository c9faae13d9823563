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
from arena.store.sqlite import HeldMatch

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


async def run_league(
    config: LeagueConfig,
    store: Store,
    *,
    progress: Progress | None = None,
    on_commit: Callable[[int], None] | None = None,
) -> LeagueSummary:
    """Run (or resume) a league to its end."""
    league_id = config.league_id
    try:
        store.claim(
            f"league {league_id}",
            f"league {league_id!r} is already running on {store.path} (another `arena "
            "league`); wait for it to end, or stop it, before running it again",
        )
    except StoreError as error:
        raise LeagueError(str(error)) from None
    model = rating_model(config)
    stored = store.league(league_id)
    if stored is not None:
        check_identity(config, stored)
    names = [b.name for b in config.bots]
    # Replay the stored results to rebuild the ratings after every committed match.
    standings = Standings(
        model, config.ladder, dict.fromkeys(names, Skill()), dict.fromkeys(names, 0)
    )
    skills, matches_played = standings.skills, standings.played
    snapshots: dict[int, dict[str, Skill]] = {-1: dict(skills)}
    done = store.matches(league_id=league_id)
    done.sort(key=lambda m: m.idx)
    for row in done:
        standings.apply(standings.rated(row.seats))
        snapshots[row.idx] = dict(skills)
    summary = LeagueSummary(league_id, config.ladder, resumed_from=len(done))
    committed = len(done)
    lag = config.concurrency

    def snapshot_for(index: int) -> dict[str, Skill]:
        return snapshots[max(index - lag, -1)]

    def stop_rule_met(index: int) -> bool:
        if config.until_sigma <= 0:
            return False
        return all(s.sigma < config.until_sigma for s in snapshot_for(index).values())

    entrants = _Entrants(config)
    await entrants.start()
    if stored is None:
        seed = config.seed if config.seed is not None else secrets.randbits(63)
        store.create_league(
            league_id,
            {"identity": config.identity(), "settings": config.to_json(), "seed": seed},
        )
        for bot in config.bots:
            store.upsert_bot(bot.name, bot.kind, bot.target)
    else:
        seed = league_seed(stored)
    scheduler = Scheduler(
        names,
        config.table_size,
        seed,
        kind=config.schedule,
        duplicate=config.duplicate,
        model=model,
    )
    game = config.game_plugin
    game_config = config.game_config()
    game_json = game.config_to_json(game_config)
    started = time.monotonic()
    buffered: dict[int, HeldMatch] = {}
    held = store.held_matches(league_id)  # finished before a kill, not rated yet
    committed_event = asyncio.Event()
    slots = asyncio.Semaphore(config.concurrency)
    tasks: set[asyncio.Task[None]] = set()
    failures: list[BaseException] = []
    total = config.total_matches

    def leader() -> str:
        if not any(matches_played.values()):
            return ""
        best = max(names, key=lambda n: (skills[n].conservative, n))
        return f"{best} ({skills[best].conservative:.1f})"

    def commit_ready() -> None:
        nonlocal committed
        while committed in buffered:
            finished = buffered.pop(committed)
            rate_and_record(store, standings, finished)
            snapshots[committed] = dict(skills)
            snapshots.pop(committed - lag - 1, None)
            summary.played += 1
            summary.decisions += finished.match.decisions
            for seat in finished.match.seats:
                faults = seat.timeouts + seat.errors + seat.invalid
                if faults:
                    summary.faulted[seat.bot] = summary.faulted.get(seat.bot, 0) + faults
            committed += 1
            if on_commit is not None:
                on_commit(committed)
            if progress is not None:
                progress.update(committed, leader())
        committed_event.set()

    async def play(table: Table) -> None:
        try:
            async with entrants.streams_for(table.seats):
                await play_streams_held(table)
        except Exception as error:  # a bug, not a bot fault: stop the league cleanly
            failures.append(error)
            committed_event.set()
        finally:
            slots.release()

    async def play_streams_held(table: Table) -> None:
        """Play one table (each of its bots' stream slots held) and commit what can be."""
        seats = [
            await entrants.seat(name, derived_seed(table.seed, table.index, s))
            for s, name in enumerate(table.seats)
        ]
        deal = None
        if table.deal_group is not None:
            deal = game.deal(game_config, random.Random(table.seed))
        spec = MatchSpec(
            match_id=match_id(league_id, table.index),
            config=game_config,
            game=game,
            seed=table.seed,
            deal=deal,
            deadline_ms=config.deadline_ms,
            time_bank_ms=config.time_bank_ms,
            max_strikes=config.max_strikes,
            # A duplicate deal is being played at other tables right now: MatchOver
            # must not carry its record (every hand and the deck order).
            publish_record=table.deal_group is None,
        )
        outcome = await run_match(spec, seats)
        for seat_outcome in outcome.seats:
            if any(f.kind == "DISCONNECTED" for f in seat_outcome.faults):
                await entrants.after_disconnect(seat_outcome.name)
        finished = finished_match(
            outcome,
            league_id=league_id,
            index=table.index,
            ladder=config.ladder,
            seed=table.seed,
            game_json=game_json,
        )
        if table.index != committed:
            # An earlier match still runs: keep this one safe from a kill until then.
            store.hold_match(finished.match, finished.config, finished.faults, finished.record)
        buffered[table.index] = finished
        commit_ready()

    def check_failures() -> None:
        if failures:
            raise LeagueError(f"a match failed unexpectedly: {failures[0]!r}") from failures[0]

    if progress is not None:
        progress.total = total
        progress.update(committed, leader())
    try:
        index = 0
        while index < total:
            table_needs = config.schedule == "rating" or config.until_sigma > 0
            if table_needs:
                while max(index - lag, -1) not in snapshots and index - lag >= committed:
                    committed_event.clear()
                    await committed_event.wait()
                    check_failures()
            if index >= committed and stop_rule_met(index):
                break
            table = scheduler.next_table(snapshot_for(index) if table_needs else None)
            if index < committed:
                index += 1
                continue  # already played and committed before a restart
            kept = held.pop(index, None)
            if kept is not None and [s.bot for s in kept.match.seats] == list(table.seats):
                buffered[index] = kept  # finished before a kill: rated as it was played
                commit_ready()
                index += 1
                continue
            await slots.acquire()
            check_failures()
            task = asyncio.create_task(play(table))
            tasks.add(task)
            task.add_done_callback(tasks.discard)
            index += 1
        while tasks:
            await asyncio.gather(*tasks)
        check_failures()
    finally:
        for task in list(tasks):
            task.cancel()
        for task in list(tasks):
            with contextlib.suppress(asyncio.CancelledError):
                await task
        summary.restarts = {n: b.restarts for n, b in entrants.managed.items() if b.restarts}
        summary.last_words = entrants.last_words
        await entrants.stop()
        if progress is not None:
            progress.close()
    store.finish_league(league_id)
    summary.total = committed
    summary.wall_s = time.monotonic() - started
    return summary
