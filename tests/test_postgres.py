"""PostgreSQL storage on a real server: one schema with SQLite's (the migrations'
rewrites all apply, the tables and columns are the same), bad input refused in plain
words with nothing touched, and a lost connection or a read-only database seen as a
database that cannot be written for now, after which the store goes on."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest

from arena.cli import main
from arena.store import StoreError, masked, open_store
from arena.store.dialect import unused_rewrites
from arena.store.pg_cluster import TempCluster
from arena.store.postgres import ClaimLostError, PostgresStore

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def pg_url(pg_cluster: TempCluster, request: pytest.FixtureRequest) -> str:
    """A fresh, empty PostgreSQL database."""
    return pg_cluster.create_database(f"pg_{os.getpid()}_{request.node.name[:40]}")


@pytest.fixture
def pg_store(pg_url: str) -> Iterator[PostgresStore]:
    store = open_store(pg_url)
    assert isinstance(store, PostgresStore)
    yield store
    store.close()


def _arena(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    status = main(list(args))
    captured = capsys.readouterr()
    return status, captured.out + captured.err


def test_every_migration_rewrite_applies() -> None:
    assert unused_rewrites() == []


def test_both_backends_have_the_same_tables_and_columns(
    tmp_path: Path, pg_store: PostgresStore
) -> None:
    sqlite_store = open_store(tmp_path / "a.db")
    sqlite_store.close()
    with sqlite3.connect(tmp_path / "a.db") as db:
        tables = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        on_sqlite = {
            t: [r[1] for r in db.execute(f"SELECT * FROM pragma_table_info('{t}')")] for t in tables
        }
    on_postgres: dict[str, list[str]] = {}
    for table, column in pg_store.read(
        "SELECT table_name, column_name FROM information_schema.columns "
        "WHERE table_schema = current_schema() AND table_name <> 'arena_schema' "
        "ORDER BY table_name, ordinal_position"
    ):
        on_postgres.setdefault(table, []).append(column)
    assert on_postgres == on_sqlite
    # Times and ratings keep their 8-byte precision; seeds go past 2**31.
    store = pg_store
    store.create_league("lg", {})
    store.upsert_bot("b", "builtin", "random")
    row = store.read("SELECT created_at FROM leagues")[0]
    assert isinstance(row["created_at"], float)
    assert row["created_at"] == row[0] > 1.7e9
    types = {
        r[0]: r[1]
        for r in store.read(
            "SELECT column_name, data_type FROM information_schema.columns "
            "WHERE table_name = 'matches'"
        )
    }
    assert types["seed"] == "bigint"
    assert types["finished_at"] == "double precision"


def test_bad_urls_and_servers_get_clear_messages(
    pg_cluster: TempCluster, pg_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    wrong_password = pg_cluster.url(pg_url.rsplit("/", 1)[1], password="not-it")
    status, text = _arena(capsys, "ratings", "--db", wrong_password)
    assert status == 2
    assert "password authentication failed" in text
    assert "check the user and password in the URL" in text
    assert "not-it" not in text  # the password is never shown
    assert ":***@" in text

    status, text = _arena(capsys, "matches", "--db", pg_cluster.url("no_such_database"))
    assert status == 2
    assert 'database "no_such_database" does not exist' in text
    assert "create the database first" in text

    with socket_closed() as port:
        status, text = _arena(capsys, "ratings", "--db", f"postgresql://arena@127.0.0.1:{port}/x")
    assert status == 2
    assert "Connection refused" in text
    assert "is the server running" in text

    status, text = _arena(capsys, "ratings", "--db", "postgresql://arena@[::1/x")
    assert status == 2
    assert "arena ratings:" in text
    assert "Traceback" not in text

    status, text = _arena(capsys, "ratings", "--db", "mysql://arena@127.0.0.1/x")
    assert status == 2
    assert "not a database this arena can use" in text


class socket_closed:  # noqa: N801  (used as a context manager)
    """A local port nothing listens on (bound, then released)."""

    def __enter__(self) -> int:
        import socket

        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            return int(probe.getsockname()[1])

    def __exit__(self, *_: object) -> None:
        return None


def test_an_empty_or_foreign_database_is_refused_and_left_alone(
    pg_cluster: TempCluster, pg_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # Empty: reading commands say there is no arena database, and create nothing.
    status, text = _arena(capsys, "ratings", "--db", pg_url)
    assert status == 2
    assert "no arena database at" in text
    name = pg_url.rsplit("/", 1)[1]
    with psycopg.connect(pg_cluster.admin_url(name), autocommit=True) as conn:
        assert conn.execute(
            "SELECT count(*) FROM pg_tables WHERE schemaname = 'public'"
        ).fetchone() == (0,)
        conn.execute("CREATE TABLE customers (id int PRIMARY KEY, name text)")
        conn.execute("INSERT INTO customers VALUES (1, 'ann')")
    # Foreign: even a league (which creates databases) does not touch it.
    status, text = _arena(
        capsys, "league", "--bot", "a=random", "--bot", "b=random", "--table-size", "2",
        "--matches", "1", "--db", pg_url, "--quiet",
    )  # fmt: skip
    assert status == 2
    assert "a PostgreSQL database of something else" in text
    with psycopg.connect(pg_cluster.admin_url(name), autocommit=True) as conn:
        tables = conn.execute("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")
        assert [r[0] for r in tables] == ["customers"]
        assert conn.execute("SELECT * FROM customers").fetchall() == [(1, "ann")]


def test_a_newer_schema_is_refused(pg_store: PostgresStore, pg_url: str) -> None:
    with pg_store.transaction() as db:
        db.execute("UPDATE arena_schema SET version = version + 1")
    with pytest.raises(StoreError, match="newer than this arena"):
        open_store(pg_url)
    with pytest.raises(StoreError, match="not this arena's"):
        open_store(pg_url, read_only=True)


def test_without_psycopg_the_message_names_the_extra(pg_url: str) -> None:
    code = (
        "import sys\n"
        "sys.modules['psycopg'] = None  # as if the [postgres] extra were not installed\n"
        "from arena.cli import main\n"
        f"sys.exit(main(['ratings', '--db', {pg_url!r}]))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2
    assert "needs psycopg 3" in done.stderr
    assert "postgres` extra" in done.stderr
    assert "Traceback" not in done.stderr


def _terminate(cluster: TempCluster, store: PostgresStore) -> None:
    pid = store.live().info.backend_pid
    with psycopg.connect(cluster.admin_url(), autocommit=True) as admin:
        # Waits until the backend has exited (PostgreSQL 14+): its advisory locks go with
        # it, and a claim right after must not race the exit (it did once, under load).
        ended = admin.execute("SELECT pg_terminate_backend(%s, 60000)", (pid,)).fetchone()
        assert ended is not None
        assert ended[0], f"backend {pid} did not end within 60 s"


def test_a_lost_connection_is_a_pause_not_a_loss(
    pg_cluster: TempCluster, pg_store: PostgresStore, pg_url: str
) -> None:
    pg_store.create_league("lg", {})
    pg_store.claim("serve", "busy")
    _terminate(pg_cluster, pg_store)
    with pytest.raises(psycopg.OperationalError) as lost:
        pg_store.finish_league("lg")
    fault = pg_store.write_fault(lost.value)
    assert fault is not None
    assert fault.why == "the database server ended the connection"
    assert "127.0.0.1" not in fault.why
    pg_store.finish_league("lg")  # the next write connects again
    league = pg_store.league("lg")
    assert league is not None
    assert league["status"] == "finished"
    other = open_store(pg_url)
    try:  # the claim was taken again with the new connection
        with pytest.raises(StoreError, match="busy"):
            other.claim("serve", "busy")
    finally:
        other.close()


def test_a_read_only_database_is_a_write_fault(
    pg_cluster: TempCluster, pg_store: PostgresStore, pg_url: str
) -> None:
    name = pg_url.rsplit("/", 1)[1]
    pg_cluster.sql(f'ALTER DATABASE "{name}" SET default_transaction_read_only = on')
    _terminate(pg_cluster, pg_store)
    with pytest.raises(psycopg.OperationalError):
        pg_store.create_league("lg", {})  # the ended session, noticed on use
    with pytest.raises(psycopg.Error) as refused:
        pg_store.create_league("lg", {})  # the new session is read-only
    fault = pg_store.write_fault(refused.value)
    assert fault is not None
    assert fault.why == "the database is read-only"
    assert masked(pg_url) in fault.advice
    pg_cluster.sql(f'ALTER DATABASE "{name}" SET default_transaction_read_only = off')
    _terminate(pg_cluster, pg_store)
    with pytest.raises(psycopg.OperationalError):
        pg_store.create_league("lg", {})  # the terminated session, noticed on use
    pg_store.create_league("lg", {})
    assert pg_store.league("lg") is not None


def test_masked_hides_passwords_only() -> None:
    assert masked("postgresql://ann:s3cret@db.example:5433/arena") == (
        "postgresql://ann:***@db.example:5433/arena"
    )
    assert masked("postgresql://ann@h/db?password=x&sslmode=require") == (
        "postgresql://ann@h/db?password=***&sslmode=require"
    )
    assert masked("arena-data/x.db") == "arena-data/x.db"


def test_a_claim_taken_while_the_connection_was_down_stops_every_write(
    pg_cluster: TempCluster, pg_store: PostgresStore, pg_url: str
) -> None:
    pg_store.create_league("lg", {})
    pg_store.claim("serve", "another `arena serve` is using it")
    _terminate(pg_cluster, pg_store)
    other = open_store(pg_url)
    try:
        other.claim("serve", "busy")  # the ended session's lock went with it
        for _ in range(2):  # the ended session, then the claim found taken; then always
            with pytest.raises((psycopg.OperationalError, ClaimLostError)):
                pg_store.finish_league("lg")
        with pytest.raises(ClaimLostError, match="another `arena serve` is using it") as lost:
            pg_store.finish_league("lg")
        fault = pg_store.write_fault(lost.value)
        assert fault is not None
        assert fault.why == "another process took over the database"
        league = other.league("lg")
        assert league is not None
        assert league["status"] == "running"  # nothing written beside the new holder
        other.finish_league("lg")
    finally:
        other.close()


def test_the_web_match_list_reads_the_same_rows_on_both_backends(
    pg_store: PostgresStore, tmp_path: Path
) -> None:
    from arena.store.synthetic import add_matches
    from arena.store.web_reads import MatchFilter, bots_like, ladder_end_reasons, ladder_matches

    bots = ["Ada", "bea", "cyd", "d_t", "eve", "fay", "gil"]
    lite = open_store(tmp_path / "same.db")
    try:
        for store in (lite, pg_store):
            add_matches(store, league_id="lg", ladder="lg/g/p/3p", bots=bots, count=90,
                        table_size=3, start=1.7e9, step_s=900.0)  # fmt: skip
        wheres = [
            MatchFilter(),
            MatchFilter(bots=("Ada", "fay"), since=1.7e9 + 3600, until=1.7e9 + 40_000),
            MatchFilter(bots=("cyd",), opponents=("bea",)),
            MatchFilter(end_reason="deck_exhausted"),
        ]
        assert bots_like(lite, "lg/g/p/3p", "a") == bots_like(pg_store, "lg/g/p/3p", "a")
        assert bots_like(pg_store, "lg/g/p/3p", "a") == ["Ada", "bea", "fay"]  # case ignored
        assert bots_like(pg_store, "lg/g/p/3p", "_") == ["d_t"]  # no wildcard
        assert ladder_end_reasons(lite, "lg/g/p/3p") == ladder_end_reasons(pg_store, "lg/g/p/3p")
        for where in wheres:
            for newest_first in (True, False):
                pages = [
                    ladder_matches(
                        store, "lg/g/p/3p", where=where, newest_first=newest_first, limit=7
                    )
                    for store in (lite, pg_store)
                ]
                assert [m.id for m in pages[0].matches] == [m.id for m in pages[1].matches]
                assert pages[0].next == pages[1].next
        # Timeouts are drawn at random (per backend): faults are checked against the rows.
        faulted = {r[0] for r in pg_store.read("SELECT match_id FROM seats WHERE timeouts > 0")}
        page = ladder_matches(
            pg_store, "lg/g/p/3p", where=MatchFilter(faults_only=True), limit=1000
        )
        assert {m.id for m in page.matches} == faulted
    finally:
        lite.close()
