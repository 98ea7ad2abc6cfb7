"""``python -m pagoda.server.load``: many Tichu tables played at human pace against a local server.

Each table is created with ``POST /api/tables``; ``--sockets`` WebSocket clients (up to four per
table, spread evenly) sit at its seats, bots fill the rest, and the creator starts it. Every
client waits a think time (uniform in [0.5, 1.5] × ``--think`` seconds) when its seat is awaited,
then sends a random action from the ``legal`` list the server sent it (an exchange of three
random cards of its hand). Tables are set up over ``--ramp`` seconds and play as soon as they are,
so their rounds are not in step; once all are playing, for ``--duration`` seconds, each action's
time from sending it to receiving the event that results is measured on the actor's own socket
and on each other client of the table, and p50/p90/p99/max of both, events/s and errors printed.
``--bot-tables`` more tables of ``--bot-level`` bots (``search`` by default) play meanwhile, each
watched by one socket and not measured: what human-paced tables feel of the bots' thinking.

Only loopback servers are accepted (this is a benchmark, not a tool to load someone's server),
and both the number of tables and the duration are bounded.

    python -m pagoda.server.load --url http://127.0.0.1:8000 --tables 500 --duration 60
"""

import argparse
import asyncio
import contextlib
import ipaddress
import json
import os
import random
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

JSON = dict[str, Any]

MAX_TABLES = 1000
MAX_DURATION = 3600.0
SEATS = 4


@dataclass
class Options:
    """What to run: servers, tables, sockets, duration (s), think time (s), seed.

    ``cross``: a table's clients connect to the servers in turn (seat k of table i to server
    i + k), so with several servers behind Redis most reach the table through a non-owner.
    """

    urls: list[str]
    tables: int = 10
    sockets: int | None = None
    duration: float = 30.0
    think: float = 2.0
    ramp: float = 5.0
    seed: int = 1
    drain: float = 10.0
    cross: bool = False
    server_pids: list[int] = field(default_factory=list)
    #: More tables where bots of ``bot_level`` hold every seat (watched by one socket, not measured).
    bot_tables: int = 0
    bot_level: str = "search"

    def check(self) -> None:
        """Raise ValueError naming what is wrong."""
        if not self.urls:
            raise ValueError("give at least one --url")
        for url in self.urls:
            check_loopback(url)
        if not 1 <= self.tables <= MAX_TABLES:
            raise ValueError(f"--tables must be 1 to {MAX_TABLES}, not {self.tables}")
        if self.sockets is not None and not self.tables <= self.sockets <= SEATS * self.tables:
            raise ValueError(
                f"--sockets must be from the number of tables to 4 per table, not {self.sockets}"
            )
        if not 0 < self.duration <= MAX_DURATION:
            raise ValueError(f"--duration must be above 0 and at most {MAX_DURATION:g} seconds")
        if not 0 <= self.bot_tables <= MAX_TABLES:
            raise ValueError(f"--bot-tables must be 0 to {MAX_TABLES}, not {self.bot_tables}")
        if self.think < 0 or self.ramp < 0 or self.drain < 0:
            raise ValueError("--think, --ramp and --drain are seconds, not negative")
        for pid in self.server_pids:
            process_cpu(pid)


