"""Choices of several cards made in one go on a person's page (``Board.card_picks``):
the cards as checkboxes, and the ticked cards back to the legal actions they mean.

A game whose one action names several cards (a set of three 7s and a joker) gets the
ticked cards mapped onto exactly that action; a game that asks for one card a decision,
several times in a row (discarding down to a hand limit), gets the ticked cards as that
many actions, the first answering now and the others the decisions that follow
(``HumanSeat.choose``); one that asks until the seat says it is done (It's Trash Day!)
gets them followed by that action. Nothing but the seat's own legal actions is ever named.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from arena.games.base import CardPicks


@dataclass(frozen=True, slots=True)
class Checkboxes:
    """What the page shows for a decision of card picks."""

    cards: list[str]
    """One checkbox per card, by name (a name as often as it may be ticked)."""
    repeats: int
    """See ``CardPicks.repeats``."""
    sets: list[list[str]]
    """Per legal action: its cards (empty for a button), for the page's preview."""
    buttons: list[int]
    """The legal actions that are no set of cards (offered as buttons)."""


def checkboxes(picks: CardPicks) -> Checkboxes:
    """The checkboxes that can tick every legal set of ``picks`` (and no more)."""
    most: Counter[str] = Counter()
    for cards in picks.cards:
        counted = Counter(cards)
        for name, n in counted.items():
            most[name] = most[name] + n if picks.repeats != 1 else max(most[name], n)
    boxes = [name for name in sorted(most) for _ in range(most[name])]
    buttons = [i for i, cards in enumerate(picks.cards) if not cards]
    return Checkboxes(boxes, picks.repeats, [list(c) for c in picks.cards], buttons)


def picked(picks: CardPicks, ticked: list[str]) -> list[int] | str:
    """The legal actions (indices) the ticked cards mean, in order; or why they mean
    none, in words."""
    if picks.repeats == 0:  # any number, then the action of no cards ends the run
        ends = [i for i, cards in enumerate(picks.cards) if not cards]
        if len(ends) != 1:
            return "this choice cannot be made by ticking cards; choose one of the buttons"
        run = _one_each(picks, ticked)
        return run if isinstance(run, str) else [*run, ends[0]]
    if not ticked:
        return "tick the cards you choose"
    if picks.repeats == 1:
        wanted = Counter(ticked)
        for index, cards in enumerate(picks.cards):
            if cards and Counter(cards) == wanted:
                return [index]
        return f"no legal choice takes exactly {_listed(ticked)}; tick one of the sets offered"
    if len(ticked) != picks.repeats:
        return f"tick {picks.repeats} cards ({len(ticked)} ticked)"
    return _one_each(picks, ticked)


def _one_each(picks: CardPicks, ticked: list[str]) -> list[int] | str:
    """One single-card action per ticked card, each action once; or why not."""
    chosen: list[int] = []
    for name in ticked:
        free = [i for i, cards in enumerate(picks.cards) if cards == (name,) and i not in chosen]
        if not free:
            return f"{name!r} is not a card you may choose here"
        chosen.append(free[0])
    return chosen


def _listed(names: list[str]) -> str:
    return ", ".join(sorted(names))
