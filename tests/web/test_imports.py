"""The web app's modules import one another one way: ``app`` builds its routes from the
page modules, which share ``handling``; nothing under ``arena/web`` imports ``app`` back
but the entry point that serves it (``embed``, for ``arena serve --web-port``)."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path
from typing import Final

import arena.web

WEB: Final = Path(arena.web.__file__).parent
PACKAGE: Final = "arena.web"
ENTRY_POINTS: Final = {"embed"}
"""Modules that serve the app and so must import ``app`` (the CLI lives outside)."""


def imported(path: Path) -> set[str]:
    """The ``arena.web`` modules ``path`` imports when it runs, at its top or inside a
    function (not those under ``if TYPE_CHECKING:``, which only the type checker reads)."""
    found: set[str] = set()
    for node in _run_time(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # ``from .x import y`` or ``from . import x``
                base = f"{PACKAGE}.{base}" if base else PACKAGE
            if base == PACKAGE:
                found |= {alias.name for alias in node.names}
            elif base.startswith(f"{PACKAGE}."):
                found.add(base.removeprefix(f"{PACKAGE}.").split(".")[0])
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith(f"{PACKAGE}."):
                    found.add(alias.name.removeprefix(f"{PACKAGE}.").split(".")[0])
    return found


def _run_time(node: ast.AST) -> Iterator[ast.AST]:
    """``node`` and what is under it, but the bodies of ``if TYPE_CHECKING:``."""
    yield node
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
            for other in child.orelse:
                yield from _run_time(other)
        else:
            yield from _run_time(child)


def graph() -> dict[str, set[str]]:
    """Each module of ``arena/web`` and the modules of the package it imports."""
    modules = {path.stem: path for path in WEB.glob("*.py") if path.stem != "__init__"}
    return {name: imported(path) & modules.keys() for name, path in modules.items()}


def cycle(edges: dict[str, set[str]]) -> list[str]:
    """One cycle of ``edges`` (its modules in order, the first repeated), or []."""
    state: dict[str, str] = {}  # "open" on the current path, "done" once explored

    def visit(node: str, path: list[str]) -> list[str]:
        state[node] = "open"
        for nxt in sorted(edges[node]):
            if state.get(nxt) == "open":
                return [*path[path.index(nxt) :], nxt]
            if nxt not in state and (found := visit(nxt, [*path, nxt])):
                return found
        state[node] = "done"
        return []

    for start in sorted(edges):
        if start not in state and (found := visit(start, [start])):
            return found
    return []


def test_no_module_of_the_web_app_imports_another_back() -> None:
    found = cycle(graph())
    assert not found, f"arena/web imports in a circle: {' -> '.join(found)}"


def test_only_the_entry_point_imports_the_app() -> None:
    importers = {name for name, targets in graph().items() if "app" in targets}
    assert importers <= ENTRY_POINTS, f"{sorted(importers - ENTRY_POINTS)} import arena.web.app"


def test_the_check_sees_a_circle_and_lazy_imports(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text(
        "from . import a, b\nfrom .c import x\ndef f():\n    from arena.web.d import y\n"
        "if TYPE_CHECKING:\n    from .e import z\nelse:\n    from .f import z\n"
    )
    assert imported(module) == {"a", "b", "c", "d", "f"}
    assert cycle({"app": {"pages"}, "pages": {"handling", "app"}, "handling": set()}) == [
        "app",
        "pages",
        "app",
    ]
    assert cycle({"app": {"pages"}, "pages": {"handling"}, "handling": set()}) == []
