"""Messages between the head and a worker: pickled, length-prefixed, over a local
worker process's stdin and stdout or a Ray actor's TCP connection.

Pickle is safe here because both ends are the arena itself (the head starts the worker
from its own interpreter, or gives the actor a token that a connection must present
before anything is read from it); nothing a bot sends is unpickled.
"""

from __future__ import annotations

import asyncio
import pickle
import struct
from typing import Any, Final

_LENGTH: Final = struct.Struct(">I")


def encode(message: Any) -> bytes:
    """One framed message."""
    body = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    return _LENGTH.pack(len(body)) + body


async def read(reader: asyncio.StreamReader) -> Any:
    """The next message, or None at the end of the stream (the other end is gone)."""
    try:
        header = await reader.readexactly(_LENGTH.size)
        body = await reader.readexactly(_LENGTH.unpack(header)[0])
    except (asyncio.IncompleteReadError, ConnectionError):  # closed, or reset by a dead peer
        return None
    return pickle.loads(body)
