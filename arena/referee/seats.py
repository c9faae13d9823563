"""Seats: how the referee reaches the player of one seat.

``RemoteSeat`` speaks the arena.v1 ``Play`` stream to a bot process; ``LocalSeat`` calls
an in-process policy: built-in opponents on a policy thread, off the event loop
(``policy_threads.py``); tests and benchmarks on the loop itself. ``ProcessSeat`` has a
built-in search (``cpu_bound``) decide in a policy process (``policy_processes.py``);
``builtin_seat`` picks which of them a built-in gets. Each seat owns its transport: a
remote seat, and a process seat, encode the request with the game's wire and read the
reply into an action; a local one hands the policy the observation. All check the action
against the legal set (``replies.py``) and answer ``decide`` with a legal action or a
fault; none raises for anything a bot does.
"""

from __future__ import annotations

import asyncio
import re
import weakref
from collections.abc import Callable, Coroutine, Sequence
from dataclasses import dataclass
from typing import Any, Final, Protocol, TypeVar

import grpc
from google.protobuf.message import DecodeError

from arena.games import GameWire, Observation, PolicyFactory
from arena.policies import Policy
from arena.v1 import bot_pb2

from .channels import health_of
from .clock import ArenaClock, Timer, loop_clock
from .ending import end_in_background
from .faults import Fault, FaultKind
from .policy_processes import (
    HostedPolicy,
    PolicyFailedError,
    PolicyLostError,
    PolicyProcesses,
    policy_processes,
)
from .policy_threads import choose_off_loop
from .replies import checked_action, read_reply
from .request_ids import RequestIds
from .turns import loop_turns

T = TypeVar("T")


@dataclass(slots=True)
class Decision:
    """What the referee asks one seat: built only from ``observe()`` and the seat's
    events since its last request."""

    request_id: int
    """Unique within the match."""
    observation: Observation
    """The seat's observation (the game's own type), with its legal actions."""
    events: Sequence[object]
    """The game's raw events since this seat's last request; only ``wire`` shows them,
    as the seat may see them."""
    wire: GameWire[Any, Any, Any]
    """The game's encoding, for seats that speak protobuf."""
    deadline_ms: int
    """Milliseconds for this decision (as sent to a bot)."""
    deadline_s: float
    """The same in seconds."""
    bank_s: float
    """Time bank left, seconds."""

    def request_bytes(self, wire_id: int | None = None) -> bytes:
        """The serialized ``ArenaMessage{decide}`` for this decision, sent with
        ``wire_id`` (default: ``request_id``; a remote seat's, ``request_ids.py``)."""
        return self.wire.decide_request(
            self.request_id if wire_id is None else wire_id,
            self.deadline_ms,
            int(self.bank_s * 1000),
            self.observation,
            self.events,
        )


@dataclass(slots=True)
class Reply:
    """A seat's answer: a legal action, or a fault (or neither: a forfeited seat, or a
    decision the arena's own lag cut short, which play the fallback without a strike)."""

    action: Any = None
    """The chosen action, already checked to be in the observation's legal set."""
    fault: Fault | None = None
    """Set when no usable, legal reply arrived."""
    elapsed_s: float = 0.0
    """The time charged to the seat: from when the request had left to the reply or
    the fault, less the arena's own lag meanwhile."""
    lag_s: float = 0.0
    """The arena's own lag (its event loop stalled) while the seat was waited for."""
    arena_lag: bool = False
    """No reply, but the bot had not had its time: the arena lagged so long that the
    decision was cut before the bot's deadline (and bank) had run on its own time. The
    fallback is played and the bot gets no strike (see docs/bot-protocol.md)."""


class Seat(Protocol):
    """One seat of one match. A seat class whose ``open`` and ``close`` never wait (no
    I/O: they return without awaiting) may say so with a class attribute ``at_once =
    True``: the referee then calls them inline, not concurrently (``each_seat.py``). One
    whose ``open`` and ``close`` do not read their MatchStart and MatchOver (an
    in-process policy learns its match from its observations) may say so with
    ``reads_messages = False``: it is then handed empty ones, and the referee builds
    those messages (and serializes the game's record for MatchOver) only for seats that
    read them."""

    name: str
    """The entrant's name."""

    async def open(self, start: bot_pb2.MatchStart, timeout_s: float) -> Fault | None:
        """Start the match for this seat; a fault if the seat cannot be reached."""
        ...

    async def decide(self, decision: Decision) -> Reply:
        """Ask for one decision within its deadline (plus bank)."""
        ...

    async def close(self, over: bot_pb2.MatchOver, timeout_s: float) -> None:
        """Tell the seat the match is over and end the stream."""
        ...


