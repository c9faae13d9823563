"""Page tokens of the Arena service's lists (ListMatches, ListBots, GetLeaderboard).

A list is read page by page in its own order (keyset pagination): the token given with
a page says where the next one starts (the sort key of the last item shown), so a page
costs the same however deep into the list it is, and items added meanwhile are neither
shown twice nor skipped behind the reader.

Tokens are opaque to clients: URL-safe base64 of a small JSON payload (the list, its
filters, the position) followed by an HMAC-SHA256 tag under a key drawn at random when the
arena starts. A token the arena did not make (forged, altered, cut), one made for another
list or other filters, or one from before a restart is refused as a whole, in plain words:
nothing in it reaches a query unless the tag matches, and the position is then checked
value by value.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import secrets
from collections.abc import Sequence
from typing import Final

TAG_BYTES: Final = 16
"""Bytes of the HMAC-SHA256 tag kept (128 bits)."""
MAX_TOKEN_CHARS: Final = 1024
"""Longer page tokens are refused without being decoded (ours are far shorter)."""
VERSION: Final = 1
"""Payload format; a token of another format is refused like a forged one."""

Scalar = str | int | float | bool
"""What filters and positions are made of."""


class PageTokenError(ValueError):
    """A page token this arena cannot continue from; the message says what to do."""


REFUSED: Final = (
    "page_token is not a token this arena gave for this list and these filters (tokens "
    "come from next_page_token, are used as they are, and last until the arena restarts); "
    "ask again without page_token to start from the first page"
)


class PageTokens:
    """Makes and checks the page tokens of one running arena."""

    def __init__(self, key: bytes | None = None) -> None:
        self._key = key if key is not None else secrets.token_bytes(32)

    def _tag(self, payload: bytes) -> bytes:
        return hmac.new(self._key, payload, hashlib.sha256).digest()[:TAG_BYTES]

    def make(self, kind: str, scope: Sequence[Scalar], position: Sequence[Scalar]) -> str:
        """The token of the page after ``position`` of list ``kind`` read with the
        filters ``scope``."""
        payload = json.dumps(
            [VERSION, kind, list(scope), list(position)], separators=(",", ":")
        ).encode()
        return base64.urlsafe_b64encode(self._tag(payload) + payload).rstrip(b"=").decode()

    def read(self, token: str, kind: str, scope: Sequence[Scalar]) -> list[Scalar]:
        """The position a token made by ``make(kind, scope, position)`` holds;
        PageTokenError for anything else."""
        if len(token) > MAX_TOKEN_CHARS:
            raise PageTokenError(REFUSED)
        try:
            raw = base64.b64decode(token + "=" * (-len(token) % 4), altchars=b"-_", validate=True)
        except (binascii.Error, ValueError):
            raise PageTokenError(REFUSED) from None
        tag, payload = raw[:TAG_BYTES], raw[TAG_BYTES:]
        if len(tag) != TAG_BYTES or not hmac.compare_digest(tag, self._tag(payload)):
            raise PageTokenError(REFUSED)
        try:
            version, token_kind, token_scope, position = json.loads(payload)
        except ValueError:  # made by us, so this is a bug, not a forgery; refuse alike
            raise PageTokenError(REFUSED) from None
        if version != VERSION or token_kind != kind or token_scope != list(scope):
            raise PageTokenError(REFUSED)
        if not isinstance(position, list):
            raise PageTokenError(REFUSED)
        return position


def position_of(position: Sequence[object], *types: type) -> tuple[object, ...]:
    """``position`` if it holds exactly one value of each of ``types`` (an int is not
    taken for a float's place nor a bool for an int's), else PageTokenError."""
    if len(position) != len(types):
        raise PageTokenError(REFUSED)
    values = []
    for value, kind in zip(position, types, strict=True):
        if isinstance(value, bool) and kind is not bool:
            raise PageTokenError(REFUSED)
        if kind is float and isinstance(value, int):
            value = float(value)
        if not isinstance(value, kind):
            raise PageTokenError(REFUSED)
        values.append(value)
    return tuple(values)
