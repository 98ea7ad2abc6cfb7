"""The application in process: HTTP lobby endpoints and real WebSocket clients."""

import contextlib
import itertools
import json
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from pagoda import doudizhu as ddz
from pagoda.server.app import Config, create_app
from pagoda.server.games import GAMES, TableOptions
from pagoda.server.protocol import apply_patch, check_server
from pagoda.server.replay import replay_frames
from pagoda.server.store import record_actions

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


def until_legal(ws: Any, limit: int = 50) -> JSON:
    """Read messages (checking each) until an event that carries the legal actions."""
    for _ in range(limit):
        msg = until(ws, "event")
        if "legal" in msg:
            return msg
    raise AssertionError(f"no event with legal actions in {limit} events")


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


def test_a_table_made_without_a_preset_gets_the_rulings_default(client: TestClient) -> None:
    # RULINGS.md: Tichu's default preset is standard, Dou Di Zhu's classic; the lobby picks the
    # first preset GET /api/games lists, so the list opens with the same default
    games = client.get("/api/games").json()
    assert games["tichu"]["presets"] == ["standard", "bsw"]
    assert games["doudizhu"]["presets"] == ["classic", "four_player", "laizi", "openspiel", "rlcard"]
    for game, default in (("tichu", "standard"), ("doudizhu", "classic")):
        made = client.post("/api/tables", json={"game": game})
        assert made.status_code == 201
        assert made.json()["table"]["options"]["preset"] == default
        table = client.get(f"/api/tables/{made.json()['id']}").json()
        assert table["options"]["preset"] == default
    bsw = client.post("/api/tables", json={"game": "tichu", "preset": "bsw"}).json()
    assert bsw["table"]["options"]["preset"] == "bsw"


def test_a_table_made_without_a_bot_gets_the_games_default_level(client: TestClient) -> None:
    # Tichu's tables get the club bot (it beats the heuristic by 37 points a round on 2,000
    # held-out deals, docs/strength.md); Dou Di Zhu's the heuristic (the learned bot, which wins
    # 0.566 ± 0.006 of the games against it on 10,000 held-out deals, is a level picked by name)
    games = client.get("/api/games").json()
    for game, default in (("tichu", "club"), ("doudizhu", "heuristic")):
        assert games[game]["default_bot"] == default
        assert default in [b["name"] for b in games[game]["bots"]]
        made = client.post("/api/tables", json={"game": game})
        assert made.status_code == 201
        assert made.json()["table"]["options"]["bot"] == default
    named = client.post("/api/tables", json={"game": "tichu", "bot": "heuristic"}).json()
    assert named["table"]["options"]["bot"] == "heuristic"


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
        started = until_legal(ws)  # the match's first view comes whole with the started event
        assert (started["event"]["kind"], started["legal"]["actions"]) == ("started", ["grand", "no-grand"])
        assert until(ws, "table")["table"]["status"] == "playing"
        ws.send_json({"type": "act", "action": "no-grand", "ref": "a1"})
        # the action's event tells the view's change and what the seat may do now; no state follows
        event = ws.receive_json()
        check_server(event)
        assert event["event"]["action"] == "no-grand"
        decided = [True, False, False, False]
        assert event["patch"] == {
            "game": "tichu",
            "to_move": 1,
            "awaiting": [1, 2, 3],
            "grand_decided": decided,
        }
        assert event["legal"] == {"actions": [], "exchange": False}
        ws.send_json({"type": "ping"})
        assert ws.receive_json() == {"type": "pong"}
        before = {"seq": event["seq"], "game": apply_patch(started["game"], event["patch"])}
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


def test_seed_option_deals_the_seeded_match(client: TestClient) -> None:
    for bad in (-1, 2**62, "7", True, 1.5):
        refused = client.post("/api/tables", json={"game": "tichu", "seed": bad})
        assert refused.status_code == 400, bad
        assert "seed" in refused.json()["message"]
    made = client.post("/api/tables", json={"game": "tichu", "seed": 2**62 - 1}).json()
    assert "seed" not in made["table"]["options"]  # the seed is never shown while it is live
    # the dealt hand is the rules core's deal of that seed (the bots wait 30 s: nothing moves)
    made = client.post("/api/tables", json={"game": "doudizhu", "seed": 12345}).json()
    with client.websocket_connect(f"/ws/{made['id']}") as ws:
        ws.send_json({"type": "hello", "protocol": 1, "name": "Ann"})
        ws.send_json({"type": "sit", "seat": 0})
        ws.send_json({"type": "start", "fill": "random"})
        state = until_legal(ws)
    deal = ddz.Match.new(12345, ddz.RULES["classic"]).current
    assert state["game"]["hand"] == str(deal.view(0).hand)


