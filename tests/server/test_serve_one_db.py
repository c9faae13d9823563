"""Two `arena serve` processes never share a database: the second is refused with a
clear message and the first goes on untouched (the claim in ``Store.claim``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from .support import Processes, arena_cli


@pytest.mark.slow
def test_a_second_server_on_the_same_database_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "serve.db"
    procs = Processes()
    try:
        procs.serve(db, "--table-size", "2")
        second = arena_cli("serve", "--db", str(db), "--port", "0", "--table-size", "2")
        assert second.returncode == 2
        assert "another `arena serve` is already using" in second.stderr
        assert "Traceback" not in second.stderr
        # Another database is fine.
        procs.serve(tmp_path / "other.db", "--table-size", "2")
    finally:
        procs.kill_all()
