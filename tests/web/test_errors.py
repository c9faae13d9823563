"""Error pages and the icon in-process (Starlette's TestClient over the real app and a
real database): every error page has the site's header, a title that says what is wrong
and a way back; ``/favicon.ico`` and the pages' icon answer."""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

import pytest
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route
from starlette.testclient import TestClient

from arena.server.reads import ReadPool
from arena.web import assets
from arena.web.app import create_app
from arena.web.guards import allowed_hosts
from arena.web.source import WebSource, database_source

from .kit import LADDER, history

Q = quote(LADDER, safe="")
BACK = f"/ladder?ladder={quote(LADDER)} /"
"""The way back from a page that names the ladder: to it, and to the first page."""


async def broken(request: Request) -> Response:
    raise RuntimeError("a bug in a handler")


@pytest.fixture
def web(tmp_path: Path) -> Iterator[TestClient]:
    db = tmp_path / "arena.db"
    history(db, matches=20)
    app = create_app(
        database_source(db, read_rate=0.0, title="Test Arena"),
        hosts=allowed_hosts(True),
        routes=[Route("/broken", broken)],
    )
    with TestClient(app, base_url="http://127.0.0.1:8080", raise_server_exceptions=False) as c:
        yield c


def parts(html: str) -> dict[str, str]:
    """The title, the header's home link, the h1, and the hrefs of the way back."""

    def one(pattern: str) -> str:
        found = re.search(pattern, html, re.DOTALL)
        return found.group(1).strip() if found else ""

    return {
        "title": one(r"<title>(.*?)</title>"),
        "home": one(r'<a class="home" href="/">(.*?)</a>'),
        "h1": one(r"<h1>(.*?)</h1>"),
        "back": " ".join(re.findall(r'href="([^"]*)"', one(r'<p class="way-back">(.*?)</p>'))),
    }


@pytest.mark.parametrize(
    ("url", "status", "heading", "back"),
    [
        ("/match/abx/999999", 404, "Not found", "/"),
        (f"/bot/nobody?ladder={Q}", 404, "Not found", BACK),
        ("/ladder?ladder=nope", 404, "Not found", "/"),
        ("/nowhere", 404, "Not found", "/"),
        (f"/matches?ladder={Q}&page=forged", 400, "cannot read", BACK),
        ("/replay/x?step=two", 400, "cannot read", "/"),
        ("/broken", 500, "The arena failed to answer", "/"),
    ],
)
def test_every_error_page_has_the_header_a_title_and_a_way_back(
    web: TestClient, url: str, status: int, heading: str, back: str
) -> None:
    answer = web.get(url)
    assert answer.status_code == status
    page = parts(answer.text)
    assert page["home"] == "Test Arena"
    assert heading in page["h1"]
    assert page["title"] == f"{page['h1']} · Test Arena"
    assert page["back"] == back


def test_the_busy_page_is_a_page_of_the_site_too(tmp_path: Path) -> None:
    """A read pool that takes no read: every page is 503, and so would the error page's
    own read be; the page is rendered all the same."""
    db = tmp_path / "arena.db"
    history(db, matches=3)
    source = WebSource(ReadPool(db, max_waiting=0), owns_reads=True, read_rate=0.0)
    app = create_app(source, hosts=allowed_hosts(True))
    with TestClient(app, base_url="http://127.0.0.1:8080") as web:
        answer = web.get(f"/ladder?ladder={Q}")
    assert answer.status_code == 503
    page = parts(answer.text)
    assert page["h1"] == "The arena is busy"
    assert page["home"] == "Arena"
    assert page["back"] == "/"


def test_an_unknown_match_is_named_on_its_page_and_in_json(web: TestClient) -> None:
    page = parts(web.get("/match/abx/999999").text)
    assert page["title"] == "Not found · Test Arena"
    assert "no finished match 'abx/999999' here" in html.unescape(web.get("/match/abx/999999").text)
    answer = web.get("/api/replay/abx/999999")
    assert answer.status_code == 404
    assert answer.json() == {"error": "no finished match 'abx/999999' here"}


def test_the_icon_answers_at_favicon_ico_and_under_its_hashed_name(web: TestClient) -> None:
    body = (assets.STATIC / "favicon.svg").read_bytes()
    plain = web.get("/favicon.ico")
    assert plain.status_code == 200
    assert plain.headers["content-type"] == "image/svg+xml"
    assert plain.headers["cache-control"] == "no-cache"
    assert plain.content == body
    again = web.get("/favicon.ico", headers={"If-None-Match": plain.headers["etag"]})
    assert again.status_code == 304
    linked = {
        url: re.findall(
            r'<link rel="icon" href="([^"]+)" type="image/svg\+xml">', web.get(url).text
        )
        for url in ("/", f"/ladder?ladder={Q}", "/match/abx/999999")
    }
    hrefs = {href for found in linked.values() for href in found}
    assert all(len(found) == 1 for found in linked.values()), linked
    assert len(hrefs) == 1
    href = hrefs.pop()
    assert re.fullmatch(r"/static/favicon\.[0-9a-f]{12}\.svg", href)
    hashed = web.get(href, headers={"Accept-Encoding": "gzip"})
    assert hashed.headers["cache-control"] == "public, max-age=31536000, immutable"
    assert hashed.headers["content-encoding"] == "gzip"
    assert hashed.content == body
