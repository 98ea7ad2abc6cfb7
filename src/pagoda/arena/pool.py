"""Running an arena's games on one process or several, with progress, in schedule order."""

import multiprocessing
from collections.abc import Callable, Sequence
from typing import Generic, TypeVar

T = TypeVar("T")
R = TypeVar("R")


def run_games(
    play: Callable[[T], R],
    tasks: Sequence[T],
    workers: int,
    progress: Callable[[int, int], None] | None = None,
    chunksize: int = 1,
) -> list[R]:
    """``play`` on every task (a module-level function, for the worker processes), in task order.

    >>> run_games(abs, [-2, 3, -1], workers=1)
    [2, 3, 1]
    """
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
