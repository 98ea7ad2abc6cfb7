"""The shared rate limiter on a real Redis: the in-process limiter's buckets, kept in Redis.

With a clock of its own it decides exactly as :class:`Limiter` does on that clock (a property
test over random sequences of clients, rates and pauses); on Redis' clock its buckets refill as
time passes; every key expires a second after its bucket would be full again; and when Redis
cannot be reached the process's own limiter decides. Two real ``pagoda serve`` processes spend one
guest's chat bucket between them.
"""

import asyncio
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from redis.asyncio import Redis

from pagoda.server.limits import Limiter, Rate, SharedLimiter

from .test_redis import join, node, redis_url  # noqa: F401  (the fixture)
from .test_restart import free_port, post

T = TypeVar("T")


def with_redis(url: str, body: Callable[[Redis], Awaitable[T]]) -> T:
    """Run ``body`` with a client of the Redis at ``url`` on a fresh event loop."""

    async def run() -> T:
        client: Redis = Redis.from_url(url, decode_responses=True)
        try:
            return await body(client)
        finally:
            await client.aclose()

    return asyncio.run(run())


class Clock:
    """A clock the test moves."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


RATES = st.sampled_from([Rate(1 / 60, 5), Rate(0.2, 10), Rate(0.5, 1), Rate(1.0, 3), Rate(0.25, 2)])
CLIENTS = st.sampled_from(["guest:a", "guest:b", "ip:1.2.3.4", "name:ada"])
STEPS = st.lists(
    st.tuples(
        st.one_of(st.sampled_from([0.0, 0.1, 1.0, 4.0]), st.floats(0, 8, allow_nan=False)),  # a pause
        st.sampled_from(["login", "chat"]),
        st.lists(st.tuples(CLIENTS, RATES), min_size=1, max_size=3, unique_by=lambda c: c[0]),
    ),
    min_size=1,
    max_size=40,
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=STEPS)
def test_the_shared_limiter_decides_as_the_in_process_one(
    redis_url: str,  # noqa: F811
    steps: list[tuple[float, str, list[tuple[str, Rate]]]],
) -> None:
    # One rate per (kind, client), as a server has: the first one drawn for it.
    first: dict[tuple[str, str], Rate] = {}
    steps = [(dt, kind, [(c, first.setdefault((kind, c), r)) for c, r in cs]) for dt, kind, cs in steps]

    async def body(client: Redis) -> None:
        clock = Clock()
        local = Limiter(clock)
        shared = SharedLimiter(client, clock=clock, prefix=f"test:{secrets.token_hex(6)}")
        for i, (dt, kind, clients) in enumerate(steps):
            clock.now += dt
            want = local.allow(kind, clients)
            got = await shared.allow(kind, clients)
            assert got == want, (i, steps[: i + 1])

    with_redis(redis_url, body)


def test_failures_at_one_limiter_count_at_another(redis_url: str) -> None:  # noqa: F811
    """Two limiters (as two processes have) on one Redis share each bucket."""

    async def body(client: Redis) -> None:
        other: Redis = Redis.from_url(redis_url, decode_responses=True)
        try:
            prefix = f"test:{secrets.token_hex(6)}"
            a, b = SharedLimiter(client, prefix=prefix), SharedLimiter(other, prefix=prefix)
            rate = Rate(0.001, 4)
            got = [await x.allow("login", [("name:ada", rate)]) for x in (a, b, a, b, a, b)]
            assert got == [True, True, True, True, False, False]
            assert await b.allow("login", [("name:bob", rate)])  # another name has its own bucket
        finally:
            await other.aclose()

    with_redis(redis_url, body)


def test_shared_buckets_refill_by_the_clock_and_their_keys_expire(redis_url: str) -> None:  # noqa: F811
    async def body(client: Redis) -> None:
        limiter = SharedLimiter(client, prefix=f"test:{secrets.token_hex(6)}")
        rate = Rate(2.0, 2)
        take = [("ip:1.2.3.4", rate)]
        assert [await limiter.allow("chat", take) for _ in range(3)] == [True, True, False]
        key = limiter.key("chat", "ip:1.2.3.4")
        # Empty: full again in burst / rate = 1 s, and the key lives one second more.
        ttl = await client.pttl(key)
        assert 1500 < ttl <= 2000, ttl
        start = time.monotonic()
        await asyncio.sleep(0.6)  # 1.2 tokens by Redis' clock
        assert await limiter.allow("chat", take)
        tokens = float(str(await client.hget(key, "tokens")))
        assert 0.0 <= tokens < 1.0 + 2.0 * (time.monotonic() - start - 0.6)
        # Left alone, the key goes once the bucket is full again (a missing key is a full bucket).
        for _ in range(60):
            if not await client.exists(key):
                break
            await asyncio.sleep(0.05)
        assert not await client.exists(key)
        assert [await limiter.allow("chat", take) for _ in range(3)] == [True, True, False]

    with_redis(redis_url, body)


def test_no_key_outlives_its_bucket_refilling(redis_url: str) -> None:  # noqa: F811
    async def body(client: Redis) -> None:
        limiter = SharedLimiter(client, prefix=f"test:{secrets.token_hex(6)}")
        slow, fast = Rate(1 / 60, 5), Rate(4.0, 20)
        for _ in range(7):
            await limiter.allow("login", [("name:ada", slow), ("ip:5.6.7.8", fast)])
        # Five tokens taken from the slow bucket (then refused): 5 / (1/60) = 300 s, plus one.
        ttl_slow = await client.pttl(limiter.key("login", "name:ada"))
        assert 299_000 < ttl_slow <= 301_000, ttl_slow
        ttl_fast = await client.pttl(limiter.key("login", "ip:5.6.7.8"))
        assert 1000 < ttl_fast <= 5 / 4.0 * 1000 + 1000, ttl_fast  # five taken too
        assert await client.keys(f"{limiter.prefix}:*") != []

    with_redis(redis_url, body)


def test_without_redis_the_process_limiter_decides_and_says_so(caplog: pytest.LogCaptureFixture) -> None:
    async def body() -> list[bool]:
        nobody: Any = Redis.from_url(f"redis://127.0.0.1:{free_port()}/0", socket_connect_timeout=1)
        try:
            limiter = SharedLimiter(nobody)
            return [await limiter.allow("login", [("name:ada", Rate(0.001, 2))]) for _ in range(3)]
        finally:
            await nobody.aclose()

    with caplog.at_level(logging.ERROR, logger="pagoda.server.limits"):
        assert asyncio.run(body()) == [True, True, False]
    assert "Redis failed; this process's own limits decide meanwhile" in caplog.text


@pytest.mark.parametrize(
    ("per_second", "burst", "message"),
    [
        (0.0, 5, "a rate is a positive number of tokens a second, not 0.0"),
        (-1.0, 5, "a rate is a positive number of tokens a second, not -1.0"),
        (float("nan"), 5, "a rate is a positive number of tokens a second, not nan"),
        (float("inf"), 5, "a rate is a positive number of tokens a second, not inf"),
        (1.0, 0, "a burst is a whole number of tokens from 1, not 0"),
        (1.0, 2.5, "a burst is a whole number of tokens from 1, not 2.5"),
    ],
)
def test_a_rate_that_cannot_be_is_refused_with_what_is_wrong(
    per_second: float, burst: Any, message: str
) -> None:
    with pytest.raises(ValueError, match=r"^a (rate|burst) is ") as refused:
        Rate(per_second, burst)
    assert str(refused.value) == message


async def chat_at_two(tmp_path: Path, url: str) -> list[str]:
    db = tmp_path / "pagoda.sqlite3"
    port_a, port_b = free_port(), free_port()
    with node(db, port_a, url), node(db, port_b, url):
        made = post(port_a, "/api/tables", {"game": "tichu"})
        # One guest, a socket at A (the owner) and one at B (relayed): a chat burst of 5 in all.
        at_a = await join(port_a, made["id"], -1, guest=made["guest"])
        at_b = await join(port_b, made["id"], -1, guest=made["guest"])
        said = []
        for i in range(7):
            p = (at_a, at_b)[i % 2]
            mark = len(p.got)
            await p.send(type="chat", text=f"line {i}", ref=i)
            got = await p.wait(
                lambda m, i=i: (
                    (m["type"] == "error" and m.get("ref") == i)
                    or (m["type"] == "event" and m["event"].get("text") == f"line {i}")
                ),
                10,
                mark,
            )
            said.append("chat" if got["type"] == "event" else f"{got['code']}: {got['message']}")
        for p in (at_a, at_b):
            await p.ws.close()
        return said


def test_chat_at_two_processes_spends_one_bucket(tmp_path: Path, redis_url: str) -> None:  # noqa: F811
    dropped = "rate_limited: too many chat messages from you; this one was dropped"
    said = asyncio.run(asyncio.wait_for(chat_at_two(tmp_path, redis_url), 60))
    assert said == ["chat"] * 5 + [dropped] * 2
