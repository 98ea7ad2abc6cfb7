"""Property tests: the account endpoints reveal no secret, and hostile requests change nothing."""

import json
import re
import sqlite3
from collections.abc import Iterator
from contextlib import closing
from http.cookiejar import Cookie
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

from pagoda import tichu

from .helpers import card_words, hidden_from
from .test_accounts import counts as all_counts
from .test_accounts import make

JSON = dict[str, Any]
PASSWORD = "analytical engine"

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=30),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4),
    max_leaves=12,
)
bodies = st.one_of(
    json_values.map(lambda v: ("json", v)),
    st.binary(max_size=200).map(lambda b: ("raw", b)),
    st.dictionaries(
        st.sampled_from(["name", "password", "old", "new", "extra"]),
        st.one_of(st.text(max_size=300), st.integers(), st.none(), st.lists(st.text(max_size=5))),
        max_size=3,
    ).map(lambda d: ("json", d)),
)


#: Who reads: the account with the match and the live table, another guest (with a rated match of
#: its own), another account, and someone with no cookie at all.
READERS = ["ada", "guest", "bob", "anonymous"]


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[TestClient, Path, JSON]]:
    """An account (logged in) with a finished rated match and a live table holding hidden cards;
    the cookies of each of :data:`READERS` in ``secrets["cookies"]``."""
    from .test_accounts import play_rated

    tmp = tmp_path_factory.mktemp("hostile")
    with make(f"sqlite+aiosqlite:///{tmp}/db.sqlite3") as http:
        assert http.post("/api/register", json={"name": "Ada", "password": PASSWORD}).status_code == 201
        play_rated(http, rounds=1)
        live = http.post("/api/tables", json={"game": "tichu", "open": False}).json()
        with http.websocket_connect(f"/ws/{live['id']}") as ws:
            ws.send_json({"type": "hello", "protocol": 1})
            ws.send_json({"type": "sit", "seat": 0})
            ws.send_json({"type": "start", "fill": "heuristic"})
            rejoin, hand = None, None
            while rejoin is None or hand is None:
                msg = ws.receive_json()
                if msg["type"] in ("table", "snapshot", "welcome"):
                    rejoin = msg["you"].get("rejoin") or rejoin
                if msg["type"] == "event" and (msg.get("game") or {}).get("hand"):
                    hand = msg["game"]["hand"]  # (the started event carries the first view whole)
        # Every card Ada has not seen: the other seats' hands, the first eight and the six to come.
        others = sorted({str(c) for c in tichu.CARDS} - set(hand))
        assert len(others) == 56 - 8
        server = http.app.state.server  # type: ignore[attr-defined]
        dealt = server.live.tables[live["id"]].match.round  # the server's own match
        assert hidden_from(dealt, 0) <= set(others)
        cookies = {"ada": list(http.cookies.jar), "anonymous": []}
        http.cookies.clear()
        play_rated(http, rounds=1)
        cookies["guest"] = list(http.cookies.jar)
        http.cookies.clear()
        assert http.post("/api/register", json={"name": "Bob", "password": PASSWORD}).status_code == 201
        cookies["bob"] = list(http.cookies.jar)
        use(http, cookies["ada"])
        secrets = {
            "invite": live["invite"],
            "rejoin": rejoin,
            "hand": hand,
            "others": others,
            "table": live["id"],
            "cookies": cookies,
        }
        yield http, tmp / "db.sqlite3", secrets


def use(http: TestClient, cookies: list[Cookie]) -> None:
    """Send ``cookies`` from now on, and no other."""
    http.cookies.clear()
    for cookie in cookies:
        http.cookies.jar.set_cookie(cookie)


def counts(db: Path) -> dict[str, int]:
    """The rows of every table but the event log (the live table's bots play on meanwhile)."""
    return {k: v for k, v in all_counts(db).items() if k != "events"}


def forbidden(db: Path, secrets: JSON, http: TestClient, reader: str = "ada") -> list[str]:
    """Every secret the server holds: hashes, session tokens (cookie and raw hash), invites, rejoin
    tokens, and the guest tokens of every reader but the one reading now."""
    with closing(sqlite3.connect(db)) as conn:
        out = [r[0] for r in conn.execute("SELECT password FROM accounts")]
        out += [r[0] for r in conn.execute("SELECT token_hash FROM sessions")]
        out += [r[0] for r in conn.execute("SELECT invite FROM tables")]
    out += [c.value for c in http.cookies.jar if c.name == "pagoda_session"]
    for who, cookies in secrets.get("cookies", {}).items():
        out += [c.value for c in cookies if c.name == "pagoda_session"]
        out += [c.value for c in cookies if c.name == "pagoda_guest" and who != reader]
    out.append(secrets["rejoin"])
    return [s for s in out if s]


READS = [
    "/api/me",
    "/api/leaderboard/doudizhu",
    "/api/leaderboard/tichu",
    "/api/players/ada",
    "/api/players/bob",
    "/api/my/tables",
    "/api/history",
]


