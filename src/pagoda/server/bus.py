"""Several server processes behind Redis pub/sub: each table owned by one process.

With ``PAGODA_REDIS_URL`` set, every ``pagoda serve`` process is a node of a cluster that shares
one database and one Redis:

- **Ownership.** A table is run by exactly one node: the one holding its key
  ``pagoda:owner:<table>`` (``SET NX`` with a lease that the owner renews every third of it).
  A node that dies or stalls loses its keys when the lease runs out; another node then claims the
  table and restores it from the shared database (its seats from the event log, its match by
  replaying the record), exactly as a restarted server does. Nodes scan the database for live
  tables nobody owns every lease, so tables of bots alone are taken over too. The database's
  unique ``(table, seq)`` keeps a stalled former owner from writing over the new one.
- **Connections anywhere.** A WebSocket that reaches a node not owning its table is served there
  by a :class:`RemoteTable`: its checked messages are published on the table's command channel
  ``pagoda:in:<table>``, which only the owner reads, and the owner sends everything for that
  connection (already filtered for its seat, exactly as for a local one) on the connection's own
  channel ``pagoda:out:<connection>``. No channel carries what another seat may not see.
- **Moving.** When a table's owner changes, each remote connection joins again at the new owner
  with ``since`` its last sequence number: it gets a ``welcome``, the events it missed and a
  snapshot, as after a reconnect. A command published while no node owns the table is answered
  with the error ``unavailable`` (send it again); the client never loses an acknowledged action,
  because every event is stored before anyone is told.
- **Renames.** A guest that registers, or logs in and is merged into an account, at one node
  may be seated at tables of others: the node publishes the rename on ``pagoda:rename`` and
  every node renames the player at once in the tables it runs (seats, owner, connections; the
  seats are stored) and in its own connections to remote tables. A rename published while a
  table had no owner is caught up by the node that takes it over, from the accounts' aliases.
"""

import asyncio
import contextlib
import json
import logging
import secrets
from collections.abc import Callable
from typing import Any

from redis.asyncio import BlockingConnectionPool, Redis
from redis.asyncio.client import PubSub

from pagoda.server.accounts import identities
from pagoda.server.games import JSON, TableOptions
from pagoda.server.lobby import Lobby
from pagoda.server.protocol import error
from pagoda.server.store import BROKEN, LIVE, StoredTable, mark_broken
from pagoda.server.table import Conn, Table

log = logging.getLogger("pagoda.server.bus")

PREFIX = "pagoda"

# Renew the lease of each key in KEYS that still names this node (ARGV[1]) for ARGV[2] ms;
# return the keys lost (held by another node or expired).
_RENEW = """
local lost = {}
for i, key in ipairs(KEYS) do
  if redis.call('GET', key) == ARGV[1] then
    redis.call('PEXPIRE', key, ARGV[2])
  else
    table.insert(lost, key)
  end
end
return lost
"""

# Delete KEYS[1] if it still names this node.
_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""


def _text(value: str | bytes | None) -> str | None:
    return value.decode() if isinstance(value, bytes) else value


#: The channel on which a node tells the others that a guest is an account now.
RENAME_CHANNEL = f"{PREFIX}:rename"


def owner_key(table_id: str) -> str:
    """The Redis key naming the node that owns a table."""
    return f"{PREFIX}:owner:{table_id}"


def in_channel(table_id: str) -> str:
    """The channel of commands to a table's owner."""
    return f"{PREFIX}:in:{table_id}"


def out_channel(conn_id: str) -> str:
    """The channel of messages to one remote connection."""
    return f"{PREFIX}:out:{conn_id}"


