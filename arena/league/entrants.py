"""A league's entrants while it runs: managed bot processes, remote endpoints and
built-in policies; a seat for each match, with a quick probe of a bot suspected down, and
a restart of a managed bot that died.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Sequence

from arena.policies.registry import builtin_factory
from arena.referee import DownSeat, RemoteSeat, Seat, builtin_seat
from arena.referee.channels import ChannelPool, RootsError, read_roots
from arena.referee.hello import hello, unsupported

from .config import LeagueConfig
from .processes import BotStartError, ManagedBot

MAX_RESTARTS = 3
"""A managed bot that dies is restarted at most this often per league run."""
PROBE_TIMEOUT_S = 1.0
"""Hello timeout for a bot suspected down before each of its matches."""
PROBE_BACKOFF_S = 2.0
"""After a failed probe, the bot's matches fault at once for this long before the next
probe; the wait doubles with each failed probe, up to PROBE_BACKOFF_MAX_S."""
PROBE_BACKOFF_MAX_S = 30.0


class EntrantsError(RuntimeError):
    """Entrants that did not start (nothing was played), with what to do."""


class StreamSlots:
    """Per remote or managed bot, its matches in play (``bot_streams``). Held by the head
    whatever executor plays the matches, so the cap is the league's, not a worker's."""

    def __init__(self, config: LeagueConfig) -> None:
        cap = config.bot_streams
        self.streams = (
            {b.name: asyncio.Semaphore(cap) for b in config.bots if b.builtin is None}
            if cap > 0
            else {}
        )
        """The capped bots' slots (none: no cap)."""

    @contextlib.asynccontextmanager
    async def hold(self, names: Sequence[str]) -> AsyncIterator[None]:
        """Hold a stream slot of every capped bot of a table while it plays. Slots are
        taken in name order, so two tables waiting for each other's bots cannot
        deadlock."""
        async with contextlib.AsyncExitStack() as held:
            for name in sorted(set(names)):
                slot = self.streams.get(name)
                if slot is not None:
                    await held.enter_async_context(slot)
            yield


class Entrants:
    """The running entrants: managed processes, remote endpoints, built-in policies."""

    def __init__(self, config: LeagueConfig) -> None:
        self.config = config
        self.managed = {
            b.name: ManagedBot(b.name, b.command) for b in config.bots if b.command is not None
        }
        self.endpoints = {b.name: b.endpoint for b in config.bots if b.endpoint is not None}
        self.builtin = {b.name: b.builtin for b in config.bots if b.builtin is not None}
        self.pool = ChannelPool()
        """Replaced in ``start`` by one trusting ``bot_ca`` if the league names one."""
        self.suspect: set[str] = set()
        self._restart_lock = asyncio.Lock()
        self.last_words: dict[str, list[str]] = {}
        self.down: dict[str, tuple[float, float, str]] = {}
        """Bots found down by a probe: (no new probe before, that wait, why)."""

    async def start(self) -> None:
        """Start managed bots, then Hello every bot; any failure stops the league."""
        if self.config.bot_ca:
            # Read where the matches run: a worker on another node reads its own copy.
            try:
                roots = read_roots(self.config.bot_ca)
            except RootsError as error:
                raise EntrantsError(f"bot_ca: {error}") from None
            self.pool = ChannelPool(root_certificates=roots)
        try:
            for bot in self.managed.values():
                self.endpoints[bot.name] = await bot.start()
        except BotStartError as error:
            await self.stop()
            raise EntrantsError(str(error)) from None
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
            raise EntrantsError(
                "the league did not start, nothing was played:\n  " + "\n  ".join(problems)
            )

    async def seat(self, name: str, policy_seed: int) -> Seat:
        """A seat for one match. A bot suspected down (it disconnected in an earlier
        match) is probed with a quick Hello first; if that fails too, the seat faults at
        once instead of waiting out the connect timeout."""
        if name in self.builtin:
            factory = builtin_factory(self.config.game_plugin, str(self.builtin[name]))
            return builtin_seat(name, factory, policy_seed)
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
