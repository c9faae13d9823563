"""The arena's database, whatever holds it: every query the arena makes, written once
in the SQL that SQLite and PostgreSQL share (``?`` marks a parameter). Opening a database,
its schema, locks and errors are each backend's (``sqlite.py``, ``postgres.py``);
``open_store`` picks one from what ``--db`` names."""

from __future__ import annotations

import json
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager
from dataclasses import asdict
from typing import Any, ClassVar

from . import outcomes
from .connection import Connection, Row
from .rows import HeldMatch, MatchRow, RatingRow, SeatRow, Standing
from .unwritable import WriteFault


class StoreError(RuntimeError):
    """A database the arena cannot use, with what to do about it."""


def _stats_columns(table: str) -> str:
    """``bot_stats`` (named ``table`` in the query) as ``seat_stats`` gives it: means,
    not sums."""
    t = table
    return (
        f"{t}.matches AS matches, {t}.wins AS wins, "
        f"CAST({t}.score_sum AS DOUBLE PRECISION) / {t}.matches AS mean_score, "
        f"CAST({t}.rank_sum AS DOUBLE PRECISION) / {t}.matches AS mean_rank, "
        f"{t}.timeouts AS timeouts, "
        f"{t}.errors AS errors, {t}.invalid AS invalid, {t}.forfeits AS forfeits"
    )


_STATS_KEYS = ("matches", "wins", "mean_score", "mean_rank", "timeouts", "errors", "invalid",
               "forfeits")  # fmt: skip


