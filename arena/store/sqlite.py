"""The SQLite store. One writer connection; WAL so readers (``arena ratings`` while a
league runs, the read connections of ``arena serve``) never block it. A match's result
and its rating update are written in one transaction, so a killed process leaves either
both or neither."""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Final

from .locks import LockBusyError, LockFile
from .migrations import APPLICATION_ID, MIGRATIONS

BUSY_TIMEOUT_S = 30.0
"""How long a Store waits for another process holding the database."""
FILE_MODE: Final = 0o600
"""Permissions of a database file this arena creates (and so of its -wal, -shm and
.lock files): its owner's only."""


class StoreError(RuntimeError):
    """A database the arena cannot use, with what to do about it."""


@dataclass(frozen=True, slots=True)
class SeatRow:
    """One seat of a finished match, as stored."""

    seat: int
    bot: str
    score: int
    game_rank: int
    rank: int
    forfeited: bool
    decisions: int
    think_ms: float
    timeouts: int
    errors: int
    invalid: int


@dataclass(frozen=True, slots=True)
class MatchRow:
    """A finished match, as stored."""

    id: str
    league_id: str
    idx: int
    ladder: str
    seed: int
    end_reason: str
    decisions: int
    wall_s: float
    finished_at: float
    seats: tuple[SeatRow, ...]


@dataclass(frozen=True, slots=True)
class HeldMatch:
    """A finished match waiting to be rated: what ``record_match`` will be given."""

    match: MatchRow
    config: dict[str, Any]
    faults: list[tuple[int, int, str, str, int]]
    record: bytes


@dataclass(frozen=True, slots=True)
class RatingRow:
    """A bot's current rating on a ladder."""

    ladder: str
    bot: str
    mu: float
    sigma: float
    matches: int


@dataclass(frozen=True, slots=True)
class Standing:
    """A bot on a ladder as the leaderboard shows it: its rating, its totals (the keys
    of ``seat_stats``; empty before its first recorded match) and, for a bot submitted
    to ``arena serve``, its status."""

    rating: RatingRow
    stats: dict[str, float]
    status: str | None


def standing_key(mu: float, sigma: float) -> float:
    """The leaderboard's sort key, smallest first: ``3 sigma - mu``, the negated
    conservative skill, computed exactly as the ``ratings_by_standing`` index does."""
    return 3 * sigma - mu


def _stats_columns(table: str) -> str:
    """``bot_stats`` (named ``table`` in the query) as ``seat_stats`` gives it: means,
    not sums."""
    t = table
    return (
        f"{t}.matches AS matches, {t}.wins AS wins, "
        f"CAST({t}.score_sum AS REAL) / {t}.matches AS mean_score, "
        f"CAST({t}.rank_sum AS REAL) / {t}.matches AS mean_rank, {t}.timeouts AS timeouts, "
        f"{t}.errors AS errors, {t}.invalid AS invalid, {t}.forfeits AS forfeits"
    )


_STATS_KEYS = ("matches", "wins", "mean_score", "mean_rank", "timeouts", "errors", "invalid",
               "forfeits")  # fmt: skip


