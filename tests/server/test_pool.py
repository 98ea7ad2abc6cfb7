"""Bots decide in worker processes: a slow bot stalls no other table, falls back past its time
limit, and the pool plays a seeded table exactly as the server's own process does."""

import asyncio
import json
import logging
import os
import random
import subprocess
import sys
import time
from collections.abc import Iterator
from concurrent.futures.process import BrokenProcessPool
from dataclasses import replace
from pathlib import Path

import pytest
from websockets.sync.client import connect

from pagoda import bots
from pagoda.server.games import GAMES, TableOptions
from pagoda.server.pool import BotPool, Question, decide
from pagoda.server.table import Table

from .helpers import FAST, Client, open_lobby, run, wait_for
from .test_restart import free_port, post, receive, server

SLOW = __name__.rsplit(".", 1)[0] + ".slowbot"


@pytest.fixture
def slow_bot() -> Iterator[str]:
    """The ``slow`` bot registered for the test, and gone from this process after it."""
    yield SLOW
    for name in ("slow", "crash"):
        bots._REGISTRY.pop(("tichu", name), None)
    sys.modules.pop(SLOW, None)


def test_pool_refuses_a_negative_size() -> None:
    with pytest.raises(ValueError, match="0 or more, not -1"):
        BotPool(-1)


def test_a_slow_bot_stalls_no_other_table_and_the_table_bot_stands_in(
    tmp_path: Path, slow_bot: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING, logger="pagoda.server")

    async def body() -> None:
        settings = replace(FAST, bot_timeout=1.0, bot_workers=2, bot_modules=(slow_bot,))
        lobby = await open_lobby(tmp_path, settings)
        slow = await lobby.create(lobby.options({"game": "tichu", "rounds": 1, "seed": 3}), owner="a")
        other = await lobby.create(lobby.options({"game": "tichu", "rounds": 1}), owner="b")
        watcher, pinger = Client(slow, "a"), Client(other, "b")
        await watcher.hello()
        await pinger.hello()
        started = time.perf_counter()
        slow.receive(watcher.conn, {"type": "start", "fill": "slow"})
        await asyncio.sleep(0.3)  # the table is now waiting for its first bot decision
        began = time.perf_counter()
        assert began - started < 0.6  # the event loop was not held while the bot thinks
        answer = await asyncio.wait_for(pinger.send(type="ping", ref="r1"), 0.5)
        assert time.perf_counter() - began < 0.5
        assert [m for m in answer if m["type"] == "pong"] == [{"type": "pong", "ref": "r1"}]
        assert slow.actions == []  # the slow bot is still thinking
        await wait_for(lambda: len(slow.actions) >= 1, [watcher], limit=10)
        await lobby.close()
        await lobby.store.close()

    run(body)
    lines = [r.getMessage() for r in caplog.records if "decided instead" in r.getMessage()]
    assert lines, "the fallback was not logged"
    assert "bot slow for seat" in lines[0]
    assert "took longer than 1 s; club decided instead" in lines[0]


def test_a_worker_s_error_reaches_the_table() -> None:
    async def body() -> None:
        pool = BotPool(1)
        try:
            with pytest.raises(Exception, match="nonesuch"):
                await pool.decide(Question("tichu", "nonesuch", None, ("pass",), "s"), 30.0)
        finally:
            pool.close()

    run(body)


def test_a_dead_worker_is_replaced_for_the_next_decision(slow_bot: str) -> None:
    game = GAMES["tichu"]
    match = game.new(TableOptions("tichu", "standard", None, 1, 0, True, "heuristic", 5))
    view, legal = game.bot_inputs(match, game.awaiting(match)[0])

    async def body() -> str:
        pool = BotPool(1, imports=(slow_bot,))
        try:
            with pytest.raises(BrokenProcessPool):
                await pool.decide(Question("tichu", "crash", view, legal, "s"), 30.0)
            return await pool.decide(Question("tichu", "heuristic", view, legal, "s"), 30.0)
        finally:
            pool.close()

    assert run(body) == decide(Question("tichu", "heuristic", view, legal, "s"))


OWNER = """
import asyncio, sys
from pagoda.server.pool import BotPool
pool = BotPool(2)
asyncio.run(pool.start())
print(*pool._executor._processes, flush=True)
sys.stdin.read()
"""


