"""Accounts, sessions, merged guests, rated matches, the leaderboard and profiles, in process."""

import asyncio
import contextlib
import sqlite3
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from pagoda.server.app import Config, create_app
from pagoda.server.limits import Rate
from pagoda.server.results import SeatResult, rate_match, settle
from pagoda.server.store import SqlStore
from pagoda.server.table import Table

from .helpers import FAST, Client, open_lobby, run

JSON = dict[str, Any]
#: argon2 at its cheapest: the tests hash many passwords.
CHEAP = {"argon2_time_cost": 1, "argon2_memory_kib": 8}


def make(url: str, **config: Any) -> TestClient:
    """The application over ``url`` with cheap hashing (and ``config`` for the rest)."""
    settings = replace(FAST, bot_delay=0.0, rate=50.0, burst=50)
    app = create_app(Config(database_url=url, settings=settings, **{**CHEAP, **config}))
    return TestClient(app, base_url="http://testserver")


@pytest.fixture
def http(tmp_path: Path) -> Iterator[TestClient]:
    with make(f"sqlite+aiosqlite:///{tmp_path}/db.sqlite3") as c:
        yield c


@contextlib.contextmanager
def stranger(client: TestClient) -> Iterator[TestClient]:
    """The same client (one event loop for the app) without its cookies: someone else."""
    saved = dict(client.cookies)
    client.cookies.clear()
    try:
        yield client
    finally:
        client.cookies.clear()
        client.cookies.update(saved)


def counts(db: Path) -> dict[str, int]:
    """The rows of every table of the database (to see that a refused request changed nothing)."""
    with contextlib.closing(sqlite3.connect(db)) as conn:
        names = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        return {n: conn.execute(f'SELECT count(*) FROM "{n}"').fetchone()[0] for n in names}


def check_accounts(http: TestClient) -> None:
    """Register, log out, log in, change the password: the flow and its refusals."""
    guest = http.get("/api/me").json()
    assert guest["account"] is None
    assert guest["guest"]
    made = http.post("/api/register", json={"name": "Ada", "password": "analytical engine"})
    assert made.status_code == 201, made.text
    me = http.get("/api/me").json()
    # The guest that registered is the account: same player id, no guest token any more.
    assert me == {"player": guest["player"], "guest": None, "account": made.json()["account"]}
    assert me["account"]["name"] == "Ada"
    assert http.post("/api/register", json={"name": "Eve", "password": "12345678x"}).status_code == 409
    with stranger(http):
        for name in ("ada", "ADA", "Ａｄａ"):  # any case, and the full-width letters NFKC folds
            taken = http.post("/api/register", json={"name": name, "password": "something else"})
            assert (taken.status_code, taken.json()["error"]) == (409, "name_taken"), name
        # The old guest token speaks for nobody now: the account's id answers to its session alone.
        assert (
            http.get("/api/me", headers={"x-pagoda-guest": guest["guest"]}).json()["player"] != me["player"]
        )
        wrong = http.post("/api/login", json={"name": "ada", "password": "wrong password"})
        unknown = http.post("/api/login", json={"name": "nobody-here", "password": "wrong password"})
        assert wrong.status_code == unknown.status_code == 401
        assert wrong.json() == unknown.json()  # one answer: no telling which names exist
        ok = http.post("/api/login", json={"name": "aDa", "password": "analytical engine"})
        assert ok.status_code == 200, ok.text
        assert http.get("/api/me").json()["player"] == me["player"]
        # Changing the password ends the other sessions, not this one.
        bad = http.post("/api/password", json={"old": "nope nope", "new": "difference engine"})
        assert (bad.status_code, bad.json()["error"]) == (403, "wrong_password")
        changed = http.post("/api/password", json={"old": "analytical engine", "new": "difference engine"})
        assert changed.status_code == 200, changed.text
        assert http.get("/api/me").json()["account"]["name"] == "Ada"
    assert http.get("/api/me").json()["account"] is None  # the first session ended
    assert http.post("/api/login", json={"name": "Ada", "password": "analytical engine"}).status_code == 401
    assert http.post("/api/login", json={"name": "Ada", "password": "difference engine"}).status_code == 200
    assert http.post("/api/logout").json() == {"account": None}
    assert http.get("/api/me").json()["account"] is None


