"""The schema, as numbered migrations. ``PRAGMA user_version`` holds the version applied;
a migration runs once, in its own transaction. Never edit a released migration: add one."""

from __future__ import annotations

from typing import Final

APPLICATION_ID: Final = 0x41424C58  # "ABLX": marks the file as an arena database

MIGRATIONS: Final[tuple[str, ...]] = (
    # 1: bots, leagues, matches with their seats, faults and records, ratings and history.
    """
    CREATE TABLE bots (
        name        TEXT PRIMARY KEY,
        kind        TEXT NOT NULL,          -- remote | managed | builtin
        target      TEXT NOT NULL,          -- endpoint, command, or built-in policy name
        owner       TEXT,
        description TEXT NOT NULL DEFAULT '',
        status      TEXT NOT NULL DEFAULT 'active',
        status_reason TEXT NOT NULL DEFAULT '',
        created_at  REAL NOT NULL
    );
    CREATE TABLE leagues (
        id          TEXT PRIMARY KEY,
        config_json TEXT NOT NULL,
        status      TEXT NOT NULL,          -- running | finished
        created_at  REAL NOT NULL,
        finished_at REAL
    );
    CREATE TABLE matches (
        id          TEXT PRIMARY KEY,       -- derived from the league and the index
        league_id   TEXT NOT NULL REFERENCES leagues(id),
        idx         INTEGER NOT NULL,
        ladder      TEXT NOT NULL,
        seed        INTEGER NOT NULL,
        config_json TEXT NOT NULL,
        end_reason  TEXT NOT NULL,
        decisions   INTEGER NOT NULL,
        wall_s      REAL NOT NULL,
        finished_at REAL NOT NULL,
        UNIQUE (league_id, idx)
    );
    CREATE TABLE seats (
        match_id    TEXT NOT NULL REFERENCES matches(id),
        seat        INTEGER NOT NULL,
        bot         TEXT NOT NULL,
        score       INTEGER NOT NULL,
        game_rank   INTEGER NOT NULL,
        rank        INTEGER NOT NULL,
        forfeited   INTEGER NOT NULL,
        decisions   INTEGER NOT NULL,
        think_ms    REAL NOT NULL,
        timeouts    INTEGER NOT NULL,
        errors      INTEGER NOT NULL,
        invalid     INTEGER NOT NULL,
        PRIMARY KEY (match_id, seat)
    );
    CREATE INDEX seats_by_bot ON seats(bot);
    CREATE TABLE faults (
        match_id    TEXT NOT NULL REFERENCES matches(id),
        seat        INTEGER NOT NULL,
        n           INTEGER NOT NULL,
        kind        TEXT NOT NULL,
        detail      TEXT NOT NULL,
        request_id  INTEGER NOT NULL,
        PRIMARY KEY (match_id, seat, n)
    );
    CREATE TABLE records (
        match_id    TEXT PRIMARY KEY REFERENCES matches(id),
        record      BLOB NOT NULL           -- gzip JSON lines (arena/referee/record.py)
    );
    CREATE TABLE ratings (
        ladder      TEXT NOT NULL,
        bot         TEXT NOT NULL,
        mu          REAL NOT NULL,
        sigma       REAL NOT NULL,
        matches     INTEGER NOT NULL,
        PRIMARY KEY (ladder, bot)
    );
    CREATE TABLE rating_history (
        ladder      TEXT NOT NULL,
        bot         TEXT NOT NULL,
        match_id    TEXT NOT NULL REFERENCES matches(id),
        mu          REAL NOT NULL,
        sigma       REAL NOT NULL,
        PRIMARY KEY (ladder, bot, match_id)
    );
    """,
    # 2: `arena serve`: owners' tokens (hashed), the submitted bots' life on the ladder,
    # and a per-league match counter claimed when a match starts (so the id of a match
    # abandoned at shutdown is never given to another match).
    """
    CREATE TABLE tokens (
        id          TEXT PRIMARY KEY,       -- the token's public part
        owner       TEXT NOT NULL,
        secret_sha256 TEXT NOT NULL,        -- hex SHA-256 of the secret part; never the token
        created_at  REAL NOT NULL,
        revoked_at  REAL
    );
    CREATE INDEX tokens_by_owner ON tokens(owner);
    ALTER TABLE bots ADD COLUMN version TEXT NOT NULL DEFAULT '';
    ALTER TABLE bots ADD COLUMN placement_left INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE bots ADD COLUMN failing_streak INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE bots ADD COLUMN updated_at REAL NOT NULL DEFAULT 0;
    CREATE TABLE match_counters (
        league_id   TEXT PRIMARY KEY REFERENCES leagues(id),
        next_idx    INTEGER NOT NULL
    );
    """,
    # 3: finished league matches waiting for an earlier one before they can be rated (a
    # league rates in index order). Kept so that a league resumed after a kill commits
    # them as they were instead of dealing the same deal to the same bots again.
    """
    CREATE TABLE held_matches (
        league_id   TEXT NOT NULL REFERENCES leagues(id),
        idx         INTEGER NOT NULL,
        data_json   TEXT NOT NULL,              -- match row, seats, config, faults
        record      BLOB NOT NULL,              -- the record, as in records
        PRIMARY KEY (league_id, idx)
    );
    """,
    # 4: reads that do not grow with the history. Matches newest first, of a league or a
    # ladder, by index; one bot's matches by index (its seats carry their match's league,
    # finish time and index, in the order the listing wants); each bot's totals on a
    # ladder kept as matches are recorded (the leaderboard no longer sums every seat);
    # standings in leaderboard order (mu - 3 sigma, best first, then name); bots by
    # owner. Old databases get the columns and totals filled from what they hold.
    """
    CREATE INDEX matches_by_league_finish ON matches(league_id, finished_at, idx);
    CREATE INDEX matches_by_ladder_finish ON matches(ladder, finished_at, idx);
    ALTER TABLE seats ADD COLUMN league_id TEXT;
    ALTER TABLE seats ADD COLUMN finished_at REAL;
    ALTER TABLE seats ADD COLUMN idx INTEGER;
    UPDATE seats SET league_id = m.league_id, finished_at = m.finished_at, idx = m.idx
        FROM matches AS m WHERE m.id = seats.match_id;
    DROP INDEX seats_by_bot;
    CREATE INDEX seats_by_bot ON seats(bot, league_id, finished_at, idx);
    CREATE TABLE bot_stats (
        ladder      TEXT NOT NULL,
        bot         TEXT NOT NULL,
        matches     INTEGER NOT NULL,
        wins        INTEGER NOT NULL,       -- matches ranked first (ties included)
        score_sum   INTEGER NOT NULL,
        rank_sum    INTEGER NOT NULL,
        timeouts    INTEGER NOT NULL,
        errors      INTEGER NOT NULL,
        invalid     INTEGER NOT NULL,
        forfeits    INTEGER NOT NULL,
        PRIMARY KEY (ladder, bot)
    ) WITHOUT ROWID;
    INSERT INTO bot_stats
        SELECT m.ladder, s.bot, count(*), sum(s.rank = 1), sum(s.score), sum(s.rank),
               sum(s.timeouts), sum(s.errors), sum(s.invalid), sum(s.forfeited)
        FROM seats AS s JOIN matches AS m ON m.id = s.match_id
        GROUP BY m.ladder, s.bot;
    CREATE INDEX ratings_by_standing ON ratings(ladder, 3 * sigma - mu, bot);
    CREATE INDEX bots_by_owner ON bots(owner, name);
    """,
    # 5: the joint model's sufficient statistics (arena/store/outcomes.py): each rated
    # match's choice sets, counted per ladder. Old databases get them from their rated
    # matches by ``outcomes.backfill`` in the same transaction.
    """
    CREATE TABLE outcome_counts (
        ladder      TEXT NOT NULL,
        members     TEXT NOT NULL,          -- JSON array of bot names, sorted
        chosen      TEXT NOT NULL,          -- JSON array: those placed together from it
        count       INTEGER NOT NULL,
        PRIMARY KEY (ladder, members, chosen)
    ) WITHOUT ROWID;
    """,
)

BACKFILLS: Final = {5: "outcome_counts"}
"""Migrations that fill their table from what the database holds in Python (a ranking's
choice sets are not a query): migration number -> table, filled by
``outcomes.backfill`` inside the migration's transaction."""
