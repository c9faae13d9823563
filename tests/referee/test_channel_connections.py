"""Each of the arena's channels has a connection of its own. gRPC shares one connection
among a process's channels to the same address by default, and with it that connection's
reconnect backoff (up to two minutes after connects failed): a verification's "fresh"
channel to a bot that had been down, or a channel opened after the arena had been short
of descriptors, waited that out instead of connecting, and the bot failed its Hello.

Fails without ``grpc.use_local_subchannel_pool`` in ``channels._OPTIONS``: two channels
to one bot make one connection. Connections are counted in ``/proc/net/tcp`` and
``tcp6`` (Linux; gRPC connects IPv4 addresses over IPv6 sockets, v4-mapped)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from arena.referee.channels import open_channel
from arena.referee.hello import hello

from .faulty_bot import Behaviour, start_faulty_bot

ESTABLISHED = "01"
"""A connection's state in /proc/net/tcp."""
TCP = (Path("/proc/net/tcp"), Path("/proc/net/tcp6"))


def _connections_to(port: int) -> int:
    """Established TCP connections whose far end is ``port``."""
    count = 0
    for table in TCP:
        for line in table.read_text().splitlines()[1:]:
            fields = line.split()
            remote, state = fields[2], fields[3]
            if state == ESTABLISHED and int(remote.rsplit(":", 1)[1], 16) == port:
                count += 1
    return count


@pytest.mark.skipif(not TCP[0].exists(), reason="counts connections in /proc/net (Linux)")
def test_two_channels_to_one_bot_make_two_connections() -> None:
    async def scenario() -> int:
        server, address, _ = await start_faulty_bot(Behaviour("ok"))
        one, two = open_channel(address), open_channel(address)
        try:
            for channel in (one, two):
                answer = await hello(channel, address, timeout_s=30)
                assert answer.error == ""
            return _connections_to(int(address.rsplit(":", 1)[1]))
        finally:
            await one.close()
            await two.close()
            await server.stop(None)

    assert asyncio.run(scenario()) == 2
