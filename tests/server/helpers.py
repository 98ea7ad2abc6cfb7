"""Shared helpers for the server tests: a store on a temporary file, connections that collect."""

import asyncio
import re
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

from pagoda import tichu
from pagoda.server.lobby import Lobby
from pagoda.server.protocol import apply_patch, check_server
from pagoda.server.store import SqlStore, default_url
from pagoda.server.table import Conn, Settings, Table

T = TypeVar("T")
JSON = dict[str, Any]

FAST = Settings(secret=b"test", grace=0.2, bomb_window=0.05, bot_delay=0.0, strict=True)


def run(fn: Callable[[], Awaitable[T]]) -> T:
    """Run an async test body with a bound on its time."""

    async def bounded() -> T:
        return await asyncio.wait_for(fn(), timeout=60)

    return asyncio.run(bounded())


async def open_lobby(tmp: Path, settings: Settings = FAST) -> Lobby:
    tmp.mkdir(parents=True, exist_ok=True)
    store = await SqlStore.open(default_url(str(tmp)))
    return Lobby(store, settings)


def fold(held: JSON, msg: JSON) -> bool:
    """Fold into ``held`` what ``msg`` says of the view (``game``, or ``patch`` over the view held),
    the ``legal`` actions, the ``timers`` and ``seq``, as a client does; whether it said any."""
    if msg["type"] not in ("snapshot", "state", "event"):
        return False
    parts: JSON = {k: msg[k] for k in ("game", "legal", "timers") if k in msg}
    if "patch" in msg:
        assert held.get("game") is not None, msg
        parts["game"] = apply_patch(held["game"], msg["patch"])
    if not parts:
        return False
    held.update(parts, seq=msg["seq"])
    return True


class Client:
    """A connection whose messages are kept in order (each checked against the schema)."""

    def __init__(self, table: Table, player: str, name: str = "p") -> None:
        self.table = table
        self.conn = Conn(player, name, guest=f"g-{player}", strict=True)
        self.got: list[JSON] = []
        #: The game view, legal actions and timers as a client holds them: each message folded in.
        self.game: JSON | None = None
        self.legal: JSON | None = None
        self.timers: JSON | None = None

    def fold(self, msg: JSON) -> None:
        """Take what ``msg`` says of the view, the legal actions and the timers (as a client does)."""
        held = self.state
        if fold(held, msg):
            self.game, self.legal, self.timers = held["game"], held["legal"], held["timers"]

    @property
    def state(self) -> JSON:
        """The folded ``game``, ``legal`` and ``timers``."""
        return {"game": self.game, "legal": self.legal, "timers": self.timers}

    async def settle(self) -> list[JSON]:
        """Wait until the actor has handled everything queued so far; return the new messages."""
        await self.table.call(lambda: None)
        new = []
        while not self.conn.outbox.empty():
            msg = self.conn.outbox.get_nowait()
            if msg is not None:
                check_server(msg)
                self.fold(msg)
                new.append(msg)
        self.got.extend(new)
        return new

    async def hello(self, **fields: Any) -> list[JSON]:
        self.table.join(self.conn, {"type": "hello", "protocol": 1, **fields})
        return await self.settle()

    async def send(self, **msg: Any) -> list[JSON]:
        self.table.receive(self.conn, msg)
        return await self.settle()

    def last(self, kind: str) -> JSON:
        return [m for m in self.got if m["type"] == kind][-1]

    def errors(self, new: list[JSON]) -> list[JSON]:
        return [m for m in new if m["type"] == "error"]


async def wait_for(cond: Callable[[], bool], clients: list[Client], limit: float = 20.0) -> None:
    """Poll ``cond`` (bounded), draining the clients' outboxes meanwhile."""
    loop = asyncio.get_running_loop()
    end = loop.time() + limit
    while not cond():
        if loop.time() > end:
            raise AssertionError("condition not reached in time")
        await asyncio.sleep(0.01)
        for c in clients:
            await c.settle()
    for c in clients:
        await c.settle()


# (a token's URL-safe base64 may hold "2k" between "_" or "-": those are no card words)
_CARD = re.compile(r"(?<![A-Za-z0-9_-])([2-9TJQKA][gkbr]|Mj|Dg|Ph|Dr)(?![A-Za-z0-9_-])")


def card_words(text: str) -> set[str]:
    """The Tichu card names written in ``text``."""
    return set(_CARD.findall(text))


def hidden_from(r: tichu.Round, viewer: int | None) -> set[str]:
    """The cards in other seats' hands that ``viewer`` has not given them."""
    out: set[str] = set()
    for seat in range(4):
        if seat == viewer:
            continue
        cards = {str(c) for c in r.hand(seat)}
        if viewer is not None:
            given = r.view(viewer, events=False).given
            if given is not None:
                cards -= {str(c) for c in given}
        out |= cards
    return out


async def check_grouped_appends(
    store: SqlStore, refusal: type[BaseException] | tuple[type[BaseException], ...]
) -> None:
    """Three appends to tables a, b, c arrive together; b's repeats its seq 1, which the unique
    (table, seq) refuses with ``refusal``: a's and c's are committed, b's leaves nothing, not even
    its status or record."""
    for t in ("a", "b", "c"):
        await store.create(t, "tichu", {"seed": 1}, "owner", "inv")
    await store.append("b", [{"seq": 1, "kind": "started", "time": 0.0}], "playing", "rec 0")
    results = await asyncio.gather(
        store.append("a", [{"seq": 1, "kind": "started", "time": 1.0}], "playing", "rec a"),
        store.append("b", [{"seq": 1, "kind": "chat", "time": 2.0}], "finished", "rec b"),
        store.append(
            "c",
            [{"seq": 1, "kind": "started", "time": 3.0}, {"seq": 2, "kind": "chat", "time": 4.0}],
            "playing",
            None,
        ),
        return_exceptions=True,
    )
    assert results[0] is None
    assert results[2] is None
    assert isinstance(results[1], refusal)
    assert [e["kind"] for e in await store.events("a")] == ["started"]
    assert [e["kind"] for e in await store.events("b")] == ["started"]  # b's failed append left nothing
    assert [(e["seq"], e["kind"]) for e in await store.events("c")] == [(1, "started"), (2, "chat")]
    got = {t: await store.get(t) for t in "abc"}
    assert {t: (s.status, s.record) for t, s in got.items() if s is not None} == {
        "a": ("playing", "rec a"),
        "b": ("playing", "rec 0"),  # neither status nor record changed by the refused append
        "c": ("playing", None),
    }
