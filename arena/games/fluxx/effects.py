"""Playing a card (FLUXX.md §7) and every Action's effect (§11.5), with the decisions
they ask."""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from . import legal
from .actions import (
    LEFT_CODE,
    STOP_CODE,
    Action,
    ActionKind,
    DecisionKind,
)
from .cards import (
    ALL_OF_THEM,
    COMPOUND_DRAW,
    COMPOUND_PLAY,
    CREEPER_SWEEPER,
    DISCARD_AND_DRAW,
    DOUBLE_AGENDA,
    DRAW_2_AND_USE_EM,
    DRAW_3_PLAY_2,
    EVERYBODY_GETS_1,
    EXCHANGE_KEEPERS,
    FIRST_CREEPER,
    FIRST_GOAL,
    IS_KEEPER,
    ITS_TRASH_DAY,
    JACKPOT,
    LETS_DO_THAT_AGAIN,
    LETS_SIMPLIFY,
    LIMIT_RULES,
    MIX_IT_ALL_UP,
    MONEY,
    NO_LIMITS,
    ROTATE_HANDS,
    RULES_RESET,
    SLOT_OF,
    STEAL_SOMETHING,
    TAKE_ANOTHER_TURN,
    TAXATION,
    TAXES,
    TODAYS_SPECIAL,
    TRADE_HANDS,
    TRASH_A_NEW_RULE,
    TRASH_SOMETHING,
    TYPE_OF,
    USE_WHAT_YOU_TAKE,
    CardId,
    CardType,
)
from .flow import (
    OP_COMPOUND,
    OP_DEAL,
    OP_FINISH,
    OP_RESOLVE,
    OP_SETTLE,
    OP_SIMPLIFY,
    OP_TAXATION,
    OP_TRASH_DAY,
    ask,
    rng,
)
from .moves import (
    discard_cards,
    discard_rules,
    draw_into,
    goal_change,
    lift,
    move_to_table,
    reshuffle,
    to_table,
)
from .numbers import inflation
from .state import (
    Z_GOALS,
    Z_HAND,
    Z_POOL,
    Z_RULES,
    Z_TABLE,
    Z_TEMP,
    Z_TRANSIT,
    Frame,
    State,
)

# ------------------------------------------------------------------ playing a card


def op_resolve(state: State, frame: Frame) -> None:
    """§7: the card in transit takes effect for the active seat."""
    card = frame[1]
    state.stack.pop()
    kind = TYPE_OF[card]
    if kind is CardType.KEEPER:
        to_table(state, card, state.active)
    elif kind is CardType.GOAL:
        _play_goal(state, card)
    elif kind is CardType.RULE:
        _play_rule(state, card)
    else:
        state.stack.append([OP_FINISH, card])
        _ACTION_EFFECTS[card](state, card)


def op_finish(state: State, frame: Frame) -> None:
    """The Action has fully resolved: onto the discard pile (§7.5)."""
    state.stack.pop()
    discard_cards(state, (frame[1],), -1, "action")


def _play_goal(state: State, card: CardId) -> None:
    """§7.3: one goal change; with Double Agenda and 2 Goals out, choose an older one."""
    goals = state.goals
    agenda = state.loc[DOUBLE_AGENDA] == Z_RULES
    if goals and not agenda:
        discard_cards(state, (goals[-1],), -1, "goal")
    lift(state, card)
    state.loc[card] = Z_GOALS
    goals.append(card)
    if len(goals) == 3:
        ask(state, DecisionKind.GOAL_DISCARD, state.active, legal.goal_discard(state, state.active))
        return
    goal_change(state)


def on_goal_discard(state: State, seat: int, action: Action) -> None:
    """GOAL_DISCARD: the chosen Goal goes; that completes one goal change (§7.8)."""
    discard_cards(state, (action.card,), -1, "goal")
    goal_change(state)


