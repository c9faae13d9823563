"""What the web app takes from a request, over real sockets to a real ``arena web`` on
loopback with a play token.

Fails on cf034a7:
- any ``Host`` was answered: a page on another site that rebinds its name's DNS to
  127.0.0.1 read ``/``, ``/api/ladder`` and ``/api/replay`` as "same origin", and with
  ``--play-token`` on loopback its POST to ``/play`` started a table (the ``Host`` was
  checked only on loopback without a token, and only for the play forms);
- a body was read whole before its size was looked at (a 300 MiB POST took 614 MB);
- ``?seat=²``, ``?step=²``, ``?after=²`` and a form's ``choice=²`` were 500s
  (``str.isdigit`` admits ``²``, ``int`` does not);
- no answer said ``X-Content-Type-Options: nosniff``, and the JSON quotes bots' words.

Passes now: ``arena/web/guards.py`` (one Host rule for every page, the body limit, the
header on every answer) and ``app.whole_number``.
"""

from __future__ import annotations

import contextlib
import re
import select
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

import pytest
from server.support import Processes
from web.kit import LADDER, LEAGUE, history

from arena.web.guards import allowed_hosts

from .web_support import Answer, Web, connect, read_to_eof, request, start_web

TOKEN = "s3cret-token"
MATCH = f"{LEAGUE}/000001"
FORM = b"game=abluxxen&players-abluxxen=3&preset-abluxxen=amigo&bots-abluxxen=random&name=ann"
FORM_HEADERS = {"Content-Type": "application/x-www-form-urlencoded"}


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("web") / "arena.db"
    history(path, matches=3)
    return path


@pytest.fixture
def web(db: Path) -> Iterator[Web]:
    """An app of the test's own: its reads stay within one address's read limit."""
    procs = Processes()
    try:
        yield start_web(procs, db, "--play-token", TOKEN)
    finally:
        procs.kill_all()


def _get(web: Web, path: str, host: str | None = None) -> Answer:
    return request(web.port, path, headers={"Host": host or f"127.0.0.1:{web.port}"})


READS = ["/", f"/api/ladder?ladder={quote(LADDER, safe='')}", f"/api/replay/{MATCH}"]


@pytest.mark.parametrize("host", ["evil.example", "evil.example:{port}", "127.0.0.1.evil.example"])
def test_a_request_under_another_name_is_refused_on_every_page(web: Web, host: str) -> None:
    name = host.format(port=web.port)
    for path in [*READS, "/play", "/static/arena.css", "/match/x?seat=1"]:
        answer = _get(web, path, name)
        assert answer.status == 403, path
        assert b"not served under that name" in answer.body
    # The rebinding page's POST: no table is started, with the token configured or not.
    posted = request(
        web.port,
        "/play",
        method="POST",
        body=FORM,
        headers={**FORM_HEADERS, "Host": name, "Origin": f"http://{name}"},
    )
    assert posted.status == 403
    for good in ("127.0.0.1:{port}", "localhost:{port}", "LOCALHOST.", "[::1]:{port}"):
        for path in READS:
            assert _get(web, path, good.format(port=web.port)).status == 200, (good, path)


def test_hosts_are_judged_by_one_rule() -> None:
    on_loopback = allowed_hosts(True, ("Arena.Example.",))
    for host in ("127.0.0.1", "127.0.0.1:8080", "localhost:1", "[::1]:80", "arena.example:443",
                 "ARENA.EXAMPLE", None):  # fmt: skip
        assert on_loopback.allows(host), host
    for host in ("evil.example", "", ":80", "[::1", "arena.example.evil", "127.0.0.1.nip.io"):
        assert not on_loopback.allows(host), host
    assert allowed_hosts(False).allows("anything.example")  # beyond loopback, no names
    beyond = allowed_hosts(False, ("arena.example",))
    assert beyond.allows("arena.example:8080")
    assert not beyond.allows("evil.example")


