"""MkDocs hooks (mkdocs.yml): the pages generated from their sources, and links from
the docs to the repository's files outside ``docs/``.

The generated pages (the README as the site's start page, the command-line and the
protocol references) exist only in the build: nothing generated is committed, so nothing
can go stale. A link from a page to a file outside ``docs/`` (the README, a ``.proto``
file, a source file) works on the repository's own view of the files; on the site it
becomes the generated page of that file, or the file's name as text. A link to a file
that does not exist is a warning, which ``--strict`` makes an error."""

from __future__ import annotations

import logging
import re
import sys
from pathlib import Path
from typing import Any

from mkdocs.structure.files import File, Files

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # MkDocs loads this file by its path, not as docsite.hooks
    sys.path.insert(0, str(ROOT))

from docsite.cli_reference import cli_reference  # noqa: E402
from docsite.proto_reference import anchor, proto_reference  # noqa: E402

LOG = logging.getLogger("mkdocs.hooks.arena")
START = "index.md"
"""The root README, as the site's home page."""
CLI = "reference/cli.md"
PROTO = "reference/protocol.md"
LINK = re.compile(r"(?<!!)\[([^\]]*)\]\(([^)\s]+)\)")
FENCE = re.compile(r"^```.*?^```", re.MULTILINE | re.DOTALL)


def on_files(files: Files, config: Any) -> Files:
    # docs/README.md (the index of the pages) would be the site's home; the README is.
    index = files.get_file_from_path("README.md")
    if index is not None:
        index.dest_uri = "contents/index.html"
    pages = {
        START: (ROOT / "README.md").read_text(),
        CLI: cli_reference(),
        PROTO: proto_reference(ROOT / "proto"),
    }
    for src_uri, content in pages.items():
        files.append(File.generated(config, src_uri, content=content))
    return files


def _site_target(page_dir: Path, target: str, page: str) -> str | None:
    """Where a link to ``target`` (relative to the page's source folder) goes on the
    site: ``None`` keeps it as it is, ``""`` makes it text."""
    if re.match(r"[a-z][a-z0-9+.-]*:|#|/", target):
        return None  # a URL, an anchor on the page, or a path from the site's root
    path, _, fragment = target.partition("#")
    docs = ROOT / "docs"
    resolved = (page_dir / path).resolve()
    if resolved.is_relative_to(docs):  # a page of the site (MkDocs checks it exists)
        name = "README.md" if resolved == docs else resolved.relative_to(docs).as_posix()
        return _relative(page, name, fragment)
    if not resolved.exists():
        LOG.warning("%s: the link to %s points at no file", page, target)
        return None
    repo_path = resolved.relative_to(ROOT).as_posix()
    if repo_path == "README.md":
        return _relative(page, START, fragment)
    if repo_path.startswith("proto/") and repo_path.endswith(".proto"):
        return _relative(page, PROTO, anchor(repo_path))
    return ""


def _relative(page: str, to: str, fragment: str) -> str:
    depth = page.count("/")
    return "../" * depth + to + (f"#{fragment}" if fragment else "")


def _rewrite(markdown: str, page: str, page_dir: Path) -> str:
    def link(match: re.Match[str]) -> str:
        text, target = match.groups()
        site = _site_target(page_dir, target, page)
        if site is None:
            return match.group(0)
        return f"[{text}]({site})" if site else text

    parts = []
    last = 0
    for fence in FENCE.finditer(markdown):  # links in code are code
        parts.append(LINK.sub(link, markdown[last : fence.start()]))
        parts.append(fence.group(0))
        last = fence.end()
    parts.append(LINK.sub(link, markdown[last:]))
    return "".join(parts)


def on_page_markdown(markdown: str, page: Any, config: Any, files: Files) -> str:
    src = page.file.src_uri
    if src == START:  # the README's links are relative to the repository's root
        return _rewrite(markdown, src, ROOT)
    if page.file.generated_by:
        return markdown
    return _rewrite(markdown, src, (ROOT / "docs" / src).parent)
