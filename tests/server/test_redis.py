"""Two real ``pagoda serve`` processes behind a real Redis share one SQLite database.

A table created on process A is played by a client on B (whose commands go through Redis to
the owner, A) and a client on A; the owner is then killed and B takes the table over from the
database, with every acknowledged action kept and no event sent twice or skipped.
"""

import asyncio
import contextlib
import json
import os
import shutil
import signal
import subprocess
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from pagoda.server.bus import Cluster, owner_key
from pagoda.server.protocol import apply_patch, check_server

from .helpers import card_words, open_lobby, run
from .test_restart import free_port, post, server

JSON = dict[str, Any]
REDIS = "/usr/bin/redis-server"
LEASE = 3.0  # long enough that a busy machine does not stall a node past it


@pytest.fixture
def redis_url(tmp_path: Path) -> Iterator[str]:
    """Debian's redis-server on a free loopback port with a temporary folder, stopped afterwards."""
    if not (os.access(REDIS, os.X_OK) or shutil.which("redis-server")):
        pytest.fail(f"{REDIS} is missing: `make pytest` installs it (apt-get install redis-server)")
    port = free_port()
    folder = tmp_path / "redis"
    folder.mkdir()
    cmd = [shutil.which("redis-server") or REDIS, "--port", str(port), "--bind", "127.0.0.1"]
    cmd += ["--dir", str(folder), "--save", "", "--appendonly", "no", "--protected-mode", "yes"]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        import redis

        client = redis.Redis(port=port)
        for _ in range(100):
            try:
                client.ping()
                break
            except redis.ConnectionError:
                if proc.poll() is not None:
                    pytest.fail("redis-server exited at start-up")
                time.sleep(0.05)
        else:
            pytest.fail("redis-server did not start")
        client.close()
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        proc.terminate()
        proc.wait(timeout=10)


@contextmanager
def node(db: Path, port: int, redis_url: str, url: str | None = None) -> Iterator[subprocess.Popen[bytes]]:
    """``pagoda serve`` as one node of the cluster, ready when this yields; SIGKILLed at the end.

    ``url``: a database URL (PostgreSQL) in place of the SQLite file ``db``, whose folder stays the
    data dir."""
    extra = ["--redis", redis_url, "--lease", str(LEASE), *(["--db", url] if url else [])]
    with server(db, port, extra, db.parent / f"serve-{port}.log") as proc:
        yield proc


def get(port: int, path: str) -> JSON:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=5) as r:
        out: JSON = json.loads(r.read())
        return out


class Player:
    """A WebSocket client that keeps every message (schema-checked) and the raw texts."""

    def __init__(self, ws: ClientConnection, seat: int) -> None:
        self.ws = ws
        self.seat = seat
        self.got: list[JSON] = []
        self.texts: list[str] = []
        self.acted_at = -1
        self.waiting = False  # an action sent and not yet answered
        self.answered = False
        self.folded: list[JSON] = []  # the view, legal actions and timers after each change told
        self.reader = asyncio.get_running_loop().create_task(self._read())

    async def _read(self) -> None:
        with contextlib.suppress(ConnectionClosed):
            async for text in self.ws:
                assert isinstance(text, str)
                msg = json.loads(text)
                check_server(msg)
                self.texts.append(text)
                self.got.append(msg)
                # An action is answered by its event and the change it tells, or by an error.
                own = msg["type"] == "event" and msg["event"].get("seat") == self.seat
                if own or msg["type"] == "welcome":
                    self.answered = True
                changed = self._fold(msg)
                if msg["type"] == "error" or (self.answered and changed):
                    self.waiting = self.answered = False

    def _fold(self, msg: JSON) -> bool:
        """Fold what ``msg`` says of the view, the legal actions and the timers (as a client does)."""
        if msg["type"] in ("snapshot", "state"):
            self.folded.append({k: msg[k] for k in ("seq", "game", "legal", "timers")})
            return True
        if msg["type"] != "event" or not {"game", "patch", "legal", "timers"} & msg.keys():
            return False
        last = {**self.folded[-1], "seq": msg["seq"]}
        last |= {k: msg[k] for k in ("game", "legal", "timers") if k in msg}
        if "patch" in msg:
            last["game"] = apply_patch(last["game"], msg["patch"])
        self.folded.append(last)
        return True

    async def send(self, **msg: Any) -> None:
        await self.ws.send(json.dumps(msg))

    def states(self) -> list[JSON]:
        return self.folded

    async def until(self, cond: Any, limit: float = 15.0) -> None:
        """Wait until ``cond()`` holds."""
        end = time.monotonic() + limit
        while not cond():
            assert time.monotonic() < end, f"seat {self.seat}: not in time; the last: {self.got[-3:]}"
            await asyncio.sleep(0.01)

    def events(self) -> list[JSON]:
        return [m for m in self.got if m["type"] == "event"]

    async def wait(self, pred: Any, limit: float = 15.0, after: int = 0) -> JSON:
        """The first message (from number ``after`` on, received or coming) for which ``pred`` holds."""
        end = time.monotonic() + limit
        seen = after
        while time.monotonic() < end:
            for msg in self.got[seen:]:
                if pred(msg):
                    return msg
            seen = len(self.got)
            await asyncio.sleep(0.01)
        raise AssertionError(f"seat {self.seat}: no such message in time; the last: {self.got[-3:]}")


