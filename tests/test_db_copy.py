"""``arena db copy``: a database moved from SQLite to PostgreSQL and back loses nothing
(every row of every table compared), and a copy that cannot be made says why and
writes nothing."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from arena.cli import main
from arena.store import Store, open_store
from arena.store.copy import TABLES
from arena.store.pg_cluster import TempCluster
from arena.store.registry import BotStatus, claim_match_index
from arena.store.rows import MatchRow, RatingRow, SeatRow
from arena.store.synthetic import add_bots, add_matches
from arena.store.tokens import create_token


def _everything(db: str) -> dict[str, list[tuple[object, ...]]]:
    store = open_store(db, create=False)
    try:
        assert store.table_names() == set(TABLES)
        return {
            table: sorted((tuple(row) for row in store.read(f"SELECT * FROM {table}")), key=repr)
            for table in TABLES
        }
    finally:
        store.close()


def _fill(db: str, capsys: pytest.CaptureFixture[str]) -> None:
    """A league played here, a synthetic ladder's history with submitted bots, a token,
    a match with faults, one held for rating, a claimed match index."""
    assert main([
        "league", "--bot", "r1=random", "--bot", "r2=random", "--bot", "g1=greedy",
        "--table-size", "3", "--matches", "9", "--seed", "5", "--db", db, "--quiet",
    ]) == 0  # fmt: skip
    capsys.readouterr()
    store = open_store(db)
    try:
        names = [f"sub-{i:02d}" for i in range(12)]
        add_bots(store, names, owner="ann", status=BotStatus.ACTIVE, description="¡hola!\x1b")
        add_matches(store, league_id="serve", ladder="serve/g/p/4p", bots=names, count=250,
                    record=b"\x1f\x8b binary \x00 record")  # fmt: skip
        create_token(store, "ann")
        seats = (
            SeatRow(0, "sub-00", 12, 1, 1, False, 20, 3.25, 0, 0, 0),
            SeatRow(1, "sub-01", -4, 2, 2, True, 18, 1e-3, 2, 1, 1),
        )
        match = MatchRow("serve/000250", "serve", 250, "serve/g/p/2p", 2**62 + 7, "forfeit",
                         38, 0.125, 1.8e9 + 0.5, seats)  # fmt: skip
        faults = [(1, 0, "timeout", "no answer in 1000 ms", 4), (1, 1, "error", "bad \u200b", 9)]
        store.record_match(match, {"k": [1, 2]}, faults, b"rec", [
            RatingRow("serve/g/p/2p", "sub-00", 27.123456789012345, 7.5, 1),
            RatingRow("serve/g/p/2p", "sub-01", 22.5, 7.75, 1),
        ])  # fmt: skip
        held = MatchRow("serve/000252", "serve", 252, "serve/g/p/2p", 3, "score_limit", 10,
                        0.5, 1.8e9 + 2, seats)  # fmt: skip
        store.hold_match(held, {"held": True}, faults[:1], b"held record")
        claim_match_index(store, "serve")
    finally:
        store.close()


def test_a_database_goes_to_postgresql_and_back_losing_nothing(
    tmp_path: Path, pg_cluster: TempCluster, capsys: pytest.CaptureFixture[str]
) -> None:
    original = str(tmp_path / "original.db")
    _fill(original, capsys)
    on_postgres = pg_cluster.create_database(f"copy_{os.getpid()}")
    back = str(tmp_path / "back.db")

    assert main(["db", "copy", original, on_postgres]) == 0
    said = capsys.readouterr().out
    assert "260 matches" in said
    assert pg_cluster.url().split("@")[0].split(":")[-1] not in said  # no password shown
    assert main(["db", "copy", on_postgres, back]) == 0
    capsys.readouterr()

    rows = _everything(original)
    assert all(rows[table] for table in TABLES), "every table has rows to compare"
    assert _everything(on_postgres) == rows
    assert _everything(back) == rows

    # What reads the copy sees is the same too: the leaderboard's pages, the listing.
    stores: list[Store] = [open_store(db, create=False) for db in (original, on_postgres)]
    try:
        first, second = stores
        assert first.standings("serve/g/p/4p", limit=50) == second.standings(
            "serve/g/p/4p", limit=50
        )
        assert first.match_page("serve", bot="sub-03", limit=20) == second.match_page(
            "serve", bot="sub-03", limit=20
        )
        assert first.held_matches("serve") == second.held_matches("serve")
    finally:
        for store in stores:
            store.close()


def test_a_copy_that_cannot_be_made_writes_nothing(
    tmp_path: Path, pg_cluster: TempCluster, capsys: pytest.CaptureFixture[str]
) -> None:
    original = str(tmp_path / "original.db")
    _fill(original, capsys)
    target = pg_cluster.create_database(f"full_{os.getpid()}")
    assert main(["db", "copy", original, target]) == 0
    capsys.readouterr()
    before = _everything(target)

    assert main(["db", "copy", original, target]) == 2  # not into a database with rows
    said = capsys.readouterr().err
    assert "already holds rows" in said
    assert "nothing was written" in said
    assert _everything(target) == before

    missing = str(tmp_path / "missing.db")
    assert main(["db", "copy", missing, str(tmp_path / "new.db")]) == 2
    assert "no database at" in capsys.readouterr().err
    assert not (tmp_path / "new.db").exists()

    into_file = str(tmp_path / "again.db")
    assert main(["db", "copy", original, original]) == 2
    assert "the same database" in capsys.readouterr().err
    assert main(["db", "copy", "postgresql://arena@127.0.0.1:1/x", into_file]) == 2
    assert "cannot connect" in capsys.readouterr().err
    assert not Path(into_file).exists()
