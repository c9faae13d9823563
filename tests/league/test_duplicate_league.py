"""A duplicate league replays each deal at other tables, never to a bot that saw it."""

from __future__ import annotations

import asyncio
import sqlite3
from collections import defaultdict
from pathlib import Path

import pytest

from arena.games import get as get_game
from arena.league.commit import Standings
from arena.league.config import Entrant, LeagueConfig
from arena.league.groups import group_seats
from arena.league.rating import RatingModel
from arena.league.runner import run_league
from arena.referee.record import decode_record, game_record
from arena.store import open_store
from arena.store.rows import SeatRow

from .conftest import arena


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


@pytest.mark.slow
def test_deal_groups_rated_as_one_rate_each_group_on_summed_scores(tmp_path: Path) -> None:
    """--rate-groups: the ratings are those of rating each deal group's bots as one
    free-for-all by summed score (and no table of a group is rated alone)."""
    db = tmp_path / "g.db"
    bots = [arg for i in range(8) for arg in ("--bot", f"b{i}={'greedy' if i < 4 else 'random'}")]
    run = arena(
        "league", *bots, "--table-size", "4", "--duplicate", "--rate-groups",
        "--matches", "8", "--seed", "6", "--db", str(db), "--quiet",
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    store = open_store(db, create=False)
    try:
        (ladder,) = store.ladders()
        matches = sorted(store.matches(), key=lambda m: m.idx)
        game = get_game("abluxxen")
        draw = game.rating_defaults(game.default_preset, 4).draw_probability
        standings = Standings(RatingModel(draw_probability=draw), ladder)
        for first, second in zip(matches[::2], matches[1::2], strict=True):
            standings.apply(standings.rated(group_seats([first.seats, second.seats])))
        stored = {r.bot: (r.mu, r.sigma, r.matches) for r in store.ratings(ladder)}
    finally:
        store.close()
    expected = {
        bot: (skill.mu, skill.sigma, standings.played[bot])
        for bot, skill in standings.skills.items()
    }
    assert stored.keys() == expected.keys()
    for bot, values in stored.items():
        assert values == pytest.approx(expected[bot])
    assert {played for _, _, played in stored.values()} == {4}
    bad = arena("league", *bots, "--table-size", "4", "--rate-groups", "--matches", "8",
                "--db", str(tmp_path / "x.db"))  # fmt: skip
    assert bad.returncode == 2
    assert "add --duplicate" in bad.stderr


def test_a_deal_group_is_ranked_by_summed_score_ties_shared_forfeits_last() -> None:
    def seat(s: int, bot: str, score: int, forfeited: bool = False) -> SeatRow:
        return SeatRow(s, bot, score, 1, 1, forfeited, 0, 0.0, 0, 0, 0)

    merged = group_seats(
        [
            [seat(0, "a", 10), seat(1, "b", -3), seat(2, "c", 7, forfeited=True)],
            [seat(0, "d", 4), seat(1, "e", 10), seat(2, "f", -3)],
        ]
    )
    assert [(s.bot, s.rank) for s in merged] == [
        ("a", 1), ("e", 1), ("d", 3), ("b", 4), ("f", 4), ("c", 6),
    ]  # fmt: skip
    assert [s.seat for s in merged] == list(range(6))
