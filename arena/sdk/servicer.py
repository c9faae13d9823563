"""The Bot service around a policy factory: one fresh policy per Play stream."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator, Callable
from typing import Any, NoReturn

import grpc

from arena.games import AnyGame, UnknownGameError, names, plays
from arena.games import get as get_game
from arena.policies import FaultInfo, MatchEnd, MatchInfo, Policy
from arena.v1 import bot_pb2, bot_pb2_grpc

from .answer import BadChoiceError, BadRequestError, decide
from .inbox import Inbox
from .info import BotInfo

log = logging.getLogger("arena.sdk")

INLINE_LIMIT_S = 0.002
"""A decision this quick may run on the event loop (see ``_Pace``)."""
QUICK_STREAK = 3
"""Quick decisions in a row before a match's decisions move onto the event loop."""

PolicyFactory = Callable[[], Policy]
"""Makes the policy of one match (a class such as ``RandomPolicy`` will do)."""


async def abort(context: Any, code: grpc.StatusCode, detail: str) -> NoReturn:
    """End the call with ``code``; ``context.abort`` raises, and mypy learns it here."""
    await context.abort(code, detail)
    raise AssertionError("context.abort returned")  # pragma: no cover


class PolicyServicer(bot_pb2_grpc.BotServicer):
    """Answers ``Hello`` with the BotInfo and plays every Play stream with a new policy.

    Policies start in a worker thread, so a slow one holds up only its own stream; one
    that proves quick moves onto the event loop (see ``_Pace``). Optional
    policy hooks: ``match_start(MatchInfo)`` and ``match_over(MatchEnd)`` (plain Python
    values, no protobuf). A match of a game the bot does not declare (``BotInfo.games``)
    is refused.
    """

    def __init__(self, factory: PolicyFactory, info: BotInfo) -> None:
        self._factory = factory
        self._hello = info.to_proto()
        self._games = info.games
        # Import the games now, not at the first MatchStart or request: the arena's clock
        # runs from the first request, and an import there made first decisions late.
        for name in info.games or names():
            if name.endswith(":*"):
                continue  # a family: its game is known at the MatchStart
            with contextlib.suppress(UnknownGameError):
                get_game(name)

    async def Hello(  # noqa: N802 (the gRPC method name)
        self, request: bot_pb2.HelloRequest, context: Any
    ) -> bot_pb2.HelloReply:
        """The bot's identity."""
        return self._hello

    async def Play(  # noqa: N802 (the gRPC method name)
        self, request_iterator: AsyncIterator[bot_pb2.ArenaMessage], context: Any
    ) -> AsyncIterator[bot_pb2.BotMessage]:
        """MatchStart → fresh policy; DecideRequest → answer; MatchOver → hook; the call
        ends when the arena half-closes."""
        inbox = Inbox(request_iterator)
        policy: Policy | None = None
        game: AnyGame | None = None
        pace = _Pace()
        match_id = ""
        decisions = 0
        try:
            while (msg := await inbox.next()) is not None:
                kind = msg.WhichOneof("kind")
                if kind == "start":
                    match_id, decisions = msg.start.match_id, 0
                    game = await self._game(msg.start, context)
                    policy = await self._start(game, msg.start, context)
                    pace = _Pace(threaded=bool(getattr(policy, "threaded", False)))
                elif kind == "decide":
                    if policy is None:
                        await abort(
                            context,
                            grpc.StatusCode.FAILED_PRECONDITION,
                            "DecideRequest before MatchStart: a Play stream must begin "
                            "with MatchStart",
                        )
                    request, received = msg.decide, inbox.received
                    yield await self._decide(policy, request, context, pace, inbox)
                    # Resumed once the reply is written: the decision's time as the bot
                    # sees it (the arena's clock also counts the network).
                    decisions += 1
                    took_ms = (time.perf_counter() - received) * 1000.0
                    if took_ms > request.deadline_ms > 0:
                        _warn_late(match_id, decisions, request, took_ms)
                elif kind == "over":
                    if game is not None and _has_hook(policy, "match_over"):
                        await _hook(policy, "match_over", _match_end(game, msg.over))
                else:  # a message kind newer than this SDK: nothing to answer
                    log.warning("ignored an ArenaMessage of unknown kind %r", kind)
        finally:
            await inbox.close()

    async def _game(self, start: bot_pb2.MatchStart, context: Any) -> AnyGame:
        """The match's game; the call ends if the bot does not play it."""
        if not plays(self._games, start.game):
            await abort(
                context,
                grpc.StatusCode.FAILED_PRECONDITION,
                f"this bot plays {list(self._games)}, not {start.game!r}",
            )
        try:
            return get_game(start.game)
        except UnknownGameError as error:
            await abort(context, grpc.StatusCode.INVALID_ARGUMENT, str(error))

    async def _start(self, game: AnyGame, start: bot_pb2.MatchStart, context: Any) -> Policy:
        try:
            # Factories may load models or tables: keep that off the event loop too.
            policy = await asyncio.to_thread(self._factory)
        except Exception as error:
            log.exception("the policy factory failed for match %s", start.match_id)
            await abort(context, grpc.StatusCode.INTERNAL, f"policy factory failed: {error!r}")
        if _has_hook(policy, "match_start"):
            try:
                info = MatchInfo(
                    match_id=start.match_id,
                    seat=start.seat,
                    names=tuple(start.names),
                    game=game.name,
                    config=game.wire.config_from_start(start),
                )
            except ValueError as error:
                await abort(context, grpc.StatusCode.INVALID_ARGUMENT, f"bad MatchStart: {error}")
            await _hook(policy, "match_start", info)
        return policy

    async def _decide(
        self,
        policy: Policy,
        request: bot_pb2.DecideRequest,
        context: Any,
        pace: _Pace,
        inbox: Inbox,
    ) -> bot_pb2.BotMessage:
        try:
            if pace.inline:
                started = time.perf_counter()
                answer = decide(policy, request)
                pace.observe(time.perf_counter() - started)
                return answer
            # The inbox reads on while the thread thinks, to spot requests that overtake.
            return await inbox.run(asyncio.to_thread(pace.timed, decide, policy, request))
        except BadRequestError as error:
            await abort(context, grpc.StatusCode.INVALID_ARGUMENT, str(error))
        except BadChoiceError as error:
            # The policy's mistake, not the SDK's: one line names it, no SDK traceback.
            log.error("%s", error)
            await abort(context, grpc.StatusCode.INTERNAL, str(error))
        except Exception as error:
            # A bug in the policy: say so loudly on both ends instead of guessing a move.
            log.exception(
                "policy %s failed on request %d", type(policy).__name__, request.request_id
            )
            await abort(
                context,
                grpc.StatusCode.INTERNAL,
                f"{type(policy).__name__}.choose raised {type(error).__name__}: {error}",
            )


