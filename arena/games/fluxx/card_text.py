"""What each Fluxx card says, for people: a Goal's requirement, a New Rule's and an
Action's effect, what a Creeper does (FLUXX.md §11, which stays authoritative; these are
its words for a player, as the engine plays them).

A pair Goal's requirement is made from ``PAIR_GOALS`` and the slot rules' numbers from
their slots, so the engine's data is the one source of those; the other texts are
written here once. The board shows them on each card (``board.py``).
"""

from __future__ import annotations

from typing import Final

from .cards import (
    DRAW_RULES,
    HAND_LIMIT_RULES,
    KEEPER_LIMIT_RULES,
    KEYS,
    NAMES,
    NUM_CARDS,
    PAIR_GOALS,
    PARTY_FOOD,
    PLAY_ALL,
    PLAY_RULES,
    TYPE_OF,
    CardType,
)

TYPE_WORDS: Final = {
    CardType.BASIC: "Basic Rules",
    CardType.META: "Meta Rule",
    CardType.KEEPER: "Keeper",
    CardType.CREEPER: "Creeper",
    CardType.GOAL: "Goal",
    CardType.RULE: "New Rule",
    CardType.ACTION: "Action",
}
"""Each card type's name: the board's key to the colours."""

TYPE_MEANING: Final = {
    CardType.BASIC: "Draw 1, play 1, until New Rules change it",
    CardType.META: "a variant in force all game",
    CardType.KEEPER: "goes on its player's table; Goals ask for Keepers",
    CardType.CREEPER: "played at once when drawn; stops its holder winning",
    CardType.GOAL: "the way to win, until another Goal replaces it",
    CardType.RULE: "changes the rules while it is in play",
    CardType.ACTION: "does what it says once, then is discarded",
}
"""What each type of card is for, in one line (the key to the colours)."""

_GOALS: Final = {
    "ten_cards_in_hand": "Win with 10 or more cards in your hand, more than anyone else.",
    "five_keepers": "Win with 5 or more Keepers on your table, more than anyone else.",
    "all_you_need_is_love": "Win with Love and no other Keeper on your table.",
    "brain_no_tv": "Win with The Brain on your table, if Television is on no table.",
    "party_snacks": "Win with The Party and at least one of"
    f" {', '.join(NAMES[c] for c in PARTY_FOOD[:-1])} or {NAMES[PARTY_FOOD[-1]]}.",
    "peace_no_war": "Win with Peace on your table, if War is on no table.",
}

_CREEPERS: Final = {
    "war": "While you also have Peace, you must give War to another player.",
    "taxes": "If you also have Money, discard both Taxes and Money.",
    "death": "At the start of your turn, discard another Keeper or Creeper of yours;"
    " if Death is all you have in play, you may discard it.",
    "radioactive_potato": "Whenever the Goal changes, it moves to the previous player's table.",
}

_RULES: Final = {
    "double_agenda": "Two Goals can be in play at once; meet either to win.",
    "first_play_random": "The first card you play each turn is picked at random from your hand"
    " (when you may play 2 or more).",
    "no_hand_bonus": "If your hand is empty at the start of your turn, draw 3 first.",
    "poor_bonus": "If you have fewer Keepers than everyone else, draw 1 more.",
    "rich_bonus": "If you have more Keepers than everyone else, play 1 more.",
    "inflation": "Every number on the other cards is 1 higher (X = X + 1).",
    "party_bonus": "While The Party is on any table, draw 1 more and play 1 more.",
    "get_on_with_it": "Instead of playing, you may discard your whole hand and draw 3;"
    " your turn then ends.",
    "silver_lining": "Creepers stop nobody from winning; Taxes with Money is optional.",
    "baked_potato": "While the Radioactive Potato is on a table, only its holder can win,"
    " and the Potato does not stop them.",
    "play_all": "Play every card in your hand each turn.",
}

_ACTIONS: Final = {
    "jackpot": "Draw 3 cards.",
    "discard_and_draw": "Discard your hand, then draw as many cards as you discarded.",
    "draw_2_and_use_em": "Draw 2 cards aside and play them both.",
    "draw_3_play_2": "Draw 3 cards aside, play 2 of them and discard the other.",
    "everybody_gets_1": "Draw 1 card for each player and hand one to each, yourself included.",
    "exchange_keepers": "Swap one of your Keepers for another player's.",
    "lets_do_that_again": "Play an Action or New Rule again from the discard pile.",
    "lets_simplify": "Discard up to half of the New Rules in play.",
    "no_limits": "Discard every Hand Limit and Keeper Limit.",
    "rotate_hands": "Everyone passes their hand to the left or right, as you choose.",
    "rules_reset": "Discard every New Rule: the Basic Rules are back.",
    "take_another_turn": "Take one more turn after this one.",
    "trade_hands": "Trade hands with another player.",
    "trash_a_new_rule": "Discard a New Rule in play.",
    "use_what_you_take": "Take a random card from another player's hand and play it.",
    "todays_special": "Draw 3 cards aside, play 1 of them and discard the rest.",
    "taxation": "Every other player gives you a card of their choice from their hand.",
    "mix_it_all_up": "Shuffle every Keeper and Creeper in play and deal them out again,"
    " starting with you.",
    "trash_something": "Discard a Keeper or Creeper from any table.",
    "steal_something": "Take a Keeper or Creeper from another player's table.",
    "creeper_sweeper": "Discard every Creeper in play.",
    "its_trash_day": "Everyone discards any of their hand cards, Keepers and Creepers;"
    " then the discard pile is shuffled into the draw pile.",
}


def _slot_rule(card: int) -> str | None:
    """The text of a Draw, Play or limit rule, from its slot's numbers (cards.py)."""
    if card in DRAW_RULES:
        return f"Draw {card - 52} cards a turn (instead of 1)."
    if card in PLAY_RULES and card != PLAY_ALL:
        return f"Play {card - 56} cards a turn (instead of 1)."
    if card in HAND_LIMIT_RULES:
        return f"At the end of your turn, discard down to {card - 62} cards in hand."
    if card in KEEPER_LIMIT_RULES:
        return f"At the end of your turn, discard Keepers down to {card - 63} on your table."
    return None


def _text(card: int) -> str:
    key, kind = KEYS[card], TYPE_OF[card]
    if kind is CardType.BASIC:
        return "Draw 1 card and play 1 card a turn; New Rules change these numbers."
    if kind is CardType.META:
        return "A variant chosen for the whole match (No Creepers or Rules Escalation)."
    if kind is CardType.KEEPER:
        return "Put it on your table. Goals ask for Keepers."
    if kind is CardType.CREEPER:
        return (
            "Goes on your table as soon as you draw it, and you draw again; it stops you"
            f" winning unless a Goal names it. {_CREEPERS[key]}"
        )
    if kind is CardType.GOAL:
        if card in PAIR_GOALS:
            first, second = PAIR_GOALS[card]
            return f"Win with {NAMES[first]} and {NAMES[second]} on your table."
        return _GOALS[key]
    if kind is CardType.RULE:
        return _slot_rule(card) or _RULES[key]
    return _ACTIONS[key]


TEXT: Final[tuple[str, ...]] = tuple(_text(card) for card in range(NUM_CARDS))
"""``TEXT[card]``: what the card says, for a player."""