async def join(port: int, table: str, seat: int, **hello: Any) -> Player:
    ws = await connect(f"ws://127.0.0.1:{port}/ws/{table}", open_timeout=5)
    p = Player(ws, seat)
    await p.send(type="hello", protocol=1, **hello)
    await p.wait(lambda m: m["type"] == "snapshot")
    return p


def choose(state: JSON) -> str:
    """A legal action: exchange the first three cards, else no-grand or pass when allowed, else the first."""
    if state["legal"]["exchange"]:
        return "exchange " + " ".join(state["game"]["hand"][:3])
    acts = [a for a in state["legal"]["actions"] if a != "tichu"]
    for quiet in ("no-grand", "pass"):
        if quiet in acts:
            return quiet
    return str(acts[0])


def ready(p: Player) -> JSON | None:
    """The player's latest state if it is their turn (no take pending) and they have not acted on it."""
    states = p.states()
    if not states or p.waiting:
        return None
    st = states[-1]
    game = st["game"]
    if game is None or p.seat not in game["awaiting"] or st["timers"]["take"] is not None:
        return None
    return st if st["seq"] != p.acted_at else None


async def play(players: list[Player], actions: int, limit: float = 30.0) -> list[str]:
    """The players act in turn until ``actions`` actions are sent; returns them as 'seat: action'."""
    sent: list[str] = []
    end = time.monotonic() + limit
    while len(sent) < actions:
        assert time.monotonic() < end, f"only {len(sent)} of {actions} actions in time: {sent} " + str(
            [(p.waiting, p.acted_at, p.got[-4:]) for p in players]
        )
        for p in players:
            st = ready(p)
            if st is not None and len(sent) < actions:
                p.acted_at = st["seq"]
                p.waiting = True
                action = choose(st)
                await p.send(type="act", action=action)
                sent.append(f"{p.seat}: {action}")
        await asyncio.sleep(0.01)
    return sent


def seqs(p: Player) -> list[int]:
    return [m["seq"] for m in p.events()]


async def scenario(tmp_path: Path, redis_url: str) -> None:
    db = tmp_path / "pagoda.sqlite3"
    port_a, port_b = free_port(), free_port()
    with node(db, port_a, redis_url) as proc_a, node(db, port_b, redis_url):
        made = post(port_a, "/api/tables", {"game": "tichu", "turn_timer": 0})
        table = made["id"]
        # The lobby of B lists the table A owns, from the shared database.
        listed = get(port_b, "/api/tables")["tables"]
        assert [t["id"] for t in listed] == [table]
        assert get(port_b, f"/api/tables/{table}")["status"] == "lobby"

        x = await join(port_b, table, 0, guest=made["guest"], name="Xu")  # on B: remote
        y = await join(port_a, table, 1, name="Yo")  # on A: the owner
        await x.send(type="sit", seat=0)
        await y.send(type="sit", seat=1)
        await y.wait(lambda m: m["type"] == "table" and m["table"]["seats"][1]["name"] == "Yo")
        await x.send(type="start", fill="heuristic")

        # Grand Tichu decisions (2) and exchanges (2), then plays: 10 actions of the two people.
        sent = await play([x, y], 10)
        assert [a.split(":")[1].split()[0] for a in sent[:4]] == ["no-grand"] * 2 + ["exchange"] * 2

        # Each seat sees its own exchange and only "exchange" of the other's.
        for me, other in ((x, y), (y, x)):
            mine = [e["event"] for e in me.events() if e["event"]["kind"] == "action"]
            assert any(e["seat"] == me.seat and e["action"].startswith("exchange ") for e in mine)
            assert [e["action"] for e in mine if e["seat"] == other.seat and "exchange" in e["action"]] == [
                "exchange"
            ]
        # No message to Y names a card of X's hand, except the one Y gave X.
        await x.until(lambda: x.states()[-1]["seq"] == y.states()[-1]["seq"])
        hand_x = set(x.states()[-1]["game"]["hand"])
        y_gave = next(
            e["event"]["action"]
            for e in y.events()
            if e["event"].get("seat") == 1 and e["event"].get("action", "").startswith("exchange")
        )
        leaked = card_words(" ".join(y.texts)) & (hand_x - card_words(y_gave))
        assert leaked == set()

        # An illegal action from B's client is refused with an error, and the table is unchanged.
        before = x.states()[-1]["seq"]
        await x.send(type="act", action="play Dr Ph Mj", ref=7)
        err = await x.wait(lambda m: m["type"] == "error" and m.get("ref") == 7)
        assert err["code"] in ("illegal", "not_playing")
        mark = len(x.got)
        await x.send(type="resync", since=before)
        snap = await x.wait(lambda m: m["type"] == "snapshot", after=mark)
        assert snap["seq"] >= before
        assert all(
            e["event"]["action"] != "play Dr Ph Mj" for e in x.events() if e["event"]["kind"] == "action"
        )

        # Kill the owner once both actions in flight are answered. Y reconnects to B; X stays on B,
        # which takes the table over.
        await play([x, y], 0)
        end = time.monotonic() + 10
        while x.waiting or y.waiting:
            assert time.monotonic() < end, "an action was never answered"
            await asyncio.sleep(0.01)
        last_x = seqs(x)[-1]
        rejoin_y = [m for m in y.got if "you" in m][-1]["you"]["rejoin"]
        last_y = seqs(y)[-1]
        os.kill(proc_a.pid, signal.SIGKILL)
        proc_a.wait(timeout=10)
        await x.wait(lambda m: m["type"] == "welcome", after=len(x.got))
        y2 = await join(port_b, table, 1, rejoin=rejoin_y, since=last_y)
        assert y2.got[0]["you"]["seat"] == 1
        more = await play([x, y2], 8)
        assert len(more) == 8

        # Every event reached each client once, in order, without a gap: none lost across the move.
        await x.until(lambda: x.states()[-1]["seq"] == y2.states()[-1]["seq"])
        all_x = seqs(x)
        assert all_x[-1] > last_x
        assert sorted(set(all_x)) == list(range(all_x[0], all_x[-1] + 1))
        assert sorted(set(seqs(y) + seqs(y2))) == list(range(seqs(y)[0], seqs(y2)[-1] + 1))
        # And X's actions, before the kill and after, are in the table's history once each, in order.
        events = [m["event"] for m in x.events()]
        acted = [
            f"{e['seat']}: {e['action']}" for e in events if e["kind"] == "action" and e["by"] == "player"
        ]
        assert [a for a in acted if a.startswith("0:")] == [a for a in sent + more if a.startswith("0:")]
        for p in (x, y, y2):
            await p.ws.close()


