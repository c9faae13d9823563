"""The rules: dealing, the canonical legal action sets, and ``apply`` (RULES.md §3–§9).

``apply`` checks an action and then ``_apply`` plays it and every automatic step that
follows (abluxx checks, refills, the next deal) until the next decision or the end.
Nothing here does I/O or reads a clock; the only randomness is the injected RNG that
``new_game`` uses to shuffle.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from .actions import (
    ACTIONS,
    DECK,
    DECK_CODE,
    DISCARD,
    DISCARD_CODE,
    JOKER_SETS,
    LEAVE,
    LEAVE_CODE,
    PASS,
    PASS_CODE,
    PLAY_BASE,
    PLAY_SETS,
    POOL_ACTIONS,
    POOL_BASE,
    SHADOW_BASE,
    TAKE,
    TAKE_BACK,
    TAKE_BACK_CODE,
    TAKE_CODE,
    Action,
    ActionKind,
    DecisionKind,
    IllegalActionError,
    MalformedActionError,
)
from .cards import (
    DUEL_HAND_SIZE,
    DUEL_JOKERS_EACH,
    FIRST_JOKER,
    HAND_SIZE,
    JOKER,
    MAX_NUMBER_VALUE,
    NUM_CARDS,
    POOL_SIZE,
    SHADOW_SIZE,
    VALUE_OF,
    CardId,
)
from .options import GameConfig
from .result import rank
from .state import CardSet, DealResult, MatchResult, State

_EMPTY_HAND_ROW = JOKER + 1


# --------------------------------------------------------------------------- setup


def shuffle_decks(config: GameConfig, rng: random.Random) -> list[list[CardId]]:
    """Every shuffle a match needs, drawn from ``rng`` (the only randomness in a match).

    Each list is a deck as dealt from, first card first. In the duel the four jokers
    set aside (§9.1) are not shuffled.
    """
    decks = []
    for _ in range(config.shuffles):
        deck = shuffled_cards(config)
        rng.shuffle(deck)
        decks.append(deck)
    return decks


def new_game(config: GameConfig, rng: random.Random) -> State:
    """A new match, shuffled with ``rng``, its first decision pending."""
    return new_game_from_decks(config, shuffle_decks(config, rng))


def new_game_from_decks(config: GameConfig, decks: Sequence[Sequence[CardId]]) -> State:
    """A new match dealt from given shuffles (as recorded): replays need no RNG."""
    if len(decks) != config.shuffles:
        raise ValueError(f"this match needs {config.shuffles} shuffled deck(s), got {len(decks)}")
    cards = shuffled_cards(config)
    for deck in decks:
        if sorted(deck) != cards:
            raise ValueError("a recorded deck is not a permutation of the match's cards")
    state = State.__new__(State)
    state.config = config
    state.decks = [list(d) for d in decks]
    state.deal = 0
    state.match_scores = [0] * config.players
    state.match_hands = [0] * config.players
    state.deal_results = []
    state.result = None
    state.history = []
    state.events = []
    _start_deal(state)
    return state


def shuffled_cards(config: GameConfig) -> list[CardId]:
    """The cards a match shuffles, in id order: all 109, or in the duel all but the four
    jokers set aside."""
    if config.duel:
        return [c for c in range(NUM_CARDS) if c < FIRST_JOKER or c >= FIRST_JOKER + 4]
    return list(range(NUM_CARDS))


def _start_deal(state: State) -> None:
    config = state.config
    n = config.players
    start = state.deal % n
    order = state.decks[config.shuffle_of_deal(state.deal)]
    state.start_seat = start
    state.hands = [[[] for _ in range(_EMPTY_HAND_ROW)] for _ in range(n)]
    state.hand_sizes = [0] * n
    state.known = [[0] * _EMPTY_HAND_ROW for _ in range(n)]
    state.displays = [[] for _ in range(n)]
    state.pool = []
    state.discard = []
    state.shadow = [[] for _ in range(_EMPTY_HAND_ROW)]
    state.turn = 0
    state.active = start
    state.played = None
    state.checks = []
    state.victim = -1
    state.drawer = -1
    state.draws_left = 0
    state.abluxxed = False
    events = state.events
    events.append(("deal_start", state.deal, start))
    position = 0
    duel = config.duel
    hand_size = DUEL_HAND_SIZE if duel else HAND_SIZE
    for p in range(n):
        seat = (start + p) % n
        dealt = list(order[position : position + hand_size])
        position += hand_size
        if duel:
            # §9.1: the start player gets jokers 104, 105; the other 106, 107 (public).
            jokers = [FIRST_JOKER + DUEL_JOKERS_EACH * p + k for k in range(DUEL_JOKERS_EACH)]
            state.known[seat][JOKER] = DUEL_JOKERS_EACH
            events.append(("jokers", seat, tuple(jokers)))
            dealt += jokers
        hand = state.hands[seat]
        for card in dealt:
            hand[VALUE_OF[card]].append(card)
        state.hand_sizes[seat] = len(dealt)
        events.append(("dealt", seat, tuple(sorted(dealt))))
    # The rest of the shuffle is the deck; our deck list keeps its top at the end.
    rest = list(order[position:])
    rest.reverse()
    state.deck = rest
    pool_cards = [rest.pop() for _ in range(POOL_SIZE)]
    state.pool = [[c] for c in pool_cards]
    events.append(("refill", tuple(pool_cards)))
    if duel:
        _refill_shadow(state)
    _set_decision(state, DecisionKind.PLAY, start)


def _set_decision(state: State, kind: DecisionKind, seat: int) -> None:
    state.kind = kind
    state.deciding = seat


# ---------------------------------------------------------------- legal actions


def legal_actions(state: State, seat: int | None = None) -> list[Action]:
    """The canonical legal set of the pending decision (RULES.md §11), sorted by code.

    With ``seat`` given, a seat that is not deciding gets an empty list.
    """
    kind = state.kind
    if kind is None or (seat is not None and seat != state.deciding):
        return []
    if kind is DecisionKind.PLAY:
        hand = state.hands[state.deciding]
        jokers = len(hand[JOKER])
        out: list[Action] = []
        for value in range(1, MAX_NUMBER_VALUE + 1):
            have = len(hand[value])
            if have:
                out += PLAY_SETS[value][have][jokers]
        out += JOKER_SETS[jokers]
        return out
    if kind is DecisionKind.DRAW or kind is DecisionKind.OPTIONAL_DRAW:
        out = list(POOL_ACTIONS[: len(state.pool)])
        if state.deck:
            out.append(DECK)
        if kind is DecisionKind.OPTIONAL_DRAW:
            out.append(PASS)
        return out
    if kind is DecisionKind.ATTACKER_TAKE:
        return [TAKE, LEAVE]
    if kind is DecisionKind.VICTIM_CHOICE:
        return [TAKE_BACK, DISCARD]
    return [ACTIONS[SHADOW_BASE + v] for v in shadow_candidates(state)]


def shadow_candidates(state: State) -> list[int]:
    """Values of the shadow stacks the set played this turn may shadowluxx (§9.4)."""
    played = state.played
    if played is None:
        return []
    value, cards = played
    count = len(cards)
    whole = state.config.options.shadow_take == "whole_stack"
    out = []
    for stack_value in range(1, value):
        size = len(state.shadow[stack_value])
        if size == count if whole else size >= count:
            out.append(stack_value)
    return out


def abluxxes(options_expert: bool, played_value: int, played_count: int, top: CardSet) -> bool:
    """§5.2: does a set of this value and count abluxx ``top``?"""
    top_value, top_cards = top
    if len(top_cards) != played_count:
        return False
    if top_value < played_value:
        return True
    return options_expert and played_value == 1 and top_value >= MAX_NUMBER_VALUE


# ------------------------------------------------------------------------ apply


def apply(state: State, action: Action | object, seat: int | None = None) -> None:
    """Play ``action`` for the deciding seat (or for ``seat``, which must be deciding).

    ``action`` may be anything (it often comes from a bot): this checks it. Raises
    MalformedActionError for something that is not an action and
    IllegalActionError, naming the legal set, for an action the rules forbid now.
    """
    if not isinstance(action, Action):
        raise MalformedActionError(f"{action!r} is not an Action")
    canonical = ACTIONS.get(action.code)
    if canonical is not action and (
        canonical is None
        or (canonical.kind, canonical.value, canonical.naturals, canonical.jokers, canonical.slot)
        != (action.kind, action.value, action.naturals, action.jokers, action.slot)
    ):  # Actions compare by code only: a forged one must not pass as its code's action.
        raise MalformedActionError(f"{action!r} does not match the action with its code")
    kind = state.kind
    if kind is None:
        raise IllegalActionError("the match is over; no action is legal")
    if seat is not None and seat != state.deciding:
        raise IllegalActionError(
            f"seat {seat} cannot act: seat {state.deciding} decides {kind.name}"
        )
    if not _is_legal(state, kind, action):
        legal = ", ".join(str(a) for a in legal_actions(state))
        raise IllegalActionError(
            f"{action} is not legal for seat {state.deciding} at {kind.name}; legal: {legal}"
        )
    _apply(state, kind, action)


def _is_legal(state: State, kind: DecisionKind, action: Action) -> bool:
    akind = action.kind
    if kind is DecisionKind.PLAY:
        if akind is not ActionKind.PLAY:
            return False
        hand = state.hands[state.deciding]
        if action.jokers > len(hand[JOKER]):
            return False
        return action.value == JOKER or action.naturals <= len(hand[action.value])
    if kind is DecisionKind.DRAW or kind is DecisionKind.OPTIONAL_DRAW:
        if akind is ActionKind.POOL:
            return action.slot < len(state.pool)
        if akind is ActionKind.DECK:
            return bool(state.deck)
        return akind is ActionKind.PASS and kind is DecisionKind.OPTIONAL_DRAW
    if kind is DecisionKind.ATTACKER_TAKE:
        return akind is ActionKind.TAKE or akind is ActionKind.LEAVE
    if kind is DecisionKind.VICTIM_CHOICE:
        return akind is ActionKind.TAKE_BACK or akind is ActionKind.DISCARD
    return akind is ActionKind.SHADOW_PICK and action.value in shadow_candidates(state)


def apply_unchecked(state: State, action: Action) -> None:
    """Apply an action already known to be legal (taken from ``legal_actions``).

    For playouts in search bots and benchmarks; skips the legality check only.
    """
    kind = state.kind
    assert kind is not None
    _apply(state, kind, action)


def _apply(state: State, kind: DecisionKind, action: Action) -> None:
    seat = state.deciding
    code = action.code
    state.history.append((seat, code))
    if code >= PLAY_BASE:
        _play(state, seat, action.value, action.naturals, action.jokers)
    elif kind is DecisionKind.DRAW:
        _draw(state, seat, code)
        if _supply_empty(state):
            _end_deal(state, "supply_exhausted")
            return
        state.draws_left -= 1
        if state.draws_left:
            return
        state.drawer = -1
        _refill_pool(state)
        _next_check(state)
    elif code == TAKE_CODE:
        victim = state.victim
        _, cards = state.displays[victim].pop()
        _to_hand(state, seat, cards)
        state.events.append(("take", seat, victim, cards))
        _owe_draws(state, victim, len(cards))
    elif code == LEAVE_CODE:
        state.events.append(("leave", seat, state.victim))
        _set_decision(state, DecisionKind.VICTIM_CHOICE, state.victim)
    elif code == TAKE_BACK_CODE:
        _, cards = state.displays[seat].pop()
        _to_hand(state, seat, cards)
        state.events.append(("take_back", seat, cards))
        _next_check(state)
    elif code == DISCARD_CODE:
        _, cards = state.displays[seat].pop()
        state.discard.extend(cards)
        state.events.append(("discard", seat, cards))
        _owe_draws(state, seat, len(cards))
    elif kind is DecisionKind.OPTIONAL_DRAW:
        if code == PASS_CODE:
            state.events.append(("pass", seat))
        else:
            _draw(state, seat, code)
            if _supply_empty(state):
                _end_deal(state, "supply_exhausted")
                return
            _refill_pool(state)
        _end_turn(state)
    elif not _shadowluxx(state, code - SHADOW_BASE):  # SHADOW_PICK
        _next_check(state)


def _to_hand(state: State, seat: int, cards: tuple[CardId, ...] | list[CardId]) -> None:
    """Cards enter a hand in public view: they become known cards of that hand."""
    hand = state.hands[seat]
    known = state.known[seat]
    for card in cards:
        value = VALUE_OF[card]
        hand[value].append(card)
        known[value] += 1
    state.hand_sizes[seat] += len(cards)


def _play(state: State, seat: int, value: int, naturals: int, jokers: int) -> None:
    hand = state.hands[seat]
    known = state.known[seat]
    cards: list[CardId] = []
    if naturals:
        row = hand[value]
        cards += row[-naturals:]
        del row[-naturals:]
        left = known[value] - naturals
        known[value] = left if left > 0 else 0
    if jokers:
        row = hand[JOKER]
        cards += row[-jokers:]
        del row[-jokers:]
        left = known[JOKER] - jokers
        known[JOKER] = left if left > 0 else 0
    played: CardSet = (value, tuple(cards))
    state.displays[seat].append(played)
    state.hand_sizes[seat] -= naturals + jokers
    state.turn += 1
    state.events.append(("play", seat, value, played[1]))
    if not state.hand_sizes[seat]:
        _end_deal(state, "hand_empty")
        return
    state.played = played
    state.abluxxed = False
    n = state.config.players
    checks = [(seat + k) % n for k in range(n - 1, 0, -1)]  # popped from the end
    state.checks = checks
    if state.config.duel:
        candidates = shadow_candidates(state)
        if len(candidates) == 1:
            if _shadowluxx(state, candidates[0]):
                return
        elif candidates:
            _set_decision(state, DecisionKind.SHADOW_PICK, seat)
            return
    _next_check(state)


def _shadowluxx(state: State, value: int) -> bool:
    """§9.4: the active player takes a shadow combination; the shadow is refilled.

    Returns True if that exhausted the supply and so ended the deal."""
    played = state.played
    assert played is not None
    seat = state.active
    stack = state.shadow[value]
    if state.config.options.shadow_take == "whole_stack":
        cards = tuple(stack)
        stack.clear()
    else:
        count = len(played[1])
        cards = tuple(stack[-count:])
        del stack[-count:]
    _to_hand(state, seat, cards)
    state.abluxxed = True
    state.events.append(("shadowluxx", seat, value, cards))
    _refill_shadow(state)
    if _supply_empty(state):
        _end_deal(state, "supply_exhausted")
        return True
    return False


def _next_check(state: State) -> None:
    """Compare the played set with the next victims until one is abluxxed (§5.1–5.2)."""
    played = state.played
    assert played is not None
    value, cards = played
    count = len(cards)
    expert = state.config.options.expert_ones
    checks = state.checks
    displays = state.displays
    while checks:
        victim = checks.pop()
        display = displays[victim]
        if display and abluxxes(expert, value, count, display[-1]):
            state.abluxxed = True
            state.victim = victim
            state.events.append(("abluxx", state.active, victim, display[-1][1]))
            _set_decision(state, DecisionKind.ATTACKER_TAKE, state.active)
            return
    state.victim = -1
    if not state.abluxxed and state.config.options.optional_draw:
        _set_decision(state, DecisionKind.OPTIONAL_DRAW, state.active)
        return
    _end_turn(state)


def _owe_draws(state: State, seat: int, count: int) -> None:
    state.drawer = seat
    state.draws_left = count
    _set_decision(state, DecisionKind.DRAW, seat)


def _draw(state: State, seat: int, code: int) -> None:
    if code == DECK_CODE:
        card = state.deck.pop()
        hand = state.hands[seat]
        hand[VALUE_OF[card]].append(card)
        state.hand_sizes[seat] += 1
        state.events.append(("draw", seat, -1, (card,)))
    else:
        slot = code - POOL_BASE
        cards = state.pool.pop(slot)
        _to_hand(state, seat, cards)
        state.events.append(("draw", seat, slot, tuple(cards)))


def _supply_empty(state: State) -> bool:
    return not state.deck and not state.pool


def _refill_pool(state: State) -> None:
    """§5.3.5: refill the pool to six slots at the right end, while the deck lasts."""
    pool = state.pool
    deck = state.deck
    if len(pool) >= POOL_SIZE or not deck:
        return
    added = []
    while len(pool) < POOL_SIZE and deck:
        card = deck.pop()
        pool.append([card])
        added.append(card)
    state.events.append(("refill", tuple(added)))


def _refill_shadow(state: State) -> None:
    """§9.1/§9.4: reveal cards into the shadow display until it holds 13, diverting 13s
    and jokers onto the lowest single pool card."""
    shadow = state.shadow
    deck = state.deck
    held = sum(len(stack) for stack in shadow)
    while held < SHADOW_SIZE and deck:
        card = deck.pop()
        value = VALUE_OF[card]
        if value >= MAX_NUMBER_VALUE:
            slot = _divert_slot(state.pool)
            if slot == len(state.pool):
                state.pool.append([card])
            else:
                state.pool[slot].append(card)
            state.events.append(("divert", card, slot))
        else:
            shadow[value].append(card)
            held += 1
            state.events.append(("shadow_reveal", card))


def _divert_slot(pool: list[list[CardId]]) -> int:
    """§9.2 [decided]: the lowest single card (joker = 14), leftmost on ties; else the
    slot with the fewest cards, leftmost; with no slot at all, a new slot."""
    best = -1
    best_value = JOKER + 1
    for i, slot in enumerate(pool):
        if len(slot) == 1 and VALUE_OF[slot[0]] < best_value:
            best, best_value = i, VALUE_OF[slot[0]]
    if best >= 0:
        return best
    if not pool:
        return 0
    sizes = [len(slot) for slot in pool]
    return sizes.index(min(sizes))


def _end_turn(state: State) -> None:
    state.played = None
    if state.turn >= state.config.options.max_turns:
        _end_deal(state, "turn_cap")
        return
    state.active = (state.active + 1) % state.config.players
    _set_decision(state, DecisionKind.PLAY, state.active)


def _end_deal(state: State, reason: str) -> None:
    config = state.config
    scores = tuple(state.deal_scores())
    hands = tuple(state.hand_sizes)
    ranks = rank(scores, hands, config.options.tiebreak)
    result = DealResult(reason, scores, hands, ranks, state.turn)
    state.deal_results.append(result)
    for seat in range(config.players):
        state.match_scores[seat] += scores[seat]
        state.match_hands[seat] += hands[seat]
    state.events.append(("deal_end", state.deal, reason, scores, hands))
    state.checks = []
    state.victim = -1
    state.drawer = -1
    state.draws_left = 0
    state.played = None
    if state.deal + 1 < config.deals:
        state.deal += 1
        _start_deal(state)
        return
    totals = tuple(state.match_scores)
    hand_totals = tuple(state.match_hands)
    state.result = MatchResult(
        totals,
        hand_totals,
        rank(totals, hand_totals, config.options.tiebreak),
        tuple(state.deal_results),
    )
    state.events.append(("match_end", totals))
    state.kind = None
    state.deciding = -1
