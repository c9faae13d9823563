"""Cards ticked in one go on the play page map onto legal actions only: every Abluxxen
play is exactly one set of ticked cards and back; a Fluxx discard down to the hand limit
is ticked at once and answers the game's one-card decisions that follow, in a real
match; anything else ticked is refused in words."""

from __future__ import annotations

import asyncio
import random
from collections import Counter
from collections.abc import Callable
from typing import Any

from referee.scripted import run_virtual

from arena.games import board_of, get
from arena.games.base import CardPicks
from arena.policies import RandomPolicy
from arena.referee import LocalSeat, MatchSpec, Seat, run_match
from arena.referee.human import HumanSeat
from arena.web.play_picks import checkboxes, picked

from .kit import answer_each_decision


def test_each_abluxxen_play_is_one_set_of_ticked_cards_and_back() -> None:
    game = get("abluxxen")
    board = board_of(game)
    rng = random.Random(4)
    plays = 0
    for seed in range(3):
        state = game.new_match(game.make_config(3), random.Random(seed))
        while (seat := game.deciding(state)) is not None:
            obs = game.observe(state, seat)
            picks = board.card_picks(obs)
            if picks is not None:
                boxes = checkboxes(picks)
                for index, cards in enumerate(picks.cards):
                    if cards:
                        plays += 1
                        assert picked(picks, list(cards)) == [index]
                        assert not Counter(cards) - Counter(boxes.cards)  # all tickable
                    else:
                        assert index in boxes.buttons
            game.apply_legal(state, obs.legal[rng.randrange(len(obs.legal))])
    assert plays > 100


def test_ticked_cards_that_are_no_choice_are_refused_in_words() -> None:
    sets = CardPicks((("7", "7"), ("7",), ("J",), ()))
    assert picked(sets, ["7", "J"]) == (
        "no legal choice takes exactly 7, J; tick one of the sets offered"
    )
    assert picked(sets, []) == "tick the cards you choose"
    assert checkboxes(sets).cards == ["7", "7", "J"]
    assert checkboxes(sets).buttons == [3]
    discards = CardPicks((("Bread",), ("Milk",), ("War",)), repeats=2)
    assert picked(discards, ["War"]) == "tick 2 cards (1 ticked)"
    assert picked(discards, ["War", "Tea"]) == "'Tea' is not a card you may choose here"
    assert picked(discards, ["War", "War"]) == "'War' is not a card you may choose here"
    assert picked(discards, ["War", "Bread"]) == [2, 0]


async def _person_at_fluxx_table(seed: int, answer: Callable[[Any], tuple[int, ...]]) -> list[str]:
    """A real 3-seat Fluxx match, a person at seat 0 (``answer(decision)``: the choices
    made, the first for this decision) and two random seats; the decision kinds the
    person was asked, those answered ahead included."""
    human = HumanSeat("me")
    seats: list[Seat] = [
        human,
        LocalSeat("r1", RandomPolicy(seed)),
        LocalSeat("r2", RandomPolicy(seed + 1)),
    ]

    clicking = asyncio.create_task(answer_each_decision(human, answer))
    game = get("fluxx")
    spec = MatchSpec(f"play/{seed}", game.make_config(3), seed=seed, game=game)
    outcome = await run_match(spec, seats)
    await clicking
    assert outcome.seats[0].faults == []
    return [str(getattr(d.observation.decision, "name", "")) for d in human.asked]


def test_a_fluxx_discard_down_to_the_hand_limit_is_one_choice() -> None:
    """A person at a real Fluxx table ticks all the cards over the hand limit at once;
    the game's one-card decisions that follow are answered without asking again."""
    board = board_of(get("fluxx"))

    def play(seed: int) -> tuple[list[int], list[int]]:
        shown: list[int] = []  # per limit decision shown: how many cards it took at once

        def answer(decision: Any) -> tuple[int, ...]:
            picks = board.card_picks(decision.observation)
            if picks is not None and picks.repeats > 1:
                obs: Any = decision.observation  # Fluxx's: its limits
                limit = (
                    obs.hand_limit if obs.decision.name.endswith("HAND_LIMIT") else obs.keeper_limit
                )
                assert picks.repeats == len(obs.legal) - limit  # down to the limit
                names = [cards[0] for cards in picks.cards][: picks.repeats]
                chosen = picked(picks, names)
                assert isinstance(chosen, list)
                shown.append(picks.repeats)
                return tuple(chosen)
            if picks is not None:
                shown.append(1)
            return (0,)

        kinds = run_virtual(_person_at_fluxx_table(seed, answer))
        return shown, [1 for k in kinds if k.endswith("_LIMIT")]

    for seed in range(40):
        shown, limit_decisions = play(seed)
        if any(n > 1 for n in shown):
            # Every one-card decision of a limit was answered by the cards ticked when the
            # first was shown: the person was asked once per limit reached.
            assert sum(shown) == len(limit_decisions) > len(shown)
            return
    raise AssertionError("no match of 40 reached a discard of several cards to a limit")


def test_any_number_of_ticked_cards_then_done_is_one_choice() -> None:
    trash = CardPicks((("War",), ("Milk",), ("War",), ()), repeats=0)
    assert checkboxes(trash).cards == ["Milk", "War", "War"]
    assert checkboxes(trash).buttons == [3]
    assert picked(trash, []) == [3]  # nothing ticked: done at once
    assert picked(trash, ["War", "Milk", "War"]) == [0, 1, 2, 3]
    assert picked(trash, ["Tea"]) == "'Tea' is not a card you may choose here"
    no_end = CardPicks((("War",),), repeats=0)
    assert picked(no_end, ["War"]) == (
        "this choice cannot be made by ticking cards; choose one of the buttons"
    )


def test_fluxx_trash_day_is_one_choice() -> None:
    """On It's Trash Day! a person at a real Fluxx table ticks every card to discard at
    once; the game's one-card decisions that follow, and the DONE that ends them, are
    answered without asking again."""
    board = board_of(get("fluxx"))

    def play(seed: int) -> tuple[list[int], int]:
        runs: list[int] = []  # per Trash Day shown: the decisions it answered at once

        def answer(decision: Any) -> tuple[int, ...]:
            picks = board.card_picks(decision.observation)
            if picks is None or picks.repeats != 0:
                return (0,)
            names = [cards[0] for cards in picks.cards if cards]
            chosen = picked(picks, names)  # every card it may discard, then DONE
            assert isinstance(chosen, list)
            runs.append(len(chosen))
            return tuple(chosen)

        kinds = run_virtual(_person_at_fluxx_table(seed, answer))
        return runs, kinds.count("TRASH_DAY")

    for seed in range(200):
        runs, asked = play(seed)
        if any(n > 2 for n in runs):
            assert sum(runs) == asked  # each run answered in full when first shown
            return
    raise AssertionError("no match of 200 reached It's Trash Day! with cards to discard")
