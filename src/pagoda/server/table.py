"""One actor per table: an asyncio task that owns the table and turns commands into events.

Connections, timers and the lobby never touch a table's state: they put commands on its queue
(:meth:`Table.join`, :meth:`Table.receive`, :meth:`Table.leave`) and the actor handles them one
at a time. Each accepted command becomes one or more events with consecutive sequence numbers;
the events are appended to the store *before* anyone is told, then every connection gets each
event as its viewer may see it, the last one carrying what changed for that viewer (its view's
patch, its legal actions, the timers). A refused command leaves the table unchanged and is
answered with an error to its sender alone.

Bots move for their seats, for the seats of players who stayed away past the grace period, and
for any seat whose turn timer runs out. Who is asked what is the rules core's answer
(``decisions()``), never the table's: in Tichu the bots in the core's bomb window answer at once
after each action (their ``no-bomb`` recorded and told to nobody), and a complete trick waits
for the window (``Settings.bomb_window``): then the seats still asked let play go on and the
server takes the trick, unless a bomb came first.
"""

import asyncio
import base64
import contextlib
import hashlib
import hmac
import logging
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, Protocol

from pagoda.core import IllegalAction, PagodaError, ParseError
from pagoda.server import limits
from pagoda.server.games import GAMES, JSON, TableOptions, bot_name, record_text
from pagoda.server.limits import Rate
from pagoda.server.pool import BotPool, Question, decide
from pagoda.server.protocol import PROTOCOL, check_server, error, view_patch

log = logging.getLogger("pagoda.server")


@dataclass(frozen=True, slots=True)
class Settings:
    """The server's tunables (seconds unless said otherwise)."""

    secret: bytes = b"change me"
    grace: float = 20.0
    bomb_window: float = 1.5
    bot_delay: float = 0.4
    #: Seconds a bot decision may take in a worker; past it the game's table bot decides instead.
    bot_timeout: float = 5.0
    #: Worker processes for bot decisions (0: in this process, on the event loop).
    bot_workers: int = 0
    #: Modules imported (here and in every worker) before any bot decides: extra bots they register.
    bot_modules: tuple[str, ...] = ()
    max_message: int = 4096
    rate: float = 8.0
    burst: int = 40
    #: ``chat`` and ``resync`` per client, over all of its sockets (:mod:`pagoda.server.limits`).
    chat_per_guest: Rate = limits.CHAT_PER_GUEST
    chat_per_address: Rate = limits.CHAT_PER_ADDRESS
    resync_per_guest: Rate = limits.RESYNC_PER_GUEST
    resync_per_address: Rate = limits.RESYNC_PER_ADDRESS
    #: Spectators a table takes (seated players always get in: they are not counted).
    max_spectators: int = 64
    #: Spectator connections one guest, and one address, may hold at a table.
    spectators_per_guest: int = 4
    spectators_per_address: int = 16
    #: Connections one seat may hold at once; one more closes its oldest.
    seat_connections: int = 4
    #: Live tables one owner (guest), and one address, may have at once.
    tables_per_owner: int = 4
    tables_per_address: int = 16
    #: Seconds a lobby table may stay without any connection before it expires.
    lobby_expiry: float = 900.0
    #: Seconds a request body may take to arrive.
    body_timeout: float = 10.0
    outbox: int = 512
    strict: bool = False
    #: A ``hello``/``resync`` whose ``since`` is more events back than this gets the snapshot alone.
    replay_limit: int = 200


class Store(Protocol):
    """Where tables and their events are kept (see :mod:`pagoda.server.store`)."""

    async def append(self, table_id: str, events: list[JSON], status: str, record: str | None) -> None:
        """Append ``events`` to the table's log and set its status and record, in one transaction."""
        ...


class Conn:
    """A client connection as a table sees it: who it is, its seat, and an outbox."""

    def __init__(
        self, player: str, name: str, guest: str, outbox: int = 512, strict: bool = False, address: str = ""
    ) -> None:
        self.player = player
        self.name = name
        self.guest = guest
        self.address = address  # the client's network address ("" when unknown)
        self.order = 0  # when it joined its table, among that table's connections
        self.seat: int | None = None
        #: The game view, legal actions and timers this connection was last sent: an event tells
        #: it what changed since (the view's patch), and leaves out what did not.
        self.view: JSON | None = None
        self.legal: JSON | None = None
        self.timers: JSON | None = None
        self.outbox: asyncio.Queue[JSON | None] = asyncio.Queue(maxsize=outbox)
        self.closed = False
        self.strict = strict

    def send(self, msg: JSON) -> None:
        """Queue ``msg``; a connection that cannot keep up is closed."""
        if self.closed:
            return
        if self.strict:
            check_server(msg)
        try:
            self.outbox.put_nowait(msg)
        except asyncio.QueueFull:
            self.close()

    def close(self) -> None:
        """Ask the writer to close the connection: its marker goes in even when the outbox is full
        (what is still queued is dropped then; the connection is closing anyway)."""
        if not self.closed:
            self.closed = True
            while True:
                try:
                    self.outbox.put_nowait(None)
                    return
                except asyncio.QueueFull:
                    self.outbox.get_nowait()


