"""The HTTP endpoints at the edge: each answer is its model's (read strictly, nothing lost), each
account request is read by its model with a code for what is wrong, and the schema document and
the client's types are made from the same models."""

import ast
import time
import typing
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgspec
import pytest
from starlette.testclient import TestClient

import pagoda.server.app
from pagoda.server import api, messages

from .test_accounts import make, play_rated

PASSWORD = "analytical engine"


@pytest.fixture
def http(tmp_path: Path) -> Iterator[TestClient]:
    with make(f"sqlite+aiosqlite:///{tmp_path}/db.sqlite3") as c:
        yield c


def answer(r: Any, model: type[msgspec.Struct], status: int = 200) -> Any:
    """The answer ``r`` read as ``model`` in strict mode (no field missing, none unknown, no
    string for a number), checked to say all the body said."""
    assert r.status_code == status, r.text
    value = msgspec.json.decode(r.content, type=model, strict=True)
    assert msgspec.to_builtins(value) == r.json()
    return value


def test_every_endpoint_answers_with_its_model(http: TestClient) -> None:
    seen: set[str] = set()

    def got(endpoint: str, r: Any, status: int = 200) -> Any:
        seen.add(endpoint)
        return answer(r, api.ENDPOINTS[endpoint][1], status)

    guest = got("GET /api/me", http.get("/api/me"))
    assert guest.guest is not None
    assert guest.account is None
    games = got("GET /api/games", http.get("/api/games"))
    assert games.tichu.presets[0] == "standard"
    ada = got(
        "POST /api/register", http.post("/api/register", json={"name": "Ada", "password": PASSWORD}), 201
    )
    assert (ada.player, ada.guest, ada.account.name) == (guest.player, None, "Ada")
    play_rated(http, rounds=1)
    created = got("POST /api/tables", http.post("/api/tables", json={"game": "tichu"}), 201)
    assert created.guest is None  # (an account's session is its cookie)
    for _ in range(500):  # the result is written as the match ends, after its last event
        profile = got("GET /api/players/{name}", http.get("/api/players/ada"))
        if profile.recent:
            break
        time.sleep(0.02)
    [match] = profile.recent
    assert match.change is not None
    assert profile.ratings["doudizhu"].games == 1
    board = got("GET /api/leaderboard/{game}", http.get("/api/leaderboard/doudizhu"))
    assert [p.name for p in board.players] == ["Ada"]
    mine = got("GET /api/my/tables", http.get("/api/my/tables"))
    assert [t.id for t in mine.live] == [created.id]
    assert [m.id for m in mine.finished] == [match.id]
    assert mine.finished[0].change is msgspec.UNSET  # (a profile's matches carry it, these not)
    history = got("GET /api/history", http.get("/api/history"))
    assert [(t.id, t.result and t.result.id) for t in history.tables] == [(match.id, match.id)]
    changed = {"old": PASSWORD, "new": "difference engine"}
    assert got("POST /api/password", http.post("/api/password", json=changed)).account.name == "Ada"
    assert got("POST /api/logout", http.post("/api/logout", json={})).account is None
    back = {"name": "ada", "password": "difference engine"}
    assert got("POST /api/login", http.post("/api/login", json=back)).player == ada.player
    assert seen == set(api.ENDPOINTS)


def test_refusals_are_failures_with_their_codes_and_params(http: TestClient) -> None:
    assert http.post("/api/register", json={"name": "Ada", "password": PASSWORD}).status_code == 201
    http.post("/api/logout")
    taken = answer(http.post("/api/register", json={"name": "ADA", "password": PASSWORD}), api.Failure, 409)
    assert (taken.error, taken.params) == ("name_taken", {"name": "ADA"})
    assert answer(http.get("/api/leaderboard/chess"), api.Failure, 404).error == "no_game"
    assert answer(http.get("/api/players/nobody"), api.Failure, 404).error == "no_player"
    assert answer(http.post("/api/password", json={"old": "a", "new": "b"}), api.Failure, 401).error == (
        "login_required"
    )


@pytest.mark.parametrize(
    ("path", "body", "code", "says"),
    [
        ("/api/register", {"password": PASSWORD}, "name_missing", "name is missing"),
        (
            "/api/register",
            {"name": 17, "password": PASSWORD},
            "name_missing",
            "name is a string, not an integer",
        ),
        ("/api/register", {"name": "Ada"}, "password_missing", "password is missing"),
        (
            "/api/register",
            {"name": "Ada", "password": None},
            "password_missing",
            "password is a string, not null",
        ),
        (
            "/api/register",
            {"name": "Ada", "password": PASSWORD, "pw": 1},
            "bad_request",
            "unknown field 'pw'",
        ),
        (
            "/api/login",
            {"name": "Ada", "password": ["x"]},
            "bad_request",
            "password is a string, not an array",
        ),
        ("/api/login", {"name": "Ada"}, "bad_request", "password is missing"),
        ("/api/login", ["Ada", PASSWORD], "bad_request", "the body is a JSON object"),
        ("/api/logout", {"all": True}, "bad_request", "unknown field 'all'; the fields are none"),
        ("/api/password", {"old": PASSWORD, "new": 8}, "bad_request", "new is a string, not an integer"),
        (
            "/api/password",
            {"old": PASSWORD, "new": PASSWORD, "x": 0},
            "bad_request",
            "the fields are old, new",
        ),
    ],
)
def test_a_refused_body_says_what_is_wrong_by_a_code(
    http: TestClient,
    path: str,
    body: Any,
    code: str,
    says: str,
) -> None:
    refused = answer(http.post(path, json=body), api.Failure, 400)
    assert refused.error == code
    assert says in refused.message


