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
)
