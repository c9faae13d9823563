"""`arena ratings` and `arena matches` on a database holding several leagues (so several
ladders), and their bad input: each must say what is wrong, exit non-zero, print no
traceback and leave the database as it was. The leagues are real ``arena league``
processes, and so are one report and one refusal of each command; the other runs call
the command's ``main`` in the test's process (``in_process.run_arena``)."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterator
from concurrent import futures
from pathlib import Path
from typing import Any

import grpc
import pytest
from in_process import run_arena

from arena.store import open_store
from arena.v1 import arena_pb2

from .conftest import arena, digest

FIRST = "first"
SECOND = "second"
LADDERS = (f"{FIRST}/abluxxen/amigo/2p", f"{SECOND}/abluxxen/amigo/3p")
ROW_KEYS = {
    "rank", "name", "conservative", "mu", "sigma", "matches", "wins", "mean_score",
    "mean_rank", "timeouts", "errors", "invalid", "rank_low", "rank_high", "p_above_next",
}  # fmt: skip


@pytest.fixture(scope="module")
def two_ladders(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A database with two leagues (a 2-seat and a 3-seat one), so two ladders."""
    db = tmp_path_factory.mktemp("ladders") / "two.db"
    first = arena(
        "league", "--name", FIRST, "--bot", "a=random", "--bot", "b=greedy",
        "--table-size", "2", "--matches", "4", "--seed", "1", "--db", str(db), "--quiet",
    )  # fmt: skip
    assert first.returncode == 0, first.stderr
    second = arena(
        "league", "--name", SECOND, "--bot", "a=random", "--bot", "b=greedy",
        "--bot", "c=random", "--table-size", "3", "--matches", "3", "--seed", "2",
        "--db", str(db), "--quiet",
    )  # fmt: skip
    assert second.returncode == 0, second.stderr
    return db


@pytest.fixture
def db(two_ladders: Path) -> Iterator[Path]:
    """The two-ladder database, checked to be untouched by the test."""
    before = digest(two_ladders)
    yield two_ladders
    assert digest(two_ladders) == before, "the database changed"


def ratings(db: Path, *args: str) -> Any:
    return run_arena("ratings", "--db", str(db), *args)


def assert_refused(run: Any, *needles: str, status: int = 2) -> None:
    """A clear refusal: the status, the words, one message, no traceback, no output."""
    assert run.returncode == status, (run.stdout, run.stderr)
    assert "Traceback" not in run.stderr
    for needle in needles:
        assert needle in run.stderr, run.stderr
    assert run.stdout == ""


# ------------------------------------------------------------ several ladders, each format


@pytest.mark.slow
def test_json_is_one_document_with_the_ladder_in_each_row(db: Path) -> None:
    run = ratings(db, "--format", "json")
    assert run.returncode == 0, run.stderr
    rows = json.loads(run.stdout)  # one document, not arrays back to back
    assert isinstance(rows, list)
    assert all(set(r) == ROW_KEYS | {"ladder"} for r in rows)
    by_ladder: dict[str, list[dict[str, Any]]] = {}
    for row in rows:
        by_ladder.setdefault(row["ladder"], []).append(row)
    assert tuple(by_ladder) == LADDERS
    assert {r["name"] for r in by_ladder[LADDERS[0]]} == {"a", "b"}
    assert {r["name"] for r in by_ladder[LADDERS[1]]} == {"a", "b", "c"}
    for ladder_rows in by_ladder.values():  # ranks count within each ladder
        assert [r["rank"] for r in ladder_rows] == list(range(1, len(ladder_rows) + 1))
    assert sum(r["matches"] for r in by_ladder[LADDERS[0]]) == 4 * 2
    assert sum(r["matches"] for r in by_ladder[LADDERS[1]]) == 3 * 3
    for ladder_rows in by_ladder.values():  # intervals and neighbours within each ladder
        assert all(1 <= r["rank_low"] <= r["rank_high"] <= len(ladder_rows) for r in ladder_rows)
        assert [r["p_above_next"] is None for r in ladder_rows][-1]


@pytest.mark.slow
def test_json_of_one_ladder_keeps_the_array_of_rows(db: Path) -> None:
    run = ratings(db, "--format", "json", "--ladder", LADDERS[1])
    assert run.returncode == 0, run.stderr
    rows = json.loads(run.stdout)
    assert [r["rank"] for r in rows] == [1, 2, 3]
    assert {r["ladder"] for r in rows} == {LADDERS[1]}
    assert all(set(r) >= ROW_KEYS for r in rows)


@pytest.mark.slow
def test_csv_is_one_table_with_a_ladder_column(db: Path) -> None:
    run = ratings(db, "--format", "csv")
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert all(lines), "no blank lines between tables"
    assert sum(line.startswith("rank,") for line in lines) == 1
    table = list(csv.DictReader(io.StringIO(run.stdout)))
    assert len(table) == 2 + 3
    assert set(table[0]) == ROW_KEYS | {"ladder"}
    assert [r["ladder"] for r in table] == [LADDERS[0]] * 2 + [LADDERS[1]] * 3
    assert [r["rank"] for r in table] == ["1", "2", "1", "2", "3"]
    one = list(
        csv.DictReader(io.StringIO(ratings(db, "--format", "csv", "--ladder", LADDERS[0]).stdout))
    )
    assert [r["ladder"] for r in one] == [LADDERS[0]] * 2


