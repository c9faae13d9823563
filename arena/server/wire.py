"""The Arena service on a gRPC server, with replies that may come already serialized.

A public read's rows are serialized where they are read (``read_jobs``, in a read
process); the servicer puts the reply's other fields around those bytes (``joined``) and
gRPC sends the result as it is. So the arena's event loop, which the referee shares,
never unpickles, builds or serializes a message per row (a leaderboard page is 500).

Serialized messages of one type, concatenated, parse as one message holding all their
fields (a repeated field's elements in the order given). Joined in the order of their
field numbers, they are also byte for byte what the whole message serializes to: a
client cannot tell the difference (tests/server/test_serve_wire.py).
"""

from __future__ import annotations

from typing import Any

import grpc
from google.protobuf import message_factory
from google.protobuf.descriptor import ServiceDescriptor
from google.protobuf.message import Message

from arena.v1 import arena_pb2

ARENA: ServiceDescriptor = arena_pb2.DESCRIPTOR.services_by_name["Arena"]


def joined(*parts: Message | bytes) -> bytes:
    """The serialized reply made of ``parts`` (messages of the reply's type, or their
    bytes), given in the order of their fields' numbers."""
    return b"".join(part if isinstance(part, bytes) else part.SerializeToString() for part in parts)


def _serialized(reply: Message | bytes) -> bytes:
    return reply if isinstance(reply, bytes) else reply.SerializeToString()


def add_arena_servicer(servicer: Any, server: grpc.aio.Server) -> None:
    """Serve ``servicer``'s methods as the Arena service (as the generated
    ``add_ArenaServicer_to_server``, which would serialize bytes again and fail); each
    may answer a message or its serialized bytes. Every method of arena.proto's service
    must be there: one missing fails here, at start."""
    handlers = {
        method.name: grpc.unary_unary_rpc_method_handler(
            getattr(servicer, method.name),
            request_deserializer=message_factory.GetMessageClass(method.input_type).FromString,
            response_serializer=_serialized,
        )
        for method in ARENA.methods
    }
    generic = grpc.method_handlers_generic_handler(ARENA.full_name, handlers)
    server.add_generic_rpc_handlers((generic,))
    server.add_registered_method_handlers(ARENA.full_name, handlers)
