"""The Bot service around a policy factory: one fresh policy per Play stream."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Callable
from typing import Any, NoReturn

import grpc

from arena.policies import Policy
from arena.v1 import bot_pb2, bot_pb2_grpc

from .answer import BadRequestError, decide
from .inbox import Inbox
from .info import BotInfo

log = logging.getLogger("arena.sdk")

PolicyFactory = Callable[[], Policy]
"""Makes the policy of one match (a class such as ``RandomPolicy`` will do)."""


async def abort(context: Any, code: grpc.StatusCode, detail: str) -> NoReturn:
    """End the call with ``code``; ``context.abort`` raises, and mypy learns it here."""
    await context.abort(code, detail)
    raise AssertionError("context.abort returned")  # pragma: no cover


class PolicyServicer(bot_pb2_grpc.BotServicer):
    """Answers ``Hello`` with the BotInfo and plays every Play stream with a new policy.

    Policies run in worker threads, so a slow one holds up only its own stream. Optional
    policy hooks: ``match_start(MatchStart)`` and ``match_over(MatchOver)``.
    """

    def __init__(self, factory: PolicyFactory, info: BotInfo) -> None:
        self._factory = factory
        self._hello = info.to_proto()

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
        try:
            while (msg := await inbox.next()) is not None:
                kind = msg.WhichOneof("kind")
                if kind == "start":
                    policy = await self._start(msg.start, context)
                elif kind == "decide":
                    if policy is None:
                        await abort(
                            context,
                            grpc.StatusCode.FAILED_PRECONDITION,
                            "DecideRequest before MatchStart: a Play stream must begin "
                            "with MatchStart",
                        )
                    yield await self._decide(policy, msg.decide, context)
                elif kind == "over":
                    await _hook(policy, "match_over", msg.over)
                else:  # a message kind newer than this SDK: nothing to answer
                    log.warning("ignored an ArenaMessage of unknown kind %r", kind)
        finally:
            await inbox.close()

    async def _start(self, start: bot_pb2.MatchStart, context: Any) -> Policy:
        try:
            # Factories may load models or tables: keep that off the event loop too.
            policy = await asyncio.to_thread(self._factory)
        except Exception as error:
            log.exception("the policy factory failed for match %s", start.match_id)
            await abort(context, grpc.StatusCode.INTERNAL, f"policy factory failed: {error!r}")
        await _hook(policy, "match_start", start)
        return policy

    async def _decide(
        self, policy: Policy, request: bot_pb2.DecideRequest, context: Any
    ) -> bot_pb2.BotMessage:
        try:
            return await asyncio.to_thread(decide, policy, request)
        except BadRequestError as error:
            await abort(context, grpc.StatusCode.INVALID_ARGUMENT, str(error))
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
