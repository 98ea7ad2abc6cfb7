"""Accounts across two real ``pagoda serve`` processes behind a real Redis, sharing one database.

Login and registration attempts are counted in buckets both processes share: failures at A
count at B, with the same ``429`` answer a single process gives and Redis keys that expire. A
guest seated at a table process B runs that registers, or logs in to an account, through
process A is renamed at B's table at once (seats, owner, connections, stored), and the rated
result of that table lands on the account, never on the merged guest's id. A rename that nobody
heard (the table's owner had just died) is caught up by the process that takes the table over.
"""

import asyncio
import json
import os
import signal
import sqlite3
import urllib.error
import urllib.request
from contextlib import closing
from pathlib import Path
from typing import Any

import redis

from pagoda.server.bus import owner_key

from .test_redis import get, join, node, redis_url  # noqa: F401  (the fixture)
from .test_restart import free_port, post, server

JSON = dict[str, Any]
BAD_LOGIN = "the name and password do not match an account"
#: Long enough that two account requests fit in a dead owner's lease on a busy machine.
LONG_LEASE = 6.0


def call(port: int, path: str, body: JSON, guest: str | None = None) -> tuple[int, JSON, dict[str, str]]:
    """POST ``body`` (as the guest of the token ``guest``): the status, the JSON and the headers."""
    headers = {"content-type": "application/json"}
    if guest is not None:
        headers["x-pagoda-guest"] = guest
    req = urllib.request.Request(
        f"http://127.0.0.1:{port}{path}", data=json.dumps(body).encode(), headers=headers, method="POST"
    )
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            return r.status, json.loads(r.read()), dict(r.headers)
    except urllib.error.HTTPError as e:
        with e:
            return e.code, json.loads(e.read()), dict(e.headers)


def test_login_and_registration_limits_are_shared_by_the_processes(tmp_path: Path, redis_url: str) -> None:  # noqa: F811
    db = tmp_path / "pagoda.sqlite3"
    port_a, port_b = free_port(), free_port()
    with node(db, port_a, redis_url), node(db, port_b, redis_url):
        assert call(port_a, "/api/register", {"name": "Ada", "password": "analytical engine"})[0] == 201
        # Five wrong passwords for one name (its burst), alternately at A and at B.
        for i in range(5):
            port = (port_a, port_b)[i % 2]
            status, body, _ = call(port, "/api/login", {"name": "ada", "password": f"guess {i} wrong"})
            assert (status, body["error"], body["message"]) == (401, "bad_login", BAD_LOGIN)
        # The sixth, at B (which has seen two), is refused even with the right password: B counts A's.
        status, body, headers = call(port_b, "/api/login", {"name": "ADA", "password": "analytical engine"})
        assert (status, body.get("error")) == (429, "too_many_attempts"), body
        assert body["message"] == "too many login attempts; try again in 60 seconds"
        assert headers["retry-after"] == "60"
        # And at A alike; an unknown name gets the same answers as a known one, so nothing tells them apart.
        assert call(port_a, "/api/login", {"name": "ada", "password": "analytical engine"})[0] == 429
        # Another spelling of the name (full-width letters: the same account) has no attempts of its own.
        assert call(port_b, "/api/login", {"name": "ＡＤＡ", "password": "analytical engine"})[0] == 429
        for i in range(5):
            status, body, _ = call(
                (port_b, port_a)[i % 2], "/api/login", {"name": "nobody_here", "password": "x"}
            )
            assert (status, body["message"]) == (401, BAD_LOGIN)
        status, body, _ = call(port_b, "/api/login", {"name": "nobody_here", "password": "x"})
        assert (status, body["message"]) == (429, "too many login attempts; try again in 60 seconds")

        # Registrations per address (a burst of 5): the first above, then four at B and A, then none.
        got = [
            call((port_b, port_a)[i % 2], "/api/register", {"name": f"user{i}", "password": "long enough"})[0]
            for i in range(5)
        ]
        assert got == [201, 201, 201, 201, 429]
        status, body, headers = call(port_a, "/api/register", {"name": "late_one", "password": "long enough"})
        assert (status, body["message"], headers["retry-after"]) == (
            429,
            "too many registration attempts; try again in 60 seconds",
            "60",
        )

        # Every bucket's key expires a second after it would be full again: nothing grows forever.
        client = redis.Redis.from_url(redis_url, decode_responses=True)
        try:
            keys = sorted(client.scan_iter("pagoda:limit:*"))
            assert keys == [
                "pagoda:limit:login:ip:127.0.0.1",
                "pagoda:limit:login:name:ada",
                "pagoda:limit:login:name:nobody_here",
                "pagoda:limit:register:ip:127.0.0.1",
            ]
            most = {"login:ip": 10 / 0.2, "login:name": 5 * 60.0, "register:ip": 5 * 60.0}
            for key in keys:
                kind = ":".join(key.split(":")[2:4])
                ttl = client.pttl(key)
                assert 0 < ttl <= most[kind] * 1000 + 1000, (key, ttl)
        finally:
            client.close()