class Store(ABC):
    """An open arena database."""

    dialect: ClassVar[str]
    """``sqlite`` or ``postgresql``: for the few statements written per backend."""
    integrity_errors: tuple[type[Exception], ...]
    """What a write that breaks a constraint (a name taken) raises."""
    where: str
    """The database as messages name it: a file path, or a URL without its password."""
    commits: int = 0
    """Write transactions committed through this Store (what readers in the same
    process key caches on: ``arena serve`` writes through one Store)."""
    _db: Connection

    @abstractmethod
    def transaction(self) -> AbstractContextManager[Connection]:
        """A write transaction: committed at the end, rolled back on an exception."""

    @abstractmethod
    def close(self) -> None:
        """Close the connection (and give up every claim)."""

    @abstractmethod
    def claim(self, name: str, busy: str) -> None:
        """Claim ``name`` on this database until ``close()``: any other Store (in this or
        another process) claiming the same name gets StoreError(``busy``). For what must
        never run twice at once on one database (the same league, a server). The claim
        ends with the process, even after SIGKILL."""

    @abstractmethod
    def alone(self) -> bool:
        """Whether no other Store has this database open (checked just before removing a
        database nobody used, so another process's data is never deleted)."""

    @abstractmethod
    def write_fault(self, error: BaseException) -> WriteFault | None:
        """Why the database cannot be written for now (a full disk, a read-only
        database, a lost connection), if ``error`` says so; None for an error of the
        arena's own."""

    @abstractmethod
    def table_names(self) -> set[str]:
        """The names of the database's arena tables (not the backend's own)."""

    @abstractmethod
    def snapshot(self) -> AbstractContextManager[None]:
        """A read transaction: every read inside sees one state of the database."""

    @abstractmethod
    def stream(self, sql: str, batch: int) -> Iterator[list[Row]]:
        """The rows of one query in batches, without holding them all in memory (inside
        ``snapshot()``)."""

    def read(self, sql: str, params: Sequence[object] = ()) -> list[Row]:
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
        rated: Mapping[str, int] | None = None,
    ) -> None:
        """A finished match, its seats, faults, record and the ratings after it: one
        transaction. ``rated``: the ranks the ratings were computed from, by bot (the
        match's own seats, or a whole deal group's), counted into the ladder's
        ``outcome_counts`` for the joint model."""
        with self.transaction() as db:
            _insert_match(db, match, config, faults, record, ratings, rated)

    def record_next_match(
        self,
        league_id: str,
        league_config: dict[str, Any],
        finish: Callable[[int], tuple[HeldMatch, Sequence[RatingRow]]],
    ) -> HeldMatch:
        """Record a match under its league's next index, allocated in the transaction
        that inserts it, so matches finishing together each get their own index and
        none is lost: the league is created if it is not there yet, the index claimed
        (``next_index``), then ``finish(index)`` builds the match and the ratings after
        it, and both are committed. Reads ``finish`` makes through this Store (its
        ``ratings``) see the database as it is once the claim is made: no other match of
        the league can commit in between."""
        with self.transaction() as db:
            db.execute(
                "INSERT INTO leagues(id, config_json, status, created_at) VALUES (?, ?, ?, ?) "
                "ON CONFLICT(id) DO NOTHING",
                (league_id, json.dumps(league_config, sort_keys=True), "running", time.time()),
            )
            held, ratings = finish(next_index(db, league_id))
            rated = {seat.bot: seat.rank for seat in held.match.seats}
            _insert_match(db, held.match, held.config, held.faults, held.record, ratings, rated)
        return held

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
                "INSERT INTO held_matches VALUES (?, ?, ?, ?) ON CONFLICT(league_id, idx) "
                "DO UPDATE SET data_json = excluded.data_json, record = excluded.record",
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
        if limit is not None:
            return self._newest_of_all_leagues(bot, limit)
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
        rows = self._db.execute(*self._page_query(league_id, bot, before, limit, keys=False))
        return self._match_rows(rows.fetchall())

    def _page_query(
        self,
        league_id: str,
        bot: str | None,
        before: tuple[float, int] | None,
        limit: int,
        *,
        keys: bool,
    ) -> tuple[str, list[object]]:
        """``match_page``'s query: whole match rows, or (with ``keys``) only their
        ``finished_at, idx, id``."""
        if bot is None:
            columns = "finished_at, idx, id" if keys else "*"
            sql = f"SELECT {columns} FROM matches WHERE league_id = ?"
            params: list[object] = [league_id]
            order = "finished_at DESC, idx DESC"
            if before is not None:
                sql += " AND (finished_at, idx) < (?, ?)"
                params += before
        else:
            # The seat rows carry their match's league, finish time and index (migration
            # 4) so that one bot's matches come in order from the seats_by_bot index.
            if keys:
                sql = "SELECT s.finished_at, s.idx, s.match_id FROM seats AS s "
            else:
                sql = "SELECT m.* FROM seats AS s JOIN matches AS m ON m.id = s.match_id "
            sql += "WHERE s.bot = ? AND s.league_id = ?"
            params = [bot, league_id]
            order = "s.finished_at DESC, s.idx DESC"
            if before is not None:
                sql += " AND (s.finished_at, s.idx) < (?, ?)"
                params += before
        return f"{sql} ORDER BY {order} LIMIT ?", [*params, limit]

    def _newest_of_all_leagues(self, bot: str | None, limit: int) -> list[MatchRow]:
        """The newest ``limit`` matches of any league (of one bot), newest last: each
        league's newest through its index, merged (no sort of the whole history)."""
        newest: list[tuple[float, int, str]] = []
        for (league_id,) in self._db.execute("SELECT id FROM leagues").fetchall():
            query = self._page_query(league_id, bot, None, limit, keys=True)
            newest += [(r[0], r[1], r[2]) for r in self._db.execute(*query)]
        newest = sorted(newest, reverse=True)[:limit]
        order = {match_id: n for n, (_, _, match_id) in enumerate(newest[::-1])}
        rows: list[Row] = []
        ids = list(order)
        for start in range(0, len(ids), 500):
            batch = ids[start : start + 500]
            rows += self._db.execute(
                f"SELECT * FROM matches WHERE id IN ({', '.join('?' * len(batch))})", batch
            ).fetchall()
        return self._match_rows(sorted(rows, key=lambda row: order[row["id"]]))

    def match(self, match_id: str) -> MatchRow | None:
        """One finished match."""
        row = self._db.execute("SELECT * FROM matches WHERE id = ?", (match_id,)).fetchone()
        return self._match_row(row) if row is not None else None

    def _match_rows(self, rows: Sequence[Row]) -> list[MatchRow]:
        """Match rows with their seats (read in batches, not one query per match)."""
        seats: dict[str, list[Row]] = {row["id"]: [] for row in rows}
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

    def _match_row(self, row: Row, seats: Sequence[Row] | None = None) -> MatchRow:
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

    def outcome_counts(self, ladder: str) -> list[tuple[outcomes.Outcome, int]]:
        """The joint model's counts of a ladder (``outcomes``): one row per distinct
        choice set and chosen group, never per match."""
        rows = self._db.execute(
            "SELECT members, chosen, count FROM outcome_counts WHERE ladder = ?", (ladder,)
        ).fetchall()
        return [((outcomes.decode(r[0]), outcomes.decode(r[1])), int(r[2])) for r in rows]

    def rated_bots(self, ladder: str) -> int:
        """How many bots have a rating on the ladder."""
        found = self._db.execute("SELECT count(*) FROM ratings WHERE ladder = ?", (ladder,))
        return int(found.fetchone()[0])

    def outcome_rows_over(self, ladder: str, rows: int) -> bool:
        """Whether the ladder's joint model has more than ``rows`` count rows (a read of
        at most that many index entries, however large the ladder)."""
        found = self._db.execute(
            "SELECT 1 FROM outcome_counts WHERE ladder = ? LIMIT 1 OFFSET ?", (ladder, rows)
        ).fetchone()
        return found is not None

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
            sql += " AND (b.status IS NULL OR b.status <> 'retired')"
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
            sql += " AND (b.status IS NULL OR b.status <> 'retired')"
        sql += " ORDER BY 3 * r.sigma - r.mu, r.bot"
        rows = self._db.execute(sql, [ladder]).fetchall()
        return [RatingRow(r["ladder"], r["bot"], r["mu"], r["sigma"], r["matches"]) for r in rows]

    def _standing_rows(self, rows: list[Row]) -> list[Standing]:
        return [
            Standing(
                RatingRow(r["ladder"], r["bot"], r["mu"], r["sigma"], r["rated"]),
                {k: r[k] for k in _STATS_KEYS} if r["matches"] is not None else {},
                r["status"],
            )
            for r in rows
        ]