class LocalSeat:
    """An in-process policy: it gets the game's Observation directly.

    ``off_loop``: decide on a policy thread (``policy_threads.py``), so a slow policy
    slows only its own table: every built-in opponent of a league, ``arena match``,
    ``arena serve`` and the web app's tables that does not decide in a policy process
    (``ProcessSeat``, for a ``cpu_bound`` one), unless the policy says it is ``instant``
    (a uniform pick, one-ply greedy: microseconds), which a thread would only slow (at
    1,000 matches in flight, a thread hop per decision cost a league a third of its
    rate). Otherwise on the loop, taking turns with the loop's other work
    (``turns.py``). Either way the seat is charged the time ``choose`` took and never cut
    for time (an in-process policy is the arena's own: its time is reported, and drawn
    from the time bank, but it gets no TIMEOUT)."""

    at_once: Final = True
    """``open`` and ``close`` never wait."""
    reads_messages: Final = False
    """The policy gets observations, never MatchStart or MatchOver."""

    def __init__(self, name: str, policy: Policy, *, off_loop: bool = False) -> None:
        self.name = name
        self._policy = policy
        self._off_loop = off_loop and not getattr(policy, "instant", False)

    async def open(self, start: bot_pb2.MatchStart, timeout_s: float) -> Fault | None:
        """Nothing to open."""
        return None

    async def decide(self, decision: Decision) -> Reply:
        """The policy's choice, timed. On the loop it waits for its turn first
        (``turns.py``): a match of in-process seats would otherwise run from start to
        end without letting any other match (or a remote bot's reply) in, and many of
        them would hold up each reply a bot sends."""
        obs = decision.observation
        if self._off_loop:
            action, elapsed = await choose_off_loop(self._policy, obs)
        else:
            await loop_turns().turn()
            loop = asyncio.get_running_loop()
            started = loop.time()
            action = self._policy.choose(obs)
            elapsed = loop.time() - started
        action, fault = checked_action(action, obs.legal, decision.request_id)
        return Reply(action=action, fault=fault, elapsed_s=elapsed)

    async def close(self, over: bot_pb2.MatchOver, timeout_s: float) -> None:
        """Nothing to close."""


class ProcessSeat:
    """A built-in policy that decides in a policy process (``policy_processes.py``): one
    whose decisions are searches of many milliseconds of CPU (it says it is
    ``cpu_bound``), which on a thread would hold the interpreter the referee's loop
    needs. The policy is built as ``factory(seed)`` in a worker when the match starts
    (so it plays as the same policy in process would), kept there for the match and
    dropped at its end (or when the seat is gone, if the match never ended).

    The seat is charged the CPU seconds the decision took in the worker, never the wait
    for a busy one, and, as a built-in, never cut for time. A worker that dies faults
    this seat (DISCONNECTED, with its pid and exit): that decision and every later one,
    at once, so the match ends by the usual strikes; a policy that raises faults that
    decision (ERROR, with its traceback)."""

    at_once: Final = True
    """``open`` and ``close`` never wait."""
    reads_messages: Final = False
    """The policy gets its requests, never MatchStart or MatchOver."""

    def __init__(
        self,
        name: str,
        factory: PolicyFactory,
        seed: int | None,
        *,
        pool: PolicyProcesses | None = None,
    ) -> None:
        self.name = name
        self._factory = factory
        self._seed = seed
        self._pool = pool
        """The workers (None: the process's, ``policy_processes()``)."""
        self.hosted: HostedPolicy | None = None
        """The policy in its worker, from ``open`` on."""
        self._lost: str | None = None
        self._drop: Callable[[], object] | None = None

    async def open(self, start: bot_pb2.MatchStart, timeout_s: float) -> Fault | None:
        """Build the policy in a worker."""
        try:
            pool = self._pool if self._pool is not None else policy_processes()
            hosted = pool.place(self._factory, self._seed)
        except OSError as error:
            self._lost = f"the built-in's policy process could not start: {error}"
            return Fault(FaultKind.DISCONNECTED, self._lost)
        self.hosted = hosted
        drop = weakref.finalize(self, hosted.drop)
        drop.atexit = False  # at exit the workers are ended anyway
        self._drop = drop
        return None

    async def decide(self, decision: Decision) -> Reply:
        """The policy's choice, from its worker."""
        obs = decision.observation
        request_id = decision.request_id
        if self._lost is not None or self.hosted is None:
            why = self._lost or "the policy was never placed"
            return Reply(fault=Fault(FaultKind.DISCONNECTED, why, request_id))
        try:
            answer, cpu_s = await self.hosted.choose(decision.request_bytes())
        except PolicyLostError as lost:
            self._lost = f"the built-in's policy process died ({lost})"
            return Reply(fault=Fault(FaultKind.DISCONNECTED, self._lost, request_id))
        except PolicyFailedError as failed:
            detail = f"the built-in policy failed: {failed}"
            return Reply(fault=Fault(FaultKind.ERROR, detail, request_id))
        action, fault = read_reply(
            bot_pb2.BotMessage.FromString(answer), obs.legal, decision.wire, request_id
        )
        return Reply(action=action, fault=fault, elapsed_s=cpu_s)

    async def close(self, over: bot_pb2.MatchOver, timeout_s: float) -> None:
        """The worker forgets the policy."""
        if self._drop is not None:
            self._drop()


