"""The server's limits and defences, in process (docs/server.md, "Limits and defences")."""

import asyncio
import json
import random
import socket
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from websockets.sync.client import connect

from pagoda.bots import available
from pagoda.server import replay as replay_module
from pagoda.server.app import Config, create_app
from pagoda.server.bus import Cluster, RemoteTable
from pagoda.server.games import GAMES, TableOptions
from pagoda.server.limits import Limiter, Rate
from pagoda.server.load import Options, run_load
from pagoda.server.lobby import Lobby, TooManyTables
from pagoda.server.protocol import ProtocolError, parse_client
from pagoda.server.table import Conn, Settings, Table

from .helpers import FAST, Client, open_lobby, run
from .test_restart import free_port, post, server

JSON = dict[str, Any]


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


# ---------------------------------------------------------------------- seats and spectators


def test_a_seated_player_gets_in_past_a_table_full_of_spectators(tmp_path: Path) -> None:
    async def body() -> None:
        lobby, table = await _table(tmp_path)
        owner = Client(table, "owner", "Ann")
        await owner.hello()
        await owner.send(type="sit", seat=0)
        token = owner.last("table")["you"]["rejoin"]
        await owner.send(type="start", fill="heuristic")
        owner.conn.close()
        table.leave(owner.conn)
        # 70 spectators, each a guest of its own from an address of its own: 64 get in.
        crowd = [Client(table, f"s{i}", "S") for i in range(70)]
        for i, c in enumerate(crowd):
            c.conn.address = f"10.0.{i // 250}.{i % 250}"
            table.join(c.conn, {"type": "hello", "protocol": 1})
        await crowd[-1].settle()
        refused = [c for c in crowd if c.conn.closed]
        assert len(refused) == 6
        for c in refused:
            await c.settle()
            assert c.got[0]["code"] == "table_full"
        back = Client(table, "someone-else", "Ann")
        new = await back.hello(rejoin=token)
        assert [m["type"] for m in new[:2]] == ["welcome", "snapshot"]
        assert new[0]["you"]["seat"] == 0
        guest = Client(table, "owner", "Ann")  # the seat's guest id, without the token
        assert (await guest.hello())[0]["you"]["seat"] == 0
        await _shut(lobby)

    run(body)


def test_spectators_are_limited_per_guest_and_per_address(tmp_path: Path) -> None:
    async def body() -> None:
        lobby, table = await _table(tmp_path, replace(FAST, spectators_per_guest=2, spectators_per_address=3))
        same_guest = [Client(table, "g", "G") for _ in range(3)]
        for c in same_guest:
            await c.hello()
        assert [c.conn.closed for c in same_guest] == [False, False, True]
        assert same_guest[2].got[0]["code"] == "too_many_connections"
        same_address = [Client(table, f"a{i}", "A") for i in range(4)]
        for c in same_address:
            c.conn.address = "192.0.2.7"
            await c.hello()
        assert [c.conn.closed for c in same_address] == [False, False, False, True]
        assert "address" in same_address[3].got[0]["message"]
        await _shut(lobby)

    run(body)


def test_a_seat_past_its_connection_limit_closes_its_oldest(tmp_path: Path) -> None:
    async def body() -> None:
        lobby, table = await _table(tmp_path, replace(FAST, seat_connections=2))
        tabs = [Client(table, "owner", "Ann") for _ in range(3)]
        await tabs[0].hello()
        await tabs[0].send(type="sit", seat=0)
        await tabs[1].hello()
        await tabs[2].hello()
        assert [t.conn.closed for t in tabs] == [True, False, False]
        assert tabs[0].errors(await tabs[0].settle()) == [
            {"type": "error", "code": "replaced", "message": "this seat was opened in another connection"}
        ]
        assert {c.seat for c in table.conns} == {0}
        assert len(table.conns) == 2
        await _shut(lobby)

    run(body)


# ---------------------------------------------------------------------- table creation and expiry


