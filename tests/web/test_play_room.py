"""Tables with people, played on one loop: two that finish together are both recorded
and rated on top of each other (nothing lost); a seat's page log is what it was told."""

from __future__ import annotations

import asyncio
from pathlib import Path

from arena.games import get
from arena.policies.registry import builtin_factory
from arena.referee import Seat, builtin_seat
from arena.store import open_store
from arena.web.play_record import ladder_of
from arena.web.play_room import PlayRoom, PlaySettings, PlayTable

from .kit import answer_each_decision

GAME = get("abluxxen")
CONFIG = GAME.make_config(3, "amigo")


def test_two_tables_that_finish_together_are_both_recorded_and_rated(tmp_path: Path) -> None:
    db = tmp_path / "arena.db"
    open_store(db).close()

    async def main() -> list[PlayTable]:
        room = PlayRoom(PlaySettings(db=db, rated=True))
        factory = builtin_factory(GAME, "random")
        tables = []
        for person in ("ann", "bob"):
            # The same deal, bots and choices at both: they end on the same turn.
            bots: dict[int, Seat] = {
                1: builtin_seat("random-1", factory, 1),
                2: builtin_seat("random-2", factory, 2),
            }
            tables.append(room.start_people(GAME, CONFIG, {0: person}, bots, rated=True, seed=5))
        clicking = [
            asyncio.create_task(answer_each_decision(t.people[0], lambda _: (0,))) for t in tables
        ]
        await asyncio.gather(*clicking, *(t.task for t in tables if t.task is not None))
        return tables

    tables = asyncio.run(main())
    assert all(t.problem is None for t in tables), [t.problem for t in tables]
    recorded = [t.recorded_as for t in tables]
    assert None not in recorded
    assert recorded[0] != recorded[1]
    store = open_store(db, read_only=True)
    try:
        ladder = ladder_of(GAME, CONFIG, True)
        rows = [store.match(match_id) for match_id in recorded if match_id]
        ratings = {r.bot: r.matches for r in store.ratings(ladder)}
    finally:
        store.close()
    assert [[s.bot for s in row.seats] for row in rows if row] == [
        ["ann", "random-1", "random-2"],
        ["bob", "random-1", "random-2"],
    ]
    # Each was rated on top of the other: the bots at both tables count two matches.
    assert ratings == {"ann": 1, "bob": 1, "random-1": 2, "random-2": 2}
    for table in tables:
        log = table.ends[0]
        assert log[0].endswith(f"as seat 0 ({table.names[0]}) saw it")
        assert log[-1].startswith("final ranks")
