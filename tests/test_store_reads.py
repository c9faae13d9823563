"""The store's indexed reads (migration 4): an old database gets the indexes, the seat
columns and the per-bot totals; recorded matches keep the totals equal to what the seats
say; pages walk every row once, in order; read-only connections write nothing. On
SQLite and on PostgreSQL (``db_url``), except the old SQLite file's migration."""

from __future__ import annotations

import gzip
import sqlite3
from decimal import Decimal
from pathlib import Path

import pytest

from arena.league.intervals import ladder_joint
from arena.league.joint import Outcomes
from arena.league.leaderboard import (
    Row,
    leaderboard,
    standing_row,
    with_intervals,
)
from arena.store import Store, StoreError, open_store
from arena.store.migrations import MIGRATIONS
from arena.store.registry import BotStatus, bot_page, list_bots
from arena.store.rows import MatchRow, RatingRow, SeatRow
from arena.store.synthetic import add_bots, add_matches

ROOT = Path(__file__).resolve().parents[1]
OLD_DUMP = ROOT / "tests" / "data" / "v0" / "league-interrupted.sql.gz"
NEW_INDEXES = {
    ("matches", "matches_by_league_finish"),
    ("matches", "matches_by_ladder_finish"),
    ("seats", "seats_by_bot"),
    ("ratings", "ratings_by_standing"),
    ("bots", "bots_by_owner"),
}
TOTALS_FROM_SEATS = (
    "SELECT m.ladder, s.bot, count(*), sum(CASE WHEN s.rank = 1 THEN 1 ELSE 0 END), "
    "sum(s.score), sum(s.rank), "
    "sum(s.timeouts), sum(s.errors), sum(s.invalid), sum(s.forfeited) "
    "FROM seats AS s JOIN matches AS m ON m.id = s.match_id GROUP BY m.ladder, s.bot "
    "ORDER BY 1, 2"
)


def _restore(path: Path) -> None:
    with gzip.open(OLD_DUMP, "rt") as dump:
        script = dump.read()
    connection = sqlite3.connect(path)
    try:
        connection.executescript(script)
    finally:
        connection.close()


def _indexes(db: sqlite3.Connection) -> set[tuple[str, str]]:
    return {
        (table, index)
        for table, index in db.execute(
            "SELECT tbl_name, name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL"
        )
    }


def _totals(db: sqlite3.Connection) -> list[tuple[object, ...]]:
    return [tuple(r) for r in db.execute("SELECT * FROM bot_stats ORDER BY 1, 2")]


def _rows(store: Store, sql: str) -> list[tuple[object, ...]]:
    """Rows as plain tuples of ints, floats and strings (PostgreSQL sums are decimals)."""
    return [tuple(int(v) if isinstance(v, Decimal) else v for v in r) for r in store.read(sql)]


def test_an_old_database_gets_the_indexes_columns_and_totals(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    _restore(path)
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == 3
        assert not NEW_INDEXES & _indexes(db) - {("seats", "seats_by_bot")}
        old_board = {
            (ladder, bot): tuple(row)
            for ladder, bot, *row in db.execute(
                "SELECT m.ladder, s.bot, count(*), sum(s.rank = 1), avg(s.score), avg(s.rank) "
                "FROM seats s JOIN matches m ON m.id = s.match_id GROUP BY m.ladder, s.bot"
            )
        }
    store = open_store(path)
    try:
        ladders = store.ladders()
        boards = {ladder: leaderboard(store, ladder) for ladder in ladders}
    finally:
        store.close()
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS) == 5
        assert _indexes(db) >= NEW_INDEXES
        columns = [r[0] for r in db.execute("SELECT name FROM pragma_table_info('seats')")]
        assert columns[-3:] == ["league_id", "finished_at", "idx"]
        unfilled = db.execute(
            "SELECT count(*) FROM seats s JOIN matches m ON m.id = s.match_id WHERE "
            "s.league_id IS NOT m.league_id OR s.finished_at IS NOT m.finished_at "
            "OR s.idx IS NOT m.idx"
        ).fetchone()[0]
        assert unfilled == 0
        assert db.execute("SELECT count(*) FROM seats").fetchone()[0] > 0
        assert _totals(db) == [tuple(r) for r in db.execute(TOTALS_FROM_SEATS)]
        # The listing's query reads the new index, newest first, no sort of its own.
        plan = " ".join(
            str(r[3])
            for r in db.execute(
                "EXPLAIN QUERY PLAN SELECT * FROM matches WHERE league_id = ? "
                "ORDER BY finished_at DESC, idx DESC LIMIT 5",
                ("old-league",),
            )
        )
        assert "matches_by_league_finish" in plan
        assert "TEMP B-TREE" not in plan
    for ladder, rows in boards.items():
        for row in rows:
            matches, wins, mean_score, mean_rank = old_board[(ladder, row.name)]
            assert (row.matches, row.wins) == (matches, wins)
            assert row.mean_score == round(mean_score, 2)
            assert row.mean_rank == round(mean_rank, 2)
            assert 1 <= row.rank_low <= row.rank_high <= len(rows)


