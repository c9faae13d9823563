"""The parts of `arena serve` on their own: the allowlist (pure: no DNS, no socket), the
rate limit, tokens (only a hash stored), match counters, and placement-first
matchmaking."""

from __future__ import annotations

import random
import socket
from pathlib import Path
from typing import Any

import pytest

from arena.league.joint import JointFit
from arena.league.rating import RatingModel
from arena.server.allowlist import Allowlist, AllowlistError
from arena.server.config import ServeConfig, ServeConfigError, validate
from arena.server.matchmaking import Matchmaker
from arena.server.ratelimit import RateLimiter
from arena.store import open_store
from arena.store.registry import (
    BotStatus,
    NameTakenError,
    add_bot,
    change_bot,
    claim_match_index,
    ensure_league,
    get_bot,
)
from arena.store.tokens import create_token, list_tokens, owner_of, revoke_token


def test_the_allowlist_refuses_without_resolving_or_connecting(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def no_network(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("the allowlist touched the network")

    for name in ("getaddrinfo", "gethostbyname", "create_connection", "socket"):
        monkeypatch.setattr(socket, name, no_network)
    default = Allowlist()
    allowed = ("127.0.0.1:5", "127.9.9.9:50051", "[::1]:5", "localhost:5", "LOCALHOST:5")
    for endpoint in (*allowed, "tls://localhost:5"):
        assert default.refusal(endpoint) is None, endpoint
    refused = ("10.1.2.3:50051", "[::ffff:10.1.2.3]:1", "0.0.0.0:5", "[::]:5", "example.org:5")
    for endpoint in (*refused, "localhost.evil.org:5", "127.1:5", "tls://10.1.2.3:5"):
        reason = default.refusal(endpoint)
        assert reason is not None, endpoint
        assert "allowlist" in reason
    assert "not an endpoint" in (default.refusal("nonsense") or "")

    custom = Allowlist(["10.0.0.0/8:50000-50099", "*.bots.example.org", "[fd00::/8]:7000"])
    assert custom.refusal("10.1.2.3:50051") is None
    assert custom.refusal("10.1.2.3:22") is not None
    assert custom.refusal("[::ffff:10.1.2.3]:50001") is None
    assert custom.refusal("a.bots.example.org:1") is None
    assert custom.refusal("bots.example.org:1") is not None
    assert custom.refusal("[fd12::1]:7000") is None
    assert custom.refusal("[fd12::1]:7001") is not None
    assert custom.refusal("127.0.0.1:50001") is not None
    assert Allowlist(["*"]).refusal("203.0.113.9:1") is None
    for bad in ("10.0.0.0/8:0", "host:70000", "[::1", "bad/host!", ""):
        with pytest.raises(AllowlistError):
            Allowlist([bad])


def test_serve_settings_are_checked() -> None:
    validate(ServeConfig(db="x.db"))
    for config in (
        ServeConfig(db="x.db", table_size=6),
        ServeConfig(db="x.db", preset="nope"),
        ServeConfig(db="x.db", allow=("bad/host!",)),
        ServeConfig(db="x.db", tls_cert="cert.pem"),
        ServeConfig(db="x.db", concurrency=0),
    ):
        with pytest.raises(ServeConfigError):
            validate(config)


def test_the_rate_limit_slides() -> None:
    now = [0.0]
    limiter = RateLimiter(2, 60.0, clock=lambda: now[0])
    assert limiter.acquire("a") == 0
    assert limiter.acquire("a") == 0
    assert limiter.acquire("a") == pytest.approx(60.0)
    assert limiter.acquire("b") == 0  # per key
    now[0] = 30.0
    assert limiter.acquire("a") == pytest.approx(30.0)
    now[0] = 60.0
    assert limiter.acquire("a") == 0


def test_tokens_are_stored_as_hashes_and_can_be_revoked(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    store = open_store(db)
    try:
        token = create_token(store, "alice")
        token_id, secret = token.split(".")
        assert owner_of(store, token) == "alice"
        assert owner_of(store, f"{token_id}.{secret[:-1]}x") is None
        assert owner_of(store, secret) is None
        assert owner_of(store, "") is None
        assert [t.owner for t in list_tokens(store)] == ["alice"]
        assert revoke_token(store, token_id)
        assert owner_of(store, token) is None
        assert not revoke_token(store, token_id)
    finally:
        store.close()
    assert secret.encode() not in db.read_bytes()


def test_bots_and_match_counters(tmp_path: Path) -> None:
    store = open_store(tmp_path / "r.db")
    try:
        add_bot(store, "a", "alice", "127.0.0.1:1", "")
        with pytest.raises(NameTakenError):
            add_bot(store, "a", "bob", "127.0.0.1:2", "")
        bot = change_bot(store, "a", status=BotStatus.ACTIVE, endpoint="127.0.0.1:3")
        assert (bot.status, bot.endpoint) == (BotStatus.ACTIVE, "127.0.0.1:3")
        assert get_bot(store, "zzz") is None
        with pytest.raises(KeyError):
            change_bot(store, "zzz", status=BotStatus.RETIRED)
        ensure_league(store, "serve/x", {})
        assert [claim_match_index(store, "serve/x") for _ in range(3)] == [0, 1, 2]
    finally:
        store.close()
    reopened = open_store(tmp_path / "r.db")  # a restart continues the count
    try:
        assert claim_match_index(reopened, "serve/x") == 3
    finally:
        reopened.close()


def test_matchmaking_seats_bots_in_placement_first() -> None:
    maker = Matchmaker(RatingModel(), random.Random(1))
    skills = JointFit.of({"old1": (1.0, 0.2), "old2": (0.9, 0.2), "old3": (-2.0, 0.2)})
    played = {"old1": 50, "old2": 50, "old3": 50}
    for _ in range(5):
        table = maker.table(["old1", "old2", "old3", "new"], 2, skills, played, {"new": 2})
        assert "new" in table
    table = maker.table(["old1", "old2", "old3"], 2, skills, played, {})
    assert set(table) == {"old1", "old2"}  # the closest pair
    seats = [maker.table(["old1", "old2"], 2, skills, played, {})[0] for _ in range(4)]
    assert seats.count("old1") == 2  # seat 0 alternates
