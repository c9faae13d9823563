"""End reasons in words on every page a person reads (the match list and its filter, a
bot's matches, the match page, the replay's last step), from each game through the
game interface (``Game.end_words``); the JSON keeps the identifiers, and so do the
filter's values. Real matches, recorded as the arena records them, in a real SQLite
file, fetched through the app."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

import pytest
from starlette.testclient import TestClient

from arena.games import get
from arena.policies import RandomPolicy
from arena.referee import LocalSeat, MatchSpec, Seat, run_match
from arena.web.app import create_app
from arena.web.guards import allowed_hosts
from arena.web.play_record import ladder_of, new_match_id, record_played
from arena.web.source import database_source

from .kit import LADDER, history

IDENTIFIERS = ("hand_empty", "supply_exhausted", "turn_cap", "goal", "decision_cap")
"""Every end reason Abluxxen and Fluxx give."""


def _recorded(db: Path, name: str, seed: int) -> tuple[str, str, str]:
    """A real 2-player match of ``name`` between random seats, recorded and rated in
    ``db``; its id, ladder and end reason."""
    game = get(name)
    config = game.make_config(2)

    async def play() -> object:
        seats: list[Seat] = [LocalSeat("ann", RandomPolicy(seed)), LocalSeat("bo", RandomPolicy(1))]
        spec = MatchSpec(
            match_id=new_match_id(True), config=config, game=game, seed=seed, deadline_ms=1000
        )
        return await run_match(spec, seats)

    outcome = asyncio.run(play())
    match_id = record_played(db, game, config, outcome, seed, rated=True)  # type: ignore[arg-type]
    return match_id, ladder_of(game, config, rated=True), outcome.result.end_reason  # type: ignore[attr-defined]


@pytest.fixture
def web(tmp_path: Path) -> Iterator[tuple[TestClient, Path]]:
    db = tmp_path / "arena.db"
    history(db, matches=3)  # a ladder of no game this arena knows, ended "score_limit"
    app = create_app(database_source(db, read_rate=0.0), hosts=allowed_hosts(True))
    with TestClient(app, base_url="http://127.0.0.1:8080") as client:
        yield client, db


def _shown(html: str) -> str:
    """What a person reads of a page: its text, without the markup (the filter's
    ``value`` is the identifier the address carries; a Fluxx card's class is "goal")."""
    return re.sub(r"<[^>]*>", " ", html)


@pytest.mark.parametrize("name", ["abluxxen", "fluxx"])
def test_pages_say_how_a_match_ended_in_words(web: tuple[TestClient, Path], name: str) -> None:
    client, db = web
    match_id, ladder, reason = _recorded(db, name, seed=3)
    words = get(name).end_words(reason)
    assert words != reason
    assert "_" not in words
    q = quote(ladder, safe="")
    ids = quote(match_id, safe="/")
    steps = int(re.findall(r'data-steps="(\d+)"', client.get(f"/replay/{ids}").text)[0])
    pages = {
        "matches": client.get(f"/matches?ladder={q}").text,
        "bot": client.get(f"/bot/ann?ladder={q}").text,
        "match": client.get(f"/match/{ids}").text,
        "last step": client.get(f"/replay-step/{ids}?step={steps - 1}").text,
    }
    for page, html in pages.items():
        assert words in html, page
        assert not [i for i in IDENTIFIERS if re.search(rf"\b{i}\b", _shown(html))], page
    # The end-reason filter: the identifier as the value, the words as the label.
    assert re.search(rf'<option value="{reason}"\s*>{re.escape(words)}</option>', pages["matches"])
    filtered = client.get(f"/matches?ladder={q}&end={reason}").text
    assert match_id in filtered
    assert words in filtered
    # JSON answers keep the identifier: it is the contract.
    assert client.get(f"/api/replay/{ids}").json()["match"]["end_reason"] == reason


def test_a_reason_no_game_words_reads_spelled_out(web: tuple[TestClient, Path]) -> None:
    client, _ = web
    html = client.get(f"/matches?ladder={quote(LADDER, safe='')}").text
    assert '<td class="end">score limit</td>' in html
    assert re.search(r'<option value="score_limit"\s*>score limit</option>', html)
    assert "score_limit" not in _shown(html)
    assert get("abluxxen").end_words("made_up_reason") == "made up reason"
    assert get("fluxx").end_words("") == "unknown"


def test_an_openspiel_match_ends_in_words_too() -> None:
    pytest.importorskip("pyspiel")
    game = get("openspiel:kuhn_poker")
    assert game.end_words("terminal") == "the game reached its end"
    assert game.end_words("made_up") == "made up"