@dataclass
class Seat:
    """A seat: the player sitting there (id and name) or the bot level sitting there."""

    player: str | None = None
    name: str | None = None
    bot: str | None = None

    def to_json(self) -> JSON:
        return {"player": self.player, "name": self.name, "bot": self.bot}

    @property
    def empty(self) -> bool:
        return self.player is None and self.bot is None


@dataclass
class _Command:
    kind: str
    conn: Conn | None = None
    msg: JSON = field(default_factory=dict)


class Refused(Exception):
    """A command the table refuses, with the code and reason the sender is told."""

    def __init__(self, code: str, message: str, refusal: IllegalAction | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        #: The rule a refused action breaks (its code and parameters), for the client to say.
        self.reason = refusal.reason if refusal is not None else None
        self.params = refusal.params if refusal is not None else None


def make_token(secret: bytes, *parts: str) -> str:
    """An unguessable token bound to ``parts`` (HMAC-SHA256, URL-safe)."""
    digest = hmac.new(secret, "\x1f".join(parts).encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest[:24]).decode()


class Table:
    """A table and its actor; create with :meth:`new` or :meth:`restore`, then :meth:`start`."""

    def __init__(
        self,
        table_id: str,
        options: TableOptions,
        owner: str,
        invite: str,
        store: Store,
        settings: Settings,
        on_close: Callable[["Table"], None] | None = None,
        pool: BotPool | None = None,
    ) -> None:
        self.id = table_id
        self.options = options
        self.owner = owner
        self.invite = invite
        self.store = store
        self.settings = settings
        self.game = GAMES[options.game]
        self.seats = [Seat() for _ in range(self.game.seats(options))]
        self.status = "lobby"
        self.match: Any = None
        self.actions: list[tuple[int, str]] = []
        self.events: list[JSON] = []
        self.conns: set[Conn] = set()
        self._joins = 0
        self.standin = [False] * len(self.seats)
        self.turn_due: dict[int, float] = {}
        self.bot_due: dict[int, float] = {}
        self.take_due: float | None = None
        self._closed_at = -1  # the number of actions when the server last closed a bomb window
        self.grace_due: dict[int, float] = {}
        self.pool = pool or BotPool(0)
        self._record: tuple[list[tuple[int, str]], str] | None = None  # actions, their record
        self._queue: asyncio.Queue[_Command] = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None
        self._wake: asyncio.TimerHandle | None = None
        self._on_close = on_close
        #: Called once the match is over and its last events are stored (the lobby settles its result).
        self.on_over: Callable[[Table], None] | None = None

    # ------------------------------------------------------------------ life

    @property
    def seq(self) -> int:
        """The sequence number of the last event (0 before any)."""
        return len(self.events)

    def start(self) -> None:
        """Start the actor."""
        self._task = asyncio.get_running_loop().create_task(self._run(), name=f"table-{self.id}")
        self._refresh()

    async def stop(self) -> None:
        """Stop the actor after the commands already queued."""
        if self._task is None:
            return
        self._queue.put_nowait(_Command("stop"))
        with contextlib.suppress(asyncio.CancelledError):
            await self._task
        self._task = None

    def request_stop(self) -> None:
        """Stop the actor after the commands already queued, without waiting."""
        self._queue.put_nowait(_Command("stop"))

    def restore(self, events: list[JSON], actions: list[tuple[int, str]]) -> None:
        """Rebuild the table from its stored events and actions (before :meth:`start`)."""
        self.events = list(events)
        for ev in events:
            if ev["kind"] == "seats":
                self.seats = [Seat(s["player"], s["name"], s["bot"]) for s in ev["seats"]]
            elif ev["kind"] == "started":
                self.status = "playing"
            elif ev["kind"] == "match_over":
                self.status = "finished"
        if self.status != "lobby":
            self.match = self.game.replay(self.options, actions)
            self.actions = list(actions)
        if self.status == "playing":
            now = asyncio.get_running_loop().time()
            for seat, s in enumerate(self.seats):
                if s.player is not None:
                    self.grace_due[seat] = now + self.settings.grace

    # ------------------------------------------------------------------ commands

    def join(self, conn: Conn, hello: JSON) -> None:
        """A connection's ``hello``: it is answered with ``welcome`` and a snapshot, or refused."""
        self._queue.put_nowait(_Command("join", conn, hello))

    def receive(self, conn: Conn, msg: JSON) -> None:
        """A checked client message from a joined connection."""
        self._queue.put_nowait(_Command("msg", conn, msg))

    def leave(self, conn: Conn) -> None:
        """The connection has closed."""
        self._queue.put_nowait(_Command("leave", conn))

    def rename(self, old: str, new: str, name: str) -> None:
        """The player ``old`` is ``new`` from now on (a guest merged into its account, named ``name``):
        its seats, its ownership and its connections here pass to ``new``."""
        self._queue.put_nowait(_Command("rename", None, {"old": old, "new": new, "name": name}))

    async def call(self, fn: Callable[[], Any]) -> Any:
        """Run ``fn`` inside the actor (between commands) and return its result."""
        fut: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._queue.put_nowait(_Command("call", None, {"fn": fn, "fut": fut}))
        return await fut

    async def _run(self) -> None:
        while True:
            cmd = await self._queue.get()
            if cmd.kind == "stop":
                if self._wake is not None:
                    self._wake.cancel()
                return
            try:
                await self._handle(cmd)
            except Exception:
                log.exception("table %s: command %s failed", self.id, cmd.kind)
                if cmd.conn is not None:
                    cmd.conn.send(error("internal", "the server failed on this message", cmd.msg.get("ref")))

    async def _handle(self, cmd: _Command) -> None:
        if cmd.kind == "call":
            fut = cmd.msg["fut"]
            try:
                fut.set_result(cmd.msg["fn"]())
            except Exception as e:
                fut.set_exception(e)
            return
        if cmd.kind == "wake":
            await self._on_wake()
        elif cmd.kind == "rename":
            await self._on_rename(str(cmd.msg["old"]), str(cmd.msg["new"]), str(cmd.msg["name"]))
        elif cmd.kind == "leave" and cmd.conn is not None:
            await self._on_leave(cmd.conn)
        elif cmd.conn is not None:
            conn = cmd.conn
            try:
                if cmd.kind == "join":
                    await self._on_join(conn, cmd.msg)
                else:
                    await self._on_message(conn, cmd.msg)
            except Refused as e:
                conn.send(error(e.code, e.message, cmd.msg.get("ref"), e.reason, e.params))
                if cmd.kind == "join":
                    conn.close()
        self._refresh()

    # ------------------------------------------------------------------ joining

    def rejoin_token(self, seat: int) -> str | None:
        """The token that gives back ``seat`` to its player (None for an empty or bot seat)."""
        player = self.seats[seat].player
        if player is None:
            return None
        return make_token(self.settings.secret, "rejoin", self.id, str(seat), player)

    async def _on_join(self, conn: Conn, hello: JSON) -> None:
        rejoin = hello.get("rejoin")
        if rejoin is not None:
            for seat in range(len(self.seats)):
                token = self.rejoin_token(seat)
                if token is not None and hmac.compare_digest(token, rejoin):
                    conn.player = str(self.seats[seat].player)
                    break
            else:
                raise Refused("bad_rejoin", "this rejoin token does not belong to a seat of this table")
        seated = [i for i, s in enumerate(self.seats) if s.player == conn.player]
        invited = hello.get("invite") is not None and hmac.compare_digest(str(hello["invite"]), self.invite)
        if not self.options.open and not invited and not seated and conn.player != self.owner:
            raise Refused("invite_required", "this table is invite-only: join with its invite link")
        if seated:
            self._make_room(seated[0])
        else:
            self._check_spectator(conn)
        if hello.get("name"):
            conn.name = str(hello["name"])
        elif seated:
            conn.name = str(self.seats[seated[0]].name or conn.name)
        conn.seat = seated[0] if seated else None
        self._joins += 1
        conn.order = self._joins
        self.conns.add(conn)
        you = self._you(conn)
        conn.send({"type": "welcome", "protocol": PROTOCOL, "guest": conn.guest, "you": you, "seq": self.seq})
        since = hello.get("since")
        if since is not None:
            self._send_since(conn, int(since))
        conn.send(self._snapshot(conn))
        if conn.seat is not None:
            self.grace_due.pop(conn.seat, None)
            if self.standin[conn.seat]:
                self.standin[conn.seat] = False
                await self._commit([self._event("standin", seat=conn.seat, on=False)])
        self._broadcast_table()

    async def _on_rename(self, old: str, new: str, name: str) -> None:
        # Every table of every process hears of every rename: one not concerned says nothing.
        changed = self.owner == old
        if changed:
            self.owner = new
        for c in self.conns:
            if c.player == old:
                c.player, c.name = new, name
                changed = True
        if any(s.player == old for s in self.seats) and self.status != "finished":
            seats = [Seat(new, name, s.bot) if s.player == old else s for s in self.seats]
            await self._commit([self._seats_event(seats)], seats=seats)
        elif changed:
            self._broadcast_table()

    def _make_room(self, seat: int) -> None:
        """A seat's player always gets in: past its connection limit, its oldest connection goes."""
        mine = sorted((c for c in self.conns if c.seat == seat), key=lambda c: c.order)
        for old in mine[: max(0, len(mine) - self.settings.seat_connections + 1)]:
            self.conns.discard(old)
            old.send(error("replaced", "this seat was opened in another connection"))
            old.close()

    def _check_spectator(self, conn: Conn) -> None:
        """Spectators have slots of their own, a few per guest and per address."""
        watching = [c for c in self.conns if c.seat is None]
        if len(watching) >= self.settings.max_spectators:
            raise Refused("table_full", f"this table takes {self.settings.max_spectators} spectators")
        limit = self.settings.spectators_per_guest
        if sum(c.player == conn.player for c in watching) >= limit:
            raise Refused("too_many_connections", f"one guest may watch a table from {limit} connections")
        limit = self.settings.spectators_per_address
        if conn.address and sum(c.address == conn.address for c in watching) >= limit:
            raise Refused("too_many_connections", f"one address may watch a table from {limit} connections")

    async def _on_leave(self, conn: Conn) -> None:
        self.conns.discard(conn)
        seat = conn.seat
        if seat is not None and self.status == "playing" and not self._connected(seat):
            self.grace_due[seat] = asyncio.get_running_loop().time() + self.settings.grace
        self._broadcast_table()
        if self.status == "finished" and not self.conns and self._on_close is not None:
            self._on_close(self)

    def _connected(self, seat: int) -> bool:
        return any(c.seat == seat for c in self.conns)

    # ------------------------------------------------------------------ messages

    async def _on_message(self, conn: Conn, msg: JSON) -> None:
        kind = msg["type"]
        if kind == "ping":
            conn.send({"type": "pong", **({"ref": msg["ref"]} if "ref" in msg else {})})
        elif kind == "resync":
            self._send_since(conn, int(msg["since"]))
            conn.send(self._snapshot(conn))
        elif kind == "chat":
            await self._commit(
                [
                    self._event(
                        "chat",
                        player=conn.player,
                        name=conn.name,
                        seat=conn.seat,
                        spectator=conn.seat is None,  # so that no spectator passes for a player
                        text=msg["text"],
                    )
                ]
            )
        elif kind == "act":
            await self._on_act(conn, str(msg["action"]))
        elif kind == "autoplay":
            await self._on_autoplay(conn, bool(msg["on"]))
        elif kind == "why":
            self._on_why(conn, str(msg["action"]), msg.get("ref"))
        elif kind == "hello":
            raise Refused("already_joined", "hello is the first message only")
        else:
            await self._on_lobby(conn, kind, msg)

    async def _on_lobby(self, conn: Conn, kind: str, msg: JSON) -> None:
        if self.status != "lobby":
            raise Refused("not_in_lobby", f"'{kind}' is only possible before the start")
        n = len(self.seats)
        for key in ("seat", "a", "b"):
            if key in msg and msg[key] >= n:
                raise Refused("bad_seat", f"this table has seats 0-{n - 1}")
        owner_only = kind in ("swap", "bot", "unbot", "start")
        if owner_only and conn.player != self.owner:
            raise Refused("not_owner", f"only the table's creator may '{kind}'")
        seats = [Seat(s.player, s.name, s.bot) for s in self.seats]
        if kind == "sit":
            seat = msg["seat"]
            if not seats[seat].empty:
                raise Refused("seat_taken", f"seat {seat} is taken")
            for s in seats:
                if s.player == conn.player:
                    s.player = s.name = None
            seats[seat] = Seat(conn.player, conn.name)
        elif kind == "stand":
            if conn.seat is None:
                raise Refused("not_seated", "you have no seat")
            seats[conn.seat] = Seat()
        elif kind == "swap":
            a, b = msg["a"], msg["b"]
            seats[a], seats[b] = seats[b], seats[a]
        elif kind == "bot":
            seat = msg["seat"]
            level = str(msg.get("level", self.options.bot))
            if not seats[seat].empty:
                raise Refused("seat_taken", f"seat {seat} is taken")
            seats[seat] = Seat(bot=self._check_bot(level))
        elif kind == "unbot":
            seat = msg["seat"]
            if seats[seat].bot is None:
                raise Refused("no_bot", f"no bot sits at seat {seat}")
            seats[seat] = Seat()
        elif kind == "start":
            fill = msg.get("fill")
            if any(s.empty for s in seats):
                if fill is None:
                    raise Refused("seats_empty", "seats are empty: seat bots, or send start with 'fill'")
                level = self._check_bot(str(fill))
                seats = [Seat(bot=level) if s.empty else s for s in seats]
            self.match = self.game.new(self.options)
            self.status = "playing"
            await self._commit([self._seats_event(seats), self._event("started")], seats=seats)
            # A player who sat and went away before the start gets the grace period, then a bot,
            # as one who leaves during the play does: the table never waits for them for ever.
            now = asyncio.get_running_loop().time()
            for i, s in enumerate(self.seats):
                if s.player is not None and not self._connected(i):
                    self.grace_due[i] = now + self.settings.grace
            return
        await self._commit([self._seats_event(seats)], seats=seats)

    def _check_bot(self, level: str) -> str:
        name = bot_name(self.options.game, level)
        if name != level:
            raise Refused("bad_bot", f"no {self.options.game} bot {level!r}")
        return level

    async def _on_act(self, conn: Conn, text: str) -> None:
        seat, canonical, new = self._judge(conn, text)
        await self._act(seat, canonical, "player", new)

    async def _on_autoplay(self, conn: Conn, on: bool) -> None:
        """A player hands its seat to a bot (auto-play) or takes it back, as a stand-in does."""
        if self.status != "playing":
            raise Refused("not_playing", f"the table is {self.status}, not playing")
        seat = conn.seat
        if seat is None:
            raise Refused("not_seated", "spectators cannot act")
        if self.standin[seat] == on:
            return
        self.standin[seat] = on
        await self._commit([self._event("standin", seat=seat, on=on)])
        self._broadcast_table()
        self._refresh()

    def _on_why(self, conn: Conn, text: str, ref: Any) -> None:
        """Answer whether ``text`` is legal now for the sender, and if not why; nothing changes."""
        answer: JSON = {"type": "why", "action": text}
        try:
            self._judge(conn, text)
        except Refused as e:
            answer |= {"legal": False, "code": e.code, "message": e.message}
            if e.reason is not None:
                answer |= {"reason": e.reason, "params": dict(e.params or {})}
        else:
            answer["legal"] = True
        if ref is not None:
            answer["ref"] = ref
        conn.send(answer)

    def _judge(self, conn: Conn, text: str) -> tuple[int, str, Any]:
        """The sender's seat, the action's canonical text and the match after it; or Refused."""
        if self.status != "playing":
            raise Refused("not_playing", f"the table is {self.status}, not playing")
        seat = conn.seat
        if seat is None:
            raise Refused("not_seated", "spectators cannot act")
        try:
            action = self.game.parse(self.match, seat, text)
        except ParseError as e:
            raise Refused("bad_action", str(e)) from None
        except (PagodaError, ValueError) as e:
            raise Refused("illegal", str(e), e if isinstance(e, IllegalAction) else None) from None
        # From here on the action is its canonical text (never the text as sent): what is
        # checked, stored in the record and shown is the one spelling the notation gives it.
        canonical = str(action)
        if self.game.server_only(canonical):
            raise Refused("illegal", "the trick is taken by the server when the bomb window closes")
        try:
            new = self.game.apply(self.match, seat, action)
        except (PagodaError, ValueError) as e:
            raise Refused("illegal", str(e), e if isinstance(e, IllegalAction) else None) from None
        return seat, canonical, new

    # ------------------------------------------------------------------ actions

    async def _act(self, seat: int, text: str, by: str, new: Any = None) -> None:
        """Apply a legal action (``new``: the match after it, if known) with the bots' answers to
        the bomb window it opens, record them and tell everyone; a bot's bomb follows on its own.

        The bots asked out of turn (the core's ``"bomb"`` decisions) answer at once, and their
        ``no-bomb`` is recorded with the action that asked them and told to nobody: no message
        says who was asked, which would tell who holds a bomb."""
        before = self.game.rounds_done(self.match)
        if new is None:
            new = self.game.apply(self.match, seat, text)
        actions = [*self.actions, (seat, text)]
        new, bomb = await self._bot_answers(new, actions)
        events = []
        if not self.game.is_silent(text):
            # The event says who sees it as it was (a Tichu exchange: its own seat alone).
            visible = {"visible": [seat]} if self.game.is_private(text) else {}
            events.append(self._event("action", seat=seat, action=text, by=by, **visible))
        if self.game.rounds_done(new) > before:
            events.append(self._event("round_over", summary=self.game.round_summary(new)))
        over = self.game.is_over(new, self.options)
        if over:
            events.append(self._event("match_over", summary=self.game.match_summary(new, self.options)))
        tell = None if events else {seat}
        await self._commit(events, match=new, actions=actions, status="finished" if over else None, tell=tell)
        self.turn_due.pop(seat, None)
        self.bot_due.pop(seat, None)
        if over:
            if self.on_over is not None:
                self.on_over(self)
            if not self.conns and self._on_close is not None:
                self._on_close(self)
        elif bomb is not None:
            await self._act(*bomb, "bot")

    async def _bot_answers(
        self, match: Any, actions: list[tuple[int, str]]
    ) -> tuple[Any, tuple[int, str] | None]:
        """``match`` after every bot asked out of turn lets play go on (their answers appended to
        ``actions``), and the first bot's bomb if one bombs instead (not applied)."""
        while True:
            asked = [d for d in self.game.decisions(match) if d.kind == "bomb" and self._bot_controls(d.seat)]
            if not asked:
                return match, None
            d = asked[0]
            seed = f"pagoda-server/{self.options.seed}/{len(actions)}/{d.seat}"
            try:
                view, legal = self.game.bot_inputs(match, d.seat, d)
                text = await self._decide(d.seat, view, legal, seed)
                after = self.game.apply(match, d.seat, text)
            except Exception:
                text = self._let_go(d)
                log.exception(
                    "table %s: bot for seat %d failed; it lets play go on (%s)", self.id, d.seat, text
                )
                after = self.game.apply(match, d.seat, text)
            if not self.game.is_silent(text):
                return match, (d.seat, text)
            match = after
            actions.append((d.seat, text))

    def _let_go(self, decision: Any) -> str:
        """The answer of a seat asked out of turn that lets play go on (Tichu's no-bomb)."""
        return next(str(a) for a in decision.actions if self.game.is_silent(str(a)))

    async def _close_window(self) -> None:
        """A complete trick's bomb window has passed: every seat still asked lets play go on (told
        to itself alone), then the server takes the trick (a Dragon trick waits for its gift)."""
        match, actions, asked = self.match, list(self.actions), set()
        for d in self.game.decisions(match):
            if d.kind == "bomb":
                text = self._let_go(d)
                match = self.game.apply(match, d.seat, text)
                actions.append((d.seat, text))
                asked.add(d.seat)
        take = self.game.server_take(match)
        self._closed_at = len(actions)
        if asked or take is None:
            # The seats asked are told their state; when no take follows (a Dragon trick waits
            # for its gift), everyone is, for the take timer has stopped for everyone: either way
            # nobody learns who was asked.
            tell = asked if take is not None else None
            await self._commit([], match=match, actions=actions if asked else None, tell=tell)
        if take is not None:
            await self._act(*take, "server")

    def _bot_controls(self, seat: int) -> bool:
        return self.seats[seat].bot is not None or self.standin[seat]

    def _level(self, seat: int) -> str:
        return bot_name(self.options.game, self.seats[seat].bot or self.options.bot)

    async def _decide(self, seat: int, view: Any, legal: Any, seed: str) -> str:
        """The seat's bot's answer from the pool; if it fails or runs past ``Settings.bot_timeout``
        the game's table bot (``default_bot``: club in Tichu, the heuristic in Dou Di Zhu) decides
        instead, in this process, with the same seed (and the log says so)."""
        game, level = self.options.game, self._level(seat)
        try:
            return await self.pool.decide(Question(game, level, view, legal, seed), self.settings.bot_timeout)
        except TimeoutError:
            why = f"took longer than {self.settings.bot_timeout:g} s"
        except Exception as e:
            why = f"failed ({type(e).__name__}: {e})"
        fallback = bot_name(game, GAMES[game].default_bot)
        log.warning(
            "table %s: bot %s for seat %d %s; %s decided instead", self.id, level, seat, why, fallback
        )
        return decide(Question(game, fallback, view, legal, seed))

    async def _bot_move(self, seat: int, by: str) -> None:
        seed = f"pagoda-server/{self.options.seed}/{len(self.actions)}/{seat}"
        try:
            view, legal = self.game.bot_inputs(self.match, seat)
            text = await self._decide(seat, view, legal, seed)
            new = self.game.apply(self.match, seat, text)
        except Exception:
            # The core's own list (the client's omits the Tichu exchanges, which it composes).
            first = next(self._own_actions(seat), None)
            if first is None:
                log.exception(
                    "table %s: bot for seat %d failed, and the seat has nothing to do now", self.id, seat
                )
                return
            log.exception(
                "table %s: bot for seat %d failed; its first legal action %s is played instead",
                self.id,
                seat,
                first,
            )
            text, new = first, None
        await self._act(seat, text, by, new)

    def _own_actions(self, seat: int) -> Iterator[str]:
        """The actions ``seat`` may take in its own turn (or simultaneous phase) now, as the
        rules core lists them, less those the server takes itself."""
        for d in self.game.decisions(self.match):
            if d.seat == seat and d.kind != "bomb":
                yield from (str(a) for a in d.actions if not self.game.server_only(str(a)))

    # ------------------------------------------------------------------ events

    def _event(self, kind: str, **data: Any) -> JSON:
        return {"seq": 0, "kind": kind, "time": round(time.time(), 3), **data}

    def _seats_event(self, seats: list[Seat]) -> JSON:
        return self._event("seats", seats=[s.to_json() for s in seats])

    async def _commit(
        self,
        events: list[JSON],
        *,
        seats: list[Seat] | None = None,
        match: Any = None,
        actions: list[tuple[int, str]] | None = None,
        status: str | None = None,
        tell: set[int] | None = None,
    ) -> None:
        """Number ``events``, store them (and the record), then apply the change and tell everyone:
        each event as its viewer may see it, the last with what changed for the connection (see
        :meth:`_change`); a change without events is told as a whole ``state``. ``tell``: only the
        connections of these seats are told the change."""
        for i, ev in enumerate(events):
            ev["seq"] = self.seq + 1 + i
        new_status = status or self.status
        record = None
        if actions is not None:
            record = self._record_of(actions)
        elif new_status != "lobby" and any(e["kind"] == "started" for e in events):
            record = record_text(self.game, self.options, [])
        await self.store.append(self.id, events, new_status, record)
        self.events.extend(events)
        self.status = new_status
        if seats is not None:
            self.seats = seats
            for c in self.conns:
                mine = [i for i, s in enumerate(seats) if s.player == c.player]
                c.seat = mine[0] if mine else None
        if match is not None:
            self.match = match
        if actions is not None:
            self.actions = actions
            if record is not None:
                self._record = (actions, record)
        if status == "finished":
            self.turn_due.clear()
            self.bot_due.clear()
            self.grace_due.clear()
            self.take_due = None
        game_changed = match is not None or any(e["kind"] == "started" for e in events)
        # A stand-in changes whom the timers wait for, and a player back from one is waited for again.
        timers_changed = game_changed or any(e["kind"] == "standin" for e in events)
        if timers_changed:
            self._refresh()
        timers = self._timers() if timers_changed else None
        # Each message is built once per viewer (a seat, or None for spectators), not per
        # connection: the events, the view and the legal actions; the change a connection is
        # told once for all the connections that were last sent the same.
        told: dict[int | None, list[JSON]] = {}
        held: dict[int | None, tuple[JSON | None, JSON | None]] = {}
        ends: dict[tuple[int | None, int, int, int], JSON] = {}
        for c in list(self.conns):
            seat = c.seat
            if seat not in told:
                told[seat] = [
                    {"type": "event", "seq": e["seq"], "event": self._filter(e, seat)} for e in events
                ]
            if timers is None or (tell is not None and seat not in tell):
                for msg in told[seat]:
                    c.send(msg)
                continue
            if game_changed:
                if seat not in held:
                    held[seat] = (self.view(seat), self._legal(seat))
                view, legal = held[seat]
            else:
                view, legal = c.view, c.legal
            if not told[seat]:  # a change no event tells (a seat's own no-bomb): the whole state
                c.send({"type": "state", "seq": self.seq, "game": view, "legal": legal, "timers": timers})
            else:
                key = (seat, id(c.view), id(c.legal), id(c.timers))
                if key not in ends:
                    ends[key] = {**told[seat][-1], **self._change(c, view, legal, timers)}
                for msg in told[seat][:-1]:
                    c.send(msg)
                c.send(ends[key])
            c.view, c.legal, c.timers = view, legal, timers
        if seats is not None:
            self._broadcast_table()

    @staticmethod
    def _change(conn: Conn, view: JSON | None, legal: JSON | None, timers: JSON) -> JSON:
        """What differs from what ``conn`` was last sent: the view's patch (or the whole view), the
        legal actions, the timers; each one the same is left out."""
        out: JSON = {}
        if view is not None and view is not conn.view:
            patch = view_patch(conn.view, view)
            if patch is None:
                out["game"] = view
            elif len(patch) > 1:
                out["patch"] = patch
        if legal != conn.legal:
            out["legal"] = legal
        if timers != conn.timers:
            out["timers"] = timers
        return out

    def _record_of(self, actions: list[tuple[int, str]]) -> str:
        """The record's text after ``actions``: the last one's line added to the text kept of the
        actions before it when they are the table's (one line per action, not the whole record)."""
        kept = self._record
        if kept is not None and kept[0] is self.actions and len(actions) == len(self.actions) + 1:
            seat, text = actions[-1]
            return f"{kept[1]}\n{seat} {text}"
        return record_text(self.game, self.options, actions)

    def _filter(self, ev: JSON, viewer: int | None) -> JSON:
        if ev["kind"] != "action":
            return ev
        if "visible" in ev:  # the event's own word on who sees it
            seen = viewer in ev["visible"]
        elif "private" in ev:  # (stored before events said who: private to its seat)
            seen = not ev["private"] or viewer == ev["seat"]
        else:  # (stored before events were marked at all: judged by their text)
            seen = viewer == ev["seat"] or not self.game.is_private(ev["action"])
        return ev if seen else {**ev, "action": self.game.hidden(ev["action"])}

    def _send_since(self, conn: Conn, since: int) -> None:
        """The events after ``since``, unless they are more than the replay limit: then none (the
        snapshot that follows stands in for them)."""
        if self.seq - since > self.settings.replay_limit:
            return
        for ev in self.events[since:]:
            conn.send({"type": "event", "seq": ev["seq"], "event": self._filter(ev, conn.seat)})

    # ------------------------------------------------------------------ views

    def table_info(self) -> JSON:
        """The table as everyone may see it."""
        seats = []
        for i, s in enumerate(self.seats):
            seats.append({**s.to_json(), "connected": self._connected(i), "standin": self.standin[i]})
        return {
            "id": self.id,
            "options": self.options.public(),
            "status": self.status,
            "owner": self.owner,
            "seats": seats,
            "spectators": sum(1 for c in self.conns if c.seat is None),
        }

    def _you(self, conn: Conn) -> JSON:
        token = None if conn.seat is None else self.rejoin_token(conn.seat)
        return {"player": conn.player, "name": conn.name, "seat": conn.seat, "rejoin": token}

    def view(self, seat: int | None) -> JSON | None:
        """The game as ``seat`` (None: a spectator) sees it; None before the start."""
        if self.match is None:
            return None
        return self.game.view(self.match, seat)

    def _timers(self) -> JSON:
        loop_now = asyncio.get_running_loop().time()
        wall = time.time()
        turn = {str(s): round(wall + due - loop_now, 3) for s, due in sorted(self.turn_due.items())}
        take = None if self.take_due is None else round(wall + self.take_due - loop_now, 3)
        return {"turn": turn, "take": take}

    def _legal(self, seat: int | None) -> JSON | None:
        if self.status != "playing" or seat is None:
            return None
        return self.game.legal(self.match, seat)

    def _snapshot(self, conn: Conn) -> JSON:
        conn.view, conn.legal, conn.timers = self.view(conn.seat), self._legal(conn.seat), self._timers()
        return {
            "type": "snapshot",
            "seq": self.seq,
            "table": self.table_info(),
            "you": self._you(conn),
            "game": conn.view,
            "legal": conn.legal,
            "timers": conn.timers,
        }

    def _broadcast_table(self) -> None:
        info = self.table_info()
        for c in list(self.conns):
            c.send({"type": "table", "table": info, "you": self._you(c)})

    # ------------------------------------------------------------------ timers

    def _refresh(self) -> None:
        """Recompute what is due (bot moves, turn timers, the take, stand-ins) and set the wake-up."""
        if self._task is None:
            return
        loop = asyncio.get_running_loop()
        now = loop.time()
        if self.status != "playing":
            self.turn_due.clear()
            self.bot_due.clear()
            self.take_due = None
        else:
            # A complete trick waits for its bomb window once (then the server closes it).
            take = self.game.window_pending(self.match) and self._closed_at != len(self.actions)
            if not take:
                self.take_due = None
            elif self.take_due is None:
                self.take_due = now + self.settings.bomb_window
            awaited = set(self.game.awaiting(self.match))
            if take:
                awaited.discard(self.game.view(self.match, None)["to_move"])
            for s in list(self.turn_due):
                if s not in awaited or self._bot_controls(s):
                    del self.turn_due[s]
            for s in list(self.bot_due):
                if s not in awaited or not self._bot_controls(s):
                    del self.bot_due[s]
            for s in sorted(awaited):
                if self._bot_controls(s):
                    self.bot_due.setdefault(s, now + self.settings.bot_delay)
                elif self.options.turn_timer > 0:
                    self.turn_due.setdefault(s, now + self.options.turn_timer)
        dues = [*self.turn_due.values(), *self.bot_due.values(), *self.grace_due.values()]
        if self.take_due is not None:
            dues.append(self.take_due)
        if self._wake is not None:
            self._wake.cancel()
            self._wake = None
        if dues:
            delay = max(0.0, min(dues) - now)
            self._wake = loop.call_later(delay, self._queue.put_nowait, _Command("wake"))

    async def _on_wake(self) -> None:
        self._wake = None
        for _ in range(1000):
            now = asyncio.get_running_loop().time()
            grace = [s for s, due in self.grace_due.items() if due <= now]
            if grace:
                seat = grace[0]
                del self.grace_due[seat]
                if self.status == "playing" and not self._connected(seat):
                    self.standin[seat] = True
                    # "grace": the player stayed away (a rated match counts it abandoned unless
                    # the player comes back), unlike a stand-in the player asked for (auto-play).
                    await self._commit([self._event("standin", seat=seat, on=True, why="grace")])
                    self._broadcast_table()
                self._refresh()
                continue
            if self.status != "playing":
                return
            if self.take_due is not None and self.take_due <= now:
                self.take_due = None
                await self._close_window()
                continue
            bots = sorted((due, s) for s, due in self.bot_due.items() if due <= now)
            if bots:
                seat = bots[0][1]
                del self.bot_due[seat]
                await self._bot_move(seat, "bot")
                continue
            late = sorted((due, s) for s, due in self.turn_due.items() if due <= now)
            if late:
                seat = late[0][1]
                del self.turn_due[seat]
                await self._bot_move(seat, "timer")
                continue
            return
