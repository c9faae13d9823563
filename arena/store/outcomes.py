"""What the joint model of a ladder (arena/league/joint.py) keeps of each rated match:
its choice sets, counted.

A rated match's ranking is read best first: the best group of seats (one bot, or several
that tied) was chosen from every bot of the match, the next group from those left, and
so on. Each (choice set, chosen group) pair is counted per ladder in ``outcome_counts``,
committed in the same transaction as the match and its ratings; these counts are all
the model needs, so it never reads the history again.
"""

from __future__ import annotations

import itertools
import json
from collections import Counter
from collections.abc import Mapping

from .connection import Connection

Outcome = tuple[tuple[str, ...], tuple[str, ...]]
"""A choice set (bot names, sorted) and the bots chosen from it together (sorted)."""


def outcomes_of(ranks: Mapping[str, int]) -> list[Outcome]:
    """The choice sets of one rated match (each bot's rank, 1 = best, equal = tie):
    best group first, each group chosen from itself and every bot below it. The last
    group alone says nothing when it is one bot, and is left out."""
    by_rank = sorted(ranks.items(), key=lambda item: (item[1], item[0]))
    groups = [[bot for bot, _ in group] for _, group in itertools.groupby(by_rank, lambda x: x[1])]
    out: list[Outcome] = []
    for g, group in enumerate(groups):
        remaining = tuple(sorted(bot for later in groups[g:] for bot in later))
        if len(remaining) > 1:
            out.append((remaining, tuple(sorted(group))))
    return out


def encode(names: tuple[str, ...]) -> str:
    """A sorted tuple of bot names as the store keeps it (JSON: any name survives)."""
    return json.dumps(list(names), ensure_ascii=False, separators=(",", ":"))


def decode(text: str) -> tuple[str, ...]:
    return tuple(json.loads(text))


def rows(ladder: str, ranks: Mapping[str, int]) -> list[tuple[str, str, str]]:
    """The ``outcome_counts`` keys one rated match adds to (each counted once)."""
    return [(ladder, encode(members), encode(chosen)) for members, chosen in outcomes_of(ranks)]


UPSERT = (
    "INSERT INTO outcome_counts VALUES (?, ?, ?, ?) ON CONFLICT(ladder, members, chosen) "
    "DO UPDATE SET count = outcome_counts.count + excluded.count"
)


def backfill(db: Connection) -> None:
    """Count the choice sets of every rated match a database already holds (a match is
    rated when it has rows in ``rating_history``), read seat by seat. A duplicate
    league rated by deal groups (``--rate-groups``) is counted table by table here: its
    group rankings were never stored."""
    _count(db, "s.match_id IN (SELECT DISTINCT match_id FROM rating_history)", ())


def count_league(db: Connection, league_id: str, first_index: int) -> None:
    """Count the matches of a league from ``first_index`` on as rated (what the synthetic
    histories of the benchmarks write in bulk)."""
    _count(db, "s.league_id = ? AND s.idx >= ?", (league_id, first_index))


def _count(db: Connection, where: str, parameters: tuple[object, ...]) -> None:
    counts: Counter[tuple[str, str, str]] = Counter()
    cursor = db.execute(
        "SELECT m.ladder, s.match_id, s.bot, s.rank FROM seats AS s "
        f"JOIN matches AS m ON m.id = s.match_id WHERE {where} ORDER BY s.match_id",
        parameters,
    )
    for (ladder, _), seats in itertools.groupby(cursor, key=lambda r: (r[0], r[1])):
        counts.update(rows(ladder, {row[2]: int(row[3]) for row in seats}))
    db.executemany(UPSERT, [(*key, count) for key, count in counts.items()])
