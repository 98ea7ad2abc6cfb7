"""Persistence: each table's options, its record and an append-only log of its events.

SQLAlchemy 2 async over ``sqlite+aiosqlite`` by default (a file in the data folder) or any URL
it supports (Postgres: ``postgresql://...``, driven by asyncpg, from ``PAGODA_DATABASE_URL``). The schema
is created and upgraded by the Alembic migrations in :mod:`pagoda.server.migrations`, run at
start-up. Only the record and the events are stored, never a game state: a table is restored
by replaying its record.
"""

import asyncio
import json
import secrets
import sqlite3
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from importlib import resources
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
    bindparam,
    event,
    func,
    insert,
    select,
    update,
)
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from pagoda.core import parse_record

JSON = dict[str, Any]
#: The statuses of a table that runs: restored at start-up. A finished table is history; an
#: ``expired`` lobby table was left empty past the lobby's time limit; a ``broken`` one failed to
#: restore (its record does not replay) and is kept aside, not retried.
LIVE = ("lobby", "playing")
BROKEN = "broken"

metadata = MetaData()

tables = Table(
    "tables",
    metadata,
    Column("id", String(64), primary_key=True),
    Column("game", String(32), nullable=False),
    Column("options", Text, nullable=False),
    Column("owner", String(64), nullable=False),
    Column("invite", String(64), nullable=False),
    Column("status", String(16), nullable=False),
    Column("record", Text, nullable=True),
    Column("created", Float, nullable=False),
    Column("updated", Float, nullable=False),
    Column("rated", Boolean, nullable=False, default=False),
    Index("ix_tables_status", "status"),
)

events = Table(
    "events",
    metadata,
    Column("id", BigInteger().with_variant(Integer, "sqlite"), primary_key=True, autoincrement=True),
    Column("table_id", String(64), ForeignKey("tables.id"), nullable=False),
    Column("seq", Integer, nullable=False),
    Column("kind", String(32), nullable=False),
    Column("data", Text, nullable=False),
    UniqueConstraint("table_id", "seq", name="uq_events_table_seq"),
)

keys = Table(
    "keys",
    metadata,
    Column("name", String(64), primary_key=True),
    Column("value", String(256), nullable=False),
)

_ID = BigInteger().with_variant(Integer, "sqlite")

#: Accounts (migration 0002): ``player`` is the player id the account plays as (the guest id
#: that registered it); ``name_key`` the name folded for the case-insensitive uniqueness;
#: ``password`` an argon2 hash.
accounts = Table(
    "accounts",
    metadata,
    Column("id", _ID, primary_key=True, autoincrement=True),
    Column("name", String(64), nullable=False),
    Column("name_key", String(96), nullable=False),
    Column("player", String(64), nullable=False),
    Column("password", String(256), nullable=False),
    Column("created", Float, nullable=False),
    Column("updated", Float, nullable=False),
    UniqueConstraint("name_key", name="uq_accounts_name_key"),
    UniqueConstraint("player", name="uq_accounts_player"),
)

#: Logged-in sessions: the SHA-256 of the session token (the token itself is only in the cookie).
sessions = Table(
    "sessions",
    metadata,
    Column("token_hash", String(64), primary_key=True),
    Column("account_id", _ID, ForeignKey("accounts.id"), nullable=False),
    Column("created", Float, nullable=False),
    Column("expires", Float, nullable=False),
    Index("ix_sessions_account", "account_id"),
)

#: Guest ids merged into an account when that guest logged in: their tables are the account's.
aliases = Table(
    "aliases",
    metadata,
    Column("player", String(64), primary_key=True),
    Column("account_id", _ID, ForeignKey("accounts.id"), nullable=False),
    Column("created", Float, nullable=False),
    Index("ix_aliases_account", "account_id"),
)

#: A finished match's result, written once (its primary key is what makes a rating apply once).
results = Table(
    "results",
    metadata,
    Column("table_id", String(64), ForeignKey("tables.id"), primary_key=True),
    Column("game", String(32), nullable=False),
    Column("rated", Boolean, nullable=False),
    Column("scores", Text, nullable=False),
    Column("winner", Integer, nullable=True),
    Column("finished", Float, nullable=False),
    Index("ix_results_finished", "finished"),
)

