"""Synthetic history for benchmarks and tests: many recorded matches (and submitted bots)
written straight into a database, in one transaction, in the shapes the arena writes.

Nothing here plays a game: matches, seats, records, rating history, per-bot totals and
ratings are made by SQL from a few rules (seats rotate over the bots, ranks are a
permutation, a fault now and then), and the joint model's counts by one pass over the new
seats, so a million matches take a few minutes, not days.
The same rules are written once for SQLite and once for PostgreSQL (their ways of
counting rows and drawing random numbers differ); the random parts differ, the rest is
equal.
``scripts/bench/bench_reads.py`` serves such a history; tests build small ones.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from . import outcomes
from .base import Store
from .connection import Connection
from .registry import SUBMITTED, BotStatus, ensure_league

END_REASONS = ("score_limit", "deck_exhausted", "out_of_cards")
"""End reasons the synthetic matches cycle through (words, as a game gives them)."""
BUILD_CACHE_KB = 1024 * 1024
"""SQLite's page cache while a history is written (1 GiB; given back after)."""


def add_bots(
    store: Store,
    names: Sequence[str],
    *,
    owner: str,
    status: BotStatus = BotStatus.SUSPENDED,
    description: str = "",
    endpoint_port: int = 20000,
) -> None:
    """Submitted bots of one owner, in one transaction; bot ``i`` at
    ``127.0.0.1:endpoint_port+i`` (nothing listens there: give them a status the
    ladder does not verify or seat, as the default does)."""
    now = time.time()
    with store.transaction() as db:
        db.executemany(
            "INSERT INTO bots(name, kind, target, owner, description, status, status_reason,"
            " created_at, updated_at, version) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
                (
                    name,
                    SUBMITTED,
                    f"127.0.0.1:{endpoint_port + i}",
                    owner,
                    description,
                    str(status),
                    "" if status is BotStatus.ACTIVE else f"{status} (synthetic history)",
                    now,
                    now,
                    "synthetic 1.0",
                )
                for i, name in enumerate(names)
            ],
        )


def add_matches(
    store: Store,
    *,
    league_id: str,
    ladder: str,
    bots: Sequence[str],
    count: int,
    table_size: int = 4,
    first_index: int = 0,
    start: float = 1.7e9,
    step_s: float = 0.5,
    same_time: int = 1,
    record: bytes = b"",
    history: bool = True,
    league_config: dict[str, Any] | None = None,
) -> None:
    """``count`` finished matches of ``league_id`` on ``ladder`` among ``bots``, indices
    from ``first_index``, in one transaction, with their seats, records (each a copy of
    ``record``), rating history (if ``history``), and the ladder's per-bot totals and
    ratings brought up to date. Match ``i`` finishes at ``start + (i // same_time) *
    step_s`` (``same_time`` > 1 makes ties, which the index breaks). Seat ``s`` of match
    ``i`` holds bot ``(5 i + s (1 + i % 3)) % len(bots)`` and ranks ``(i // 7 + s) % table_size
    + 1``; about one seat in 50 has a timeout."""
    if len(bots) <= 3 * (table_size - 1):
        raise ValueError(f"give more than {3 * (table_size - 1)} bots for tables of {table_size}")
    ensure_league(store, league_id, league_config or {"synthetic": True})
    if store.dialect == "postgresql":
        _add_matches_postgres(store, league_id, ladder, bots, count, table_size, first_index,
                              start, step_s, same_time, record, history)  # fmt: skip
        return
    cache = store.read("PRAGMA cache_size")[0][0]
    # The indexes by bot and the rating history are written out of key order: with the
    # default 2 MB page cache a million matches take several times longer.
    store.read(f"PRAGMA cache_size = {-BUILD_CACHE_KB}")
    try:
        _add_matches(store, league_id, ladder, bots, count, table_size, first_index, start,
                     step_s, same_time, record, history)  # fmt: skip
    finally:
        store.read(f"PRAGMA cache_size = {int(cache)}")