class _Relay:
    """At the owner: a connection that lives on another node, fed through its channel."""

    def __init__(self, cluster: "Cluster", table: Table, conn_id: str, conn: Conn) -> None:
        self.cluster = cluster
        self.table = table
        self.conn_id = conn_id
        self.conn = conn
        self.task = asyncio.get_running_loop().create_task(self._pump(), name=f"relay-{conn_id}")

    async def _pump(self) -> None:
        channel = out_channel(self.conn_id)
        node = self.cluster.node
        while True:
            msg = await self.conn.outbox.get()
            if msg is None:
                with contextlib.suppress(Exception):
                    await self.cluster.redis.publish(channel, json.dumps({"node": node, "close": True}))
                break
            text = json.dumps({"node": node, "m": msg}, separators=(",", ":"))
            try:
                heard = await self.cluster.redis.publish(channel, text)
            except Exception:
                # Lost on the way: the client sees a gap in seq and resyncs.
                log.exception("relay %s: publish failed", self.conn_id)
                continue
            if heard == 0:
                break
        # Nobody listens any more (the other node closed or died), or the table closed it.
        self.cluster.relays.pop(self.conn_id, None)
        self.table.leave(self.conn)
        self.conn.close()


class _Link:
    """At a node that does not own the table: one local connection and its way to the owner."""

    def __init__(self, remote: "RemoteTable", conn: Conn, hello: JSON) -> None:
        self.remote = remote
        self.conn = conn
        self.hello = hello
        self.id = secrets.token_urlsafe(12)
        self.owner: str | None = None
        self.local: Table | None = None
        self.seq = 0
        self.ops: asyncio.Queue[tuple[str, JSON]] = asyncio.Queue()
        self.ops.put_nowait(("join", hello))
        self.task = asyncio.get_running_loop().create_task(self._pump(), name=f"link-{self.id}")

    def deliver(self, data: str) -> None:
        """A message on this connection's channel: pass it on if it comes from the current owner."""
        wrapped = json.loads(data)
        if wrapped.get("node") != self.owner:
            return
        if wrapped.get("close"):
            self.conn.close()
            return
        msg = wrapped["m"]
        if msg.get("type") in ("welcome", "event"):
            self.seq = max(self.seq, int(msg["seq"]))
        self.conn.send(msg)

    def rejoin(self, owner: str | None) -> None:
        """The table moved to ``owner`` (None: to this node): join it there again."""
        self.owner = owner
        self.ops.put_nowait(("join", {**self.hello, "since": self.seq}))

    async def _pump(self) -> None:
        cluster = self.remote.cluster
        table_id = self.remote.id
        await cluster.subscribe(out_channel(self.id), self.deliver)
        try:
            while True:
                op, msg = await self.ops.get()
                if op == "join":
                    self.local = cluster.lobby.tables.get(table_id)
                if self.local is not None:
                    self._to_local(self.local, op, msg)
                elif not await self._try_publish(op, msg):
                    # No node reads the table's channel: its owner is gone.
                    if op == "join" and await self._try_take_over():
                        self.ops.put_nowait(("join", {**self.hello, "since": self.seq}))
                    elif op == "join" and not await self._still_live():
                        self.conn.send(error("no_table", "no live table with this id"))
                        self.conn.close()
                    elif op == "msg":
                        why = "the table is moving to another server; send it again"
                        self.conn.send(error("unavailable", why, msg.get("ref")))
                if op == "leave":
                    break
        finally:
            await cluster.unsubscribe(out_channel(self.id))
            self.remote.links.pop(self.conn, None)

    def _to_local(self, table: Table, op: str, msg: JSON) -> None:
        if op == "join":
            table.join(self.conn, msg)
        elif op == "msg":
            table.receive(self.conn, msg)
        else:
            table.leave(self.conn)

    async def _try_take_over(self) -> bool:
        try:
            return await self.remote.cluster.take_over(self.remote.id)
        except Exception:
            log.exception("link %s: taking the table over failed", self.id)
            return False

    async def _still_live(self) -> bool:
        try:
            row = await self.remote.cluster.lobby.store.get(self.remote.id)
        except Exception:
            log.exception("link %s: reading the table failed", self.id)
            return True
        return row is not None and row.status in LIVE

    async def _try_publish(self, op: str, msg: JSON) -> bool:
        try:
            return await self._publish(op, msg)
        except Exception:
            log.exception("link %s: publish failed", self.id)
            return False

    async def _publish(self, op: str, msg: JSON) -> bool:
        cluster = self.remote.cluster
        if op == "join":
            self.owner = _text(await cluster.control.get(owner_key(self.remote.id)))
        conn = self.conn
        body = {"op": op, "conn": self.id, "msg": msg}
        body.update(player=conn.player, name=conn.name, guest=conn.guest, address=conn.address)
        heard: int = await cluster.redis.publish(in_channel(self.remote.id), json.dumps(body))
        return heard > 0