class _Pace:
    """Where one match's decisions run.

    A thread hop costs more than a quick policy's whole decision (tens of microseconds
    against a few), but a slow policy on the event loop would stall the bot's other
    streams. So decisions start in a worker thread; after QUICK_STREAK decisions in a row
    that each took under INLINE_LIMIT_S, they run on the event loop; one slower decision
    sends the match back to the thread. A policy with ``threaded = True`` always uses
    the thread.
    """

    __slots__ = ("inline", "streak", "threaded")

    def __init__(self, *, threaded: bool = False) -> None:
        self.inline = False
        self.streak = 0
        self.threaded = threaded

    def observe(self, seconds: float) -> None:
        """Record one decision's time and choose where the next one runs."""
        if self.threaded or seconds > INLINE_LIMIT_S:
            self.inline = False
            self.streak = 0
            return
        self.streak += 1
        if self.streak >= QUICK_STREAK:
            self.inline = True

    def timed(self, func: Callable[..., bot_pb2.BotMessage], *args: Any) -> bot_pb2.BotMessage:
        """Run ``func`` (in the worker thread) and record its time."""
        started = time.perf_counter()
        answer = func(*args)
        self.observe(time.perf_counter() - started)
        return answer


def _warn_late(match_id: str, number: int, request: bot_pb2.DecideRequest, took_ms: float) -> None:
    """One warning line for a decision that took longer than its deadline."""
    deadline, bank = request.deadline_ms, max(request.time_bank_ms, 0)
    if took_ms > deadline + bank:
        outcome = "the arena has played the fallback (a TIMEOUT fault)"
    else:
        outcome = "the overrun came out of the time bank"
    log.warning(
        "decision %d (request %d) of match %s took %.0f ms; its deadline was %d ms "
        "(+%d ms bank): %s",
        number,
        request.request_id,
        match_id or "?",
        took_ms,
        deadline,
        bank,
        outcome,
    )


def _has_hook(policy: Policy | None, name: str) -> bool:
    return callable(getattr(policy, name, None))


def _match_end(game: AnyGame, over: bot_pb2.MatchOver) -> MatchEnd:
    try:
        result = game.wire.result_from_over(over)
    except ValueError:
        result = None
    return MatchEnd(
        match_id=over.match_id,
        ranks=tuple(over.ranks),
        forfeited=tuple(over.forfeited),
        faults=tuple(FaultInfo(f.kind, f.detail, f.request_id) for f in over.faults),
        result=result,
        record_json=over.record_json,
    )


async def _hook(policy: Policy | None, name: str, msg: Any) -> None:
    """Call the policy's optional hook ``name(msg)``; a failing hook is only logged, as
    the match goes on (or is over) either way."""
    method = getattr(policy, name, None)
    if not callable(method):
        return
    try:
        await asyncio.to_thread(method, msg)
    except Exception:
        log.exception("policy hook %s failed", name)