def check_no_secret(http: TestClient, db: Path, secrets: JSON, path: str, reader: str = "ada") -> None:
    r = http.get(path)
    assert r.status_code == 200, (path, r.text)
    for secret in forbidden(db, secrets, http, reader):
        assert secret not in r.text, (path, secret)
    # Ada's own cards are no answer's business either, and a stranger may see no seat's.
    hidden = set(secrets["hand"]) | set(secrets["others"])
    assert not card_words(r.text) & hidden, path


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    reader=st.sampled_from(READERS),
    path=st.sampled_from(READS),
    query=st.sampled_from(["", "limit=5", "offset=1", "limit=100&offset=0"]),
)
def test_no_read_reveals_a_secret(
    world: tuple[TestClient, Path, JSON], reader: str, path: str, query: str
) -> None:
    http, db, secrets = world
    saved = list(http.cookies.jar)
    use(http, secrets["cookies"][reader])
    try:
        check_no_secret(http, db, secrets, f"{path}?{query}", reader)
    finally:
        use(http, saved)


@pytest.mark.parametrize("reader", READERS)
def test_every_reader_reads_every_answer_without_a_secret(
    world: tuple[TestClient, Path, JSON], reader: str
) -> None:
    http, db, secrets = world
    saved = list(http.cookies.jar)
    use(http, secrets["cookies"][reader])
    try:
        me = http.get("/api/me").json()
        account = None if me["account"] is None else me["account"]["name"]
        assert account == {"ada": "Ada", "bob": "Bob"}.get(reader)  # each reader is who it says
        for path in READS:
            check_no_secret(http, db, secrets, path, reader)
    finally:
        use(http, saved)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(name=st.text(max_size=24), password=st.text(max_size=40))
def test_no_account_answer_reveals_a_secret(
    world: tuple[TestClient, Path, JSON], name: str, password: str
) -> None:
    http, db, secrets = world
    for path in ("/api/register", "/api/login"):
        saved = dict(http.cookies)
        http.cookies.clear()
        r = http.post(path, json={"name": name, "password": password})
        for secret in forbidden(db, secrets, http):
            assert secret not in r.text, (path, secret)
        http.cookies.clear()
        http.cookies.update(saved)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    path=st.sampled_from(["/api/register", "/api/login", "/api/logout", "/api/password"]),
    body=bodies,
    logged_in=st.booleans(),
)
def test_hostile_posts_get_a_clear_4xx_and_change_nothing(
    world: tuple[TestClient, Path, JSON], path: str, body: tuple[str, Any], logged_in: bool
) -> None:
    http, db, _ = world
    kind, value = body
    if path == "/api/logout" and _empty(kind, value):
        return  # a plain logout: that one does something
    if isinstance(value, dict) and path in ("/api/register", "/api/login") and _plausible(value):
        return  # may be a real registration or login
    saved = dict(http.cookies)
    if not logged_in:
        http.cookies.clear()
    before = counts(db)
    if kind == "json":
        r = http.post(path, json=value)
    else:
        r = http.post(path, content=value, headers={"content-type": "application/json"})
    after = counts(db)
    http.cookies.clear()
    http.cookies.update(saved)
    if path == "/api/logout" and r.status_code == 200:
        pytest.fail("a malformed logout was accepted")
    assert 400 <= r.status_code < 500, (path, value, r.text)
    data = r.json()
    assert re.fullmatch(r"[a-z_]+", data["error"])
    assert data["message"]
    assert after == before


def _empty(kind: str, value: Any) -> bool:
    """Is ``value`` no body, or a body that reads as the empty object (``b" {} "``)?"""
    if kind == "json":
        return value in ({}, None)
    if not value.strip():
        return True
    try:
        return bool(json.loads(value) == {})
    except ValueError:
        return False


def _plausible(value: JSON) -> bool:
    return set(value) <= {"name", "password"} and all(isinstance(v, str) for v in value.values())


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    game=st.text(alphabet="abcdefghijklmnopqrstuvwxyz%0-", min_size=1, max_size=12),
    limit=st.one_of(st.integers(-5, 500).map(str), st.text(max_size=6)),
    offset=st.one_of(st.integers(-5, 10**7).map(str), st.text(max_size=6)),
)
def test_bad_leaderboard_and_profile_requests_are_a_clear_4xx(
    world: tuple[TestClient, Path, JSON], game: str, limit: str, offset: str
) -> None:
    http, db, _ = world
    before = counts(db)
    r = http.get(f"/api/leaderboard/{game}", params={"limit": limit, "offset": offset})
    ok_game = game in ("tichu", "doudizhu")
    ok_page = limit.isdigit() and 1 <= int(limit) <= 100 and offset.isdigit() and int(offset) <= 1_000_000
    if ok_game and ok_page:
        assert r.status_code == 200
    else:
        assert 400 <= r.status_code < 500, (game, limit, offset, r.text)
        assert r.json()["error"] in ("no_game", "bad_request")
    p = http.get(f"/api/players/{game}x")
    assert p.status_code == 404
    assert p.json()["error"] == "no_player"
    assert counts(db) == before
