"""The Starlette application: the lobby's HTTP JSON endpoints, the play WebSocket, the client files.

Endpoints (docs/server.md has the details):

- ``GET /api/me``: who the caller is: a guest (a signed cookie, also returned as a token for
  clients without cookies) or an account (a session cookie); ``GET /api/games``: games, presets,
  bots; ``GET /api/protocol``: the schemas.
- ``POST /api/register``, ``/api/login``, ``/api/logout``, ``/api/password``: accounts
  (:mod:`pagoda.server.accounts`).
- ``GET /api/leaderboard/{game}``, ``GET /api/players/{name}``, ``GET /api/my/tables``: ratings,
  profiles and the caller's tables (:mod:`pagoda.server.results`).
- ``POST /api/tables``: create a table; ``GET /api/tables``: the open live tables;
  ``GET /api/tables/{id}``: one table; ``GET /api/history``: finished tables;
  ``GET /api/tables/{id}/record`` and ``/events``: a finished table's record and event log;
  ``GET /api/tables/{id}/replay``: a finished table's rounds as frames with every hand.
- ``WS /ws/{id}``: play and watch (docs/protocol.md).
"""

import asyncio
import contextlib
import json
import logging
import os
import re
import secrets
from collections import OrderedDict
from collections.abc import AsyncIterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar
from urllib.parse import urlsplit

import msgspec
from itsdangerous import BadSignature, URLSafeSerializer
from starlette.applications import Starlette
from starlette.requests import HTTPConnection, Request
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from pagoda.bots import available
from pagoda.core import PagodaError
from pagoda.server import api, limits, results
from pagoda.server.accounts import (
    SESSION_LIFE,
    Account,
    Accounts,
    Refusal,
    check_name,
    limit_key,
    token_hash,
)
from pagoda.server.games import GAMES, TableOptions
from pagoda.server.limits import Bucket, Limiter, Rate, SharedLimiter
from pagoda.server.lobby import Lobby, TooManyTables
from pagoda.server.protocol import ProtocolError, error, parse_client
from pagoda.server.replay import replay_json
from pagoda.server.store import SqlStore, StoredTable, default_url, record_actions
from pagoda.server.table import Conn, Settings, Table

if TYPE_CHECKING:
    from pagoda.server.bus import Cluster, RemoteTable

log = logging.getLogger("pagoda.server")

COOKIE = "pagoda_guest"
SESSION_COOKIE = "pagoda_session"
GUEST_HEADER = "x-pagoda-guest"
HELLO_TIMEOUT = 10.0
MAX_BODY = 4096
#: How many finished tables' replays are kept computed.
REPLAYS_KEPT = 64
#: The largest ``offset`` of ``/api/history``.
MAX_OFFSET = 1_000_000
#: What a table id looks like (the server makes them with ``secrets.token_urlsafe``).
TABLE_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")

log = logging.getLogger("pagoda.server")


@dataclass(frozen=True, slots=True)
class Config:
    """How to run the server: where the data is, which origins may connect, the tunables."""

    database_url: str | None = None
    data_dir: str = "pagoda-data"
    client_dir: str | None = None
    allowed_origins: tuple[str, ...] = ()
    settings: Settings = field(default_factory=Settings)
    redis_url: str | None = None
    lease: float = 5.0
    sqlite_synchronous: str = "full"
    #: argon2id's cost: passes and memory (KiB) per password hash.
    argon2_time_cost: int = 3
    argon2_memory_kib: int = 65536
    #: Login (and password change) attempts: per client address, and per account name.
    login_per_address: Rate = limits.LOGIN_PER_ADDRESS
    login_per_name: Rate = limits.LOGIN_PER_NAME
    #: Accounts one address may register.
    register_per_address: Rate = limits.REGISTER_PER_ADDRESS
    #: Seconds between sweeps for finished matches whose result is not written yet.
    settle_every: float = 30.0

    def url(self) -> str:
        """The database URL: the configured one, ``PAGODA_DATABASE_URL``, or SQLite in the data folder."""
        if self.database_url:
            return self.database_url
        env = os.environ.get("PAGODA_DATABASE_URL")
        if env:
            return env
        Path(self.data_dir).mkdir(parents=True, exist_ok=True)
        return default_url(str(Path(self.data_dir).resolve()))


