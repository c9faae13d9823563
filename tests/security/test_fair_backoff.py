"""A remote bot that keeps failing is backed off: a bot that ends every stream at once
(its matches churn, each a new stream, as fast as the arena can start them) gets no new
stream for a while once three in a row have broken; its seats fault at once instead.

Failed on a35e272 (every match opened a new stream to the bot: twelve matches, twelve
streams); passes now: ``ChannelPool`` keeps each endpoint's health and refuses new
streams to a failing one for 1 s, then 2 s, ... (on a virtual clock here, with the bot
over a scripted transport, so the twelve matches take no time at all).
"""

from __future__ import annotations

import pytest
from referee.faulty_bot import Behaviour, FaultyBot
from referee.scripted import ScriptedChannel, run_virtual

from arena.games import abluxxen as ab
from arena.policies import RandomPolicy
from arena.referee import FaultKind, LocalSeat, MatchOutcome, MatchSpec, RemoteSeat, Seat, run_match
from arena.referee import channels as channels_module
from arena.referee.channels import ChannelPool


def test_a_bot_whose_streams_keep_breaking_is_backed_off(monkeypatch: pytest.MonkeyPatch) -> None:
    churner = FaultyBot(Behaviour("end_after_start"))
    channel = ScriptedChannel(churner.play)
    monkeypatch.setattr(channels_module, "open_channel", lambda endpoint, **_: channel)

    async def scenario() -> list[MatchOutcome]:
        pool = ChannelPool()
        outcomes = []
        for index in range(12):
            seats: list[Seat] = [
                RemoteSeat("churner", pool.get("127.0.0.1:50999"), max_reply_bytes=4096),
                LocalSeat("r1", RandomPolicy(1)),
            ]
            spec = MatchSpec(
                match_id=f"m{index}", config=ab.make_config(2, "amigo"), seed=index, max_strikes=1
            )
            outcomes.append(await run_match(spec, seats))
        return outcomes

    outcomes = run_virtual(scenario())
    # Three streams broke at once; the other nine matches opened none.
    assert churner.streams == 3
    for outcome in outcomes:
        assert {f.kind for f in outcome.seats[0].faults} == {FaultKind.DISCONNECTED}
        assert outcome.seats[0].forfeited
    assert all("backing off" in o.seats[0].faults[0].detail for o in outcomes[3:])