def test_html_is_one_document_with_a_section_per_ladder(db: Path, tmp_path: Path) -> None:
    report = tmp_path / "report.html"
    run = arena("ratings", "--db", str(db), "--format", "html", "-o", str(report))
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == f"wrote {report}"
    text = report.read_text(encoding="utf-8")
    assert text.lower().count("<!doctype html>") == 1
    assert text.count("<html") == text.count("</html>") == 1
    assert text.count("<body") == text.count("</body>") == 1
    assert text.rstrip().endswith("</html>")
    assert text.count("<section") == text.count("</section>") == 2
    assert text.count('<div class="chart"') == 2  # each ladder's chart, drawn as SVG
    assert text.count("<svg") == 2
    assert "<script" not in text  # self-contained: no script, every style inline
    assert "<link" not in text
    for ladder in LADDERS:
        assert f'<h2>Ladder <span class="ladder-name">{ladder}</span></h2>' in text
    assert text.index(LADDERS[0]) < text.index(LADDERS[1])


@pytest.mark.parametrize(
    ("fmt", "heading"), [("table", "ladder {}"), ("markdown", "### Ladder `{}`")]
)
@pytest.mark.slow
def test_table_and_markdown_head_each_ladder(db: Path, fmt: str, heading: str) -> None:
    run = ratings(db, "--format", fmt)
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    for ladder in LADDERS:
        assert lines.count(heading.format(ladder)) == 1
    assert run.stdout.index(LADDERS[0]) < run.stdout.index(LADDERS[1])
    one = ratings(db, "--format", fmt, "--ladder", LADDERS[0]).stdout
    assert LADDERS[0] in one
    assert LADDERS[1] not in one


# ---------------------------------------------------------------------------- -o PATH


def test_output_creates_missing_parent_directories(db: Path, tmp_path: Path) -> None:
    target = tmp_path / "new" / "deeper" / "ratings.json"
    run = ratings(db, "--format", "json", "-o", str(target))
    assert run.returncode == 0, run.stderr
    assert len(json.loads(target.read_text(encoding="utf-8"))) == 5


def test_output_to_a_directory_is_refused(db: Path, tmp_path: Path) -> None:
    folder = tmp_path / "reports"
    folder.mkdir()
    (folder / "keep.txt").write_text("keep", encoding="utf-8")
    run = ratings(db, "--format", "html", "-o", str(folder))
    assert_refused(run, f"arena ratings: cannot write {folder}: ", "directory")
    assert len(run.stderr.strip().splitlines()) == 1
    assert sorted(p.name for p in folder.iterdir()) == ["keep.txt"]
    assert (folder / "keep.txt").read_text(encoding="utf-8") == "keep"


def test_output_under_a_file_is_refused(db: Path, tmp_path: Path) -> None:
    blocker = tmp_path / "notes.txt"
    blocker.write_text("mine", encoding="utf-8")
    target = blocker / "sub" / "ratings.csv"
    run = ratings(db, "--format", "csv", "-o", str(target))
    assert_refused(run, f"arena ratings: cannot write {target}: ")
    assert len(run.stderr.strip().splitlines()) == 1
    assert blocker.read_text(encoding="utf-8") == "mine"


def test_output_onto_the_database_is_refused(db: Path) -> None:
    run = ratings(db, "--format", "csv", "-o", str(db))
    assert_refused(run, f"arena ratings: cannot write {db}: ", "database")


# ------------------------------------------------------------------- ladder names, --help


def test_help_shows_real_ladder_names() -> None:
    run = run_arena("ratings", "--help")
    assert run.returncode == 0
    text = " ".join(run.stdout.split())
    assert "LEAGUE/GAME/PRESET/Np" in text
    assert "e.g. abluxxen/amigo/4p" not in text
    assert "/abluxxen/amigo/3p" in text


def test_unknown_ladder_lists_the_real_ones(db: Path) -> None:
    run = ratings(db, "--ladder", "abluxxen/amigo/2p")
    assert_refused(run, "no ladder 'abluxxen/amigo/2p'", *LADDERS)
    assert f"did you mean {LADDERS[0]}" in run.stderr


# ------------------------------------------------------------------------ arena matches


def match_lines(stdout: str) -> list[str]:
    return [line for line in stdout.splitlines() if "/abluxxen/" in line]


@pytest.mark.parametrize("limit", ["0", "-1", "-7"])
@pytest.mark.slow
def test_matches_limit_below_one_is_refused(db: Path, limit: str) -> None:
    run = run_arena("matches", "--db", str(db), "--limit", limit)
    assert run.returncode == 2
    assert "Traceback" not in run.stderr
    assert "--limit" in run.stderr
    assert "at least 1" in run.stderr
    remote = run_arena("matches", "--arena", "127.0.0.1:9", "--limit", limit)
    assert remote.returncode == 2
    assert "at least 1" in remote.stderr


