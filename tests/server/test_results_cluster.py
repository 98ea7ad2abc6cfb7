"""Two real ``pagoda serve`` processes behind a real Redis never apply one match's rating twice.

The owner of a rated table dies the moment its match ends: ``match_over`` is stored, its result and
ratings are not. Both processes then sweep for finished matches without a result at once, on the
shared database: one writes the result and the rating changes, the other's insert of the same
result fails on its key and changes nothing.
"""

import asyncio
import sqlite3
import time
from contextlib import ExitStack, closing
from pathlib import Path

from .helpers import Client, open_lobby, run
from .test_redis import node, redis_url  # noqa: F401  (the fixture)
from .test_restart import free_port


def finished_unrated(tmp: Path, n: int) -> tuple[Path, list[str]]:
    """``n`` rated matches played to their end by a lobby that dies before writing their results."""

    async def body() -> list[str]:
        lobby = await open_lobby(tmp)
        lobby._over = lambda table: None  # type: ignore[method-assign]  # the owner dies here
        ids = []
        for i in range(n):
            options = lobby.options(
                {"game": "doudizhu", "rounds": 1, "rated": True, "bot": "random", "seed": i}
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

    return tmp / "pagoda.sqlite3", run(body)


def test_two_processes_apply_a_rating_once_when_the_owner_died_as_the_match_ended(
    tmp_path: Path,
    redis_url: str,  # noqa: F811
) -> None:
    db, ids = finished_unrated(tmp_path, 3)
    with closing(sqlite3.connect(db)) as conn:
        assert conn.execute("SELECT count(*) FROM results").fetchone() == (0,)
    with ExitStack() as stack:
        for port in (free_port(), free_port()):  # both start (and sweep) together
            stack.enter_context(node(db, port, redis_url))
        for _ in range(300):
            with closing(sqlite3.connect(db)) as conn:
                if conn.execute("SELECT count(*) FROM results").fetchone() == (len(ids),):
                    break
            time.sleep(0.05)
        time.sleep(1.0)  # the slower process's sweep, done too
    with closing(sqlite3.connect(db)) as conn:
        got = conn.execute(
            "SELECT table_id, player, count(*) FROM rating_changes GROUP BY table_id, player"
        ).fetchall()
        games = dict(conn.execute("SELECT player, games FROM ratings").fetchall())
        results = conn.execute("SELECT count(*) FROM results").fetchone()
    assert results == (len(ids),)
    assert sorted({t for t, _, _ in got}) == sorted(ids)
    assert all(n == 1 for _, _, n in got)  # each match changed each rating once
    assert games == {"p0": 1, "p1": 1, "p2": 1, "bot:random": 3}
