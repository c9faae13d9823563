"""Options and presets (FLUXX.md §3), setup (§4), the action encoding and ``apply``'s
checks (§14)."""

from __future__ import annotations

import random

import pytest

from arena.games import fluxx as fx
from arena.games.base import InvalidOptionsError as BaseInvalidOptionsError
from arena.games.fluxx.actions import ActionKind, DecisionKind
from arena.games.fluxx.cards import BY_KEY, KEYS, NAMES, TYPE_OF, CardType
from arena.games.fluxx.state import Z_BOX, Z_META

from .helpers import c, layout

# ------------------------------------------------------------------- options


def test_presets_and_defaults() -> None:
    assert fx.DEFAULT_PRESET == "pegasus-2011"
    assert set(fx.PRESETS) == {
        "pegasus-2011",
        "pegasus-2011-no-creepers",
        "pegasus-2011-escalation",
    }
    config = fx.make_config(4)
    assert config.options == fx.RuleOptions("none", 300, 20000)
    assert fx.preset_of(fx.make_config(3, "pegasus-2011-escalation").options) == (
        "pegasus-2011-escalation"
    )
    assert fx.preset_of(fx.make_config(3, max_turns=5).options) == ""
    assert fx.GameConfig.from_json(config.to_json()) == config


@pytest.mark.parametrize(
    ("args", "kwargs", "words"),
    [
        ((4, "amigo"), {}, "pegasus-2011-no-creepers"),
        ((1,), {}, "2 to 6"),
        ((7,), {}, "2 to 6"),
        ((4,), {"meta_rule": "creepers"}, "rules_escalation"),
        ((4,), {"max_turns": 0}, "positive integer"),
        ((4,), {"max_decisions": True}, "positive integer"),
        ((4,), {"deals": 2}, "max_decisions"),
    ],
)
def test_invalid_options_name_what_is_allowed(
    args: tuple[object, ...], kwargs: dict[str, object], words: str
) -> None:
    with pytest.raises(fx.InvalidOptionsError, match=words) as info:
        fx.make_config(*args, **kwargs)  # type: ignore[arg-type]
    assert isinstance(info.value, BaseInvalidOptionsError)


def test_config_json_errors() -> None:
    with pytest.raises(fx.InvalidOptionsError, match="unknown"):
        fx.GameConfig.from_json({"players": 4, "colour": 1})
    with pytest.raises(fx.InvalidOptionsError, match="unknown rule option"):
        fx.GameConfig.from_json({"players": 4, "options": {"foo": 1}})


# --------------------------------------------------------------------- setup


def test_cards_table() -> None:
    assert len(KEYS) == len(set(KEYS)) == fx.NUM_CARDS == 100
    counts = {t: sum(1 for x in TYPE_OF if x is t) for t in CardType}
    assert counts == {
        CardType.BASIC: 1,
        CardType.META: 1,
        CardType.KEEPER: 19,
        CardType.CREEPER: 4,
        CardType.GOAL: 29,
        CardType.RULE: 24,
        CardType.ACTION: 22,
    }
    assert BY_KEY["radioactive_potato"] == 24
    assert BY_KEY["its_trash_day"] == 99
    assert NAMES[c("inflation")] == "Inflation (X=X+1)"


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_setup(players: int) -> None:
    for seed in range(10):
        state = fx.new_game(fx.make_config(players), random.Random(seed))
        first_turn = next(i for i, e in enumerate(state.events) if e[0] == "turn")
        setup = state.events[:first_turn]
        for seat in range(players):
            dealt = next(e[2] for e in setup if e[0] == "setup_deal" and e[1] == seat)
            assert isinstance(dealt, tuple)
            assert len(dealt) == 3
            kept = [x for x in dealt if TYPE_OF[x] is not CardType.CREEPER]
            drawn = 0
            for e in setup:
                if e[0] == "draw" and e[1] == seat:
                    assert isinstance(e[2], tuple)
                    drawn += len(e[2])
            assert len(kept) + drawn == 3
        assert state.active == 0
        assert state.turn == 1
        assert state.loc[1] == Z_BOX
        assert state.kind is not None


