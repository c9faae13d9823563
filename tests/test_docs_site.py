"""The documentation site builds strictly (a broken link or anchor, or a page left out of
the navigation, fails it), and its generated references cover their sources."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path

import pytest
from google.protobuf import descriptor as _descriptor

from arena.cli import COMMANDS
from arena.v1 import abluxxen_pb2, arena_pb2, bot_pb2, fluxx_pb2, openspiel_pb2
from docsite.cli_reference import cli_reference
from docsite.proto_reference import proto_reference

ROOT = Path(__file__).resolve().parents[1]

pytest.importorskip("material", reason="the test extra installs mkdocs-material")


def test_the_site_builds_strictly(tmp_path: Path) -> None:
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    built = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert built.returncode == 0, built.stderr
    # The generated pages are there, and the README is the home page.
    assert (tmp_path / "reference" / "cli" / "index.html").exists()
    assert (tmp_path / "reference" / "protocol" / "index.html").exists()
    assert "Two commands on a fresh machine" in (tmp_path / "index.html").read_text()


def test_the_cli_reference_has_every_command() -> None:
    page = cli_reference()
    for command in COMMANDS:
        assert f"## `arena {command}`" in page
    assert "### `arena token create`" in page  # nested subcommands too
    assert "--until" in page  # and each command's options


def _names(messages: Mapping[str, _descriptor.Descriptor]) -> list[str]:
    return [n for m in messages.values() for n in (m.name, *_names(m.nested_types_by_name))]


def test_the_protocol_reference_has_every_message_and_service() -> None:
    page = proto_reference(ROOT / "proto")
    for module in (abluxxen_pb2, arena_pb2, bot_pb2, fluxx_pb2, openspiel_pb2):
        file = module.DESCRIPTOR
        for name in _names(file.message_types_by_name):
            assert f"`{name}`" in page or f".{name}`" in page, name
        for service in file.services_by_name:
            assert f"### service `{service}`" in page
    assert "The arena's version string." in page  # a field's comment