def test_workers_end_when_their_server_is_killed() -> None:
    owner = subprocess.Popen(
        [sys.executable, "-c", OWNER], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    try:
        assert owner.stdout is not None
        workers = [int(pid) for pid in owner.stdout.readline().split()]
        assert len(workers) == 2
        for pid in workers:
            os.kill(pid, 0)  # running
    finally:
        owner.kill()
        owner.wait(timeout=10)
    deadline = time.monotonic() + 10
    alive = workers
    while alive and time.monotonic() < deadline:
        time.sleep(0.1)
        alive = [pid for pid in workers if _running(pid)]
    assert alive == []


def _running(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


async def _play(tmp: Path, workers: int, game: str, seed: int) -> tuple[list[tuple[int, str]], str | None]:
    lobby = await open_lobby(tmp, replace(FAST, bot_workers=workers))
    table: Table = await lobby.create(lobby.options({"game": game, "rounds": 1, "seed": seed}), owner="o")
    watcher = Client(table, "o")
    await watcher.hello()
    # random bots: a fallback to the heuristic would show as another record
    await watcher.send(type="start", fill="random")
    await wait_for(lambda: table.status == "finished", [watcher], limit=50)
    stored = await lobby.store.get(table.id)
    await lobby.close()
    await lobby.store.close()
    assert stored is not None
    return table.actions, stored.record


@pytest.mark.parametrize("game", ["tichu", "doudizhu"])
def test_the_pool_plays_a_seeded_table_as_the_server_process_does(
    tmp_path: Path, game: str, caplog: pytest.LogCaptureFixture
) -> None:
    here = run(lambda: _play(tmp_path / "here", 0, game, 11))
    with caplog.at_level(logging.WARNING, logger="pagoda.server"):
        pooled = run(lambda: _play(tmp_path / "pool", 2, game, 11))
    assert len(here[0]) > 20
    assert pooled == here
    assert "instead" not in caplog.text  # every decision was the pool's, none a fallback


def test_decide_is_the_bots_choice_with_the_seed() -> None:
    game = GAMES["tichu"]
    options = TableOptions("tichu", "standard", None, 1, 0, True, "heuristic", 5)
    match = game.new(options)
    seat = game.awaiting(match)[0]
    view, legal = game.bot_inputs(match, seat)
    expected = str(bots.get_bot("tichu", "heuristic").decide(view, legal, random.Random("x")))
    assert decide(Question("tichu", "heuristic", view, legal, "x")) == expected


def test_pagoda_serve_answers_a_ping_while_its_slow_bot_thinks(tmp_path: Path, slow_bot: str) -> None:
    port = free_port()
    log = tmp_path / "serve.log"
    extra = ["--bot-workers", "1", "--bot-timeout", "1", "--bot-module", slow_bot]
    with server(tmp_path / "db.sqlite3", port, extra, log=log):
        slow = post(port, "/api/tables", {"game": "tichu", "turn_timer": 0})
        other = post(port, "/api/tables", {"game": "tichu", "turn_timer": 0})
        with (
            connect(f"ws://127.0.0.1:{port}/ws/{slow['id']}", open_timeout=5) as ws,
            connect(f"ws://127.0.0.1:{port}/ws/{other['id']}", open_timeout=5) as ws2,
        ):
            ws2.send(json.dumps({"type": "hello", "protocol": 1, "guest": other["guest"], "name": "Bo"}))
            while receive(ws2)["type"] != "snapshot":
                pass
            ws.send(json.dumps({"type": "hello", "protocol": 1, "guest": slow["guest"], "name": "Ann"}))
            ws.send(json.dumps({"type": "start", "fill": "slow"}))
            while (first := receive(ws))["type"] != "event" or first["event"]["kind"] != "started":
                pass
            time.sleep(0.5)  # the first bot decision is under way
            for ref in ("p1", "p2", "p3"):
                began = time.perf_counter()
                ws2.send(json.dumps({"type": "ping", "ref": ref}))
                while (msg := receive(ws2))["type"] != "pong":
                    pass
                assert time.perf_counter() - began < 0.5
                assert msg == {"type": "pong", "ref": ref}
                time.sleep(0.2)
            deadline = time.monotonic() + 15
            while "decided instead" not in log.read_text() and time.monotonic() < deadline:
                time.sleep(0.1)
    text = log.read_text()
    assert "bot slow for seat" in text
    assert "took longer than 1 s; club decided instead" in text
