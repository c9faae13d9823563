"""What the games tell people in replays and at the human seat, in words people use:
verbs that agree with "you", possessives, counts of equal cards, times people read, no
enum names; Fluxx's cards each with their text, and its choices naming seats by number
and name; a seat's text replay still shows only what that seat saw."""

from __future__ import annotations

import json
import random
import re

from arena import words
from arena.games import conformance_kit as kit
from arena.games.abluxxen import replay_text as abx_text
from arena.games.abluxxen.game import GAME as ABLUXXEN
from arena.games.decision_words import decision_line, fault_words, took
from arena.games.fluxx import events as fx_events
from arena.games.fluxx import replay_text as fx_text
from arena.games.fluxx.actions import give_war, seat
from arena.games.fluxx.card_text import TEXT
from arena.games.fluxx.cards import NAMES, NUM_CARDS, PAIR_GOALS, TYPE_OF, CardType
from arena.games.fluxx.choice_words import choice_label
from arena.games.fluxx.game import GAME as FLUXX

ENUM_NAME = re.compile(r"\b[A-Z]{2,}_[A-Z_]+\b|\b(PLAY|POOL|DECK|PASS|TAKE|LEAVE)\b")
"""An engine's enum name (``ATTACKER_TAKE``, ``DEAL_CARD``, ``PLAY 2x12``)."""


def test_a_seat_named_you_is_spoken_to() -> None:
    you, greedy = words.Person("you"), words.Person("greedy")
    assert f"{you:plays} two 12s" == "you play two 12s"
    assert f"{greedy:plays} two 12s" == "greedy plays two 12s"
    assert f"{you:abluxxes}, {you:passes}, {you:is} dealt" == "you abluxx, you pass, you are dealt"
    assert f"{greedy:abluxxes} {you:'s} cards" == "greedy abluxxes your cards"
    assert f"{you:abluxxes} {greedy:'s} cards" == "you abluxx greedy's cards"
    assert f"{you:discards it, or [keeps] it}" == "you discard it, or keep it"
    assert f"{greedy:discards it, or [keeps] it}" == "greedy discards it, or keeps it"


def test_counts_and_times_read_as_people_say_them() -> None:
    assert words.counted(["12", "12", "joker"]) == "two 12s and a joker"
    assert words.counted(["8"]) == "an 8"
    assert words.counted(["1", "3", "3", "7"], singles="bare") == "1, two 3s and 7"
    assert words.count(3, "hidden card") == "three hidden cards"
    assert words.duration(1722.261) == "1.7 s"
    assert words.duration(340.2) == "340 ms"
    assert words.duration(0.2) == "under 1 ms"
    assert words.duration(42_400) == "42 s"
    assert words.duration(125_000) == "2 min 5 s"


def test_abluxxen_events_say_who_did_what_to_whom() -> None:
    names = ["you", "greedy"]
    abluxx = {"type": "abluxx", "seat": 1, "victim": 0, "cards": [12, 12]}
    assert abx_text.describe_event(abluxx, names) == "greedy abluxxes your two 12s"
    play = {"type": "play", "seat": 0, "cards": [7, 7, 7, 14]}
    assert abx_text.describe_event(play, names) == "you play three 7s and a joker"
    hidden = {"type": "draw", "seat": 1, "slot": -1, "count": 1}
    assert abx_text.describe_event(hidden, names) == "greedy draws one hidden card from the deck"
    end = {"type": "deal_end", "reason": "hand_empty", "scores": [-6, 22]}
    assert abx_text.describe_event(end, names) == (
        "the deal ends: a hand is empty; scores: you -6, greedy 22"
    )


def test_a_decision_line_has_its_choice_time_and_fault_in_words() -> None:
    line = {"ms": 1722.261, "fault": {"kind": "TIMEOUT", "detail": "slow"}}
    assert took(line) == "in 1.7 s"
    assert fault_words(line) == "fault: no answer in time (slow); the fallback was played"
    assert decision_line(3, "you", "Play two 12s", {"ms": 5.0}) == (
        "#3 you chose “Play two 12s” in 5 ms"
    )
    assert "arena lagged" in fault_words({"fallback": "arena_lag"})