async def renamed_and_rated(tmp_path: Path, redis_url: str) -> None:  # noqa: F811
    db = tmp_path / "pagoda.sqlite3"
    port_a, port_b = free_port(), free_port()
    with node(db, port_a, redis_url), node(db, port_b, redis_url):
        # An account that a guest will log in to later, made by someone else.
        status, bea, _ = call(port_a, "/api/register", {"name": "Bea", "password": "beatrice's secret"})
        assert status == 201
        bea_player = bea["player"]

        # A rated table run by B: guest X (its owner) plays from B, guest Y from A (relayed to B).
        made = post(port_b, "/api/tables", {"game": "doudizhu", "rounds": 1, "rated": True, "bot": "random"})
        table, x_guest = made["id"], made["guest"]
        y_guest = get(port_a, "/api/me")["guest"]
        x = await join(port_b, table, 0, guest=x_guest, name="Xu")
        y = await join(port_a, table, 1, guest=y_guest, name="Yo")
        await x.send(type="sit", seat=0)
        await y.send(type="sit", seat=1)
        await x.wait(lambda m: m["type"] == "table" and m["table"]["seats"][1]["name"] == "Yo")
        x_player = x.got[0]["you"]["player"]
        y_player = y.got[0]["you"]["player"]
        assert y_player != bea_player

        # X registers through A: B's table shows the account's name at X's seat at once.
        mark = len(x.got)
        status, ada, _ = call(
            port_a, "/api/register", {"name": "Ada", "password": "analytical engine"}, x_guest
        )
        assert (status, ada["player"]) == (201, x_player)
        seen = await x.wait(
            lambda m: m["type"] == "table" and m["table"]["seats"][0]["name"] == "Ada", 5, mark
        )
        assert seen["table"]["owner"] == x_player

        # Y logs in to Bea through A and is merged: at B's table its seat is Bea's, at once.
        mark = len(y.got)
        status, me, _ = call(port_a, "/api/login", {"name": "bea", "password": "beatrice's secret"}, y_guest)
        assert (status, me["player"]) == (200, bea_player)
        seen = await x.wait(
            lambda m: m["type"] == "table" and m["table"]["seats"][1]["player"] == bea_player, 5, mark
        )
        assert seen["table"]["seats"][1]["name"] == "Bea"
        await y.wait(
            lambda m: m["type"] == "table" and m["table"]["seats"][1]["player"] == bea_player, 5, mark
        )
        # Both processes' API say so: B from its running table, A from the seats B stored.
        for port in (port_b, port_a):
            seats = get(port, f"/api/tables/{table}")["seats"]
            assert [(s["player"], s["name"]) for s in seats[:2]] == [(x_player, "Ada"), (bea_player, "Bea")]

        # Y, now Bea, still plays from A: the match is played to its end and rated.
        await x.send(type="start", fill="random")
        for p in (x, y):
            await p.send(type="autoplay", on=True)
        await x.wait(lambda m: m["type"] == "event" and m["event"]["kind"] == "match_over", 60)
        for _ in range(200):
            with closing(sqlite3.connect(db)) as conn:
                changes = conn.execute(
                    "SELECT player FROM rating_changes WHERE table_id = ? ORDER BY player", (table,)
                ).fetchall()
            if changes:
                break
            await asyncio.sleep(0.05)
        with closing(sqlite3.connect(db)) as conn:
            seats = conn.execute(
                "SELECT seat, player FROM result_seats WHERE table_id = ? ORDER BY seat", (table,)
            ).fetchall()
            rated = dict(conn.execute("SELECT player, games FROM ratings WHERE game = 'doudizhu'").fetchall())
        assert sorted(p for (p,) in changes) == sorted([x_player, bea_player, "bot:random"])
        assert seats == [(0, x_player), (1, bea_player), (2, None)]
        assert rated == {x_player: 1, bea_player: 1, "bot:random": 1}
        assert y_player not in rated
        profile = get(port_b, "/api/players/Bea")
        assert profile["ratings"]["doudizhu"]["games"] == 1
        assert [m["id"] for m in profile["recent"]] == [table]
        assert profile["recent"][0]["change"] is not None  # the change is the account's
        for p in (x, y):
            await p.ws.close()


