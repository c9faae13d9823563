"""The cards of Fluxx 4.0 (FLUXX.md §1, §11): stable ids, keys, names and types.

Ids 0..99 are stable and part of the public contract: 0 Basic Rules, 1 Meta Rule,
2–20 Keepers, 21–24 Creepers, 25–53 Goals, 54–77 New Rules, 78–99 Actions. The ten
blank cards get no id [D1].
"""

from __future__ import annotations

import enum
from typing import Final

CardId = int
"""A card, 0..99."""
Seat = int
"""A seat, 0..n−1."""

NUM_CARDS: Final = 100


class CardType(enum.IntEnum):
    """What sort of card a card is."""

    BASIC = 0
    META = 1
    KEEPER = 2
    CREEPER = 3
    GOAL = 4
    RULE = 5
    ACTION = 6


_TABLE: Final[tuple[tuple[str, str, str], ...]] = (
    # (key, English name, German name where the seed prints it)
    ("basic_rules", "Basic Rules", "Grundregeln"),
    ("meta_rule", "Meta Rule", ""),
    # Keepers 2..20
    ("brain", "The Brain", "Gehirn"),
    ("bread", "Bread", ""),
    ("chocolate", "Chocolate", "Schokolade"),
    ("cookies", "Cookies", ""),
    ("cosmos", "The Cosmos", "Kosmos"),
    ("dreams", "Dreams", ""),
    ("eye", "The Eye", "Auge"),
    ("love", "Love", ""),
    ("milk", "Milk", ""),
    ("money", "Money", ""),
    ("moon", "The Moon", ""),
    ("party", "The Party", ""),
    ("peace", "Peace", ""),
    ("rocket", "The Rocket", ""),
    ("sleep", "Sleep", ""),
    ("sun", "The Sun", "Sonne"),
    ("television", "Television", ""),
    ("time", "Time", ""),
    ("toaster", "The Toaster", ""),
    # Creepers 21..24
    ("war", "War", ""),
    ("taxes", "Taxes", ""),
    ("death", "Death", ""),
    ("radioactive_potato", "Radioactive Potato", ""),
    # Goals 25..53
    ("ten_cards_in_hand", "10 Cards in Hand", ""),
    ("five_keepers", "5 Keepers", "5 Sammler"),
    ("all_you_need_is_love", "All You Need Is Love", ""),
    ("the_appliances", "The Appliances", ""),
    ("baked_goods", "Baked Goods", ""),
    ("bed_time", "Bed Time", ""),
    ("brain_no_tv", "The Brain (No TV)", ""),
    ("chocolate_cookies", "Chocolate Cookies", ""),
    ("chocolate_milk", "Chocolate Milk", ""),
    ("dreamland", "Dreamland", ""),
    ("hearts_and_minds", "Hearts and Minds", ""),
    ("hippyism", "Hippyism", ""),
    ("milk_and_cookies", "Milk and Cookies", ""),
    ("night_and_day", "Night and Day", ""),
    ("rocket_science", "Rocket Science", ""),
    ("rocket_to_the_moon", "Rocket to the Moon", ""),
    ("squishy_chocolate", "Squishy Chocolate", ""),
    ("time_is_money", "Time Is Money", ""),
    ("toast", "Toast", ""),
    ("winning_the_lottery", "Winning the Lottery", ""),
    ("the_minds_eye", "The Mind's Eye", ""),
    ("party_snacks", "Party Snacks", ""),
    ("dough", "Dough", ""),
    ("interstellar_spacecraft", "Interstellar Spacecraft", ""),
    ("star_gazing", "Star Gazing", "Auge und Kosmos"),
    ("peace_no_war", "Peace (No War)", ""),
    ("death_by_chocolate", "Death by Chocolate", ""),
    ("war_is_death", "War = Death", ""),
    ("all_that_is_certain", "All That Is Certain", ""),
    # New Rules 54..77
    ("draw_2", "Draw 2", "Ziehe 2"),
    ("draw_3", "Draw 3", ""),
    ("draw_4", "Draw 4", "Ziehe 4"),
    ("draw_5", "Draw 5", ""),
    ("play_2", "Play 2", ""),
    ("play_3", "Play 3", ""),
    ("play_4", "Play 4", ""),
    ("play_all", "Play All", ""),
    ("hand_limit_0", "Hand Limit 0", ""),
    ("hand_limit_1", "Hand Limit 1", ""),
    ("hand_limit_2", "Hand Limit 2", ""),
    ("keeper_limit_2", "Keeper Limit 2", ""),
    ("keeper_limit_3", "Keeper Limit 3", ""),
    ("keeper_limit_4", "Keeper Limit 4", ""),
    ("double_agenda", "Double Agenda", ""),
    ("first_play_random", "First Play Random", ""),
    ("no_hand_bonus", "No-Hand Bonus", ""),
    ("poor_bonus", "Poor Bonus", ""),
    ("rich_bonus", "Rich Bonus", ""),
    ("inflation", "Inflation (X=X+1)", ""),
    ("party_bonus", "Party Bonus", ""),
    ("get_on_with_it", "Get On With It!", ""),
    ("silver_lining", "Silver Lining", ""),
    ("baked_potato", "You Also Need a Baked Potato", ""),
    # Actions 78..99
    ("jackpot", "Jackpot!", ""),
    ("discard_and_draw", "Discard & Draw", ""),
    ("draw_2_and_use_em", "Draw 2 and Use 'Em", "Ziehe 2 und spiele sie"),
    ("draw_3_play_2", "Draw 3, Play 2 of Them", "Ziehe 3 und spiele 2"),
    ("everybody_gets_1", "Everybody Gets 1", ""),
    ("exchange_keepers", "Exchange Keepers", ""),
    ("lets_do_that_again", "Let's Do That Again!", ""),
    ("lets_simplify", "Let's Simplify", ""),
    ("no_limits", "No Limits", ""),
    ("rotate_hands", "Rotate Hands", ""),
    ("rules_reset", "Rules Reset", ""),
    ("take_another_turn", "Take Another Turn", ""),
    ("trade_hands", "Trade Hands", ""),
    ("trash_a_new_rule", "Trash a New Rule", ""),
    ("use_what_you_take", "Use What You Take", ""),
    ("todays_special", "Today's Special!", ""),
    ("taxation", "Taxation!", ""),
    ("mix_it_all_up", "Mix It All Up", ""),
    ("trash_something", "Trash Something", ""),
    ("steal_something", "Steal Something", ""),
    ("creeper_sweeper", "Creeper Sweeper", ""),
    ("its_trash_day", "It's Trash Day!", ""),
)

