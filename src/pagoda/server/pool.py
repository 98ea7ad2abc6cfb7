"""Bot decisions off the event loop: a pool of worker processes that the table actors await.

A bot decision is a pure function of a :class:`Question` (the game, the bot's registered name,
the seat's view, the actions it may take and the seed of its :class:`random.Random`), so a
worker answers it exactly as the server's own process would: a seeded table plays the same
record with the pool and without it. A question and its answer pickle in a few hundred bytes
(the view and the legal actions, never the match).

A worker that takes longer than the time limit keeps its process until it finishes (a running
decision cannot be interrupted); the table does not wait for it.
"""

import asyncio
import importlib
import multiprocessing
import os
import random
import threading
import time
from collections.abc import Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any

from pagoda.bots import get_bot

#: Seconds between a worker's checks that the process owning its pool is still there.
WATCH_EVERY = 1.0

#: Bots made in this process, by game and name (registered bots keep no state between decisions).
_BOTS: dict[tuple[str, str], Any] = {}


@dataclass(frozen=True, slots=True)
class Question:
    """What a bot needs to decide for one seat: all of it pickles cheaply."""

    game: str
    bot: str
    view: Any
    legal: Sequence[Any]
    seed: str


def decide(question: Question) -> str:
    """The action text the bot named in ``question`` chooses (run in a worker or in-process)."""
    key = (question.game, question.bot)
    bot = _BOTS.get(key)
    if bot is None:
        bot = _BOTS[key] = get_bot(question.game, question.bot)
    return str(bot.decide(question.view, question.legal, random.Random(question.seed)))


def _preload(modules: tuple[str, ...]) -> None:
    """Import the modules that register extra bots."""
    for name in modules:
        importlib.import_module(name)


def _watch(owner: int) -> None:
    """End this worker once the process that owns the pool is gone (killed, or exited without
    stopping its workers): a worker never outlives its server."""
    while True:
        time.sleep(WATCH_EVERY)
        try:
            os.kill(owner, 0)
        except (ProcessLookupError, PermissionError):  # gone (or its number taken by another user's)
            os._exit(0)


def _start_worker(modules: tuple[str, ...], owner: int) -> None:
    """A worker's start: the extra bots' modules, and a watch on the pool's owner."""
    _preload(modules)
    threading.Thread(target=_watch, args=(owner,), name="pagoda-owner-watch", daemon=True).start()


def _ready() -> None:
    """Nothing: a worker that answers it has started."""


def start_method() -> str:
    """A start method safe in a process with threads: ``forkserver`` where it exists, else ``spawn``."""
    return "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else "spawn"


def default_workers() -> int:
    """The pool size that fits the machine: one worker per CPU."""
    return os.cpu_count() or 1


class BotPool:
    """Where bot decisions run: ``workers`` processes, or this process when ``workers`` is 0.

    ``imports`` names modules each worker imports first (modules that register extra bots).
    """

    def __init__(self, workers: int, imports: Sequence[str] = ()) -> None:
        if workers < 0:
            raise ValueError(f"the number of bot workers must be 0 or more, not {workers}")
        self.workers = workers
        self.imports = tuple(imports)
        _preload(self.imports)  # this process decides too: for the fallback and without workers
        self._executor: Executor | None = None
        self._starting: asyncio.Lock | None = None

    @property
    def in_process(self) -> bool:
        """True when decisions run in this process, on the event loop (``workers`` is 0)."""
        return self.workers == 0

    def _start(self) -> Executor:
        """A new pool with every worker started (each start waits for a process: not on the loop)."""
        executor = ProcessPoolExecutor(
            self.workers,
            mp_context=multiprocessing.get_context(start_method()),
            initializer=_start_worker,
            initargs=(self.imports, os.getpid()),
        )
        for started in [executor.submit(_ready) for _ in range(self.workers)]:
            started.result()
        return executor

    async def start(self) -> None:
        """Start the workers, in a thread so that no table waits for them (once; later calls return)."""
        if self._starting is None:
            self._starting = asyncio.Lock()
        async with self._starting:
            if self._executor is None and not self.in_process:
                self._executor = await asyncio.to_thread(self._start)

    async def decide(self, question: Question, timeout: float) -> str:
        """The bot's answer from a worker within ``timeout`` seconds (waiting for a free worker
        included, not the workers' start); :class:`TimeoutError` past it, or the worker's own
        error. In-process (no workers) the decision runs at once and no limit applies."""
        if self.in_process:
            return decide(question)
        await self.start()
        assert self._executor is not None
        loop = asyncio.get_running_loop()
        try:
            return await asyncio.wait_for(loop.run_in_executor(self._executor, decide, question), timeout)
        except BrokenProcessPool:
            # A worker died: the next decision gets a new pool.
            broken, self._executor = self._executor, None
            if broken is not None:
                broken.shutdown(wait=False, cancel_futures=True)
            raise

    def close(self) -> None:
        """Stop the workers (decisions still queued are dropped; running ones finish on their own)."""
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None
