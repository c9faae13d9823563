"""The web app beyond loopback: HTTPS, or plain HTTP only when asked for by name.

Fails on cf034a7: ``arena web --host 0.0.0.0 --play-token T`` served plain HTTP without a
word, so the play token crossed the network in the address and in a cookie without
``Secure`` (and ``arena web`` had no --tls-cert, --tls-key nor --insecure).

Passes now: the web app (``arena web``, ``arena play``, and ``arena serve --web-port``,
whose --tls-cert serves it too) listens beyond loopback only over TLS or with
--insecure (exit 2 otherwise, before anything listens); over TLS the token's cookie is
``Secure``. No test listens or connects anywhere but loopback.
"""

from __future__ import annotations

import ssl
from pathlib import Path

import pytest
from in_process import run_arena
from server.support import Processes, arena_cli, self_signed

from arena.cli import build_parser
from arena.cli.web_cmd import serving_options

from .web_support import empty_db, request, start_web


@pytest.mark.parametrize(
    "argv",
    [
        ["web", "--host", "0.0.0.0", "--play-token", "T"],
        ["web", "--host", "::", "--port", "0"],
        ["play", "--bot", "a=random", "--bot", "b=random", "--host", "0.0.0.0"],
        ["serve", "--web-port", "0", "--web-host", "0.0.0.0", "--web-play", "--play-token", "T"],
    ],
)
def test_plain_http_beyond_loopback_is_refused(tmp_path: Path, argv: list[str]) -> None:
    db = empty_db(tmp_path / "arena.db")
    # In the test's process, but `arena play` as a real one: ``arena web`` and ``arena
    # serve`` run as processes in the other tests here.
    run = arena_cli if argv[0] == "play" else run_arena
    refused = run(*argv, "--db", str(db))
    assert refused.returncode == 2
    assert "without TLS the play token would cross the network in clear" in refused.stderr
    assert "--tls-cert FILE --tls-key FILE" in refused.stderr
    assert "--insecure" in refused.stderr
    assert "serving on" not in refused.stdout


def test_the_serving_options_go_together(tmp_path: Path) -> None:
    cert, key = self_signed(tmp_path)
    parser = build_parser()

    def options(*argv: str) -> object:
        args = parser.parse_args(["web", *argv])
        return serving_options(args, args.host)

    options("--host", "0.0.0.0", "--insecure")
    options("--host", "0.0.0.0", "--tls-cert", str(cert), "--tls-key", str(key))
    for argv, words in [
        (("--host", "0.0.0.0"), "--insecure"),
        (("--tls-cert", str(cert)), "give both --tls-cert and --tls-key"),
        (("--tls-cert", str(cert), "--tls-key", str(tmp_path / "no.pem")), "no file"),
        (("--tls-cert", str(key), "--tls-key", str(key)), "cannot use --tls-cert"),
        (("--max-connections", "0",), "--max-connections must be at least 1"),
        (("--idle-timeout-s", "nan",), "--idle-timeout-s must be a positive number"),
    ]:  # fmt: skip
        with pytest.raises(ValueError, match=words):
            options(*argv)
    args = parser.parse_args(["serve", "--db", "x", "--web-idle-timeout-s", "0"])
    with pytest.raises(ValueError, match="--web-idle-timeout-s must be"):
        serving_options(args, args.web_host, "web-")


def test_over_tls_the_play_token_cookie_is_secure(tmp_path: Path) -> None:
    cert, key = self_signed(tmp_path)
    tls = ssl.create_default_context(cafile=str(cert))
    procs = Processes()
    try:
        web = start_web(
            procs,
            empty_db(tmp_path / "arena.db"),
            "--tls-cert", str(cert), "--tls-key", str(key), "--play-token", "T",
        )  # fmt: skip
        assert web.url.startswith("https://127.0.0.1:")
        answer = request(web.port, "/play?token=T", tls=tls)
        assert answer.status == 200
        cookie = answer.headers["Set-Cookie"]
        assert cookie.startswith("arena_play=T;")
        assert "Secure" in cookie
        assert "HttpOnly" in cookie
        with pytest.raises((ConnectionError, OSError)):
            request(web.port, "/")  # plain HTTP to the TLS port
        assert request(web.port, "/", tls=tls).status == 200
    finally:
        procs.kill_all()


@pytest.mark.slow
def test_arena_serve_serves_its_web_app_over_its_tls(tmp_path: Path) -> None:
    cert, key = self_signed(tmp_path)
    tls = ssl.create_default_context(cafile=str(cert))
    procs = Processes()
    try:
        server = procs.serve(
            tmp_path / "serve.db",
            "--tls-cert", str(cert), "--tls-key", str(key), "--web-port", "0",
        )  # fmt: skip
        assert server.popen.stdout is not None
        url = next(line for line in server.popen.stdout if line.startswith("arena web serving"))
        assert "https://127.0.0.1:" in url
        port = int(url.strip().rsplit(":", 1)[1])
        assert request(port, "/", tls=tls).status == 200
    finally:
        procs.kill_all()