def op_agenda_left(state: State, frame: Frame) -> None:
    """Double Agenda left play with 2 Goals out: the active seat keeps one (§7.4)."""
    state.stack.pop()
    if len(state.goals) == 2 and state.loc[DOUBLE_AGENDA] != Z_RULES:
        ask(state, DecisionKind.GOAL_DISCARD, state.active, legal.goal_discard(state, state.active))


def _play_rule(state: State, card: CardId) -> None:
    """§7.4: into the rules area; a slotted rule replaces the one in its slot."""
    loc = state.loc
    for other in SLOT_OF[card]:
        if other != card and loc[other] == Z_RULES:
            discard_rules(state, (other,), "replaced")
            break
    lift(state, card)
    loc[card] = Z_RULES
    state.rules.append(card)


# --------------------------------------------------------------------- Actions


def _ask_if_any(state: State, kind: DecisionKind) -> None:
    """Ask the active seat ``kind``, unless its legal set is empty (then the Action
    does nothing, §14)."""
    options = legal.LEGAL[kind](state, state.active)
    if options:
        ask(state, kind, state.active, options)


def _own_hand(state: State) -> tuple[int, list[CardId]]:
    seat = state.active
    return seat, state.hands[seat]


def _jackpot(state: State, card: CardId) -> None:
    seat, hand = _own_hand(state)
    draw_into(state, seat, 3 + inflation(state), hand, Z_HAND + seat, "hand")
    state.stack.append([OP_SETTLE])  # the draw is a resolution step [D38]


def _discard_and_draw(state: State, card: CardId) -> None:
    seat, hand = _own_hand(state)
    count = len(hand)
    discard_cards(state, sorted(hand), seat, "discard_and_draw")
    draw_into(state, seat, count, hand, Z_HAND + seat, "hand")
    state.stack.append([OP_SETTLE])  # [D38]


def _compound(state: State, card: CardId) -> None:
    """§7.6: a new temp hand; its draw count is read now [D40]."""
    temp: list[CardId] = []
    state.temp.append(temp)
    draw_into(state, state.active, COMPOUND_DRAW[card] + inflation(state), temp, Z_TEMP, "temp")
    state.stack += ([OP_COMPOUND, card, 0], [OP_SETTLE])


def op_compound(state: State, frame: Frame) -> None:
    """The next PLAY_TEMP, or the end of the compound Action: leftovers discarded."""
    temp = state.temp[-1]
    required = COMPOUND_PLAY[frame[1]]
    if temp and (required == ALL_OF_THEM or frame[2] < required + inflation(state)):
        ask(state, DecisionKind.PLAY_TEMP, state.active, legal.play_temp(state, state.active))
        return
    state.stack.pop()
    discard_cards(state, sorted(temp), state.active, "leftover")
    state.temp.pop()


def on_play_temp(state: State, seat: int, action: Action) -> None:
    """PLAY_TEMP: a card from the top temp hand; settle after it has resolved."""
    card = action.card
    state.stack[-1][2] += 1
    state.temp[-1].remove(card)
    state.loc[card] = Z_TRANSIT
    state.transit.append(card)
    state.events.append(("play", seat, card, "temp"))
    state.stack += ([OP_SETTLE], [OP_RESOLVE, card])


def _everybody_gets_1(state: State, card: CardId) -> None:
    per = 1 + inflation(state)
    draw_into(state, state.active, state.config.players * per, state.pool, Z_POOL, "pool")
    state.stack.append([OP_DEAL, per, 0, 0])


def op_deal(state: State, frame: Frame) -> None:
    """Everybody Gets 1: the next DEAL_CARD, or all handed-out cards into hands [D37]."""
    n = state.config.players
    per, offset, given = frame[1], frame[2], frame[3]
    if given >= per:
        offset += 1
        given = 0
    if offset < n and state.pool:
        frame[2] = offset
        frame[3] = given
        ask(state, DecisionKind.DEAL_CARD, state.active, legal.deal_card(state, state.active))
        return
    state.stack.pop()
    active = state.active
    loc = state.loc
    for k in range(n):
        seat = (active + k) % n
        cards = state.allot[seat]
        if not cards:
            continue
        for c in cards:
            loc[c] = Z_HAND + seat
        state.hands[seat] += cards
        state.events.append(("give", active, seat, tuple(cards), "everybody_gets_1"))
        cards.clear()
    if state.pool:  # cannot happen: the pool holds n × per cards at most
        discard_cards(state, sorted(state.pool), -1, "leftover")


