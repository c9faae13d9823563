"""The Arena gRPC service: thin typed adapters, proto -> checks -> store/ladder -> proto.

Every change (submit, update, retire) is checked in this order, so nothing is stored or
connected to before the request is known to be acceptable: the token (UNAUTHENTICATED,
or RESOURCE_EXHAUSTED once the caller's address failed too often), the shutdown
(UNAVAILABLE), the owner's rate limit (RESOURCE_EXHAUSTED), the fields
(INVALID_ARGUMENT), the allowlist (PERMISSION_DENIED, before any connection), then the
name (ALREADY_EXISTS) or the ownership (NOT_FOUND, PERMISSION_DENIED), then whether
another bot holds the endpoint (ALREADY_EXISTS). An update without a new endpoint checks
the stored one against the allowlist as a new one would be: the organizer may have
narrowed ``--allow`` since it was submitted.

An endpoint stays with the bot that has it, retired or not, until the bot moves (an
update with a new endpoint) or its owner releases it (``RetireBot`` with
``release_endpoint``): another owner cannot take over a retired bot's process under a
new name. The ladder's channel to an endpoint a bot left is closed once its calls end.

The reads (ListBots, GetLeaderboard, ListMatches, GetMatch) are public, so they must cost
the referee, which shares this event loop, next to nothing: each is counted against its
client address's read rate (RESOURCE_EXHAUSTED beyond it), reads one page through an
index (``pages.py``: keyset pages with opaque tokens), and runs on the read pool's
processes (``read_processes.py``) or threads (``reads.py``) with their own connections,
never on the loop; their rows come back serialized, and go out as they are (``wire.py``).
"""

from __future__ import annotations

import asyncio
from collections import Counter
from functools import partial
from typing import Any, Final

import grpc

from arena.names import BadNameError, check_name
from arena.referee.channels import CHANNEL_GRACE_S, EndpointError, parse_bot_endpoint
from arena.store import Store, open_store
from arena.store.registry import (
    BotEntry,
    BotStatus,
    NameTakenError,
    add_bot,
    change_bot,
    get_bot,
    list_bots,
    name_taken,
)
from arena.text import first_hidden
from arena.v1 import arena_pb2

from . import read_jobs
from .allowlist import Allowlist, endpoint_key
from .auth import Authenticator
from .config import MAX_DESCRIPTION, ServeConfig
from .errors import abort
from .intervals_cache import IntervalCache
from .ladder import Ladder
from .pages import PageTokenError, PageTokens, Scalar, position_of
from .ratelimit import RateLimiter, TokenBuckets, peer_key
from .read_processes import ReadProcesses
from .reads import ReadPool
from .views import bot_message, running_match
from .wire import joined

MAX_ENDPOINT: Final = 300
"""Characters in an endpoint."""
DEFAULT_MATCHES: Final = 50
"""ListMatches without a limit."""
MAX_MATCHES: Final = 500
"""ListMatches' cap."""
DEFAULT_BOTS: Final = 100
"""ListBots' page without a page_size."""
MAX_BOTS: Final = 500
"""ListBots' cap: a bot is at most about 4 kB (its text fields at their caps), so a page
stays within the 4 MiB a gRPC client accepts by default."""
MIN_HOLD_S: Final = 0.25
"""A read refused for the read rate is answered no sooner than this..."""
MAX_HOLD_S: Final = 1.0
"""...and no later than this."""
MAX_HELD_PER_ADDRESS: Final = 16
"""Refused reads held at once for one client address (more are refused at once)."""
MAX_HELD: Final = 1024
"""Refused reads held at once in all."""
DEFAULT_ROWS: Final = 500
"""GetLeaderboard's page without a page_size."""
MAX_ROWS: Final = 1000
"""GetLeaderboard's cap."""

Code = grpc.StatusCode


