"""Databases for the web tests: a ladder's history written the ways the arena writes it.

``history`` uses ``arena.store.synthetic`` (bulk SQL, the rows as the arena writes
them); ``record_one`` commits one more match through ``Store.record_match``, the write
path a league or ``arena serve`` uses, so a live page sees exactly what it would see.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable, Sequence
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from arena.store import open_store
from arena.store.rows import MatchRow, RatingRow, SeatRow
from arena.store.synthetic import add_matches

if TYPE_CHECKING:
    from arena.referee.human import HumanSeat

ROOT = Path(__file__).resolve().parents[2]
LEAGUE = "league-web"
LADDER = f"{LEAGUE}/game/preset/3p"
"""A ladder name as the arena makes them; the pages never read a game from it."""
BOTS = ("ada", "bea", "cyd", "dot", "eve", "fay", "gil")
HOSTILE = (
    "<script>alert(1)</script>",
    "\"'><img src=x onerror=alert(2)>",
    "\u202eevil\u202c-bidi",
    "ctrl\x1b[31mred\x07",
)
"""Bot names as a hostile author might choose them (the store keeps them as given)."""


def real_record(game: str = "abluxxen") -> bytes:
    """The compressed record of one real 3-player match of ``game`` among built-in
    random bots (one per game and test process)."""
    return _real_record(game)


@cache
def _real_record(game: str) -> bytes:
    directory = Path(subprocess.check_output(["mktemp", "-d"], text=True).strip())
    path = directory / "one.jsonl.gz"
    subprocess.run(
        [sys.executable, "-m", "arena.cli", "match", "--game", game, "--bot", "a=random",
         "--bot", "b=random", "--bot", "c=random", "--seed", "1", "--record", str(path)],
        check=True, capture_output=True, cwd=ROOT,
    )  # fmt: skip
    data = path.read_bytes()
    path.unlink()
    directory.rmdir()
    return data


def history(
    db: Path,
    *,
    bots: Sequence[str] = BOTS,
    matches: int = 60,
    ladder: str = LADDER,
    league: str = LEAGUE,
    league_config: dict[str, object] | None = None,
    game: str = "abluxxen",
) -> None:
    """``matches`` finished 3-player matches of ``league`` on ``ladder`` among ``bots``,
    each with a real match's record (of ``game``)."""
    store = open_store(db)
    try:
        add_matches(
            store,
            league_id=league,
            ladder=ladder,
            bots=bots,
            count=matches,
            table_size=3,
            record=real_record(game),
            league_config=league_config,
        )
    finally:
        store.close()


def record_one(
    db: Path,
    seats: Sequence[str],
    *,
    ladder: str = LADDER,
    league: str = LEAGUE,
    fault_detail: str | None = None,
) -> str:
    """One more match of ``seats`` (ranked in that order), committed with the ratings
    after it as a league commits a match (with ``fault_detail``, seat 0 made one invalid
    answer, so described); its id."""
    store = open_store(db)
    try:
        idx = int(
            store.read("SELECT max(idx) + 1 FROM matches WHERE league_id = ?", (league,))[0][0]
        )
        head = store.read("SELECT max(finished_at) FROM matches WHERE ladder = ?", (ladder,))[0][0]
        match_id = f"{league}/{idx:06d}"
        faulted = fault_detail is not None
        match = MatchRow(
            id=match_id,
            league_id=league,
            idx=idx,
            ladder=ladder,
            seed=idx,
            end_reason="score_limit",
            decisions=100,
            wall_s=0.1,
            finished_at=float(head) + 1.0,
            seats=tuple(
                SeatRow(
                    s,
                    bot,
                    10 - s,
                    s + 1,
                    s + 1,
                    False,
                    30,
                    1.0,
                    0,
                    0,
                    int(s == 0 and faulted),
                )
                for s, bot in enumerate(seats)
            ),
        )
        current = {r.bot: r for r in store.ratings(ladder)}
        ratings = [
            RatingRow(ladder, bot, current[bot].mu + (3.0 if s == 0 else -1.0), current[bot].sigma,
                      current[bot].matches + 1)
            for s, bot in enumerate(seats)
        ]  # fmt: skip
        faults = [(0, 1, "INVALID", fault_detail, 7)] if fault_detail is not None else []
        store.record_match(match, {"synthetic": True}, faults, real_record(), ratings)
    finally:
        store.close()
    return match_id


async def answer_each_decision(human: HumanSeat, answer: Callable[[Any], tuple[int, ...]]) -> None:
    """A person at ``human``'s table who answers every decision shown with
    ``answer(decision)`` (the choices' indices), until the match is over."""
    version = 0
    while True:
        moment = await human.next_moment(version, timeout_s=3600)
        version = moment.version
        if moment.over is not None:
            return
        if moment.decision is not None:
            assert human.choose(moment.decision.request_id, *answer(moment.decision)) is None