class Server:
    """The running state the endpoints share: the lobby, the store and the signer."""

    def __init__(self, config: Config) -> None:
        self.config = config
        self.lobby: Lobby | None = None
        self.cluster: Cluster | None = None
        self._sweeper: asyncio.Task[None] | None = None
        self.limiter = Limiter()
        #: With Redis: the per-client limits every process shares (``limiter`` stands in if Redis fails).
        self.shared: SharedLimiter | None = None
        self.replays = Replays(self)
        self.signer = URLSafeSerializer(b"unset", salt="pagoda-guest")
        self.session_signer = URLSafeSerializer(b"unset", salt="pagoda-session")
        self.accounts: Accounts | None = None
        self._settler: asyncio.Task[None] | None = None

    @property
    def live(self) -> Lobby:
        if self.lobby is None:
            raise RuntimeError("the server is not started")
        return self.lobby

    async def start(self) -> None:
        store = await SqlStore.open(self.config.url(), self.config.sqlite_synchronous)
        secret = os.environ.get("PAGODA_SECRET", "").encode() or await store.secret()
        settings = replace(self.config.settings, secret=secret)
        self.signer = URLSafeSerializer(secret, salt="pagoda-guest")
        self.session_signer = URLSafeSerializer(secret, salt="pagoda-session")
        self.accounts = Accounts(store, self.config.argon2_time_cost, self.config.argon2_memory_kib)
        self.lobby = Lobby(store, settings)
        await self.lobby.pool.start()  # the bots' workers, before any table is restored
        redis_url = self.config.redis_url or os.environ.get("PAGODA_REDIS_URL")
        if redis_url:
            from pagoda.server.bus import Cluster  # several processes: docs/server.md

            self.cluster = Cluster(redis_url, self.lobby, lease=self.config.lease)
            await self.cluster.start()
            self.shared = SharedLimiter(self.cluster.control, self.limiter)
        else:
            await self.lobby.restore()
        self._sweeper = asyncio.get_running_loop().create_task(self._sweep(), name="lobby-expiry")
        self._settler = asyncio.get_running_loop().create_task(self._settle(), name="results")

    async def _settle(self) -> None:
        """Write the results of finished matches that have none (an owner died as its match
        ended): now, then every ``Config.settle_every`` seconds."""
        while True:
            try:
                await results.sweep(self.live.store)
            except Exception:
                log.exception("writing pending results failed")
            await asyncio.sleep(self.config.settle_every)

    async def _sweep(self) -> None:
        """Expire idle lobby tables, every tenth of the lobby limit (at most once a minute)."""
        lobby = self.live
        every = min(60.0, lobby.settings.lobby_expiry / 10)
        while True:
            await asyncio.sleep(every)
            try:
                await lobby.expire()
            except Exception:
                log.exception("expiring lobby tables failed")

    async def stop(self) -> None:
        for task in (self._sweeper, self._settler):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        self._sweeper = self._settler = None
        self.shared = None
        if self.cluster is not None:
            await self.cluster.stop()
            self.cluster = None
        if self.lobby is not None:
            await self.lobby.close()
            await self.lobby.store.close()
            self.lobby = None

    async def allowed(self, kind: str, clients: list[tuple[str, Rate]]) -> bool:
        """Whether every client has a token for ``kind``: in the buckets all processes share when
        the server runs with Redis, in this process's own otherwise."""
        if self.shared is not None:
            return await self.shared.allow(kind, clients)
        return self.limiter.allow(kind, clients)

    async def rename(self, old: str, new: str, name: str) -> None:
        """The guest ``old`` is the account player ``new`` named ``name``: at once at this process's
        live tables, and (with Redis) at every other process's."""
        self.live.rename(old, new, name)
        if self.cluster is not None:
            try:
                await self.cluster.publish_rename(old, new, name)
            except Exception:
                # The account is made: its other tables keep the guest's id until they end, and
                # their results still go to the account (results.settle reads the aliases).
                log.exception("telling the other processes that %s is %s failed", old, new)

    # ------------------------------------------------------------------ identity

    def guest_of(self, token: str | None) -> str | None:
        """The player id a guest token was signed for, or None."""
        if not token:
            return None
        try:
            value = self.signer.loads(token)
        except BadSignature:
            return None
        return value if isinstance(value, str) else None

    @property
    def users(self) -> Accounts:
        if self.accounts is None:
            raise RuntimeError("the server is not started")
        return self.accounts

    def session_of(self, conn: HTTPConnection) -> str | None:
        """The session token of a request's session cookie (its signature checked), or None."""
        cookie = conn.cookies.get(SESSION_COOKIE)
        if not cookie:
            return None
        try:
            value = self.session_signer.loads(cookie)
        except BadSignature:
            return None
        return value if isinstance(value, str) else None

    async def guest(self, token: str | None) -> str | None:
        """The player id of a guest token, unless that id now belongs to an account."""
        player = self.guest_of(token)
        if player is None or await self.users.claimed(player):
            return None
        return player

    async def who(self, conn: HTTPConnection) -> "Who":
        """Who sent a request: the account of its session, else the guest of its token (header,
        then cookie), else a new guest."""
        session = self.session_of(conn)
        if session is not None:
            account = await self.users.session(session)
            if account is not None:
                return Who(account.player, None, account, session)
        for token in (conn.headers.get(GUEST_HEADER), conn.cookies.get(COOKIE)):
            player = await self.guest(token)
            if player is not None and token is not None:
                return Who(player, token, None, None)
        player = secrets.token_urlsafe(12)
        return Who(player, str(self.signer.dumps(player)), None, None)

    async def identify(self, conn: HTTPConnection) -> tuple[str, str | None]:
        """The player id and guest token (None for an account) of a request."""
        who = await self.who(conn)
        return who.player, who.guest

    def origin_ok(self, conn: HTTPConnection) -> bool:
        """Browsers send Origin: it must be this host or an allowed origin. Other clients send none."""
        origin = conn.headers.get("origin")
        if origin is None:
            return True
        if origin in self.config.allowed_origins:
            return True
        return urlsplit(origin).netloc == conn.headers.get("host", "")


