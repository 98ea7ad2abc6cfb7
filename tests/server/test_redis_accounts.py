"""Accounts across two real ``pagoda serve`` processes behind a real Redis, sharing one database.

Login and registration attempts are counted in buckets both processes share: failures at A
count at B, with the same ``429`` answer a single process gives and Redis keys that expire.
"""

import json
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import redis

from .test_redis import node, redis_url  # noqa: F401  (the fixture)
from .test_restart import free_port

JSON = dict[str, Any]
BAD_LOGIN = "the name and password do not match an account"


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
