"""End conditions, scoring, tie-breaks and matches of several deals (RULES.md §7, §8)."""

from __future__ import annotations

import random

import pytest

from arena.games import abluxxen as ab
from arena.games.abluxxen import DecisionKind as D
from arena.games.abluxxen.result import rank

from .helpers import (
    PRESET_NAMES,
    J,
    act,
    build_state,
    display_values,
    event_types,
    events_of,
    field_cards,
    place,
    play_states,
    random_game,
    random_policy,
)

# ----------------------------------------------------------------------- hand_empty


@pytest.mark.parametrize("preset_name", PRESET_NAMES)
def test_the_emptying_play_ends_the_game_and_abluxxes_nobody(preset_name: str) -> None:
    state = build_state(
        3,
        preset_name,
        hands=[[9, 9, J], [8], [8, 8]],
        displays=[[[2]], [[5, 5, 5]], [[1], [6, 6, 6]]],
        pool=[1, 2, 3, 4, 5, 6],
    )
    act(state, ab.play(9, 2, 1))
    assert state.is_over
    assert state.result is not None
    assert state.result.end_reason == "hand_empty"
    assert "abluxx" not in event_types(state)
    assert display_values(state, 1) == [[5, 5, 5]]
    assert display_values(state, 2) == [[1], [6, 6, 6]]
    assert state.result.scores == (4, 3 - 1, 4 - 2)
    assert state.result.deals[0].hand_cards == (0, 1, 2)
    assert state.result.deals[0].turns == 1
    assert state.kind is None
    assert state.deciding == -1
    assert event_types(state)[-2:] == ["deal_end", "match_end"]


def test_the_emptying_play_does_not_shadowluxx_in_the_duel() -> None:
    state = build_state(
        2,
        "amigo",
        hands=[[9], [8]],
        displays=[[], [[5]]],
        pool=[1, 2, 3, 4, 5, 6],
        shadow=[2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8],
    )
    act(state, ab.play(9, 1))
    assert state.result is not None
    assert state.result.end_reason == "hand_empty"
    assert "shadowluxx" not in event_types(state)
    assert sum(len(s) for s in state.shadow) == 13


# ----------------------------------------------------------------- supply_exhausted


@pytest.mark.parametrize("preset_name", PRESET_NAMES)
def test_random_games_end_for_a_reason_that_holds(preset_name: str) -> None:
    reasons = set()
    for players in (2, 3, 4, 5):
        for seed in range(4):
            state = random_game(ab.make_config(players, preset_name), seed)
            assert state.result is not None
            reason = state.result.end_reason
            reasons.add(reason)
            if reason == "supply_exhausted":
                assert state.deck == []
                assert state.pool == []
            elif reason == "hand_empty":
                assert 0 in state.hand_sizes
                assert state.deck or state.pool
            else:
                assert reason == "turn_cap"
                assert state.result.deals[0].turns == 500
    assert reasons <= {"hand_empty", "supply_exhausted", "turn_cap"}


def test_supply_exhausted_by_an_owed_draw_from_the_last_pool_group_in_the_duel() -> None:
    state = build_state(
        2,
        "amigo",
        hands=[[9, 9, 1], [8]],
        displays=[[], [[5, 5]]],
        pool=[[2, 13, J]],
        shadow=[1, 3, 3, 3, 4, 4, 4, 6, 6, 6, 10, 10, 10],
        rest="discard",
    )
    act(state, ab.play(9, 2), ab.TAKE)
    assert (state.kind, state.draws_left) == (D.DRAW, 2)
    act(state, ab.pool(0))
    assert state.result is not None
    assert state.result.end_reason == "supply_exhausted"
    assert state.hand_values(1) == [2, 8, 13, J]


# ----------------------------------------------------------------------- tie-breaks


@pytest.mark.parametrize(
    ("scores", "hands", "tiebreak", "ranks"),
    [
        ((5, 3, 1), (0, 2, 4), "fewest_hand_cards", (1, 2, 3)),
        ((1, 3, 5), (0, 2, 4), "shared", (3, 2, 1)),
        ((4, 4, 2), (3, 1, 0), "fewest_hand_cards", (2, 1, 3)),
        ((4, 4, 2), (3, 1, 0), "shared", (1, 1, 3)),
        ((4, 4, 4, 0), (2, 2, 1, 9), "fewest_hand_cards", (2, 2, 1, 4)),
        ((4, 4, 4, 0), (2, 2, 1, 9), "shared", (1, 1, 1, 4)),
        ((-3, -3), (3, 3), "fewest_hand_cards", (1, 1)),
        ((-3, 7, -3, 7, 0), (5, 1, 4, 1, 0), "fewest_hand_cards", (5, 1, 4, 1, 3)),
        ((-3, 7, -3, 7, 0), (5, 1, 4, 1, 0), "shared", (4, 1, 4, 1, 3)),
    ],
)
def test_ranks_are_competition_ranks(
    scores: tuple[int, ...], hands: tuple[int, ...], tiebreak: str, ranks: tuple[int, ...]
) -> None:
    assert rank(scores, hands, tiebreak) == ranks


