"""``headroom.probe`` on a real process: short once fewer than FD_LOW descriptors can be
had under its soft limit, and when none can be opened at all; not short with room to
spare. The limits are set in a child process (the test's own are left alone)."""

from __future__ import annotations

import json
import subprocess
import sys

from arena.server.headroom import FD_LOW
from server.support import ROOT

CHILD = """
import json, os, resource
from arena.server.headroom import FD_LOW, probe

soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
open_now = len(os.listdir("/proc/self/fd")) - 1
found = {"room": probe()}
for name, limit in (
    ("low", open_now + FD_LOW - 1),
    ("enough", open_now + FD_LOW + 8),
    ("none", 3),
):
    resource.setrlimit(resource.RLIMIT_NOFILE, (limit, hard))
    found[name] = probe()
    resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
print(json.dumps({
    "open": open_now,
    **{k: None if v is None else [v.what, v.why] for k, v in found.items()},
}))
"""


def test_the_probe_finds_a_process_short_of_descriptors() -> None:
    done = subprocess.run(
        [sys.executable, "-c", CHILD],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
        check=True,
    )
    found = json.loads(done.stdout)
    assert found["room"] is None
    assert found["enough"] is None
    open_now = found["open"]
    assert found["low"] == [
        "file descriptors",
        f"out of file descriptors: only {FD_LOW - 1} of the {open_now + FD_LOW - 1} its "
        "limit allows are free",
    ]
    assert found["none"] == [
        "file descriptors",
        "out of file descriptors: none of the 3 its limit allows is free",
    ]