def test_register_log_in_log_out_change_the_password(http: TestClient) -> None:
    check_accounts(http)


def stored_passwords(db: Path) -> list[str]:
    """The ``password`` column of every account, as the database holds it."""
    with contextlib.closing(sqlite3.connect(db)) as conn:
        return [r[0] for r in conn.execute("SELECT password FROM accounts ORDER BY id")]


def test_the_database_keeps_an_argon2id_hash_never_the_password(http: TestClient, tmp_path: Path) -> None:
    db = tmp_path / "db.sqlite3"
    clear = "analytical engine"
    assert http.post("/api/register", json={"name": "Ada", "password": clear}).status_code == 201
    [first] = stored_passwords(db)
    # argon2id, with the costs the server was given (CHEAP: 8 KiB, one pass, one lane)
    assert first.startswith("$argon2id$v=19$m=8,t=1,p=1$")
    assert clear not in first
    new = "difference engine"
    assert http.post("/api/password", json={"old": clear, "new": new}).status_code == 200
    [second] = stored_passwords(db)
    assert second.startswith("$argon2id$v=19$m=8,t=1,p=1$")
    assert new not in second
    assert second != first
    with contextlib.closing(sqlite3.connect(db)) as conn:  # nor anywhere else in the database
        dump = "\n".join(conn.iterdump())
    assert clear not in dump
    assert new not in dump


@pytest.mark.parametrize(
    ("name", "code", "says"),
    [
        ("ab", "name_length", "3 to 20 characters, not 2"),
        ("a" * 21, "name_length", "not 21"),
        ("two words", "name_chars", "'U+0020' is none of these"),
        ("semi;colon", "name_chars", "';' is none of these"),
        ("_under", "name_start", "starts with a letter or a digit"),
        ("Admin", "name_reserved", "'Admin' is reserved"),
        ("bot-one", "name_reserved", "reserved"),
        (17, "name_missing", "name is a string"),
    ],
)
def test_every_refused_name_says_why(http: TestClient, name: Any, code: str, says: str) -> None:
    got = http.post("/api/register", json={"name": name, "password": "long enough"})
    assert (got.status_code, got.json()["error"]) == (400, code)
    assert says in got.json()["message"]


def test_names_in_other_scripts_and_the_password_rules(http: TestClient) -> None:
    assert http.post("/api/register", json={"name": "하늘", "password": "short"}).json()["error"] == (
        "name_length"
    )
    same = http.post("/api/register", json={"name": "하늘별", "password": "하늘별"})
    assert same.json()["error"] == "password_length"
    assert http.post("/api/register", json={"name": "하늘별", "password": "12345"}).json()["params"] == {
        "min": 8,
        "max": 256,
    }
    assert (
        http.post("/api/register", json={"name": "하늘별", "password": "하늘별하늘별하늘"}).status_code == 201
    )


def test_logins_are_rate_limited_with_a_clear_error(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path}/db.sqlite3"
    with make(url, login_per_name=Rate(0.001, 3)) as http:
        assert (
            http.post("/api/register", json={"name": "Ada", "password": "analytical engine"}).status_code
            == 201
        )
        http.post("/api/logout")
        codes = [
            http.post("/api/login", json={"name": "ada", "password": f"guess {i}xx"}).status_code
            for i in range(3)
        ]
        assert codes == [401, 401, 401]
        limited = http.post("/api/login", json={"name": "ADA", "password": "analytical engine"})
        assert limited.status_code == 429
        assert limited.json()["error"] == "too_many_attempts"
        assert "try again in 1000 seconds" in limited.json()["message"]
        assert limited.headers["retry-after"] == "1000"
        # Another name is not held up by it.
        assert http.post("/api/login", json={"name": "bob", "password": "whatever1"}).status_code == 401