def test_an_old_database_gets_the_joint_model_s_counts_of_its_rated_matches(
    tmp_path: Path,
) -> None:
    """The migration counts every rated match's choice sets, as a commit would have."""
    path = tmp_path / "old.db"
    _restore(path)
    with sqlite3.connect(path) as db:
        rated = db.execute(
            "SELECT m.ladder, s.match_id, s.bot, s.rank FROM seats s "
            "JOIN matches m ON m.id = s.match_id "
            "WHERE s.match_id IN (SELECT match_id FROM rating_history)"
        ).fetchall()
    expected: dict[str, Outcomes] = {}
    by_match: dict[tuple[str, str], dict[str, int]] = {}
    for ladder, match_id, bot, rank in rated:
        by_match.setdefault((ladder, match_id), {})[bot] = rank
    for (ladder, _), ranks in by_match.items():
        expected.setdefault(ladder, Outcomes()).add(ranks)
    assert expected
    store = open_store(path)
    try:
        for ladder, outcomes in expected.items():
            assert dict(store.outcome_counts(ladder)) == outcomes.counts
    finally:
        store.close()


def _match(index: int, at: float, seats: list[tuple[str, int, int, bool, int]]) -> MatchRow:
    return MatchRow(
        id=f"lg/{index:06d}",
        league_id="lg",
        idx=index,
        ladder="lg/game/p/3p",
        seed=index,
        end_reason="done",
        decisions=10,
        wall_s=0.1,
        finished_at=at,
        seats=tuple(
            SeatRow(n, bot, score, rank, rank, forfeited, 5, 1.0, timeouts, 0, 0)
            for n, (bot, score, rank, forfeited, timeouts) in enumerate(seats)
        ),
    )


def test_recorded_matches_keep_the_totals_equal_to_the_seats(db_url: str) -> None:
    store = open_store(db_url)
    try:
        store.create_league("lg", {})
        played = [
            _match(0, 10.0, [("a", 5, 1, False, 0), ("b", -1, 2, False, 2), ("c", -3, 3, True, 3)]),
            _match(1, 11.0, [("b", 7, 1, False, 0), ("a", 7, 1, False, 1), ("c", 0, 3, False, 0)]),
            _match(2, 11.0, [("c", 2, 1, False, 0), ("a", 1, 2, False, 0), ("b", 0, 3, False, 0)]),
        ]
        for match in played:
            ratings = [RatingRow(match.ladder, s.bot, 25.0, 8.0, 1) for s in match.seats]
            store.record_match(match, {}, [], b"", ratings)
        stats = store.seat_stats("lg/game/p/3p")
        assert _rows(store, "SELECT * FROM bot_stats ORDER BY 1, 2") == _rows(
            store, TOTALS_FROM_SEATS
        )
        seat_columns = _rows(
            store, "SELECT DISTINCT league_id, finished_at, idx FROM seats ORDER BY idx"
        )
        assert seat_columns == [("lg", 10.0, 0), ("lg", 11.0, 1), ("lg", 11.0, 2)]
        assert stats["a"]["matches"] == 3
        assert stats["a"]["wins"] == 2
        assert stats["a"]["mean_rank"] == pytest.approx(4 / 3)
        assert stats["c"]["forfeits"] == 1
        assert stats["b"]["timeouts"] == 2
        # Newest first: by finish time, then index; one bot's matches from its seats.
        page = store.match_page("lg", limit=10)
        assert [m.idx for m in page] == [2, 1, 0]
        assert [m.idx for m in store.match_page("lg", before=(11.0, 2), limit=10)] == [1, 0]
        assert [m.idx for m in store.matches(league_id="lg", limit=2)] == [1, 2]
        assert [m.idx for m in store.matches(league_id="lg", bot="c", limit=1)] == [2]
        assert page[0].seats[0].bot == "c"
    finally:
        store.close()