def _add_matches(
    store: Store,
    league_id: str,
    ladder: str,
    bots: Sequence[str],
    count: int,
    table_size: int,
    first_index: int,
    start: float,
    step_s: float,
    same_time: int,
    record: bytes,
    history: bool,
) -> None:
    with store.transaction() as db:
        db.execute("CREATE TEMP TABLE synth_bots (n INTEGER PRIMARY KEY, name TEXT NOT NULL)")
        db.executemany("INSERT INTO synth_bots VALUES (?, ?)", list(enumerate(bots)))
        db.execute("CREATE TEMP TABLE synth_seats (seat INTEGER PRIMARY KEY)")
        db.executemany("INSERT INTO synth_seats VALUES (?)", [(s,) for s in range(table_size)])
        db.execute(
            "WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ? - 1) "
            "INSERT INTO matches(id, league_id, idx, ladder, seed, config_json, end_reason, "
            "decisions, wall_s, finished_at) "
            "SELECT printf('%s/%06d', ?, ? + i), ?, ? + i, ?, abs(random()) % 9000000000000, "
            "?, CASE i % 3 WHEN 0 THEN ? WHEN 1 THEN ? ELSE ? END, 150 + abs(random()) % 150, "
            "0.05 + (abs(random()) % 1000) / 10000.0, ? + (i / ?) * ? FROM n",
            (
                count,
                league_id,
                first_index,
                league_id,
                first_index,
                ladder,
                '{"synthetic":true}',
                *END_REASONS,
                start,
                same_time,
                step_s,
            ),
        )
        # Seats: the match's number in this batch picks its bots and the rank order.
        db.execute(
            "INSERT INTO seats(match_id, seat, bot, score, game_rank, rank, forfeited, "
            "decisions, think_ms, timeouts, errors, invalid, league_id, finished_at, idx) "
            "SELECT id, seat, name, 30 - 12 * rank + abs(random()) % 7, rank, rank, 0, "
            "30 + abs(random()) % 40, (abs(random()) % 100000) / 1000.0, "
            "abs(random()) % 50 = 0, 0, 0, league_id, finished_at, idx FROM ("
            "SELECT m.id, s.seat, b.name, ((m.idx - :first) / 7 + s.seat) % :size + 1 AS rank, "
            "m.league_id, m.finished_at, m.idx "
            "FROM matches AS m JOIN synth_seats AS s JOIN synth_bots AS b "
            "ON b.n = (5 * (m.idx - :first) + s.seat * (1 + (m.idx - :first) % 3)) % :bots "
            "WHERE m.league_id = :league AND m.idx >= :first)",
            {"first": first_index, "size": table_size, "bots": len(bots), "league": league_id},
        )
        _after_seats(db, "sqlite", league_id, ladder, first_index, record, history)
        db.execute("DROP TABLE temp.synth_bots")
        db.execute("DROP TABLE temp.synth_seats")


