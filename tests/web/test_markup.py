"""What a screen reader needs from the pages that axe-core does not demand (in-process,
over a real database): the live leaderboard says politely that it changed, tables carry
a caption and header scopes, charts are labelled images."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import quote

from starlette.testclient import TestClient

from arena.web.app import create_app
from arena.web.guards import allowed_hosts
from arena.web.source import database_source

from .kit import BOTS, LADDER, history

Q = quote(LADDER, safe="")


def test_tables_have_captions_and_scopes_and_the_live_one_is_polite(tmp_path: Path) -> None:
    db = tmp_path / "arena.db"
    history(db, matches=30)
    app = create_app(database_source(db, read_rate=0.0), hosts=allowed_hosts(True))
    with TestClient(app, base_url="http://127.0.0.1:8080") as web:
        ladder = web.get(f"/ladder?ladder={Q}").text
        charts = web.get(f"/ladder/charts?ladder={Q}").text
        bot = web.get(f"/bot/{BOTS[0]}?ladder={Q}").text
    board = re.search(r"<table class=\"leaderboard\"[^>]*>", ladder)
    assert board is not None
    assert 'aria-live="polite"' in board.group(0)
    assert "<caption>Leaderboard of" in ladder
    heads = re.findall(r"<th\b[^>]*>", ladder)
    assert heads
    assert all('scope="col"' in th for th in heads)
    h2h = charts[charts.index('<table class="h2h"') :]
    assert "<caption>Head to head" in h2h
    assert h2h.count('scope="row"') == h2h.count('<th class="row"') > 0
    for page in (charts, bot):
        svg = re.search(r"<svg class=\"rating-chart\"[^>]*>\s*<title id=\"([^\"]+)\">", page)
        assert svg is not None
        assert 'role="img"' in svg.group(0)
        assert f'aria-labelledby="{svg.group(1)}"' in svg.group(0)