class Store:
    """An open arena database."""

    def __init__(self, path: str | Path, *, create: bool = True, read_only: bool = False) -> None:
        """Open (with ``create``, make) the database and bring its schema up to date.
        ``read_only``: a connection for reads only (``arena serve`` reads on other threads
        than its writer's): the database must exist with the current schema; nothing is
        written, migrated or locked, and the connection may be used (one thread at a
        time) by a thread other than the one that opened it."""
        self.path = Path(path)
        self.commits = 0
        """Write transactions committed through this Store (what readers in the same
        process key caches on: ``arena serve`` writes through one Store)."""
        if read_only:
            create = False
        if not create and not self.path.exists():
            raise StoreError(
                f"no database at {self.path}; give --db the file an `arena league` or "
                "`arena serve` wrote"
            )
        if self.path.exists() and self.path.is_dir():
            raise StoreError(f"{self.path} is a directory; give a database file path")
        self._check_existing_file()
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            # Created 0600 here, not by SQLite (0644): it holds tokens' hashes and records.
            # SQLite gives its -wal and -shm files the database file's permissions.
            if not read_only and not self.path.exists():
                with contextlib.suppress(FileExistsError):  # another process was first
                    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC
                    os.close(os.open(self.path, flags, FILE_MODE))
            self._db = sqlite3.connect(
                self.path,
                isolation_level=None,
                timeout=BUSY_TIMEOUT_S,
                check_same_thread=not read_only,
            )
        except (sqlite3.Error, OSError) as error:
            raise StoreError(f"cannot open database {self.path}: {error}") from None
        self._db.row_factory = sqlite3.Row
        self._locks: LockFile | None = None  # DB.lock, once a lock is taken
        if read_only:
            self._open_for_reading()
            return
        try:
            self._refuse_foreign()  # before any write, WAL mode included
            self._enter_wal()
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.execute("PRAGMA foreign_keys=ON")
            self._migrate()
        except sqlite3.DatabaseError as error:
            self._db.close()
            raise StoreError(f"{self.path} is not a usable arena database: {error}") from None
        except StoreError:
            self._db.close()
            raise
        if create:
            # A writer says it has the database open, so that a league refused before it
            # began never removes a file another process has just started to use.
            # No lock file (a read-only folder, say) loses only that safety.
            with contextlib.suppress(StoreError, LockBusyError, OSError):
                self._lock_file().share_open()

    def _open_for_reading(self) -> None:
        try:
            self._db.execute("PRAGMA query_only=ON")
            version = self._db.execute("PRAGMA user_version").fetchone()[0]
        except sqlite3.DatabaseError as error:
            self._db.close()
            raise StoreError(f"{self.path} is not a usable arena database: {error}") from None
        if version != len(MIGRATIONS):
            self._db.close()
            raise StoreError(
                f"{self.path} has schema version {version}, not this arena's "
                f"({len(MIGRATIONS)}); open it for writing first, which migrates it"
            )

    def _check_existing_file(self) -> None:
        """Refuse, before writing anything, a file that is not an arena database."""
        if not self.path.exists() or self.path.stat().st_size == 0:
            return
        with self.path.open("rb") as handle:
            header = handle.read(100)
        if not header.startswith(b"SQLite format 3\x00"):
            raise StoreError(
                f"{self.path} is not an SQLite database (not touching it); give --db an arena "
                "database, or a new file name for a new one"
            )
        app_id = int.from_bytes(header[68:72], "big")
        if app_id not in (0, APPLICATION_ID):
            raise StoreError(f"{self.path} belongs to another application; not touching it")

    def _refuse_foreign(self) -> None:
        # One read transaction: another process may be making the schema right now, and
        # its tables must not be seen without its version number.
        self._db.execute("BEGIN")
        try:
            version = self._db.execute("PRAGMA user_version").fetchone()[0]
            app_id = self._db.execute("PRAGMA application_id").fetchone()[0]
            tables = self._db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
        finally:
            self._db.execute("COMMIT")
        if version == 0 and app_id == 0 and tables:
            raise StoreError(
                f"{self.path} is an SQLite database of something else (it has tables "
                "but no arena schema); not touching it"
            )

    def _enter_wal(self) -> None:
        """WAL mode (it stays with the file). Switching a new database to it needs the
        file to itself and does not wait for other processes opening it at the same
        moment, so retry for a while, as the busy timeout would."""
        deadline = time.monotonic() + BUSY_TIMEOUT_S
        while True:
            try:
                self._db.execute("PRAGMA journal_mode=WAL")
                return
            except sqlite3.OperationalError as error:
                if "locked" not in str(error) or time.monotonic() > deadline:
                    raise
                time.sleep(0.01)

    def _migrate(self) -> None:
        while (version := self._db.execute("PRAGMA user_version").fetchone()[0]) < len(MIGRATIONS):
            # One script so the migration and its version number commit together
            # (executescript would commit a transaction opened outside it).
            try:
                self._db.executescript(
                    "BEGIN IMMEDIATE;"
                    + MIGRATIONS[version]
                    + f";PRAGMA user_version = {version + 1};"
                    + f"PRAGMA application_id = {APPLICATION_ID};COMMIT;"
                )
            except sqlite3.Error:
                if self._db.in_transaction:
                    self._db.execute("ROLLBACK")
                if self._db.execute("PRAGMA user_version").fetchone()[0] > version:
                    continue  # another process opening the database made it meanwhile
                raise
        if version > len(MIGRATIONS):
            raise StoreError(
                f"{self.path} has schema version {version}, newer than this arena "
                f"({len(MIGRATIONS)}); upgrade the arena"
            )

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """A write transaction (BEGIN IMMEDIATE ... COMMIT, or ROLLBACK on error)."""
        self._db.execute("BEGIN IMMEDIATE")
        try:
            yield self._db
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        self._db.execute("COMMIT")
        self.commits += 1

    def close(self) -> None:
        """Close the connection (and give up every claim)."""
        self._db.close()
        if self._locks is not None:
            self._locks.close()
            self._locks = None

    def claim(self, name: str, busy: str) -> None:
        """Claim ``name`` on this database until ``close()``: any other Store (in this or
        another process) claiming the same name gets StoreError(``busy``). For what must
        never run twice at once on one database (the same league, a server). See
        ``locks.py``: the kernel drops the claim with the process, even after SIGKILL."""
        try:
            self._lock_file().claim(name)
        except LockBusyError:
            raise StoreError(busy) from None
        except OSError as error:
            raise StoreError(f"cannot lock {self.path}.lock: {error}") from None

    def alone(self) -> bool:
        """Whether no other Store has this database open (checked just before removing a
        database nobody used, so another process's data is never deleted)."""
        return self._lock_file().alone()

    def _lock_file(self) -> LockFile:
        if self._locks is None:
            lock_path = self.path.with_name(self.path.name + ".lock")
            try:
                self._locks = LockFile(lock_path)
            except OSError as error:
                raise StoreError(f"cannot open the lock file {lock_path}: {error}") from None
        return self._locks

    def read(self, sql: str, params: Sequence[object] = ()) -> list[sqlite3.Row]:
        """The rows of one read-only query (for modules that add their own tables)."""
        return self._db.execute(sql, params).fetchall()

    # ------------------------------------------------------------------ bots

    def upsert_bot(self, name: str, kind: str, target: str, description: str = "") -> None:
        """Register a bot, or update its kind and target."""
        with self.transaction() as db:
            db.execute(
                "INSERT INTO bots(name, kind, target, description, created_at) "
                "VALUES (?, ?, ?, ?, ?) ON CONFLICT(name) DO UPDATE SET kind=excluded.kind, "
                "target=excluded.target",
                (name, kind, target, description, time.time()),
            )

    # --------------------------------------------------------------- leagues

    def league(self, league_id: str) -> dict[str, Any] | None:
        """A league's stored row, or None."""
        row = self._db.execute("SELECT * FROM leagues WHERE id = ?", (league_id,)).fetchone()
        return dict(row) if row is not None else None

    def create_league(self, league_id: str, config: dict[str, Any]) -> None:
        """Store a new league."""
        with self.transaction() as db:
            db.execute(
                "INSERT INTO leagues(id, config_json, status, created_at) VALUES (?, ?, ?, ?)",
                (league_id, json.dumps(config, sort_keys=True), "running", time.time()),
            )

    def finish_league(self, league_id: str) -> None:
        """Mark a league finished."""
        with self.transaction() as db:
            db.execute(
                "UPDATE leagues SET status='finished', finished_at=? WHERE id=?",
                (time.time(), league_id),
            )

    # --------------------------------------------------------------- matches

    def record_match(
        self,
        match: MatchRow,
        config: dict[str, Any],
        faults: Sequence[tuple[int, int, str, str, int]],
        record: bytes,
        ratings: Sequence[RatingRow],
    ) -> None:
        """A finished match, its seats, faults, record and the ratings after it: one
        transaction."""
        with self.transaction() as db:
            db.execute(
                "INSERT INTO matches(id, league_id, idx, ladder, seed, config_json, end_reason,"
                " decisions, wall_s, finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    match.id,
                    match.league_id,
                    match.idx,
                    match.ladder,
                    match.seed,
                    json.dumps(config, sort_keys=True),
                    match.end_reason,
                    match.decisions,
                    match.wall_s,
                    match.finished_at,
                ),
            )
            db.executemany(
                "INSERT INTO seats(match_id, seat, bot, score, game_rank, rank, forfeited, "
                "decisions, think_ms, timeouts, errors, invalid, league_id, finished_at, idx) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    (
                        match.id,
                        s.seat,
                        s.bot,
                        s.score,
                        s.game_rank,
                        s.rank,
                        int(s.forfeited),
                        s.decisions,
                        s.think_ms,
                        s.timeouts,
                        s.errors,
                        s.invalid,
                        match.league_id,
                        match.finished_at,
                        match.idx,
                    )
                    for s in match.seats
                ],
            )
            db.executemany(
                "INSERT INTO bot_stats VALUES (?, ?, 1, ?, ?, ?, ?, ?, ?, ?) "
                "ON CONFLICT(ladder, bot) DO UPDATE SET matches = matches + 1, "
                "wins = wins + excluded.wins, score_sum = score_sum + excluded.score_sum, "
                "rank_sum = rank_sum + excluded.rank_sum, "
                "timeouts = timeouts + excluded.timeouts, errors = errors + excluded.errors, "
                "invalid = invalid + excluded.invalid, forfeits = forfeits + excluded.forfeits",
                [
                    (
                        match.ladder,
                        s.bot,
                        int(s.rank == 1),
                        s.score,
                        s.rank,
                        s.timeouts,
                        s.errors,
                        s.invalid,
                        int(s.forfeited),
                    )
                    for s in match.seats
                ],
            )
            db.executemany(
                "INSERT INTO faults VALUES (?, ?, ?, ?, ?, ?)",
                [(match.id, *fault) for fault in faults],
            )
            db.execute("INSERT INTO records VALUES (?, ?)", (match.id, record))
            db.execute(
                "DELETE FROM held_matches WHERE league_id = ? AND idx = ?",
                (match.league_id, match.idx),
            )
            for rating in ratings:
                db.execute(
                    "INSERT INTO ratings VALUES (?, ?, ?, ?, ?) ON CONFLICT(ladder, bot) DO "
                    "UPDATE SET mu=excluded.mu, sigma=excluded.sigma, matches=excluded.matches",
                    (rating.ladder, rating.bot, rating.mu, rating.sigma, rating.matches),
                )
                db.execute(
                    "INSERT INTO rating_history VALUES (?, ?, ?, ?, ?)",
                    (rating.ladder, rating.bot, match.id, rating.mu, rating.sigma),
                )

    def hold_match(
        self,
        match: MatchRow,
        config: dict[str, Any],
        faults: Sequence[tuple[int, int, str, str, int]],
        record: bytes,
    ) -> None:
        """Keep a finished match that cannot be rated yet (an earlier one is still
        running); ``record_match`` of the same match removes it."""
        data = {"match": asdict(match), "config": config, "faults": [list(f) for f in faults]}
        with self.transaction() as db:
            db.execute(
                "INSERT OR REPLACE INTO held_matches VALUES (?, ?, ?, ?)",
                (match.league_id, match.idx, json.dumps(data, sort_keys=True), record),
            )

    def held_matches(self, league_id: str) -> dict[int, HeldMatch]:
        """A league's held matches by index."""
        rows = self._db.execute(
            "SELECT idx, data_json, record FROM held_matches WHERE league_id = ?", (league_id,)
        ).fetchall()
        held = {}
        for row in rows:
            data = json.loads(row["data_json"])
            fields = data["match"]
            match = MatchRow(
                **{**fields, "seats": tuple(SeatRow(**seat) for seat in fields["seats"])}
            )
            faults = [(f[0], f[1], f[2], f[3], f[4]) for f in data["faults"]]
            held[row["idx"]] = HeldMatch(match, data["config"], faults, bytes(row["record"]))
        return held

    def matches(
        self, *, league_id: str | None = None, bot: str | None = None, limit: int | None = None
    ) -> list[MatchRow]:
        """Finished matches, newest last (optionally of one league or one bot; with
        ``limit``, the newest ``limit``, read newest first through an index)."""
        if league_id is not None and limit is not None:
            return self.match_page(league_id, bot=bot, before=None, limit=limit)[::-1]
        sql = "SELECT * FROM matches"
        where: list[str] = []
        params: list[object] = []
        if league_id is not None:
            where.append("league_id = ?")
            params.append(league_id)
        if bot is not None:
            where.append("id IN (SELECT match_id FROM seats WHERE bot = ?)")
            params.append(bot)
        if where:
            sql += " WHERE " + " AND ".join(where)
        if limit is None:
            rows = self._db.execute(sql + " ORDER BY finished_at, idx", params).fetchall()
        else:
            rows = self._db.execute(
                sql + " ORDER BY finished_at DESC, idx DESC LIMIT ?", [*params, limit]
            ).fetchall()[::-1]
        return self._match_rows(rows)

    def match_page(
        self,
        league_id: str,
        *,
        bot: str | None = None,
        before: tuple[float, int] | None = None,
        limit: int,
    ) -> list[MatchRow]:
        """At most ``limit`` finished matches of a league (of one bot), newest first:
        by finish time, then index, both descending, starting after ``before`` (the
        ``(finished_at, idx)`` of the last match of the previous page). Indexed: the cost
        is the page's, whatever the history holds."""
        if bot is None:
            sql = "SELECT * FROM matches WHERE league_id = ?"
            params: list[object] = [league_id]
            order = "finished_at DESC, idx DESC"
            if before is not None:
                sql += " AND (finished_at, idx) < (?, ?)"
                params += before
        else:
            # The seat rows carry their match's league, finish time and index (migration
            # 4) so that one bot's matches come in order from the seats_by_bot index.
            sql = (
                "SELECT m.* FROM seats AS s JOIN matches AS m ON m.id = s.match_id "
                "WHERE s.bot = ? AND s.league_id = ?"
            )
            params = [bot, league_id]
            order = "s.finished_at DESC, s.idx DESC"
            if before is not None:
                sql += " AND (s.finished_at, s.idx) < (?, ?)"
                params += before
        rows = self._db.execute(f"{sql} ORDER BY {order} LIMIT ?", [*params, limit]).fetchall()
        return self._match_rows(rows)

    def match(self, match_id: str) -> MatchRow | None:
        """One finished match."""
        row = self._db.execute("SELECT * FROM matches WHERE id = ?", (match_id,)).fetchone()
        return self._match_row(row) if row is not None else None

    def _match_rows(self, rows: Sequence[sqlite3.Row]) -> list[MatchRow]:
        """Match rows with their seats (read in batches, not one query per match)."""
        seats: dict[str, list[sqlite3.Row]] = {row["id"]: [] for row in rows}
        ids = list(seats)
        for start in range(0, len(ids), 500):
            batch = ids[start : start + 500]
            for seat in self._db.execute(
                f"SELECT * FROM seats WHERE match_id IN ({', '.join('?' * len(batch))}) "
                "ORDER BY match_id, seat",
                batch,
            ):
                seats[seat["match_id"]].append(seat)
        return [self._match_row(row, seats[row["id"]]) for row in rows]

    def _match_row(self, row: sqlite3.Row, seats: Sequence[sqlite3.Row] | None = None) -> MatchRow:
        if seats is None:
            seats = self._db.execute(
                "SELECT * FROM seats WHERE match_id = ? ORDER BY seat", (row["id"],)
            ).fetchall()
        return MatchRow(
            id=row["id"],
            league_id=row["league_id"],
            idx=row["idx"],
            ladder=row["ladder"],
            seed=row["seed"],
            end_reason=row["end_reason"],
            decisions=row["decisions"],
            wall_s=row["wall_s"],
            finished_at=row["finished_at"],
            seats=tuple(
                SeatRow(
                    seat=s["seat"],
                    bot=s["bot"],
                    score=s["score"],
                    game_rank=s["game_rank"],
                    rank=s["rank"],
                    forfeited=bool(s["forfeited"]),
                    decisions=s["decisions"],
                    think_ms=s["think_ms"],
                    timeouts=s["timeouts"],
                    errors=s["errors"],
                    invalid=s["invalid"],
                )
                for s in seats
            ),
        )

    def finished_indices(self, league_id: str) -> list[int]:
        """Indices of a league's finished matches."""
        rows = self._db.execute(
            "SELECT idx FROM matches WHERE league_id = ? ORDER BY idx", (league_id,)
        ).fetchall()
        return [row[0] for row in rows]

    def record(self, match_id: str) -> bytes | None:
        """A match's compressed record."""
        row = self._db.execute(
            "SELECT record FROM records WHERE match_id = ?", (match_id,)
        ).fetchone()
        return bytes(row[0]) if row is not None else None

    # --------------------------------------------------------------- ratings

    def ladders(self) -> list[str]:
        """Every ladder with ratings."""
        return [r[0] for r in self._db.execute("SELECT DISTINCT ladder FROM ratings ORDER BY 1")]

    def ratings(self, ladder: str) -> list[RatingRow]:
        """Current ratings on a ladder."""
        rows = self._db.execute(
            "SELECT * FROM ratings WHERE ladder = ? ORDER BY bot", (ladder,)
        ).fetchall()
        return [RatingRow(r["ladder"], r["bot"], r["mu"], r["sigma"], r["matches"]) for r in rows]

    def rating_history(self, ladder: str) -> list[tuple[str, str, float, float]]:
        """(bot, match id, mu, sigma) after each rated match, in match order."""
        rows = self._db.execute(
            "SELECT h.bot, h.match_id, h.mu, h.sigma FROM rating_history h "
            "JOIN matches m ON m.id = h.match_id WHERE h.ladder = ? "
            "ORDER BY m.finished_at, m.idx",
            (ladder,),
        ).fetchall()
        return [(r[0], r[1], r[2], r[3]) for r in rows]

    def seat_stats(self, ladder: str) -> dict[str, dict[str, float]]:
        """Per bot on a ladder: matches, wins, mean score, mean rank and fault counts
        (from ``bot_stats``, kept with every recorded match: no scan of the seats)."""
        rows = self._db.execute(
            f"SELECT st.bot, {_stats_columns('st')} FROM bot_stats AS st WHERE st.ladder = ?",
            (ladder,),
        ).fetchall()
        return {r["bot"]: {k: r[k] for k in _STATS_KEYS} for r in rows}

    def standings(
        self,
        ladder: str,
        *,
        after: tuple[float, str] | None = None,
        limit: int,
        include_retired: bool = True,
    ) -> list[Standing]:
        """At most ``limit`` bots of a ladder in leaderboard order (conservative skill
        mu - 3 sigma, best first, then name), starting after ``after`` (the
        ``standing_key`` and name of the last bot of the previous page); without retired
        submitted bots unless ``include_retired``. Indexed (``ratings_by_standing``): the
        cost is the page's (and the retired bots passed over), whatever the history."""
        sql = (
            f"SELECT r.ladder, r.bot, r.mu, r.sigma, r.matches AS rated, b.status, "
            f"{_stats_columns('st')} "
            "FROM ratings AS r "
            "LEFT JOIN bots AS b ON b.name = r.bot AND b.kind = 'submitted' "
            "LEFT JOIN bot_stats AS st ON st.ladder = r.ladder AND st.bot = r.bot "
            "WHERE r.ladder = ?"
        )
        params: list[object] = [ladder]
        if after is not None:
            # The first term seeks in the index (a row value alone would scan from the
            # ladder's first bot); the second leaves out what the previous page showed.
            sql += " AND 3 * r.sigma - r.mu >= ? AND (3 * r.sigma - r.mu, r.bot) > (?, ?)"
            params += [after[0], *after]
        if not include_retired:
            sql += " AND b.status IS NOT 'retired'"
        sql += " ORDER BY 3 * r.sigma - r.mu, r.bot LIMIT ?"
        return self._standing_rows(self._db.execute(sql, [*params, limit]).fetchall())

    def ladder_seats(self, ladder: str) -> Iterator[tuple[str, int, str, int, int]]:
        """Every seat of every finished match of a ladder, in match order then seat:
        (match id, seat, bot, score, rank). The whole history of the ladder, streamed:
        for offline reports (``arena ratings --seats/--payoff``), never a public read."""
        cursor = self._db.execute(
            "SELECT s.match_id, s.seat, s.bot, s.score, s.rank FROM matches AS m "
            "JOIN seats AS s ON s.match_id = m.id WHERE m.ladder = ? "
            "ORDER BY m.finished_at, m.idx, s.seat",
            (ladder,),
        )
        for row in cursor:
            yield (row[0], row[1], row[2], row[3], row[4])

    def ladder_ratings(self, ladder: str, *, include_retired: bool) -> list[RatingRow]:
        """Every rating of a ladder in leaderboard order (without retired submitted bots
        unless ``include_retired``): one row per bot, never the history; what rank
        intervals are computed from (the live ladder keeps them: server/intervals_cache)."""
        sql = (
            "SELECT r.ladder, r.bot, r.mu, r.sigma, r.matches FROM ratings AS r "
            "LEFT JOIN bots AS b ON b.name = r.bot AND b.kind = 'submitted' "
            "WHERE r.ladder = ?"
        )
        if not include_retired:
            sql += " AND b.status IS NOT 'retired'"
        sql += " ORDER BY 3 * r.sigma - r.mu, r.bot"
        rows = self._db.execute(sql, [ladder]).fetchall()
        return [RatingRow(r["ladder"], r["bot"], r["mu"], r["sigma"], r["matches"]) for r in rows]

    def _standing_rows(self, rows: list[sqlite3.Row]) -> list[Standing]:
        return [
            Standing(
                RatingRow(r["ladder"], r["bot"], r["mu"], r["sigma"], r["rated"]),
                {k: r[k] for k in _STATS_KEYS} if r["matches"] is not None else {},
                r["status"],
            )
            for r in rows
        ]