@dataclass(frozen=True, slots=True)
class Who:
    """Who a request comes from: a player id and either a guest token or an account (and its session)."""

    player: str
    guest: str | None
    account: Account | None
    session: str | None

    def me(self) -> api.Me:
        """The answer of ``GET /api/me``."""
        account = None if self.account is None else msgspec.convert(self.account.public(), api.AccountInfo)
        return api.Me(self.player, self.guest, account)


class Replays:
    """Finished tables' replays as JSON, each computed once, in a worker thread, and kept (the
    latest ``keep``); requests for one being computed wait for that computation."""

    def __init__(self, server: Server, keep: int = REPLAYS_KEPT) -> None:
        self.server = server
        self.keep = keep
        self.done: OrderedDict[str, bytes] = OrderedDict()
        self.pending: dict[str, asyncio.Future[bytes]] = {}
        self.computed = 0  # how many were computed (for the tests)

    async def get(self, row: StoredTable) -> bytes:
        """The replay of the finished table ``row``."""
        if row.id in self.done:
            self.done.move_to_end(row.id)
            return self.done[row.id]
        if row.id not in self.pending:
            self.pending[row.id] = asyncio.ensure_future(self._compute(row))
        fut = self.pending[row.id]
        try:
            return await asyncio.shield(fut)
        finally:
            if fut.done():
                self.pending.pop(row.id, None)

    async def _compute(self, row: StoredTable) -> bytes:
        events = await self.server.live.store.events(row.id)

        def build() -> bytes:
            options = TableOptions.from_json(row.options)
            data = replay_json(options, record_actions(row.record), events)
            return json.dumps(data, separators=(",", ":")).encode()

        body = await asyncio.to_thread(build)
        self.computed += 1
        self.done[row.id] = body
        while len(self.done) > self.keep:
            self.done.popitem(last=False)
        return body


def _json(data: Any, status: int = 200, token: str | None = None) -> Response:
    return _guest_cookie(JSONResponse(data, status_code=status), token)


