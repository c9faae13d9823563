"""The parts of the public reads on their own: the read rate's token buckets (a fake
clock), the client address a gRPC peer counts under, page tokens, and the read pool's
threads and connections."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

import pytest

from arena.server.pages import PageTokenError, PageTokens, position_of
from arena.server.ratelimit import TokenBuckets, peer_key
from arena.server.reads import ReadPool
from arena.store import Store, open_store


def test_a_bucket_allows_a_burst_then_the_rate() -> None:
    now = [100.0]
    buckets = TokenBuckets(2.0, 3, clock=lambda: now[0])
    assert [buckets.acquire("a") for _ in range(3)] == [0.0, 0.0, 0.0]
    assert buckets.acquire("a") == pytest.approx(0.5)
    assert buckets.acquire("b") == 0.0  # its own bucket
    now[0] += 0.5
    assert buckets.acquire("a") == 0.0
    assert buckets.acquire("a") == pytest.approx(0.5)
    now[0] += 100.0  # full again, never more than the burst
    assert [buckets.acquire("a") for _ in range(4)][-1] > 0


def test_idle_buckets_are_swept() -> None:
    now = [0.0]
    buckets = TokenBuckets(10.0, 5, clock=lambda: now[0])
    for n in range(1023):
        buckets.acquire(f"old-{n}")
    now[0] += 1.0  # 0.5 s refills a bucket of 5 at 10/s
    buckets.acquire("new")
    assert len(buckets) == 1


@pytest.mark.parametrize(
    ("peer", "key"),
    [
        ("ipv4:127.0.0.1:51234", "127.0.0.1"),
        ("ipv4:203.0.113.9:1", "203.0.113.9"),
        ("ipv6:[::1]:51234", "::/64"),
        ("ipv6:[2001:db8:1:2:aaaa::1]:443", "2001:db8:1:2::/64"),
        ("ipv6:[2001:db8:1:2:bbbb::7]:443", "2001:db8:1:2::/64"),
        ("ipv6:[::ffff:192.0.2.1]:8", "192.0.2.1"),
        ("unix:/tmp/arena.sock", "unix:/tmp/arena.sock"),
        ("", ""),
    ],
)
def test_peers_count_under_their_address(peer: str, key: str) -> None:
    assert peer_key(peer) == key


def test_page_tokens_hold_their_position_for_their_list_only() -> None:
    tokens = PageTokens()
    token = tokens.make("matches", ["bot"], [1.25, 7])
    assert tokens.read(token, "matches", ["bot"]) == [1.25, 7]
    assert position_of([1.25, 7], float, int) == (1.25, 7)
    assert position_of([3, 7], float, int) == (3.0, 7)
    for kind, scope in (("bots", ["bot"]), ("matches", ["other"]), ("matches", [])):
        with pytest.raises(PageTokenError):
            tokens.read(token, kind, scope)
    with pytest.raises(PageTokenError):
        PageTokens().read(token, "matches", ["bot"])  # another arena (or a restart)
    for position, types in (
        ([1.0], (float, int)),
        (["x", 7], (float, int)),
        ([1.0, True], (float, int)),
        ([1.0, 7.5], (float, int)),
    ):
        with pytest.raises(PageTokenError):
            position_of(position, *types)


def test_the_pool_reads_on_its_threads_with_read_only_connections(tmp_path: Path) -> None:
    db = tmp_path / "a.db"
    open_store(db).close()
    pool = ReadPool(db, threads=2, max_waiting=1)

    def where(store: Store) -> tuple[str, bool]:
        return threading.current_thread().name, store.read("PRAGMA query_only")[0][0] == 1

    async def main() -> tuple[str, bool]:
        assert not pool.busy
        return await pool.run(where)

    try:
        name, read_only = asyncio.run(main())
    finally:
        pool.close()
    assert name.startswith("arena-read")
    assert read_only
