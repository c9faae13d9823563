"""Ranking by score with the tie-breaks of RULES.md §7."""

from __future__ import annotations

from collections.abc import Sequence


def rank(scores: Sequence[int], hand_cards: Sequence[int], tiebreak: str) -> tuple[int, ...]:
    """Competition ranks (1 = best, tied seats share a rank, the next rank skips).

    ``fewest_hand_cards``: among equal scores fewer hand cards ranks higher, still tied
    if equal; ``shared``: equal scores share the rank.
    """
    if tiebreak == "shared":
        keys = [(-s, 0) for s in scores]
    else:
        keys = [(-s, h) for s, h in zip(scores, hand_cards, strict=True)]
    return tuple(1 + sum(1 for other in keys if other < key) for key in keys)