def _guest_cookie(response: Response, token: str | None) -> Response:
    if token is not None:
        response.set_cookie(COOKIE, token, max_age=365 * 86400, httponly=True, samesite="lax")
    return response


A = TypeVar("A", bound=msgspec.Struct)
B = TypeVar("B", bound=api.Body)


def _answer(model: type[A], data: A | Any, status: int = 200, token: str | None = None) -> Response:
    """An endpoint's answer, sent through its model (:mod:`pagoda.server.api`): ``data`` is one,
    or is read into one, so that an answer the model does not describe fails here, loudly."""
    value = data if isinstance(data, model) else msgspec.convert(data, model)
    response = Response(msgspec.json.encode(value), status_code=status, media_type="application/json")
    return _guest_cookie(response, token)


def _fail(
    status: int, code: str, message: str, params: dict[str, Any] | None = None, headers: Any = None
) -> Response:
    """A refusal (:class:`pagoda.server.api.Failure`): its code, its reason, its parameters."""
    body: dict[str, Any] = {"error": code, "message": message}
    if params:
        body["params"] = params
    failure = msgspec.json.encode(msgspec.convert(body, api.Failure))
    return Response(failure, status_code=status, headers=headers, media_type="application/json")


def _refused(e: Refusal) -> Response:
    return _fail(e.status, e.code, e.message, e.params)


def _logged_in(response: Response, server: "Server", token: str) -> Response:
    response.set_cookie(
        SESSION_COOKIE,
        str(server.session_signer.dumps(token)),
        max_age=int(SESSION_LIFE),
        httponly=True,
        samesite="lax",
    )
    return response


