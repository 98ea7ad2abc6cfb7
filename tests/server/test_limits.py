"""The server's limits and defences, in process (docs/server.md, "Limits and defences")."""

import asyncio
from dataclasses import replace
from pathlib import Path
from typing import Any

from pagoda.server.lobby import Lobby
from pagoda.server.table import Conn, Settings, Table

from .helpers import FAST, Client, open_lobby, run


async def _table(tmp: Path, settings: Settings = FAST, **options: Any) -> tuple[Lobby, Table]:
    lobby = await open_lobby(tmp, settings)
    opts = lobby.options({"game": "tichu", "rounds": 1, **options})
    return lobby, await lobby.create(opts, owner="owner")


async def _shut(lobby: Lobby) -> None:
    await lobby.close()
    await lobby.store.close()


# ---------------------------------------------------------------------- outbox and long histories


def test_a_full_outbox_still_takes_the_close() -> None:
    async def body() -> None:
        conn = Conn("p", "P", "g", outbox=4)
        for i in range(4):
            conn.send({"type": "pong", "ref": i})
        assert conn.outbox.full()
        conn.send({"type": "pong", "ref": 99})  # overflows: the connection is closed
        assert conn.closed
        queued = [conn.outbox.get_nowait() for _ in range(conn.outbox.qsize())]
        assert queued[-1] is None  # the writer sees the close

    run(body)


def test_since_far_back_gets_the_snapshot_instead_of_the_events(tmp_path: Path) -> None:
    async def body() -> None:
        settings = replace(FAST, replay_limit=20)
        lobby, table = await _table(tmp_path, settings)
        owner = Client(table, "owner", "Ann")
        await owner.hello()
        for i in range(30):
            await owner.send(type="chat", text=f"line {i}")
        assert table.seq == 30
        browser = Client(table, "b", "Bo")
        new = await browser.hello(since=0)  # what the browser sends on its first connect
        assert [m["type"] for m in new] == ["welcome", "snapshot", "table"]
        assert new[1]["seq"] == 30
        near = Client(table, "c", "Cy")
        new = await near.hello(since=10)  # 20 back: within the limit, replayed
        assert [m["type"] for m in new] == ["welcome", *["event"] * 20, "snapshot", "table"]
        assert [m["seq"] for m in new[1:21]] == list(range(11, 31))
        new = await near.send(type="resync", since=0)
        assert [m["type"] for m in new] == ["snapshot"]
        await _shut(lobby)

    run(body)


def test_a_replay_that_overflows_the_outbox_closes_the_connection(tmp_path: Path) -> None:
    async def body() -> None:
        settings = replace(FAST, outbox=8, replay_limit=1000)
        lobby, table = await _table(tmp_path, settings)
        owner = Client(table, "owner", "Ann")
        await owner.hello()
        for i in range(20):
            await owner.send(type="chat", text=f"line {i}")
        slow = Conn("s", "Sy", "g-s", outbox=8)
        table.join(slow, {"type": "hello", "protocol": 1, "since": 0})
        await table.call(lambda: None)
        assert slow.closed
        assert [slow.outbox.get_nowait() for _ in range(slow.outbox.qsize())][-1] is None
        await asyncio.sleep(0)
        await _shut(lobby)

    run(body)
