"""Played matches that finish together: each is recorded under its own index, and each
rated one is rated on top of the others (the index, the ratings it starts from and the
match with its ratings are one transaction), on one real database of each backend."""

from __future__ import annotations

import asyncio
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

from arena.games import abluxxen as ab
from arena.games import get as get_game
from arena.policies import RandomPolicy
from arena.referee import LocalSeat, MatchOutcome, MatchSpec, Seat, run_match
from arena.store import open_store
from arena.web.play_record import ladder_of, league_of, new_match_id, record_played

GAME = get_game("abluxxen")
CONFIG = ab.make_config(2, "amigo")
TOGETHER = 12
"""Matches that finish at the same moment."""


def _outcomes(rated: bool) -> list[MatchOutcome]:
    """TOGETHER finished matches between a person and a bot (random players stand in)."""

    async def play(seed: int) -> MatchOutcome:
        seats: list[Seat] = [
            LocalSeat("ann", RandomPolicy(seed)),
            LocalSeat("bot", RandomPolicy(0)),
        ]
        spec = MatchSpec(match_id=new_match_id(rated), config=CONFIG, seed=seed, deadline_ms=1000)
        return await run_match(spec, seats)

    return [asyncio.run(play(seed)) for seed in range(TOGETHER)]


@pytest.mark.parametrize("rated", [True, False], ids=["rated", "unrated"])
def test_matches_that_finish_together_are_all_recorded(db_url: str, rated: bool) -> None:
    outcomes = _outcomes(rated)
    start = threading.Barrier(TOGETHER)

    def finish(outcome: MatchOutcome) -> str:
        start.wait()  # every recording starts at once: the first into an empty database
        return record_played(db_url, GAME, CONFIG, outcome, 0, rated=rated)

    with ThreadPoolExecutor(TOGETHER) as pool:
        recorded = list(pool.map(finish, outcomes))

    assert recorded == [o.match_id for o in outcomes]
    store = open_store(db_url, read_only=True)
    try:
        rows = store.read(
            "SELECT id, idx FROM matches WHERE league_id = ? ORDER BY idx", (league_of(rated),)
        )
        assert sorted(row[0] for row in rows) == sorted(recorded)
        assert [row[1] for row in rows] == list(range(TOGETHER))
        ratings = store.ratings(ladder_of(GAME, CONFIG, rated))
        if rated:
            # Each match was rated on the ratings the one before left: none is lost.
            assert {r.bot: r.matches for r in ratings} == {"ann": TOGETHER, "bot": TOGETHER}
            history = store.read("SELECT match_id FROM rating_history WHERE bot = 'ann'")
            assert sorted(row[0] for row in history) == sorted(recorded)
        else:
            assert ratings == []
    finally:
        store.close()


def test_a_played_match_counts_on_from_the_highest_index_already_recorded(db_url: str) -> None:
    # A database whose played matches were numbered before the league had a counter.
    first, second = _outcomes(rated=False)[:2]
    record_played(db_url, GAME, CONFIG, first, 0, rated=False)
    store = open_store(db_url)
    try:
        with store.transaction() as db:
            db.execute("UPDATE matches SET idx = 41 WHERE id = ?", (first.match_id,))
            db.execute("DELETE FROM match_counters")
    finally:
        store.close()
    record_played(db_url, GAME, CONFIG, second, 0, rated=False)
    store = open_store(db_url, read_only=True)
    try:
        assert store.read("SELECT idx FROM matches WHERE id = ?", (second.match_id,))[0][0] == 42
    finally:
        store.close()
