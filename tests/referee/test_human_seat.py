"""The human seat: a seat like any other, fed by a page. Its requests come from observe(),
it takes only the legal actions it offered, refuses stale or impossible choices in words,
and a person who does not choose in time gets a TIMEOUT like a bot (on a virtual clock:
nothing sleeps)."""

from __future__ import annotations

import asyncio

import pytest

from arena.games import all_games, get
from arena.policies import RandomPolicy
from arena.referee import LocalSeat, MatchSpec, Seat, run_match
from arena.referee.faults import FaultKind
from arena.referee.human import HumanSeat, Moment
from referee.scripted import run_virtual

GAME = get("abluxxen")


def _spec(players: int = 3, max_strikes: int = 3) -> MatchSpec:
    return MatchSpec(
        "play/1", GAME.make_config(players), seed=11, max_strikes=max_strikes, game=GAME
    )


async def _click_through(human: HumanSeat, pick: int = -1) -> list[Moment]:
    """Choose offered action ``pick`` (of the legal set) at every decision until the end."""
    seen: list[Moment] = []
    version = 0
    while True:
        moment = await human.next_moment(version, timeout_s=3600)
        version = moment.version
        if moment.over is not None:
            return seen
        if moment.decision is not None:
            seen.append(moment)
            legal = moment.decision.observation.legal
            assert human.choose(moment.decision.request_id, pick % len(legal)) is None


@pytest.mark.parametrize("name", [game.name for game in all_games()])
def test_a_person_plays_a_whole_match_from_observations_only(name: str) -> None:
    game = get(name)

    async def main() -> None:
        human = HumanSeat("me")
        seats: list[Seat] = [
            human,
            LocalSeat("r1", RandomPolicy(1)),
            LocalSeat("r2", RandomPolicy(2)),
        ]
        clicking = asyncio.create_task(_click_through(human))
        spec = MatchSpec("play/1", game.make_config(3), seed=11, game=game)
        outcome = await run_match(spec, seats)
        seen = await clicking
        assert outcome.seats[0].faults == []
        assert outcome.seats[0].decisions == len(seen) > 0
        for moment in seen:
            obs = moment.decision.observation  # type: ignore[union-attr]
            assert obs.seat == 0
            assert obs.legal
        assert human.moment().over is not None
        assert list(human.moment().over.ranks) == outcome.ranks  # type: ignore[union-attr]

    run_virtual(main())


def test_stale_and_impossible_choices_are_refused_in_words() -> None:
    async def main() -> None:
        human = HumanSeat("me")
        assert human.choose(1, 0) == "it is not your turn; the page shows the match as it is now"
        seats: list[Seat] = [human, LocalSeat("r1", RandomPolicy(1))]
        task = asyncio.create_task(run_match(_spec(2), seats))
        moment = await human.next_moment(0, timeout_s=60)
        decision = moment.decision
        assert decision is not None
        legal = len(decision.observation.legal)
        assert human.choose(decision.request_id + 1, 0) == (
            "that choice was for an earlier decision; the page shows the current one"
        )
        assert human.choose(decision.request_id, legal) == (
            f"there is no choice {legal + 1}; choose one of the {legal} offered"
        )
        assert human.choose(decision.request_id, -1) is not None
        assert human.moment().decision is decision  # still waiting, nothing lost
        clicking = asyncio.create_task(_click_through(human, pick=0))
        await task
        await clicking
        assert human.choose(decision.request_id, 0) == "the match is over"

    run_virtual(main())


def test_a_person_who_does_not_choose_times_out_and_is_forfeited() -> None:
    async def main() -> None:
        human = HumanSeat("away", think_s=300)
        seats: list[Seat] = [
            human,
            LocalSeat("r1", RandomPolicy(1)),
            LocalSeat("r2", RandomPolicy(2)),
        ]
        loop = asyncio.get_running_loop()
        started = loop.time()
        outcome = await run_match(_spec(max_strikes=2), seats)
        faults = outcome.seats[0].faults
        assert [f.kind for f in faults] == [FaultKind.TIMEOUT] * 2
        assert "no choice within 300 s" in faults[0].detail
        assert outcome.seats[0].forfeited
        assert outcome.ranks[0] == 3
        assert loop.time() - started == 600  # two waits of 300 s, virtual

    run_virtual(main())


def test_a_persons_time_must_be_positive() -> None:
    with pytest.raises(ValueError, match="more than 0 seconds"):
        HumanSeat("me", think_s=0)
