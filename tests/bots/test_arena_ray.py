"""``pagoda arena ... --ray``: the games as Ray tasks give the results of one process, in order."""

import dataclasses
from collections.abc import Iterator
from typing import Any

import pytest
import ray

from pagoda.arena import doudizhu as ddz_arena
from pagoda.arena import tichu as tichu_arena
from pagoda.arena.pool import run_games


@pytest.fixture(scope="module")
def local_ray() -> Iterator[None]:
    """One local Ray of 2 CPUs for the module; ``run_games`` joins it and leaves it running."""
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        yield
    finally:
        ray.shutdown()


def test_ray_keeps_task_order_and_reports_progress(local_ray: None) -> None:
    seen: list[tuple[int, int]] = []
    tasks = [5, -3, 0, -8, 2, -1]
    assert run_games(abs, tasks, workers=2, progress=lambda d, t: seen.append((d, t)), ray="auto") == [
        5,
        3,
        0,
        8,
        2,
        1,
    ]
    # One report per finished task, counting up to all 6.
    assert [d for d, _ in seen] == [1, 2, 3, 4, 5, 6]
    assert {t for _, t in seen} == {6}
    assert ray.is_initialized()  # a Ray it did not start is left running


def test_ray_arena_equals_one_process(local_ray: None) -> None:
    # Everything but the decision times (wall clock) is the same game for game, in schedule order.
    def games(results: list[Any]) -> list[Any]:
        return [dataclasses.replace(r, times=([], [])) for r in results]

    one = tichu_arena.run_arena(["heuristic", "random"], deals=2, seed=5)
    assert len(one) == 4  # 2 deals, each played twice (mirrored)
    assert games(tichu_arena.run_arena(["heuristic", "random"], deals=2, seed=5, ray="auto")) == games(one)
    ddz_one = ddz_arena.run_arena(["heuristic", "random"], deals=2, seed=5)
    assert len(ddz_one) == 4
    assert games(ddz_arena.run_arena(["heuristic", "random"], deals=2, seed=5, ray="auto")) == games(ddz_one)
