"""Conversions between the engines' Python objects and the arena.v1 protobuf messages.

Messages to a seat are built only from ``observe()`` output and per-seat event views,
never from a State.
"""