def test_matches_limit_keeps_the_last_n(db: Path) -> None:
    run = run_arena("matches", "--db", str(db), "--limit", "2")
    assert run.returncode == 0, run.stderr
    lines = match_lines(run.stdout)
    everything = match_lines(run_arena("matches", "--db", str(db)).stdout)
    assert len(everything) == 4 + 3
    # The two that finished last (the second league's matches run at once, and a match
    # of built-in bots may finish before one started earlier: in-process seats yield to
    # the loop between decisions).
    assert lines == everything[-2:]
    assert {line.split()[0] for line in lines} <= {f"{SECOND}/00000{i}" for i in range(3)}


def test_matches_say_why_each_ended_in_words(db: Path) -> None:
    # Abluxxen's end reasons in its words ("the cards ran out"), as the web pages show
    # them; the records, the API and the web app's filters keep the identifiers.
    run = run_arena("matches", "--db", str(db))
    assert run.returncode == 0, run.stderr
    words = {"a hand is empty", "the cards ran out", "the turn limit was reached"}
    for line in match_lines(run.stdout):
        assert any(w in line for w in words), line
    for identifier in ("hand_empty", "supply_exhausted", "turn_cap"):
        assert identifier not in run.stdout


def test_matches_unknown_league_is_an_error_listing_the_known(db: Path) -> None:
    run = arena("matches", "--db", str(db), "--league", "nope")
    assert_refused(run, "no league 'nope'", FIRST, SECOND)
    known = arena("matches", "--db", str(db), "--league", SECOND)
    assert known.returncode == 0
    assert len(match_lines(known.stdout)) == 3


@pytest.mark.slow
def test_matches_unknown_bot_is_an_error_listing_the_known(db: Path) -> None:
    run = run_arena("matches", "--db", str(db), "--bot", "nope")
    assert_refused(run, "no bot 'nope'", "a, b, c")
    only_c = run_arena("matches", "--db", str(db), "--bot", "c")
    assert only_c.returncode == 0
    assert len(match_lines(only_c.stdout)) == 3


def test_known_filters_that_match_nothing_are_not_an_error(db: Path) -> None:
    run = run_arena("matches", "--db", str(db), "--league", FIRST, "--bot", "c")
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "no matches"


@pytest.mark.slow
def test_matches_filters_on_a_database_without_leagues(tmp_path: Path) -> None:
    empty = tmp_path / "empty.db"
    open_store(empty).close()
    before = digest(empty)
    league = run_arena("matches", "--db", str(empty), "--league", "nope")
    assert_refused(league, "no league 'nope'", "no leagues in this database")
    bot = run_arena("matches", "--db", str(empty), "--bot", "nope")
    assert_refused(bot, "no bot 'nope'", "no bots in this database")
    assert run_arena("matches", "--db", str(empty)).stdout.strip() == "no matches"
    assert digest(empty) == before


# ------------------------------------------------------------ arena matches --arena


def _list_matches(
    request: arena_pb2.ListMatchesRequest, context: Any
) -> arena_pb2.ListMatchesReply:
    """ListMatches of an arena playing one match, with two finished."""
    seats = [arena_pb2.MatchSeat(bot="a"), arena_pb2.MatchSeat(bot="b")]
    done = [
        arena_pb2.MatchSummary(
            match_id=f"serve/00000{i}",
            ladder="serve/abluxxen/amigo/2p",
            seats=seats,
            end_reason="hand_empty",
            decisions=40,
            at=1.0e9 + i,
        )
        for i in (1, 0)
    ]
    running = arena_pb2.MatchSummary(
        match_id="serve/000002", ladder="serve/abluxxen/amigo/2p", running=True,
        seats=seats, at=1.0e9 + 5,
    )  # fmt: skip
    return arena_pb2.ListMatchesReply(matches=[running, *done[: request.limit]])


def test_remote_matches_count_finished_and_playing_apart() -> None:
    """Against a (stand-in) running arena: the playing row stays, the footer counts apart."""
    handler = grpc.method_handlers_generic_handler(
        "arena.v1.Arena",
        {
            "ListMatches": grpc.unary_unary_rpc_method_handler(
                _list_matches,
                request_deserializer=arena_pb2.ListMatchesRequest.FromString,
                response_serializer=arena_pb2.ListMatchesReply.SerializeToString,
            )
        },
    )
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=2))
    server.add_generic_rpc_handlers((handler,))
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    try:
        run = run_arena("matches", "--arena", f"127.0.0.1:{port}", "--limit", "2")
    finally:
        server.stop(None)
    assert run.returncode == 0, run.stderr
    assert "playing now" in run.stdout
    assert "2 finished, 1 playing" in run.stdout
    # Why each ended, in the game's words; the reply (the API) keeps the identifier.
    assert run.stdout.count("a hand is empty") == 2
    assert "hand_empty" not in run.stdout


def test_remote_matches_refuse_a_league_filter() -> None:
    run = run_arena("matches", "--arena", "127.0.0.1:9", "--league", "first")
    assert_refused(run, "--league", "--arena")
