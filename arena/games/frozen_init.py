"""A fast constructor for the frozen dataclasses built once per decision.

Under mypyc, a frozen dataclass's generated ``__init__`` is an interpreted function that
stores each field with ``object.__setattr__``: an Observation of 24 fields cost 3 µs of
the 6.5 µs ``observe`` takes. A class that writes its own ``__init__`` (plain
assignments) is given a native one instead, about 30 times faster, and stays frozen
(the dataclass's ``__setattr__`` still refuses every later assignment).

Interpreted (no compiled build), those plain assignments meet that frozen
``__setattr__``; ``interpreted_init`` then gives the class the ``__init__`` the
dataclass would have generated.
"""

from __future__ import annotations

import dataclasses
from types import FunctionType


def interpreted_init(cls: type) -> None:
    """If ``cls.__init__`` runs interpreted, replace it with the generated frozen one
    (same fields, same order, ``object.__setattr__`` per field)."""
    if not isinstance(cls.__dict__.get("__init__"), FunctionType):
        return  # compiled: a native __init__, whose stores bypass __setattr__
    shadow: type = dataclasses.dataclass(frozen=True)(
        type(cls.__name__, (), {"__annotations__": dict(cls.__annotations__)})
    )
    cls.__init__ = shadow.__init__  # type: ignore[misc]