def test_a_large_body_is_refused_by_its_length_before_it_is_read(web: Web) -> None:
    head = (
        f"POST /play HTTP/1.1\r\nHost: 127.0.0.1:{web.port}\r\n"
        "Content-Type: application/x-www-form-urlencoded\r\n"
        f"Content-Length: {300 * 1024 * 1024}\r\n\r\n"
    ).encode()
    with contextlib.closing(connect(web.port)) as sock:
        sock.sendall(head)  # and not a byte of the body
        answer = read_to_eof(sock)  # the server answers, then closes
    assert answer.startswith(b"HTTP/1.1 413 "), answer[:80]
    assert b"at most 4096 bytes" in answer


CHUNK = b"a" * 1024
BOUND = 32 * 1024 * 1024
"""What the chunked test sends at most: the server must have answered long before."""


def test_a_chunked_body_is_read_only_up_to_the_limit(web: Web) -> None:
    head = (
        f"POST /play HTTP/1.1\r\nHost: 127.0.0.1:{web.port}\r\n"
        "Content-Type: application/x-www-form-urlencoded\r\n"
        "Transfer-Encoding: chunked\r\n\r\n"
    ).encode()
    sent = 0
    with contextlib.closing(connect(web.port)) as sock:
        sock.sendall(head)
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            while sent < BOUND:
                readable, _, _ = select.select([sock], [], [], 0)
                if readable:
                    break  # the server has answered
                sock.sendall(b"%x\r\n%s\r\n" % (len(CHUNK), CHUNK))
                sent += len(CHUNK)
        answer = read_to_eof(sock)
    assert sent < BOUND, "the server read the whole body"
    assert answer.startswith(b"HTTP/1.1 413 "), answer[:80]
    assert b"at most 4096 bytes" in answer


SUPERSCRIPT_TWO = quote("²")


def test_numbers_in_other_scripts_are_refused_in_words(web: Web) -> None:
    for path in (
        f"/match/{MATCH}?seat={SUPERSCRIPT_TWO}",
        f"/api/replay/{MATCH}?seat={SUPERSCRIPT_TWO}",
        f"/replay/{MATCH}?step={SUPERSCRIPT_TWO}",
        f"/replay-step/{MATCH}?step={quote('١')}",  # an Arabic-Indic 1, which int() takes
        f"/replay/{MATCH}?step=-1",
    ):
        answer = _get(web, path)
        assert answer.status == 400, path
        assert b"must be a whole number" in answer.body, path
    started = request(web.port, "/play", method="POST", body=FORM, headers=FORM_HEADERS)
    assert started.status == 303
    table = started.headers["Location"]
    answer = _get(web, f"{table}?after={SUPERSCRIPT_TWO}")
    assert answer.status == 400
    assert b"after must be a whole number" in answer.body
    page = _get(web, f"{table}?after=-1").body.decode()  # waits for the person's turn
    request_id = re.search(r'name="request" value="(\d+)"', page)
    assert request_id is not None
    form = f"request={request_id[1]}&choice={SUPERSCRIPT_TWO}"
    chosen = request(web.port, table, method="POST", body=form.encode(), headers=FORM_HEADERS)
    assert chosen.status == 400
    assert b"the form&#39;s choice must be a whole number" in chosen.body


def test_every_answer_says_nosniff(web: Web) -> None:
    answers = [
        _get(web, path)
        for path in (
            *READS,
            "/api/replay/no-such-match",  # 404, JSON
            "/static/arena.css",
            f"/match/{MATCH}?seat={SUPERSCRIPT_TWO}",  # 400
        )
    ]
    answers.append(_get(web, "/", "evil.example"))  # 403 from the Host check
    answers.append(request(web.port, "/", method="POST"))  # 405
    for answer in answers:
        assert answer.headers["X-Content-Type-Options"] == "nosniff", answer.status
    assert {a.status for a in answers} >= {200, 400, 403, 404, 405}
