"""The scripts, styles and icon the pages use: ours, in ``arena/web/static``, and each game's
board stylesheet from its package. Nothing else: no CDN (the arena's machines are
offline) and no chart library (the charts are SVG drawn by the server, ``chart.py``).

Each file is served under a name carrying a hash of its bytes (``url``:
``/static/arena.3f2a9c1b0d4e.js``), made once per process when first asked (``create_app``
asks at start), with ``Cache-Control: public, max-age=31536000, immutable``: a file that
changes gets a new name, so a browser never asks again for one it has. Each is gzipped
once, at level 9, and sent so to a client that accepts gzip. Under its plain name
(``/static/arena.js``) a file still answers, revalidated each time (``no-cache``, an
``ETag``), for whatever links to it by hand.
"""

from __future__ import annotations

import gzip
import hashlib
import re
import threading
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Final
from urllib.parse import quote

from starlette.responses import Response

from arena.games import UnknownGameError, get

STATIC: Final = Path(__file__).with_name("static")
"""Our own scripts and styles."""
IMMUTABLE: Final = "public, max-age=31536000, immutable"
"""The cache lifetime of a hashed name: a year (the longest HTTP caches keep)."""
REVALIDATE: Final = "no-cache"
"""A plain name: kept, but asked again (answered 304 while it is unchanged)."""
HASH_CHARS: Final = 12
"""Hex digits of the SHA-256 of a file's bytes in its name."""
MEDIA_TYPES: Final = {
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".svg": "image/svg+xml",
}


@dataclass(frozen=True, slots=True)
class Asset:
    """One static file: its bytes, compressed once, under its plain and hashed names."""

    name: str
    """The plain name (``arena.js``)."""
    hashed: str
    """The name with the hash of its bytes (``arena.3f2a9c1b0d4e.js``)."""
    body: bytes
    gzipped: bytes
    media_type: str

    @property
    def etag(self) -> str:
        """The ETag of the uncompressed bytes (the gzipped one adds ``-gz``)."""
        return f'"{self.hashed.split(".")[-2]}"'


def make_asset(name: str, body: bytes) -> Asset:
    """``body`` served as ``name`` (its suffix gives its media type)."""
    stem, dot, suffix = name.rpartition(".")
    digest = hashlib.sha256(body).hexdigest()[:HASH_CHARS]
    return Asset(
        name=name,
        hashed=f"{stem}.{digest}{dot}{suffix}",
        body=body,
        gzipped=gzip.compress(body, compresslevel=9, mtime=0),
        media_type=MEDIA_TYPES.get(f".{suffix}", "application/octet-stream"),
    )


@cache
def static_files() -> dict[str, Asset]:
    """Every file of ``STATIC``, by its plain name and by its hashed name."""
    found: dict[str, Asset] = {}
    for path in sorted(STATIC.iterdir()):
        if path.is_file() and path.suffix in MEDIA_TYPES:
            asset = make_asset(path.name, path.read_bytes())
            found[asset.name] = found[asset.hashed] = asset
    return found


def url(name: str) -> str:
    """The address of our static file ``name``, under its hashed name."""
    return f"/static/{static_files()[name].hashed}"


def inline(name: str) -> str:
    """The text of one of our static files, to inline in a self-contained page."""
    return static_files()[name].body.decode("utf-8")


_boards: dict[str, Asset | None] = {}
_boards_lock = threading.Lock()


def board_stylesheet(game: str) -> Asset | None:
    """The board stylesheet of ``game`` (from its package; None: no such game, or none
    with a board)."""
    with _boards_lock:
        if game in _boards:
            return _boards[game]
    try:
        board = get(game).board
    except UnknownGameError:
        board = None
    asset = None if board is None else make_asset("board.css", board.stylesheet().encode())
    with _boards_lock:
        if len(_boards) > 64:  # game names come from requests
            _boards.clear()
        return _boards.setdefault(game, asset)


def board_css_url(game: str) -> str:
    """The address of ``game``'s board stylesheet, under its hashed name."""
    asset = board_stylesheet(game)
    name = asset.hashed if asset is not None else "board.css"
    return f"/game/{quote(game, safe='')}/{name}"


_GZIP: Final = re.compile(r"^\s*(gzip|\*)\s*(?:;\s*q\s*=\s*([0-9.]+))?\s*$", re.IGNORECASE)


def accepts_gzip(accept_encoding: str | None) -> bool:
    """Whether an ``Accept-Encoding`` header takes gzip (``gzip``, else ``*``, not at
    ``q=0``: RFC 9110 12.5.3, where a coding named outranks the wildcard)."""
    weights: dict[str, float] = {}
    for part in (accept_encoding or "").split(","):
        found = _GZIP.match(part)
        if found is not None:
            try:
                weight = float(found.group(2) or "1")
            except ValueError:
                weight = 0.0
            weights.setdefault(found.group(1).lower(), weight)
    return weights.get("gzip", weights.get("*", 0.0)) > 0


def answer(
    asset: Asset, name: str, accept_encoding: str | None, if_none_match: str | None
) -> Response:
    """``asset`` asked for as ``name`` (its hashed name: cached for a year; its plain
    name: revalidated), gzipped if the client takes it; 304 if ``If-None-Match`` names
    what the client has."""
    zipped = accepts_gzip(accept_encoding)
    etag = f'{asset.etag[:-1]}-gz"' if zipped else asset.etag
    headers = {
        "Cache-Control": IMMUTABLE if name == asset.hashed else REVALIDATE,
        "ETag": etag,
        "Vary": "Accept-Encoding",
    }
    if if_none_match is not None and etag in (t.strip() for t in if_none_match.split(",")):
        return Response(status_code=304, headers=headers)
    if zipped:
        headers["Content-Encoding"] = "gzip"
    body = asset.gzipped if zipped else asset.body
    return Response(body, media_type=asset.media_type, headers=headers)
