"""The lobby: the live tables, their creation, and their restoration at start-up."""

import logging
import secrets
from collections.abc import Awaitable, Callable
from typing import Any

from pagoda.core import PagodaError
from pagoda.server.games import GAMES, TableOptions
from pagoda.server.store import BROKEN, SqlStore, StoredTable, mark_broken, record_actions
from pagoda.server.table import Settings, Table

log = logging.getLogger("pagoda.server")

MAX_TURN_TIMER = 3600.0
MAX_SEED = 2**62


class Lobby:
    """Owns every live table's actor; tables are looked up by id."""

    def __init__(self, store: SqlStore, settings: Settings, max_tables: int = 1000) -> None:
        self.store = store
        self.settings = settings
        self.max_tables = max_tables
        self.tables: dict[str, Table] = {}
        # Set by pagoda.server.bus: a new table's id is claimed for this process before it is stored.
        self.claim: Callable[[str], Awaitable[bool]] | None = None

    def options(self, data: dict[str, Any]) -> TableOptions:
        """Checked table options from a creation request; :class:`PagodaError` says what is wrong."""
        game = data.get("game")
        if game not in GAMES:
            raise PagodaError(f"game must be one of {', '.join(GAMES)}")
        adapter = GAMES[game]
        preset = data.get("preset") or adapter.presets()[0]
        target, rounds = data.get("target"), data.get("rounds")
        for name, value in (("target", target), ("rounds", rounds)):
            if value is not None and (not isinstance(value, int) or isinstance(value, bool) or value < 1):
                raise PagodaError(f"{name} must be a positive integer")
        timer = data.get("turn_timer", 0)
        if not isinstance(timer, int | float) or isinstance(timer, bool) or not 0 <= timer <= MAX_TURN_TIMER:
            raise PagodaError(f"turn_timer must be 0 (none) to {MAX_TURN_TIMER:g} seconds")
        is_open = data.get("open", True)
        bot = data.get("bot", "heuristic")
        if not isinstance(is_open, bool) or not isinstance(bot, str) or not isinstance(preset, str):
            raise PagodaError("open is a boolean; preset and bot are names")
        seed = data.get("seed")
        if seed is None:
            seed = secrets.randbits(62)
        elif not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < MAX_SEED:
            raise PagodaError("seed must be an integer from 0 to 2**62 - 1 (or left out for a random deal)")
        options = TableOptions(game, preset, target, rounds, float(timer), is_open, bot, seed)
        adapter.check(options)
        return options

    async def create(self, options: TableOptions, owner: str) -> Table:
        """A new table in the lobby, stored and with its actor running."""
        if len(self.tables) >= self.max_tables:
            raise PagodaError("the server has too many open tables; try again later")
        table_id = secrets.token_urlsafe(9)
        if self.claim is not None and not await self.claim(table_id):
            raise PagodaError("the new table could not be claimed for this server; try again")
        invite = secrets.token_urlsafe(18)
        await self.store.create(table_id, options.game, options.to_json(), owner, invite)
        table = Table(table_id, options, owner, invite, self.store, self.settings, self._closed)
        self.tables[table_id] = table
        table.start()
        return table

    async def restore(self) -> int:
        """Restart the actor of every live stored table; returns how many run.

        A table that fails to restore (its record does not replay) is logged and marked broken,
        never retried, and the others are restored all the same: one bad table stops nothing.
        """
        for row in await self.store.live():
            try:
                await self.adopt(row)
            except Exception:
                log.exception("table %s could not be restored; it is marked %s", row.id, BROKEN)
                await mark_broken(self.store, row.id)
        return len(self.tables)

    async def adopt(self, row: StoredTable) -> Table:
        """Restart one stored table's actor from its event log and record."""
        options = TableOptions.from_json(row.options)
        table = Table(row.id, options, row.owner, row.invite, self.store, self.settings, self._closed)
        table.restore(await self.store.events(row.id), record_actions(row.record))
        self.tables[row.id] = table
        table.start()
        return table

    def _closed(self, table: Table) -> None:
        self.tables.pop(table.id, None)
        table.conns.clear()
        table.request_stop()

    async def close(self) -> None:
        """Stop every actor."""
        for table in list(self.tables.values()):
            await table.stop()
        self.tables.clear()