def test_two_processes_share_a_table_and_survive_the_owner(tmp_path: Path, redis_url: str) -> None:
    asyncio.run(asyncio.wait_for(scenario(tmp_path, redis_url), 90))


def test_a_table_claimed_but_not_yet_running_keeps_its_key(tmp_path: Path, redis_url: str) -> None:
    """The heartbeat releases the keys of tables that finished, not of those still being set up."""

    async def body() -> None:
        lobby = await open_lobby(tmp_path / "db")
        cluster = Cluster(redis_url, lobby, lease=1.0)
        await cluster.start()
        try:
            assert await cluster.claim("being-made")  # as Lobby.create does before storing it
            await cluster.beat(scan=True)
            assert await cluster.control.get(owner_key("being-made")) == cluster.node
            table = await lobby.create(lobby.options({"game": "tichu"}), owner="p")
            assert await cluster.control.get(owner_key(table.id)) == cluster.node
            await cluster.beat()
            lobby._closed(table)  # finished, and its last connection left
            await cluster.beat()
            assert await cluster.control.get(owner_key(table.id)) is None
            assert await cluster.control.get(owner_key("being-made")) == cluster.node
        finally:
            await cluster.stop()
            await lobby.close()
            await lobby.store.close()

    run(body)


def test_a_finished_table_of_a_dead_owner_is_answered_at_once_on_the_survivor(
    tmp_path: Path, redis_url: str
) -> None:
    """Within the lease the dead owner's key still names it: the survivor must not relay a hello
    to nobody, but answer at once (issue #18, item 11)."""

    async def body() -> None:
        db = tmp_path / "pagoda.sqlite3"
        port_a, port_b = free_port(), free_port()
        with node(db, port_a, redis_url) as proc_a, node(db, port_b, redis_url):
            made = post(port_a, "/api/tables", {"game": "doudizhu", "rounds": 1, "bot": "random"})
            owner = await join(port_a, made["id"], -1, guest=made["guest"])
            await owner.send(type="start", fill="random")
            await owner.wait(lambda m: m["type"] == "event" and m["event"]["kind"] == "match_over", 30)
            os.kill(proc_a.pid, signal.SIGKILL)  # still connected: the table is still A's, its key held
            proc_a.wait(timeout=10)
            start = time.monotonic()
            async with connect(f"ws://127.0.0.1:{port_b}/ws/{made['id']}", open_timeout=5) as ws:
                first = json.loads(await asyncio.wait_for(ws.recv(), LEASE / 2))
                assert (first["type"], first["code"]) == ("error", "no_table")
            assert time.monotonic() - start < LEASE / 2
            with contextlib.suppress(Exception):
                await owner.ws.close()

    asyncio.run(asyncio.wait_for(body(), 90))
