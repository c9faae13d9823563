"""Building replies: by index when the action is legal, spelled out otherwise."""

from __future__ import annotations

import pytest
from sdk_support import Table

from arena.games import abluxxen as ab
from arena.sdk import BadRequestError, read_request, reply
from arena.v1 import abluxxen_pb2, bot_pb2


def test_a_legal_action_is_answered_by_its_index() -> None:
    legal = (ab.TAKE, ab.LEAVE)
    msg = reply(12, legal, ab.LEAVE)
    assert msg.request_id == 12
    assert msg.WhichOneof("choice") == "legal_index"
    assert msg.legal_index == 1


def test_index_zero_is_sent_explicitly() -> None:
    # proto3 drops zero scalars, but a oneof member is sent even when 0.
    msg = reply(3, (ab.TAKE, ab.LEAVE), ab.TAKE)
    parsed = bot_pb2.BotMessage.FromString(msg.SerializeToString())
    assert parsed.WhichOneof("choice") == "legal_index"
    assert parsed.legal_index == 0


def test_an_action_not_in_the_list_is_spelled_out() -> None:
    msg = reply(5, (ab.TAKE, ab.LEAVE), ab.play(7, 2, 1))
    assert msg.WhichOneof("choice") == "abluxxen"
    assert msg.abluxxen.type == abluxxen_pb2.ABLUXXEN_ACTION_TYPE_PLAY
    assert (msg.abluxxen.value, msg.abluxxen.naturals, msg.abluxxen.jokers) == (7, 2, 1)
    assert msg.abluxxen.code == ab.play(7, 2, 1).code


def test_read_request_keeps_the_legal_order() -> None:
    table = Table(seed=11)
    assert table.advance()
    request = table.request().decide
    obs = read_request(request)
    assert [a.code for a in obs.legal] == [a.code for a in request.abluxxen.legal]
    assert obs.seat == table.seat
    assert obs == ab.observe(table.state, table.seat)


def test_read_request_rejects_another_game() -> None:
    with pytest.raises(BadRequestError, match="of a game this SDK does not know"):
        read_request(bot_pb2.DecideRequest(request_id=1))


def test_a_started_bot_reads_its_first_request_without_loading_any_game(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The arena's clock runs from the first request: a bot's declared games are loaded
    when it starts, so its first decision imports no game package and reads no package
    metadata (that once cost 50-60 ms, over a 30 ms deadline)."""
    import importlib

    from arena.games import registry
    from arena.policies import RandomPolicy
    from arena.sdk import BotInfo, answer
    from arena.sdk.servicer import PolicyServicer

    PolicyServicer(RandomPolicy, BotInfo(name="quick", games=("abluxxen",)))
    table = Table(seed=3)
    assert table.advance()
    request = table.request().decide

    def forbidden(*args: object) -> None:
        raise AssertionError("a game was looked up on the first request")

    monkeypatch.setattr(answer, "_GAMES", {})  # as in a fresh bot process
    monkeypatch.setattr(registry, "_modules", forbidden)
    monkeypatch.setattr(importlib, "import_module", forbidden)
    assert read_request(request) == ab.observe(table.state, table.seat)
