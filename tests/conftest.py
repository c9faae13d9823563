"""Shared by every test directory: this file's directory (``tests/``) is on ``sys.path``
(pytest puts it there to load this file), so a directory's test kit can be imported
from another, e.g. ``from referee.scripted import run_virtual`` in tests/security."""
