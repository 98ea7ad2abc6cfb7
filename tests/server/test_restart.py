"""A real server process killed mid-game restores the table with no action lost."""

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from websockets.sync.client import ClientConnection, connect

from pagoda.server.protocol import check_server

from .helpers import fold

JSON = dict[str, Any]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@contextmanager
def server(
    db: Path, port: int, extra: Sequence[str] = (), log: Path | None = None
) -> Iterator[subprocess.Popen[bytes]]:
    """``pagoda serve`` on loopback, ready when this yields; killed (SIGKILL) when the block ends."""
    cmd = [sys.executable, "-m", "pagoda.cli", "serve", "--port", str(port), "--db", str(db)]
    cmd += ["--bot-delay", "0", "--bomb-window", "0.05", "--data-dir", str(db.parent), *extra]
    out = log.open("wb") if log is not None else None
    proc = subprocess.Popen(cmd, stdout=out or subprocess.DEVNULL, stderr=subprocess.STDOUT)
    try:
        for _ in range(150):
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/api/me", timeout=1).close()
                break
            except OSError:
                if proc.poll() is not None:
                    raise AssertionError("the server exited at start-up") from None
                time.sleep(0.1)
        else:
            raise AssertionError("the server did not start")
        yield proc
    finally:
        if proc.poll() is None:
            os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)
        if out is not None:
            out.close()


def post(port: int, path: str, body: JSON) -> JSON:
    req = urllib.request.Request(
        f"http://127.0.0.1:{port}{path}",
        data=json.dumps(body).encode(),
        headers={"content-type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(req, timeout=5) as r:
        out: JSON = json.loads(r.read())
        return out


def receive(ws: ClientConnection) -> JSON:
    msg: JSON = json.loads(ws.recv(timeout=10))
    check_server(msg)
    return msg


def my_turn(ws: ClientConnection, held: JSON) -> JSON:
    """Read (folding each message's view, legal actions and timers into ``held``) until the game
    waits for seat 0 alone and no take is pending; ``held`` then."""
    for _ in range(2000):
        if not fold(held, receive(ws)):
            continue
        if held["game"] and held["game"]["awaiting"] == [0] and held["timers"]["take"] is None:
            return dict(held)
    raise AssertionError("seat 0's turn never came")


def choose(state: JSON) -> str:
    legal = state["legal"]
    if legal.get("exchange"):
        return "exchange " + " ".join(state["game"]["hand"][:3])
    acts = [a for a in legal["actions"] if a != "tichu"]
    return "pass" if "pass" in acts else acts[0]


def test_kill_and_restart_restores_the_table(tmp_path: Path) -> None:
    db = tmp_path / "pagoda.sqlite3"
    port = free_port()
    with server(db, port):
        made = post(port, "/api/tables", {"game": "tichu", "turn_timer": 0})
        url = f"ws://127.0.0.1:{port}/ws/{made['id']}"
        with connect(url, open_timeout=5) as ws:
            ws.send(json.dumps({"type": "hello", "protocol": 1, "guest": made["guest"], "name": "Ann"}))
            ws.send(json.dumps({"type": "sit", "seat": 0}))
            ws.send(json.dumps({"type": "start", "fill": "heuristic"}))
            held: JSON = {}
            state = my_turn(ws, held)
            for _ in range(6):
                ws.send(json.dumps({"type": "act", "action": choose(state)}))
                state = my_turn(ws, held)
            ws.send(json.dumps({"type": "resync", "since": state["seq"]}))
            before = receive(ws)
            while before["type"] != "snapshot":
                before = receive(ws)
            token = before["you"]["rejoin"]
            assert before["seq"] > 10
            assert token
    port = free_port()
    with server(db, port), connect(f"ws://127.0.0.1:{port}/ws/{made['id']}", open_timeout=5) as ws:
        ws.send(json.dumps({"type": "hello", "protocol": 1, "rejoin": token}))
        assert receive(ws)["you"]["seat"] == 0
        after = receive(ws)
        assert after["type"] == "snapshot"
        held = {k: after[k] for k in ("seq", "game", "legal", "timers")}
        for key in ("seq", "game", "legal", "you"):
            assert after[key] == before[key], key
        seats = [{k: s[k] for k in ("player", "name", "bot")} for s in after["table"]["seats"]]
        assert seats == [{k: s[k] for k in ("player", "name", "bot")} for s in before["table"]["seats"]]
        ws.send(json.dumps({"type": "act", "action": choose(after)}))
        assert my_turn(ws, held)["seq"] > after["seq"]