class Clock:
    """A wall clock the test moves by hand."""

    def __init__(self, now: float = 1_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def test_live_tables_are_capped_per_owner_and_per_address(tmp_path: Path) -> None:
    async def body() -> None:
        lobby = await open_lobby(tmp_path, replace(FAST, tables_per_owner=2, tables_per_address=3))
        opts = lobby.options({"game": "tichu"})
        await lobby.create(opts, owner="a", address="192.0.2.1")
        await lobby.create(opts, owner="a", address="192.0.2.1")
        with pytest.raises(TooManyTables, match="you have 2 live tables") as owner:
            await lobby.create(opts, owner="a", address="192.0.2.9")
        assert (owner.value.code, owner.value.params) == ("tables_per_owner", {"limit": 2})
        await lobby.create(opts, owner="b", address="192.0.2.1")
        with pytest.raises(TooManyTables, match="your address has 3 live tables") as address:
            await lobby.create(opts, owner="c", address="192.0.2.1")
        assert (address.value.code, address.value.params) == ("tables_per_address", {"limit": 3})
        assert len(lobby.tables) == 3
        await lobby.create(opts, owner="c", address="192.0.2.2")  # another client is not blocked
        await _shut(lobby)

    run(body)


def test_an_empty_lobby_table_expires_and_frees_its_owners_slot(tmp_path: Path) -> None:
    async def body() -> None:
        clock = Clock()
        store = (await open_lobby(tmp_path)).store
        lobby = Lobby(store, replace(FAST, tables_per_owner=1, lobby_expiry=600.0), clock=clock)
        opts = lobby.options({"game": "tichu"})
        idle = await lobby.create(opts, owner="a")
        watched = await lobby.create(opts, owner="b")
        visitor = Client(watched, "v", "V")
        await visitor.hello()
        clock.now += 599.0
        assert await lobby.expire() == []
        clock.now += 1.0
        assert await lobby.expire() == [idle.id]
        assert set(lobby.tables) == {watched.id}
        row = await store.get(idle.id)
        assert row is not None
        assert row.status == "expired"
        assert [r.id for r in await store.live()] == [watched.id]
        fresh = await lobby.create(opts, owner="a")  # the expired table no longer counts
        clock.now += 10_000.0
        assert await lobby.expire() == [fresh.id]  # the watched one does not expire
        visitor.conn.close()
        watched.leave(visitor.conn)
        assert await lobby.expire() == []  # its clock starts when the last connection leaves
        clock.now += 600.0
        assert watched.id in await lobby.expire()
        await _shut(lobby)

    run(body)


def test_a_lobby_table_idle_past_the_limit_is_expired_at_restart(tmp_path: Path) -> None:
    async def body() -> None:
        store = (await open_lobby(tmp_path)).store
        settings = replace(FAST, lobby_expiry=600.0)
        first = Lobby(store, settings)
        opts = first.options({"game": "tichu"})
        old = await first.create(opts, owner="a")
        playing = await first.create(opts, owner="b")
        owner = Client(playing, "b", "B")
        await owner.hello()
        await owner.send(type="start", fill="random")
        await first.close()
        later = Lobby(store, settings, clock=Clock(time.time() + 601.0))
        assert await later.restore() == 1
        assert set(later.tables) == {playing.id}
        row = await store.get(old.id)
        assert row is not None
        assert row.status == "expired"
        await later.close()
        await store.close()

    run(body)


# ---------------------------------------------------------------------- bad requests


def make_client(tmp: Path, url: str | None = None, **settings: Any) -> TestClient:
    config = Config(
        database_url=url or f"sqlite+aiosqlite:///{tmp}/db.sqlite3", settings=replace(FAST, **settings)
    )
    return TestClient(create_app(config), base_url="http://testserver")


def check_bad_requests(http: TestClient) -> None:
    """The requests that used to fail with 500 or a silent close are each a clear 4xx."""
    deep = "[" * 1000 + "]" * 1000
    answers = {
        "game list": http.post("/api/tables", json={"game": ["tichu"]}),
        "deep POST": http.post("/api/tables", content=deep, headers={"content-type": "application/json"}),
        "huge offset": http.get("/api/history?offset=9223372036854775808"),
        "NUL id": http.get("/api/tables/%00"),
        "NUL id events": http.get("/api/tables/a%00b/events"),
        "NUL id replay": http.get("/api/tables/a%00b/replay"),
        "unknown bot": http.post("/api/tables", json={"game": "tichu", "bot": "nonesuch"}),
        "unknown field": http.post("/api/tables", json={"game": "tichu", "rouns": 2}),
        "rounds too many": http.post("/api/tables", json={"game": "tichu", "rounds": 10**9}),
    }
    got = {k: (r.status_code, r.json()["error"]) for k, r in answers.items()}
    assert got == {
        "game list": (400, "bad_options"),
        "deep POST": (400, "bad_json"),
        "huge offset": (400, "bad_request"),
        "NUL id": (404, "no_table"),
        "NUL id events": (404, "no_table"),
        "NUL id replay": (404, "no_table"),
        "unknown bot": (400, "bad_options"),
        "unknown field": (400, "bad_options"),
        "rounds too many": (400, "bad_options"),
    }
    # (the registered bots, whatever else this process registered: the bots package's doctest adds one)
    names = ", ".join(s.name for s in available("tichu"))
    assert f"no tichu bot 'nonesuch'; the bots are {names}" in answers["unknown bot"].text
    assert "unknown field 'rouns'" in answers["unknown field"].text
    made = http.post("/api/tables", json={"game": "tichu"}).json()
    with http.websocket_connect(f"/ws/{made['id']}") as ws:  # before hello: an error, then the close
        ws.send_text(deep)
        assert ws.receive_json()["code"] == "bad_json"
        with pytest.raises(WebSocketDisconnect):
            ws.receive_json()
    with http.websocket_connect(f"/ws/{made['id']}") as ws:
        ws.send_json({"type": "hello", "protocol": 1, "guest": made["guest"]})
        assert [ws.receive_json()["type"] for _ in range(3)] == ["welcome", "snapshot", "table"]
        ws.send_text('{"type": "chat", "text": ' + deep + "}")  # after hello: an error, and on
        assert ws.receive_json()["code"] == "bad_json"
        for msg, field in (({"type": "sit", "seat": 2.0}, "seat"), ({"type": "swap", "a": 0, "b": 2.0}, "b")):
            ws.send_json(msg)
            err = ws.receive_json()
            assert (err["type"], err["code"]) == ("error", "bad_message")
            assert err["message"] == f"{msg['type']}: {field}: Expected `int`, got `float`"
        ws.send_json({"type": "sit", "seat": 2})
        assert ws.receive_json()["type"] == "event"
    with http.websocket_connect("/ws/a%00b") as ws:
        assert ws.receive_json()["code"] == "no_table"


def test_bad_requests_get_a_clear_refusal(tmp_path: Path) -> None:
    with make_client(tmp_path) as http:
        check_bad_requests(http)


def test_a_body_is_refused_by_its_size_before_it_is_read_whole(tmp_path: Path) -> None:
    with make_client(tmp_path) as http:
        big = http.post("/api/tables", content=b"{" + b" " * 5000 + b"}")
        assert (big.status_code, big.json()["error"]) == (413, "too_large")
        told = http.post("/api/tables", content=b"{}", headers={"content-length": "999999999"})
        assert (told.status_code, told.json()["error"]) == (413, "too_large")

        def stream() -> Iterator[bytes]:  # no Content-Length: chunked, refused as it streams in
            for _ in range(1000):
                yield b" " * 1024

        streamed = http.post("/api/tables", content=stream())
        assert (streamed.status_code, streamed.json()["error"]) == (413, "too_large")
        assert http.post("/api/tables", content=b'{"game": "tichu"}').status_code == 201


# ---------------------------------------------------------------------- rates per client


def test_a_limiter_counts_per_client_and_takes_only_when_all_allow() -> None:
    clock = Clock(0.0)
    limiter = Limiter(clock)
    guest, address = ("guest:a", Rate(1.0, 2)), ("ip:x", Rate(1.0, 3))
    assert [limiter.allow("chat", [guest, address]) for _ in range(3)] == [True, True, False]
    other = ("guest:b", Rate(1.0, 2))
    assert limiter.allow("chat", [other, address])  # the address's third token
    assert not limiter.allow("chat", [other, address])  # the address is spent, b's token is kept
    assert limiter.buckets[("chat", "guest:b")].refill() == 1.0
    assert limiter.allow("resync", [guest, address])  # another kind has buckets of its own
    clock.now += 1.0
    assert limiter.allow("chat", [guest, address])
    assert not limiter.allow("chat", [guest, address])


def test_chat_is_limited_per_guest_across_sockets(tmp_path: Path) -> None:
    with make_client(tmp_path, chat_per_guest=Rate(0.001, 3), resync_per_guest=Rate(0.001, 2)) as http:
        made = http.post("/api/tables", json={"game": "tichu"}).json()
        hello = {"type": "hello", "protocol": 1, "guest": made["guest"]}
        codes = []
        for _ in range(2):  # a second socket of the same guest gets no fresh quota
            with http.websocket_connect(f"/ws/{made['id']}") as ws:
                ws.send_json(hello)
                assert [ws.receive_json()["type"] for _ in range(3)] == ["welcome", "snapshot", "table"]
                for i in range(2):
                    ws.send_json({"type": "chat", "text": f"hi {i}", "ref": i})
                    codes.append(ws.receive_json().get("code", "chat"))
                ws.send_json({"type": "resync", "since": 0})
                codes.append(ws.receive_json().get("code", "resync"))
        assert codes == ["chat", "chat", "resync", "chat", "rate_limited", "resync"]
        with http.websocket_connect(f"/ws/{made['id']}") as ws:
            ws.send_json(hello)
            [ws.receive_json() for _ in range(3)]
            ws.send_json({"type": "resync", "since": 0})
            err = ws.receive_json()
            assert (err["code"], err["message"]) == (
                "rate_limited",
                "too many resync messages from you; this one was dropped",
            )


# ---------------------------------------------------------------------- replays


def finish(http: TestClient, **options: Any) -> JSON:
    """A table played by bots to its end, with the owner watching; its creation answer."""
    made: JSON = http.post("/api/tables", json={"game": "doudizhu", "rounds": 1, **options}).json()
    with http.websocket_connect(f"/ws/{made['id']}") as ws:
        ws.send_json({"type": "hello", "protocol": 1, "guest": made["guest"]})
        ws.send_json({"type": "start", "fill": "random"})
        for _ in range(2000):
            msg = ws.receive_json()
            if msg["type"] == "event" and msg["event"]["kind"] == "match_over":
                return made
    raise AssertionError("the match did not end")


def test_a_replay_is_computed_once_off_the_event_loop(tmp_path: Path, monkeypatch: Any) -> None:
    threads: list[str] = []
    real = replay_module.replay_frames

    def spy(*args: Any) -> list[JSON]:
        try:
            asyncio.get_running_loop()
            threads.append("the event loop")
        except RuntimeError:
            threads.append("a worker thread")
        out: list[JSON] = real(*args)
        return out

    monkeypatch.setattr(replay_module, "replay_frames", spy)
    with make_client(tmp_path, bot_delay=0.0) as http:
        made = finish(http, seed=5)
        first = http.get(f"/api/tables/{made['id']}/replay")
        again = http.get(f"/api/tables/{made['id']}/replay")
        assert first.status_code == again.status_code == 200
        assert first.content == again.content
        assert first.json()["game"] == "doudizhu"
        server = http.app.state.server  # type: ignore[attr-defined]
        assert server.replays.computed == 1
    assert threads == ["a worker thread"]


# ---------------------------------------------------------------------- privacy of finished tables


def until_type(ws: Any, kind: str, limit: int = 50) -> JSON:
    for _ in range(limit):
        msg: JSON = ws.receive_json()
        if msg["type"] == kind:
            return msg
    raise AssertionError(f"no {kind} in {limit} messages")


def test_a_finished_invite_only_table_stays_private_to_its_players(tmp_path: Path) -> None:
    with make_client(tmp_path, bot_delay=0.0) as http:
        public = finish(http, seed=3)
        private = finish(http, seed=4, open=False)
        paths = [f"/api/tables/{private['id']}{end}" for end in ("", "/record", "/events", "/replay")]
        assert [http.get(p).status_code for p in paths] == [200, 200, 200, 200]  # the owner
        saved = dict(http.cookies)
        http.cookies.clear()
        listed = [t["id"] for t in http.get("/api/history").json()["tables"]]
        assert listed == [public["id"]]
        assert [http.get(p).status_code for p in paths] == [403, 403, 403, 403]
        assert http.get(paths[2]).json()["error"] == "invite_required"
        invited = [http.get(f"{p}?invite={private['invite']}").status_code for p in paths]
        assert invited == [200, 200, 200, 200]
        assert http.get(f"/api/tables/{public['id']}/events").status_code == 200
        http.cookies.update(saved)


# ---------------------------------------------------------------------- Dou Di Zhu after its end


def test_a_finished_doudizhu_match_shows_its_last_round_not_a_next_deal() -> None:
    game = GAMES["doudizhu"]
    options = TableOptions("doudizhu", "classic", None, 2, 0.0, True, "random", 5)
    match = game.new(options)
    rng = random.Random(1)
    while not game.is_over(match, options):
        seat = game.awaiting(match)[0]
        match = game.apply(match, seat, rng.choice(game.legal(match, seat)["actions"]))
    assert len(match.rounds) == 2
    last = match.rounds[-1]
    for viewer in (None, 0, 1, 2):
        view = game.view(match, viewer)
        assert view["round"] == 2
        assert view["phase"] == "over"
        assert view["awaiting"] == []
        assert view["hand_sizes"] == [len(last.view(s).hand) for s in range(3)]
        assert 0 in view["hand_sizes"]  # the winner went out: no fresh 17-card deal
        if viewer is not None:
            assert view["hand"] == str(last.view(viewer).hand)


# ---------------------------------------------------------------------- names and chat


@pytest.mark.parametrize(
    ("name", "why"),
    [
        (" ", "visible"),
        ("\u200b", "U+200B"),
        ("\u3164", "visible"),
        ("\u3164\u3164 \u2800", "visible"),
        ("A\x00nn", "U+0000"),
        ("\x1b[31mAnn", "U+001B"),
        ("Ann\u202egnp.exe", "U+202E"),
        ("Ann\ud800", "U+D800"),
        ("\ufdfa\ufdfa", "at most 32"),  # NFKC makes each 18 characters
    ],
)
def test_bad_names_are_refused(name: str, why: str) -> None:
    text = json.dumps({"type": "hello", "protocol": 1, "name": name})
    with pytest.raises(ProtocolError) as e:
        parse_client(text, 4096)
    assert e.value.code == "bad_name"
    assert why in e.value.message


def test_names_are_nfkc_normalised() -> None:
    for raw, clean in (("Ａｎｎ", "Ann"), ("  Bo   Li ", "Bo Li"), ("ﬁona", "fiona"), ("김민준", "김민준")):
        msg = parse_client(json.dumps({"type": "hello", "protocol": 1, "name": raw}), 4096)
        assert msg["name"] == clean


def test_chat_texts_refuse_controls_overrides_and_surrogates() -> None:
    def chat(text: str) -> str:
        out: str = parse_client(json.dumps({"type": "chat", "text": text}), 4096)["text"]
        return out

    assert chat("gg\nwell played") == "gg\nwell played"
    for bad in ("\x00", "hi\x1b[2J", "\u202eevil", "x\udfff", " \u200b "):
        with pytest.raises(ProtocolError) as e:
            chat(bad)
        assert e.value.code == "bad_text"


def test_a_spectator_is_marked_in_chat(tmp_path: Path) -> None:
    async def body() -> None:
        lobby, table = await _table(tmp_path)
        player, watcher = Client(table, "owner", "Ann"), Client(table, "w", "Ann")
        await player.hello()
        await player.send(type="sit", seat=0)
        await watcher.hello(name="Ann")  # the same name as the seated player
        await player.send(type="chat", text="mine")
        await watcher.send(type="chat", text="not mine")
        chats = [m["event"] for m in watcher.got if m["type"] == "event" and m["event"]["kind"] == "chat"]
        assert [(c["name"], c["seat"], c["spectator"], c["text"]) for c in chats] == [
            ("Ann", 0, False, "mine"),
            ("Ann", None, True, "not mine"),
        ]
        await _shut(lobby)

    run(body)


def test_a_token_that_is_not_ascii_is_refused_not_an_internal_error(tmp_path: Path) -> None:
    with pytest.raises(ProtocolError) as e:
        parse_client(json.dumps({"type": "hello", "protocol": 1, "invite": "ä"}), 4096)
    assert e.value.code == "bad_message"
    with make_client(tmp_path) as http:
        made = http.post("/api/tables", json={"game": "tichu", "open": False}).json()
        http.cookies.clear()
        assert http.get(f"/api/tables/{made['id']}?invite=%C3%A4").status_code == 403


# ---------------------------------------------------------------------- slow clients


def test_a_connection_that_never_finishes_its_headers_is_closed(tmp_path: Path) -> None:
    port = free_port()
    with server(tmp_path / "db.sqlite3", port, ["--header-timeout", "0.5"]):
        with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
            s.sendall(b"GET /api/me HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # and nothing more
            start = time.monotonic()
            assert s.recv(1024) == b""  # closed by the server
            assert time.monotonic() - start < 5
        with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
            s.sendall(b"GET /api/me HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")  # in time: answered
            assert s.recv(1024).startswith(b"HTTP/1.1 200")
        # A WebSocket outlives the header deadline.
        made = post(port, "/api/tables", {"game": "tichu"})
        with connect(f"ws://127.0.0.1:{port}/ws/{made['id']}", open_timeout=5) as ws:
            time.sleep(1.0)
            ws.send(json.dumps({"type": "hello", "protocol": 1}))
            assert json.loads(ws.recv(timeout=5))["type"] == "welcome"


def test_a_body_that_never_arrives_is_refused(tmp_path: Path) -> None:
    port = free_port()
    with (
        server(tmp_path / "db.sqlite3", port, ["--body-timeout", "0.5"]),
        socket.create_connection(("127.0.0.1", port), timeout=10) as s,
    ):
        head = b"POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100\r\n\r\n"
        s.sendall(head + b'{"game": ')  # and the other 91 bytes never come
        start = time.monotonic()
        answer = b""
        while not answer.endswith(b"}"):
            more = s.recv(4096)
            assert more, answer
            answer += more
        assert time.monotonic() - start < 5
        assert answer.startswith(b"HTTP/1.1 408")
        assert b'"error":"timeout"' in answer


# ---------------------------------------------------------------------- a cluster's finished tables


class _Keys:
    """Redis's owner keys as a node reads them: every table still held by a node that died."""

    async def get(self, key: str) -> str:
        return "a-dead-node"


def test_a_finished_table_of_a_dead_node_is_answered_at_once_not_left_waiting(tmp_path: Path) -> None:
    async def body() -> None:
        lobby, table = await _table(tmp_path)
        owner = Client(table, "owner", "Ann")
        await owner.hello()
        await owner.send(type="start", fill="random")
        for _ in range(2000):
            if table.status == "finished":
                break
            await asyncio.sleep(0.01)
            await owner.settle()
        assert table.status == "finished"
        live = await lobby.create(lobby.options({"game": "tichu"}), owner="b")
        await lobby.close()  # this node no longer runs them; their keys are still held
        cluster = Cluster("redis://127.0.0.1:1/0", lobby, lease=3.0, node="survivor")
        cluster.control = _Keys()  # type: ignore[assignment]
        assert await cluster.route(table.id) is None  # the play endpoint answers no_table and closes
        assert await cluster.route("no-such-table") is None
        assert isinstance(await cluster.route(live.id), RemoteTable)  # a live one waits for its owner
        await lobby.store.close()

    run(body)


def test_a_seated_player_of_a_finished_invite_only_table_may_see_it(tmp_path: Path) -> None:
    with make_client(tmp_path, bot_delay=0.0) as http:
        made = http.post("/api/tables", json={"game": "doudizhu", "rounds": 1, "open": False}).json()
        http.cookies.clear()
        bo = http.get("/api/me").json()["guest"]
        http.cookies.clear()
        cy = http.get("/api/me").json()["guest"]
        http.cookies.clear()
        with http.websocket_connect(f"/ws/{made['id']}") as player:
            player.send_json({"type": "hello", "protocol": 1, "guest": bo, "invite": made["invite"]})
            player.send_json({"type": "sit", "seat": 1})
            assert until_type(player, "event")["event"]["kind"] == "seats"
        # Bo has gone: the bot that stands in after the grace plays the seat.
        with http.websocket_connect(f"/ws/{made['id']}") as owner:
            owner.send_json({"type": "hello", "protocol": 1, "guest": made["guest"]})
            owner.send_json({"type": "start", "fill": "random"})
            for _ in range(3000):
                msg = owner.receive_json()
                if msg["type"] == "event" and msg["event"]["kind"] == "match_over":
                    break
        events = f"/api/tables/{made['id']}/events"
        assert http.get(events, headers={"x-pagoda-guest": bo}).status_code == 200
        assert http.get(events, headers={"x-pagoda-guest": cy}).status_code == 403


def test_a_player_gone_before_the_start_gets_a_stand_in_after_the_grace(tmp_path: Path) -> None:
    async def body() -> None:
        lobby, table = await _table(tmp_path)
        owner, squatter = Client(table, "owner", "Ann"), Client(table, "sq", "Sq")
        await owner.hello()
        await squatter.hello()
        await squatter.send(type="sit", seat=2)
        squatter.conn.close()
        table.leave(squatter.conn)
        await owner.send(type="start", fill="random")
        for _ in range(500):  # FAST's grace is 0.2 s
            if table.standin[2]:
                break
            await asyncio.sleep(0.01)
            await owner.settle()
        assert table.standin == [False, False, True, False]
        await _shut(lobby)

    run(body)


def test_serve_sets_the_tables_per_address(tmp_path: Path) -> None:
    def create(port: int) -> tuple[int, JSON]:
        req = urllib.request.Request(f"http://127.0.0.1:{port}/api/tables", data=b'{"game": "tichu"}')
        try:
            with urllib.request.urlopen(req, timeout=10) as r:
                return int(r.status), json.loads(r.read())
        except urllib.error.HTTPError as e:
            return e.code, json.loads(e.read())

    port = free_port()
    with server(tmp_path / "db.sqlite3", port, ["--tables-per-address", "2"]):
        answers = [create(port) for _ in range(3)]
        assert [code for code, _ in answers] == [201, 201, 429]
        # the refusal says whose limit it is and the limit, for the client to say in words
        assert {k: answers[2][1][k] for k in ("error", "params")} == {
            "error": "tables_per_address",
            "params": {"limit": 2},
        }
        # pagoda load says what to do about it
        options = Options(urls=[f"http://127.0.0.1:{port}"], tables=3, duration=1.0, ramp=0.1)
        report = asyncio.run(run_load(options))
        assert len(report.errors) == 3  # the address has its two tables already
        assert all("start it with --tables-per-address at least --tables" in e for e in report.errors)


async def _playing(lobby: Lobby, owner: str, rated: bool = False) -> tuple[Table, Client]:
    """A started match at which ``owner`` plays seat 0 against bots; the owner still connected."""
    table = await lobby.create(lobby.options({"game": "tichu", "rated": rated}), owner=owner)
    client = Client(table, owner, owner.upper())
    await client.hello()
    await client.send(type="sit", seat=0)
    await client.send(type="start", fill="heuristic")
    assert table.status == "playing"
    return table, client


def _gone(client: Client) -> None:
    client.conn.close()
    client.table.leave(client.conn)


def test_a_casual_match_its_players_all_left_is_abandoned_and_unlisted(tmp_path: Path) -> None:
    async def body() -> None:
        clock = Clock()
        store = (await open_lobby(tmp_path)).store
        lobby = Lobby(store, replace(FAST, lobby_expiry=600.0, bot_delay=3600.0), clock=clock)
        left, ann = await _playing(lobby, "ann")
        stays, ben = await _playing(lobby, "ben")
        rated, cat = await _playing(lobby, "cat", rated=True)
        # a spectator keeps no match going: the players are the ones it waits for
        watcher = Client(left, "w", "W")
        await watcher.hello()
        for c in (ann, cat):
            _gone(c)
        await ann.settle()
        clock.now += 599.0
        assert await lobby.expire() == []
        assert {t.id for t in lobby.listed()} == {left.id, stays.id, rated.id}
        clock.now += 1.0
        assert await lobby.expire() == [left.id]
        assert set(lobby.tables) == {stays.id, rated.id}
        assert [t.id for t in lobby.listed()] == [stays.id, rated.id]
        row = await store.get(left.id)
        assert row is not None
        assert row.status == "abandoned"
        assert watcher.conn.closed
        assert sorted(r.id for r in await store.live()) == sorted([stays.id, rated.id])
        # a player who is there keeps the match; a rated match is played out by its stand-ins
        clock.now += 10_000.0
        assert await lobby.expire() == []
        _gone(ben)
        await ben.settle()
        assert await lobby.expire() == []  # the clock starts when the last player leaves
        clock.now += 300.0
        back = Client(stays, "ben", "BEN")
        await back.hello()  # Ben comes back: the clock starts again when he leaves again
        assert await lobby.expire() == []
        _gone(back)
        await back.settle()
        clock.now += 599.0
        assert await lobby.expire() == []
        clock.now += 1.0
        assert await lobby.expire() == [stays.id]
        assert set(lobby.tables) == {rated.id}
        row = await store.get(rated.id)
        assert row is not None
        assert row.status == "playing"
        await _shut(lobby)

    run(body)


def test_a_finished_table_is_no_longer_listed(tmp_path: Path) -> None:
    async def body() -> None:
        lobby = await open_lobby(tmp_path, replace(FAST, lobby_expiry=600.0))
        table = await lobby.create(lobby.options({"game": "tichu", "rounds": 1}), owner="o")
        owner = Client(table, "o", "O")
        await owner.hello()
        await owner.send(type="start", fill="random")  # bots alone, the owner watching
        assert [t.id for t in lobby.listed()] == [table.id]
        for _ in range(3000):  # the bots play the round out (in about two seconds)
            if table.status == "finished":
                break
            await asyncio.sleep(0.01)
        assert table.status == "finished"
        assert table.id in lobby.tables  # the owner still looks at the final table
        assert lobby.listed() == []  # but it is no table to join or watch any more
        assert await lobby.expire() == []  # and it ended: it was not abandoned
        row = await lobby.store.get(table.id)
        assert row is not None
        assert row.status == "finished"
        await _shut(lobby)

    run(body)
