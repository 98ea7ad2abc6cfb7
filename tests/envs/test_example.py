"""The deep Monte Carlo example runs end to end (a few seconds of training in smoke mode)."""

import subprocess
import sys
from pathlib import Path

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "dmc_doudizhu.py"


def test_example_smoke() -> None:
    done = subprocess.run(
        [sys.executable, str(EXAMPLE), "--smoke"], capture_output=True, text=True, timeout=120, check=True
    )
    assert "trained on" in done.stdout
    assert done.stdout.count("95% CI") == 2
    assert "agent - random" in done.stdout