class RemoteTable:
    """A table owned by another node, as this node's connections use it: join, receive, leave."""

    def __init__(self, cluster: "Cluster", table_id: str) -> None:
        self.cluster = cluster
        self.id = table_id
        self.links: dict[Conn, _Link] = {}

    def join(self, conn: Conn, hello: JSON) -> None:
        """Forward a connection's ``hello`` to the owner."""
        self.links[conn] = _Link(self, conn, hello)

    def receive(self, conn: Conn, msg: JSON) -> None:
        """Forward a checked client message to the owner."""
        link = self.links.get(conn)
        if link is not None:
            link.ops.put_nowait(("msg", msg))

    def leave(self, conn: Conn) -> None:
        """The connection has closed: tell the owner."""
        link = self.links.get(conn)
        if link is not None:
            link.ops.put_nowait(("leave", {}))


class Cluster:
    """This process as a node: the tables it owns, the remote tables its connections use."""

    def __init__(self, url: str, lobby: Lobby, lease: float = 5.0, node: str | None = None) -> None:
        if lease <= 0:
            raise ValueError(f"the lease must be a positive number of seconds, not {lease}")
        # A bounded pool that makes callers wait for a free connection rather than fail.
        pool = BlockingConnectionPool.from_url(url, decode_responses=True, max_connections=32, timeout=30)
        self.redis: Redis = Redis(connection_pool=pool)
        # Leases and keys go over connections of their own, never queued behind publishing.
        self.control: Redis = Redis.from_url(url, decode_responses=True)
        self.lobby = lobby
        self.lease = lease
        self.node = node or secrets.token_hex(6)
        self.owned: set[str] = set()
        # When each owned table was claimed: a table being created or restored is claimed before
        # its actor runs, and must not be mistaken for one that finished meanwhile.
        self._claimed: dict[str, float] = {}
        self._running: set[str] = set()
        self.relays: dict[str, _Relay] = {}
        self.remotes: dict[str, RemoteTable] = {}
        self._handlers: dict[str, Any] = {}
        self._pubsub: PubSub | None = None
        self._tasks: list[asyncio.Task[None]] = []
        self._claiming: dict[str, asyncio.Lock] = {}
        #: Called with (old, new, name) when another node renames a player; by default the lobby's tables.
        self.renamed: Callable[[str, str, str], None] = lobby.rename

    @property
    def _ms(self) -> int:
        return max(1, round(self.lease * 1000))

    # ------------------------------------------------------------------ life

    async def start(self) -> None:
        """Register the node, adopt the live tables nobody owns, start listening and renewing."""
        await self.control.set(f"{PREFIX}:node:{self.node}", "1", px=self._ms)
        self._pubsub = self.control.pubsub()
        await self._pubsub.subscribe(f"{PREFIX}:node:{self.node}")
        await self.subscribe(RENAME_CHANNEL, self._rename)
        self.lobby.claim = self.claim
        self._tasks.append(asyncio.get_running_loop().create_task(self._listen(), name="bus-listen"))
        await self.adopt_orphans(limit=self.lobby.max_tables)
        loop = asyncio.get_running_loop()
        self._tasks.append(loop.create_task(self._every(lambda n: self.renew()), name="bus-renew"))
        self._tasks.append(loop.create_task(self._every(lambda n: self.watch(n % 3 == 0)), name="bus-watch"))

    async def stop(self) -> None:
        """Stop listening and give up every owned table at once, so another node can take it."""
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._tasks.clear()
        for relay in list(self.relays.values()):
            relay.task.cancel()
        for remote in self.remotes.values():
            for link in remote.links.values():
                link.task.cancel()
        for table_id in list(self.owned):
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.control.eval(_RELEASE, 1, owner_key(table_id), self.node), 2)
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.control.delete(f"{PREFIX}:node:{self.node}"), 2)
        if self._pubsub is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._pubsub.aclose(), 2)  # type: ignore[no-untyped-call]
        for client in (self.redis, self.control):
            with contextlib.suppress(Exception):
                await asyncio.wait_for(client.aclose(), 2)

    # ------------------------------------------------------------------ channels

    async def subscribe(self, channel: str, handler: Any) -> None:
        """Call ``handler(data)`` for every message on ``channel``."""
        self._handlers[channel] = handler
        if self._pubsub is not None:
            await self._pubsub.subscribe(channel)

    async def unsubscribe(self, channel: str) -> None:
        """Stop listening to ``channel``."""
        if self._handlers.pop(channel, None) is not None and self._pubsub is not None:
            with contextlib.suppress(Exception):
                await self._pubsub.unsubscribe(channel)

    async def _listen(self) -> None:
        assert self._pubsub is not None
        async for message in self._pubsub.listen():
            if message["type"] != "message":
                continue
            handler = self._handlers.get(message["channel"])
            if handler is None:
                continue
            try:
                handler(message["data"])
            except Exception:
                log.exception("bus: message on %s failed", message["channel"])

    # ------------------------------------------------------------------ ownership

    async def claim(self, table_id: str) -> bool:
        """Take a table's ownership key if nobody holds it, and start reading its commands."""
        if not await self.control.set(owner_key(table_id), self.node, nx=True, px=self._ms):
            return False
        self.owned.add(table_id)
        self._claimed[table_id] = asyncio.get_running_loop().time()
        await self.subscribe(in_channel(table_id), lambda data: self._command(table_id, data))
        return True

    async def release(self, table_id: str) -> None:
        """Give up a table's key (if still ours) and stop reading its commands."""
        self._forget(table_id)
        await self.unsubscribe(in_channel(table_id))
        await self.control.eval(_RELEASE, 1, owner_key(table_id), self.node)

    async def take_over(self, table_id: str) -> bool:
        """Claim and restore a live stored table nobody owns; True when it now runs here."""
        lock = self._claiming.setdefault(table_id, asyncio.Lock())
        async with lock:
            if table_id in self.lobby.tables:
                return True
            row = await self.lobby.store.get(table_id)
            if row is None or row.status not in LIVE:
                return False
            if not await self.claim(table_id):
                return False
            try:
                await self.lobby.adopt(row)
            except Exception:
                # Its record does not replay: set it aside for every node, so nobody retries it.
                log.exception("bus: restoring table %s failed; it is marked %s", table_id, BROKEN)
                await mark_broken(self.lobby.store, table_id)
                await self.release(table_id)
                return False
        self._claiming.pop(table_id, None)
        log.info("node %s took over table %s", self.node, table_id)
        await self._catch_up_renames(table_id)
        remote = self.remotes.pop(table_id, None)
        if remote is not None:
            for link in list(remote.links.values()):
                link.rejoin(None)
        return True

    async def adopt_orphans(self, limit: int = 16) -> int:
        """Take over live tables in the database whose owner key is gone (at most ``limit``); how many."""
        ids = [i for i in await self.lobby.store.live_ids() if i not in self.lobby.tables]
        if not ids:
            return 0
        owners = await self.control.mget([owner_key(i) for i in ids])
        taken = 0
        for table_id, owner in zip(ids, owners, strict=True):
            if taken >= limit:
                break
            if owner is None and await self.take_over(table_id):
                taken += 1
        return taken

    async def route(self, table_id: str) -> Table | RemoteTable | None:
        """Where a connection to ``table_id`` goes: the local table, a remote one, or None (no live table)."""
        table = self.lobby.tables.get(table_id)
        if table is not None:
            return table
        remote = self.remotes.get(table_id)
        if remote is not None:
            return remote
        owner = await self.control.get(owner_key(table_id))
        if owner is None:
            if await self.take_over(table_id):
                return self.lobby.tables[table_id]
            owner = await self.control.get(owner_key(table_id))
            if owner is None:
                return None
        if owner == self.node:
            return self.lobby.tables.get(table_id)
        # Within the lease of a dead owner its key outlives it: a table that finished (or never
        # was) has no owner to answer, so the connection is told at once rather than left waiting.
        row = await self.lobby.store.get(table_id)
        if row is None or row.status not in LIVE:
            return None
        remote = self.remotes.get(table_id)
        if remote is None:
            remote = self.remotes[table_id] = RemoteTable(self, table_id)
        return remote

    async def _every(self, step: Any) -> None:
        # Renewing runs in a loop of its own, so that a long take-over never delays a lease.
        beats = 0
        while True:
            await asyncio.sleep(self.lease / 3)
            beats += 1
            try:
                await step(beats)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("bus: heartbeat failed")

    async def beat(self, scan: bool = False) -> None:
        """Renew the leases, follow moved tables and (with ``scan``) adopt orphans, in turn."""
        await self.renew()
        await self.watch(scan)

    async def renew(self) -> None:
        """Renew the node's and its tables' leases; release finished tables, drop lost ones."""
        await self.control.set(f"{PREFIX}:node:{self.node}", "1", px=self._ms)
        now = asyncio.get_running_loop().time()
        for table_id in list(self.owned):
            if table_id in self.lobby.tables:
                self._running.add(table_id)
            elif table_id in self._running or now - self._claimed.get(table_id, now) > 10 * self.lease:
                await self.release(table_id)  # finished and closed (or never started)
        keys = [owner_key(t) for t in self.owned]
        if keys:
            lost = await self.control.eval(_RENEW, len(keys), *keys, self.node, self._ms)
            for key in lost:
                self._drop(str(key).rsplit(":", 1)[1])

    async def watch(self, scan: bool = False) -> None:
        """Join moved tables again at their new owner, take over ownerless ones, adopt orphans."""
        for table_id, remote in list(self.remotes.items()):
            if not remote.links:
                del self.remotes[table_id]
                continue
            owner = _text(await self.control.get(owner_key(table_id)))
            if owner is None:
                await self.take_over(table_id)
            elif owner != self.node:
                for link in list(remote.links.values()):
                    if link.owner != owner and link.local is None:
                        link.rejoin(owner)
        if scan:
            await self.adopt_orphans()

    def _drop(self, table_id: str) -> None:
        """Another node holds the table now: stop it here; local connections are closed (they reconnect)."""
        log.warning("node %s lost table %s", self.node, table_id)
        self._forget(table_id)
        self._tasks.append(asyncio.get_running_loop().create_task(self.unsubscribe(in_channel(table_id))))
        table = self.lobby.tables.pop(table_id, None)
        if table is None:
            return
        table.request_stop()
        relayed = {r.conn for r in self.relays.values() if r.table is table}
        for cid, relay in list(self.relays.items()):
            if relay.table is table:
                relay.task.cancel()
                del self.relays[cid]
        for conn in list(table.conns):
            if conn not in relayed:
                conn.close()

    def _forget(self, table_id: str) -> None:
        self.owned.discard(table_id)
        self._running.discard(table_id)
        self._claimed.pop(table_id, None)

    # ------------------------------------------------------------------ commands from other nodes

    def _command(self, table_id: str, data: str) -> None:
        table = self.lobby.tables.get(table_id)
        if table is None:
            return
        body = json.loads(data)
        op, conn_id = body["op"], body["conn"]
        if op == "join":
            old = self.relays.pop(conn_id, None)
            if old is not None:
                old.task.cancel()
                table.leave(old.conn)
            settings = self.lobby.settings
            address = str(body.get("address", ""))
            player, name, guest = body["player"], body["name"], body["guest"]
            conn = Conn(player, name, guest, settings.outbox, settings.strict, address)
            self.relays[conn_id] = _Relay(self, table, conn_id, conn)
            table.join(conn, body["msg"])
            return
        relay = self.relays.get(conn_id)
        if relay is None:
            return
        if op == "msg":
            table.receive(relay.conn, body["msg"])
        elif op == "leave":
            del self.relays[conn_id]
            table.leave(relay.conn)
            relay.conn.close()

    # ------------------------------------------------------------------ renames across nodes

    async def publish_rename(self, old: str, new: str, name: str) -> None:
        """Tell every other node that the player ``old`` is ``new`` (named ``name``) from now on;
        this node renames it in its own connections to remote tables."""
        self._rename_links(old, new, name)
        body = {"node": self.node, "old": old, "new": new, "name": name}
        await self.redis.publish(RENAME_CHANNEL, json.dumps(body))

    def _rename(self, data: str) -> None:
        body = json.loads(data)
        if body.get("node") == self.node:
            return
        old, new, name = str(body["old"]), str(body["new"]), str(body["name"])
        log.info("node %s: player %s is %s now", self.node, old, new)
        self._rename_links(old, new, name)
        self.renamed(old, new, name)

    async def _catch_up_renames(self, table_id: str) -> None:
        """A rename published while a table had no owner reached nobody: a table taken over
        renames the guests among its players that are accounts by now (or its account players
        whose seats still show a guest's name)."""
        table = self.lobby.tables.get(table_id)
        if table is None:
            return
        try:
            seats, owner = await table.call(lambda: ([(s.player, s.name) for s in table.seats], table.owner))
            players = sorted({p for p, _ in seats if p is not None} | {owner})
            found = await identities(self.lobby.store, players)
        except Exception:
            log.exception("bus: table %s: reading its players' accounts failed", table_id)
            return
        for old, (new, name) in found.items():
            if old != new or any(p == old and n != name for p, n in seats):
                table.rename(old, new, name)

    def _rename_links(self, old: str, new: str, name: str) -> None:
        # A connection here to a table elsewhere joins again (when the table moves) as ``new``.
        for remote in self.remotes.values():
            for conn in remote.links:
                if conn.player == old:
                    conn.player, conn.name = new, name

    # ------------------------------------------------------------------ lobby across nodes

    async def open_tables(self) -> list[JSON]:
        """The open live tables of all nodes: this node's from their actors, others' from the database."""
        out = []
        rows = await self.lobby.store.live()
        remote = [r for r in rows if r.id not in self.lobby.tables and r.options.get("open", True)]
        seats = await self.lobby.store.latest([r.id for r in remote], "seats")
        for t in self.lobby.listed():
            out.append(await t.call(t.table_info))
        out.extend(stored_info(r, seats.get(r.id)) for r in remote)
        return out

    async def stored(self, table_id: str) -> tuple[StoredTable, JSON] | None:
        """A live table owned by another node, from the database, and its info; None if there is none."""
        row = await self.lobby.store.get(table_id)
        if row is None or row.status not in LIVE:
            return None
        seats = await self.lobby.store.latest([table_id], "seats")
        return row, stored_info(row, seats.get(table_id))


def stored_info(row: StoredTable, seats_event: JSON | None) -> JSON:
    """A table's lobby info as the database knows it (connections are known to its owner only)."""
    options = TableOptions.from_json(row.options)
    n = len(seats_event["seats"]) if seats_event else len(_empty_seats(options))
    seats = seats_event["seats"] if seats_event else _empty_seats(options)
    return {
        "id": row.id,
        "options": options.public(),
        "status": row.status,
        "owner": row.owner,
        "seats": [{**seats[i], "connected": False, "standin": False} for i in range(n)],
        "spectators": 0,
    }


def _empty_seats(options: TableOptions) -> list[JSON]:
    from pagoda.server.games import GAMES

    return [{"player": None, "name": None, "bot": None} for _ in range(GAMES[options.game].seats(options))]
