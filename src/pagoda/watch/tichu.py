"""``pagoda watch tichu <record>``: step through a stored tichu round or match."""

from collections.abc import Sequence

from pagoda.watch import run_watch


def run(argv: Sequence[str]) -> int:
    """Replay the record; returns the exit status."""
    return run_watch("tichu", argv)
