"""Mutating valid JSON documents: the fuzz tests start from what the arena writes and
change a few places (drop a key, add one, a value of another type, a number off by one
or huge, a list cut short or grown), so that most of a document still reads and the
loader meets its mistake deep inside."""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import strategies as st

JSON_SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 120),
    st.sampled_from([-1, 2**31, 2**63, 10**30, -(10**30)]),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=8),
    st.sampled_from(["PLAY", "DRAW", "hand_empty", "play", "abluxxen-state/1", "abluxxen"]),
)
JSON_VALUES = st.recursive(
    JSON_SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=5,
)
"""Any JSON value (what json.loads can give)."""

Path = tuple[str | int, ...]


def paths(doc: Any, prefix: Path = ()) -> list[Path]:
    """Every place in ``doc`` (the root excluded), parents before children."""
    found: list[Path] = []
    if isinstance(doc, dict):
        items: list[tuple[str | int, Any]] = list(doc.items())
    elif isinstance(doc, list):
        items = list(enumerate(doc))
    else:
        return found
    for key, value in items:
        found.append((*prefix, key))
        found += paths(value, (*prefix, key))
    return found


def _parent(doc: Any, path: Path) -> Any:
    for key in path[:-1]:
        doc = doc[key]
    return doc


def _is_number(doc: Any, path: Path) -> bool:
    value = _parent(doc, path)[path[-1]]
    return isinstance(value, int) and not isinstance(value, bool)


@st.composite
def renumbered(draw: st.DrawFn, doc: Any) -> Any:
    """``doc`` (deep-copied) with one to three of its integers changed: the document keeps
    its shape, so only a check of what the numbers mean can refuse it."""
    doc = copy.deepcopy(doc)
    numbers = [p for p in paths(doc) if _is_number(doc, p)]
    for _ in range(draw(st.integers(1, 3))):
        place = draw(st.sampled_from(numbers))
        parent, key = _parent(doc, place), place[-1]
        parent[key] += draw(st.sampled_from([-1, 1, 2, -2, -parent[key] - 1, 2**31, 10**20]))
    return doc


@st.composite
def mutated(draw: st.DrawFn, doc: Any, top_keys: bool = True) -> Any:
    """``doc`` (deep-copied) with one to three changes."""
    doc = copy.deepcopy(doc)
    for _ in range(draw(st.integers(1, 3))):
        places = paths(doc)
        if not places:
            return draw(JSON_VALUES)
        if top_keys and isinstance(doc, dict) and doc and draw(st.booleans()):
            place: Path = (draw(st.sampled_from(sorted(doc))),)  # a field of the document
        else:
            place = draw(st.sampled_from(places))
        parent, key = _parent(doc, place), place[-1]
        value = parent[key]
        how = draw(
            st.sampled_from(["delete", "replace", "number", "cut", "grow", "add key", "wrap"])
        )
        if how == "delete":
            del parent[key]
        elif how == "replace":
            parent[key] = draw(JSON_VALUES)
        elif how == "number" and isinstance(value, int) and not isinstance(value, bool):
            parent[key] = value + draw(st.sampled_from([-1, 1, -value - 1, 2**31, 10**20]))
        elif how == "cut" and isinstance(value, list) and value:
            del value[draw(st.integers(0, len(value) - 1)) :]
        elif how == "grow" and isinstance(value, list) and value:
            value.append(copy.deepcopy(value[draw(st.integers(0, len(value) - 1))]))
        elif how == "add key" and isinstance(value, dict):
            value[draw(st.text(max_size=6))] = draw(JSON_VALUES)
        elif how == "wrap":
            parent[key] = [value] if draw(st.booleans()) else {"value": value}
        else:
            parent[key] = draw(JSON_VALUES)
    return doc
