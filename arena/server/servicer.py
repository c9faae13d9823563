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
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any, Final

import grpc

from arena.league.leaderboard import Row, leaderboard
from arena.names import BadNameError, check_name
from arena.referee.channels import EndpointError, parse_bot_endpoint
from arena.referee.record import RecordError, decode_record
from arena.referee.replay import replay_lines
from arena.store import Store
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
from arena.v1 import arena_pb2, arena_pb2_grpc

from .allowlist import Allowlist, endpoint_key
from .auth import Authenticator
from .config import MAX_DESCRIPTION, ServeConfig
from .errors import abort
from .ladder import Ladder
from .ratelimit import RateLimiter
from .views import bot_message, finished_match, leaderboard_row, running_match

MAX_ENDPOINT: Final = 300
"""Characters in an endpoint."""
DEFAULT_MATCHES: Final = 50
"""ListMatches without a limit."""
MAX_MATCHES: Final = 500
"""ListMatches' cap."""
CHANNEL_GRACE_S: Final = 600.0
"""How long a match still running on the ladder's channel to an endpoint its bot left
may go on before the channel is closed under it (a ladder match takes far less)."""

Code = grpc.StatusCode


class ArenaServicer(arena_pb2_grpc.ArenaServicer):
    """Submissions, updates and the ladder's views."""

    def __init__(self, config: ServeConfig, store: Store, ladder: Ladder) -> None:
        self.config = config
        self.store = store
        self.ladder = ladder
        self.allowlist = Allowlist(config.allow)
        self.limiter = RateLimiter(config.submit_limit)
        self.auth = Authenticator(store, config.auth_fail_limit)

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

    async def ListBots(  # noqa: N802 (gRPC method name)
        self, request: arena_pb2.ListBotsRequest, context: Any
    ) -> arena_pb2.ListBotsReply:
        """Every submitted bot with its status."""
        viewer = await self.auth.caller(context, required=False)
        bots = list_bots(self.store, request.owner or None)
        return arena_pb2.ListBotsReply(
            bots=[self._message(b, viewer) for b in bots],
            ladder_status=self.ladder.status,
            ladder=self.config.ladder,
        )

    async def GetLeaderboard(  # noqa: N802 (gRPC method name)
        self, request: arena_pb2.GetLeaderboardRequest, context: Any
    ) -> arena_pb2.GetLeaderboardReply:
        """The ladder's standings."""
        ladder = request.ladder or self.config.ladder
        if ladder != self.config.ladder and ladder not in self.store.ladders():
            await abort(
                context,
                Code.NOT_FOUND,
                f"no ladder {ladder!r}; this arena runs {self.config.ladder!r}",
            )
        statuses = {b.name: b.status for b in list_bots(self.store)}
        rows = [
            r
            for r in leaderboard(self.store, ladder)
            if request.include_retired or statuses.get(r.name) is not BotStatus.RETIRED
        ]
        return arena_pb2.GetLeaderboardReply(
            ladder=ladder,
            rows=[
                leaderboard_row(_reranked(r, i), statuses.get(r.name))
                for i, r in enumerate(rows, start=1)
            ],
            ladder_status=self.ladder.status,
        )

    async def ListMatches(  # noqa: N802 (gRPC method name)
        self, request: arena_pb2.ListMatchesRequest, context: Any
    ) -> arena_pb2.ListMatchesReply:
        """Running matches first (if asked for), then finished ones, newest first."""
        if request.limit < 0:
            await abort(context, Code.INVALID_ARGUMENT, "limit must not be negative")
        limit = min(request.limit or DEFAULT_MATCHES, MAX_MATCHES)
        bot = request.bot or None
        summaries = []
        if request.include_running:
            summaries += [
                running_match(m, self.config.ladder)
                for m in sorted(self.ladder.running.values(), key=lambda m: m.started_at)
                if bot is None or bot in m.seats
            ]
        rows = self.store.matches(league_id=self.config.league_id, bot=bot, limit=limit)
        summaries += [finished_match(row) for row in reversed(rows)]
        return arena_pb2.ListMatchesReply(matches=summaries)

    async def GetMatch(  # noqa: N802 (gRPC method name)
        self, request: arena_pb2.GetMatchRequest, context: Any
    ) -> arena_pb2.GetMatchReply:
        """A finished ladder match: one seat's view, or everything."""
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
        row = self.store.match(match_id)
        # Only this arena's ladder: another league in the database may still replay a
        # duplicate deal, whose record must not be out before it has been played.
        if row is None or row.league_id != self.config.league_id:
            await abort(
                context,
                Code.NOT_FOUND,
                f"no finished match {match_id!r} on this arena; list them with ListMatches "
                "(arena matches --arena HOST:PORT)",
            )
        data = self.store.record(match_id)
        try:
            lines = decode_record(data or b"")
        except RecordError as error:
            await abort(
                context, Code.DATA_LOSS, f"the record of {match_id!r} is unreadable: {error}"
            )
        reply = arena_pb2.GetMatchReply(match=finished_match(row))
        if request.WhichOneof("view") == "seat":
            seat = request.seat
            if not 0 <= seat < len(row.seats):
                await abort(context, Code.INVALID_ARGUMENT, f"seat must be 0..{len(row.seats) - 1}")
            reply.replay.extend(replay_lines(lines, seat))
        else:
            reply.replay.extend(replay_lines(lines, None))
            reply.record_json.extend(json.dumps(line, separators=(",", ":")) for line in lines)
        return reply


def _reranked(row: Row, rank: int) -> Row:
    """The row with its rank among the rows shown (retired bots left out)."""
    return replace(row, rank=rank)
