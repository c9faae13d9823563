"""The bot server: Hello, health checking, reflection, binding."""

from __future__ import annotations

import asyncio

import grpc
import pytest
from google.protobuf import descriptor_pb2
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc
from sdk_support import INFO, async_stub, served

from arena.policies import RandomPolicy
from arena.sdk import BOT_SERVICE, create_server, host_port
from arena.v1 import bot_pb2


def test_hello_answers_the_bot_info() -> None:
    async def main() -> bot_pb2.HelloReply:
        async with served(RandomPolicy) as (channel, _):
            stub = async_stub(channel)
            request = bot_pb2.HelloRequest(arena_version="test", protocol="arena.v1")
            reply: bot_pb2.HelloReply = await stub.Hello(request, timeout=5)
            return reply

    reply = asyncio.run(main())
    assert reply.name == INFO.name
    assert reply.version == INFO.version
    assert list(reply.games) == ["abluxxen"]
    assert list(reply.presets) == ["amigo"]
    assert list(reply.players) == []
    assert reply.author == "tests"


@pytest.mark.parametrize("service", ["", BOT_SERVICE])
def test_health_check_serving(service: str) -> None:
    async def main() -> int:
        async with served(RandomPolicy) as (channel, _):
            stub = health_pb2_grpc.HealthStub(channel)
            reply = await stub.Check(health_pb2.HealthCheckRequest(service=service), timeout=5)
            return int(reply.status)

    assert asyncio.run(main()) == health_pb2.HealthCheckResponse.SERVING


def test_health_check_unknown_service_not_found() -> None:
    async def main() -> grpc.StatusCode:
        async with served(RandomPolicy) as (channel, _):
            stub = health_pb2_grpc.HealthStub(channel)
            with pytest.raises(grpc.aio.AioRpcError) as error:
                await stub.Check(health_pb2.HealthCheckRequest(service="no.Such"), timeout=5)
            return error.value.code()

    assert asyncio.run(main()) == grpc.StatusCode.NOT_FOUND


def test_reflection_lists_the_bot_service() -> None:
    async def main() -> list[str]:
        async with served(RandomPolicy) as (channel, _):
            stub = reflection_pb2_grpc.ServerReflectionStub(channel)
            request = reflection_pb2.ServerReflectionRequest(list_services="")
            call = stub.ServerReflectionInfo(iter([request]), timeout=5)
            names = []
            async for reply in call:
                names += [s.name for s in reply.list_services_response.service]
            return names

    names = asyncio.run(main())
    assert BOT_SERVICE == "arena.v1.Bot"
    assert BOT_SERVICE in names
    assert "grpc.health.v1.Health" in names


def test_reflection_describes_the_bot_service() -> None:
    # A generic client (grpcurl) needs the file descriptors, imports included.
    async def main() -> list[str]:
        async with served(RandomPolicy) as (channel, _):
            stub = reflection_pb2_grpc.ServerReflectionStub(channel)
            request = reflection_pb2.ServerReflectionRequest(file_containing_symbol=BOT_SERVICE)
            call = stub.ServerReflectionInfo(iter([request]), timeout=5)
            files: list[str] = []
            async for reply in call:
                for data in reply.file_descriptor_response.file_descriptor_proto:
                    files.append(descriptor_pb2.FileDescriptorProto.FromString(data).name)
            return files

    files = asyncio.run(main())
    assert "arena/v1/bot.proto" in files
    assert "arena/v1/abluxxen.proto" in files


def test_port_zero_binds_a_free_port_and_a_taken_port_is_refused() -> None:
    async def main() -> None:
        server, port = await create_server(RandomPolicy, info=INFO)
        try:
            assert port > 0
            with pytest.raises(OSError, match="cannot listen"):
                await create_server(RandomPolicy, info=INFO, address=f"127.0.0.1:{port}")
        finally:
            await server.stop(None)

    asyncio.run(main())


def test_host_port_brackets_ipv6() -> None:
    assert host_port("127.0.0.1", 5) == "127.0.0.1:5"
    assert host_port("::", 5) == "[::]:5"
    assert host_port("[::1]", 5) == "[::1]:5"