def create_app(config: Config | None = None) -> Starlette:
    """The application; the lobby starts (migrations, restore) with the app's lifespan."""
    config = config or Config()
    server = Server(config)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await server.start()
        try:
            yield
        finally:
            await server.stop()

    async def me(request: Request) -> Response:
        who = await server.who(request)
        return _answer(api.Me, who.me(), token=who.guest)

    async def games(request: Request) -> Response:
        out = {}
        for name, game in GAMES.items():
            bots = [{"name": s.name, "level": s.level, "description": s.description} for s in available(name)]
            out[name] = {"presets": game.presets(), "bots": bots, "default_bot": game.default_bot}
        return _answer(api.GamesInfo, out)

    async def protocol(request: Request) -> Response:
        return _json(api.schemas())

    async def create_table(request: Request) -> Response:
        if not server.origin_ok(request):
            return _fail(403, "bad_origin", "requests from this origin are not allowed")
        body = await _read_body(request, MAX_BODY, server.live.settings.body_timeout)
        if isinstance(body, Response):
            return body
        try:
            data = json.loads(body or b"{}")
        except ValueError:
            return _fail(400, "bad_json", "the body is not JSON")
        except RecursionError:
            return _fail(400, "bad_json", "the body is nested too deep")
        if not isinstance(data, dict):
            return _fail(400, "bad_request", "the body is a JSON object")
        player, token = await server.identify(request)
        address = request.client.host if request.client is not None else ""
        try:
            options = server.live.options(data)
            table = await server.live.create(options, owner=player, address=address)
        except TooManyTables as e:
            return _fail(429, e.code, str(e), e.params)
        except PagodaError as e:
            return _fail(400, "bad_options", str(e))
        info = await table.call(table.table_info)
        return _answer(
            api.Created,
            {"id": table.id, "invite": table.invite, "ws": f"/ws/{table.id}", "guest": token, "table": info},
            status=201,
            token=token,
        )

    async def list_tables(request: Request) -> Response:
        if server.cluster is not None:
            return _json({"tables": await server.cluster.open_tables()})
        out = [await t.call(t.table_info) for t in server.live.listed()]
        return _json({"tables": out})

    async def _visible(request: Request, table: Table) -> bool:
        if table.options.open:
            return True
        player, _ = await server.identify(request)
        invite = request.query_params.get("invite", "")
        return player == table.owner or (invite.isascii() and secrets.compare_digest(invite, table.invite))

    async def get_table(request: Request) -> Response:
        if not TABLE_ID.fullmatch(request.path_params["id"]):
            return _fail(404, "no_table", "no such table")
        table = server.live.tables.get(request.path_params["id"])
        if table is not None:
            if not await _visible(request, table):
                return _fail(403, "invite_required", "this table is invite-only")
            return _json(await table.call(table.table_info))
        found = None if server.cluster is None else await server.cluster.stored(request.path_params["id"])
        if found is not None:
            live, info = found
            player, _ = await server.identify(request)
            invite = request.query_params.get("invite", "")
            if not (live.options.get("open", True) or player == live.owner or invite == live.invite):
                return _fail(403, "invite_required", "this table is invite-only")
            return _json(info)
        row = await server.live.store.get(request.path_params["id"])
        if row is None or row.status != "finished":
            return _fail(404, "no_table", "no such table")
        if not await may_see(request, row):
            return _fail(403, "invite_required", "this table is invite-only")
        options = TableOptions.from_json(row.options)
        return _json({"id": row.id, "status": row.status, "options": options.public(), "owner": row.owner})

    async def finished_row(request: Request) -> Any:
        if not TABLE_ID.fullmatch(request.path_params["id"]):
            return _fail(404, "no_table", "no such table")
        row = await server.live.store.get(request.path_params["id"])
        if row is None or row.status == "expired":
            return _fail(404, "no_table", "no such table")
        if row.status != "finished":
            return _fail(409, "not_finished", "the record is served once the match is over")
        if not await may_see(request, row):
            return _fail(403, "invite_required", "this table is invite-only")
        return row

    async def may_see(request: Request, row: StoredTable) -> bool:
        """An invite-only table stays private once finished: to its owner, its players and
        whoever has its invite."""
        options = TableOptions.from_json(row.options)
        if options.open:
            return True
        invite = request.query_params.get("invite", "")
        if invite.isascii() and invite and secrets.compare_digest(invite, row.invite):
            return True
        ids = await my_ids(await server.who(request))
        if row.owner in ids:
            return True
        seats = (await server.live.store.latest([row.id], "seats")).get(row.id)
        return seats is not None and any(s.get("player") in ids for s in seats["seats"])

    async def record(request: Request) -> Response:
        row = await finished_row(request)
        if isinstance(row, Response):
            return row
        return PlainTextResponse(row.record or "")

    async def table_events(request: Request) -> Response:
        row = await finished_row(request)
        if isinstance(row, Response):
            return row
        return _json({"events": await server.live.store.events(row.id)})

    async def replay(request: Request) -> Response:
        row = await finished_row(request)
        if isinstance(row, Response):
            return row
        try:
            body = await server.replays.get(row)
        except PagodaError as e:
            log.error("table %s: its record does not replay: %s", row.id, e)
            return _fail(409, "broken", "this table's record is damaged and cannot be replayed")
        return Response(body, media_type="application/json")

    async def history(request: Request) -> Response:
        try:
            limit = min(100, max(1, int(request.query_params.get("limit", "50"))))
            offset = max(0, int(request.query_params.get("offset", "0")))
        except ValueError:
            return _fail(400, "bad_request", "limit and offset are integers")
        if offset > MAX_OFFSET:
            return _fail(400, "bad_request", f"offset may be at most {MAX_OFFSET}")
        rows = await server.live.store.finished(limit, offset, public=True)
        found = await results.matches(server.live.store, [row.id for row in rows])
        out = []
        for row in rows:
            options = TableOptions.from_json(row.options)
            out.append(
                {
                    "id": row.id,
                    "options": options.public(),
                    "created": row.created,
                    "result": found.get(row.id),
                }
            )
        return _answer(api.History, {"tables": out})

    # ------------------------------------------------------------------ accounts

    async def my_ids(who: Who) -> list[str]:
        return [who.player] if who.account is None else await server.users.ids(who.account)

    async def body_of(request: Request, model: type[B]) -> B | Response:
        """A POST's body read into its model, or the 4xx that says what is wrong with it."""
        if not server.origin_ok(request):
            return _fail(403, "bad_origin", "requests from this origin are not allowed")
        body = await _read_body(request, MAX_BODY, server.live.settings.body_timeout)
        if isinstance(body, Response):
            return body
        try:
            return api.parse_body(body, model)
        except api.BadBody as e:
            return _fail(400, e.code, e.message)

    def address_of(request: Request) -> str:
        return request.client.host if request.client is not None else ""

    def too_many(what: str, rate: Rate) -> Response:
        wait = max(1, round(1 / rate.per_second))
        return _fail(
            429,
            "too_many_attempts",
            f"too many {what} attempts; try again in {wait} seconds",
            {"retry_after": wait},
            {"Retry-After": str(wait)},
        )

    async def register(request: Request) -> Response:
        data = await body_of(request, api.Register)
        if isinstance(data, Response):
            return data
        who = await server.who(request)
        if who.account is not None:
            return _fail(409, "logged_in", "you are logged in: log out to register another account")
        try:
            check_name(data.name)
        except Refusal as e:
            return _refused(e)
        rate = config.register_per_address
        if not await server.allowed("register", [(f"ip:{address_of(request)}", rate)]):
            return too_many("registration", rate)
        try:
            account = await server.users.register(data.name, data.password, who.player)
        except Refusal as e:
            return _refused(e)
        # The guest plays on as the account, under its name, at every live table.
        await server.rename(who.player, account.player, account.name)
        token = await server.users.open_session(account)
        me = Who(account.player, None, account, token).me()
        return _logged_in(_answer(api.Me, me, status=201), server, token)

    async def login(request: Request) -> Response:
        data = await body_of(request, api.Login)
        if isinstance(data, Response):
            return data
        name, password = data.name, data.password
        key = limit_key(name)
        limits = [
            (f"ip:{address_of(request)}", config.login_per_address),
            (f"name:{key}", config.login_per_name),
        ]
        if not await server.allowed("login", limits):
            return too_many("login", config.login_per_name)
        try:
            account = await server.users.login(name, password)
        except Refusal as e:
            return _refused(e)
        who = await server.who(request)
        if who.account is None and who.guest is not None and who.player != account.player:
            # The guest's identity passes to the account: its tables and (where none) ratings.
            if await server.users.merge(who.player, account):
                await server.rename(who.player, account.player, account.name)
        elif who.session is not None:
            await server.users.close_session(who.session)
        token = await server.users.open_session(account)
        return _logged_in(_answer(api.Me, Who(account.player, None, account, token).me()), server, token)

    async def logout(request: Request) -> Response:
        data = await body_of(request, api.Logout)
        if isinstance(data, Response):
            return data
        session = server.session_of(request)
        if session is not None:
            await server.users.close_session(session)
        response = _answer(api.LoggedOut, api.LoggedOut(None))
        response.delete_cookie(SESSION_COOKIE)
        return response

    async def password(request: Request) -> Response:
        data = await body_of(request, api.PasswordChange)
        if isinstance(data, Response):
            return data
        who = await server.who(request)
        if who.account is None or who.session is None:
            return _fail(401, "login_required", "log in to change your password")
        limits = [
            (f"ip:{address_of(request)}", config.login_per_address),
            (f"player:{who.player}", config.login_per_name),
        ]
        if not await server.allowed("login", limits):
            return too_many("password", config.login_per_name)
        try:
            await server.users.change_password(who.account, data.old, data.new, token_hash(who.session))
        except Refusal as e:
            return _refused(e)
        return _answer(api.Me, who.me())

    def page(request: Request, most: int = 100) -> tuple[int, int] | Response:
        try:
            limit = int(request.query_params.get("limit", "50"))
            offset = int(request.query_params.get("offset", "0"))
        except ValueError:
            return _fail(400, "bad_request", "limit and offset are integers")
        if not 1 <= limit <= most:
            return _fail(400, "bad_request", f"limit is from 1 to {most}")
        if not 0 <= offset <= MAX_OFFSET:
            return _fail(400, "bad_request", f"offset is from 0 to {MAX_OFFSET}")
        return limit, offset

    async def leaderboard(request: Request) -> Response:
        game = request.path_params["game"]
        if game not in GAMES:
            return _fail(404, "no_game", f"the games are {', '.join(GAMES)}")
        got = page(request)
        if isinstance(got, Response):
            return got
        limit, offset = got
        players = await results.leaderboard(server.live.store, game, limit, offset)
        return _answer(api.Leaderboard, {"game": game, "limit": limit, "offset": offset, "players": players})

    async def player(request: Request) -> Response:
        name = request.path_params["name"]
        account = None if len(name) > 64 else await server.users.by_name(name)
        if account is None:
            return _fail(404, "no_player", "no account has this name")
        store = server.live.store
        ids = await server.users.ids(account)
        seen = await results.recent(store, ids, 20)
        found = await results.matches(store, [t for t, _ in seen])
        change = await results.changes(store, account.player, [t for t, _ in seen])
        recent = [
            {**results.as_seen_by(found[t], seat), "change": change.get(t)} for t, seat in seen if t in found
        ]
        return _answer(
            api.Profile,
            {
                **account.public(),
                "ratings": await results.player_ratings(store, account.player),
                "recent": recent,
            },
        )

    async def my_tables(request: Request) -> Response:
        who = await server.who(request)
        ids = set(await my_ids(who))
        store = server.live.store
        live = []
        for t in list(server.live.tables.values()):
            info = await t.call(t.table_info)
            if info["owner"] in ids or any(s["player"] in ids for s in info["seats"]):
                live.append(info)
        if server.cluster is not None:
            from pagoda.server.bus import stored_info

            rows = [r for r in await store.live() if r.id not in server.live.tables]
            seats = await store.latest([r.id for r in rows], "seats")
            for r in rows:
                info = stored_info(r, seats.get(r.id))
                if info["owner"] in ids or any(s["player"] in ids for s in info["seats"]):
                    live.append(info)
        seen = await results.recent(store, sorted(ids), 50)
        found = await results.matches(store, [t for t, _ in seen])
        finished = [results.as_seen_by(found[t], seat) for t, seat in seen if t in found]
        return _answer(api.MyTables, {"live": live, "finished": finished}, token=who.guest)

    async def play(websocket: WebSocket) -> None:
        if not server.origin_ok(websocket):
            await websocket.close(code=1008)
            return
        await websocket.accept()
        settings = server.live.settings
        table: Table | RemoteTable | None = server.live.tables.get(websocket.path_params["id"])
        if table is None and server.cluster is not None and TABLE_ID.fullmatch(websocket.path_params["id"]):
            table = await server.cluster.route(websocket.path_params["id"])
        if table is None:
            await websocket.send_text(json.dumps(error("no_table", "no live table with this id")))
            await websocket.close(code=4404)
            return
        who = await server.who(websocket)
        player, token = who.player, who.guest or ""
        address = websocket.client.host if websocket.client is not None else ""
        conn = Conn(player, "guest", token, outbox=settings.outbox, strict=settings.strict, address=address)
        writer = asyncio.get_running_loop().create_task(_write(websocket, conn))
        joined = False
        try:
            hello = await asyncio.wait_for(_read(websocket, settings.max_message), HELLO_TIMEOUT)
            if hello["type"] != "hello":
                raise ProtocolError("hello_first", "the first message is hello")
            if who.account is not None:
                # A session speaks for its account alone: no guest token changes who this is,
                # and the account's name is the name it plays under.
                hello = {**hello, "name": who.account.name}
                hello.pop("guest", None)
            else:
                guest = await server.guest(hello.get("guest"))
                if guest is not None:
                    conn.player, conn.guest = guest, str(hello["guest"])
            table.join(conn, hello)
            joined = True
            bucket = Bucket(Rate(settings.rate, settings.burst))
            clients = {
                "chat": [(f"guest:{conn.player}", settings.chat_per_guest)],
                "resync": [(f"guest:{conn.player}", settings.resync_per_guest)],
            }
            if conn.address:
                clients["chat"].append((f"ip:{conn.address}", settings.chat_per_address))
                clients["resync"].append((f"ip:{conn.address}", settings.resync_per_address))
            while not conn.closed:
                try:
                    msg = await _read(websocket, settings.max_message)
                except ProtocolError as e:
                    conn.send(error(e.code, e.message))
                    continue
                if not bucket.take():
                    conn.send(
                        error("rate_limited", "too many messages; this one was dropped", msg.get("ref"))
                    )
                    if bucket.strikes > settings.burst:
                        break
                    continue
                kind = msg["type"]
                if kind in clients and not await server.allowed(kind, clients[kind]):
                    why = f"too many {kind} messages from you; this one was dropped"
                    conn.send(error("rate_limited", why, msg.get("ref")))
                    continue
                if msg["type"] == "hello":
                    conn.send(error("already_joined", "hello is the first message only", msg.get("ref")))
                    continue
                table.receive(conn, msg)
        except ProtocolError as e:
            conn.send(error(e.code, e.message))
        except (WebSocketDisconnect, TimeoutError, RuntimeError):
            pass
        finally:
            if joined:
                table.leave(conn)
            conn.close()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(writer, 2.0)
            writer.cancel()

    routes: list[Any] = [
        Route("/api/me", me),
        Route("/api/register", register, methods=["POST"]),
        Route("/api/login", login, methods=["POST"]),
        Route("/api/logout", logout, methods=["POST"]),
        Route("/api/password", password, methods=["POST"]),
        Route("/api/leaderboard/{game}", leaderboard),
        Route("/api/players/{name}", player),
        Route("/api/my/tables", my_tables),
        Route("/api/games", games),
        Route("/api/protocol", protocol),
        Route("/api/tables", create_table, methods=["POST"]),
        Route("/api/tables", list_tables, methods=["GET"]),
        Route("/api/tables/{id}", get_table),
        Route("/api/tables/{id}/record", record),
        Route("/api/tables/{id}/events", table_events),
        Route("/api/tables/{id}/replay", replay),
        Route("/api/history", history),
        WebSocketRoute("/ws/{id}", play),
    ]
    client = Path(config.client_dir) if config.client_dir else None
    if client is not None and (client / "index.html").is_file():
        routes.append(Mount("/", StaticFiles(directory=str(client), html=True)))
    else:
        routes.append(Route("/", placeholder))
    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.server = server
    return app


