"""Shared by every test directory: this file's directory (``tests/``) is on ``sys.path``
(pytest puts it there to load this file), so a directory's test kit can be imported
from another, e.g. ``from referee.scripted import run_virtual`` in tests/security."""

from pathlib import Path

import pytest

_FUZZ = Path(__file__).resolve().parent / "fuzz"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The fuzzing (tests/fuzz) is slow by nature: ``./scripts/test --fast`` leaves it out;
    the whole suite runs it."""
    for item in items:
        if _FUZZ in Path(str(item.path)).parents:
            item.add_marker(pytest.mark.slow)
