"""In-process seats yield to the loop between decisions: a match of built-in policies
must not hold the referee's loop from its first decision to its last, or every other
match on the loop (and every remote bot's deadline) waits that long.

Failed on a35e272 (a match of in-process seats ran without ever letting another task
in: the loop lagged the whole match, 27-90 ms under load); passes now: a LocalSeat's
decision waits for its turn (``referee/turns.py``), and a turn runs at most its budget
of in-process work. Here a decision costs a quarter of the budget on a clock that
advances each time it is read, so the loop turns at least once every four decisions.
"""

from __future__ import annotations

import asyncio

from arena.games import abluxxen as ab
from arena.policies import RandomPolicy
from arena.referee import LocalSeat, MatchOutcome, MatchSpec, Seat, run_match
from arena.referee.turns import _TURNS, LoopTurns


class StepClock:
    """Time that advances ``step_s`` each time it is read."""

    def __init__(self, step_s: float) -> None:
        self.now = 0.0
        self.step_s = step_s

    def __call__(self) -> float:
        self.now += self.step_s
        return self.now


def test_a_match_of_in_process_seats_lets_the_loop_turn_within_each_budget() -> None:
    async def scenario() -> tuple[MatchOutcome, int]:
        loop = asyncio.get_running_loop()
        _TURNS[loop] = LoopTurns(loop, budget_s=0.001, clock=StepClock(0.00025))
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
    # The other task ran between the match's decisions, not only at its start and end:
    # at least once per budget (four decisions).
    assert during >= outcome.decisions / 4
