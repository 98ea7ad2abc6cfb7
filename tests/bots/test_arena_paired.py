"""Two arena runs compared deal by deal: the per-deal values the reports keep, the paired
arithmetic, the refusals, and ``--compare`` on the command line."""

import json
import math
import re
from pathlib import Path
from typing import Any

import pytest

from pagoda.arena import doudizhu, tichu
from pagoda.arena.paired import CompareError, compare, load_report
from pagoda.arena.stats import Z95


def test_a_tichu_report_keeps_each_deals_mirrored_means() -> None:
    # A's differences per game: deal 1: +100 and -20, deal 2: 0 and +60, deal 3: -50 and +10
    results = [
        tichu.GameResult(1, 0, 150, 50),
        tichu.GameResult(1, 1, 40, 60),
        tichu.GameResult(2, 0, 50, 50),
        tichu.GameResult(2, 1, 80, 20),
        tichu.GameResult(3, 0, 25, 75),
        tichu.GameResult(3, 1, 55, 45),
    ]
    rep = tichu.report(results, ["a", "b"])
    assert rep["game"] == "tichu"
    assert rep["per_deal"] == {
        "deal": [1, 2, 3],
        "a_minus_b": [40.0, 30.0, -20.0],  # (100 - 20)/2, (0 + 60)/2, (-50 + 10)/2
        "a_win_rate": [0.5, 0.75, 0.5],  # (1 + 0)/2, (0.5 + 1)/2, (0 + 1)/2
    }


def test_a_doudizhu_report_keeps_each_deals_mirrored_means() -> None:
    # A's points: deal 5: +4 alone, -2 as peasants; deal 6: 0 and +8; deal 7 has one game only
    results = [
        doudizhu.GameResult(5, True, 4, True, 2, 1),
        doudizhu.GameResult(5, False, -2, False, 1, 1),
        doudizhu.GameResult(6, True, 0, False, 0, 1),
        doudizhu.GameResult(6, False, 8, True, 3, 2),
        doudizhu.GameResult(7, True, 4, True, 1, 2),
    ]
    rep = doudizhu.report(results, ["a", "b"], "classic", True)
    assert rep["game"] == "doudizhu"
    assert rep["per_deal"] == {
        "deal": [5, 6],  # deal 7 lacks its mirror
        "wp": [0.5, 0.75],  # (1 + 0)/2, (0.5 + 1)/2
        "adp": [1.0, 4.0],  # (4 - 2)/2, (0 + 8)/2
    }
    assert rep["both"]["wp"]["mean"] == pytest.approx(0.625)


def _report(a: str, deals: list[int], wp: list[float], rules: str = "classic") -> dict[str, Any]:
    return {"game": "doudizhu", "bots": {"A": a, "B": "h"}, "rules": rules, "landlord": "auction",
            "per_deal": {"deal": deals, "wp": wp}}  # fmt: skip


def test_the_difference_is_taken_deal_by_deal_over_the_common_deals() -> None:
    x = _report("new", [1, 2, 3, 4], [1.0, 0.5, 1.0, 0.75])
    y = _report("old", [4, 3, 2, 9], [0.5, 0.5, 0.5, 0.0])  # any order; deal 9 and deal 1 unshared
    c = compare(x, y, ("wp",), same=("rules", "landlord"))
    assert c["deals"] == 3
    wp = c["metrics"]["wp"]
    # common deals 2, 3, 4: X 0.5, 1.0, 0.75 (mean 0.75); Y 0.5, 0.5, 0.5; X - Y 0, 0.5, 0.25
    assert wp["x"]["mean"] == pytest.approx(0.75)
    assert wp["y"]["mean"] == pytest.approx(0.5)
    assert wp["y"]["sd"] == 0.0
    d = wp["x_minus_y"]
    assert d["mean"] == pytest.approx(0.25)
    # deviations -0.25, 0.25, 0: variance (0.0625 + 0.0625) / 2 = 0.0625, sd 0.25
    assert d["sd"] == pytest.approx(0.25)
    assert d["half_width"] == pytest.approx(Z95 * 0.25 / math.sqrt(3))  # 0.2829
    assert c["x"] == {"A": "new", "B": "h"}


def test_a_run_against_itself_differs_by_exactly_nothing() -> None:
    x = _report("new", [1, 2, 3], [1.0, 0.0, 0.5])
    d = compare(x, x, ("wp",))["metrics"]["wp"]["x_minus_y"]
    assert (d["mean"], d["sd"], d["half_width"]) == (0.0, 0.0, 0.0)