class ArenaServicer:
    """Submissions, updates and the ladder's views (served by ``wire.add_arena_servicer``:
    a method may answer its reply's serialized bytes)."""

    def __init__(
        self,
        config: ServeConfig,
        store: Store,
        ladder: Ladder,
        reads: ReadPool,
        public_reads: ReadPool | ReadProcesses | None = None,
    ) -> None:
        self.config = config
        self.store = store
        self.ladder = ladder
        self.allowlist = Allowlist(config.allow)
        self.limiter = RateLimiter(config.submit_limit)
        self.auth = Authenticator(store, config.auth_fail_limit)
        self.reads = reads
        self.public_reads = public_reads if public_reads is not None else reads
        """Where the public reads' jobs (``read_jobs``) run: the read processes, or the
        read threads."""
        self.pages = PageTokens()
        # The ladder changes with every commit of its one writer, ``store``.
        self.intervals = IntervalCache(
            config.ladder,
            lambda _read: store.commits,
            open_reader=partial(open_store, reads.db, read_only=True),
        )
        ladder.joint_source = self.intervals.joint
        ladder.after_commit = lambda: self.intervals.nudge(store)
        self.intervals.nudge(store)  # the first figures, before the first read asks
        self.read_limiter = (
            TokenBuckets(config.read_rate, config.read_burst) if config.read_rate > 0 else None
        )
        self._held: Counter[str] = Counter()
        """Refused reads being held, by client address."""

    # ------------------------------------------------------------ checks

    async def _owner(self, context: Any) -> str:
        """The owner making a change: authenticated, within its rate limit."""
        owner = await self.auth.caller(context, required=True)
        assert owner is not None
        if self.ladder.stopping:
            await abort(
                context,
                Code.UNAVAILABLE,
                "the arena is shutting down and takes no changes; try again once it is "
                "back (a restart keeps every bot)",
            )
        if (problem := self.ladder.store_problem) is not None:
            await abort(
                context,
                Code.UNAVAILABLE,
                f"the arena cannot write its database now ({problem}) and takes no changes; "
                "its organizer is told in its log; try again later",
            )
        wait_s = self.limiter.acquire(owner)
        if wait_s:
            await abort(
                context,
                Code.RESOURCE_EXHAUSTED,
                f"owner {owner!r} reached this arena's limit of {self.config.submit_limit} "
                f"changes (submissions, updates, retirements) per minute; try again in "
                f"{wait_s:.0f} s",
            )
        return owner

    async def _name(self, context: Any, name: str) -> str:
        try:
            return check_name(name)
        except BadNameError as error:
            await abort(context, Code.INVALID_ARGUMENT, str(error))

    async def _endpoint(self, context: Any, endpoint: str) -> str:
        text = endpoint.strip()
        if len(text) > MAX_ENDPOINT:
            await abort(
                context, Code.INVALID_ARGUMENT, f"the endpoint is over {MAX_ENDPOINT} characters"
            )
        try:
            parse_bot_endpoint(text)
        except EndpointError as error:
            await abort(context, Code.INVALID_ARGUMENT, str(error))
        refusal = self.allowlist.refusal(text)  # pure: nothing is resolved or connected
        if refusal is not None:
            await abort(context, Code.PERMISSION_DENIED, refusal)
        return text

    async def _description(self, context: Any, text: str) -> str:
        if len(text) > MAX_DESCRIPTION:
            await abort(
                context,
                Code.INVALID_ARGUMENT,
                f"the description has {len(text)} characters; the limit is {MAX_DESCRIPTION}",
            )
        hidden = first_hidden(text, allowed="\t\n")
        if hidden is not None:
            await abort(
                context,
                Code.INVALID_ARGUMENT,
                f"the description has a control, format or invisible character ({hidden}); "
                "write it in visible characters (tabs and line breaks are fine)",
            )
        return text

    async def _endpoint_free(self, context: Any, owner: str, name: str, endpoint: str) -> None:
        """Refuse an endpoint another bot holds, under any spelling
        (``allowlist.endpoint_key``): one bot process holds one ladder entry. A retired
        bot holds its endpoint too until its owner releases it, except against its own
        owner (who may submit the process anew; bringing the retired bot back is then
        refused). The refusal says only that the endpoint is held, and by which bot if
        it is the caller's: never whose, or whether that bot plays."""
        key = endpoint_key(endpoint)
        for other in list_bots(self.store):
            if (
                other.name == name
                or not other.endpoint  # released
                or (other.status is BotStatus.RETIRED and other.owner == owner)
                or endpoint_key(other.endpoint) != key
            ):
                continue
            if other.owner == owner:
                why = (
                    f"your bot {other.name!r} is there (retire it with `arena retire --name "
                    f"{other.name}`, or move it with `arena update --name {other.name} "
                    "--endpoint NEW`)"
                )
            else:
                why = "another bot holds it"
            await abort(
                context,
                Code.ALREADY_EXISTS,
                f"the endpoint {endpoint!r} is taken: {why}; the same host and port count, "
                "however spelled. One bot process holds one ladder entry: run this bot on "
                "a port of its own",
            )

    def _leave(self, endpoint: str) -> None:
        """A bot left ``endpoint`` (it moved, or retired): close the ladder's channel
        there once the calls on it have ended (a match still running on it has up to
        CHANNEL_GRACE_S to finish), unless a bot that is not retired uses that very
        endpoint."""
        if any(
            b.endpoint == endpoint and b.status is not BotStatus.RETIRED
            for b in list_bots(self.store)
        ):
            return
        self.ladder.pool.retire(endpoint, CHANNEL_GRACE_S)

    async def _own_bot(self, context: Any, owner: str, name: str) -> BotEntry:
        bot = get_bot(self.store, await self._name(context, name))
        if bot is None:
            await abort(
                context,
                Code.NOT_FOUND,
                f"no submitted bot {name!r}; list them with `arena bots`, or submit it "
                "with `arena submit`",
            )
        if bot.owner != owner:
            await abort(
                context,
                Code.PERMISSION_DENIED,
                f"bot {name!r} belongs to another owner; only its owner may change or retire "
                "it. Use your own token, or submit your bot under another name",
            )
        return bot

    def _message(self, bot: BotEntry, viewer: str | None) -> arena_pb2.SubmittedBot:
        return bot_message(
            bot, matches=self.ladder.played.get(bot.name, 0), show_endpoint=viewer == bot.owner
        )

    # ----------------------------------------------------------- changes

    async def SubmitBot(  # noqa: N802 (gRPC method name)
        self, request: arena_pb2.SubmitBotRequest, context: Any
    ) -> arena_pb2.SubmitBotReply:
        """Register a bot; its verification runs in the background."""
        owner = await self._owner(context)
        name = await self._name(context, request.name)
        if not request.endpoint:
            await abort(context, Code.INVALID_ARGUMENT, "give the bot's endpoint, HOST:PORT")
        endpoint = await self._endpoint(context, request.endpoint)
        description = await self._description(context, request.description)
        taken = (
            f"the name {name!r} is taken; choose another name (or, if it is your bot, "
            "change it with `arena update`)"
        )
        existing = name_taken(self.store, name)
        if existing is not None:
            if existing != name:
                taken = (
                    f"the name {name!r} is taken: {existing!r} exists, and names that differ "
                    "only in case are one name here; choose another name"
                )
            await abort(context, Code.ALREADY_EXISTS, taken)
        await self._endpoint_free(context, owner, name, endpoint)
        # No await from the checks to the insert: nothing else runs in between.
        try:
            bot = add_bot(self.store, name, owner, endpoint, description)
        except NameTakenError:
            await abort(context, Code.ALREADY_EXISTS, taken)
        self.ladder.verify(name)
        return arena_pb2.SubmitBotReply(bot=self._message(bot, owner))

    async def UpdateBot(  # noqa: N802 (gRPC method name)
        self, request: arena_pb2.UpdateBotRequest, context: Any
    ) -> arena_pb2.UpdateBotReply:
        """Change one's bot and verify it again (also re-activates it)."""
        owner = await self._owner(context)
        bot = await self._own_bot(context, owner, request.name)
        changes: dict[str, Any] = {
            "status": BotStatus.VERIFYING,
            "status_reason": "waiting for verification",
            "failing_streak": 0,
        }
        if request.endpoint:
            changes["endpoint"] = await self._endpoint(context, request.endpoint)
        elif not bot.endpoint:
            await abort(
                context,
                Code.INVALID_ARGUMENT,
                f"bot {bot.name!r} gave up its endpoint when it was retired; name one: "
                f"arena update --name {bot.name} --endpoint HOST:PORT",
            )
        else:
            # The stored endpoint, against the allowlist of this run (it may be narrower
            # than the one it was submitted under): never dialled if it is not allowed.
            refusal = self.allowlist.refusal(bot.endpoint)
            if refusal is not None:
                await abort(context, Code.PERMISSION_DENIED, refusal)
        if request.HasField("description"):
            changes["description"] = await self._description(context, request.description)
        await self._endpoint_free(context, owner, bot.name, changes.get("endpoint", bot.endpoint))
        old = bot.endpoint
        bot = change_bot(self.store, bot.name, **changes)
        if old and old != bot.endpoint:
            self._leave(old)
        self.ladder.verify(bot.name)
        self.ladder.wake()
        return arena_pb2.UpdateBotReply(bot=self._message(bot, owner))

    async def RetireBot(  # noqa: N802 (gRPC method name)
        self, request: arena_pb2.RetireBotRequest, context: Any
    ) -> arena_pb2.RetireBotReply:
        """Take one's bot off the ladder (and, if asked, give up its endpoint)."""
        owner = await self._owner(context)
        bot = await self._own_bot(context, owner, request.name)
        self.ladder.cancel_verification(bot.name)
        old = bot.endpoint
        changes: dict[str, Any] = {
            "status": BotStatus.RETIRED,
            "status_reason": "retired by its owner (arena update re-activates it)",
        }
        if request.release_endpoint:
            changes["endpoint"] = ""
            changes["status_reason"] = (
                "retired by its owner, its endpoint released (arena update --endpoint "
                "HOST:PORT re-activates it)"
            )
        bot = change_bot(self.store, bot.name, **changes)
        if old:
            self._leave(old)
        self.ladder.wake()
        return arena_pb2.RetireBotReply(bot=self._message(bot, owner))

    # ------------------------------------------------------------- views

    async def _read_allowed(self, context: Any) -> None:
        """Count a read against its client address; RESOURCE_EXHAUSTED beyond the read
        rate, or while the read pool has all the reads it takes.

        A refusal for the read rate is held until the address may read again (at least
        ``MIN_HOLD_S``, at most ``MAX_HOLD_S``) before it is sent: a client that asks
        again as soon as it is refused then waits instead of making the arena refuse it
        thousands of times a second, which would cost the referee's loop as much as the
        reads. Held refusals cost a sleeping coroutine each, and are bounded per address
        and in all; past either bound the refusal goes at once."""
        if self.read_limiter is not None:
            address = peer_key(context.peer() or "")
            wait_s = self.read_limiter.acquire(address)
            if wait_s:
                hold_s = min(max(wait_s, MIN_HOLD_S), MAX_HOLD_S)
                if self._held[address] < MAX_HELD_PER_ADDRESS and self._held.total() < MAX_HELD:
                    self._held[address] += 1
                    try:
                        await _hold(hold_s)
                    finally:
                        self._held[address] -= 1
                        if not self._held[address]:
                            del self._held[address]
                else:
                    hold_s = 0.0
                await abort(
                    context,
                    Code.RESOURCE_EXHAUSTED,
                    f"this client address reached the arena's limit of "
                    f"{self.config.read_rate:g} reads per second ({self.config.read_burst} "
                    f"at once); read more slowly: try again in {max(wait_s - hold_s, 0.0):.1f} s",
                )
        if self.public_reads.busy or self.reads.busy:
            await abort(
                context,
                Code.RESOURCE_EXHAUSTED,
                "the arena is answering many reads at the moment; try again in a second",
            )

    async def _page_size(self, context: Any, asked: int, default: int, cap: int) -> int:
        if asked < 0:
            await abort(context, Code.INVALID_ARGUMENT, "the page size must not be negative")
        return min(asked or default, cap)

    async def _position(
        self, context: Any, token: str, kind: str, scope: list[Scalar], *types: type
    ) -> tuple[Any, ...] | None:
        """Where the page of ``token`` starts (None without a token); INVALID_ARGUMENT
        for a token this arena did not give for this list and these filters."""
        if not token:
            return None
        try:
            return position_of(self.pages.read(token, kind, scope), *types)
        except PageTokenError as error:
            await abort(context, Code.INVALID_ARGUMENT, str(error))

    async def ListBots(  # noqa: N802 (gRPC method name)
        self, request: arena_pb2.ListBotsRequest, context: Any
    ) -> bytes:
        """The submitted bots with their status, by name, one page."""
        await self._read_allowed(context)
        viewer = await self.auth.caller(context, required=False)
        size = await self._page_size(context, request.page_size, DEFAULT_BOTS, MAX_BOTS)
        owner = request.owner
        scope: list[Scalar] = [owner]
        after = await self._position(context, request.page_token, "bots", scope, str)

        played = dict(self.ladder.played)
        job = partial(
            read_jobs.bots, owner=owner or None, after=after[0] if after else None, size=size,
            viewer=viewer, played=played,
        )  # fmt: skip
        bots, position = await self.public_reads.run(job)
        token = self.pages.make("bots", scope, position) if position else ""
        return joined(
            bots,
            arena_pb2.ListBotsReply(
                ladder_status=self.ladder.status, ladder=self.config.ladder, next_page_token=token
            ),
        )

    async def GetLeaderboard(  # noqa: N802 (gRPC method name)
        self, request: arena_pb2.GetLeaderboardRequest, context: Any
    ) -> bytes:
        """The ladder's standings, best first, one page; only this arena's ladder."""
        await self._read_allowed(context)
        ladder = request.ladder or self.config.ladder
        if ladder != self.config.ladder:
            # Other ladders in the database (leagues run on the same file) are not this
            # arena's to publish.
            await abort(
                context,
                Code.NOT_FOUND,
                f"no ladder {ladder!r} on this arena; it runs {self.config.ladder!r} "
                "(ask without a ladder for it)",
            )
        size = await self._page_size(context, request.page_size, DEFAULT_ROWS, MAX_ROWS)
        scope: list[Scalar] = [ladder, request.include_retired]
        after = await self._position(
            context, request.page_token, "leaderboard", scope, float, str, int
        )

        include_retired = request.include_retired
        # The kept intervals (a lookup, on a read thread: the first computes them).
        intervals = await self.reads.run(
            lambda store: self.intervals.by_bot(store, include_retired)
        )
        job = partial(
            read_jobs.leaderboard, ladder=ladder,
            after=(after[0], after[1], after[2]) if after else None, size=size,
            include_retired=include_retired, intervals=intervals,
        )  # fmt: skip
        rows, position = await self.public_reads.run(job)
        token = self.pages.make("leaderboard", scope, position) if position else ""
        return joined(
            arena_pb2.GetLeaderboardReply(ladder=ladder),
            rows,
            arena_pb2.GetLeaderboardReply(ladder_status=self.ladder.status, next_page_token=token),
        )

    async def ListMatches(  # noqa: N802 (gRPC method name)
        self, request: arena_pb2.ListMatchesRequest, context: Any
    ) -> bytes:
        """Running matches first (if asked for, on the first page), then finished ones,
        newest first, one page."""
        await self._read_allowed(context)
        if request.limit < 0:
            await abort(context, Code.INVALID_ARGUMENT, "limit must not be negative")
        limit = min(request.limit or DEFAULT_MATCHES, MAX_MATCHES)
        bot = request.bot or None
        scope: list[Scalar] = [request.bot]
        before = await self._position(context, request.page_token, "matches", scope, float, int)
        summaries = []
        if request.include_running and before is None:
            summaries += [
                running_match(m, self.config.ladder)
                for m in sorted(self.ladder.running.values(), key=lambda m: m.started_at)
                if bot is None or bot in m.seats
            ]
        league_id = self.config.league_id

        job = partial(
            read_jobs.matches, league_id=league_id, bot=bot,
            before=(before[0], before[1]) if before else None, limit=limit,
        )  # fmt: skip
        finished, position = await self.public_reads.run(job)
        token = self.pages.make("matches", scope, position) if position else ""
        return joined(
            arena_pb2.ListMatchesReply(matches=summaries),
            finished,
            arena_pb2.ListMatchesReply(next_page_token=token),
        )

    async def GetMatch(  # noqa: N802 (gRPC method name)
        self, request: arena_pb2.GetMatchRequest, context: Any
    ) -> bytes:
        """A finished ladder match: one seat's view, or everything."""
        await self._read_allowed(context)
        match_id = request.match_id
        if not match_id or len(match_id) > 200:
            await abort(context, Code.INVALID_ARGUMENT, "give a match id (from ListMatches)")
        if match_id in self.ladder.running:
            await abort(
                context,
                Code.FAILED_PRECONDITION,
                f"match {match_id!r} is still being played; its record is published once it "
                "ends. Ask again then",
            )

        seat = request.seat if request.WhichOneof("view") == "seat" else None
        job = partial(
            read_jobs.match, league_id=self.config.league_id, match_id=match_id, seat=seat
        )
        answer = await self.public_reads.run(job)
        if isinstance(answer, tuple):
            await abort(context, *answer)
        return answer


async def _hold(seconds: float) -> None:
    """Hold a refused read (a test replaces this to hold without a clock)."""
    await asyncio.sleep(seconds)
