"""The environment benchmark runs (pagoda's environments only, briefly)."""

import pytest

from pagoda.envs import bench


def test_bench_runs(capsys: pytest.CaptureFixture[str]) -> None:
    assert bench.main(["--seconds", "0.05", "--only-pagoda"]) == 0
    out = capsys.readouterr().out
    assert "pagoda tichu_v0 standard" in out
