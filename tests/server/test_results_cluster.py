"""Two real ``pagoda serve`` processes behind a real Redis never apply one match's rating twice.

The owner of a rated table dies the moment its match ends: ``match_over`` is stored, its result and
ratings are not. Both processes then sweep for finished matches without a result at once, on the
shared database: one writes the result and the rating changes, the other's insert of the same
result fails on its key and changes nothing. The same on SQLite (one file) and on PostgreSQL (the
store a cluster of machines shares), where the loser's failed insert must also leave its
transaction clean for the next write.
"""

import asyncio
import time
from collections.abc import Sequence
from contextlib import ExitStack
from dataclasses import replace
from pathlib import Path
from typing import Any

from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine

from pagoda.server.lobby import Lobby
from pagoda.server.store import SqlStore, async_url, default_url

from .helpers import FAST, Client, run
from .test_postgres import Postgres, postgres  # noqa: F401  (the fixture)
from .test_redis import node, redis_url  # noqa: F401  (the fixture)
from .test_restart import free_port


def rows(url: str, sql: str) -> Sequence[Any]:
    """The rows ``sql`` reads from the database at ``url`` (SQLite or PostgreSQL)."""

    async def body() -> Sequence[Any]:
        engine = create_async_engine(async_url(url))
        try:
            async with engine.connect() as conn:
                return (await conn.execute(text(sql))).all()
        finally:
            await engine.dispose()

    return run(body)


def finished_unrated(url: str, n: int) -> list[str]:
    """``n`` rated matches played to their end by a lobby that dies before writing their results."""

    async def body() -> list[str]:
        lobby = Lobby(await SqlStore.open(url), FAST)
        lobby._over = lambda table: None  # type: ignore[method-assign]  # the owner dies here
        ids = []
        for i in range(n):
            # (a rated table takes no seed from its creator: the test sets one for a known deal)
            options = replace(
                lobby.options({"game": "doudizhu", "rounds": 1, "rated": True, "bot": "random"}), seed=i
            )
            table = await lobby.create(options, owner=f"p{i}")
            ann = Client(table, f"p{i}")
            await ann.hello()
            await ann.send(type="sit", seat=0)
            await ann.send(type="start", fill="random")
            await ann.send(type="autoplay", on=True)
            for _ in range(3000):
                if table.status == "finished":
                    break
                await asyncio.sleep(0.01)
            assert table.status == "finished"
            ids.append(table.id)
        await lobby.close()
        await lobby.store.close()
        return ids

    return run(body)


def check_applied_once(tmp: Path, url: str, redis: str) -> None:
    ids = finished_unrated(url, 3)
    assert rows(url, "SELECT count(*) FROM results") == [(0,)]
    with ExitStack() as stack:
        for port in (free_port(), free_port()):  # both start (and sweep) together
            stack.enter_context(node(tmp / "pagoda.sqlite3", port, redis, url))
        for _ in range(300):
            if rows(url, "SELECT count(*) FROM results") == [(len(ids),)]:
                break
            time.sleep(0.05)
        time.sleep(1.0)  # the slower process's sweep, done too
    got = rows(url, "SELECT table_id, player, count(*) FROM rating_changes GROUP BY table_id, player")
    games = dict(rows(url, "SELECT player, games FROM ratings"))
    assert rows(url, "SELECT count(*) FROM results") == [(len(ids),)]
    assert sorted({t for t, _, _ in got}) == sorted(ids)
    assert all(n == 1 for _, _, n in got)  # each match changed each rating once
    # 3 matches: p0, p1, p2 one each; the random bots' shared rating, 3 (bots are rated too)
    assert games == {"p0": 1, "p1": 1, "p2": 1, "bot:random": 3}


def test_two_processes_apply_a_rating_once_when_the_owner_died_as_the_match_ended(
    tmp_path: Path,
    redis_url: str,  # noqa: F811
) -> None:
    check_applied_once(tmp_path, default_url(str(tmp_path)), redis_url)


def test_the_same_on_postgres(
    tmp_path: Path,
    redis_url: str,  # noqa: F811
    postgres: Postgres,  # noqa: F811
) -> None:
    check_applied_once(tmp_path, postgres.database(), redis_url)