def _add_matches_postgres(
    store: Store,
    league_id: str,
    ladder: str,
    bots: Sequence[str],
    count: int,
    table_size: int,
    first_index: int,
    start: float,
    step_s: float,
    same_time: int,
    record: bytes,
    history: bool,
) -> None:
    """``_add_matches`` in PostgreSQL's SQL (``generate_series``, ``random()`` in [0, 1))."""
    with store.transaction() as db:
        db.execute(
            "INSERT INTO matches(id, league_id, idx, ladder, seed, config_json, end_reason, "
            "decisions, wall_s, finished_at) "
            "SELECT ? || '/' || CASE WHEN ? + i < 1000000 THEN lpad((? + i)::text, 6, '0') "
            "ELSE (? + i)::text END, ?, ? + i, ?, floor(random() * 9000000000000)::bigint, ?, "
            "(ARRAY[?, ?, ?])[i % 3 + 1], 150 + floor(random() * 150)::int, "
            "0.05 + floor(random() * 1000) / 10000.0, ? + (i / ?) * ? "
            "FROM generate_series(0, ? - 1) AS i",
            (league_id, first_index, first_index, first_index, league_id, first_index, ladder,
             '{"synthetic":true}', *END_REASONS, start, same_time, step_s, count),
        )  # fmt: skip
        db.execute(
            "INSERT INTO seats(match_id, seat, bot, score, game_rank, rank, forfeited, "
            "decisions, think_ms, timeouts, errors, invalid, league_id, finished_at, idx) "
            "SELECT id, seat, bots[1 + (5 * n + seat * (1 + n % 3)) % ?], "
            "30 - 12 * rank + floor(random() * 7)::int, rank, rank, 0, "
            "30 + floor(random() * 40)::int, floor(random() * 100000) / 1000.0, "
            "(random() < 0.02)::int, 0, 0, league_id, finished_at, idx FROM ("
            "SELECT m.id, s.seat, m.idx - ? AS n, ((m.idx - ?) / 7 + s.seat) % ? + 1 AS rank, "
            "m.league_id, m.finished_at, m.idx, ?::text[] AS bots "
            "FROM matches AS m CROSS JOIN generate_series(0, ? - 1) AS s(seat) "
            "WHERE m.league_id = ? AND m.idx >= ?) AS t",
            (len(bots), first_index, first_index, table_size, list(bots), table_size,
             league_id, first_index),
        )  # fmt: skip
        _after_seats(db, "postgresql", league_id, ladder, first_index, record, history)
    # The planner's statistics, so that reads take the indexes at once.
    with store.transaction() as db:
        db.execute("ANALYZE matches, seats, ratings, bot_stats, rating_history")


def _random_below(dialect: str, n: int) -> str:
    """SQL for a random whole number in [0, n) in ``dialect``."""
    return f"(abs(random()) % {n})" if dialect == "sqlite" else f"floor(random() * {n})"


def _after_seats(
    db: Connection,
    dialect: str,
    league_id: str,
    ladder: str,
    first_index: int,
    record: bytes,
    history: bool,
) -> None:
    """The new matches' records and rating history, then the ladder's totals, ratings
    and the league's match counter (the same SQL on both backends but for ``random``)."""
    mu, sigma = _random_below(dialect, 1000), _random_below(dialect, 700)
    db.execute(
        "INSERT INTO records SELECT id, ? FROM matches WHERE league_id = ? AND idx >= ?",
        (record, league_id, first_index),
    )
    if history:
        db.execute(
            f"INSERT INTO rating_history SELECT ?, s.bot, s.match_id, 20 + {mu} / 100.0, "
            f"1 + {sigma} / 100.0 FROM seats AS s WHERE s.league_id = ? AND s.idx >= ?",
            (ladder, league_id, first_index),
        )
    outcomes.count_league(db, league_id, first_index)
    db.execute("DELETE FROM bot_stats WHERE ladder = ?", (ladder,))
    db.execute(
        "INSERT INTO bot_stats SELECT m.ladder, s.bot, count(*), "
        "sum(CASE WHEN s.rank = 1 THEN 1 ELSE 0 END), sum(s.score), sum(s.rank), "
        "sum(s.timeouts), sum(s.errors), sum(s.invalid), sum(s.forfeited) "
        "FROM seats AS s JOIN matches AS m ON m.id = s.match_id "
        "WHERE m.ladder = ? GROUP BY m.ladder, s.bot",
        (ladder,),
    )
    db.execute(
        f"INSERT INTO ratings SELECT ladder, bot, 20 + {mu} / 100.0, 1 + {sigma} / 100.0, "
        "matches FROM bot_stats WHERE ladder = ? "
        "ON CONFLICT(ladder, bot) DO UPDATE SET matches = excluded.matches",
        (ladder,),
    )
    db.execute(
        "INSERT INTO match_counters VALUES (?, (SELECT max(idx) + 1 FROM matches WHERE "
        "league_id = ?)) ON CONFLICT(league_id) DO UPDATE SET next_idx = excluded.next_idx",
        (league_id, league_id),
    )
