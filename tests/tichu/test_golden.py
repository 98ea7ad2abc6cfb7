"""Golden transcripts: seeded demo rounds, stored as records with their outcome.

A change in the rules core that changes any of these games fails here; if the change is
intended, regenerate with ``python -m tests.tichu.test_golden`` and review the diff.
"""

from pathlib import Path

import pytest

from pagoda.demo.tichu import demo_round
from pagoda.tichu import Round, replay

GOLDEN = Path(__file__).parent / "golden"
SEEDS = (1, 2, 3, 2026)


def transcript(r: Round) -> str:
    """The record of ``r`` followed by its outcome as comments."""
    a, b = r.score()
    outcome = f"# out: {' '.join(map(str, r.out))}\n# score: {a} {b}\n"
    return f"{r.record}\n{outcome}"


@pytest.mark.parametrize("seed", SEEDS)
def test_golden_transcript(seed: int) -> None:
    stored = (GOLDEN / f"seed{seed}.txt").read_text()
    r, _ = demo_round(seed)
    assert transcript(r) == stored
    again = replay(stored)
    assert again == r
    score_line = next(line for line in stored.splitlines() if line.startswith("# score:"))
    assert again.score() == tuple(int(x) for x in score_line.split()[2:])


if __name__ == "__main__":
    for seed in SEEDS:
        (GOLDEN / f"seed{seed}.txt").write_text(transcript(demo_round(seed)[0]))