KEYS: Final[tuple[str, ...]] = tuple(key for key, _, _ in _TABLE)
"""``KEYS[card]``: the card's stable key (§11)."""
NAMES: Final[tuple[str, ...]] = tuple(name for _, name, _ in _TABLE)
"""``NAMES[card]``: the canonical English name."""
GERMAN: Final[tuple[str, ...]] = tuple(de for _, _, de in _TABLE)
"""``GERMAN[card]``: the German name if the seed prints it, else "" [D2]."""
BY_KEY: Final[dict[str, CardId]] = {key: card for card, key in enumerate(KEYS)}
"""Card id by key."""

FIRST_KEEPER: Final = 2
FIRST_CREEPER: Final = 21
FIRST_GOAL: Final = 25
FIRST_RULE: Final = 54
FIRST_ACTION: Final = 78


def _type_of(card: CardId) -> CardType:
    if card == 0:
        return CardType.BASIC
    if card == 1:
        return CardType.META
    if card < FIRST_CREEPER:
        return CardType.KEEPER
    if card < FIRST_GOAL:
        return CardType.CREEPER
    if card < FIRST_RULE:
        return CardType.GOAL
    if card < FIRST_ACTION:
        return CardType.RULE
    return CardType.ACTION


TYPE_OF: Final[tuple[CardType, ...]] = tuple(_type_of(c) for c in range(NUM_CARDS))
"""``TYPE_OF[card]``: the card's type."""
KEEPERS: Final = range(FIRST_KEEPER, FIRST_CREEPER)
CREEPERS: Final = range(FIRST_CREEPER, FIRST_GOAL)
GOALS: Final = range(FIRST_GOAL, FIRST_RULE)
RULES: Final = range(FIRST_RULE, FIRST_ACTION)
ACTIONS_CARDS: Final = range(FIRST_ACTION, NUM_CARDS)
DECK_CARDS: Final = range(FIRST_KEEPER, NUM_CARDS)
"""The 98 deck cards."""