def test_a_guest_keeps_its_tables_when_it_registers_or_logs_in(http: TestClient) -> None:
    first = http.post("/api/tables", json={"game": "tichu", "open": False}).json()
    http.post("/api/register", json={"name": "Ada", "password": "analytical engine"})
    mine = http.get("/api/my/tables").json()
    assert [t["id"] for t in mine["live"]] == [first["id"]]
    http.post("/api/logout")
    # Another guest, on another device, makes a table, then logs in: the table is the account's.
    second = http.post("/api/tables", json={"game": "doudizhu", "open": False}).json()
    with http.websocket_connect(f"/ws/{second['id']}") as ws:
        ws.send_json({"type": "hello", "protocol": 1, "name": "guest name"})
        ws.send_json({"type": "sit", "seat": 1})
        ws.send_json({"type": "ping", "ref": "p"})
        while ws.receive_json()["type"] != "pong":
            pass
    old = http.get("/api/me").json()
    assert http.post("/api/login", json={"name": "ada", "password": "analytical engine"}).status_code == 200
    me = http.get("/api/me").json()
    assert me["player"] != old["player"]
    mine = http.get("/api/my/tables").json()
    assert sorted(t["id"] for t in mine["live"]) == sorted([first["id"], second["id"]])
    table = http.get(f"/api/tables/{second['id']}").json()  # invite-only, and the account's now
    assert table["owner"] == me["player"]
    assert table["seats"][1]["player"] == me["player"]
    assert table["seats"][1]["name"] == "Ada"


def test_a_seated_guest_that_registers_plays_on_under_the_account_name(http: TestClient) -> None:
    made = http.post("/api/tables", json={"game": "tichu", "open": False}).json()
    with http.websocket_connect(f"/ws/{made['id']}") as ws:
        ws.send_json({"type": "hello", "protocol": 1, "name": "guest name"})
        ws.send_json({"type": "sit", "seat": 2})
        ws.send_json({"type": "ping", "ref": "p"})
        while ws.receive_json()["type"] != "pong":
            pass
    before = http.get(f"/api/tables/{made['id']}").json()["seats"][2]
    guest = http.get("/api/me").json()["player"]
    assert (before["player"], before["name"]) == (guest, "guest name")
    made_account = http.post("/api/register", json={"name": "Ada", "password": "analytical engine"})
    assert made_account.status_code == 201
    # Registering keeps the player id; the seat shows the account's name at once.
    after = http.get(f"/api/tables/{made['id']}").json()["seats"][2]
    assert (after["player"], after["name"]) == (guest, "Ada")


def play_rated(http: TestClient, game: str = "doudizhu", **options: Any) -> str:
    """Sit at seat 0 of a new rated table, fill it with random bots, let a bot play for us to the end."""
    made = http.post("/api/tables", json={"game": game, "rated": True, "bot": "random", **options}).json()
    with http.websocket_connect(f"/ws/{made['id']}") as ws:
        ws.send_json({"type": "hello", "protocol": 1})
        ws.send_json({"type": "sit", "seat": 0})
        ws.send_json({"type": "start", "fill": "random"})
        ws.send_json({"type": "autoplay", "on": True})
        for _ in range(20000):
            msg = ws.receive_json()
            if msg["type"] == "event" and msg["event"]["kind"] == "match_over":
                break
        else:
            raise AssertionError("the match did not end")
    return str(made["id"])


