"""The application in process: HTTP lobby endpoints and real WebSocket clients."""

import contextlib
import json
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from pagoda.server.app import Config, create_app
from pagoda.server.protocol import check_server

from .helpers import FAST

JSON = dict[str, Any]


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    config = Config(
        database_url=f"sqlite+aiosqlite:///{tmp_path}/db.sqlite3",
        settings=replace(FAST, bot_delay=30.0, rate=20.0, burst=10),
    )
    with TestClient(create_app(config), base_url="http://testserver") as c:
        yield c


@contextlib.contextmanager
def stranger(client: TestClient) -> Iterator[TestClient]:
    """The same client (one event loop for the app) without its cookies: another guest."""
    saved = dict(client.cookies)
    client.cookies.clear()
    try:
        yield client
    finally:
        client.cookies.clear()
        client.cookies.update(saved)


def until(ws: Any, kind: str, limit: int = 50) -> JSON:
    """Read messages (checking each) until one of type ``kind``."""
    for _ in range(limit):
        msg: JSON = ws.receive_json()
        check_server(msg)
        if msg["type"] == kind:
            return msg
    raise AssertionError(f"no {kind} in {limit} messages")


def test_page_and_lobby_endpoints(client: TestClient) -> None:
    assert "not built yet" in client.get("/").text
    me = client.get("/api/me").json()
    assert client.get("/api/me").json()["player"] == me["player"]
    assert "standard" in client.get("/api/games").json()["tichu"]["presets"]
    assert "hello" in client.get("/api/protocol").json()["client"]
    bad = client.post("/api/tables", json={"game": "chess"})
    assert bad.status_code == 400
    assert "game" in bad.json()["message"]
    assert client.post("/api/tables", json={"game": "tichu", "turn_timer": -1}).status_code == 400
    made = client.post("/api/tables", json={"game": "doudizhu", "rounds": 2}).json()
    assert [t["id"] for t in client.get("/api/tables").json()["tables"]] == [made["id"]]
    assert client.get(f"/api/tables/{made['id']}/record").status_code == 409
    hidden = client.post("/api/tables", json={"game": "tichu", "open": False}).json()
    assert len(client.get("/api/tables").json()["tables"]) == 1
    with stranger(client) as other:
        assert other.get(f"/api/tables/{hidden['id']}").status_code == 403
        assert other.get(f"/api/tables/{hidden['id']}?invite={hidden['invite']}").status_code == 200
    evil = client.post("/api/tables", json={"game": "tichu"}, headers={"origin": "http://evil.example"})
    assert evil.status_code == 403


def test_play_rejoin_and_refusals_over_websocket(client: TestClient) -> None:
    made = client.post("/api/tables", json={"game": "tichu", "rounds": 1, "open": False}).json()
    url = f"/ws/{made['id']}"
    with client.websocket_connect(url) as ws:
        ws.send_json({"type": "hello", "protocol": 1, "name": "Ann"})
        welcome = until(ws, "welcome")
        assert welcome["you"]["player"] == client.get("/api/me").json()["player"]
        until(ws, "snapshot")
        ws.send_json({"type": "sit", "seat": 0})
        token = until(ws, "table")["you"]["rejoin"]
        while token is None:
            token = until(ws, "table")["you"]["rejoin"]
        ws.send_json({"type": "start", "fill": "heuristic"})
        state = until(ws, "state")
        assert state["legal"]["actions"] == ["grand", "no-grand"]
        ws.send_json({"type": "act", "action": "no-grand", "ref": "a1"})
        event = until(ws, "event")
        assert event["event"]["action"] == "no-grand"
        before = until(ws, "state")
        ws.send_json({"type": "act", "action": "no-grand", "ref": "a2"})
        assert until(ws, "error")["ref"] == "a2"
        ws.send_text("{not json")
        assert until(ws, "error")["code"] == "bad_json"
        ws.send_text(json.dumps({"type": "chat", "text": "x" * 400}) + " " * 5000)
        assert until(ws, "error")["code"] == "too_large"
        for _ in range(30):
            ws.send_json({"type": "ping"})
        assert until(ws, "error")["code"] == "rate_limited"
    with stranger(client) as other, other.websocket_connect(url) as ws2:
        ws2.send_json({"type": "hello", "protocol": 1})
        assert until(ws2, "error")["code"] == "invite_required"
        with pytest.raises(WebSocketDisconnect):
            ws2.receive_json()
    with stranger(client) as other, other.websocket_connect(url) as ws3:
        ws3.send_json({"type": "hello", "protocol": 1, "rejoin": token, "since": 0})
        assert until(ws3, "welcome")["you"]["seat"] == 0
        snap = until(ws3, "snapshot")
        assert snap["game"] == before["game"]
        assert snap["seq"] == before["seq"]


def test_origin_is_checked_on_the_handshake(client: TestClient) -> None:
    made = client.post("/api/tables", json={"game": "tichu"}).json()
    with (
        pytest.raises(WebSocketDisconnect),
        client.websocket_connect(f"/ws/{made['id']}", headers={"origin": "http://evil.example"}) as ws,
    ):
        ws.receive_json()
    with client.websocket_connect(f"/ws/{made['id']}", headers={"origin": "http://testserver"}) as ok:
        ok.send_json({"type": "hello", "protocol": 1})
        assert until(ok, "welcome")["you"]["seat"] is None


def test_first_message_must_be_hello(client: TestClient) -> None:
    made = client.post("/api/tables", json={"game": "tichu"}).json()
    with client.websocket_connect(f"/ws/{made['id']}") as ws:
        ws.send_json({"type": "sit", "seat": 0})
        assert until(ws, "error")["code"] == "hello_first"
    with client.websocket_connect("/ws/nonesuch") as ws:
        assert until(ws, "error")["code"] == "no_table"