def builtin_seat(
    name: str, factory: PolicyFactory, seed: int | None, *, pool: PolicyProcesses | None = None
) -> Seat:
    """The seat of the built-in policy ``factory(seed)`` (``arena.policies.builtin_factory``)
    in a league, ``arena match``, ``arena play`` or a ``/play`` table: in a policy
    process if it says it is ``cpu_bound`` (a search), on the loop if it is ``instant``
    (a uniform pick, one-ply greedy), else on a policy thread (docs/scale.md). ``pool``:
    the policy processes to use (default: the process's)."""
    if getattr(factory, "cpu_bound", False):
        return ProcessSeat(name, factory, seed, pool=pool)
    return LocalSeat(name, factory(seed), off_loop=True)


class DownSeat:
    """A bot known to be unreachable: every decision is an immediate DISCONNECTED fault,
    so a dead bot costs its matches no waiting (it is forfeited after max_strikes)."""

    at_once: Final = True
    """``open`` and ``close`` never wait."""
    reads_messages: Final = False
    """No bot to tell anything."""

    def __init__(self, name: str, reason: str) -> None:
        self.name = name
        self._reason = reason

    async def open(self, start: bot_pb2.MatchStart, timeout_s: float) -> Fault | None:
        """The bot is down."""
        return Fault(FaultKind.DISCONNECTED, f"the bot is down: {self._reason}")

    async def decide(self, decision: Decision) -> Reply:
        """No bot to ask."""
        return Reply(
            fault=Fault(
                FaultKind.DISCONNECTED, f"the bot is down: {self._reason}", decision.request_id
            )
        )

    async def close(self, over: bot_pb2.MatchOver, timeout_s: float) -> None:
        """Nothing to close."""


_STREAM_ENDED: tuple[type[Exception], ...] = (grpc.aio.UsageError, asyncio.InvalidStateError)
"""What grpc.aio raises on writing to a call that has already finished (the bot ended
it before the reader task saw the end)."""

_CLOSED = object()
"""Posted by the reader when the bot ended the stream."""
_EXPIRED = object()
"""Posted by the deadline timer."""
_FLOODED = object()
"""Posted by the reader when the bot sent more messages than it may (see EXTRA_MESSAGES)."""

_STREAM_FAILURES: Final = frozenset(
    {FaultKind.DISCONNECTED, FaultKind.ERROR, FaultKind.MALFORMED, FaultKind.OVERSIZED}
)
"""Kinds of the fault that broke a stream which count against the endpoint's health (a
stream broken by a TIMEOUT, for a bot that stopped reading, does not: the bot is there)."""

EXTRA_MESSAGES: Final = 8
"""A bot may send one reply per request plus this many more (duplicates, stray late
replies: dropped without a fault). One more message and the reader stops reading and
cancels the call, so a bot cannot fill the arena's memory with messages nobody reads."""