def test_whole_replays_use_no_enum_names_and_no_bare_milliseconds() -> None:
    for game, players in ((ABLUXXEN, 3), (FLUXX, 3)):
        final = kit.random_match(game, game.make_config(players), 5)
        record = json.loads(json.dumps(game.record_json(final)))
        decisions = [{"ms": 1722.261}] * 5000
        names = ["you", "greedy", "r"]
        for view in (None, 0, 1):
            text = list(game.replay_text(record, decisions, names, view))
            assert text
            for line in text:
                assert not ENUM_NAME.search(line), (game.name, line)
                assert not re.search(r"\byou (plays|'s|is)\b", line), line
                assert "1722" not in line, line
            assert any("in 1.7 s" in line for line in text)


def test_a_fluxx_seat_text_replay_hides_the_others_choices() -> None:
    final = kit.random_match(FLUXX, FLUXX.make_config(3), 4)
    record = json.loads(json.dumps(FLUXX.record_json(final)))
    mine = list(FLUXX.replay_text(record, [], ["a", "b", "c"], 1))
    everything = list(FLUXX.replay_text(record, [], ["a", "b", "c"], None))
    decisions = [line for line in mine if line.startswith("#")]
    assert decisions
    assert len(decisions) == sum(line.startswith("#") for line in everything)
    for line in decisions:
        actor = line.split()[1]
        if actor == "b":
            assert "chose “" in line
            assert "(hand: " in line
        else:  # another seat's choice (a card given under Taxation! is private)
            assert "not seen from this seat" in line
            assert "(hand: " not in line


def test_every_fluxx_card_has_its_text_from_the_card_data() -> None:
    assert len(TEXT) == NUM_CARDS
    assert all(TEXT)
    for goal, (first, second) in PAIR_GOALS.items():
        assert NAMES[first] in TEXT[goal]
        assert NAMES[second] in TEXT[goal]
    assert TEXT[54] == "Draw 2 cards a turn (instead of 1)."  # from the Draw slot's number
    for card in range(NUM_CARDS):
        if TYPE_OF[card] is CardType.CREEPER:
            assert "stops you winning" in TEXT[card]


def test_fluxx_choices_name_seats_by_number_and_name() -> None:
    war = give_war(2)
    assert choice_label(war, ["you", "r", "greedy"]) == "Give War to seat 2 (greedy)"
    assert choice_label(war) == "Give War to seat 2"
    pick = seat(1)
    assert choice_label(pick, ["you", "r"]) == "Choose seat 1 (r)"
    assert fx_text.end_words("goal") == "a Goal is met"


def test_a_fluxx_seat_dealing_itself_its_share_keeps_it() -> None:
    # Everybody Gets 1: the active seat deals the pool starting with its own share, an
    # "allot" and then a "give" from the seat to itself ("b hands The Sun to b" before).
    names = ["a", "b", "you"]
    sun = NAMES.index("The Sun")
    own = {"type": "allot", "seat": 1, "recipient": 1, "card": sun}
    assert fx_text.describe_event(own, names) == "b keeps The Sun as b's own share"
    assert fx_text.describe_event({**own, "seat": 2, "recipient": 2}, names) == (
        "you keep The Sun as your own share"
    )
    hidden = {"type": "allot", "seat": 1, "recipient": 1}  # as another seat sees it
    assert fx_text.describe_event(hidden, names) == "b keeps a hidden card as b's own share"
    other = {"type": "allot", "seat": 1, "recipient": 2, "card": sun}
    assert fx_text.describe_event(other, names) == "b hands The Sun to you"
    given = {"type": "give", "from_seat": 1, "to_seat": 1, "cards": [sun],
             "reason": "everybody_gets_1"}  # fmt: skip
    assert fx_text.describe_event(given, names) == (
        "b takes The Sun into b's hand (Everybody Gets 1)"
    )
    assert fx_text.describe_event({**given, "to_seat": 0}, names) == (
        "b gives The Sun to a (Everybody Gets 1)"
    )


def test_no_fluxx_replay_has_a_seat_handing_a_card_to_itself() -> None:
    game = FLUXX
    config = game.make_config(3)
    names = ["a", "b", "c"]
    for seed in range(40):
        state = game.new_match(config, random.Random(seed))
        rng = random.Random(seed)
        while (seat := game.deciding(state)) is not None:
            game.apply_legal(state, rng.choice(list(game.observe(state, seat).legal)))
        text = "\n".join(
            fx_text.describe_event(v, names) for v in fx_events.views(state.events, None)
        )
        assert not re.search(r"\b(\w) (hands|gives) .* to \1\b", text), seed
