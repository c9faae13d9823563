"""Ending a call with a status code and a message a person can act on."""

from __future__ import annotations

import inspect
import logging
from collections.abc import Awaitable, Callable
from typing import Any, Final, NoReturn

import grpc

from arena.text import shown

log = logging.getLogger("arena.serve")

ARENA_FAILED: Final = (
    "the arena failed to answer this call: an error in the arena itself, not in your "
    "request (its organizer's log has the details); try again later"
)
"""INTERNAL's message for an error of the arena's own (gRPC would otherwise send
"Unexpected <class 'KeyError'>: ...", naming the arena's internals)."""


class ReadsUnavailableError(Exception):
    """The database cannot be read now (its server is down or unreachable): the call
    ends UNAVAILABLE with this message, which names nothing of the host."""


async def abort(context: Any, code: grpc.StatusCode, detail: str) -> NoReturn:
    """End the call with ``code`` and ``detail`` as ``shown`` (it may quote what the
    caller sent); ``context.abort`` raises, and mypy learns it here."""
    await context.abort(code, shown(detail))
    raise AssertionError("context.abort returned")  # pragma: no cover


class PlainErrors(grpc.aio.ServerInterceptor):  # type: ignore[misc]  # grpc is untyped
    """Every unary call whose handler fails with an unexpected exception ends INTERNAL
    with ``ARENA_FAILED``; the traceback goes to the log with the method's name."""

    async def intercept_service(
        self, continuation: Callable[[Any], Awaitable[Any]], details: Any
    ) -> Any:
        """The handler of the call, its unary behaviour guarded."""
        handler = await continuation(details)
        behaviour = getattr(handler, "unary_unary", None)
        if behaviour is None or not inspect.iscoroutinefunction(behaviour):
            return handler
        method = details.method

        async def guarded(request: Any, context: Any) -> Any:
            try:
                return await behaviour(request, context)
            except grpc.aio.AbortError:
                raise  # the handler's own abort(): already a status and a message
            except ReadsUnavailableError as error:
                log.warning("%s: %s", method, error.__cause__ or error)
                await abort(context, grpc.StatusCode.UNAVAILABLE, str(error))
            except Exception:
                log.exception("%s failed", method)
                await abort(context, grpc.StatusCode.INTERNAL, ARENA_FAILED)

        return grpc.unary_unary_rpc_method_handler(
            guarded,
            request_deserializer=handler.request_deserializer,
            response_serializer=handler.response_serializer,
        )