def test_setup_replaces_creepers_seat_by_seat() -> None:
    for seed in range(40):
        state = fx.new_game(fx.make_config(4), random.Random(seed))
        setup = state.events[: next(i for i, e in enumerate(state.events) if e[0] == "turn")]
        if any(e[0] == "creeper" for e in setup):
            seats = [int(str(e[1])) for e in setup if e[0] in ("creeper", "draw")]
            assert seats == sorted(seats)
            for seat in range(4):
                before_turn = len(state.hands[seat])
                assert before_turn >= 3
            return
    pytest.fail("no set-up dealt a Creeper")


def test_meta_variants() -> None:
    state = fx.new_game(fx.make_config(4, "pegasus-2011-no-creepers"), random.Random(1))
    assert state.loc[1] == Z_META
    assert all(state.loc[x] == Z_BOX for x in range(21, 25))
    assert len(state.box) == 4
    state = fx.new_game(fx.make_config(4, "pegasus-2011-escalation"), random.Random(1))
    assert state.loc[1] == Z_META
    assert state.box == []


# ------------------------------------------------------------------- actions


def test_action_codes_are_stable() -> None:
    assert fx.play(c("jackpot")).code == 178
    assert fx.GET_ON_WITH_IT.code == 200
    assert fx.DISCARD_LONE_DEATH.code == 201
    assert fx.discard(c("death")).code == 323
    assert fx.DONE.code == 400
    assert fx.STOP.code == 600
    assert fx.give_war(3).code == 1003
    assert fx.seat(2).code == 1012
    assert fx.exchange(2, 3).code == 1101
    assert fx.exchange(20, 19).code == fx.NUM_ACTION_CODES - 2
    assert max(fx.ACTIONS) < fx.NUM_ACTION_CODES


def test_every_action_round_trips() -> None:
    for code, action in fx.ACTIONS.items():
        assert fx.from_code(code) is action
        assert fx.action_from_json(action.to_json()) is action
        assert str(action)


@pytest.mark.parametrize(
    "data",
    [
        None,
        {"type": "fly"},
        {"type": "PLAY", "card": 78},
        {"type": "play"},
        {"type": "play", "card": 21},
        {"type": "play", "card": 200},
        {"type": "play", "card": True},
        {"type": "stop", "card": 3},
        {"type": "exchange", "card": 2, "other": 2},
        {"type": "seat", "seat": 9},
    ],
)
def test_malformed_actions(data: object) -> None:
    with pytest.raises(fx.MalformedActionError):
        fx.action_from_json(data)


def test_apply_checks() -> None:
    s = layout(hands={0: ["jackpot"]}, start="play")
    with pytest.raises(fx.MalformedActionError):
        fx.apply(s, 178)
    forged = fx.Action(178, ActionKind.STOP)
    with pytest.raises(fx.MalformedActionError):
        fx.apply(s, forged)
    with pytest.raises(fx.IllegalActionError, match=r"legal: PLAY\(Jackpot!\)"):
        fx.apply(s, fx.play(c("bread")))
    with pytest.raises(fx.IllegalActionError, match="seat 1 cannot act"):
        fx.apply(s, fx.play(c("jackpot")), 1)
    assert s.kind is DecisionKind.PLAY  # nothing changed
    assert s.history == []
    fx.apply(s, fx.play(c("jackpot")), 0)
    assert s.history == [(0, 178)]
    assert issubclass(fx.MalformedActionError, ValueError)
    assert issubclass(fx.IllegalActionError, ValueError)


def test_apply_after_the_end() -> None:
    s = layout(goals=["toast"], hands={0: ["bread"]}, tables={0: ["toaster"]}, start="play")
    fx.apply(s, fx.play(c("bread")))
    assert s.is_over
    with pytest.raises(fx.IllegalActionError, match="over"):
        fx.apply(s, fx.play(c("bread")))