def test_a_guest_merged_at_one_process_is_the_account_at_the_others_tables(
    tmp_path: Path,
    redis_url: str,  # noqa: F811
) -> None:
    asyncio.run(asyncio.wait_for(renamed_and_rated(tmp_path, redis_url), 120))


async def renamed_while_ownerless(tmp_path: Path, redis_url: str) -> None:  # noqa: F811
    db = tmp_path / "pagoda.sqlite3"
    port_a, port_b = free_port(), free_port()
    lease = ["--redis", redis_url, "--lease", str(LONG_LEASE)]
    with (
        server(db, port_a, lease, tmp_path / "a.log"),
        server(db, port_b, lease, tmp_path / "b.log") as proc_b,
    ):
        status, bea, _ = call(port_a, "/api/register", {"name": "Bea", "password": "beatrice's secret"})
        assert status == 201
        made = post(port_b, "/api/tables", {"game": "tichu", "bot": "random"})
        table = made["id"]
        x_guest, y_guest = made["guest"], get(port_a, "/api/me")["guest"]
        x = await join(port_a, table, 0, guest=x_guest, name="Xu")  # both on A: B runs the table
        y = await join(port_a, table, 1, guest=y_guest, name="Yo")
        await x.send(type="sit", seat=0)
        await y.send(type="sit", seat=1)
        await x.wait(lambda m: m["type"] == "table" and m["table"]["seats"][1]["name"] == "Yo")
        x_player = x.got[0]["you"]["player"]

        # B dies; within its lease nobody runs the table, and X registers and Y logs in through A.
        os.kill(proc_b.pid, signal.SIGKILL)
        proc_b.wait(timeout=10)
        mark_x, mark_y = len(x.got), len(y.got)
        assert (
            call(port_a, "/api/register", {"name": "Ada", "password": "analytical engine"}, x_guest)[0] == 201
        )
        assert call(port_a, "/api/login", {"name": "bea", "password": "beatrice's secret"}, y_guest)[0] == 200
        client = redis.Redis.from_url(redis_url, decode_responses=True)
        try:
            assert client.get(owner_key(table)) is not None, "the lease ran out before the renames"
        finally:
            client.close()

        # A takes the table over from the database, where the seats are still the guests': it
        # renames them as it starts, and X and Y are back in their seats as the accounts.
        welcome_y = await y.wait(lambda m: m["type"] == "welcome", 3 * LONG_LEASE, mark_y)
        assert (welcome_y["you"]["player"], welcome_y["you"]["seat"]) == (bea["player"], 1)
        await x.wait(lambda m: m["type"] == "welcome", 3 * LONG_LEASE, mark_x)
        await x.wait(
            lambda m: (
                m["type"] == "table"
                and [(s["player"], s["name"]) for s in m["table"]["seats"][:2]]
                == [(x_player, "Ada"), (bea["player"], "Bea")]
            ),
            10,
            mark_x,
        )
        with closing(sqlite3.connect(db)) as conn:
            (last,) = conn.execute(
                "SELECT data FROM events WHERE table_id = ? AND kind = 'seats' ORDER BY seq DESC LIMIT 1",
                (table,),
            ).fetchone()
        stored = json.loads(last)["seats"]
        assert [(s["player"], s["name"]) for s in stored[:2]] == [(x_player, "Ada"), (bea["player"], "Bea")]
        for p in (x, y):
            await p.ws.close()


def test_a_table_taken_over_after_a_rename_nobody_heard_renames_its_guests(
    tmp_path: Path,
    redis_url: str,  # noqa: F811
) -> None:
    asyncio.run(asyncio.wait_for(renamed_while_ownerless(tmp_path, redis_url), 120))
