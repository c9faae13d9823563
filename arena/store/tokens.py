"""Owners' tokens for ``arena serve``: created once, stored only as a hash.

A token reads ``ID.SECRET``: ``ID`` is a short public handle (to find the row, list and
revoke tokens), ``SECRET`` is ``secrets.token_urlsafe(32)`` (256 bits). Only the SHA-256
of the secret is stored, compared with ``hmac.compare_digest``. A fast hash is enough:
the secret is random, so there is nothing to guess from a leaked hash short of 2**256
tries, which is what slow password hashes protect against.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
from dataclasses import dataclass
from typing import Final

from arena.names import check_name

from .base import Store

SECRET_BYTES: Final = 32
"""Random bytes in a token's secret part."""


@dataclass(frozen=True, slots=True)
class TokenInfo:
    """A token as listed (never the token itself)."""

    id: str
    """The public part."""
    owner: str
    """Whose it is."""
    created_at: float
    """Unix seconds."""
    revoked: bool
    """Revoked tokens no longer authenticate."""


def _digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def create_token(store: Store, owner: str) -> str:
    """A new token for ``owner`` (BadNameError for a bad owner name). The caller shows
    it once; the database keeps only its hash."""
    check_name(owner, "owner name")
    token_id = secrets.token_hex(6)
    secret = secrets.token_urlsafe(SECRET_BYTES)
    with store.transaction() as db:
        db.execute(
            "INSERT INTO tokens(id, owner, secret_sha256, created_at) VALUES (?, ?, ?, ?)",
            (token_id, owner, _digest(secret), time.time()),
        )
    return f"{token_id}.{secret}"


def owner_of(store: Store, token: str) -> str | None:
    """The owner a token authenticates, or None (unknown, revoked or mistyped)."""
    token_id, dot, secret = token.strip().partition(".")
    if not dot or not token_id or not secret or len(token) > 200:
        return None
    rows = store.read(
        "SELECT owner, secret_sha256 FROM tokens WHERE id = ? AND revoked_at IS NULL",
        (token_id,),
    )
    if not rows:
        return None
    # Constant-time comparison: timing must not tell how much of a guess was right.
    if not hmac.compare_digest(_digest(secret), str(rows[0]["secret_sha256"])):
        return None
    return str(rows[0]["owner"])


def list_tokens(store: Store, owner: str | None = None) -> list[TokenInfo]:
    """Every token (of one owner), oldest first."""
    sql = "SELECT id, owner, created_at, revoked_at FROM tokens"
    params: tuple[str, ...] = ()
    if owner is not None:
        sql += " WHERE owner = ?"
        params = (owner,)
    rows = store.read(sql + " ORDER BY created_at", params)
    return [
        TokenInfo(r["id"], r["owner"], r["created_at"], r["revoked_at"] is not None) for r in rows
    ]


def revoke_token(store: Store, token_id: str) -> bool:
    """Revoke a token by its id (the part before the dot); False if there is none."""
    token_id = token_id.partition(".")[0]
    with store.transaction() as db:
        cursor = db.execute(
            "UPDATE tokens SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL",
            (time.time(), token_id),
        )
    return cursor.rowcount > 0
