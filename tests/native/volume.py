"""The full volume of the differential tests, in slices a run of the suite can afford.

Each engine's ``slow`` differential test plays 10,000 rounds per preset in :data:`SLICES` slices;
a run takes one, the day's, so that twenty days of CI cover the whole volume and a failure names
its seeds. ``PAGODA_DIFF_SLICE=all`` (``make volume``) runs every slice, ``PAGODA_DIFF_SLICE=k``
slice ``k``.
"""

import datetime
import os

ROUNDS, SLICES = 10_000, 20  # per preset: 20 slices of 500 rounds


def slices(count: int = SLICES) -> list[int]:
    """The slices of ``count`` this run compares: the day's, or as ``PAGODA_DIFF_SLICE`` says
    (taken modulo ``count``)."""
    chosen = os.environ.get("PAGODA_DIFF_SLICE", "")
    if chosen == "all":
        return list(range(count))
    if chosen:
        return [int(chosen) % count]
    return [datetime.date.today().toordinal() % count]


def seeds(part: int) -> range:
    """The seeds of slice ``part`` (from 10**6 on, apart from the quick volume's)."""
    size = ROUNDS // SLICES
    return range(10**6 + part * size, 10**6 + (part + 1) * size)
