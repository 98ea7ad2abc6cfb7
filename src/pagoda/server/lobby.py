"""The lobby: the live tables, their creation, their expiry, and their restoration at start-up."""

import asyncio
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from functools import partial
from typing import Any

import msgspec

from pagoda.bots import available
from pagoda.core import PagodaError
from pagoda.server.api import CreateTable
from pagoda.server.games import GAMES, TableOptions, bot_name
from pagoda.server.pool import BotPool
from pagoda.server.results import settle
from pagoda.server.store import BROKEN, SqlStore, StoredTable, mark_broken, record_actions
from pagoda.server.table import Settings, Table

log = logging.getLogger("pagoda.server")

MAX_TURN_TIMER = 3600.0
MAX_SEED = 2**62
MAX_TARGET = 100_000
MAX_ROUNDS = 1000
#: The stored status of a casual match all of whose players left and never came back.
ABANDONED = "abandoned"
#: The fields of a table creation request.
FIELDS = tuple(f.encode_name for f in msgspec.structs.fields(CreateTable))


class TooManyTables(PagodaError):
    """A table creation refused by a limit; ``code`` says whose: ``too_many_tables`` the server's,
    ``tables_per_owner`` the owner's, ``tables_per_address`` the address's (those two with the
    ``limit`` in ``params``, for the client to say in the player's language)."""

    def __init__(self, code: str, message: str, limit: int | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.params = {} if limit is None else {"limit": limit}


class Lobby:
    """Owns every live table's actor; tables are looked up by id.

    ``clock`` (wall seconds) decides when a lobby table left empty expires; tests pass their own.
    """

    def __init__(
        self,
        store: SqlStore,
        settings: Settings,
        max_tables: int = 1000,
        clock: Callable[[], float] = time.time,
        pool: BotPool | None = None,
    ) -> None:
        self.store = store
        self.settings = settings
        self.max_tables = max_tables
        self.clock = clock
        #: Where the tables' bots decide (``Settings.bot_workers`` processes unless given).
        self.pool = pool or BotPool(settings.bot_workers, settings.bot_modules)
        self.tables: dict[str, Table] = {}
        self.addresses: dict[str, str] = {}  # table id -> the address that created it
        self.seen: dict[str, float] = {}  # lobby table id -> when it last had a connection
        # Set by pagoda.server.bus: a new table's id is claimed for this process before it is stored.
        self.claim: Callable[[str], Awaitable[bool]] | None = None
        self._settling: set[asyncio.Task[bool]] = set()

    def options(self, data: dict[str, Any]) -> TableOptions:
        """Checked table options from a creation request; :class:`PagodaError` says what is wrong."""
        unknown = sorted(str(k) for k in data if k not in FIELDS)
        if unknown:
            raise PagodaError(f"unknown field {unknown[0]!r}; the fields are {', '.join(FIELDS)}")
        game = data.get("game")
        if not isinstance(game, str) or game not in GAMES:
            raise PagodaError(f"game must be one of {', '.join(GAMES)}")
        adapter = GAMES[game]
        preset = data.get("preset") or adapter.default_preset
        target, rounds = data.get("target"), data.get("rounds")
        for name, value, most in (("target", target, MAX_TARGET), ("rounds", rounds, MAX_ROUNDS)):
            if value is not None and (
                not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= most
            ):
                raise PagodaError(f"{name} must be an integer from 1 to {most}")
        timer = data.get("turn_timer", 0)
        if not isinstance(timer, int | float) or isinstance(timer, bool) or not 0 <= timer <= MAX_TURN_TIMER:
            raise PagodaError(f"turn_timer must be 0 (none) to {MAX_TURN_TIMER:g} seconds")
        is_open = data.get("open", True)
        bot = data.get("bot", adapter.default_bot)
        if not isinstance(is_open, bool) or not isinstance(bot, str) or not isinstance(preset, str):
            raise PagodaError("open is a boolean; preset and bot are names")
        if bot_name(game, bot) != bot:
            names = ", ".join(s.name for s in available(game))
            raise PagodaError(f"no {game} bot {bot!r}; the bots are {names}")
        seed = data.get("seed")
        if seed is None:
            seed = secrets.randbits(62)
        elif not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < MAX_SEED:
            raise PagodaError("seed must be an integer from 0 to 2**62 - 1 (or left out for a random deal)")
        rated = data.get("rated", False)
        if not isinstance(rated, bool):
            raise PagodaError("rated is a boolean: true for a rated match, false for a casual one")
        if rated and data.get("seed") is not None:
            raise PagodaError(
                "a rated table takes no seed: whoever chose it would know every deal; leave seed out"
            )
        options = TableOptions(game, preset, target, rounds, float(timer), is_open, bot, seed, rated)
        adapter.check(options)
        return options

    async def create(self, options: TableOptions, owner: str, address: str = "") -> Table:
        """A new table in the lobby, stored and with its actor running; :class:`TooManyTables`
        when the server, the owner or the address (when known) has as many live tables as it may."""
        if len(self.tables) >= self.max_tables:
            raise TooManyTables("too_many_tables", "the server has too many open tables; try again later")
        limit = self.settings.tables_per_owner
        if sum(t.owner == owner for t in self.tables.values()) >= limit:
            raise TooManyTables(
                "tables_per_owner", f"you have {limit} live tables: finish or leave one first", limit
            )
        limit = self.settings.tables_per_address
        if address and sum(a == address for a in self.addresses.values()) >= limit:
            why = f"your address has {limit} live tables: finish or leave one first"
            raise TooManyTables("tables_per_address", why, limit)
        table_id = secrets.token_urlsafe(9)
        if self.claim is not None and not await self.claim(table_id):
            raise PagodaError("the new table could not be claimed for this server; try again")
        invite = secrets.token_urlsafe(18)
        await self.store.create(table_id, options.game, options.to_json(), owner, invite)
        table = Table(table_id, options, owner, invite, self.store, self.settings, self._closed, self.pool)
        table.on_over = self._over
        self.tables[table_id] = table
        if address:
            self.addresses[table_id] = address
        self.seen[table_id] = self.clock()
        table.start()
        return table

    async def restore(self) -> int:
        """Restart the actor of every live stored table; returns how many run.

        A lobby table untouched for longer than the lobby limit (``Settings.lobby_expiry``) is
        expired instead. A table that fails to restore (its record does not replay) is logged
        and marked broken, never retried, and the others are restored all the same: one bad
        table stops nothing.
        """
        now = self.clock()
        for row in await self.store.live():
            if row.status == "lobby" and now - row.updated >= self.settings.lobby_expiry:
                await self.store.append(row.id, [], "expired", None)
                continue
            try:
                await self.adopt(row)
            except Exception:
                log.exception("table %s could not be restored; it is marked %s", row.id, BROKEN)
                await mark_broken(self.store, row.id)
        return len(self.tables)

    async def expire(self) -> list[str]:
        """End the tables nobody is coming back to; returns the ids of those ended.

        A lobby table with no connection for ``Settings.lobby_expiry`` seconds is stored as
        ``expired``. A casual match none of whose players has been connected for as long (stand-in
        bots play for them after the grace period; a match of bots alone, while nobody watches) is
        stored as ``abandoned``: its actor stops and it leaves the lobby's list. A rated match is
        played out by its stand-ins instead, so that its result (and the leavers' penalty) is
        written.
        """
        now = self.clock()
        gone = []
        for table in list(self.tables.values()):
            try:
                status, present = await asyncio.wait_for(table.call(partial(_attendance, table)), 5.0)
            except TimeoutError:  # a busy (or stopping) actor: asked again at the next sweep
                continue
            if status == "finished" or (status == "playing" and table.options.rated):
                self.seen.pop(table.id, None)  # (a finished table goes when its last viewer does)
                continue
            if present:
                self.seen[table.id] = now
                continue
            if now - self.seen.setdefault(table.id, now) < self.settings.lobby_expiry:
                continue
            self._forget(table.id)
            await table.stop()
            for conn in list(table.conns):  # joined while it was being stopped, or watching
                conn.close()
            await self.store.append(table.id, [], "expired" if status == "lobby" else ABANDONED, None)
            gone.append(table.id)
        return gone

    def listed(self) -> list[Table]:
        """The tables the lobby lists: open ones, waiting or being played."""
        return [t for t in self.tables.values() if t.options.open and t.status in ("lobby", "playing")]

    def _forget(self, table_id: str) -> None:
        self.tables.pop(table_id, None)
        self.addresses.pop(table_id, None)
        self.seen.pop(table_id, None)

    async def adopt(self, row: StoredTable) -> Table:
        """Restart one stored table's actor from its event log and record."""
        options = TableOptions.from_json(row.options)
        table = Table(
            row.id, options, row.owner, row.invite, self.store, self.settings, self._closed, self.pool
        )
        table.restore(await self.store.events(row.id), record_actions(row.record))
        table.on_over = self._over
        self.tables[row.id] = table
        self.seen[row.id] = row.updated or self.clock()
        table.start()
        return table

    def _over(self, table: Table) -> None:
        """A match ended: its result (and ratings) are written, by this process unless another
        one's sweep gets there first (:mod:`pagoda.server.results`)."""
        task = asyncio.get_running_loop().create_task(self._settle(table.id), name=f"settle-{table.id}")
        self._settling.add(task)
        task.add_done_callback(self._settling.discard)

    async def _settle(self, table_id: str) -> bool:
        try:
            return await settle(self.store, table_id)
        except Exception:
            log.exception("table %s: its result could not be written (the sweep tries again)", table_id)
            return False

    def rename(self, old: str, new: str, name: str) -> None:
        """The guest ``old`` is the account player ``new`` (named ``name``) at every live table here."""
        for table in list(self.tables.values()):
            table.rename(old, new, name)

    def _closed(self, table: Table) -> None:
        self._forget(table.id)
        table.conns.clear()
        table.request_stop()

    async def close(self) -> None:
        """Stop every actor (after the results being written)."""
        if self._settling:
            await asyncio.gather(*self._settling, return_exceptions=True)
        for table in list(self.tables.values()):
            await table.stop()
        self.tables.clear()
        self.pool.close()


def _attendance(table: Table) -> tuple[str, bool]:
    """The table's status, and whether anyone it waits for is there: at a match, one of its
    players (or, at a match of bots alone, anyone watching); elsewhere, any connection."""
    if table.status == "playing":
        humans = {i for i, s in enumerate(table.seats) if s.player is not None}
        if humans:
            return table.status, any(c.seat in humans for c in table.conns)
    return table.status, bool(table.conns)