def on_deal_card(state: State, seat: int, action: Action) -> None:
    """DEAL_CARD: one pool card to the current recipient."""
    frame = state.stack[-1]
    recipient = (state.active + frame[2]) % state.config.players
    card = action.card
    state.pool.remove(card)
    state.allot[recipient].append(card)
    frame[3] += 1
    state.events.append(("allot", seat, recipient, card))


def _exchange_keepers(state: State, card: CardId) -> None:
    _ask_if_any(state, DecisionKind.EXCHANGE_KEEPERS)


def on_exchange(state: State, seat: int, action: Action) -> None:
    """EXCHANGE_KEEPERS: swap the two Keepers."""
    other_seat = state.loc[action.other] - Z_TABLE
    move_to_table(state, action.card, other_seat, "exchange")
    move_to_table(state, action.other, seat, "exchange")


def _lets_do_that_again(state: State, card: CardId) -> None:
    _ask_if_any(state, DecisionKind.REPLAY_FROM_DISCARD)


def on_replay(state: State, seat: int, action: Action) -> None:
    """REPLAY_FROM_DISCARD: the card is played now, as part of this play (§7.7) [D39]."""
    card = action.card
    lift(state, card)
    state.loc[card] = Z_TRANSIT
    state.transit.append(card)
    state.events.append(("play", seat, card, "replay"))
    state.stack.append([OP_RESOLVE, card])