def check_loopback(url: str) -> str:
    """The URL's host if it is a loopback address or ``localhost``; ValueError otherwise."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https"):
        raise ValueError(f"{url!r}: the server URL starts with http:// (e.g. http://127.0.0.1:8000)")
    host = parts.hostname or ""
    if host == "localhost":
        return host
    try:
        loopback = ipaddress.ip_address(host).is_loopback
    except ValueError:
        loopback = False
    if not loopback:
        raise ValueError(
            f"{url!r}: the load test runs against loopback servers only (127.0.0.1, ::1, localhost)"
        )
    return host


@dataclass
class Report:
    """What a run measured; latencies in seconds."""

    tables: int = 0
    sockets: int = 0
    actions: int = 0
    own: list[float] = field(default_factory=list)
    others: list[float] = field(default_factory=list)
    events: int = 0
    messages: int = 0
    errors: list[str] = field(default_factory=list)
    seconds: float = 0.0
    rounds: int = 0
    server_cpu: float | None = None
    bot_actions: int = 0  # actions seen on the bot tables over the whole run

    def summary(self) -> JSON:
        """The figures as JSON: counts, percentiles in ms, events/s."""
        return {
            "tables": self.tables,
            "sockets": self.sockets,
            "seconds": round(self.seconds, 1),
            "actions": self.actions,
            "rounds_finished": self.rounds,
            "own": percentiles(self.own),
            "others": percentiles(self.others),
            "events_per_s": round(self.events / self.seconds, 1) if self.seconds else 0.0,
            "messages_per_s": round(self.messages / self.seconds, 1) if self.seconds else 0.0,
            "errors": len(self.errors),
            "first_errors": self.errors[:5],
            "bot_table_actions": self.bot_actions,
            "server_cpu_s": None if self.server_cpu is None else round(self.server_cpu, 2),
            "server_cpu_ms_per_action": (
                round(1000 * self.server_cpu / self.actions, 3) if self.server_cpu and self.actions else None
            ),
        }


def process_cpu(pid: int) -> float:
    """The CPU seconds (user and system, all threads) process ``pid`` has used, from ``/proc``."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            stat = f.read()
    except OSError as e:
        raise ValueError(f"--server-pid {pid}: no such process to read the CPU time of ({e})") from None
    fields = stat[stat.rindex(")") + 2 :].split()  # the fields after the command name, from the 3rd
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime, stime: 14th, 15th


def percentiles(xs: list[float]) -> JSON:
    """Count, p50/p90/p99/max in milliseconds (nearest rank)."""
    if not xs:
        return {"count": 0}
    s = sorted(xs)

    def rank(p: float) -> float:
        return round(1000 * s[min(len(s) - 1, max(0, int(p * len(s) + 0.999999) - 1))], 1)

    return {
        "count": len(s),
        "p50": rank(0.5),
        "p90": rank(0.9),
        "p99": rank(0.99),
        "max": round(1000 * s[-1], 1),
    }


class _Table:
    """One table of the run: its clients, and the actions in flight by seat (their send time)."""

    def __init__(self, run: "_Run", index: int, url: str, humans: int) -> None:
        self.run = run
        self.index = index
        self.url = url
        self.humans = humans
        self.sent: dict[int, tuple[float, bool]] = {}  # seat: send time, sent while measuring
        self.acting = False
        self.clients: list[_Client] = []
        self.over = False