class _Mailbox:
    """Hands the reader task's messages to the deciding coroutine; the decision's
    deadline timer posts _EXPIRED. (Leaner than asyncio.Queue plus asyncio.timeout on
    the referee's per-decision path, and the read itself is never cancelled.)"""

    __slots__ = ("_items", "_waiter", "expired")

    def __init__(self) -> None:
        # A list, not a deque: an empty deque is 624 bytes, an empty list 56, and few
        # messages ever wait (the reader's cap: EXTRA_MESSAGES beyond the requests
        # sent), so pop(0) stays cheap.
        self._items: list[object] = []
        self._waiter: asyncio.Future[object] | None = None
        self.expired = False

    def put(self, item: object) -> None:
        """A message (or _CLOSED, or an error) from the reader."""
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            self._waiter = None
            waiter.set_result(item)
        else:
            self._items.append(item)

    def has_items(self) -> bool:
        """Whether a message (or the stream's end) waits to be taken."""
        return bool(self._items)

    def replace_all(self, item: object) -> None:
        """Drop every message not yet taken, then post ``item``."""
        self._items.clear()
        self.put(item)

    def expire(self) -> None:
        """The deadline passed: wake the waiting decision."""
        self.expired = True
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            self._waiter = None
            waiter.set_result(_EXPIRED)

    async def get(self) -> object:
        """The next message, or _EXPIRED once the deadline has passed."""
        if self._items:
            return self._items.pop(0)
        if self.expired:
            return _EXPIRED
        waiter = asyncio.get_running_loop().create_future()
        self._waiter = waiter
        return await waiter


DRAIN_TURNS: Final = 4
"""Loop turns a decision whose deadline passed gives the reader before it looks for the
reply once more: a reply the loop has already received but not yet handed over (its
timer and the reply's arrival ran in the same turn, timer first) is taken."""
LAG_ALLOWANCE_S: Final = 2.0
"""A decision waits at most deadline + bank + this (or deadline + bank again, if more)
of wall time. Within that, a deadline that passes while the arena lagged is moved on by
the lag, so the bot gets all its time; past it the decision is cut: a TIMEOUT if the bot
had had its time, else an arena-lag fallback (no strike). The cap keeps a hung bot in an
arena that lags without end from holding its match for ever."""
_HAD_EPSILON: Final = 1e-4
"""Slack when comparing the time a bot had with its budget (timer and clock jitter)."""


@dataclass(slots=True)
class _Window:
    """The running decision's deadline: the bot's time counts from ``start``."""

    start: float
    """When the bot's time started (when the request had left)."""
    budget: float
    """Deadline plus bank, seconds."""
    last_call: float
    """When the decision is cut whatever the lag."""


