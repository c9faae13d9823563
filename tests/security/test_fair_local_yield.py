"""In-process seats yield to the loop between decisions: a match of built-in policies
must not hold the referee's loop from its first decision to its last, or every other
match on the loop (and every remote bot's deadline) waits that long.

Failed on a35e272 (a match of in-process seats ran without ever letting another task
in: the loop lagged the whole match, 27-90 ms under load); passes now: each decision of
a LocalSeat gives the loop a turn.
"""

from __future__ import annotations

import asyncio

from arena.games import abluxxen as ab
from arena.policies import RandomPolicy
from arena.referee import LocalSeat, MatchOutcome, MatchSpec, Seat, run_match


def test_a_match_of_in_process_seats_lets_the_loop_turn_at_every_decision() -> None:
    async def scenario() -> tuple[MatchOutcome, int]:
        turns = 0
        done = False

        async def other_work() -> None:
            nonlocal turns
            while not done:
                turns += 1
                await asyncio.sleep(0)

        other = asyncio.create_task(other_work())
        await asyncio.sleep(0)  # it is running
        seats: list[Seat] = [LocalSeat(f"r{i}", RandomPolicy(i)) for i in range(4)]
        spec = MatchSpec(match_id="m", config=ab.make_config(4, "amigo"), seed=1)
        before = turns
        outcome = await run_match(spec, seats)
        during = turns - before
        done = True
        await other
        return outcome, during

    outcome, during = asyncio.run(scenario())
    assert outcome.decisions > 100
    # The other task ran between the match's decisions, not only at its start and end.
    assert during >= outcome.decisions
