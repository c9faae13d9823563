"""The repository's documents stay true to their sources."""

from __future__ import annotations

import contextlib
import io
import re
import shlex
from pathlib import Path

import pytest

from arena.cli import build_parser

ROOT = Path(__file__).resolve().parents[1]
SHARED_RULES = ROOT.parent / "shared" / "RULES.md"
PAGES = [
    ROOT / "README.md",
    *sorted((ROOT / "docs").glob("*.md")),
    ROOT / "scripts" / "bench" / "README.md",  # the benchmarks' index
]


def test_the_rules_copy_matches_the_workspace_spec() -> None:
    if not SHARED_RULES.exists():
        pytest.skip("no workspace copy of RULES.md next to this clone")
    copy = (ROOT / "docs" / "RULES.md").read_text().split("\n", 1)[1]
    assert copy == SHARED_RULES.read_text(), "copy ../shared/RULES.md into docs/RULES.md"


def test_links_to_documents_resolve() -> None:
    # Every relative markdown link in the README and docs points at a file in the clone.
    for page in PAGES:
        for target in re.findall(r"\]\(([^)#:]+?)(?:#[^)]*)?\)", page.read_text()):
            path = (page.parent / target).resolve()
            assert path.is_relative_to(ROOT), f"{page.name}: {target} is outside the repository"
            assert path.exists(), f"{page.name}: broken link {target}"


FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.MULTILINE | re.DOTALL)


def _blocks(page: Path, language: str) -> list[str]:
    return [body for lang, body in FENCE.findall(page.read_text()) if lang == language]


def _command_lines(block: str) -> list[list[str]]:
    """Each shell command of a ``sh`` block as words: continuations joined, comments,
    a trailing ``&``, ``VAR=value`` prefixes and ``[optional]`` parts dropped."""
    joined = block.replace("\\\n", " ")
    commands = []
    for line in joined.splitlines():
        words = shlex.split(re.sub(r"\[[^\]]*\]", "", line), comments=True)
        while words and re.fullmatch(r"[A-Z_]+=\S*", words[0]):
            words = words[1:]
        if words and words[-1] == "&":
            words = words[:-1]
        if words:
            commands.append(words)
    return commands


def _documented_commands() -> list[tuple[str, list[str]]]:
    return [
        (page.name, words)
        for page in PAGES
        for block in _blocks(page, "sh")
        for words in _command_lines(block)
    ]


def test_every_documented_arena_command_parses() -> None:
    # Each `arena ...` line of a shell block in the README or docs/ is a command line the
    # arena accepts: its subcommand and every option exist and take what is given.
    checked, wrong = 0, []
    for page, words in _documented_commands():
        if words[0] != "arena" or "..." in words:  # `...`: the rest of a line given above
            continue
        usage = io.StringIO()
        try:
            with contextlib.redirect_stderr(usage):
                build_parser(words[1]).parse_args(words[1:])
        except SystemExit:
            wrong.append(f"{page}: {shlex.join(words)}\n  {usage.getvalue().splitlines()[-1]}")
        checked += 1
    assert not wrong, "\n".join(wrong)
    assert checked > 50, checked  # the walk-throughs are found at all


def test_every_documented_script_and_file_exists() -> None:
    # `./scripts/X`, `python FILE` and `arena league FILE.toml` name files in the clone.
    for page, words in _documented_commands():
        named = [w for w in words if w.startswith(("./scripts/", "scripts/", "sample_bots/"))]
        named += [w for w in words if w.startswith("examples/")]
        for word in named:
            assert (ROOT / word).exists(), f"{page}: `{shlex.join(words)}` names a missing {word}"


def test_every_documented_python_block_compiles() -> None:
    for page in PAGES:
        for block in _blocks(page, "python"):
            compile(block, f"{page.name} (a python block)", "exec")


def test_the_index_lists_every_page() -> None:
    index = (ROOT / "docs" / "README.md").read_text()
    for page in (ROOT / "docs").glob("*.md"):
        if page.name == "README.md":
            continue
        assert f"]({page.name})" in index, f"docs/README.md has no line for {page.name}"
