"""The store on a real PostgreSQL: Debian's server, started in a temporary folder for these tests."""

import asyncio
import glob
import os
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from dataclasses import replace
from itertools import count
from pathlib import Path

import pytest
from sqlalchemy import inspect
from sqlalchemy.exc import IntegrityError

from pagoda import tichu
from pagoda.server.lobby import Lobby
from pagoda.server.store import SqlStore, async_url

from .helpers import FAST, Client, check_grouped_appends, run, wait_for
from .test_limits import check_bad_requests, make_client

USER = "pagoda"


def _bin_dir() -> Path:
    """The newest Debian PostgreSQL's binaries; fails (never skips) when the package is missing."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(Path(p).parts[4]))
    if not found:
        pytest.fail(
            "PostgreSQL is not installed: no /usr/lib/postgresql/*/bin/initdb "
            "(install the Debian package `postgresql`; `make pytest` does it)"
        )
    return Path(found[-1]).parent


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Postgres:
    """A throwaway cluster: trust authentication, loopback only, its socket in its own folder."""

    def __init__(self) -> None:
        self.bin = _bin_dir()
        self.root = Path(tempfile.mkdtemp(prefix="pagoda-pg-"))
        self.data = self.root / "data"
        self.port = _free_port()
        # The server refuses to run as root: then it runs as `nobody`, who owns the folder.
        self.prefix = ["runuser", "-u", "nobody", "--"] if os.geteuid() == 0 else []
        if self.prefix:
            shutil.chown(self.root, "nobody")
        self.names = count(1)

    def _run(self, *args: str) -> None:
        done = subprocess.run([*self.prefix, *args], capture_output=True, text=True, timeout=60)
        if done.returncode != 0:
            raise AssertionError(f"{args[0]} failed ({done.returncode}): {done.stdout}{done.stderr}")

    def start(self) -> None:
        """initdb, then start the server and wait until it accepts connections."""
        self._run(
            str(self.bin / "initdb"),
            "-D",
            str(self.data),
            "-U",
            USER,
            "-A",
            "trust",
            "-E",
            "UTF8",
            "--no-sync",
        )
        options = f"-h 127.0.0.1 -p {self.port} -k {self.root} -F"
        log = str(self.root / "log")
        self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-o", options, "-l", log, "-w", "start")

    def stop(self) -> None:
        """Stop the server and remove its folder."""
        try:
            if (self.data / "postmaster.pid").exists():
                self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "-w", "stop")
        finally:
            shutil.rmtree(self.root, ignore_errors=True)

    def database(self) -> str:
        """A new empty database; its URL in the plain form a user writes (``postgresql://``)."""
        name = f"t{next(self.names)}"
        self._run(str(self.bin / "createdb"), "-h", "127.0.0.1", "-p", str(self.port), "-U", USER, name)
        return f"postgresql://{USER}@127.0.0.1:{self.port}/{name}"


@pytest.fixture(scope="module")
def postgres() -> Iterator[Postgres]:
    pg = Postgres()
    try:
        pg.start()
        yield pg
    finally:
        pg.stop()


def test_plain_postgres_urls_get_the_async_driver() -> None:
    assert async_url("postgresql://u@h/db") == "postgresql+asyncpg://u@h/db"
    assert async_url("postgres://u@h:5/db") == "postgresql+asyncpg://u@h:5/db"
    assert async_url("postgresql+asyncpg://u@h/db") == "postgresql+asyncpg://u@h/db"
    assert async_url("sqlite+aiosqlite:///x.sqlite3") == "sqlite+aiosqlite:///x.sqlite3"


def test_migrations_create_the_tables(postgres: Postgres) -> None:
    async def body() -> None:
        store = await SqlStore.open(postgres.database())
        assert store.engine.url.drivername == "postgresql+asyncpg"
        assert store._sqlite is None
        async with store.engine.connect() as conn:
            names = await conn.run_sync(lambda c: set(inspect(c).get_table_names()))
        assert names == {"alembic_version", "tables", "events", "keys"} | {
            "accounts",
            "sessions",
            "aliases",
            "results",
            "result_seats",
            "ratings",
            "rating_changes",
        }
        key = await store.secret()
        assert len(key) == 32  # 64 hex digits
        assert await store.secret() == key  # kept, not made again
        await store.close()
        again = await SqlStore.open(store.url)  # migrating again at head changes nothing
        assert await again.secret() == key
        await again.close()

    run(body)


def test_grouped_appends_read_back_in_order_and_fail_alone(postgres: Postgres) -> None:
    async def body() -> None:
        store = await SqlStore.open(postgres.database())
        await check_grouped_appends(store, IntegrityError)
        # 40 appends of one event each to one table, all at once: read back as seq 1..40 in order.
        await asyncio.gather(
            *(store.append("a", [{"seq": s, "kind": "chat"}], "playing", None) for s in range(2, 42))
        )
        assert [e["seq"] for e in await store.events("a")] == list(range(1, 42))
        assert sorted(await store.live_ids()) == ["a", "b", "c"]
        await store.close()

    run(body)


def test_a_table_played_by_bots_is_restored_from_the_database(postgres: Postgres) -> None:
    async def body() -> None:
        url = postgres.database()
        lobby = Lobby(await SqlStore.open(url), FAST)
        finished = await lobby.create(lobby.options({"game": "tichu", "rounds": 1, "seed": 7}), owner="owner")
        watcher = Client(finished, "owner")
        await watcher.hello()
        await watcher.send(type="start", fill="heuristic")
        await wait_for(lambda: finished.status == "finished", [watcher])
        # A second table mid-round: its bots wait (a long delay), seat 0 has played one action.
        slow = Lobby(lobby.store, replace(FAST, bot_delay=60.0))
        playing = await slow.create(slow.options({"game": "tichu", "rounds": 1, "seed": 8}), owner="owner")
        sitter = Client(playing, "owner")
        await sitter.hello()
        await sitter.send(type="sit", seat=0)
        await sitter.send(type="start", fill="heuristic")
        await sitter.send(type="act", action="no-grand")
        await sitter.send(type="chat", text="hello")
        assert playing.actions == [(0, "no-grand")]
        seq, view = playing.seq, playing.view(0)
        await slow.close()
        await lobby.close()
        await lobby.store.close()

        store = await SqlStore.open(url)  # a fresh store and lobby on the same database
        stored = await store.get(finished.id)
        assert stored is not None
        assert stored.status == "finished"
        assert stored.record is not None
        assert tichu.Match.replay(stored.record).scores == tuple(finished.match.scores)
        assert [e["seq"] for e in await store.events(finished.id)] == list(range(1, finished.seq + 1))
        again = Lobby(store, FAST)
        assert await again.restore() == 1  # the finished table is not restarted; the playing one is
        restored = again.tables[playing.id]
        assert (restored.seq, restored.actions, restored.view(0)) == (seq, [(0, "no-grand")], view)
        assert restored.status == "playing"
        await again.close()
        await store.close()

    run(body)


def test_bad_requests_get_a_clear_refusal_on_postgres(postgres: Postgres, tmp_path: Path) -> None:
    # NUL in a table id, and an offset past 2**63, made asyncpg raise (500) before.
    with make_client(tmp_path, postgres.database()) as http:
        check_bad_requests(http)


def test_accounts_and_a_rated_match_on_postgres(postgres: Postgres) -> None:
    from .test_accounts import check_accounts, make, play_rated

    with make(postgres.database()) as http:
        check_accounts(http)
        http.post("/api/register", json={"name": "Bob", "password": "postgres password"})
        play_rated(http, rounds=1)
        for _ in range(200):
            if http.get("/api/players/bob").json()["recent"]:
                break
            time.sleep(0.02)
        profile = http.get("/api/players/bob").json()
        assert profile["ratings"]["doudizhu"]["games"] == 1
        assert [p["name"] for p in http.get("/api/leaderboard/doudizhu").json()["players"]] == ["Bob"]
