"""Which reply answers which request: a reply counts only for the request whose id it
carries, and only a request this seat was sent can be answered; any other id is STALE
at once, never a move and never a wait for the deadline. Against a real gRPC server on
loopback. The deadlines are long on purpose: no reply here is late, and an arena that
waited for a deadline instead of faulting at once would show it as a TIMEOUT."""

from __future__ import annotations

import asyncio

from arena.games import abluxxen as ab
from arena.policies import RandomPolicy
from arena.referee import FaultKind, LocalSeat, MatchOutcome, MatchSpec, RemoteSeat, Seat, run_match
from arena.referee.channels import ChannelPool
from arena.referee.request_ids import TAG_BITS, RequestIds

from .faulty_bot import EARLY_IDS, Behaviour, FaultyBot, start_faulty_bot
from .test_faults import _check_complete

DEADLINE_MS = 60_000
"""Never reached: every reply here comes at once."""


def play(behaviour: Behaviour, remote: int, *, max_strikes: int) -> tuple[MatchOutcome, FaultyBot]:
    """A 3-player match whose first ``remote`` seats are one faulty bot (one stream per
    seat, all to the same server) and the others random policies."""

    async def scenario() -> tuple[MatchOutcome, FaultyBot]:
        server, endpoint, bot = await start_faulty_bot(behaviour)
        pool = ChannelPool()
        try:
            seats: list[Seat] = [
                RemoteSeat(f"bot{i}", pool.get(endpoint), max_reply_bytes=4096)
                for i in range(remote)
            ]
            seats += [LocalSeat(f"r{i}", RandomPolicy(i)) for i in range(remote, 3)]
            spec = MatchSpec(
                match_id="m",
                config=ab.make_config(3, "amigo"),
                seed=5,
                deadline_ms=DEADLINE_MS,
                max_strikes=max_strikes,
                connect_timeout_s=10.0,
            )
            outcome = await run_match(spec, seats)
            await pool.close()
            await bot.until(lambda: bot.ended == remote)
            return outcome, bot
        finally:
            await pool.close()
            await server.stop(None)

    return asyncio.run(scenario())


def _decisions(outcome: MatchOutcome, seat: int) -> list[dict[str, object]]:
    return [line for line in outcome.record if line["type"] == "decision" and line["seat"] == seat]


def test_a_reply_carrying_another_seats_request_id_is_stale() -> None:
    # Seats 0 and 1 are streams of one bot that answers each request with the id it was
    # last sent on the other stream (a bot that keeps "the last request id" in a global
    # shared by its matches). The first request of the match is answered right; every
    # other one carries an id the arena did send, but to the other seat.
    outcome, bot = play(Behaviour("crossed"), remote=2, max_strikes=1)
    _check_complete(outcome)
    for seat in (0, 1):
        faults = outcome.seats[seat].faults
        assert [f.kind for f in faults] == [FaultKind.STALE]
        assert "which was never sent to this seat" in faults[0].detail
        assert outcome.seats[seat].forfeited
    # Each seat's requests are answered right until the other stream has been sent one;
    # the first after that is the stale one, faulted at once (no wait for the deadline).
    for seat, other in ((0, 1), (1, 0)):
        since = _decisions(outcome, other)[0]["n"]
        mine = _decisions(outcome, seat)
        before = [line for line in mine if line["n"] < since]  # type: ignore[operator]
        assert all("fault" not in line for line in before)
        assert mine[len(before)]["fault"]["kind"] == "STALE"  # type: ignore[index]
    faulted = [line for line in outcome.record if "fault" in line]
    assert all(line["ms"] < DEADLINE_MS for line in faulted)
    assert bot.streams == 2


def test_a_reply_written_before_its_request_was_sent_is_stale_never_a_move() -> None:
    # Before it reads anything (MatchStart included), the bot writes replies with the
    # ids a bot might guess for its first request: 1, and 1 where a wire id holds the
    # request's number. Then it answers every request right. The guesses fault the two
    # decisions that read them; the right answers to those two requests come after and
    # are dropped as late; nothing else faults.
    outcome, bot = play(Behaviour("early"), remote=1, max_strikes=0)
    _check_complete(outcome)
    mine = _decisions(outcome, 0)
    assert mine[0]["n"] == 1  # the bot's seat is sent the match's request 1
    faults = outcome.seats[0].faults
    assert [f.kind for f in faults] == [FaultKind.STALE] * len(EARLY_IDS)
    for fault, early, line in zip(faults, EARLY_IDS, mine, strict=False):
        assert fault.detail.startswith(f"reply for request id {early}, which was never sent")
        assert fault.request_id == line["n"]
        assert line["fault"]["kind"] == "STALE"  # type: ignore[index]
    assert all("fault" not in line for line in mine[len(EARLY_IDS) :])
    # MatchOver names each fault's request by the id the bot was sent.
    sent = bot.ids[1]
    [over] = bot.overs
    assert [f.request_id for f in over.faults] == sent[: len(EARLY_IDS)]


def test_wire_ids_grow_name_their_request_and_cannot_be_made_up() -> None:
    ids, other = RequestIds(), RequestIds()
    wire = [ids.wire(n) for n in range(1, 200)]
    assert wire == sorted(wire)
    assert [ids.number(w) for w in wire] == list(range(1, 200))
    assert [w >> TAG_BITS for w in wire] == list(range(1, 200))
    # Another seat's ids, the bare numbers, and the numbers with any other tag are not
    # this seat's.
    assert all(ids.number(other.wire(n)) is None for n in range(1, 200))
    assert all(ids.number(n) is None for n in range(200))
    assert ids.number((5 << TAG_BITS) | ((ids.wire(5) + 1) & 0xFFFF_FFFF)) is None
    assert ids.number(0) is None
    assert ids.number((1 << 64) - 1) is None
