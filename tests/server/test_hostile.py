"""Hostile visitors against a real ``pagoda serve`` process (issue #18), each attack followed by
a check that a canary table kept playing: new events, no error, no gap in their sequence numbers.

Everything runs on loopback, so every attacker shares the canary's address (the per-address
limits are the ones met first); every loop is bounded and stops by itself.
"""

import contextlib
import json
import socket
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from pagoda.server.protocol import check_server

from .test_restart import free_port, post, server

JSON = dict[str, Any]


class Watcher:
    """A WebSocket read on a thread of its own; every message kept, each checked."""

    def __init__(self, url: str, hello: JSON) -> None:
        self.stack = contextlib.ExitStack()
        self.ws = self.stack.enter_context(connect(url, open_timeout=10))
        self.ws.send(json.dumps({"type": "hello", "protocol": 1, **hello}))
        self.got: list[JSON] = []
        self.closed = False
        self.lock = threading.Lock()
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        while not self.done.is_set():
            try:
                msg = json.loads(self.ws.recv(timeout=0.5))
            except TimeoutError:
                continue
            except ConnectionClosed:
                self.closed = True
                return
            check_server(msg)
            with self.lock:
                self.got.append(msg)

    def events(self) -> list[JSON]:
        with self.lock:
            return [m for m in self.got if m["type"] == "event"]

    def errors(self) -> list[JSON]:
        with self.lock:
            return [m for m in self.got if m["type"] == "error"]

    def check(self, more: int = 5, limit: float = 30.0) -> None:
        """At least ``more`` new events arrive within ``limit`` seconds; none is missing and no
        error came."""
        start = len(self.events())
        end = time.monotonic() + limit
        while len(self.events()) < start + more:
            assert time.monotonic() < end, "the canary table stopped playing"
            assert not self.closed, "the canary's connection was closed"
            time.sleep(0.05)
        seqs = [e["seq"] for e in self.events()]
        assert seqs == list(range(seqs[0], seqs[0] + len(seqs))), "a gap in the canary's events"
        assert self.errors() == []

    def close(self) -> None:
        self.done.set()
        self.thread.join(timeout=5)
        self.stack.close()


class Served:
    """The server under attack and its canary."""

    def __init__(self, port: int, canary: Watcher, canary_id: str) -> None:
        self.port = port
        self.canary = canary
        self.canary_id = canary_id

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def ws(self, table: str) -> str:
        return f"ws://127.0.0.1:{self.port}/ws/{table}"


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    db = tmp_path_factory.mktemp("hostile") / "pagoda.sqlite3"
    port = free_port()
    extra = ["--bot-delay", "0.02", "--grace", "0.5", "--header-timeout", "1", "--body-timeout", "1"]
    with server(db, port, extra, db.parent / "serve.log"):
        made = post(port, "/api/tables", {"game": "tichu", "target": 100_000})
        canary = Watcher(f"ws://127.0.0.1:{port}/ws/{made['id']}", {"guest": made["guest"]})
        canary.ws.send(json.dumps({"type": "start", "fill": "heuristic"}))
        canary.check(more=20)
        yield Served(port, canary, made["id"])
        canary.close()


def status(url: str, data: bytes | None = None, headers: dict[str, str] | None = None) -> tuple[int, JSON]:
    """An HTTP request's status and JSON answer, errors included."""
    req = urllib.request.Request(url, data=data, headers=headers or {}, method="POST" if data else "GET")
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


def hello_answers(ws: ClientConnection, count: int) -> list[JSON]:
    return [json.loads(ws.recv(timeout=10)) for _ in range(count)]


def test_since_zero_after_a_long_history_gets_the_snapshot(served: Served) -> None:
    for _ in range(600):  # the canary's history passes the replay limit (200 events)
        if served.canary.events() and served.canary.events()[-1]["seq"] > 250:
            break
        time.sleep(0.05)
    assert served.canary.events()[-1]["seq"] > 250
    for _ in range(5):  # what a browser reload sends
        with connect(served.ws(served.canary_id), open_timeout=10) as ws:
            ws.send(json.dumps({"type": "hello", "protocol": 1, "since": 0}))
            first = hello_answers(ws, 2)
            assert [m["type"] for m in first] == ["welcome", "snapshot"]
            assert first[1]["seq"] >= 250
    served.canary.check()


