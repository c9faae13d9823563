"""Ending a call with a status code and a message a person can act on."""

from __future__ import annotations

from typing import Any, NoReturn

import grpc


async def abort(context: Any, code: grpc.StatusCode, detail: str) -> NoReturn:
    """End the call with ``code``; ``context.abort`` raises, and mypy learns it here."""
    await context.abort(code, detail)
    raise AssertionError("context.abort returned")  # pragma: no cover
