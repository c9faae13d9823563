"""The optional compiled build (arena/native.py): used only while it matches the
sources, never when ARENA_PURE_PYTHON is set, and actually in use after setup built it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from arena import native

ROOT = Path(__file__).resolve().parents[1]


def _fake_build(directory: Path, stamp: str) -> Path:
    package = directory / "arena" / "games" / "abluxxen"
    package.mkdir(parents=True)
    (directory / native.STAMP).write_text(stamp + "\n")
    return package


def test_a_build_from_the_current_sources_goes_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    package = _fake_build(tmp_path, native.sources_digest())
    monkeypatch.setenv(native.BUILD_DIR_ENV, str(tmp_path))
    monkeypatch.delenv(native.DISABLE_ENV, raising=False)
    monkeypatch.setattr(sys, "path", list(sys.path))  # use_compiled appends the build
    path = ["/src/arena/games/abluxxen"]
    assert native.use_compiled("arena.games.abluxxen", path)
    assert path == [str(package), "/src/arena/games/abluxxen"]
    assert sys.path[-1] == str(tmp_path), "the build's shared runtime library is importable"
    assert native.use_compiled("arena.games.abluxxen", path)
    assert path.count(str(package)) == 1, "a second call adds nothing"
    assert sys.path.count(str(tmp_path)) == 1


def test_a_stale_or_missing_build_is_ignored(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _fake_build(tmp_path, "0" * 64)  # built from other sources
    monkeypatch.setenv(native.BUILD_DIR_ENV, str(tmp_path))
    monkeypatch.delenv(native.DISABLE_ENV, raising=False)
    path = ["/src"]
    assert not native.use_compiled("arena.games.abluxxen", path)
    assert path == ["/src"]
    monkeypatch.setenv(native.BUILD_DIR_ENV, str(tmp_path / "nothing-here"))
    assert not native.use_compiled("arena.games.abluxxen", path)
    assert path == ["/src"]


def test_arena_pure_python_ignores_a_current_build(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _fake_build(tmp_path, native.sources_digest())
    monkeypatch.setenv(native.BUILD_DIR_ENV, str(tmp_path))
    monkeypatch.setenv(native.DISABLE_ENV, "1")
    path = ["/src"]
    assert not native.use_compiled("arena.games.abluxxen", path)
    assert path == ["/src"]


def test_the_digest_covers_every_source_of_the_compiled_packages() -> None:
    covered = {
        f"{package}.{source.stem}"
        for package in native.PACKAGES
        for source in native._package_dir(package).glob("*.py")
    }
    listed = {
        f"{package}.{module.removesuffix('.py')}"
        for package, modules in native.PACKAGES.items()
        for module in modules
    }
    assert listed <= covered
    assert "arena.games.abluxxen.wire" in covered, "the modules compiled code calls into count too"


def test_the_modules_run_compiled_when_setup_built_them() -> None:
    if os.environ.get(native.DISABLE_ENV):
        assert set(native.status().values()) == {"python"}
        return
    if not native.build_is_current():
        pytest.skip("no current compiled build (scripts/setup could not compile here)")
    assert native.compiled(), native.status()
    # And a fresh process (a bot, the league) picks the build up the same way.
    check = "import arena.native as n, sys; sys.exit(0 if n.compiled() else 1)"
    assert subprocess.run([sys.executable, "-c", check], cwd=ROOT, check=False).returncode == 0