class RemoteSeat:
    """A bot process reached over one ``Play`` stream on a shared channel.

    A reader task posts every message the bot sends to a mailbox, so the referee's own
    timer bounds each decision without ever cancelling a read (which would cancel the
    whole call). Each request goes out with an id the bot cannot guess
    (``request_ids.py``): a reply to an earlier request of this seat (one that timed
    out) is dropped; a reply with any other id but the awaited one (one never sent to
    this seat: another seat's, or one written before its request was sent) is STALE.
    Requests are encoded with the game's wire, replies read into an action
    (``replies.py``). The reader reads at
    most one message per request sent plus EXTRA_MESSAGES: past that it cancels the call
    and the seat's current or next decision is a MALFORMED fault. A reply whose bytes do
    not parse is a MALFORMED fault of the current (or next) decision; the stream stays
    open (gRPC goes on reading it).
    Once the stream breaks it stays broken for the match: every later decision is an
    immediate DISCONNECTED fault, so a dead bot cannot slow the match down.

    Deadlines run on the arena's clock (``clock.py``; injectable, for tests) and charge
    the bot only for time it had: from when the request had left (its write completed)
    to the reply, less the arena's own lag meanwhile. When the deadline passes, the
    reader gets a few loop turns and the mailbox is looked at again before a TIMEOUT is
    declared; a deadline that passes while the arena lagged is moved on by the lag (up
    within LAG_ALLOWANCE_S), the lag as known after those turns; a decision cut at the
    last call before the bot had its time is an arena-lag fallback, not a fault.

    How the stream ended is read when the call finishes (its done callback): a bot that
    ends the stream with an error status is an ERROR with its message, even when a
    write of the arena's fails first on the finished call.

    A seat on a pooled channel tells the endpoint's health record how its stream ended
    (``channels.py``); while the pool backs off from the bot, the seat opens no stream
    and faults at once.
    """

    def __init__(
        self,
        name: str,
        channel: grpc.aio.Channel,
        *,
        max_reply_bytes: int,
        clock: ArenaClock | None = None,
    ) -> None:
        self.name = name
        # Decide requests are written already serialized (each game's wire has a fast
        # encoder); other messages are serialized as usual.
        self._play = channel.stream_stream(
            "/arena.v1.Bot/Play",
            request_serializer=_serialize,
            response_deserializer=_parse_reply,
        )
        self._health = health_of(channel)
        self._max_reply_bytes = max_reply_bytes
        self._clock = clock
        self._call: grpc.aio.StreamStreamCall | None = None
        self._mailbox = _Mailbox()
        self._reader: asyncio.Task[None] | None = None
        self._writer: asyncio.Task[object] | None = None
        self._window: _Window | None = None
        self._timer: Timer | None = None
        self._ending: asyncio.Task[None] | None = None
        """The wait for the bot to end its call after MatchOver (in the background)."""
        self._broken: Fault | None = None
        self._refused = False
        """The pool backed off from this bot: no stream was opened."""
        self._reported = False
        """The stream's end was told to the endpoint's health record."""
        self._end: tuple[grpc.StatusCode, str] | None = None
        """The call's status, read the moment it finished."""
        self._flood_unreported = False
        """The reader broke the stream for flooding; no decision has had that fault yet."""
        self._sent = 0
        """Decide requests sent (the reader compares its count with it)."""
        self._received = 0
        """Messages read from the bot."""
        self._ids = RequestIds()
        """The ids this seat's requests go out with."""

    async def open(self, start: bot_pb2.MatchStart, timeout_s: float) -> Fault | None:
        """Open the stream (waiting up to ``timeout_s`` for the bot to come up) and send
        MatchStart; at once a DISCONNECTED fault if the pool is backing off the bot."""
        if self._clock is None:
            self._clock = loop_clock()
        if self._health is not None:
            refusal = self._health.refusal(self._clock.time())
            if refusal is not None:
                self._refused = True
                return self._break(Fault(FaultKind.DISCONNECTED, refusal))
        self._call = call = self._play(wait_for_ready=True)
        call.add_done_callback(self._on_call_done)
        try:
            async with asyncio.timeout(timeout_s):
                await call.write(bot_pb2.ArenaMessage(start=start))
        except TimeoutError:
            return self._break(
                Fault(FaultKind.DISCONNECTED, f"the bot did not accept a stream in {timeout_s:g} s")
            )
        except (grpc.aio.AioRpcError, *_STREAM_ENDED) as error:
            return self._break(self._ended(error, 0, "the stream ended at once"))
        self._reader = asyncio.create_task(self._read_all(call))
        return None

    def _on_call_done(self, call: grpc.aio.StreamStreamCall) -> None:
        """Keep the status the call finished with: a write that fails on the finished
        call makes grpc replace it with a local INTERNAL error."""
        self._end = _status_now(call)

    def _ended(self, error: BaseException | None, request_id: int, ended: str) -> Fault:
        """The fault of a stream found ended (by ``error``, or the reader's end of
        stream): by the status the call finished with, if it has finished."""
        end = self._end
        if end is not None and not (end[0] == grpc.StatusCode.CANCELLED and self._broken):
            code, details = end
            if code == grpc.StatusCode.OK:
                return Fault(FaultKind.DISCONNECTED, "the bot closed the stream", request_id)
            return _fault_of_code(code, details, request_id)
        if isinstance(error, grpc.aio.AioRpcError):
            return _fault_of_status(error, request_id)
        if error is None:
            return Fault(FaultKind.DISCONNECTED, "the bot closed the stream", request_id)
        return Fault(FaultKind.DISCONNECTED, f"{ended}: {error}", request_id)

    async def _read_all(self, call: grpc.aio.StreamStreamCall) -> None:
        mailbox = self._mailbox
        try:
            while True:
                message = await call.read()
                if message is grpc.aio.EOF:
                    mailbox.put(_CLOSED)
                    return
                self._received += 1
                if self._received > self._sent + EXTRA_MESSAGES:
                    self._flooded(call)
                    return
                mailbox.put(message)
        except grpc.aio.AioRpcError as error:
            mailbox.put(error)

    def _flooded(self, call: grpc.aio.StreamStreamCall) -> None:
        """Stop reading a bot that sends more than it is asked for: break the stream (the
        current decision, or else the next one, gets this fault) and cancel the call."""
        if self._broken is None:
            self._broken = Fault(
                FaultKind.MALFORMED,
                f"the bot sent {self._received} messages for {self._sent} requests (at most "
                f"one reply per request, and {EXTRA_MESSAGES} more, are read); the arena "
                "stopped reading and cancelled the stream",
            )
            self._flood_unreported = True
        call.cancel()
        self._mailbox.replace_all(_FLOODED)  # what is queued will never be used

    def _break(self, fault: Fault) -> Fault:
        """Mark the stream broken for the match, cancel the call, and return the fault of
        the decision that found it broken: ``fault``, unless the reader broke the stream
        first for flooding and no decision has had that fault yet."""
        broken = self._broken
        if broken is None:
            self._broken = fault
        elif self._flood_unreported:
            self._flood_unreported = False
            fault = Fault(broken.kind, broken.detail, fault.request_id)
        if self._call is not None:
            self._call.cancel()
        return fault

    async def decide(self, decision: Decision) -> Reply:
        """Send the request and wait for its reply: the bot has deadline + bank of its
        own time (see the class)."""
        broken = self._broken
        if broken is not None:
            fault = Fault(
                FaultKind.DISCONNECTED,
                f"the stream is closed ({broken.kind}: {broken.detail})",
                decision.request_id,
            )
            return Reply(fault=self._break(fault) if self._flood_unreported else fault)
        call = self._call
        clock = self._clock
        assert call is not None
        assert clock is not None
        request_id = decision.request_id
        wire_id = self._ids.wire(request_id)
        message = decision.request_bytes(wire_id)
        mailbox = self._mailbox
        mailbox.expired = False
        budget = decision.deadline_s + decision.bank_s
        clock.hold()
        self._arm(clock.time(), budget, writing=True)
        self._sent += 1
        try:
            self._writer = asyncio.current_task()
            await call.write(message)
            del message  # sent: not held while the bot thinks (memory per match in flight)
            self._writer = None
            # The bot's time starts once the request has left.
            self._arm(clock.time(), budget)
            while True:
                item = await mailbox.get()
                if item is _EXPIRED:
                    # A reply the loop has received may not have reached the mailbox yet.
                    for _ in range(DRAIN_TURNS):
                        await asyncio.sleep(0)
                    if mailbox.has_items():
                        continue
                    had, lag = self._had()
                    if had < budget - _HAD_EPSILON:
                        window = self._window
                        assert window is not None
                        if clock.time() < window.last_call:
                            # The timer found the time up on the lag it saw then; more of
                            # that span is known as lag now (the run-queue waits come with
                            # the watch's ticks, a stall once its tick has run): the bot
                            # has not had its time, so wait for the rest.
                            mailbox.expired = False
                            self._on_deadline()
                            continue
                        return Reply(elapsed_s=had, lag_s=lag, arena_lag=True)
                    return Reply(fault=_timeout(decision), elapsed_s=had, lag_s=lag)
                had, lag = self._had()
                if isinstance(item, bot_pb2.BotMessage):
                    if item.request_id == wire_id:
                        return self._checked(item, decision, had, lag)
                    earlier = self._ids.number(item.request_id)
                    if earlier is not None and earlier < request_id:
                        continue  # a late answer to a request that already timed out
                    return Reply(
                        fault=Fault(
                            FaultKind.STALE,
                            f"reply for request id {item.request_id}, which was never sent "
                            f"to this seat; expected {wire_id}",
                            request_id,
                        ),
                        elapsed_s=had,
                        lag_s=lag,
                    )
                if item is None:  # bytes that are no BotMessage; the stream goes on
                    return Reply(
                        fault=Fault(FaultKind.MALFORMED, UNDECODABLE, request_id),
                        elapsed_s=had,
                        lag_s=lag,
                    )
                if isinstance(item, grpc.aio.AioRpcError):
                    fault = self._ended(item, request_id, "the stream broke")
                elif item is _CLOSED:
                    fault = self._ended(None, request_id, "the stream ended")
                else:  # _FLOODED (which _break turns into its own fault)
                    fault = Fault(FaultKind.DISCONNECTED, "the bot closed the stream", request_id)
                return Reply(fault=self._break(fault), elapsed_s=had, lag_s=lag)
        except asyncio.CancelledError:
            task = asyncio.current_task()
            if task is None:
                raise
            if self._writer is not None and mailbox.expired:
                # Our deadline cancelled a write the bot never took: it stopped reading.
                if task.uncancel() > 0:
                    raise  # the task itself is being cancelled too
                fault = _timeout(decision, "; the bot stopped reading its stream")
            elif task.cancelling() == 0 and self._broken is not None:
                # Not our cancellation: the reader cancelled the call under the write.
                fault = Fault(FaultKind.DISCONNECTED, "the stream was cancelled", request_id)
            else:
                raise
            had, lag = self._had()
            return Reply(fault=self._break(fault), elapsed_s=had, lag_s=lag)
        except (grpc.aio.AioRpcError, *_STREAM_ENDED) as error:
            # The write found the call finished: how it finished decides the fault.
            fault = self._ended(error, request_id, "the stream is closed")
            had, lag = self._had()
            return Reply(fault=self._break(fault), elapsed_s=had, lag_s=lag)
        finally:
            self._writer = None
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None
            clock.release()

    def _arm(self, start: float, budget: float, *, writing: bool = False) -> None:
        """(Re)start the deadline: the bot's time counts from ``start``. While the
        request is being written the bot's time has not started: only a write stuck to
        the last call (a bot that stopped reading, so flow control holds the write) is
        cut; how soon a small write completes says nothing about the bot, everything
        about how busy the arena's process is."""
        assert self._clock is not None
        if self._timer is not None:
            self._timer.cancel()
        last_call = start + budget + max(budget, LAG_ALLOWANCE_S)
        self._window = _Window(start, budget, last_call)
        self._timer = self._clock.call_at(
            last_call if writing else start + budget, self._on_deadline
        )

    def _had(self) -> tuple[float, float]:
        """The time the bot has had in this decision so far, and the arena's lag."""
        clock = self._clock
        window = self._window
        assert clock is not None
        assert window is not None
        now = clock.time()
        lag = clock.lag(window.start, now)
        return max(0.0, now - window.start - lag), lag

    def _on_deadline(self) -> None:
        """The deadline's timer: cut the decision, unless the arena's lag took some of
        the bot's time; then wait that long again (within LAG_ALLOWANCE_S)."""
        clock = self._clock
        window = self._window
        assert clock is not None
        assert window is not None
        had, _ = self._had()
        now = clock.time()
        if had < window.budget - _HAD_EPSILON and now < window.last_call:
            when = min(now + window.budget - had, window.last_call)
            self._timer = clock.call_at(when, self._on_deadline)
            return
        self._timer = None
        self._mailbox.expire()
        if self._writer is not None:
            self._writer.cancel()

    def _checked(
        self, message: bot_pb2.BotMessage, decision: Decision, had: float, lag: float
    ) -> Reply:
        size = message.ByteSize()
        if size > self._max_reply_bytes:
            return Reply(
                fault=Fault(
                    FaultKind.OVERSIZED,
                    f"reply of {size} bytes; the cap is {self._max_reply_bytes}",
                    decision.request_id,
                ),
                elapsed_s=had,
                lag_s=lag,
            )
        action, fault = read_reply(
            message, decision.observation.legal, decision.wire, decision.request_id
        )
        return Reply(action=action, fault=fault, elapsed_s=had, lag_s=lag)

    def _report(self) -> None:
        """Tell the endpoint's health record how this seat's stream ended (once)."""
        health = self._health
        if health is None or self._reported or self._refused or self._clock is None:
            return
        self._reported = True
        broken = self._broken
        if broken is not None and broken.kind in _STREAM_FAILURES:
            health.broke(self._clock.time(), f"{broken.kind}: {broken.detail}")
        elif self._call is not None:
            health.ended_well()

    async def close(self, over: bot_pb2.MatchOver, timeout_s: float) -> None:
        """Send MatchOver and half-close; the bot then has ``timeout_s`` to end the call,
        waited for in the background (``ending.py``) so the match is over at once. The
        faults in ``over`` name requests by their number in the match; the bot is told
        the ids it was sent."""
        self._report()
        call = self._call
        if call is None:
            return
        for fault in over.faults:
            if fault.request_id:
                fault.request_id = self._ids.wire(fault.request_id)
        if self._broken is None:
            try:
                async with asyncio.timeout(timeout_s):
                    await call.write(bot_pb2.ArenaMessage(over=over))
                    await call.done_writing()
            except (TimeoutError, grpc.aio.AioRpcError, *_STREAM_ENDED):
                pass
            except asyncio.CancelledError:
                if _being_cancelled():
                    self._cancel(call)
                    raise
                # Otherwise the call was cancelled (not this task): nothing to wait for.
            else:
                self._ending = end_in_background(self._await_end(call, timeout_s))
                return
        await self._await_end(call, 0.0)

    async def ended(self) -> None:
        """Wait until the stream has ended: the bot ended its call after MatchOver, or
        the close timeout cancelled it. Until then the bot may still be busy with this
        match; a cap on a bot's matches at once counts it. (Cancelling this wait does not
        cancel the ending.)"""
        if self._ending is not None:
            await asyncio.wait((self._ending,))

    async def _await_end(self, call: grpc.aio.StreamStreamCall, timeout_s: float) -> None:
        """Give the bot up to ``timeout_s`` to end the call, then cancel it. A
        CancelledError of the call (or the reader) is its end; this task's own
        cancellation cancels the call and propagates."""
        reader = self._reader
        try:
            if reader is not None and timeout_s > 0:
                try:
                    async with asyncio.timeout(timeout_s):
                        await reader
                except (TimeoutError, grpc.aio.AioRpcError):
                    pass
                except asyncio.CancelledError:
                    if _being_cancelled():
                        raise
        finally:
            self._cancel(call)
        if reader is not None:
            try:
                await reader
            except grpc.aio.AioRpcError:
                pass
            except asyncio.CancelledError:
                if _being_cancelled():
                    raise

    def _cancel(self, call: grpc.aio.StreamStreamCall) -> None:
        call.cancel()
        if self._reader is not None:
            self._reader.cancel()