def test_a_rated_match_changes_ratings_once_and_shows_on_the_leaderboard(
    http: TestClient, tmp_path: Path
) -> None:
    http.post("/api/register", json={"name": "Ada", "password": "analytical engine"})
    table = play_rated(http, rounds=1)
    for _ in range(200):
        profile = http.get("/api/players/ADA").json()
        if profile["ratings"] and profile["recent"]:
            break
        time.sleep(0.02)
    rating = profile["ratings"]["doudizhu"]
    assert rating["games"] == 1
    [match] = profile["recent"]
    assert match["id"] == table
    assert match["rated"]
    assert match["seat"] == 0
    assert match["change"]["before"] == 0.0  # 25 - 3 * 25/3
    assert match["change"]["after"] == rating["rating"]
    assert match["opponents"] == ["random", "random"]
    assert match["partners"] == []
    assert [s["name"] for s in match["seats"]] == ["Ada", None, None]
    board = http.get("/api/leaderboard/doudizhu").json()
    assert [p["name"] for p in board["players"]] == ["Ada"]  # the bots are rated, never listed
    db = tmp_path / "db.sqlite3"
    with contextlib.closing(sqlite3.connect(db)) as conn:
        changed = conn.execute("SELECT player FROM rating_changes WHERE table_id = ?", (table,)).fetchall()
        bots = conn.execute("SELECT games FROM ratings WHERE player = 'bot:random'").fetchall()
    assert sorted(p for (p,) in changed) == sorted([http.get("/api/me").json()["player"], "bot:random"])
    assert bots == [(1,)]
    # Settling it again (another process would) changes nothing.
    before = counts(db)

    async def again() -> bool:
        store = SqlStore(f"sqlite+aiosqlite:///{db}")
        try:
            return await settle(store, table)
        finally:
            await store.close()

    assert asyncio.run(again()) is False
    assert counts(db) == before
    history = http.get("/api/history").json()["tables"]
    assert history[0]["result"]["seats"][0]["name"] == "Ada"
    assert history[0]["result"]["scores"] == [s["score"] for s in history[0]["result"]["seats"]]
    mine = http.get("/api/my/tables").json()
    assert [m["id"] for m in mine["finished"]] == [table]


def play_settled(http: TestClient, times: int) -> list[str]:
    """Play ``times`` rated one-round Dou Di Zhu matches (see :func:`play_rated`), each waited for
    until its result is written."""
    played = []
    for _ in range(times):
        table = play_rated(http, rounds=1)
        for _ in range(200):
            if table in [m["id"] for m in http.get("/api/my/tables").json()["finished"]]:
                break
            time.sleep(0.02)
        else:
            raise AssertionError(f"table {table} was not settled")
        played.append(table)
    return played


def rating_row(db: Path, player: str) -> tuple[float, float, float, int, int] | None:
    """The Dou Di Zhu rating of ``player`` as stored: mu, sigma, ordinal, games and wins."""
    with contextlib.closing(sqlite3.connect(db)) as conn:
        query = "SELECT mu, sigma, ordinal, games, wins FROM ratings WHERE player = ? AND game = 'doudizhu'"
        row = conn.execute(query, (player,)).fetchone()
    return None if row is None else (row[0], row[1], row[2], row[3], row[4])


def changed_tables(db: Path, player: str) -> list[str]:
    """The tables of ``player``'s rating changes."""
    with contextlib.closing(sqlite3.connect(db)) as conn:
        query = "SELECT table_id FROM rating_changes WHERE player = ? ORDER BY table_id"
        return [r[0] for r in conn.execute(query, (player,))]


def test_a_guest_s_matches_and_rating_are_the_account_s_when_it_registers(
    http: TestClient, tmp_path: Path
) -> None:
    db = tmp_path / "db.sqlite3"
    guest = http.get("/api/me").json()["player"]
    [table] = play_settled(http, 1)
    rated = rating_row(db, guest)
    assert rated is not None
    assert (
        http.post("/api/register", json={"name": "Ada", "password": "analytical engine"}).status_code == 201
    )
    assert rating_row(db, guest) == rated  # the account is the guest's id: nothing moved
    profile = http.get("/api/players/ada").json()
    assert profile["ratings"]["doudizhu"]["games"] == 1
    assert profile["ratings"]["doudizhu"]["rating"] == round(rated[2], 2)
    [match] = profile["recent"]
    assert (match["id"], match["seat"]) == (table, 0)
    assert match["change"]["after"] == round(rated[2], 2)
    assert [s["name"] for s in match["seats"]] == ["Ada", None, None]
    assert [m["id"] for m in http.get("/api/my/tables").json()["finished"]] == [table]


