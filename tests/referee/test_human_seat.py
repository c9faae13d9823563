"""The human seat: a seat like any other, fed by a page. Its requests come from observe(),
it takes only the legal actions it offered, refuses stale or impossible choices in words,
and a person who does not choose in time gets a TIMEOUT like a bot (on a virtual clock:
nothing sleeps)."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace

import pytest

from arena.games import all_games, get
from arena.policies import RandomPolicy
from arena.referee import LocalSeat, MatchSpec, Seat, run_match
from arena.referee.faults import FaultKind
from arena.referee.human import HumanSeat, Moment
from arena.referee.seats import Decision
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


def _asked(request_id: int, kind: str, legal: list[str]) -> Decision:
    """A decision of kind ``kind`` offering ``legal`` (an observation's two fields)."""
    obs = SimpleNamespace(seat=0, decision=kind, legal=legal)
    return Decision(request_id, obs, (), GAME.wire, 1000, 1.0, 0.0)


def test_a_person_past_their_time_draws_on_the_bank_then_times_out() -> None:
    async def main() -> None:
        human = HumanSeat("me", think_s=10, bank_s=30)
        loop = asyncio.get_running_loop()
        deciding = asyncio.create_task(human.decide(_asked(1, "PLAY", ["a", "b"])))
        await asyncio.sleep(0)  # virtual: the seat shows the decision
        asked_at = loop.time()
        moment = human.moment()
        assert moment.clock(asked_at) == (10, 30)
        assert moment.clock(asked_at + 4) == (6, 30)
        await asyncio.sleep(25)  # past its own 10 s: 15 s of the bank spent
        assert human.moment().clock(loop.time()) == (0, 15)
        assert human.choose(1, 1) is None
        assert (await deciding).action == "b"
        assert human.bank_s == 15
        started = loop.time()
        reply = await human.decide(_asked(2, "PLAY", ["a"]))  # nobody chooses
        assert reply.fault is not None
        assert reply.fault.kind is FaultKind.TIMEOUT
        assert loop.time() - started == 25  # its 10 s and the 15 s left in the bank
        assert human.bank_s == 0

    run_virtual(main())


def test_several_cards_chosen_at_once_answer_the_decisions_that_follow() -> None:
    async def main() -> None:
        human = HumanSeat("me")
        first = asyncio.create_task(human.decide(_asked(1, "DISCARD", ["x", "y", "z", "w"])))
        await asyncio.sleep(0)
        assert human.choose(1, 2, 2) == "the same choice was given twice"
        assert human.choose(1, 4, 0) == "there is no choice 5; choose one of the 4 offered"
        assert human.choose(1, 2, 0, 3) is None  # z now, then x, then w
        assert (await first).action == "z"
        version = human.moment().version
        second = await human.decide(_asked(2, "DISCARD", ["w", "x", "y"]))
        assert second.action == "x"  # chosen ahead: the person is not asked again
        assert human.moment().version == version
        # Another kind of decision drops the plan: the person is asked.
        third = asyncio.create_task(human.decide(_asked(3, "PLAY", ["w", "y"])))
        await asyncio.sleep(0)
        assert human.moment().decision is not None
        assert human.choose(3, 1) is None
        assert (await third).action == "y"
        fourth = asyncio.create_task(human.decide(_asked(4, "DISCARD", ["w", "y"])))
        await asyncio.sleep(0)
        assert human.moment().decision is not None  # w was not kept past the PLAY
        assert human.choose(4, 0) is None
        await fourth
        assert [d.request_id for d in human.asked] == [1, 2, 3, 4]

    run_virtual(main())