IS_KEEPER: Final[tuple[bool, ...]] = tuple(TYPE_OF[c] is CardType.KEEPER for c in range(NUM_CARDS))
IS_CREEPER: Final[tuple[bool, ...]] = tuple(
    TYPE_OF[c] is CardType.CREEPER for c in range(NUM_CARDS)
)

BASIC_RULES: Final = 0
# Keepers.
BRAIN: Final = 2
BREAD: Final = 3
CHOCOLATE: Final = 4
COOKIES: Final = 5
COSMOS: Final = 6
DREAMS: Final = 7
EYE: Final = 8
LOVE: Final = 9
MILK: Final = 10
MONEY: Final = 11
MOON: Final = 12
PARTY: Final = 13
PEACE: Final = 14
ROCKET: Final = 15
SLEEP: Final = 16
SUN: Final = 17
TELEVISION: Final = 18
TIME: Final = 19
TOASTER: Final = 20
# Creepers.
WAR: Final = 21
TAXES: Final = 22
DEATH: Final = 23
POTATO: Final = 24
# Goals with special requirements.
TEN_CARDS_IN_HAND: Final = 25
FIVE_KEEPERS: Final = 26
ALL_YOU_NEED_IS_LOVE: Final = 27
BRAIN_NO_TV: Final = 31
PARTY_SNACKS: Final = 46
PEACE_NO_WAR: Final = 50
DEATH_BY_CHOCOLATE: Final = 51
WAR_IS_DEATH: Final = 52
ALL_THAT_IS_CERTAIN: Final = 53
# New Rules.
DRAW_2: Final = 54
DRAW_3: Final = 55
DRAW_4: Final = 56
DRAW_5: Final = 57
PLAY_2: Final = 58
PLAY_3: Final = 59
PLAY_4: Final = 60
PLAY_ALL: Final = 61
HAND_LIMIT_0: Final = 62
HAND_LIMIT_1: Final = 63
HAND_LIMIT_2: Final = 64
KEEPER_LIMIT_2: Final = 65
KEEPER_LIMIT_3: Final = 66
KEEPER_LIMIT_4: Final = 67
DOUBLE_AGENDA: Final = 68
FIRST_PLAY_RANDOM: Final = 69
NO_HAND_BONUS: Final = 70
POOR_BONUS: Final = 71
RICH_BONUS: Final = 72
INFLATION: Final = 73
PARTY_BONUS: Final = 74
GET_ON_WITH_IT: Final = 75
SILVER_LINING: Final = 76
BAKED_POTATO: Final = 77
# Actions.
JACKPOT: Final = 78
DISCARD_AND_DRAW: Final = 79
DRAW_2_AND_USE_EM: Final = 80
DRAW_3_PLAY_2: Final = 81
EVERYBODY_GETS_1: Final = 82
EXCHANGE_KEEPERS: Final = 83
LETS_DO_THAT_AGAIN: Final = 84
LETS_SIMPLIFY: Final = 85
NO_LIMITS: Final = 86
ROTATE_HANDS: Final = 87
RULES_RESET: Final = 88
TAKE_ANOTHER_TURN: Final = 89
TRADE_HANDS: Final = 90
TRASH_A_NEW_RULE: Final = 91
USE_WHAT_YOU_TAKE: Final = 92
TODAYS_SPECIAL: Final = 93
TAXATION: Final = 94
MIX_IT_ALL_UP: Final = 95
TRASH_SOMETHING: Final = 96
STEAL_SOMETHING: Final = 97
CREEPER_SWEEPER: Final = 98
ITS_TRASH_DAY: Final = 99

