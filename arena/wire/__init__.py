"""Conversions between the engines' Python objects and the arena.v1 protobuf messages.

Messages to a seat are built only from ``observe()`` output and per-seat event views,
never from a State.
"""

from arena import native as _native

# Before any module of this package is imported: a current compiled build goes first.
_native.use_compiled(__name__, __path__)
