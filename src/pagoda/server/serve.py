"""``pagoda serve``: run the game server with uvicorn (lobby API, WebSocket, client files)."""

import argparse
import gc
import os
from collections.abc import Sequence
from pathlib import Path

from pagoda.server.pool import default_workers
from pagoda.server.slow import HEADER_TIMEOUT, guarded
from pagoda.server.table import Settings

#: Seconds an idle HTTP connection is kept between requests (uvicorn's ``timeout_keep_alive``).
KEEP_ALIVE = 5
#: The most bytes of an unfinished request head uvicorn buffers (with its h11 protocol).
H11_MAX_INCOMPLETE = 16 * 1024


def database_url(db: str | None) -> str | None:
    """A ``--db`` value as a URL: a URL as given, a file path as SQLite."""
    if not db:
        return None
    if "://" in db:
        return db
    return f"sqlite+aiosqlite:///{Path(db).resolve()}"


#: The server's garbage-collector thresholds. With 2,000 sockets the default (700, 10, 10) runs
#: a full collection every few seconds over every live object, stalling all tables at once: at
#: 500 tables the p99 from action to event was 327 ms with the defaults and 29 ms with these.
GC_THRESHOLDS = (50_000, 20, 100)


def tune_gc() -> None:
    """Collect less often, and never again over what start-up made (the server's long-lived objects)."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


def parser() -> argparse.ArgumentParser:
    """The parser of ``pagoda serve``'s options."""
    p = argparse.ArgumentParser(prog="pagoda serve", description=__doc__.splitlines()[0])
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=8000, help="port (default %(default)s)")
    p.add_argument(
        "--db", help="database URL or SQLite file (default: PAGODA_DATABASE_URL, else the data dir)"
    )
    p.add_argument(
        "--data-dir",
        default=os.environ.get("PAGODA_DATA_DIR", "pagoda-data"),
        help="data folder (default PAGODA_DATA_DIR, else %(default)s)",
    )
    p.add_argument(
        "--client",
        default=os.environ.get("PAGODA_CLIENT_DIR", "client/dist"),
        help="folder of the built browser client (default PAGODA_CLIENT_DIR, else %(default)s)",
    )
    p.add_argument(
        "--allow-origin",
        action="append",
        default=[],
        help="another origin allowed to connect (may be repeated)",
    )
    p.add_argument(
        "--grace",
        type=float,
        default=20.0,
        help="seconds before a bot stands in for the absent (default %(default)g)",
    )
    p.add_argument(
        "--bomb-window",
        type=float,
        default=1.5,
        help="seconds to bomb a complete trick (default %(default)g)",
    )
    p.add_argument(
        "--bot-delay",
        type=float,
        default=0.6,
        help="seconds a bot waits before it moves (default %(default)g)",
    )
    p.add_argument(
        "--bot-workers",
        type=int,
        default=default_workers(),
        help="processes bots decide in (default %(default)s, one per CPU; 0: on the event loop)",
    )
    p.add_argument(
        "--bot-timeout",
        type=float,
        default=Settings().bot_timeout,
        help="seconds a bot decision may take before the table bot decides instead (default %(default)g)",
    )
    p.add_argument(
        "--bot-module",
        action="append",
        default=[],
        help="a module to import that registers more bots (may be repeated)",
    )
    p.add_argument(
        "--max-message",
        type=int,
        default=4096,
        help="largest message accepted, in bytes (default %(default)s)",
    )
    p.add_argument(
        "--sqlite-synchronous",
        choices=("full", "normal"),
        default="full",
        help="SQLite: full syncs the disk at every commit (default); normal survives a kill, not a power cut",
    )
    p.add_argument(
        "--ws-deflate",
        action=argparse.BooleanOptionalAction,
        default=False,
        help="compress WebSocket messages (permessage-deflate: CPU and zlib memory per socket; default off)",
    )
    p.add_argument(
        "--redis",
        default=os.environ.get("PAGODA_REDIS_URL"),
        help="Redis URL: run as one of several processes sharing the database (default PAGODA_REDIS_URL)",
    )
    p.add_argument(
        "--lease", type=float, default=5.0, help="seconds a dead process keeps its tables (with --redis)"
    )
    p.add_argument(
        "--tables-per-address",
        type=int,
        default=Settings().tables_per_address,
        help="live tables one client address may create (default %(default)s; raise it for pagoda load)",
    )
    p.add_argument(
        "--header-timeout",
        type=float,
        default=HEADER_TIMEOUT,
        help=f"seconds a connection has to send a request's headers (default {HEADER_TIMEOUT:g})",
    )
    p.add_argument(
        "--body-timeout",
        type=float,
        default=10.0,
        help="seconds a request body may take to arrive (default 10)",
    )
    p.add_argument(
        "--keep-alive",
        type=int,
        default=KEEP_ALIVE,
        help=f"seconds an idle HTTP connection is kept open between requests (default {KEEP_ALIVE})",
    )
    return p


def run(argv: Sequence[str]) -> int:
    """Parse the options and serve until interrupted."""
    p = parser()
    args = p.parse_args(list(argv))
    if args.lease <= 0:
        p.error(f"--lease must be a positive number of seconds, not {args.lease}")
    if args.tables_per_address < 1:
        p.error(f"--tables-per-address must be at least 1, not {args.tables_per_address}")
    if args.bot_workers < 0:
        p.error(f"--bot-workers must be 0 or more, not {args.bot_workers}")
    if args.bot_timeout <= 0:
        p.error(f"--bot-timeout must be a positive number of seconds, not {args.bot_timeout}")
    if min(args.header_timeout, args.keep_alive, args.body_timeout) <= 0:
        p.error("--header-timeout, --body-timeout and --keep-alive must be positive numbers of seconds")

    import uvicorn

    from pagoda.server.app import Config, create_app

    settings = Settings(
        grace=args.grace,
        bomb_window=args.bomb_window,
        bot_delay=args.bot_delay,
        bot_timeout=args.bot_timeout,
        bot_workers=args.bot_workers,
        bot_modules=tuple(args.bot_module),
        max_message=args.max_message,
        body_timeout=args.body_timeout,
        tables_per_address=args.tables_per_address,
    )
    config = Config(
        database_url=database_url(args.db),
        data_dir=args.data_dir,
        client_dir=args.client,
        allowed_origins=tuple(args.allow_origin),
        settings=settings,
        redis_url=args.redis or None,
        lease=args.lease,
        sqlite_synchronous=args.sqlite_synchronous,
    )
    tune_gc()
    uvicorn.run(
        create_app(config),
        host=args.host,
        port=args.port,
        ws_max_size=max(65536, 4 * args.max_message),
        ws_per_message_deflate=args.ws_deflate,
        http=guarded(args.header_timeout),
        timeout_keep_alive=args.keep_alive,
        h11_max_incomplete_event_size=H11_MAX_INCOMPLETE,
        log_level="info",
    )
    return 0