def _lets_simplify(state: State, card: CardId) -> None:
    state.stack.append([OP_SIMPLIFY, (len(state.rules) + 1) // 2])


def op_simplify(state: State, frame: Frame) -> None:
    """Let's Simplify: one more rule, or STOP [D30, D36]."""
    ask(state, DecisionKind.SIMPLIFY, state.active, legal.simplify(state, state.active))


def on_simplify(state: State, seat: int, action: Action) -> None:
    """SIMPLIFY: choose a rule, or STOP and discard the chosen ones together."""
    frame = state.stack[-1]
    if action.code != STOP_CODE:
        frame.append(action.card)
        return
    state.stack.pop()
    discard_rules(state, frame[2:], "simplify")


def _no_limits(state: State, card: CardId) -> None:
    loc = state.loc
    discard_rules(state, [r for r in LIMIT_RULES if loc[r] == Z_RULES], "no_limits")


def _rotate_hands(state: State, card: CardId) -> None:
    _ask_if_any(state, DecisionKind.ROTATE_DIRECTION)


def on_rotate(state: State, seat: int, action: Action) -> None:
    """ROTATE_DIRECTION: every main hand passes to seat+1 (LEFT) or seat−1 (RIGHT)."""
    n = state.config.players
    step = 1 if action.code == LEFT_CODE else -1
    old = state.hands
    new: list[list[CardId]] = [[] for _ in range(n)]
    for s in range(n):
        new[(s + step) % n] = old[s]
    state.hands = new
    loc = state.loc
    for s in range(n):
        for c in new[s]:
            loc[c] = Z_HAND + s
    state.events.append(("rotate", seat, "left" if step == 1 else "right"))
    for s in range(n):
        state.events.append(("give", s, (s + step) % n, tuple(sorted(old[s])), "rotate"))


def _rules_reset(state: State, card: CardId) -> None:
    discard_rules(state, list(state.rules), "rules_reset")


def _take_another_turn(state: State, card: CardId) -> None:
    if not state.extra:
        state.another = True
        state.events.append(("another_turn", state.active))


def _choose_player(state: State, card: CardId) -> None:
    """Trade Hands and Use What You Take."""
    _ask_if_any(state, DecisionKind.CHOOSE_PLAYER)


def on_choose_player(state: State, seat: int, action: Action) -> None:
    """CHOOSE_PLAYER: Trade Hands or Use What You Take (the Action resolving says)."""
    other = action.seat
    if state.stack[-1][1] == TRADE_HANDS:
        hands = state.hands
        mine, theirs = hands[seat], hands[other]
        hands[seat], hands[other] = theirs, mine
        loc = state.loc
        for c in theirs:
            loc[c] = Z_HAND + seat
        for c in mine:
            loc[c] = Z_HAND + other
        state.events.append(("trade", seat, other))
        state.events.append(("give", seat, other, tuple(sorted(mine)), "trade"))
        state.events.append(("give", other, seat, tuple(sorted(theirs)), "trade"))
        return
    ordered = sorted(state.hands[other])
    card = ordered[rng(state).randrange(len(ordered))]
    lift(state, card)
    state.loc[card] = Z_TRANSIT
    state.transit.append(card)
    state.events.append(("take", seat, other, card))
    state.events.append(("play", seat, card, "taken"))
    state.stack.append([OP_RESOLVE, card])  # part of this play [D39, D51]


def _taxation(state: State, card: CardId) -> None:
    state.stack.append([OP_TAXATION, 1 + inflation(state), 1, 0])


def op_taxation(state: State, frame: Frame) -> None:
    """Taxation!: the next TAX_GIVE, in turn order; then every chosen card moves to the
    active main hand at once [D26, D46]."""
    n = state.config.players
    active = state.active
    per, offset, given = frame[1], frame[2], frame[3]
    while offset < n:
        giver = (active + offset) % n
        hand = state.hands[giver]
        if given < min(per, len(hand)):
            frame[2] = offset
            frame[3] = given
            ask(state, DecisionKind.TAX_GIVE, giver, legal.tax_give(state, giver))
            return
        offset += 1
        given = 0
    state.stack.pop()
    hand = state.hands[active]
    loc = state.loc
    for k in range(1, n):
        giver = (active + k) % n
        marks = state.marks[giver]
        if not marks:
            continue
        for c in marks:
            state.hands[giver].remove(c)
            loc[c] = Z_HAND + active
        hand += marks
        state.events.append(("give", giver, active, tuple(marks), "taxation"))
        state.marks[giver] = []


def on_tax_give(state: State, seat: int, action: Action) -> None:
    """TAX_GIVE: mark one card to give."""
    state.marks[seat].append(action.card)
    state.stack[-1][3] += 1
    state.events.append(("mark", seat, action.card, "taxation"))


def _mix_it_all_up(state: State, card: CardId) -> None:
    """Every Keeper and Creeper is gathered, shuffled and dealt from the active seat. A
    Taxes KEEP stands if the deal puts Taxes and Money back on the keeping table [D53]."""
    n = state.config.players
    gathered = [c for table in state.tables for c in sorted(table)]
    if not gathered:
        state.events.append(("mix", state.active, ()))
        return
    # Under a KEEP both cards are on the keeping seat's table. Gathering them clears the
    # KEEP (lift, D45); the whole deal is one unit (D21), so only its outcome counts.
    kept = state.loc[TAXES] if state.taxes_keep else -1
    for c in gathered:
        lift(state, c)
    rng(state).shuffle(gathered)
    loc = state.loc
    for k, c in enumerate(gathered):
        seat = (state.active + k) % n
        loc[c] = Z_TABLE + seat
        state.tables[seat].append(c)
        if IS_KEEPER[c]:
            state.keepers[seat] += 1
    if kept >= 0 and loc[TAXES] == kept and loc[MONEY] == kept:
        state.taxes_keep = True
    state.events.append(("mix", state.active, tuple(gathered)))


def _trash_something(state: State, card: CardId) -> None:
    _ask_if_any(state, DecisionKind.TRASH_SOMETHING)


def on_trash_something(state: State, seat: int, action: Action) -> None:
    """TRASH_SOMETHING: the Keeper or Creeper goes."""
    owner = state.loc[action.card] - Z_TABLE
    discard_cards(state, (action.card,), owner, "trash")


def _steal_something(state: State, card: CardId) -> None:
    _ask_if_any(state, DecisionKind.STEAL_SOMETHING)


def on_steal(state: State, seat: int, action: Action) -> None:
    """STEAL_SOMETHING: the card moves to the active table."""
    move_to_table(state, action.card, seat, "steal")


def _trash_a_new_rule(state: State, card: CardId) -> None:
    _ask_if_any(state, DecisionKind.TRASH_RULE)


def on_trash_rule(state: State, seat: int, action: Action) -> None:
    """TRASH_RULE: the rule goes."""
    discard_rules(state, (action.card,), "trash")


def _creeper_sweeper(state: State, card: CardId) -> None:
    for seat, table in enumerate(state.tables):
        creepers = sorted(c for c in table if FIRST_CREEPER <= c < FIRST_GOAL)
        discard_cards(state, creepers, seat, "creeper_sweeper")


def _its_trash_day(state: State, card: CardId) -> None:
    state.stack.append([OP_TRASH_DAY, 0])


def op_trash_day(state: State, frame: Frame) -> None:
    """It's Trash Day!: each seat picks, active first [D27, D36, D44]; then all picks are
    discarded and the discard pile is shuffled into the draw pile."""
    n = state.config.players
    offset = frame[1]
    if offset < n:
        seat = (state.active + offset) % n
        ask(state, DecisionKind.TRASH_DAY, seat, legal.trash_day(state, seat))
        return
    state.stack.pop()
    picked: list[CardId] = []
    for k in range(n):
        seat = (state.active + k) % n
        marks = state.marks[seat]
        if marks:
            state.events.append(("trash_day", seat, tuple(sorted(marks))))
            picked += marks
            state.marks[seat] = []
    discard_cards(state, sorted(picked), -1, "trash_day")
    reshuffle(state)


def on_trash_day(state: State, seat: int, action: Action) -> None:
    """TRASH_DAY: pick one more card, or DONE (the next seat picks)."""
    if action.kind is ActionKind.DONE:
        state.stack[-1][1] += 1
        return
    state.marks[seat].append(action.card)
    state.events.append(("mark", seat, action.card, "trash_day"))


_ACTION_EFFECTS: Final[dict[CardId, Callable[[State, CardId], None]]] = {
    JACKPOT: _jackpot,
    DISCARD_AND_DRAW: _discard_and_draw,
    DRAW_2_AND_USE_EM: _compound,
    DRAW_3_PLAY_2: _compound,
    EVERYBODY_GETS_1: _everybody_gets_1,
    EXCHANGE_KEEPERS: _exchange_keepers,
    LETS_DO_THAT_AGAIN: _lets_do_that_again,
    LETS_SIMPLIFY: _lets_simplify,
    NO_LIMITS: _no_limits,
    ROTATE_HANDS: _rotate_hands,
    RULES_RESET: _rules_reset,
    TAKE_ANOTHER_TURN: _take_another_turn,
    TRADE_HANDS: _choose_player,
    TRASH_A_NEW_RULE: _trash_a_new_rule,
    USE_WHAT_YOU_TAKE: _choose_player,
    TODAYS_SPECIAL: _compound,
    TAXATION: _taxation,
    MIX_IT_ALL_UP: _mix_it_all_up,
    TRASH_SOMETHING: _trash_something,
    STEAL_SOMETHING: _steal_something,
    CREEPER_SWEEPER: _creeper_sweeper,
    ITS_TRASH_DAY: _its_trash_day,
}
"""Each Action's effect, run with the Action in transit and FINISH beneath it."""