@pytest.mark.parametrize(
    ("y", "message"),
    [
        (
            _report("old", [1, 2], [0.5, 0.5], rules="rlcard"),
            "the runs differ in rules: 'classic' against 'rlcard'",
        ),
        (_report("old", [7, 8], [0.5, 0.5]), "the runs share no deal: run them with the same --seed"),
    ],
)
def test_runs_that_cannot_pair_are_refused_by_name(y: dict[str, Any], message: str) -> None:
    x = _report("new", [1, 2], [1.0, 0.5])
    with pytest.raises(CompareError) as e:
        compare(x, y, ("wp",), same=("rules", "landlord"))
    assert str(e.value) == message


def test_a_missing_metric_is_refused_by_name() -> None:
    x = _report("new", [1, 2], [1.0, 0.5])
    with pytest.raises(CompareError, match="a report has no per-deal 'adp'"):
        compare(x, x, ("wp", "adp"))


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{", "not a JSON arena report"),
        ('{"deals": 3}', "not an arena report (no 'bots')"),
        ('{"bots": ["a", "b", "c"], "pairs": [], "ratings": []}', "a round robin's report"),
        ('{"game": "tichu", "bots": {"A": "a", "B": "b"}, "per_deal": {}}', "a tichu report, not doudizhu"),
        ('{"bots": {"A": "a", "B": "b"}, "both": {}}', "no per-deal results (an older report); rerun it"),
    ],
)
def test_a_file_that_is_not_a_two_bot_report_is_refused(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "r.json"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(CompareError, match=re.escape(message)):
        load_report(str(path), "doudizhu")
    assert path.read_text(encoding="utf-8") == content  # read, never changed
    with pytest.raises(CompareError, match="cannot read it"):
        load_report(str(tmp_path / "absent.json"), "doudizhu")


def test_compare_on_the_command_line_pairs_two_real_runs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    x, y = tmp_path / "x.json", tmp_path / "y.json"
    base = ["--deals", "3", "--seed", "11", "--rules", "classic", "--no-progress"]
    assert doudizhu.run(["--bots", "heuristic,random", *base, "--json", str(x)]) == 0
    assert doudizhu.run(["--bots", "random,heuristic", *base, "--json", str(y)]) == 0
    rx, ry = (json.loads(p.read_text(encoding="utf-8")) for p in (x, y))
    assert rx["per_deal"]["deal"] == [11, 12, 13] == ry["per_deal"]["deal"]
    capsys.readouterr()
    assert doudizhu.run(["--compare", str(x), str(y)]) == 0
    out = capsys.readouterr().out
    c = compare(rx, ry, ("wp", "adp"))
    d = c["metrics"]["adp"]["x_minus_y"]
    assert out.splitlines()[:3] == [
        "X = heuristic vs random",
        "Y = random vs heuristic",
        "on the 3 deals both played (each the mean of its two games; 95% intervals):",
    ]
    assert f"X − Y {d['mean']:+.3f} ± {d['half_width']:.3f} (paired)" in out.splitlines()[4]
    # the mirror of a run is its negation deal by deal: A's points are B's with the sign turned
    assert c["metrics"]["adp"]["x"]["mean"] == pytest.approx(-c["metrics"]["adp"]["y"]["mean"])


def test_compare_refuses_runs_under_other_rules_on_the_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    x, y = tmp_path / "x.json", tmp_path / "y.json"
    for path, rules in ((x, "classic"), (y, "rlcard")):
        argv = ["--bots", "heuristic,random", "--deals", "1", "--rules", rules, "--no-progress"]
        assert doudizhu.run([*argv, "--json", str(path)]) == 0
    capsys.readouterr()
    with pytest.raises(SystemExit) as e:
        doudizhu.run(["--compare", str(x), str(y)])
    assert e.value.code == 2
    assert "the runs differ in rules: 'classic' against 'rlcard'" in capsys.readouterr().err


def test_tichu_compare_prints_points_and_win_rate(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    x = tmp_path / "x.json"
    assert (
        tichu.run(
            ["--bots", "heuristic,random", "--deals", "2", "--seed", "4", "--no-progress", "--json", str(x)]
        )
        == 0
    )
    capsys.readouterr()
    assert tichu.run(["--compare", str(x), str(x)]) == 0
    lines = capsys.readouterr().out.splitlines()
    rep = json.loads(x.read_text(encoding="utf-8"))
    m, h = rep["a_minus_b"]["mean"], rep["a_minus_b"]["half_width"]
    assert (
        lines[3]
        == f"  A − B points per round: X {m:.1f} ± {h:.1f}, Y {m:.1f} ± {h:.1f}, X − Y +0.0 ± 0.0 (paired)"
    )
    assert lines[4].startswith("  A win rate: X ")