@pytest.mark.parametrize(
    ("account_games", "guest_games", "kept"),
    [(1, 2, "guest"), (2, 1, "account"), (1, 1, "account")],
)
def test_a_guest_that_logs_in_brings_its_matches_rating_changes_and_games(
    http: TestClient, tmp_path: Path, account_games: int, guest_games: int, kept: str
) -> None:
    db = tmp_path / "db.sqlite3"
    assert (
        http.post("/api/register", json={"name": "Ada", "password": "analytical engine"}).status_code == 201
    )
    ada = http.get("/api/me").json()["player"]
    mine = play_settled(http, account_games)
    http.post("/api/logout")
    guest = http.get("/api/me").json()["player"]
    theirs = play_settled(http, guest_games)
    guest_after = http.get("/api/me").json()["player"]
    assert guest_after == guest  # (one guest played them all)
    account_row, guest_row = rating_row(db, ada), rating_row(db, guest)
    assert account_row is not None
    assert guest_row is not None
    before = {"account": account_row, "guest": guest_row}
    assert http.post("/api/login", json={"name": "ada", "password": "analytical engine"}).status_code == 200
    # The rating of more games (the account's on a tie), with the games and wins of both.
    mu, sigma, ordinal, _, _ = before[kept]
    games = before["account"][3] + before["guest"][3]
    wins = before["account"][4] + before["guest"][4]
    assert rating_row(db, ada) == (mu, sigma, ordinal, games, wins)
    assert games == account_games + guest_games
    assert rating_row(db, guest) is None  # nothing left behind under the guest's id
    assert changed_tables(db, guest) == []
    assert changed_tables(db, ada) == sorted(mine + theirs)
    profile = http.get("/api/players/Ada").json()
    assert profile["ratings"]["doudizhu"]["games"] == games
    assert profile["ratings"]["doudizhu"]["rating"] == round(ordinal, 2)
    assert sorted(m["id"] for m in profile["recent"]) == sorted(mine + theirs)
    for match in profile["recent"]:
        assert match["change"] is not None, match["id"]  # every rated match says what it changed
        assert [s["name"] for s in match["seats"]] == ["Ada", None, None], match["id"]
    latest = {m["id"]: m["change"]["after"] for m in profile["recent"]}
    assert latest[theirs[-1]] == round(before["guest"][2], 2)
    assert latest[mine[-1]] == round(before["account"][2], 2)
    finished = http.get("/api/my/tables").json()["finished"]
    assert sorted(m["id"] for m in finished) == sorted(mine + theirs)


@pytest.mark.parametrize("seed", [0, 7])
def test_a_rated_table_refuses_a_chosen_seed_and_makes_nothing(
    http: TestClient, tmp_path: Path, seed: int
) -> None:
    db = tmp_path / "db.sqlite3"
    before = counts(db)
    refused = http.post("/api/tables", json={"game": "tichu", "rated": True, "seed": seed})
    assert refused.status_code == 400
    assert refused.json() == {
        "error": "bad_options",
        "message": "a rated table takes no seed: whoever chose it would know every deal; leave seed out",
    }
    assert counts(db) == before
    assert http.get("/api/my/tables").json()["live"] == []
    # Either alone is a table: a rated one dealt at random, a casual one from the seed.
    assert http.post("/api/tables", json={"game": "tichu", "rated": True}).status_code == 201
    assert http.post("/api/tables", json={"game": "tichu", "seed": seed}).status_code == 201


