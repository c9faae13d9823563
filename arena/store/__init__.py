"""Persistence: one SQLite file (WAL) by default, or a PostgreSQL database by URL, with
the same schema and versioned migrations. ``open_store`` opens either from what
``--db`` names."""

from .base import Store, StoreError
from .opening import is_postgres_url, masked, open_store

__all__ = ["Store", "StoreError", "is_postgres_url", "masked", "open_store"]
