"""Games are plug-ins: the layers above ``arena/games`` reach a game only through the
Game interface (``arena.games``). None of their modules imports a game's package, and
none names a game, its presets, its protobuf messages or the words of its rules, in an
identifier or a string (docstrings and comments may give examples)."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

from arena.games import all_games

ROOT = Path(__file__).resolve().parents[1] / "arena"
LAYERS = ("policies", "referee", "league", "store", "server", "sdk", "cli", "web")
ALLOWED_GAME_MODULES = {"arena.games", "arena.games.base", "arena.games.registry"}


def _forbidden_words() -> set[str]:
    words: set[str] = set()
    for game in all_games():
        words |= {game.name.lower(), game.title.lower(), game.wire.oneof.lower()}
        words |= {preset.lower() for preset in game.presets}
        words |= {word.lower() for word in game.vocabulary}
    return words


def _modules() -> list[Path]:
    return sorted(p for layer in LAYERS for p in (ROOT / layer).rglob("*.py"))


def _docstrings(tree: ast.AST) -> set[int]:
    """ids of the string constants that are docstrings (of modules, classes, functions
    and attributes: a string expression statement documents what precedes it)."""
    found: set[int] = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", [])
        for child in body if isinstance(body, list) else []:
            if (
                isinstance(child, ast.Expr)
                and isinstance(child.value, ast.Constant)
                and isinstance(child.value.value, str)
            ):
                found.add(id(child.value))
    return found


def _names(tree: ast.AST) -> Iterator[tuple[int, str]]:
    """Every identifier and non-docstring string of a module, with its line."""
    docstrings = _docstrings(tree)
    for node in ast.walk(tree):
        line = getattr(node, "lineno", 0)
        if isinstance(node, ast.Name):
            yield line, node.id
        elif isinstance(node, ast.Attribute):
            yield line, node.attr
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            yield line, node.name
        elif isinstance(node, ast.arg | ast.keyword):
            if node.arg is not None:
                yield line, node.arg
        elif isinstance(node, ast.alias):
            yield line, node.name
            if node.asname:
                yield line, node.asname
        elif isinstance(node, ast.ImportFrom) and node.module:
            yield line, node.module
        elif (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and id(node) not in docstrings
        ):
            yield line, node.value


def _imported_modules(tree: ast.AST) -> Iterator[tuple[int, str]]:
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom) and node.module:
            yield node.lineno, node.module
            for alias in node.names:
                yield node.lineno, f"{node.module}.{alias.name}"


def test_the_scan_sees_every_layer() -> None:
    modules = _modules()
    for layer in LAYERS:
        assert any(p.parent.name == layer for p in modules), f"no modules found in {layer}"
    assert len(modules) > 50


@pytest.mark.parametrize("path", _modules(), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_layer_above_the_games_imports_a_game(path: Path) -> None:
    tree = ast.parse(path.read_text(), str(path))
    game_packages = {f"arena.games.{game.name}" for game in all_games()}
    for line, module in _imported_modules(tree):
        if module.startswith("arena.games") and module not in ALLOWED_GAME_MODULES:
            assert not any(
                module == package or module.startswith(package + ".") for package in game_packages
            ), f"{path.name}:{line} imports {module}"
            assert module.rsplit(".", 1)[0] in ALLOWED_GAME_MODULES, (
                f"{path.name}:{line} imports {module}, outside the Game interface"
            )
        assert not module.startswith("arena.v1.") or module.startswith(
            ("arena.v1.bot_pb2", "arena.v1.arena_pb2")
        ), f"{path.name}:{line} imports a game's protobuf module {module}"


@pytest.mark.parametrize("path", _modules(), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_layer_above_the_games_names_a_game(path: Path) -> None:
    words = _forbidden_words()
    tree = ast.parse(path.read_text(), str(path))
    for line, name in _names(tree):
        lowered = name.lower()
        hits = sorted(word for word in words if word in lowered)
        assert not hits, f"{path.name}:{line} names {hits} in {name!r}"


def test_the_scan_would_catch_a_game_name() -> None:
    tree = ast.parse('from arena.games import abluxxen as ab\nx = ab.preset("amigo")\n')
    words = _forbidden_words()
    found = [n for _, n in _names(tree) if any(w in n.lower() for w in words)]
    assert "abluxxen" in found
    assert "amigo" in found