def test_a_casual_match_is_a_result_but_rates_nobody(http: TestClient, tmp_path: Path) -> None:
    made = http.post("/api/tables", json={"game": "doudizhu", "rounds": 1, "bot": "random"}).json()
    with http.websocket_connect(f"/ws/{made['id']}") as ws:
        ws.send_json({"type": "hello", "protocol": 1})
        ws.send_json({"type": "start", "fill": "random"})
        while True:
            msg = ws.receive_json()
            if msg["type"] == "event" and msg["event"]["kind"] == "match_over":
                break
    for _ in range(200):
        if http.get("/api/history").json()["tables"][0]["result"] is not None:
            break
        time.sleep(0.02)
    assert http.get("/api/history").json()["tables"][0]["result"]["rated"] is False
    assert counts(tmp_path / "db.sqlite3")["rating_changes"] == 0


def test_partners_rise_and_fall_together_and_an_abandoner_loses() -> None:
    seats = [
        SeatResult(0, "a", None, "a", 0, 300, True, False),
        SeatResult(1, "b", None, "b", 1, 100, False, False),
        SeatResult(2, "c", None, "c", 0, 300, True, False),
        SeatResult(3, "d", None, "d", 1, 100, False, False),
    ]
    new = rate_match(seats, {})
    assert new["a"] == new["c"]
    assert new["b"] == new["d"]
    assert new["a"][0] > 25 > new["b"][0]
    # c abandoned the match its partner and the bot that stood in went on to win: c takes the loss.
    left = [*seats[:2], replace(seats[2], won=False, abandoned=True), seats[3]]
    after = rate_match(left, {})
    assert after["a"] == new["a"]
    assert after["b"] == new["b"]
    assert after["c"][0] < 25


async def until_finished(table: Table) -> None:
    """Wait for the table's match to end (a table left by all stops its actor, so no call)."""
    for _ in range(2000):
        if table.status == "finished":
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the match did not end")


def test_a_player_whose_grace_runs_out_abandons_the_rated_match(tmp_path: Path) -> None:
    async def body() -> None:
        lobby = await open_lobby(tmp_path)
        options = lobby.options({"game": "doudizhu", "rounds": 1, "rated": True, "bot": "random"})
        table = await lobby.create(options, owner="p1")
        ann = Client(table, "p1")
        await ann.hello()
        await ann.send(type="sit", seat=1)
        await ann.send(type="start", fill="random")
        table.leave(ann.conn)  # and never comes back: after the grace period a bot plays on
        await until_finished(table)
        while lobby._settling:  # the result being written
            await asyncio.sleep(0.02)
        async with lobby.store.engine.connect() as conn:
            from sqlalchemy import text

            seats = (await conn.execute(text("SELECT seat, won, abandoned FROM result_seats"))).all()
            mine = (await conn.execute(text("SELECT mu_after FROM rating_changes WHERE player = 'p1'"))).all()
        assert [(s, bool(w), bool(a)) for s, w, a in seats if s == 1] == [(1, False, True)]
        assert mine[0][0] < 25.0
        await lobby.close()
        await lobby.store.close()

    run(body)


def test_two_stores_settling_one_match_at_once_apply_it_once(tmp_path: Path) -> None:
    """Two processes' sweeps (two engines on one SQLite file) race for one finished match."""

    async def body() -> None:
        lobby = await open_lobby(tmp_path)
        lobby._over = lambda table: None  # type: ignore[method-assign]  # as if the owner died then
        options = lobby.options({"game": "doudizhu", "rounds": 1, "rated": True, "bot": "random"})
        table = await lobby.create(options, owner="p1")
        ann = Client(table, "p1")
        await ann.hello()
        await ann.send(type="start", fill="random")
        await until_finished(table)
        url = lobby.store.url
        await lobby.close()
        await lobby.store.close()
        a, b = SqlStore(url), SqlStore(url)
        done = await asyncio.gather(settle(a, table.id), settle(b, table.id))
        assert sorted(done) == [False, True]
        await a.close()
        await b.close()

    run(body)
    got = counts(tmp_path / "pagoda.sqlite3")
    assert (got["results"], got["result_seats"], got["rating_changes"]) == (1, 3, 1)  # one key: bot:random