async def placeholder(request: Request) -> Response:
    """The page served until a browser client is built."""
    body = (
        "<!doctype html><meta charset=utf-8><title>pagoda</title>"
        "<h1>pagoda server</h1><p>The browser client is not built yet. The server is running: "
        "its lobby API is under <code>/api/</code> and tables are played over the WebSocket "
        "protocol described in docs/protocol.md (schemas at <a href=/api/protocol>/api/protocol</a>).</p>"
    )
    return HTMLResponse(body)


async def _read_body(request: Request, limit: int, timeout: float) -> bytes | Response:
    """The request's body, refused (413) past ``limit`` bytes before more of it is read: by its
    ``Content-Length`` first, then as it streams in; 408 if it takes over ``timeout`` seconds."""
    length = request.headers.get("content-length")
    if length is not None and (not length.isdigit() or int(length) > limit):
        if not length.isdigit():
            return _fail(400, "bad_request", "Content-Length is not a number")
        return _fail(413, "too_large", f"the request may be at most {limit} bytes")

    async def collect() -> bytes | None:
        body = bytearray()
        async for chunk in request.stream():
            body += chunk
            if len(body) > limit:
                return None
        return bytes(body)

    try:
        body = await asyncio.wait_for(collect(), timeout)
    except TimeoutError:
        return _fail(408, "timeout", f"the request body did not arrive within {timeout:g} seconds")
    if body is None:
        return _fail(413, "too_large", f"the request may be at most {limit} bytes")
    return body


async def _read(websocket: WebSocket, max_bytes: int) -> dict[str, Any]:
    message = await websocket.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000))
    text = message.get("text")
    return parse_client(text if text is not None else message.get("bytes", b""), max_bytes)


async def _write(websocket: WebSocket, conn: Conn) -> None:
    try:
        while True:
            msg = await conn.outbox.get()
            if msg is None:
                break
            await websocket.send_text(json.dumps(msg, separators=(",", ":")))
    except Exception:
        pass
    finally:
        with contextlib.suppress(Exception):
            await websocket.close(code=1000)