def test_pages_walk_every_row_once_in_order(db_url: str) -> None:
    store = open_store(db_url)
    try:
        names = [f"bot-{i:03d}" for i in range(37)]
        add_bots(store, names[:20], owner="ann")
        add_bots(store, names[20:], owner="bob", status=BotStatus.RETIRED, endpoint_port=30000)
        add_matches(store, league_id="lg", ladder="lg/g/p/4p", bots=names, count=503, same_time=4)
        add_matches(store, league_id="other", ladder="other/g/p/4p", bots=names, count=40)
        everything = store.matches(league_id="lg")[::-1]
        walked: list[MatchRow] = []
        before: tuple[float, int] | None = None
        while page := store.match_page("lg", before=before, limit=50):
            walked += page
            before = (page[-1].finished_at, page[-1].idx)
        assert [m.id for m in walked] == [m.id for m in everything]
        assert len(walked) == 503
        mine = [m.id for m in everything if any(s.bot == "bot-007" for s in m.seats)]
        walked_ids: list[str] = []
        before = None
        while page := store.match_page("lg", bot="bot-007", before=before, limit=7):
            walked_ids += [m.id for m in page]
            before = (page[-1].finished_at, page[-1].idx)
        assert walked_ids == mine
        assert walked_ids

        # The newest of every league at once: each league's index, merged.
        def key(m: MatchRow) -> tuple[float, int, str]:
            return (m.finished_at, m.idx, m.id)

        every = sorted(store.matches(league_id="lg") + store.matches(league_id="other"), key=key)
        assert [m.id for m in store.matches(limit=60)] == [m.id for m in every[-60:]]
        of_bot = [m for m in every if any(s.bot == "bot-011" for s in m.seats)]
        assert store.matches(bot="bot-011", limit=9) == of_bot[-9:]
        assert len(store.matches(limit=5000)) == 543

        board = leaderboard(store, "lg/g/p/4p")
        shown: list[Row] = []
        after: tuple[float, str] | None = None
        joint = ladder_joint(store, "lg/g/p/4p")
        everyone = store.ladder_ratings("lg/g/p/4p", include_retired=True)
        while standings := store.standings("lg/g/p/4p", after=after, limit=6):
            rows = [  # as GetLeaderboard pages it
                standing_row(rank, s.rating, s.stats)
                for rank, s in enumerate(standings, start=len(shown) + 1)
            ]
            shown += with_intervals(rows, everyone, joint)
            last = standings[-1].rating
            after = (3 * last.sigma - last.mu, last.bot)
        assert shown == board
        active = store.standings("lg/g/p/4p", limit=100, include_retired=False)
        assert {s.rating.bot for s in active} == set(names[:20])
        assert {s.status for s in active} == {"suspended"}

        listed: list[str] = []
        after_name: str | None = None
        while bots := bot_page(store, after=after_name, limit=8):
            listed += [b.name for b in bots]
            after_name = bots[-1].name
        assert listed == [b.name for b in list_bots(store)] == names
        assert [b.name for b in bot_page(store, "bob", limit=100)] == names[20:]
    finally:
        store.close()


def test_a_read_only_connection_reads_and_writes_nothing(db_url: str, tmp_path: Path) -> None:
    open_store(db_url).close()
    reader = open_store(db_url, read_only=True)
    try:
        assert reader.ladders() == []
        with pytest.raises(Exception, match=r"(?i)read.?only") as refused:
            reader.create_league("x", {})
        fault = reader.write_fault(refused.value)
        assert fault is not None
        assert "read" in fault.why
    finally:
        reader.close()
    writer = open_store(db_url)
    try:
        assert writer.league("x") is None
    finally:
        writer.close()
    with pytest.raises(StoreError, match="no database"):
        open_store(tmp_path / "missing.db", read_only=True)
    old = tmp_path / "old.db"
    _restore(old)
    with pytest.raises(StoreError, match="schema version 3"):
        open_store(old, read_only=True)
