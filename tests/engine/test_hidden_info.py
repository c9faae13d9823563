"""Hidden information (RULES.md §10): a seat's observation and event views depend only on
what that seat may know."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from arena.games import abluxxen as ab
from arena.games.abluxxen import DecisionKind as D
from arena.games.abluxxen import events as ev
from arena.games.abluxxen.cards import VALUE_OF
from arena.games.abluxxen.state import State

from .helpers import PRESET_NAMES, field_cards, field_int, play_states, random_policy

EXPECTED_KINDS = {
    "amigo": set(D),
    "amigo-advanced": set(D) - {D.OPTIONAL_DRAW},
    "amigo-expert": set(D) - {D.OPTIONAL_DRAW},
    "ravensburger-2014": {D.PLAY, D.ATTACKER_TAKE, D.VICTIM_CHOICE, D.DRAW},
}


def positions(preset_name: str, players: int, seed: int, per_kind: int = 2) -> list[State]:
    """Copies of states met in a random match, up to ``per_kind`` of each decision kind
    (the last deal of two, so that the observations carry a finished deal too)."""
    config = ab.make_config(players, preset_name, deals=2)
    state = ab.new_game(config, random.Random(seed))
    sampler = random.Random(seed + 1)
    taken = Counter[D]()
    out = []
    for now in play_states(state, random_policy(random.Random(seed + 2))):
        assert now.kind is not None
        if taken[now.kind] < per_kind and sampler.random() < 0.15:
            taken[now.kind] += 1
            out.append(now.clone())
    return out


def obs_json(obs: ab.Observation) -> str:
    return json.dumps(obs.to_json(), sort_keys=True)


def hidden_part(state: State, seat: int) -> list[object]:
    """What ``seat`` may not know: the other hands by value and the deck order."""
    others = [state.hand_values(s) for s in range(state.players) if s != seat]
    return [others, [VALUE_OF[c] for c in state.deck]]


@pytest.mark.parametrize("preset_name", PRESET_NAMES)
def test_a_determinized_world_looks_the_same_to_the_seat(preset_name: str) -> None:
    kinds: set[D] = set()
    differing = 0
    total = 0
    rng = random.Random(preset_name)
    for players in (2, 3, 4, 5):
        for seed in range(2):
            for state in positions(preset_name, players, seed):
                assert state.kind is not None
                kinds.add(state.kind)
                for seat in range(players):
                    obs = ab.observe(state, seat)
                    world = ab.determinize(obs, rng)
                    ab.check_invariants(world)
                    again = ab.observe(world, seat)
                    assert again == obs
                    assert obs_json(again) == obs_json(obs)
                    assert ab.Observation.from_json(json.loads(obs_json(obs))) == obs
                    total += 1
                    differing += hidden_part(world, seat) != hidden_part(state, seat)
                    if seat == state.deciding:
                        assert ab.legal_actions(world) == ab.legal_actions(state)
    assert kinds == EXPECTED_KINDS[preset_name]
    assert differing > total // 2, "the sampled worlds should differ in what is hidden"


def current_deal_start(state: State) -> int:
    return max(i for i, e in enumerate(state.events) if e[0] == "deal_start")


def private_cards(state: State, holder: int, seat: int) -> list[int]:
    """Cards in ``holder``'s hand that ``seat`` has never seen in this deal (every
    event of the deal that names them is private to ``seat``) and that are not among
    the publicly known cards of that value."""
    start = current_deal_start(state)
    seen: set[int] = set()
    for event in state.events[start:]:
        if ev.is_private(event, seat):
            continue
        for field in event[1:]:
            if isinstance(field, tuple):
                seen.update(c for c in field if isinstance(c, int))
        if event[0] in ("divert", "shadow_reveal"):
            seen.add(field_int(event, 1))
    hand = state.hands[holder]
    return [
        c
        for value in range(1, 15)
        if len(hand[value]) > state.known[holder][value]
        for c in hand[value]
        if c not in seen
    ]


def swapped_world(state: State, seat: int, rng: random.Random) -> tuple[State, int] | None:
    """A copy of ``state`` in which two opponents of ``seat`` exchanged one unseen card
    each (of different values), the deck is reshuffled, and the private events of the
    deal are relabelled to match; None if no such pair exists. Also returns one of the
    two opponents."""
    opponents = [s for s in range(state.players) if s != seat]
    rng.shuffle(opponents)
    for a in opponents:
        for b in opponents:
            if a == b:
                continue
            mine = private_cards(state, a, seat)
            theirs = private_cards(state, b, seat)
            pairs = [(c, d) for c in mine for d in theirs if VALUE_OF[c] != VALUE_OF[d]]
            if not pairs:
                continue
            c, d = rng.choice(pairs)
            world = state.clone()
            world.hands[a][VALUE_OF[c]].remove(c)
            world.hands[b][VALUE_OF[d]].remove(d)
            world.hands[a][VALUE_OF[d]].append(d)
            world.hands[b][VALUE_OF[c]].append(c)
            swap = {c: d, d: c}
            start = current_deal_start(world)
            for i in range(start, len(world.events)):
                event = world.events[i]
                fields = [
                    tuple(swap.get(x, x) for x in f) if isinstance(f, tuple) else f
                    for f in event[1:]
                ]
                if event[0] == "dealt":
                    fields[1] = tuple(sorted(field_cards((event[0], *fields), 2)))
                world.events[i] = (event[0], *fields)
            rng.shuffle(world.deck)
            ab.check_invariants(world)
            return world, a
    return None


@pytest.mark.parametrize("preset_name", PRESET_NAMES)
@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.slow
def test_swapping_unseen_cards_between_opponents_changes_nothing_seen(
    preset_name: str, players: int
) -> None:
    rng = random.Random(players)
    swaps = 0
    for seed in range(2):
        for state in positions(preset_name, players, seed, per_kind=3):
            for seat in range(players):
                found = swapped_world(state, seat, rng)
                if found is None:
                    continue
                world, opponent = found
                swaps += 1
                assert ab.observe(world, seat) == ab.observe(state, seat)
                assert obs_json(ab.observe(world, seat)) == obs_json(ab.observe(state, seat))
                assert ev.views(world.events, seat) == ev.views(state.events, seat)
                # The swap is visible to the opponent whose hand changed.
                assert ab.observe(world, opponent) != ab.observe(state, opponent)
                assert ev.views(world.events, opponent) != ev.views(state.events, opponent)
                assert ev.views(world.events, None) != ev.views(state.events, None)
    assert swaps > 10


def test_reshuffling_the_deck_alone_is_invisible_to_everybody() -> None:
    for state in positions("amigo", 4, 3):
        world = state.clone()
        random.Random(1).shuffle(world.deck)
        for seat in range(4):
            assert ab.observe(world, seat) == ab.observe(state, seat)
            assert ev.views(world.events, seat) == ev.views(state.events, seat)


@pytest.mark.parametrize(
    ("players", "preset_name"), [(4, "amigo"), (2, "amigo"), (3, "amigo-expert")]
)
def test_event_views_hide_other_deals_and_deck_draws_but_show_ones_own(
    players: int, preset_name: str
) -> None:
    config = ab.make_config(players, preset_name)
    state = ab.new_game(config, random.Random(9))
    for _ in play_states(state, random_policy(random.Random(9))):
        pass
    deck_draws = pool_draws = 0
    for seat in range(players):
        views = ev.views(state.events, seat)
        assert len(views) == len(state.events)
        for event, view in zip(state.events, views, strict=True):
            full = ev.to_json(event)
            assert view["type"] == full["type"]
            kind = event[0]
            cards = full.get("cards")
            hidden = (kind == "dealt" and event[1] != seat) or (
                kind == "draw" and event[2] == -1 and event[1] != seat
            )
            if hidden:
                assert "cards" not in view
                assert cards is not None
                assert view["count"] == len(cards)
                assert {k: v for k, v in view.items() if k != "count"} == {
                    k: v for k, v in full.items() if k != "cards"
                }
            elif cards is not None:
                assert "count" not in view
                assert view["cards"] == [VALUE_OF[c] for c in cards]
            if kind == "draw":
                if event[2] == -1:
                    deck_draws += 1
                else:
                    pool_draws += 1
                    assert view["cards"] == [VALUE_OF[c] for c in full["cards"]]
            if kind == "dealt" and event[1] == seat:
                assert sorted(view["cards"]) == view["cards"]
                assert len(view["cards"]) == 13
    assert deck_draws > 0
    assert pool_draws > 0
    everything = ev.views(state.events, None)
    assert all("count" not in v for v in everything)


PUBLIC_KEYS = {
    "seat",
    "config",
    "deal",
    "start_seat",
    "turn",
    "active",
    "decision",
    "deciding",
    "legal",
    "hand",
    "hand_sizes",
    "known",
    "displays",
    "pool",
    "shadow",
    "discard",
    "deck_size",
    "played",
    "victim",
    "checks",
    "drawer",
    "draws_left",
    "abluxxed",
    "past_deals",
}


@pytest.mark.parametrize("preset_name", PRESET_NAMES)
def test_observations_differ_between_seats_only_in_seat_hand_and_legal(preset_name: str) -> None:
    for players in (2, 4):
        for state in positions(preset_name, players, 5):
            views = [ab.observe(state, seat).to_json() for seat in range(players)]
            for seat, view in enumerate(views):
                assert set(view) == PUBLIC_KEYS
                assert view["hand"] == state.hand_values(seat)
                assert bool(view["legal"]) == (seat == state.deciding)
            public = [
                {k: v for k, v in view.items() if k not in ("seat", "hand", "legal")}
                for view in views
            ]
            assert all(p == public[0] for p in public)


def test_observe_rejects_a_seat_that_does_not_exist() -> None:
    state = ab.new_game(ab.make_config(4, "amigo"), random.Random(4))
    with pytest.raises(ValueError, match="seat 4"):
        ab.observe(state, 4)
