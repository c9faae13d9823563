"""English for what the games tell people: a seat's name with its verb and possessive,
counts of equal things, and durations.

A seat whose name is "you" (the human seat's default name, ``arena play``) is the second
person: "you play", "greedy abluxxes your two 12s"; any other name is the third person:
"greedy plays", "greedy's". Names are shown as given (the pages escape them).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Final

YOU: Final = "you"

_NUMBERS: Final = (
    "no",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
)
_IRREGULAR: Final = {"is": "are", "has": "have", "was": "were"}
_VERB_MARK: Final = re.compile(r"\[(\w+)\]")
"""A verb in brackets, which agrees with the person (``Person``)."""


def is_you(name: str) -> bool:
    """Whether ``name`` is spoken to as "you"."""
    return name.casefold() == YOU


def base_form(verb: str) -> str:
    """The verb of "you": "plays" → "play", "abluxxes" → "abluxx", "is" → "are";
    a verb that is not a third-person form ("cannot", "will") stays."""
    if verb in _IRREGULAR:
        return _IRREGULAR[verb]
    for ending in ("sses", "xes", "shes", "ches", "zes", "oes"):
        if verb.endswith(ending):
            return verb[:-2]
    if verb.endswith("s") and not verb.endswith("ss") and len(verb) > 2:
        return verb[:-1]
    return verb


class Person:
    """A seat's name in a sentence, by ``format`` spec: ``{p}`` the name ("you" or
    "greedy"), ``{p:'s}`` its possessive ("your", "greedy's") and ``{p:plays}`` the name
    with the verb agreeing ("you play", "greedy plays"). In a spec of several words the
    first agrees, and so does every word in brackets: ``{p:discards it, or [keeps] it}``."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.you = is_you(name)

    def __str__(self) -> str:
        return YOU if self.you else self.name

    def __format__(self, spec: str) -> str:
        if not spec:
            return str(self)
        if spec == "'s":
            return "your" if self.you else f"{self.name}'s"
        verb, space, rest = spec.partition(" ")
        if not self.you:
            return f"{self.name} {verb}{space}" + _VERB_MARK.sub(lambda m: m.group(1), rest)
        rest = _VERB_MARK.sub(lambda m: base_form(m.group(1)), rest)
        return f"{YOU} {base_form(verb)}{space}{rest}"


def seat_person(names: Sequence[str], seat: object) -> Person:
    """Seat ``seat`` of a table whose seats are ``names``, as a ``Person`` ("seat 4"
    for a seat the names do not cover, "the centre" for −1: a card of no seat)."""
    if not isinstance(seat, int):
        return Person("?")
    if seat < 0:
        return Person("the centre")
    return Person(names[seat] if seat < len(names) else f"seat {seat}")


def number(n: int) -> str:
    """``n`` in words up to ten ("two"), in digits beyond."""
    return _NUMBERS[n] if 0 <= n < len(_NUMBERS) else str(n)


def ordinal(n: int) -> str:
    """ "1st", "2nd", "3rd", "11th", "22nd"."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def plural(noun: str) -> str:
    """The plural of a card's name: "12" → "12s", "joker" → "jokers", "Taxes" stays."""
    return noun if noun.endswith("s") else noun + "s"


def article(noun: str) -> str:
    """ "a 12", "an 8", "an 11", "an Action": the article read aloud."""
    spoken = noun.lstrip()
    vowel = spoken[:1].lower() in "aeiou" or spoken.startswith(("8", "11", "18"))
    return f"{'an' if vowel else 'a'} {noun}"


def count(n: int, noun: str) -> str:
    """The count in words: "one 12", "two 12s", "no jokers"."""
    return f"{number(n)} {noun if n == 1 else plural(noun)}"


def counted(items: Iterable[str], *, singles: str = "a", empty: str = "nothing") -> str:
    """Equal items counted, in the order each first appears: "two 12s, a 7 and a joker";
    ``singles`` "bare" names a single item alone, as in a hand: "1, 3, two 5s and 7"."""
    counts: dict[str, int] = {}
    for item in items:
        counts[item] = counts.get(item, 0) + 1
    parts = [
        count(n, item) if n != 1 else item if singles == "bare" else article(item)
        for item, n in counts.items()
    ]
    return listed(parts, empty=empty)


def listed(parts: list[str], *, empty: str = "nothing") -> str:
    """ "a", "a and b", "a, b and c"."""
    if not parts:
        return empty
    if len(parts) == 1:
        return parts[0]
    return ", ".join(parts[:-1]) + " and " + parts[-1]


def spelled_out(identifier: str) -> str:
    """An identifier that has no words of its own, as readable text: "score_limit" →
    "score limit" ("" → "unknown")."""
    return identifier.replace("_", " ").strip() or "unknown"


def duration(ms: float) -> str:
    """A time as people read it: "340 ms", "1.7 s", "42 s", "2 min 5 s"."""
    if ms < 1000:
        return f"{max(round(ms), 0)} ms" if ms >= 1 else "under 1 ms"
    seconds = ms / 1000
    if seconds < 9.95:
        return f"{seconds:.1f} s"
    if seconds < 59.5:
        return f"{round(seconds)} s"
    minutes, rest = divmod(round(seconds), 60)
    return f"{minutes} min {rest} s" if rest else f"{minutes} min"