def _insert_match(
    db: Connection,
    match: MatchRow,
    config: dict[str, Any],
    faults: Sequence[tuple[int, int, str, str, int]],
    record: bytes,
    ratings: Sequence[RatingRow],
    rated: Mapping[str, int] | None = None,
) -> None:
    """The inserts of ``Store.record_match``, inside the caller's transaction."""
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
        # (The old values named by table: PostgreSQL finds a bare name ambiguous.)
        "ON CONFLICT(ladder, bot) DO UPDATE SET matches = bot_stats.matches + 1, "
        "wins = bot_stats.wins + excluded.wins, "
        "score_sum = bot_stats.score_sum + excluded.score_sum, "
        "rank_sum = bot_stats.rank_sum + excluded.rank_sum, "
        "timeouts = bot_stats.timeouts + excluded.timeouts, "
        "errors = bot_stats.errors + excluded.errors, "
        "invalid = bot_stats.invalid + excluded.invalid, "
        "forfeits = bot_stats.forfeits + excluded.forfeits",
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
    if ratings and rated:
        db.executemany(
            outcomes.UPSERT, [(*key, 1) for key in outcomes.rows(ratings[0].ladder, rated)]
        )


def next_index(db: Connection, league_id: str) -> int:
    """Claim the next match index of a league inside the caller's transaction: from the
    league's counter (started at one past its highest index). The counter's row is
    written before it is read, so the claim holds its write lock to the end of the
    transaction (SQLite's writers take turns anyway; a PostgreSQL one waits for the
    other's commit, then counts on from it): two transactions never get one index."""
    db.execute(
        "INSERT INTO match_counters(league_id, next_idx) "
        "SELECT ?, coalesce(max(idx) + 1, 0) FROM matches WHERE league_id = ? "
        "ON CONFLICT(league_id) DO NOTHING",
        (league_id, league_id),
    )
    db.execute(
        "UPDATE match_counters SET next_idx = next_idx + 1 WHERE league_id = ?", (league_id,)
    )
    row = db.execute(
        "SELECT next_idx - 1 FROM match_counters WHERE league_id = ?", (league_id,)
    ).fetchone()
    return int(row[0])