def test_spectator_crowd_does_not_lock_out_a_seated_player(served: Served) -> None:
    made = post(served.port, "/api/tables", {"game": "tichu"})
    with connect(served.ws(made["id"]), open_timeout=10) as ws:
        ws.send(json.dumps({"type": "hello", "protocol": 1, "guest": made["guest"], "name": "Ann"}))
        ws.send(json.dumps({"type": "sit", "seat": 0}))
        ws.send(json.dumps({"type": "start", "fill": "heuristic"}))
        token = None
        for _ in range(50):
            msg = json.loads(ws.recv(timeout=10))
            if msg["type"] == "table" and msg["you"]["rejoin"]:
                token = msg["you"]["rejoin"]
                break
        assert token
    refused = 0
    with contextlib.ExitStack() as crowd:
        for _ in range(70):
            # Not read after the first message: no limit on what the client library may buffer,
            # or it stops reading the socket and its close handshake waits for nothing.
            ws = crowd.enter_context(connect(served.ws(made["id"]), open_timeout=10, max_queue=None))
            ws.send(json.dumps({"type": "hello", "protocol": 1}))
            first = json.loads(ws.recv(timeout=10))
            if first["type"] == "error":
                assert first["code"] == "too_many_connections"
                refused += 1
        assert refused == 70 - 16  # the address's spectator slots
        with connect(served.ws(made["id"]), open_timeout=10) as back:
            back.send(json.dumps({"type": "hello", "protocol": 1, "rejoin": token}))
            welcome = json.loads(back.recv(timeout=10))
            assert (welcome["type"], welcome["you"]["seat"]) == ("welcome", 0)
    served.canary.check()


def test_bad_requests_are_refused_and_the_server_keeps_serving(served: Served) -> None:
    deep = ("[" * 1000 + "]" * 1000).encode()
    json_type = {"content-type": "application/json"}
    got = [
        status(served.url("/api/tables"), json.dumps({"game": ["tichu"]}).encode(), json_type),
        status(served.url("/api/tables"), deep, json_type),
        status(served.url("/api/history?offset=9223372036854775808")),
        status(served.url("/api/tables/%00")),
        status(served.url("/api/tables/a%00b/events")),
        status(
            served.url("/api/tables"), json.dumps({"game": "tichu", "bot": "nonesuch"}).encode(), json_type
        ),
    ]
    assert [(code, body["error"]) for code, body in got] == [
        (400, "bad_options"),
        (400, "bad_json"),
        (400, "bad_request"),
        (404, "no_table"),
        (404, "no_table"),
        (400, "bad_options"),
    ]
    with connect(served.ws(served.canary_id), open_timeout=10) as ws:
        ws.send(deep.decode())
        assert json.loads(ws.recv(timeout=10))["code"] == "bad_json"
    with connect(served.ws(served.canary_id), open_timeout=10) as ws:
        ws.send(json.dumps({"type": "hello", "protocol": 1, "name": "\u202eAnn"}))
        assert json.loads(ws.recv(timeout=10))["code"] == "bad_name"
    served.canary.check()


