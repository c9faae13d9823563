"""Static files in-process: hashed names cached for a year, gzipped for clients that take
it, plain names revalidated; the pages compressed too, but never the live stream."""

from __future__ import annotations

import gzip
import re
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

import pytest
from starlette.testclient import TestClient

from arena.web import assets
from arena.web.app import create_app
from arena.web.guards import allowed_hosts
from arena.web.source import database_source

from .kit import LADDER, history

HASHED = re.compile(r"/static/(arena\.[0-9a-f]{12}\.(?:js|css))")


@pytest.fixture
def web(tmp_path: Path) -> Iterator[TestClient]:
    db = tmp_path / "arena.db"
    history(db, matches=30)
    app = create_app(database_source(db, read_rate=0.0), hosts=allowed_hosts(True))
    with TestClient(app, base_url="http://127.0.0.1:8080") as client:
        yield client


def test_pages_link_hashed_names_served_for_a_year_and_gzipped(web: TestClient) -> None:
    page = web.get(f"/ladder?ladder={quote(LADDER, safe='')}")
    names = HASHED.findall(page.text)
    assert sorted(name.rsplit(".", 1)[1] for name in names) == ["css", "js"]
    for name in names:
        plain = re.sub(r"\.[0-9a-f]{12}\.", ".", name)
        body = (assets.STATIC / plain).read_bytes()
        zipped = web.get(f"/static/{name}", headers={"Accept-Encoding": "gzip, br"})
        assert zipped.status_code == 200
        assert zipped.headers["cache-control"] == "public, max-age=31536000, immutable"
        assert zipped.headers["content-encoding"] == "gzip"
        assert zipped.headers["vary"] == "Accept-Encoding"
        assert zipped.headers["x-content-type-options"] == "nosniff"
        assert int(zipped.headers["content-length"]) < len(body)
        assert zipped.content == body  # httpx decodes it
        raw = web.get(f"/static/{name}", headers={"Accept-Encoding": "identity"})
        assert "content-encoding" not in raw.headers
        assert raw.content == body
        assert raw.headers["content-type"].startswith(("text/javascript", "text/css"))
        refused = web.get(f"/static/{name}", headers={"Accept-Encoding": "gzip;q=0"})
        assert "content-encoding" not in refused.headers


def test_a_plain_name_is_revalidated_and_unknown_names_are_404(web: TestClient) -> None:
    first = web.get("/static/arena.js", headers={"Accept-Encoding": "gzip"})
    assert first.headers["cache-control"] == "no-cache"
    assert first.content == (assets.STATIC / "arena.js").read_bytes()
    again = web.get(
        "/static/arena.js",
        headers={"Accept-Encoding": "gzip", "If-None-Match": first.headers["etag"]},
    )
    assert again.status_code == 304
    assert again.content == b""
    assert web.get("/static/arena.00000000000000.js").status_code == 404
    assert web.get("/static/plotly.min.js").status_code == 404
    assert web.get("/static/..%2Fapp.py").status_code == 404


def test_a_game_board_stylesheet_has_a_hashed_name_too(web: TestClient) -> None:
    url = assets.board_css_url("abluxxen")
    assert re.fullmatch(r"/game/abluxxen/board\.[0-9a-f]{12}\.css", url)
    answer = web.get(url, headers={"Accept-Encoding": "gzip"})
    assert answer.status_code == 200
    assert answer.headers["cache-control"] == "public, max-age=31536000, immutable"
    assert answer.headers["content-encoding"] == "gzip"
    assert web.get("/game/abluxxen/board.css").headers["cache-control"] == "no-cache"
    assert web.get("/game/abluxxen/other.css").status_code == 404
    assert web.get("/game/no-such-game/board.css").status_code == 404


def test_pages_are_gzipped_and_the_live_stream_is_not(web: TestClient) -> None:
    ladder = quote(LADDER, safe="")
    for url in (
        f"/ladder?ladder={ladder}",
        f"/ladder/charts?ladder={ladder}",
        "/api/ladder?ladder=" + ladder,
    ):
        answer = web.get(url, headers={"Accept-Encoding": "gzip"})
        assert answer.status_code == 200
        assert answer.headers["content-encoding"] == "gzip", url
    for refusal in ("identity", "gzip;q=0", "*, gzip;q=0", "br"):
        plain = web.get(f"/ladder?ladder={ladder}", headers={"Accept-Encoding": refusal})
        assert plain.status_code == 200
        assert "content-encoding" not in plain.headers, refusal
    with web.stream("GET", "/events", headers={"Accept-Encoding": "gzip"}) as stream:
        assert "content-encoding" not in stream.headers
        assert next(stream.iter_text()).startswith("retry:")


def test_accept_encoding_is_read_as_http_says() -> None:
    assert assets.accepts_gzip("gzip")
    assert assets.accepts_gzip("deflate, gzip;q=0.5, br")
    assert assets.accepts_gzip("*")
    assert assets.accepts_gzip("GZIP ; q=1")
    assert not assets.accepts_gzip(None)
    assert not assets.accepts_gzip("")
    assert not assets.accepts_gzip("br, deflate")
    assert not assets.accepts_gzip("gzip;q=0")
    assert not assets.accepts_gzip("gzip;q=0.0")
    # A coding named outranks the wildcard, wherever either stands.
    assert not assets.accepts_gzip("*, gzip;q=0")
    assert not assets.accepts_gzip("gzip;q=0, *")
    assert assets.accepts_gzip("*;q=0, gzip")
    assert not assets.accepts_gzip("x-gzip")


def test_each_asset_is_gzipped_once_and_exactly() -> None:
    for name, asset in assets.static_files().items():
        assert name in (asset.name, asset.hashed)
        assert gzip.decompress(asset.gzipped) == asset.body
