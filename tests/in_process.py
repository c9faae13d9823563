"""The ``arena`` command run inside the test's own process: ``arena.cli.main`` with real
arguments, its standard output and error captured, the result shaped like
``subprocess.run``'s. For what a command says and returns before it plays or serves (a
refusal of bad options, a report on a database): a new interpreter would cost about
half a second of CPU for its imports and show nothing more.

What only a process shows stays tested on real processes (``python -m arena.cli``),
which every command has: output written past ``sys.stdout`` and ``sys.stderr`` (gRPC's
C core), the environment it starts with, its end on a signal. An exception the command
does not catch is raised here (a subprocess would print its traceback and exit 1)."""

from __future__ import annotations

import contextlib
import io
import logging
import subprocess

from arena.cli import main


def run_arena(*args: str) -> subprocess.CompletedProcess[str]:
    """``arena ARGS`` in this process: the status ``main`` returns (or argparse's, for a
    usage error), and what it printed. The root logger is left as it was (``arena
    serve`` sets its handler)."""
    out, err = io.StringIO(), io.StringIO()
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            status = main(list(args))
        except SystemExit as exit_:  # argparse: --help, or a usage error (status 2)
            if exit_.code is None or isinstance(exit_.code, int):
                status = exit_.code or 0
            else:  # as the interpreter does with sys.exit("message")
                print(exit_.code, file=err)
                status = 1
        finally:
            root.handlers[:] = handlers
            root.setLevel(level)
    return subprocess.CompletedProcess(["arena", *args], status, out.getvalue(), err.getvalue())
