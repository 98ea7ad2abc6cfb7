"""Running an arena's games on one process, several, or a Ray cluster, with progress, in schedule order."""

import argparse
import multiprocessing
from collections.abc import Callable, Sequence
from typing import Any, Generic, TypeVar

T = TypeVar("T")
R = TypeVar("R")


def run_games(
    play: Callable[[T], R],
    tasks: Sequence[T],
    workers: int,
    progress: Callable[[int, int], None] | None = None,
    chunksize: int = 1,
    ray: str | None = None,
) -> list[R]:
    """``play`` on every task (a module-level function, for the worker processes), in task order.

    ``ray``: the address of a Ray cluster (``"auto"`` joins the one this machine is part of), or
    ``"local"`` for a Ray of this machine with ``workers`` CPUs; the games then run as Ray tasks.

    >>> run_games(abs, [-2, 3, -1], workers=1)
    [2, 3, 1]
    """
    if ray is not None:
        return _run_ray(play, tasks, workers, progress, ray)
    results: list[R] = []
    if workers <= 1:
        for task in tasks:
            results.append(play(task))
            if progress:
                progress(len(results), len(tasks))
        return results
    indexed: list[tuple[int, R]] = []
    with multiprocessing.get_context("spawn").Pool(workers) as pool:
        for i, res in pool.imap_unordered(_Indexed(play), enumerate(tasks), chunksize=chunksize):
            indexed.append((i, res))
            if progress:
                progress(len(indexed), len(tasks))
    indexed.sort(key=lambda pair: pair[0])
    return [res for _, res in indexed]


class _Indexed(Generic[T, R]):
    """Wraps ``play`` so a worker returns each result with its task's index (picklable)."""

    def __init__(self, play: Callable[[T], R]) -> None:
        self.play = play

    def __call__(self, item: tuple[int, T]) -> tuple[int, R]:
        return item[0], self.play(item[1])


def _run_ray(
    play: Callable[[T], R],
    tasks: Sequence[T],
    workers: int,
    progress: Callable[[int, int], None] | None,
    address: str,
) -> list[R]:
    """The games as Ray tasks, on a cluster at ``address`` or a local Ray (``"local"``)."""
    try:
        import ray
    except ModuleNotFoundError:
        raise SystemExit("--ray needs the cluster extra: pip install 'pagoda[cluster]'") from None
    started = not ray.is_initialized()
    if started:
        if address == "local":
            ray.init(num_cpus=max(1, workers), include_dashboard=False, log_to_driver=False)
        else:
            ray.init(address=address, log_to_driver=False)
    try:
        remote: Any = ray.remote(_call)
        shared = ray.put(play)  # sent to the cluster once, not with every task
        index = {remote.remote(shared, task): i for i, task in enumerate(tasks)}
        got: dict[int, R] = {}
        pending = list(index)
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for ref in done:
                got[index[ref]] = ray.get(ref)
            if progress:
                progress(len(got), len(tasks))
        return [got[i] for i in range(len(tasks))]
    finally:
        if started:
            ray.shutdown()


def _call(play: Callable[[T], R], task: T) -> R:
    """One game on a Ray worker (``play`` may be any picklable callable, a builtin included)."""
    return play(task)


def add_ray_option(parser: argparse.ArgumentParser) -> None:
    """The arenas' ``--ray [ADDRESS]`` option (``run_games``' ``ray``)."""
    parser.add_argument(
        "--ray",
        nargs="?",
        const="auto",
        metavar="ADDRESS",
        help="run the games on a Ray cluster (auto: the one this machine joined; local: a local Ray)",
    )
