"""A PostgreSQL URL's password never shows in an error, even when libpq cannot read the
URL (no server is needed: libpq refuses these before it connects).

Fails on cf034a7: libpq's message quotes the URL it could not parse
(``postgresql://arena:PW@[::1:5432/x``), or the part it could not read (a bad
percent-escape in the password), and ``arena ratings``, ``arena serve`` and ``arena web``
printed it whole, password and all.

Passes now: ``arena.store.masked(url, text)`` takes the password out of every message
the PostgreSQL store makes of a libpq error.
"""

from __future__ import annotations

import pytest
from server.support import arena_cli

from arena.store import StoreError, masked, open_store

PASSWORD = "Sup3r-s3cret"
UNREADABLE = [
    f"postgresql://arena:{PASSWORD}@[::1:5432/x",  # an IPv6 host without its "]"
    f"postgresql://arena:{PASSWORD}%zz@localhost/x",  # a bad percent-escape in the password
    f"postgresql://arena@localhost/x?password={PASSWORD}&bogus=1",  # an unknown parameter
    f"postgresql://arena:{PASSWORD}@localhost:99999/x",  # a port out of range
]


@pytest.mark.parametrize("url", UNREADABLE)
def test_an_unreadable_url_is_refused_without_its_password(url: str) -> None:
    with pytest.raises(StoreError) as raised:
        open_store(url)
    text = str(raised.value)
    assert PASSWORD not in text
    assert "***" in text
    assert "\n" not in text


@pytest.mark.parametrize("command", ["ratings", "serve", "web"])
def test_the_commands_never_print_the_password(command: str) -> None:
    done = arena_cli(command, "--db", UNREADABLE[0])
    assert done.returncode == 2
    assert f"arena {command}: " in done.stderr
    assert "postgresql://arena:***@[::1:5432/x" in done.stderr
    assert PASSWORD not in done.stderr + done.stdout


def test_masked_takes_every_form_of_the_password_out_of_a_text() -> None:
    url = "postgresql://ann:p%40ss@db.example/arena?sslmode=require"
    text = f'cannot read "{url}": token "p%40ss" (that is p@ss)'
    assert masked(url, text) == (
        'cannot read "postgresql://ann:***@db.example/arena?sslmode=require": token "***" '
        "(that is ***)"
    )
    assert masked("arena-data/x.db", "no such file arena-data/x.db") == (
        "no such file arena-data/x.db"
    )
