"""Persistence: each table's options, its record and an append-only log of its events.

SQLAlchemy 2 async over ``sqlite+aiosqlite`` by default (a file in the data folder) or any URL
it supports (Postgres: ``postgresql+asyncpg://...``, from ``PAGODA_DATABASE_URL``). The schema
is created and upgraded by the Alembic migrations in :mod:`pagoda.server.migrations`, run at
start-up. Only the record and the events are stored, never a game state: a table is restored
by replaying its record.
"""

import asyncio
import json
import secrets
import time
from dataclasses import dataclass
from importlib import resources
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import (
    BigInteger,
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
    func,
    insert,
    select,
    update,
)
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from pagoda.core import parse_record

JSON = dict[str, Any]

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


def default_url(data_dir: str) -> str:
    """The SQLite URL of the database file in ``data_dir``."""
    return f"sqlite+aiosqlite:///{data_dir.rstrip('/')}/pagoda.sqlite3"


def migrate(url: str) -> None:
    """Bring the database at ``url`` to the latest schema (blocking; creates it if need be)."""
    cfg = Config()
    cfg.set_main_option("script_location", str(resources.files("pagoda.server") / "migrations"))
    cfg.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    command.upgrade(cfg, "head")


class SqlStore:
    """The store over one async engine; every write is one transaction."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.engine: AsyncEngine = create_async_engine(url)
        self._write = asyncio.Lock()

    @classmethod
    async def open(cls, url: str) -> "SqlStore":
        """Migrate the database (in a worker thread: Alembic runs its own loop), then connect."""
        await asyncio.to_thread(migrate, url)
        return cls(url)

    async def close(self) -> None:
        """Release the connections."""
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
                )
            )

    async def append(self, table_id: str, new: list[JSON], status: str, record: str | None) -> None:
        """Append events, set the status and (when given) the record, in one transaction."""
        async with self._write, self.engine.begin() as conn:
            if new:
                rows = [
                    {"table_id": table_id, "seq": e["seq"], "kind": e["kind"], "data": json.dumps(e)}
                    for e in new
                ]
                await conn.execute(insert(events), rows)
            values: JSON = {"status": status, "updated": time.time()}
            if record is not None:
                values["record"] = record
            await conn.execute(update(tables).where(tables.c.id == table_id).values(**values))

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
        )

    async def get(self, table_id: str) -> StoredTable | None:
        """One table, or None."""
        async with self.engine.connect() as conn:
            row = (await conn.execute(select(tables).where(tables.c.id == table_id))).first()
        return None if row is None else self._row(row)

    async def live(self) -> list[StoredTable]:
        """The tables not finished: those to restore at start-up."""
        async with self.engine.connect() as conn:
            rows = (await conn.execute(select(tables).where(tables.c.status != "finished"))).all()
        return [self._row(r) for r in rows]

    async def live_ids(self) -> list[str]:
        """The ids of the tables not finished."""
        async with self.engine.connect() as conn:
            rows = (await conn.execute(select(tables.c.id).where(tables.c.status != "finished"))).all()
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

    async def finished(self, limit: int = 50, offset: int = 0) -> list[StoredTable]:
        """Finished tables, the latest first."""
        query = (
            select(tables)
            .where(tables.c.status == "finished")
            .order_by(tables.c.updated.desc())
            .limit(limit)
            .offset(offset)
        )
        async with self.engine.connect() as conn:
            rows = (await conn.execute(query)).all()
        return [self._row(r) for r in rows]

    async def events(self, table_id: str) -> list[JSON]:
        """The table's event log in order."""
        query = select(events.c.data).where(events.c.table_id == table_id).order_by(events.c.seq)
        async with self.engine.connect() as conn:
            rows = (await conn.execute(query)).all()
        return [json.loads(r[0]) for r in rows]


def record_actions(record: str | None) -> list[tuple[int, str]]:
    """The actions of a stored record (none when there is no record yet)."""
    if not record:
        return []
    return list(parse_record(record).actions)
