"""A duplicate league replays each deal at other tables, never to a bot that saw it."""

from __future__ import annotations

import asyncio
import sqlite3
from collections import defaultdict
from pathlib import Path

from arena.league.config import Entrant, LeagueConfig
from arena.league.runner import run_league
from arena.referee.record import decode_record, game_record
from arena.store import open_store


def test_duplicate_deals_reach_each_bot_at_most_once(tmp_path: Path) -> None:
    db = tmp_path / "dup.db"
    config = LeagueConfig(
        bots=tuple(Entrant(f"b{i}", builtin="random" if i % 2 else "greedy") for i in range(7)),
        name="dup",
        table_size=3,
        matches=12,
        duplicate=True,
        seed=5,
        db=str(db),
    )
    store = open_store(db)
    try:
        asyncio.run(run_league(config, store))
    finally:
        store.close()
    with sqlite3.connect(db) as conn:
        rows = conn.execute(
            "SELECT m.seed, m.id, s.bot FROM matches m JOIN seats s ON s.match_id = m.id"
        ).fetchall()
    bots_by_deal: dict[int, list[str]] = defaultdict(list)
    tables_by_deal: dict[int, set[str]] = defaultdict(set)
    for seed, match, bot in rows:
        bots_by_deal[seed].append(bot)
        tables_by_deal[seed].add(match)
    assert len(rows) == 12 * 3
    assert all(len(tables) == 2 for tables in tables_by_deal.values())  # 7 bots: 2 tables
    for bots in bots_by_deal.values():
        assert len(bots) == len(set(bots)), "a bot played the same deal twice"
    store = open_store(db, create=False)
    try:
        for tables in tables_by_deal.values():
            decks = set()
            for match in tables:
                data = store.record(match)
                assert data is not None
                decks.add(str(game_record(decode_record(data))["decks"]))
            assert len(decks) == 1, "the tables of one deal must play the same shuffle"
    finally:
        store.close()
