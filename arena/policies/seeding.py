"""Reproducible randomness for served policies: seed from the match, not the clock.

A bot that draws its tie-breaks from ``seed_for_match(info)`` plays the same match the
same way every time, which makes leagues reproducible (a resumed league replays an
unfinished match exactly) without the arena ever sending a deal seed.
"""

from __future__ import annotations

import hashlib

from .base import MatchInfo


def seed_for_match(info: MatchInfo) -> int:
    """A 64-bit seed from the match id and the seat."""
    digest = hashlib.sha256(f"{info.match_id}#{info.seat}".encode()).digest()
    return int.from_bytes(digest[:8], "big")
