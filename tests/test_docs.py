"""The repository's documents stay true to their sources."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED_RULES = ROOT.parent / "shared" / "RULES.md"


def test_the_rules_copy_matches_the_workspace_spec() -> None:
    if not SHARED_RULES.exists():
        pytest.skip("no workspace copy of RULES.md next to this clone")
    copy = (ROOT / "docs" / "RULES.md").read_text().split("\n", 1)[1]
    assert copy == SHARED_RULES.read_text(), "copy ../shared/RULES.md into docs/RULES.md"


def test_links_to_documents_resolve() -> None:
    # Every relative markdown link in the README and docs points at a file in the clone.
    for page in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        for target in re.findall(r"\]\(([^)#:]+?)(?:#[^)]*)?\)", page.read_text()):
            path = (page.parent / target).resolve()
            assert path.is_relative_to(ROOT), f"{page.name}: {target} is outside the repository"
            assert path.exists(), f"{page.name}: broken link {target}"
