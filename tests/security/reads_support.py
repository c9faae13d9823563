"""Shared by the tests/security/test_reads_*.py tests: a serve database with a history
in it, an `arena serve` started in this process, and a spy on every SQLite connection
(what runs where, and how much work SQLite does) that needs no clock.

Written against the public API only (``sqlite3.connect``, ``start_arena``,
``ServeConfig``), so that the tests run, and fail, on code from before the fixes too.
"""

from __future__ import annotations

import sqlite3
import threading
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from arena.store.migrations import APPLICATION_ID, MIGRATIONS
from arena.store.registry import SUBMITTED, BotStatus

LADDER = "serve/abluxxen/amigo/4p"
"""The ladder of an arena with the default game and preset and tables of 4."""


def history_db(path: Path, *, matches: int, bots: int, other_league: bool = False) -> Path:
    """A serve database: ``bots`` suspended bots and ``matches`` recorded ladder matches
    among them (and, with ``other_league``, a league's ladder beside it). Written with
    plain SQL in the schema of the first three migrations (that of a35e272, before the
    fixes), so that the store of the commit under test migrates it as it would a real
    database of that time."""
    db = sqlite3.connect(path, isolation_level=None)
    try:
        db.executescript(
            "BEGIN;" + ";".join(MIGRATIONS[:3]) + f";PRAGMA user_version = 3;"
            f"PRAGMA application_id = {APPLICATION_ID};COMMIT;"
        )
        db.execute("BEGIN")
        names = [f"bot{i:05d}" for i in range(bots)]
        db.executemany(
            "INSERT INTO bots(name, kind, target, owner, description, status, status_reason,"
            " created_at) VALUES (?, ?, ?, 'history', 'a bot of long ago', ?, 'suspended', 0)",
            [(n, SUBMITTED, f"127.0.0.1:{20000 + i}", str(BotStatus.SUSPENDED))
             for i, n in enumerate(names)],
        )  # fmt: skip
        leagues = [(LADDER, LADDER, matches)]
        if other_league:
            leagues.append(("lg", "lg/abluxxen/amigo/4p", 40))
        for league, ladder, count in leagues:
            db.execute(
                "INSERT INTO leagues(id, config_json, status, created_at) VALUES (?, ?, "
                "'running', 0)",
                (league, '{"serve": {"preset": "amigo", "table_size": 4}}'),
            )
            for i in range(count):
                match_id = f"{league}/{i:06d}"
                db.execute(
                    "INSERT INTO matches(id, league_id, idx, ladder, seed, config_json, "
                    "end_reason, decisions, wall_s, finished_at) VALUES (?, ?, ?, ?, ?, '{}', "
                    "'score_limit', 200, 0.1, ?)",
                    (match_id, league, i, ladder, i, 1.7e9 + i),
                )
                seated = [names[(5 * i + s * (1 + i % 3)) % bots] for s in range(4)]
                db.executemany(
                    "INSERT INTO seats(match_id, seat, bot, score, game_rank, rank, forfeited,"
                    " decisions, think_ms, timeouts, errors, invalid) "
                    "VALUES (?, ?, ?, ?, ?, ?, 0, 50, 1.0, 0, 0, 0)",
                    [(match_id, s, bot, 10 - 5 * s, s + 1, s + 1) for s, bot in enumerate(seated)],
                )
                db.execute("INSERT INTO records VALUES (?, ?)", (match_id, b"\x1f\x8b" * 200))
            db.executemany(
                "INSERT INTO ratings VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                [(ladder, n, 20 + i % 97 / 10, 2 + i % 13 / 10, 1) for i, n in enumerate(names)],
            )
        db.execute("COMMIT")
    finally:
        db.close()
    return path


@dataclass
class SqliteSpy:
    """Counts SQLite's work on every connection opened while installed (its progress
    handler, every ``EVERY`` virtual-machine instructions) and lets a test stop a query
    where it runs (``hold``)."""

    EVERY = 100
    ticks: int = 0
    hold: Callable[[str], None] | None = None
    threads: list[str] = field(default_factory=list)
    by_thread: Counter[str] = field(default_factory=Counter)
    """Ticks by the name of the thread that ran the query."""

    def ticks_of(self, prefix: str) -> int:
        """The ticks of the threads whose name starts with ``prefix`` (e.g. the public
        reads' ``arena-read``, not a ladder or a background refresh running meanwhile)."""
        return sum(n for name, n in self.by_thread.items() if name.startswith(prefix))

    def install(self, monkeypatch: pytest.MonkeyPatch) -> None:
        spy = self
        real_connect = sqlite3.connect

        class SpyConnection(sqlite3.Connection):
            def __init__(self, *args: Any, **kwargs: Any) -> None:
                super().__init__(*args, **kwargs)
                self.set_progress_handler(spy._tick, spy.EVERY)

            def execute(self, sql: str, parameters: Any = (), /) -> sqlite3.Cursor:
                if spy.hold is not None:
                    spy.hold(sql)
                return super().execute(sql, parameters)

        def connect(*args: Any, **kwargs: Any) -> sqlite3.Connection:
            kwargs.setdefault("factory", SpyConnection)
            connection: sqlite3.Connection = real_connect(*args, **kwargs)
            return connection

        monkeypatch.setattr(sqlite3, "connect", connect)

    def _tick(self) -> int:
        self.ticks += 1
        self.by_thread[threading.current_thread().name] += 1
        return 0


def current_thread_name() -> str:
    """The name of the thread running now."""
    return threading.current_thread().name
