"""Property tests over random legal play: every preset, 2-5 players, several deals and
duplicate matches (RULES.md §2, §7, §11)."""

from __future__ import annotations

import random
from dataclasses import dataclass

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arena.games import abluxxen as ab
from arena.games.abluxxen.cards import NUM_CARDS

from .helpers import PRESET_NAMES


@dataclass(frozen=True)
class Match:
    config: ab.GameConfig
    seed: int


@st.composite
def matches(draw: st.DrawFn) -> Match:
    players = draw(st.integers(2, 5))
    preset_name = draw(st.sampled_from(PRESET_NAMES))
    shape = draw(st.sampled_from(["single", "single", "two_deals", "duplicate"]))
    deals = {"single": 1, "two_deals": 2, "duplicate": players}[shape]
    max_turns = draw(st.sampled_from([500, 500, 500, 12]))
    overrides: dict[str, object] = {"max_turns": max_turns}
    if players == 2 and ab.PRESETS[preset_name].two_player == "duel":
        overrides["shadow_take"] = draw(st.sampled_from(["whole_stack", "any_subset"]))
    config = ab.make_config(
        players, preset_name, deals=deals, duplicate=shape == "duplicate", **overrides
    )
    return Match(config, draw(st.integers(0, 2**32 - 1)))


def step_bound(config: ab.GameConfig) -> int:
    """An upper bound on the decisions of a match: per turn one play, one shadow pick,
    per victim a take/leave, a victim choice and at most 13+5 owed draws, one optional
    draw."""
    per_turn = 3 + (config.players - 1) * (2 + 18)
    return config.deals * config.options.max_turns * per_turn


def public_card_count(obs: ab.Observation) -> int:
    """Every card accounted for from one seat's observation alone."""
    return (
        sum(obs.hand_sizes)
        + sum(n + j for display in obs.displays for _, n, j in display)
        + sum(len(slot) for slot in obs.pool)
        + obs.deck_size
        + len(obs.discard)
        + sum(obs.shadow)
    )


@settings(max_examples=25, deadline=None)
@given(matches())
@pytest.mark.slow
def test_random_play_conserves_cards_and_every_legal_action_is_accepted(match: Match) -> None:
    config = match.config
    state = ab.new_game(config, random.Random(match.seed))
    rng = random.Random(match.seed ^ 0x5EED)
    players = config.players
    steps = 0
    bound = step_bound(config)
    while not state.is_over:
        assert steps < bound, "the match did not end"
        locations = ab.card_locations(state)
        assert len(locations) == NUM_CARDS
        ab.check_invariants(state)
        seat = state.deciding
        assert 0 <= seat < players
        legal = ab.legal_actions(state)
        assert legal, f"{state.kind} with no legal action"
        assert ab.legal_actions(state, seat) == legal
        for other in range(players):
            if other != seat:
                assert ab.legal_actions(state, other) == []
        obs = ab.observe(state, seat)
        assert list(obs.legal) == legal
        assert public_card_count(obs) == NUM_CARDS
        assert list(obs.scores) == state.deal_scores()
        for action in legal:
            trial = state.clone()
            ab.apply(trial, action)
            ab.check_invariants(trial)
        ab.apply(state, rng.choice(legal))
        steps += 1
    ab.check_invariants(state)
    result = state.result
    assert result is not None
    assert len(result.deals) == config.deals
    for deal in result.deals:
        assert deal.reason in ("hand_empty", "supply_exhausted", "turn_cap")
        assert 1 <= deal.turns <= config.options.max_turns
        assert (deal.reason == "turn_cap") <= (deal.turns == config.options.max_turns)
    last = result.deals[-1]
    displayed = [sum(len(cards) for _, cards in state.displays[s]) for s in range(players)]
    assert last.scores == tuple(d - h for d, h in zip(displayed, state.hand_sizes, strict=True))
    assert last.hand_cards == tuple(state.hand_sizes)
    assert result.scores == tuple(
        sum(deal.scores[s] for deal in result.deals) for s in range(players)
    )
    assert all(1 <= r <= players for r in result.ranks)
    assert min(result.ranks) == 1
    for seat in range(players):
        assert ab.legal_actions(state, seat) == []


def fingerprint(state: ab.State) -> str:
    """The zones and the decision, cheaply (events and history by length and tail)."""
    return repr(
        (
            state.hands,
            state.hand_sizes,
            state.known,
            state.displays,
            state.pool,
            state.deck,
            state.discard,
            state.shadow,
            state.kind,
            state.deciding,
            state.active,
            state.turn,
            state.played,
            state.checks,
            state.victim,
            state.drawer,
            state.draws_left,
            state.abluxxed,
            state.match_scores,
            state.deal,
            state.events[-3:],
            len(state.events),
            state.history[-3:],
            len(state.history),
        )
    )


@settings(max_examples=25, deadline=None)
@given(matches())
@pytest.mark.slow
def test_clone_is_independent_and_apply_unchecked_matches_apply(match: Match) -> None:
    state = ab.new_game(match.config, random.Random(match.seed))
    twin = ab.new_game(match.config, random.Random(match.seed))
    rng = random.Random(match.seed)
    while not state.is_over:
        before = fingerprint(state)
        copy = state.clone()
        action = rng.choice(ab.legal_actions(state))
        ab.apply(copy, action)
        assert fingerprint(state) == before, "applying to a clone changed the original"
        ab.apply(state, action)
        ab.apply_unchecked(twin, action)
        assert fingerprint(state) == fingerprint(copy) == fingerprint(twin)
    assert ab.state_to_json(state) == ab.state_to_json(twin)
    assert ab.state_to_json(state) == ab.state_to_json(copy)