class _Client:
    def __init__(self, table: _Table, seat: int, ws: ClientConnection, rng: random.Random) -> None:
        self.table = table
        self.seat = seat
        self.ws = ws
        self.rng = rng
        self.state: JSON | None = None
        self.waiting = False
        self.answered = False
        self.timer: asyncio.Task[None] | None = None
        self.seated = asyncio.Event()
        self.all_seated = asyncio.Event()

    async def read(self) -> None:
        run = self.table.run
        try:
            async for text in self.ws:
                if isinstance(text, bytes):
                    text = text.decode()
                self.on_message(json.loads(text))
        except ConnectionClosed:
            if not run.closing:
                run.report.errors.append(f"table {self.table.index} seat {self.seat}: connection closed")

    def on_message(self, msg: JSON) -> None:
        run = self.table.run
        now = time.perf_counter()
        if run.measuring:
            run.report.messages += 1
        kind = msg["type"]
        if kind == "event":
            ev = msg["event"]
            if run.measuring:
                run.report.events += 1
            if ev["kind"] == "action" and ev.get("by") == "player" and ev["seat"] in self.table.sent:
                t0, measured = self.table.sent[ev["seat"]]
                if ev["seat"] == self.seat:
                    self.answered = True
                if measured:
                    (run.report.own if ev["seat"] == self.seat else run.report.others).append(now - t0)
            elif ev["kind"] == "round_over" and self.seat == self.table.clients[0].seat:
                run.report.rounds += 1
            elif ev["kind"] == "match_over":
                self.table.over = True
            if self.state is not None and any(k in msg for k in ("game", "patch", "legal", "timers")):
                self.state = self._fold(self.state, msg)
                if self.answered:
                    self.waiting = self.answered = False
                self.consider()
        elif kind in ("state", "snapshot"):
            self.state = msg
            if self.answered:
                self.waiting = self.answered = False
            self.consider()
        elif kind == "table":
            seats = msg["table"]["seats"]
            if msg["you"]["seat"] == self.seat:
                self.seated.set()
            if sum(1 for s in seats if s["player"] is not None) >= self.table.humans:
                self.all_seated.set()
        elif kind == "error":
            run.report.errors.append(
                f"table {self.table.index} seat {self.seat}: {msg['code']}: {msg['message']}"
            )
            self.waiting = self.answered = False

    @staticmethod
    def _fold(state: JSON, msg: JSON) -> JSON:
        """``state`` after what an event says of the view (its patch or the whole view), the legal
        actions and the timers (each one it leaves out is unchanged)."""
        game = msg["game"] if "game" in msg else state["game"]
        if "patch" in msg and game is not None:
            game = {**game, **msg["patch"]}
        return {**state, "game": game, **{k: msg[k] for k in ("legal", "timers") if k in msg}}

    def consider(self) -> None:
        """Schedule an action after a think time if the seat is awaited and nothing is in flight."""
        if self.timer is not None or self.waiting or not self.table.acting or self.table.run.stopped:
            return
        if self.table.over:
            return
        if self._ready() is None:
            return
        think = self.table.run.options.think * self.rng.uniform(0.5, 1.5)
        self.timer = asyncio.get_running_loop().create_task(self._act_after(think))

    def _ready(self) -> JSON | None:
        st = self.state
        if st is None or st["game"] is None or st["legal"] is None:
            return None
        if self.seat not in st["game"]["awaiting"] or st["timers"]["take"] is not None:
            return None
        return st

    async def _act_after(self, delay: float) -> None:
        await asyncio.sleep(delay)
        self.timer = None
        st = self._ready()
        run = self.table.run
        if st is None or self.waiting or run.stopped:
            return
        action = self.choose(st)
        self.waiting = True
        self.answered = False
        self.table.sent[self.seat] = (time.perf_counter(), run.measuring)
        if run.measuring:
            run.report.actions += 1
        try:
            await self.ws.send(json.dumps({"type": "act", "action": action}))
        except ConnectionClosed:
            self.table.run.report.errors.append(f"table {self.table.index} seat {self.seat}: send failed")

    def choose(self, st: JSON) -> str:
        """A random legal action (no Tichu calls: they do not move the game on)."""
        legal = st["legal"]
        if legal["exchange"]:
            return "exchange " + " ".join(self.rng.sample(st["game"]["hand"], 3))
        acts = [a for a in legal["actions"] if a != "tichu"]
        return str(self.rng.choice(acts))


