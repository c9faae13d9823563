"""Finding 2: names with a trailing newline (and other characters a name must not hold).

Decision: a name is ASCII only (letters, digits, ``_ . -``), matched whole. No
normalisation: a name with anything else is refused, so there are no look-alikes from
other scripts, no invisible or control characters, and no spaces.
"""

from __future__ import annotations

from pathlib import Path

import grpc
import pytest
from server.support import Processes, arena_cli, auth, rpc_error, stub, token

from arena.league.config import LeagueConfigError, build_config
from arena.names import BadNameError, check_name
from arena.referee.channels import EndpointError, parse_endpoint
from arena.v1 import arena_pb2

BAD = [
    "champ\n",  # a trailing line break: ^...$ with match() let it through
    "champ\r\n",
    "cha\x00mp",  # NUL
    "cha\tmp",  # tab
    "champ ",  # trailing space
    " champ",
    "\u202echamp",  # bidi override
    "ch\u200bamp",  # zero-width space
    "champ\ufeff",  # BOM
    "champ\U000e0041",  # tag character
    "ch\u0430mp",  # Cyrillic a, a look-alike of Latin a
    "\uff43hamp",  # fullwidth c (NFKC would make it c)
    "champ\u0301",  # a combining accent
    "",
    "x" * 41,
]


@pytest.mark.parametrize("name", BAD)
def test_a_name_with_anything_but_ascii_letters_digits_and_dot_dash_underscore_is_refused(
    name: str,
) -> None:
    """On a35e272 names.py matched r"^[A-Za-z0-9_.-]{1,40}$" with re.match, and "$"
    also matches before a final newline: "champ\\n" was a valid name."""
    for what in ("bot name", "owner name", "league name"):
        with pytest.raises(BadNameError):
            check_name(name, what)
    assert check_name("Champ_2.0-b") == "Champ_2.0-b"


@pytest.mark.slow
def test_every_place_that_takes_a_name_refuses_a_trailing_newline(tmp_path: Path) -> None:
    """On a35e272 the arena stored a bot "champ\\n", `arena token create` an owner
    "alice\\n", and a league could be named "demo\\n" (all through names.py)."""
    db = tmp_path / "serve.db"
    created = arena_cli("token", "create", "alice\n", "--db", str(db))
    assert created.returncode == 2
    assert "bad owner name" in created.stderr
    two = [{"name": "a", "builtin": "random"}, {"name": "b", "builtin": "greedy"}]
    table: dict[str, object] = {"table_size": 2, "matches": 1}
    assert build_config({"name": "demo", "bot": two, **table}, {}).name == "demo"
    with pytest.raises(LeagueConfigError, match="bad league name"):
        build_config({"name": "demo\n", "bot": two, **table}, {})
    with pytest.raises(LeagueConfigError, match="bad bot name"):
        build_config({"bot": [{"name": "champ\n", "builtin": "random"}, two[1]], **table}, {})
    alice = token(db, "alice")
    procs = Processes()
    try:
        server = procs.serve(db, "--table-size", "2")
        with stub(server.address) as client:
            for name in ("champ\n", "ch\u0430mp", "champ ", "ch\u200bamp"):
                request = arena_pb2.SubmitBotRequest(name=name, endpoint="127.0.0.1:50999")
                error = rpc_error(client.SubmitBot, request, timeout=5, metadata=auth(alice))
                assert error.code() == grpc.StatusCode.INVALID_ARGUMENT
                assert "ASCII" in (error.details() or "")
            bots = client.ListBots(arena_pb2.ListBotsRequest(), timeout=5).bots
            assert not bots
    finally:
        procs.kill_all()


@pytest.mark.parametrize(
    "endpoint", ["127.0.0.1:\u0665\u0660\u0660\u0666\u0661", "127.0.0.1:5\uff10", "\u0661.0.0.1:1"]
)
def test_an_endpoint_is_ascii_only(endpoint: str) -> None:
    """On a35e272 the endpoint pattern's port was \\d{1,5}, which matches the digits of
    every script (Arabic-Indic, fullwidth), and int() reads them: such an endpoint was
    stored as written, and its port did not compare equal to the same port in ASCII."""
    with pytest.raises(EndpointError):
        parse_endpoint(endpoint)
