"""Request ids on the wire: the id a bot must echo, which it cannot know before it has
the request.

The referee numbers a match's requests 1, 2, 3, ... (the decisions' ``n`` in the match
record, and a fault's ``request_id`` there). A remote seat sends request ``n`` with the
id ``n << 32 | tag``, the tag a keyed hash of ``n`` under a key drawn for that seat
alone. Ids still grow within a match, but a bot can echo an id only once it has received
it: a reply written before its request was sent (before MatchStart, say) cannot carry
it, and neither can a reply carrying another seat's id (a bot that mixes up its
streams). So a seat tells apart, without remembering the ids it sent: the id of the
request it waits for, the id of an earlier request of its own (a late reply), and
anything else (STALE).
"""

from __future__ import annotations

import os
from hashlib import blake2b
from typing import Final

TAG_BITS: Final = 32
"""Low bits of a wire id that hold the tag (a guess is right once in 2**32)."""
_TAG_MASK: Final = (1 << TAG_BITS) - 1
MAX_NUMBER: Final = (1 << 32) - 1
"""The largest request number a wire id holds (ids are uint64)."""
KEY_BYTES: Final = 16


class RequestIds:
    """One seat's wire ids (see the module)."""

    __slots__ = ("_key",)

    def __init__(self, key: bytes | None = None) -> None:
        self._key = os.urandom(KEY_BYTES) if key is None else key

    def wire(self, number: int) -> int:
        """The id request ``number`` (1..MAX_NUMBER) is sent with."""
        return number << TAG_BITS | self._tag(number)

    def number(self, wire_id: int) -> int | None:
        """The number of the request this seat sent with ``wire_id``, or None if it sent
        none with that id."""
        number = wire_id >> TAG_BITS
        if not 0 < number <= MAX_NUMBER or wire_id & _TAG_MASK != self._tag(number):
            return None
        return number

    def _tag(self, number: int) -> int:
        digest = blake2b(number.to_bytes(4, "little"), digest_size=4, key=self._key).digest()
        return int.from_bytes(digest, "little")
