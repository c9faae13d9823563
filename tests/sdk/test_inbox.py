"""The Inbox: direct reads on the fast path, read-ahead while a thread thinks, stale
requests dropped, no message lost or reordered."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

from arena.sdk.inbox import Inbox
from arena.v1 import bot_pb2

END = None


def decide(request_id: int) -> bot_pb2.ArenaMessage:
    return bot_pb2.ArenaMessage(decide=bot_pb2.DecideRequest(request_id=request_id))


def over() -> bot_pb2.ArenaMessage:
    return bot_pb2.ArenaMessage(over=bot_pb2.MatchOver(match_id="m"))


class Stream:
    """A Play stream fed by the test; records the task of every read."""

    def __init__(self) -> None:
        self.queue: asyncio.Queue[bot_pb2.ArenaMessage | None] = asyncio.Queue()
        self.readers: list[asyncio.Task[object] | None] = []

    async def messages(self) -> AsyncIterator[bot_pb2.ArenaMessage]:
        while True:
            self.readers.append(asyncio.current_task())
            msg = await self.queue.get()
            if msg is None:
                return
            yield msg

    def send(self, *msgs: bot_pb2.ArenaMessage | None) -> None:
        for msg in msgs:
            self.queue.put_nowait(msg)


def ids(msgs: list[bot_pb2.ArenaMessage | None]) -> list[object]:
    return [m.decide.request_id if m is not None and m.decide.request_id else m for m in msgs]


def test_without_a_thread_the_stream_is_read_in_the_callers_task() -> None:
    async def main() -> None:
        stream = Stream()
        inbox = Inbox(stream.messages())
        stream.send(decide(1), decide(2), over(), END)
        got = [await inbox.next() for _ in range(4)]
        assert ids(got) == [1, 2, over(), None]  # nothing skipped: nothing was waiting
        assert await inbox.next() is None
        assert set(stream.readers) == {asyncio.current_task()}  # no task hop per message
        await inbox.close()

    asyncio.run(main())


def test_requests_overtaken_while_a_thread_thinks_are_skipped() -> None:
    async def main() -> None:
        stream = Stream()
        inbox = Inbox(stream.messages())
        stream.send(decide(1))
        assert ids([await inbox.next()]) == [1]

        async def think() -> str:
            stream.send(decide(2), over(), decide(3))  # 2 timed out while the policy thought
            await asyncio.sleep(0.05)
            return "answer 1"

        assert await inbox.run(think()) == "answer 1"
        assert ids([await inbox.next(), await inbox.next()]) == [over(), 3]
        assert inbox.skipped == 1

        async def think_again() -> str:
            await asyncio.sleep(0.01)
            return "answer 3"

        assert await inbox.run(think_again()) == "answer 3"  # leaves a read waiting
        stream.send(decide(4), END)  # the waiting read gets 4: it is not lost
        assert ids([await inbox.next(), await inbox.next()]) == [4, None]
        assert inbox.skipped == 1
        await inbox.close()

    asyncio.run(main())


def test_the_stream_ending_while_a_thread_thinks() -> None:
    async def main() -> None:
        stream = Stream()
        inbox = Inbox(stream.messages())

        async def think() -> int:
            stream.send(decide(5), END)
            await asyncio.sleep(0.05)
            return 0

        assert await inbox.run(think()) == 0
        assert ids([await inbox.next(), await inbox.next(), await inbox.next()]) == [5, None, None]
        await inbox.close()

    asyncio.run(main())


def test_a_broken_stream_reads_as_its_end() -> None:
    async def broken() -> AsyncIterator[bot_pb2.ArenaMessage]:
        yield decide(1)
        raise ConnectionError("reset")

    async def main() -> list[object]:
        inbox = Inbox(broken())
        return ids([await inbox.next(), await inbox.next()])

    assert asyncio.run(main()) == [1, None]


def test_close_stops_a_read_still_waiting() -> None:
    async def main() -> None:
        stream = Stream()
        inbox = Inbox(stream.messages())

        async def think() -> None:
            await asyncio.sleep(0.01)

        await inbox.run(think())
        await inbox.close()  # returns, though no message ever comes

    asyncio.run(asyncio.wait_for(main(), 5))
