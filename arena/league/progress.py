"""A progress line for a running league: done/total, rate, ETA and the current leader."""

from __future__ import annotations

import sys
import time
from typing import TextIO


class Progress:
    """Redraws one line on a terminal; prints a line every ``every_s`` otherwise."""

    def __init__(self, total: int, *, stream: TextIO | None = None, every_s: float = 10.0) -> None:
        self.total = total
        self.stream = stream if stream is not None else sys.stderr
        self.tty = self.stream.isatty()
        self.every_s = every_s
        self.started = time.monotonic()
        self._last_print = 0.0
        self._done_at_start: int | None = None

    def update(self, done: int, leader: str = "") -> None:
        """Show ``done`` of ``total`` matches finished."""
        now = time.monotonic()
        if self._done_at_start is None:
            self._done_at_start = done
        if not self.tty and now - self._last_print < self.every_s and done < self.total:
            return
        self._last_print = now
        ran = done - self._done_at_start
        elapsed = max(now - self.started, 1e-9)
        rate = ran / elapsed
        eta = (self.total - done) / rate if rate > 0 else float("inf")
        width = 24
        filled = int(width * done / self.total) if self.total else width
        bar = "#" * filled + "-" * (width - filled)
        eta_text = f"{eta:.0f}s" if eta != float("inf") else "?"
        line = f"[{bar}] {done}/{self.total} matches  {rate:.2f}/s  ETA {eta_text}" + (
            f"  leader: {leader}" if leader else ""
        )
        if self.tty:
            self.stream.write("\r\x1b[2K" + line)
        else:
            self.stream.write(line + "\n")
        self.stream.flush()

    def close(self) -> None:
        """End the progress line."""
        if self.tty:
            self.stream.write("\n")
            self.stream.flush()