DRAW_RULES: Final = (DRAW_2, DRAW_3, DRAW_4, DRAW_5)
"""The Draw slot; base N = id − 52."""
PLAY_RULES: Final = (PLAY_2, PLAY_3, PLAY_4, PLAY_ALL)
"""The Play slot (Play All shares it); base N = id − 56 for Play 2/3/4."""
HAND_LIMIT_RULES: Final = (HAND_LIMIT_0, HAND_LIMIT_1, HAND_LIMIT_2)
"""The Hand Limit slot; N = id − 62."""
KEEPER_LIMIT_RULES: Final = (KEEPER_LIMIT_2, KEEPER_LIMIT_3, KEEPER_LIMIT_4)
"""The Keeper Limit slot; N = id − 63."""
LIMIT_RULES: Final = HAND_LIMIT_RULES + KEEPER_LIMIT_RULES
"""Every rule No Limits discards."""


def _slot(card: CardId) -> tuple[CardId, ...]:
    for slot in (DRAW_RULES, PLAY_RULES, HAND_LIMIT_RULES, KEEPER_LIMIT_RULES):
        if card in slot:
            return slot
    return ()


SLOT_OF: Final[tuple[tuple[CardId, ...], ...]] = tuple(_slot(c) for c in range(NUM_CARDS))
"""``SLOT_OF[card]``: the rules sharing the card's slot (itself included), or ()."""

PAIR_GOALS: Final[dict[CardId, tuple[CardId, CardId]]] = {
    28: (TOASTER, TELEVISION),
    29: (BREAD, COOKIES),
    30: (SLEEP, TIME),
    32: (CHOCOLATE, COOKIES),
    33: (CHOCOLATE, MILK),
    34: (SLEEP, DREAMS),
    35: (LOVE, BRAIN),
    36: (PEACE, LOVE),
    37: (MILK, COOKIES),
    38: (SUN, MOON),
    39: (ROCKET, BRAIN),
    40: (ROCKET, MOON),
    41: (CHOCOLATE, SUN),
    42: (TIME, MONEY),
    43: (BREAD, TOASTER),
    44: (DREAMS, MONEY),
    45: (BRAIN, EYE),
    47: (BREAD, MONEY),
    48: (ROCKET, COSMOS),
    49: (EYE, COSMOS),
    DEATH_BY_CHOCOLATE: (DEATH, CHOCOLATE),
    WAR_IS_DEATH: (WAR, DEATH),
    ALL_THAT_IS_CERTAIN: (DEATH, TAXES),
}
"""Goals met by one seat holding both cards (§11.3); Creepers named here do not block."""
PARTY_FOOD: Final = (BREAD, CHOCOLATE, COOKIES)
"""Party Snacks' food [D10]."""

COMPOUND_DRAW: Final[dict[CardId, int]] = {
    DRAW_2_AND_USE_EM: 2,
    DRAW_3_PLAY_2: 3,
    TODAYS_SPECIAL: 3,
}
"""Compound Actions: cards drawn into the temp hand (before Inflation)."""
ALL_OF_THEM: Final = -1
"""``COMPOUND_PLAY`` of a compound Action that plays every card still in its temp hand."""
COMPOUND_PLAY: Final[dict[CardId, int]] = {
    DRAW_2_AND_USE_EM: ALL_OF_THEM,
    DRAW_3_PLAY_2: 2,
    TODAYS_SPECIAL: 1,
}
"""Compound Actions: cards to play from the temp hand (before Inflation), read live [D40]:
Draw 2 and Use 'Em plays all of them, however Inflation changes meanwhile (§11.5, E19)."""


def card_name(card: CardId) -> str:
    """``"Jackpot! (78)"``: a card in words, for messages."""
    return f"{NAMES[card]} ({card})"