#: Who sat where in a finished match: its team, score, whether it won or abandoned.
result_seats = Table(
    "result_seats",
    metadata,
    Column("table_id", String(64), ForeignKey("results.table_id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("player", String(64), nullable=True),
    Column("bot", String(32), nullable=True),
    Column("name", String(64), nullable=True),
    Column("team", Integer, nullable=False),
    Column("score", Integer, nullable=False),
    Column("won", Boolean, nullable=False),
    Column("abandoned", Boolean, nullable=False),
    Index("ix_result_seats_player", "player"),
)

#: Each rated player's (and bot's, as ``bot:<level>``) rating per game.
ratings = Table(
    "ratings",
    metadata,
    Column("player", String(64), primary_key=True),
    Column("game", String(32), primary_key=True),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("ordinal", Float, nullable=False),
    Column("games", Integer, nullable=False),
    Column("wins", Integer, nullable=False),
    Column("updated", Float, nullable=False),
    Index("ix_ratings_game_ordinal", "game", "ordinal"),
)

#: Every change a rated match made to a rating: before and after.
rating_changes = Table(
    "rating_changes",
    metadata,
    Column("id", _ID, primary_key=True, autoincrement=True),
    Column("table_id", String(64), ForeignKey("results.table_id"), nullable=False),
    Column("player", String(64), nullable=False),
    Column("game", String(32), nullable=False),
    Column("mu_before", Float, nullable=False),
    Column("sigma_before", Float, nullable=False),
    Column("mu_after", Float, nullable=False),
    Column("sigma_after", Float, nullable=False),
    Column("created", Float, nullable=False),
    UniqueConstraint("table_id", "player", name="uq_rating_changes_table_player"),
    Index("ix_rating_changes_player", "player"),
)


@dataclass(frozen=True, slots=True)
class StoredTable:
    """A table as stored: what it takes to restore it."""

    id: str
    game: str
    options: JSON
    owner: str
    invite: str
    status: str
    record: str | None
    created: float
    updated: float = 0.0


# SQLite's synchronous setting: "full" syncs the disk at every commit (nothing acknowledged is lost
# even on a power cut); "normal" (with the write-ahead log) keeps every commit across a crash or
# SIGKILL of the server but may lose the last ones on a power cut or an OS crash.
SYNCHRONOUS = ("full", "normal")


def default_url(data_dir: str) -> str:
    """The SQLite URL of the database file in ``data_dir``."""
    return f"sqlite+aiosqlite:///{data_dir.rstrip('/')}/pagoda.sqlite3"


def async_url(url: str) -> str:
    """``url`` with its async driver named: a plain ``postgresql://`` (or ``postgres://``) gets asyncpg."""
    for plain in ("postgresql://", "postgres://"):
        if url.startswith(plain):
            return "postgresql+asyncpg://" + url[len(plain) :]
    return url


def migrate(url: str) -> None:
    """Bring the database at ``url`` to the latest schema (blocking; creates it if need be)."""
    url = async_url(url)
    cfg = Config()
    cfg.set_main_option("script_location", str(resources.files("pagoda.server") / "migrations"))
    cfg.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    command.upgrade(cfg, "head")


class _Append:
    """One table's :meth:`SqlStore.append`, waiting for the transaction that writes it."""

    __slots__ = ("events", "future", "record", "status", "table_id")

    def __init__(self, table_id: str, events: list[JSON], status: str, record: str | None) -> None:
        self.table_id = table_id
        self.events = events
        self.status = status
        self.record = record
        self.future: asyncio.Future[None] = asyncio.get_running_loop().create_future()


_INSERT_EVENTS = "INSERT INTO events (table_id, seq, kind, data) VALUES (:table_id, :seq, :kind, :data)"
_UPDATE_WITH_RECORD = "UPDATE tables SET status = :s, updated = :u, record = :r WHERE id = :tid"
_UPDATE_STATUS = "UPDATE tables SET status = :s, updated = :u WHERE id = :tid"


class _SqliteWriter:
    """The appends' transactions on a SQLite file, written by one thread with the standard ``sqlite3``.

    A group of appends is one call into the thread (the statements run there, in C), where the
    async engine would cross to its thread for every statement, cursor and commit and spend the
    event loop's time on SQLAlchemy's execution of each.
    """

    def __init__(self, path: str, pragmas: tuple[str, ...]) -> None:
        self.path = path
        self.pragmas = pragmas
        self.thread = ThreadPoolExecutor(1, thread_name_prefix="pagoda-sqlite-writer")
        self.conn: sqlite3.Connection | None = None
        self.closed = False

    def _write(self, rows: list[JSON], with_record: list[JSON], without: list[JSON]) -> None:
        if self.conn is None:
            self.conn = sqlite3.connect(self.path, timeout=10.0, isolation_level=None)
            for pragma in self.pragmas:
                self.conn.execute(pragma)
        conn = self.conn
        conn.execute("BEGIN IMMEDIATE")
        try:
            if rows:
                conn.executemany(_INSERT_EVENTS, rows)
            if with_record:
                conn.executemany(_UPDATE_WITH_RECORD, with_record)
            if without:
                conn.executemany(_UPDATE_STATUS, without)
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise

    async def write(self, rows: list[JSON], with_record: list[JSON], without: list[JSON]) -> None:
        """Write the rows and updates in one transaction; returns once it is committed."""
        await asyncio.get_running_loop().run_in_executor(self.thread, self._write, rows, with_record, without)

    def _close(self) -> None:
        if self.conn is not None:
            self.conn.close()
            self.conn = None

    async def close(self) -> None:
        """Close the connection and end the thread (once; later calls do nothing)."""
        if self.closed:
            return
        self.closed = True
        await asyncio.get_running_loop().run_in_executor(self.thread, self._close)
        self.thread.shutdown()


class SqlStore:
    """The store over one async engine; every write is one transaction.

    Appends are committed in groups: while one transaction is being written, the appends of other
    tables that arrive wait and are then written together in the next one. Each caller still
    returns only once its own events are committed (and a group that fails is retried one append
    at a time, so one table's failure is its own). On a SQLite file the appends are written by a
    thread of their own with the standard ``sqlite3`` module (:class:`_SqliteWriter`).
    """

    def __init__(self, url: str, synchronous: str = "full") -> None:
        if synchronous not in SYNCHRONOUS:
            raise ValueError(f"synchronous must be one of {', '.join(SYNCHRONOUS)}, not {synchronous!r}")
        self.url = url = async_url(url)
        self.engine: AsyncEngine = create_async_engine(url)
        self._write = asyncio.Lock()
        self._pending: list[_Append] = []
        self._writer: asyncio.Task[None] | None = None
        self._sqlite: _SqliteWriter | None = None
        if url.startswith("sqlite"):
            # Write-ahead logging: readers (other processes too) do not block the writer.
            pragmas = (
                "PRAGMA journal_mode=WAL",
                "PRAGMA busy_timeout=10000",
                f"PRAGMA synchronous={synchronous}",
            )

            def on_connect(dbapi_conn: Any, record: Any) -> None:
                cursor = dbapi_conn.cursor()
                for pragma in pragmas:
                    cursor.execute(pragma)
                cursor.close()

            event.listen(self.engine.sync_engine, "connect", on_connect)
            parsed = self.engine.url  # a plain file, as SQLAlchemy reads the URL (no query options)
            plain = parsed.drivername == "sqlite+aiosqlite" and not parsed.query
            if plain and parsed.database not in (None, "", ":memory:"):
                self._sqlite = _SqliteWriter(str(parsed.database), pragmas)

    @classmethod
    async def open(cls, url: str, synchronous: str = "full") -> "SqlStore":
        """Migrate the database (in a worker thread: Alembic runs its own loop), then connect."""
        await asyncio.to_thread(migrate, url)
        return cls(url, synchronous)

    async def close(self) -> None:
        """Finish the pending writes, then release the connections."""
        if self._writer is not None:
            await self._writer
        if self._sqlite is not None:
            await self._sqlite.close()
        await self.engine.dispose()

    async def secret(self, name: str = "signing") -> bytes:
        """The server's signing key, made on first use and kept in the database."""
        async with self._write, self.engine.begin() as conn:
            row = (await conn.execute(select(keys.c.value).where(keys.c.name == name))).first()
            if row is not None:
                return bytes.fromhex(row[0])
            value = secrets.token_hex(32)
            await conn.execute(insert(keys).values(name=name, value=value))
            return bytes.fromhex(value)

    async def create(self, table_id: str, game: str, options: JSON, owner: str, invite: str) -> None:
        """Store a new table in the lobby."""
        now = time.time()
        async with self._write, self.engine.begin() as conn:
            await conn.execute(
                insert(tables).values(
                    id=table_id,
                    game=game,
                    options=json.dumps(options),
                    owner=owner,
                    invite=invite,
                    status="lobby",
                    record=None,
                    created=now,
                    updated=now,
                    rated=bool(options.get("rated", False)),
                )
            )

    async def append(self, table_id: str, new: list[JSON], status: str, record: str | None) -> None:
        """Append events, set the status and (when given) the record; returns once committed."""
        item = _Append(table_id, new, status, record)
        self._pending.append(item)
        if self._writer is None or self._writer.done():
            self._writer = asyncio.get_running_loop().create_task(self._write_pending())
        await asyncio.shield(item.future)

    async def _write_pending(self) -> None:
        while self._pending:
            batch, self._pending = self._pending, []
            try:
                await self._write_batch(batch)
            except Exception as e:
                if len(batch) == 1:
                    _settle(batch[0], e)
                    continue
                for item in batch:  # find the append that failed: each in its own transaction
                    try:
                        await self._write_batch([item])
                    except Exception as e1:
                        _settle(item, e1)
                    else:
                        _settle(item, None)
                continue
            for item in batch:
                _settle(item, None)

    async def _write_batch(self, batch: list[_Append]) -> None:
        rows = [
            {"table_id": a.table_id, "seq": e["seq"], "kind": e["kind"], "data": json.dumps(e)}
            for a in batch
            for e in a.events
        ]
        now = time.time()
        last: dict[str, JSON] = {}  # per table: its latest status and record
        for a in batch:
            values = last.setdefault(a.table_id, {"tid": a.table_id, "r": None})
            values["s"], values["u"] = a.status, now
            if a.record is not None:
                values["r"] = a.record
        with_record = [v for v in last.values() if v["r"] is not None]
        without = [{"tid": v["tid"], "s": v["s"], "u": v["u"]} for v in last.values() if v["r"] is None]
        if self._sqlite is not None:
            async with self._write:
                await self._sqlite.write(rows, with_record, without)
            return
        where = tables.c.id == bindparam("tid")
        status, updated = bindparam("s", type_=String), bindparam("u", type_=Float)
        async with self._write, self.engine.begin() as conn:
            if rows:
                await conn.execute(insert(events), rows)
            if with_record:
                query = (
                    update(tables).where(where).values(status=status, updated=updated, record=bindparam("r"))
                )
                await conn.execute(query, with_record)
            if without:
                await conn.execute(
                    update(tables).where(where).values(status=status, updated=updated), without
                )

    def _row(self, row: Any) -> StoredTable:
        return StoredTable(
            id=row.id,
            game=row.game,
            options=json.loads(row.options),
            owner=row.owner,
            invite=row.invite,
            status=row.status,
            record=row.record,
            created=row.created,
            updated=row.updated,
        )

    async def get(self, table_id: str) -> StoredTable | None:
        """One table, or None."""
        async with self.engine.connect() as conn:
            row = (await conn.execute(select(tables).where(tables.c.id == table_id))).first()
        return None if row is None else self._row(row)

    async def live(self) -> list[StoredTable]:
        """The tables in the lobby or playing: those to restore at start-up."""
        async with self.engine.connect() as conn:
            rows = (await conn.execute(select(tables).where(tables.c.status.in_(LIVE)))).all()
        return [self._row(r) for r in rows]

    async def live_ids(self) -> list[str]:
        """The ids of the tables in the lobby or playing."""
        async with self.engine.connect() as conn:
            rows = (await conn.execute(select(tables.c.id).where(tables.c.status.in_(LIVE)))).all()
        return [r[0] for r in rows]

    async def latest(self, table_ids: list[str], kind: str) -> dict[str, JSON]:
        """The latest event of ``kind`` of each of ``table_ids`` that has one."""
        if not table_ids:
            return {}
        last = (
            select(func.max(events.c.id))
            .where(events.c.kind == kind, events.c.table_id.in_(table_ids))
            .group_by(events.c.table_id)
        )
        query = select(events.c.table_id, events.c.data).where(events.c.id.in_(last))
        async with self.engine.connect() as conn:
            rows = (await conn.execute(query)).all()
        return {r[0]: json.loads(r[1]) for r in rows}

    async def finished(self, limit: int = 50, offset: int = 0, public: bool = False) -> list[StoredTable]:
        """Finished tables, the latest first; with ``public``, the open ones only."""
        where = tables.c.status == "finished"
        if public:
            # The options are stored as json.dumps writes them, and their only free strings
            # (preset and bot) are checked names: this text is the open flag and nothing else.
            where = where & tables.c.options.not_like('%"open": false%')
        query = select(tables).where(where).order_by(tables.c.updated.desc()).limit(limit).offset(offset)
        async with self.engine.connect() as conn:
            rows = (await conn.execute(query)).all()
        return [self._row(r) for r in rows]

    async def events(self, table_id: str) -> list[JSON]:
        """The table's event log in order."""
        query = select(events.c.data).where(events.c.table_id == table_id).order_by(events.c.seq)
        async with self.engine.connect() as conn:
            rows = (await conn.execute(query)).all()
        return [json.loads(r[0]) for r in rows]


def _settle(item: _Append, failure: BaseException | None) -> None:
    if item.future.done():
        return
    if failure is None:
        item.future.set_result(None)
    else:
        item.future.set_exception(failure)


async def mark_broken(store: "SqlStore", table_id: str) -> None:
    """Set a table that cannot be restored aside: it is no longer live, and its rows are kept."""
    await store.append(table_id, [], BROKEN, None)


def record_actions(record: str | None) -> list[tuple[int, str]]:
    """The actions of a stored record (none when there is no record yet)."""
    if not record:
        return []
    return list(parse_record(record).actions)
