"""``arena token``: the organizer's owner tokens (create, list, revoke)."""

from __future__ import annotations

import argparse
import errno
import os
import sys
import time
from typing import Any

from arena.names import BadNameError
from arena.store import Store, StoreError, open_store
from arena.store.tokens import create_token, list_tokens, revoke_token
from arena.text import shown


def register(sub: Any) -> None:
    """Add ``token create|list|revoke``."""
    parser: argparse.ArgumentParser = sub.add_parser(
        "token", help="create, list or revoke bot owners' tokens of an arena database"
    )
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    create = actions.add_parser("create", help="a new token for OWNER (shown once)")
    create.add_argument("owner", metavar="OWNER", help="the owner's name")
    create.add_argument("--db", required=True, help="the arena database (arena serve --db)")
    create.add_argument(
        "--out",
        metavar="FILE",
        help="write the token to FILE (a new file, readable by you only) instead of printing it",
    )
    create.set_defaults(run=run_create)
    listing = actions.add_parser("list", help="tokens by id and owner (never the secrets)")
    listing.add_argument("--db", required=True, help="the arena database")
    listing.add_argument("--owner", help="only this owner's")
    listing.set_defaults(run=run_list)
    revoke = actions.add_parser("revoke", help="revoke a token by its id (the part before '.')")
    revoke.add_argument("token_id", metavar="ID")
    revoke.add_argument("--db", required=True, help="the arena database")
    revoke.set_defaults(run=run_revoke)


def _store(path: str, *, create: bool) -> Store | None:
    try:
        return open_store(path, create=create)
    except StoreError as error:
        print(f"arena token: {error}", file=sys.stderr)
        return None


def run_create(args: argparse.Namespace) -> int:
    """Create and print a token (its last word is the token), or write it to ``--out``."""
    out = None
    if args.out:
        try:  # first: a file that cannot be written costs no token
            out = os.open(args.out, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o600)
        except OSError as error:
            why = "it exists (not overwriting it)" if error.errno == errno.EEXIST else error
            print(f"arena token: cannot write --out {args.out}: {why}", file=sys.stderr)
            return 2
    token = _create(args)
    if out is not None:
        if token is not None:
            os.write(out, f"{token}\n".encode())
        os.close(out)
        if token is None:
            os.unlink(args.out)
    if token is None:
        return 2
    if args.out:
        print(
            f"Token for owner {args.owner!r} written to {args.out} (readable by you only; "
            "the database keeps a hash). Give it to the owner, who passes it as --token or "
            "ARENA_TOKEN."
        )
        return 0
    print(
        f"Token for owner {args.owner!r}. It is shown only this once (the database keeps a "
        "hash); give it to the owner, who passes it as --token or ARENA_TOKEN:"
    )
    print(token)
    return 0


def _create(args: argparse.Namespace) -> str | None:
    """A new token for ``args.owner`` in ``args.db``, or None (the problem printed)."""
    store = _store(args.db, create=True)
    if store is None:
        return None
    try:
        return create_token(store, args.owner)
    except BadNameError as error:
        print(f"arena token: {error}", file=sys.stderr)
        return None
    finally:
        store.close()


def run_list(args: argparse.Namespace) -> int:
    """One line per token."""
    store = _store(args.db, create=False)
    if store is None:
        return 2
    try:
        tokens = list_tokens(store, args.owner)
    finally:
        store.close()
    for info in tokens:
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(info.created_at))
        print(
            f"{shown(info.id)}  {shown(info.owner):<20} {when}{'  revoked' if info.revoked else ''}"
        )
    if not tokens:
        print("no tokens yet; create one with: arena token create OWNER --db FILE")
    return 0


def run_revoke(args: argparse.Namespace) -> int:
    """Revoke one token."""
    store = _store(args.db, create=False)
    if store is None:
        return 2
    try:
        done = revoke_token(store, args.token_id)
    finally:
        store.close()
    if not done:
        print(f"arena token: no active token {args.token_id!r} (see arena token list)")
        return 1
    print(f"revoked {args.token_id}")
    return 0