@pytest.fixture
def quick(tmp_path: Path) -> Iterator[TestClient]:
    """An app whose bots move at once, so an all-bot table finishes while the test waits."""
    config = Config(
        database_url=f"sqlite+aiosqlite:///{tmp_path}/db.sqlite3",
        settings=replace(FAST, bot_delay=0.0),
    )
    with TestClient(create_app(config), base_url="http://testserver") as c:
        yield c


def test_replay_of_a_finished_table(quick: TestClient) -> None:
    body = {"game": "doudizhu", "rounds": 1, "seed": 7, "bot": "random"}
    made = quick.post("/api/tables", json=body).json()
    with quick.websocket_connect(f"/ws/{made['id']}") as ws:
        ws.send_json({"type": "hello", "protocol": 1, "name": "Ann"})
        assert quick.get(f"/api/tables/{made['id']}/replay").status_code == 409  # live: no hands
        ws.send_json({"type": "start", "fill": "random"})
        kinds = []
        while "match_over" not in kinds:
            kinds.append(until(ws, "event", 200)["event"]["kind"])
        round_over = [
            e
            for e in quick.get(f"/api/tables/{made['id']}/events").json()["events"]
            if e["kind"] == "round_over"
        ]
    replay = quick.get(f"/api/tables/{made['id']}/replay").json()
    actions = record_actions(quick.get(f"/api/tables/{made['id']}/record").text)
    assert replay["game"] == "doudizhu"
    assert [s["bot"] for s in replay["seats"]] == ["random"] * 3
    assert "seed" not in replay["options"]
    [only] = replay["rounds"]
    assert only["summary"] == round_over[0]["summary"]
    frames = only["frames"]
    assert len(frames) == 1 + len(actions)  # the deal, then one frame per action
    assert [(f["seat"], f["action"]) for f in frames[1:]] == actions
    assert frames[0]["action"] is None
    assert frames[0]["kitty"] is None
    # the deal: 17 cards a seat (3 * 17 = 51 of the 54; the other 3 are kept)
    assert [len(h) for h in frames[0]["hands"]] == [17, 17, 17]
    landlord = frames[-1]["landlord"]
    # the landlord takes the 3 kept cards; every card played leaves exactly its player's hand
    for before, after in itertools.pairwise(frames):
        seat, text = after["seat"], after["action"]
        if before["kitty"] is None and after["kitty"] is not None:
            assert sorted(after["hands"][landlord]) == sorted(before["hands"][landlord] + after["kitty"])
        elif text.startswith("play "):
            played = text.split()[1]
            left = list(before["hands"][seat])
            for c in played:
                left.remove(c)
            assert sorted(after["hands"][seat]) == sorted(left)
        else:
            assert after["hands"] == before["hands"], text
    assert "" in frames[-1]["hands"]  # the winner went out
    assert frames[-1]["scores"] == round_over[0]["summary"]["scores"]


def test_tichu_replay_frames_keep_every_card_round_by_round() -> None:
    options = TableOptions("tichu", "standard", None, 2, 0.0, True, "random", 99)
    match = GAMES["tichu"].new(options)
    actions: list[tuple[int, str]] = []
    while not match.is_over:
        seat = match.round.awaiting[0]
        text = str(match.round.legal_actions(seat)[0])
        actions.append((seat, text))
        match = match.apply(seat, text)
    first, second = replay_frames(options, actions)
    # each round: its deal, then one frame per action
    assert len(first["frames"]) + len(second["frames"]) == 2 + len(actions)
    assert [(f["seat"], f["action"]) for f in first["frames"][1:] + second["frames"][1:]] == actions
    for r, done in zip((first, second), match.finished, strict=True):
        assert r["summary"]["points"] == list(done.score())
        assert [len(h) for h in r["frames"][0]["hands"]] == [8, 8, 8, 8]  # before the Grand Tichu calls
    # the second round is dealt with the first one's scores
    assert second["frames"][0]["scores"] == first["summary"]["scores"] == first["frames"][-1]["scores"]
    assert second["summary"]["scores"] == list(match.scores)
    frames = first["frames"]
    for before, after in itertools.pairwise(frames):
        seat, words = after["seat"], after["action"].split()
        if words[0] == "play":
            cut = next((i for i, w in enumerate(words) if w in ("as", "wish")), len(words))
            left = [c for c in before["hands"][seat] if c not in words[1:cut]]
            assert after["hands"][seat] == left  # exactly the played cards leave the hand
            assert after["hands"][:seat] + after["hands"][seat + 1 :] == (
                before["hands"][:seat] + before["hands"][seat + 1 :]
            )
        elif words[0] in ("pass", "take", "give-dragon", "tichu"):
            assert after["hands"] == before["hands"], after["action"]
    # after the deal of the last 6 cards, 4 * 14 = 56 cards are held until the first play
    dealt = next(f for f in frames if f["phase"] != "grand_tichu")
    assert sum(len(h) for h in dealt["hands"]) == 56
    assert len(frames[-1]["out"]) >= 2  # a round ends with two seats out at least