async def seats_ended(seats: Sequence[Seat]) -> None:
    """Wait until every remote seat's stream has ended (``RemoteSeat.ended``): the
    point from which a bot with a cap on its matches at once is free for another."""
    await asyncio.gather(*(seat.ended() for seat in seats if isinstance(seat, RemoteSeat)))


def _being_cancelled() -> bool:
    """Whether the running task is being cancelled (as opposed to having seen a
    CancelledError of something it awaited, such as a cancelled gRPC call)."""
    task = asyncio.current_task()
    return task is not None and task.cancelling() > 0


def _timeout(decision: Decision, why: str = "") -> Fault:
    bank = f" + {decision.bank_s * 1000:.0f} ms bank" if decision.bank_s else ""
    return Fault(
        FaultKind.TIMEOUT,
        f"no reply within {decision.deadline_s * 1000:.0f} ms{bank}{why}",
        decision.request_id,
    )


UNDECODABLE: Final = "the reply's bytes are not an arena.v1.BotMessage"
"""The detail of the MALFORMED fault of a reply that does not parse."""


def _parse_reply(data: bytes) -> bot_pb2.BotMessage | None:
    """A reply, or None if its bytes do not parse. grpc.aio would also read them as None
    (the call goes on), but after logging a traceback for each: a bot's garbage is a
    fault of that bot, not an error of the arena."""
    try:
        return bot_pb2.BotMessage.FromString(data)
    except DecodeError:
        return None