def test_huge_bodies_are_refused_before_they_are_read(served: Served) -> None:
    with socket.create_connection(("127.0.0.1", served.port), timeout=10) as s:
        s.sendall(b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Length: 209715200\r\n\r\n")
        assert s.recv(4096).startswith(b"HTTP/1.1 413")  # before one byte of the 200 MiB is sent
    with socket.create_connection(("127.0.0.1", served.port), timeout=10) as s:
        s.sendall(b"POST /api/tables HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n")
        chunk = b"2000\r\n" + b" " * 0x2000 + b"\r\n"
        answer = b""
        for _ in range(100):  # 800 KiB at most: refused after the first 8 KiB chunk
            try:
                s.sendall(chunk)
                s.settimeout(0.2)
                answer = s.recv(4096)
            except TimeoutError:
                continue
            except OSError:
                break
            if answer:
                break
        assert answer.startswith(b"HTTP/1.1 413")
    served.canary.check()


def test_slow_headers_are_cut_off(served: Served) -> None:
    with socket.create_connection(("127.0.0.1", served.port), timeout=10) as s:
        s.sendall(b"GET /api/me HTTP/1.1\r\nHost: x\r\n")  # never finished
        start = time.monotonic()
        assert s.recv(1024) == b""
        assert time.monotonic() - start < 5
    served.canary.check()


def test_chat_and_resync_floods_are_limited_per_address(served: Served) -> None:
    made = post(served.port, "/api/tables", {"game": "tichu"})
    with contextlib.ExitStack() as stack:
        sockets = []
        for _ in range(10):  # ten guests, one address
            ws = stack.enter_context(connect(served.ws(made["id"]), open_timeout=10))
            ws.send(json.dumps({"type": "hello", "protocol": 1}))
            hello_answers(ws, 3)
            sockets.append(ws)
        start = time.monotonic()
        for i in range(30):
            for ws in sockets:
                ws.send(json.dumps({"type": "chat", "text": "x" * 480, "ref": i}))
                ws.send(json.dumps({"type": "resync", "since": 0}))
        stored: set[int] = set()
        snapshots = 0
        for n, ws in enumerate(sockets):
            for _ in range(5000):
                try:
                    msg = json.loads(ws.recv(timeout=0.5))
                except TimeoutError:
                    break
                snapshots += msg["type"] == "snapshot"
                # every socket hears every chat stored: count them once, on the first socket, by
                # their seq (a resync since 0 replays the events stored so far to its socket)
                if n == 0 and msg["type"] == "event" and msg["event"]["kind"] == "chat":
                    stored.add(msg["seq"])
        elapsed = time.monotonic() - start  # the buckets refill while the server works through them
        chats = len(stored)
    # the address's buckets, over all ten sockets: chat 20 + 4 a second, resync 10 + 1 a second
    assert 20 <= chats <= 20 + 4 * elapsed
    assert 10 <= snapshots <= 10 + 1 * elapsed
    served.canary.check()


def test_replays_hammered_while_the_canary_plays(served: Served) -> None:
    made = post(served.port, "/api/tables", {"game": "doudizhu", "rounds": 1, "bot": "random"})
    with connect(served.ws(made["id"]), open_timeout=10) as ws:
        ws.send(json.dumps({"type": "hello", "protocol": 1, "guest": made["guest"]}))
        ws.send(json.dumps({"type": "start", "fill": "random"}))
        for _ in range(5000):
            msg = json.loads(ws.recv(timeout=10))
            if msg["type"] == "event" and msg["event"]["kind"] == "match_over":
                break
    bodies = set()
    for _ in range(20):
        with urllib.request.urlopen(served.url(f"/api/tables/{made['id']}/replay"), timeout=10) as r:
            bodies.add(r.read())
    assert len(bodies) == 1
    served.canary.check()


def test_a_finished_invite_only_table_is_not_shown_to_strangers(served: Served) -> None:
    made = post(served.port, "/api/tables", {"game": "doudizhu", "rounds": 1, "open": False})
    with connect(served.ws(made["id"]), open_timeout=10) as ws:
        ws.send(json.dumps({"type": "hello", "protocol": 1, "guest": made["guest"]}))
        ws.send(json.dumps({"type": "chat", "text": "secret plans"}))
        ws.send(json.dumps({"type": "start", "fill": "random"}))
        for _ in range(5000):
            msg = json.loads(ws.recv(timeout=10))
            if msg["type"] == "event" and msg["event"]["kind"] == "match_over":
                break
    listed = status(served.url("/api/history"))[1]["tables"]
    assert made["id"] not in [t["id"] for t in listed]
    for end in ("/events", "/replay", "/record"):
        assert status(served.url(f"/api/tables/{made['id']}{end}"))[0] == 403
    code, body = status(served.url(f"/api/tables/{made['id']}/events?invite={made['invite']}"))
    assert code == 200
    assert "secret plans" in json.dumps(body)
    served.canary.check()


def test_a_table_creation_flood_is_capped_per_address(served: Served) -> None:
    codes = []
    for _ in range(40):  # each a new guest, all from this address
        codes.append(status(served.url("/api/tables"), b'{"game": "tichu"}', {"content-type": "x"})[0])
    assert set(codes) == {201, 429}
    assert codes.index(429) == codes.count(201)  # once refused, refused on
    live = status(served.url("/api/tables"))[1]["tables"]
    assert len(live) <= 16
    served.canary.check()