class _Run:
    def __init__(self, options: Options) -> None:
        self.options = options
        self.report = Report()
        self.measuring = False
        self.stopped = False
        self.closing = False
        self.tables: list[_Table] = []
        self.readers: list[asyncio.Task[None]] = []
        self.watchers: list[ClientConnection] = []

    async def setup(self, t: _Table) -> None:
        made = await asyncio.to_thread(_post, t.url, "/api/tables", {"game": "tichu", "turn_timer": 0})
        urls = self.options.urls
        for seat in range(t.humans):
            url = urls[(t.index + seat) % len(urls)] if self.options.cross else t.url
            ws_url = "ws" + url[len("http") :].rstrip("/") + made["ws"]
            ws = await connect(ws_url, open_timeout=30, max_size=2**20, compression=None)
            rng = random.Random(f"{self.options.seed}/{t.index}/{seat}")
            c = _Client(t, seat, ws, rng)
            t.clients.append(c)
            self.readers.append(asyncio.get_running_loop().create_task(c.read()))
            hello: JSON = {"type": "hello", "protocol": 1, "name": f"load{t.index}-{seat}"}
            if seat == 0:
                hello["guest"] = made["guest"]
            await ws.send(json.dumps(hello))
            await ws.send(json.dumps({"type": "sit", "seat": seat}))
        owner = t.clients[0]
        await asyncio.wait_for(owner.all_seated.wait(), 30)
        await owner.ws.send(json.dumps({"type": "start", "fill": "random"}))
        t.acting = True  # tables start playing as they are set up, so their rounds are not in step
        for c in t.clients:
            c.consider()

    async def setup_bots(self, index: int, url: str) -> None:
        """A table of ``bot_level`` bots in every seat, started by a socket that only watches."""
        level = self.options.bot_level
        made = await asyncio.to_thread(
            _post, url, "/api/tables", {"game": "tichu", "turn_timer": 0, "bot": level}
        )
        ws_url = "ws" + url[len("http") :].rstrip("/") + made["ws"]
        ws = await connect(ws_url, open_timeout=30, max_size=2**20, compression=None)
        self.watchers.append(ws)
        hello = {"type": "hello", "protocol": 1, "guest": made["guest"], "name": f"bots{index}"}
        await ws.send(json.dumps(hello))
        await ws.send(json.dumps({"type": "start", "fill": level}))

        async def read() -> None:
            with contextlib.suppress(ConnectionClosed):
                async for text in ws:
                    msg = json.loads(text)
                    if msg["type"] == "event" and msg["event"]["kind"] == "action":
                        self.report.bot_actions += 1
                    elif msg["type"] == "error":
                        self.report.errors.append(f"bot table {index}: {msg['code']}: {msg['message']}")

        self.readers.append(asyncio.get_running_loop().create_task(read()))

    async def main(self) -> Report:
        o = self.options
        sockets = o.sockets if o.sockets is not None else SEATS * o.tables
        humans = [sockets // o.tables + (1 if i < sockets % o.tables else 0) for i in range(o.tables)]
        self.tables = [_Table(self, i, o.urls[i % len(o.urls)], humans[i]) for i in range(o.tables)]
        self.report.tables, self.report.sockets = o.tables, sockets

        async def staged(t: _Table) -> None:
            await asyncio.sleep(o.ramp * t.index / o.tables)
            await self.setup(t)

        bot_results = await asyncio.gather(
            *(self.setup_bots(i, o.urls[i % len(o.urls)]) for i in range(o.bot_tables)),
            return_exceptions=True,
        )
        for i, res in enumerate(bot_results):
            if isinstance(res, BaseException):
                self.report.errors.append(f"bot table {i}: set-up failed: {res!r}")
        results = await asyncio.gather(*(staged(t) for t in self.tables), return_exceptions=True)
        for t, res in zip(self.tables, results, strict=True):
            if isinstance(res, BaseException):
                self.report.errors.append(f"table {t.index}: set-up failed: {res!r}")
        # Measure from here, once every table is set up and playing, for the duration.
        start = time.perf_counter()
        cpu0 = sum(process_cpu(pid) for pid in o.server_pids)
        self.measuring = True
        await asyncio.sleep(o.duration)
        self.measuring = False
        if o.server_pids:
            self.report.server_cpu = sum(process_cpu(pid) for pid in o.server_pids) - cpu0
        self.stopped = True
        self.report.seconds = time.perf_counter() - start
        # Wait (bounded) for the answers to the actions in flight, then close.
        end = time.perf_counter() + o.drain
        while any(c.waiting for t in self.tables for c in t.clients) and time.perf_counter() < end:
            await asyncio.sleep(0.05)
        for t in self.tables:
            for c in t.clients:
                if c.waiting:
                    self.report.errors.append(f"table {t.index} seat {c.seat}: action unanswered")
                if c.timer is not None:
                    c.timer.cancel()
        self.closing = True
        for ws in self.watchers:
            with contextlib.suppress(Exception):
                await ws.close()
        for t in self.tables:
            for c in t.clients:
                with contextlib.suppress(Exception):
                    await c.ws.close()
        for task in self.readers:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(task, 5)
        return self.report


def _post(url: str, path: str, body: JSON) -> JSON:
    req = urllib.request.Request(
        url.rstrip("/") + path,
        data=json.dumps(body).encode(),
        headers={"content-type": "application/json"},
        method="POST",
    )
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            out: JSON = json.loads(r.read())
            return out
    except urllib.error.HTTPError as e:
        if e.code == 429:
            raise RuntimeError(
                f"{url} refuses more tables from this address ({e.read().decode(errors='replace')}): "
                "start it with --tables-per-address at least --tables"
            ) from None
        raise


async def run_load(options: Options) -> Report:
    """Run the load test described by ``options`` (checked first) and return what it measured."""
    options.check()
    return await _Run(options).main()


def format_report(summary: JSON) -> str:
    """The summary as a few readable lines."""

    def line(name: str, p: JSON) -> str:
        if not p["count"]:
            return f"{name}: no samples"
        return (
            f"{name}: n={p['count']} p50={p['p50']} ms p90={p['p90']} ms p99={p['p99']} ms max={p['max']} ms"
        )

    return "\n".join(
        [
            f"{summary['tables']} tables, {summary['sockets']} sockets, {summary['seconds']} s, "
            f"{summary['actions']} actions, {summary['rounds_finished']} rounds finished",
            line("action -> event, actor's socket ", summary["own"]),
            line("action -> event, other sockets  ", summary["others"]),
            f"events/s {summary['events_per_s']}, messages/s {summary['messages_per_s']}, "
            f"errors {summary['errors']}",
            *(
                [
                    f"server CPU {summary['server_cpu_s']} s, "
                    f"{summary['server_cpu_ms_per_action']} ms per action"
                ]
                if summary.get("server_cpu_s") is not None
                else []
            ),
            *(
                [f"bot tables: {summary['bot_table_actions']} actions"]
                if summary.get("bot_table_actions")
                else []
            ),
            *[f"  {e}" for e in summary["first_errors"]],
        ]
    )


def main(argv: Sequence[str] | None = None) -> int:
    """Parse the options, run, print the report; exit status 1 when there were errors."""
    p = argparse.ArgumentParser(prog="python -m pagoda.server.load", description=__doc__.splitlines()[0])
    p.add_argument(
        "--url", action="append", help="server (loopback only; repeat to spread tables over several)"
    )
    p.add_argument("--tables", type=int, default=10, help=f"tables (1-{MAX_TABLES}, default 10)")
    p.add_argument(
        "--sockets", type=int, help="WebSocket clients in all (default 4 per table; bots fill the rest)"
    )
    p.add_argument("--duration", type=float, default=30.0, help="seconds of play measured (default 30)")
    p.add_argument("--think", type=float, default=2.0, help="mean think time in seconds (default 2)")
    p.add_argument(
        "--ramp", type=float, default=5.0, help="seconds over which the tables are set up (default 5)"
    )
    p.add_argument("--seed", type=int, default=1, help="seed of the clients' choices")
    p.add_argument("--cross", action="store_true", help="connect each table's clients to the servers in turn")
    p.add_argument("--json", action="store_true", help="print the summary as JSON")
    p.add_argument(
        "--server-pid",
        type=int,
        action="append",
        default=[],
        help="a server process (repeat for several): its CPU time over the window, per action sent",
    )
    p.add_argument(
        "--bot-tables",
        type=int,
        default=0,
        help="more tables where bots hold every seat, playing while the others are measured (default 0)",
    )
    p.add_argument("--bot-level", default="search", help="the bot of those tables (default search)")
    args = p.parse_args(list(argv) if argv is not None else None)
    options = Options(
        urls=args.url or ["http://127.0.0.1:8000"],
        tables=args.tables,
        sockets=args.sockets,
        duration=args.duration,
        think=args.think,
        ramp=args.ramp,
        seed=args.seed,
        cross=args.cross,
        server_pids=args.server_pid,
        bot_tables=args.bot_tables,
        bot_level=args.bot_level,
    )
    try:
        options.check()
    except ValueError as e:
        p.error(str(e))
    report = asyncio.run(run_load(options))
    summary = report.summary()
    print(json.dumps(summary) if args.json else format_report(summary))
    return 1 if report.errors else 0


if __name__ == "__main__":
    sys.exit(main())