def _serialize(message: bytes | bot_pb2.ArenaMessage) -> bytes:
    if isinstance(message, bytes):
        return message
    return message.SerializeToString()


_OVER_RECEIVE_CAP = re.compile(r"Received message larger than max \((\d+) vs\. (\d+)\)")
"""How grpc core words the RESOURCE_EXHAUSTED it fails a call with when a message exceeds
the channel's receive cap (grpc 1.85: "Stream removed (CLIENT: Received message larger
than max (2097161 vs. 1048576))")."""


def _status_now(call: grpc.aio.StreamStreamCall) -> tuple[grpc.StatusCode, str] | None:
    """The status of a call that has finished (from its done callback), read at once:
    ``code()`` and ``details()`` are coroutines that return without waiting once the
    status is in, which it is when the done callbacks run."""
    code = _at_once(call.code())
    details = _at_once(call.details())
    if code is None:
        return None
    return code, details or ""


def _at_once(coroutine: Coroutine[Any, Any, T]) -> T | None:
    """The result of a coroutine that completes without suspending, else None."""
    try:
        coroutine.send(None)
    except StopIteration as done:
        result: T = done.value
        return result
    except Exception:
        return None
    coroutine.close()
    return None


def _fault_of_status(error: grpc.aio.AioRpcError, request_id: int) -> Fault:
    """The fault of a call that ended with ``error``."""
    return _fault_of_code(error.code(), error.details() or "", request_id)


def _fault_of_code(code: grpc.StatusCode, details: str, request_id: int) -> Fault:
    """The fault of a call that ended with status ``code``. The arena sets no gRPC
    deadline on Play and its only size limit is the channel's receive cap, so
    DEADLINE_EXCEEDED, and RESOURCE_EXHAUSTED other than that cap's, are statuses the bot
    sent: ERROR."""
    detail = f"{code.name}: {details or 'no details'}"
    if code in (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.CANCELLED):
        return Fault(FaultKind.DISCONNECTED, detail, request_id)
    if code == grpc.StatusCode.RESOURCE_EXHAUSTED:
        over = _OVER_RECEIVE_CAP.search(details)
        if over is not None and int(over[1]) > int(over[2]):
            return Fault(FaultKind.OVERSIZED, detail, request_id)
    return Fault(FaultKind.ERROR, detail, request_id)