@pytest.mark.parametrize(
    ("raw", "says"),
    [
        (b'{"name": "Ada", "password": ', "the body is not JSON"),
        (b'{"name": "\\ud800", "password": "analytical engine"}', "the body is not JSON"),
        (b'{"name": ' + b"[" * 5000 + b"]" * 5000 + b"}", "the body is nested too deep"),
        (b"[" * 100_000, "the body is nested too deep"),
    ],
)
def test_a_body_that_is_no_json_is_bad_json(raw: bytes, says: str) -> None:
    with pytest.raises(api.BadBody, match=says) as refused:
        api.parse_body(raw, api.Register)
    assert refused.value.code == "bad_json"


def test_an_empty_body_is_an_empty_object() -> None:
    assert api.parse_body(b"", api.Logout) == api.Logout()
    with pytest.raises(api.BadBody, match="name is missing"):
        api.parse_body(b"", api.Login)


SERVER = Path(pagoda.server.app.__file__ or "").parent


def _codes(path: Path, call: str, index: int) -> set[str]:
    """The string constants passed to ``call`` (by name) at position ``index`` in a module."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == call:
            arg = node.args[index] if len(node.args) > index else None
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                found.add(arg.value)
    return found


def test_the_http_error_codes_are_every_code_the_endpoints_use() -> None:
    # ``_fail``'s in the app, ``Refusal``'s in accounts, ``TooManyTables``' in the lobby,
    # ``BadBody``'s and the bodies' own
    used = _codes(SERVER / "app.py", "_fail", 1) | _codes(SERVER / "accounts.py", "Refusal", 0)
    used |= _codes(SERVER / "lobby.py", "TooManyTables", 0)
    used |= _codes(SERVER / "api.py", "BadBody", 0)
    for request, _ in api.ENDPOINTS.values():
        used |= set((request or api.Body).codes.values())
    assert {"bad_json", "name_taken", "too_many_attempts", "no_player", "name_missing"} <= used
    assert sorted(used ^ set(typing.get_args(api.ApiErrorCode))) == []


def test_the_table_error_codes_are_every_code_the_websocket_sends() -> None:
    # ``error(...)`` messages, and the ``ProtocolError`` and ``Refused`` they are made from
    used = set()
    for path in SERVER.glob("*.py"):
        used |= _codes(path, "error", 0) | _codes(path, "ProtocolError", 0) | _codes(path, "Refused", 0)
    assert {"bad_frame", "seat_taken", "illegal", "too_many_connections", "bad_name"} <= used
    assert sorted(used ^ set(typing.get_args(messages.ErrorCode))) == []


def test_the_schema_document_names_each_endpoints_models() -> None:
    doc = api.schemas()
    assert {"protocol", "client", "server", "$defs"} <= set(doc)
    for endpoint, (request, answered) in api.ENDPOINTS.items():
        refs = doc["http"][endpoint]
        assert refs["answer"] == {"$ref": f"#/$defs/{answered.__name__}"}
        assert ("request" in refs) == (request is not None)
    assert doc["refusal"] == {"$ref": "#/$defs/Failure"}
    assert doc["$defs"]["Register"]["additionalProperties"] is False
    codes = doc["$defs"]["Failure"]["properties"]["error"]["enum"]
    assert sorted(codes) == sorted(typing.get_args(api.ApiErrorCode))


def test_the_protocol_endpoint_serves_the_whole_document(tmp_path: Path) -> None:
    with make(f"sqlite+aiosqlite:///{tmp_path}/db.sqlite3") as client:
        assert client.get("/api/protocol").json() == api.schemas()


def test_a_table_request_is_read_by_the_fields_of_its_model(http: TestClient) -> None:
    # every field CreateTable names is one the lobby reads, and it reads no other
    every = {"game": "tichu", "preset": "bsw", "target": 500, "rounds": None, "turn_timer": 20.0}
    every |= {"open": False, "bot": "heuristic", "seed": 11, "rated": False}
    assert set(every) == {f.encode_name for f in msgspec.structs.fields(api.CreateTable)}
    made = answer(http.post("/api/tables", json=every), api.Created, 201)
    options = made.table.options
    assert options.rated is False  # (a false rated is the default, left out of the answer)
    shown = {k: v for k, v in every.items() if k not in ("seed", "rated")}
    assert {k: v for k, v in msgspec.to_builtins(options).items() if k != "rated"} == shown
    msgspec.convert(every, api.CreateTable)  # and the model takes it as it is
    refused = http.post("/api/tables", json={**every, "players": 4})
    assert refused.status_code == 400
    assert refused.json()["error"] == "bad_options"
    fields = ", ".join(every)
    assert refused.json()["message"] == f"unknown field 'players'; the fields are {fields}"
