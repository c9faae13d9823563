"""Checking a path the user gave for a file the arena is to write (a record, a report)
before any work is done for it."""

from __future__ import annotations

import os
from pathlib import Path


def output_path_problem(path: str, example_name: str) -> str | None:
    """Why no file could be written at ``path`` (a directory; a file where a folder
    should be; a folder we may not write in), or None. Missing folders are fine: the
    writer makes them. ``example_name`` is suggested as a file name for a directory."""
    target = Path(path)
    if target.is_dir() or path.endswith(("/", os.sep)):
        return f"it is a directory; give a file name, e.g. {target / example_name}"
    for parent in target.parents:
        if parent.exists():
            if not parent.is_dir():
                return f"{parent} is a file, not a directory"
            if not os.access(parent, os.W_OK | os.X_OK):
                return f"no permission to write in {parent}"
            break
    return None
