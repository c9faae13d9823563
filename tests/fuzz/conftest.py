"""The fuzz tests' hypothesis profile: derandomized (every run tries the same examples,
so a run is reproducible and never flaky), no example database (nothing is kept
between runs, as in CI), no per-example deadline (a loaded machine is slow, not wrong).

Each test takes the profile as the parent of its own settings
(``@settings(FUZZ, max_examples=N)``, ``FUZZ`` from ``plain.py``): loading it as the
session's default would change the other test directories' hypothesis tests too.
"""

from __future__ import annotations

from hypothesis import HealthCheck, settings

settings.register_profile(
    "arena-fuzz",
    derandomize=True,
    database=None,
    deadline=None,
    print_blob=False,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
