"""``pagoda watch doudizhu <record>``: step through a stored doudizhu round or match."""

from collections.abc import Sequence

from pagoda.watch import run_watch


def run(argv: Sequence[str]) -> int:
    """Replay the record; returns the exit status."""
    return run_watch("doudizhu", argv)
