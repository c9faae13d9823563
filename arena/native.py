"""Optional compiled builds of the hot modules: the rules engine and the request encoder.

The same typed Python sources, compiled with mypyc (part of mypy), run about three times
faster. They are built into a folder of their own beside the environment (never next to
the sources, where a stale build would silently shadow an edited file) and used only
while they were built from exactly the current sources: every package listed in
``PACKAGES`` calls ``use_compiled`` before importing its modules, which puts the build
first on the package's ``__path__`` if its stamp matches, and otherwise leaves the pure
Python modules in charge. Set ARENA_PURE_PYTHON=1 to ignore a build.

Build (``scripts/setup`` does it; it needs mypy and a C compiler)::

    python -m arena.native build      # or: status
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path
from typing import Final

ROOT: Final = Path(__file__).resolve().parent
"""The ``arena`` package folder."""

PACKAGES: Final = {
    "arena.games.abluxxen": (
        "actions.py",
        "cards.py",
        "engine.py",
        "events.py",
        # The search bot's guide and playout policy: most of a decision's cost.
        "greedy.py",
        "observation.py",
        # Not options.py: its dataclasses check their fields' types themselves, with
        # clear errors, which a compiled __init__ would pre-empt; and it is not hot.
        "resample.py",
        "result.py",
        "serialize.py",
        "state.py",
        "wire_bytes.py",
    ),
    "arena.games.fluxx": (
        "actions.py",
        "cards.py",
        "effects.py",
        "engine.py",
        "events.py",
        "flow.py",
        "goals.py",
        # The search bot's guide and playout policy.
        "greedy.py",
        "legal.py",
        "moves.py",
        "numbers.py",
        "observation.py",
        # Not options.py, for Abluxxen's reason above; not wire.py (protobuf messages,
        # not hot), game.py, layout.py or replay_text.py (not hot).
        "resample.py",
        "serialize.py",
        "settle.py",
        "state.py",
        "turn.py",
        "wire_bytes.py",
    ),
    "arena.wire": ("encoding.py",),
}
"""Compiled modules by package. Package ``__init__`` files stay Python: they choose."""

DISABLE_ENV: Final = "ARENA_PURE_PYTHON"
BUILD_DIR_ENV: Final = "ARENA_NATIVE_DIR"
STAMP: Final = "arena-native.stamp"


def build_dir() -> Path:
    """Where the build lives: $ARENA_NATIVE_DIR, or ``arena-native`` in the environment."""
    configured = os.environ.get(BUILD_DIR_ENV)
    return Path(configured) if configured else Path(sys.prefix) / "arena-native"


def _package_dir(package: str, root: Path = ROOT) -> Path:
    return root.joinpath(*package.split(".")[1:])


_digest: str | None = None


def sources_digest() -> str:
    """A hash of every Python file of the compiled packages (the compiled modules and
    the ones they call into) and of the interpreter the build is for."""
    global _digest
    if _digest is None:
        _digest = _digest_of(ROOT)
    return _digest


def _digest_of(root: Path) -> str:
    """``sources_digest`` of the package tree at ``root``."""
    h = hashlib.sha256(f"{sys.implementation.cache_tag} {sys.platform}".encode())
    for package in sorted(PACKAGES):
        for source in sorted(_package_dir(package, root).glob("*.py")):
            h.update(f"\0{package}.{source.name}\0".encode())
            h.update(source.read_bytes())
    return h.hexdigest()


def build_is_current(directory: Path | None = None) -> bool:
    """Whether a build exists and was made from exactly the current sources."""
    stamp = (directory or build_dir()) / STAMP
    try:
        return stamp.read_text().strip() == sources_digest()
    except OSError:
        return False


def use_compiled(package: str, path: list[str]) -> bool:
    """Called by a compiled package's ``__init__`` before it imports its modules: put
    a current build first on the package's ``path``. Returns whether it did."""
    if os.environ.get(DISABLE_ENV) or not build_is_current():
        return False
    directory = build_dir()
    package_build = directory.joinpath(*package.split("."))
    if str(package_build) not in path:
        path.insert(0, str(package_build))
    # mypyc's shared runtime library is a top-level module of the build.
    if str(directory) not in sys.path:
        sys.path.append(str(directory))
    return True


def status() -> dict[str, str]:
    """Each compiled module's state: "compiled" or "python" (as imported now)."""
    import importlib

    out = {}
    for package, modules in PACKAGES.items():
        for module in modules:
            name = f"{package}.{module.removesuffix('.py')}"
            file = getattr(importlib.import_module(name), "__file__", "") or ""
            out[name] = "compiled" if file.endswith(_extension_suffix()) else "python"
    return out


def compiled() -> bool:
    """Whether every listed module runs compiled."""
    return all(state == "compiled" for state in status().values())


def _extension_suffix() -> str:
    return str(sysconfig.get_config_var("EXT_SUFFIX") or ".so")


def build(directory: Path | None = None) -> Path:
    """Compile the listed modules with mypyc into ``directory`` (default ``build_dir()``),
    replacing an earlier build; raise RuntimeError, with the compiler's output, if that
    fails. The sources are copied to a temporary folder first, so nothing is written
    next to them."""
    target = directory or build_dir()
    with tempfile.TemporaryDirectory(prefix="arena-native-") as tmp:
        work = Path(tmp)
        shutil.copytree(ROOT, work / "arena", ignore=shutil.ignore_patterns("__pycache__"))
        for name in ("pyproject.toml", "README.md"):  # mypy's settings (and what they name)
            if (ROOT.parent / name).exists():
                shutil.copy(ROOT.parent / name, work / name)
        files = [
            str(Path("arena", *package.split(".")[1:], module))
            for package, modules in PACKAGES.items()
            for module in modules
        ]
        run = subprocess.run(
            [sys.executable, "-m", "mypyc", *files],
            cwd=work,
            capture_output=True,
            text=True,
            check=False,
        )
        if run.returncode != 0:
            raise RuntimeError(
                "mypyc failed; the arena runs as pure Python meanwhile.\n"
                + (run.stdout + run.stderr)[-4000:]
            )
        target.parent.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix="arena-native-", dir=target.parent))
        suffix = _extension_suffix()
        for built in work.rglob(f"*{suffix}"):
            relative = built.relative_to(work)
            if relative.parts[0] == "build":
                continue  # setuptools' intermediate copies
            (staging / relative).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(built, staging / relative)
        # Stamped with the sources it was compiled from (the copy), not the live tree:
        # a file edited during the build leaves the build stale, as it is.
        (staging / STAMP).write_text(_digest_of(work / "arena") + "\n")
    # Replace the old build only once the new one is complete.
    if target.exists():
        shutil.rmtree(target)
    staging.rename(target)
    return target


def main(argv: list[str] | None = None) -> int:
    """``python -m arena.native build|status``."""
    args = sys.argv[1:] if argv is None else argv
    if args == ["build"]:
        try:
            target = build()
        except (RuntimeError, OSError) as error:
            print(f"arena.native: {error}", file=sys.stderr)
            return 1
        print(f"arena.native: compiled build in {target}")
        return 0
    if args == ["status"]:
        current = build_is_current()
        print(f"build folder: {build_dir()} ({'current' if current else 'missing or stale'})")
        if os.environ.get(DISABLE_ENV):
            print(f"{DISABLE_ENV} is set: pure Python")
        for name, state in status().items():
            print(f"  {name}: {state}")
        return 0
    print("usage: python -m arena.native build|status", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
