"""Advisory locks on a database's companion file ``DB.lock``, for what two processes must
never do to one database at once.

Open-file-description locks (Linux ``F_OFD_SETLK``): unlike classic POSIX locks they
belong to the open file, not to the process, so two Stores in one process exclude each
other too, and closing one never drops the other's locks. The kernel drops them when the
file is closed, and so when the process dies, even by SIGKILL.
"""

from __future__ import annotations

import errno
import fcntl
import hashlib
import os
import struct
from pathlib import Path
from typing import Final

_OPEN_BYTE: Final = 0
"""Every writer holds a shared lock here while its Store is open."""
_FLOCK: Final = "hhqqi4x"
"""struct flock: l_type, l_whence, l_start, l_len, l_pid (0 for OFD locks), padding."""


class LockBusyError(Exception):
    """Another open file holds a conflicting lock."""


class LockFile:
    """``DB.lock``, opened once; byte locks on it by name."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)

    def _lock(self, kind: int, start: int, length: int) -> None:
        request = struct.pack(_FLOCK, kind, os.SEEK_SET, start, length, 0)
        try:
            fcntl.fcntl(self._fd, fcntl.F_OFD_SETLK, request)
        except OSError as error:
            if error.errno in (errno.EACCES, errno.EAGAIN):
                raise LockBusyError from None
            raise

    def share_open(self) -> None:
        """Mark the database as open by this Store (a shared lock)."""
        self._lock(fcntl.F_RDLCK, _OPEN_BYTE, 1)

    def claim(self, name: str) -> None:
        """An exclusive lock on the byte of ``name`` (LockBusyError if held elsewhere)."""
        offset = 1 + (int.from_bytes(hashlib.sha256(name.encode()).digest()[:4], "big") >> 1)
        self._lock(fcntl.F_WRLCK, offset, 1)

    def alone(self) -> bool:
        """Whether no other open file holds any lock (no other Store has the database
        open): an exclusive lock over the whole file, given back at once."""
        try:
            self._lock(fcntl.F_WRLCK, 0, 0)
        except LockBusyError:
            return False
        # Back to what this Store held: its shared open lock, the rest free. (Its claims
        # are given up too: alone() is asked only when the Store is about to close.)
        self._lock(fcntl.F_UNLCK, 0, 0)
        self.share_open()
        return True

    def close(self) -> None:
        """Close the file; the kernel drops every lock taken through it."""
        os.close(self._fd)
