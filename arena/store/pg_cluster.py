"""A throwaway PostgreSQL server for tests and benchmarks: ``initdb`` into a temporary
folder, the server on a free port of 127.0.0.1 (its unix socket in that folder too),
stopped by its process id and the folder removed at the end.

Debian's ``postgresql`` packages provide the programs (``scripts/setup`` installs them).
``initdb`` refuses to run as root, so as root the cluster belongs to the ``postgres``
system user: the folder is made theirs and the programs run under ``setpriv``, which
execs (no process in between), so the id kept is the server's own.
"""

from __future__ import annotations

import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Final

SUPERUSER: Final = "arena"
"""The cluster's superuser (tests connect as it)."""
PASSWORD: Final = "arena-test-password"
"""Its password: TCP connections must give it (so a wrong one is refused, as it would
be by a real server); the unix socket is trusted."""
START_TIMEOUT_S: Final = 60.0
"""How long the server may take to accept connections."""


class ClusterError(RuntimeError):
    """The PostgreSQL programs are missing or the server did not start."""


def pg_bin() -> Path:
    """The folder of Debian's PostgreSQL programs (the newest version installed)."""
    root = Path("/usr/lib/postgresql")
    versions = sorted(
        (p for p in root.glob("*/bin") if (p / "initdb").exists()),
        key=lambda p: int(p.parent.name) if p.parent.name.isdigit() else 0,
    )
    if not versions:
        raise ClusterError(
            "PostgreSQL is not installed (no /usr/lib/postgresql/*/bin/initdb); "
            "./scripts/setup installs it"
        )
    return versions[-1]


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class TempCluster:
    """One PostgreSQL server in a temporary folder; ``start()``, then ``stop()``."""

    def __init__(self) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix="arena-pg-"))
        self.port = 0
        self._server: subprocess.Popen[bytes] | None = None
        self._as_postgres = os.geteuid() == 0

    def _command(self, *argv: str) -> list[str]:
        if not self._as_postgres:
            return list(argv)
        return ["setpriv", "--reuid=postgres", "--regid=postgres", "--init-groups", *argv]

    def start(self) -> None:
        """initdb, then start the server and wait until it accepts connections."""
        binaries = pg_bin()
        data = self.folder / "data"
        password_file = self.folder / "password"
        password_file.write_text(PASSWORD + "\n")
        if self._as_postgres:
            user = pwd.getpwnam("postgres")
            os.chown(self.folder, user.pw_uid, user.pw_gid)
            os.chown(password_file, user.pw_uid, user.pw_gid)
        initdb = subprocess.run(
            self._command(
                str(binaries / "initdb"), "-D", str(data), "-U", SUPERUSER,
                f"--pwfile={password_file}", "--auth-local=trust",
                "--auth-host=scram-sha-256", "--no-sync", "-E", "UTF8", "--locale=C",
            ),
            capture_output=True, text=True, check=False,
        )  # fmt: skip
        password_file.unlink()
        if initdb.returncode:
            raise ClusterError(f"initdb failed: {initdb.stderr.strip() or initdb.stdout.strip()}")
        log = (self.folder / "server.log").open("wb")
        for _ in range(5):  # another process may take the free port first
            self.port = _free_port()
            self._server = subprocess.Popen(
                self._command(
                    str(binaries / "postgres"), "-D", str(data), "-p", str(self.port),
                    "-k", str(self.folder), "-c", "listen_addresses=127.0.0.1",
                    # A throwaway cluster: durability is not wanted, speed is.
                    "-c", "fsync=off", "-c", "synchronous_commit=off",
                    "-c", "full_page_writes=off", "-c", "max_connections=200",
                ),
                stdout=log, stderr=subprocess.STDOUT,
            )  # fmt: skip
            if self._wait_ready():
                log.close()
                return
            self._end_server()
        log.close()
        raise ClusterError(f"the PostgreSQL server did not start (see {self.folder}/server.log)")

    def _wait_ready(self) -> bool:
        """Whether the server accepts a session (it refuses, or says it is starting up,
        for a moment after its socket appears) before the timeout, or its end."""
        import psycopg

        assert self._server is not None
        deadline = time.monotonic() + START_TIMEOUT_S
        while time.monotonic() < deadline:
            if self._server.poll() is not None:
                return False
            if (self.folder / f".s.PGSQL.{self.port}").exists():
                try:
                    psycopg.connect(self.admin_url(), connect_timeout=5).close()
                    return True
                except psycopg.OperationalError:
                    pass
            time.sleep(0.05)
        return False

    def url(self, database: str = "postgres", *, password: str = PASSWORD) -> str:
        """The URL of ``database`` on this server, over TCP with the password."""
        return f"postgresql://{SUPERUSER}:{password}@127.0.0.1:{self.port}/{database}"

    def admin_url(self, database: str = "postgres") -> str:
        """The URL of ``database`` through the trusted unix socket."""
        return f"postgresql://{SUPERUSER}@/{database}?host={self.folder}&port={self.port}"

    def create_database(self, name: str) -> str:
        """A new empty database; its URL."""
        self.sql(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def sql(self, statement: str, database: str = "postgres") -> None:
        """Run one statement as the superuser (outside a transaction)."""
        import psycopg

        with psycopg.connect(self.admin_url(database), autocommit=True) as connection:
            connection.execute(statement.encode())

    def _end_server(self) -> None:
        server, self._server = self._server, None
        if server is None:
            return
        if server.poll() is None:
            server.send_signal(signal.SIGINT)  # PostgreSQL's "fast" shutdown
            try:
                server.wait(timeout=30)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()

    def stop(self) -> None:
        """Stop the server (by its process id) and remove the folder."""
        self._end_server()
        shutil.rmtree(self.folder, ignore_errors=True)