def going_out(state: ab.State, deal: int) -> None:
    """The position of deal ``deal`` (0 or 1): the start seat goes out with one 9."""
    if deal == 0:
        place(
            state,
            hands=[[9], [1, 1], [2], [3]],
            displays=[[[4] * 5], [[5] * 8], [[6] * 7], [[7] * 7]],
            pool=[1, 2, 3, 8, 10, 11],
        )
    else:
        place(
            state,
            hands=[[1], [9], [2], [3, 3]],
            displays=[[[4] * 3], [[5] * 2], [[6] * 3], [[7] * 4]],
            pool=[1, 2, 4, 8, 10, 11],
        )
    act(state, ab.play(9, 1))


@pytest.mark.parametrize(
    ("tiebreak", "ranks"), [("fewest_hand_cards", (2, 1, 3, 4)), ("shared", (2, 1, 2, 2))]
)
def test_a_match_ranks_by_total_score_then_total_hand_cards(
    tiebreak: str, ranks: tuple[int, ...]
) -> None:
    state = build_state(4, "amigo", hands=[[1]] * 4, deals=2, tiebreak=tiebreak)
    going_out(state, 0)
    assert not state.is_over
    assert (state.deal, state.start_seat, state.kind, state.deciding) == (1, 1, D.PLAY, 1)
    assert state.match_scores == [6, 6, 6, 6]
    going_out(state, 1)
    assert state.result is not None
    first, second = state.result.deals
    assert first.scores == (6, 6, 6, 6)
    assert second.scores == (2, 3, 2, 2)
    assert state.result.scores == (8, 9, 8, 8)
    assert state.result.hand_cards == (1, 2, 2, 3)
    assert state.result.ranks == ranks
    assert state.result.end_reason == "hand_empty"


@pytest.mark.parametrize(
    ("players", "preset_name", "deals", "duplicate"),
    [
        (2, "amigo", 3, False),
        (3, "amigo-advanced", 4, False),
        (4, "ravensburger-2014", 4, True),
        (5, "amigo-expert", 2, False),
        (2, "ravensburger-2014", 2, True),
    ],
)
def test_matches_rotate_the_start_player_and_add_up_the_scores(
    players: int, preset_name: str, deals: int, duplicate: bool
) -> None:
    config = ab.make_config(players, preset_name, deals=deals, duplicate=duplicate)
    state = ab.new_game(config, random.Random(deals))
    deal_ends: list[tuple[int, ...]] = []
    for now in play_states(state, random_policy(random.Random(players))):
        assert now.start_seat == now.deal % players
        assert now.turn > 0 or now.deciding == now.start_seat
    starts = [e for e in state.events if e[0] == "deal_start"]
    assert [(e[1], e[2]) for e in starts] == [(d, d % players) for d in range(deals)]
    plays = [e for e in state.events if e[0] in ("deal_start", "play")]
    first_players = [plays[i + 1][1] for i, e in enumerate(plays) if e[0] == "deal_start"]
    assert first_players == [d % players for d in range(deals)]
    result = state.result
    assert result is not None
    assert len(result.deals) == deals
    deal_ends = [field_cards(e, 3) for e in events_of(state, "deal_end")]
    assert deal_ends == [d.scores for d in result.deals]
    totals = tuple(sum(d.scores[s] for d in result.deals) for s in range(players))
    hand_totals = tuple(sum(d.hand_cards[s] for d in result.deals) for s in range(players))
    assert result.scores == totals
    assert result.hand_cards == hand_totals
    assert result.ranks == rank(totals, hand_totals, config.options.tiebreak)
    for deal in result.deals:
        assert deal.ranks == rank(deal.scores, deal.hand_cards, config.options.tiebreak)
    # The final deal's zones are kept: its scores are display cards minus hand cards.
    last = result.deals[-1]
    assert last.scores == tuple(
        sum(len(cards) for _, cards in state.displays[s]) - state.hand_sizes[s]
        for s in range(players)
    )
    assert last.hand_cards == tuple(state.hand_sizes)
    assert event_types(state)[-1] == "match_end"
    assert state.events[-1] == ("match_end", totals)


def test_a_new_deal_starts_fresh() -> None:
    state = build_state(4, "amigo", hands=[[1]] * 4, deals=2)
    going_out(state, 0)
    assert state.hand_sizes == [13, 13, 13, 13]
    assert state.displays == [[], [], [], []]
    assert len(state.pool) == 6
    assert state.discard == []
    assert state.turn == 0
    assert state.known == [[0] * 15 for _ in range(4)]
    assert len(state.deal_results) == 1
    ab.check_invariants(state)
