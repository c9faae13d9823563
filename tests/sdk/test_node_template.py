"""sample_bots/node/random_bot.js works as a template copied out of the repository: it
finds the proto files through ARENA_PROTO_ROOT, --proto DIR or a proto/ next to it, and
without them it says which path it looked in and what to do (not a bare ENOENT)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import grpc
import pytest
from sdk_support import REPO, START_TIMEOUT_S, bot_process

from arena.v1 import bot_pb2, bot_pb2_grpc

NODE_DIR = REPO / "sample_bots" / "node"
PROTO = REPO / "proto"


@pytest.fixture
def template(tmp_path: Path) -> Path:
    """random_bot.js and package.json copied to a directory of their own (deep enough
    that the repository-relative default ../../proto is not there either), with the
    sample's node_modules linked in."""
    if shutil.which("node") is None:
        pytest.skip("node is not installed on this machine")
    if not (NODE_DIR / "node_modules").is_dir():
        pytest.skip("sample_bots/node/node_modules is absent (run `npm ci` there)")
    bot = tmp_path / "elsewhere" / "my" / "bot"
    bot.mkdir(parents=True)
    for name in ("random_bot.js", "package.json"):
        shutil.copy(NODE_DIR / name, bot / name)
    (bot / "node_modules").symlink_to(NODE_DIR / "node_modules", target_is_directory=True)
    return bot


def env(**extra: str) -> dict[str, str]:
    base = {k: v for k, v in os.environ.items() if k != "ARENA_PROTO_ROOT"}
    return {**base, **extra}


def assert_serves(command: list[str], environ: dict[str, str], cwd: Path) -> None:
    with bot_process(command, env=environ, cwd=cwd) as bot:
        with grpc.insecure_channel(f"127.0.0.1:{bot.port}") as channel:
            hello = bot_pb2_grpc.BotStub(channel).Hello(bot_pb2.HelloRequest(), timeout=10)
        assert hello.name == "node-random"
        assert list(hello.games) == ["abluxxen", "fluxx", "openspiel:*"]


def test_arena_proto_root_points_a_copied_template_at_the_protos(template: Path) -> None:
    command = ["node", str(template / "random_bot.js"), "--port", "0"]
    assert_serves(command, env(ARENA_PROTO_ROOT=str(PROTO)), template)


def test_the_proto_flag_does_the_same(template: Path) -> None:
    command = ["node", "random_bot.js", "--proto", str(PROTO), "--port", "0"]
    assert_serves(command, env(ARENA_PROTO_ROOT="/nowhere"), template)  # the flag wins


def test_a_proto_directory_next_to_the_bot_is_found(template: Path) -> None:
    shutil.copytree(PROTO, template / "proto")
    assert_serves(["node", "random_bot.js", "--port", "0"], env(), template)


def run_briefly(template: Path, environ: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["node", "random_bot.js", "--port", "0"],
        cwd=template,
        env=environ,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=START_TIMEOUT_S,
    )


def test_without_the_protos_it_names_the_path_and_the_fix(template: Path) -> None:
    ended = run_briefly(template, env())
    assert ended.returncode != 0
    assert ended.stdout == ""  # no listening line
    assert "ENOENT" not in ended.stderr
    assert "at Object" not in ended.stderr  # no JavaScript stack
    assert str(template / "proto" / "arena" / "v1" / "bot.proto") in ended.stderr
    assert "ARENA_PROTO_ROOT" in ended.stderr
    assert "--proto" in ended.stderr


def test_a_wrong_arena_proto_root_is_named(template: Path, tmp_path: Path) -> None:
    wrong = tmp_path / "not-the-protos"
    wrong.mkdir()
    ended = run_briefly(template, env(ARENA_PROTO_ROOT=str(wrong)))
    assert ended.returncode != 0
    assert ended.stdout == ""
    assert str(wrong / "arena" / "v1" / "bot.proto") in ended.stderr
    assert "ARENA_PROTO_ROOT" in ended.stderr
    assert "ENOENT" not in ended.stderr
