"""``python -m pagoda.bench.tichu_parts`` sees the very decisions ``pagoda bench tichu`` plays."""

import pytest

from pagoda.bench.tichu import play_random_round
from pagoda.bench.tichu_parts import SITUATIONS, decisions, main, replay


def test_the_parts_are_the_benchmarks_decisions() -> None:
    found = decisions(5, seed=11)
    assert len(found) == sum(play_random_round(s)[1] for s in range(11, 16))
    assert {name for name, *_ in found} <= set(SITUATIONS)
    # Each deal starts with the four Grand Tichu decisions and the four exchanges.
    assert [name for name, *_ in found].count("grand") == 5 * 4
    assert [name for name, *_ in found].count("exchange") == 5 * 4
    replay([d for d in found if d[0] == "lead"])  # applies every picked lead again without refusal


def test_the_command_prints_each_situation(capsys: pytest.CaptureFixture[str]) -> None:
    found = decisions(3)
    takes = sum(1 for name, *_ in found if name == "take")
    assert main(["--deals", "3", "--situation", "take", "--replay", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == f"3 random deals, {len(found)} decisions"
    assert [line.split()[0] for line in lines[2:10]] == list(SITUATIONS)  # every situation occurs
    assert lines[-1] == f"replayed {takes} decisions of take x 1"
