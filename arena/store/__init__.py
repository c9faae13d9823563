"""Persistence: one SQLite file (WAL) by default, with versioned migrations."""

from .sqlite import Store, StoreError

__all__ = ["Store", "StoreError"]
