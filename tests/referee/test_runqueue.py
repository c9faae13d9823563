"""The kernel's run-queue waits of the arena's own threads (Linux ``/proc``): the loop's
thread and the gRPC threads that hand a reply on, which ``clock.LoopLag`` counts as the
arena's lag."""

from __future__ import annotations

import asyncio
import sys
import threading
import time

import grpc
import pytest

from arena.referee.clock import loop_clock
from arena.referee.runqueue import IO_THREAD_COMM, ThreadWaits, thread_waits

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="schedstat is Linux's")


def test_the_grpc_threads_that_hand_a_reply_on_are_watched() -> None:
    async def scenario() -> list[str]:
        server = grpc.aio.server()
        port = server.add_insecure_port("127.0.0.1:0")
        await server.start()
        channel = grpc.aio.insecure_channel(f"127.0.0.1:{port}")
        try:
            await asyncio.wait_for(channel.channel_ready(), 60)  # gRPC's threads now run
            waits = thread_waits()
            assert waits is not None
            return waits.watched()
        finally:
            await channel.close()
            await server.stop(None)

    watched = asyncio.run(scenario())
    assert IO_THREAD_COMM in watched
    assert "python" in watched  # the completion-queue poller, a Python thread


def test_waits_only_grow_and_a_thread_that_ended_is_dropped() -> None:
    waits = ThreadWaits()
    before = waits.read(0.0)
    spin = threading.Thread(target=lambda: time.sleep(0))
    spin.start()
    spin.join()
    after = waits.read(10.0)  # past the refresh interval: the thread list is read again
    assert after[0] >= before[0]
    assert after[1] >= before[1]


def test_a_real_loop_counts_kernel_waits_and_a_virtual_one_does_not() -> None:
    async def has_waits() -> bool:
        return loop_clock()._waits is not None

    assert asyncio.run(has_waits())

    from .scripted import run_virtual

    assert not run_virtual(has_waits())
