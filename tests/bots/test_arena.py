"""The arena's mirrored schedule and its interval arithmetic."""

import math

import pytest

from pagoda.arena.stats import Z95, percentile, summarize, wilson
from pagoda.arena.tichu import GameResult, format_report, games, pairs, play_game, report, run_arena


def test_schedule_mirrors_every_deal() -> None:
    sched = games(seed=7, deals=3)
    assert [(g.deal, g.a_team) for g in sched] == [(7, 0), (7, 1), (8, 0), (8, 1), (9, 0), (9, 1)]


def test_report_arithmetic_on_known_results() -> None:
    # pairs of A's differences: (+100, -20) -> 40, (0, +60) -> 30, (-50, +10) -> -20
    results = [
        GameResult(1, 0, 150, 50),
        GameResult(1, 1, 40, 60),
        GameResult(2, 0, 50, 50),
        GameResult(2, 1, 80, 20),
        GameResult(3, 0, 25, 75),
        GameResult(3, 1, 55, 45),
    ]
    rep = report(results, ["a", "b"])
    d = rep["a_minus_b"]
    # mean (40 + 30 - 20) / 3 = 50/3; deviations 70/3, 40/3, -110/3;
    # sample variance (4900 + 1600 + 12100) / 9 / 2 = 18600/18 = 1033.33..., sd = 32.146
    assert d["n"] == 3
    assert d["mean"] == pytest.approx(50 / 3)
    assert d["sd"] == pytest.approx(math.sqrt(18600 / 18))
    assert d["half_width"] == pytest.approx(Z95 * math.sqrt(18600 / 18) / math.sqrt(3))  # 36.38
    assert d["half_width"] == pytest.approx(36.376, abs=1e-3)
    # wins per pair: (1 + 0)/2, (0.5 + 1)/2, (0 + 1)/2 -> mean (0.5 + 0.75 + 0.5)/3 = 0.58333
    assert rep["a_win_rate"]["mean"] == pytest.approx(1.75 / 3)
    assert rep["a_points"]["mean"] == pytest.approx((95 + 65 + 40) / 3)  # (150+40)/2, (50+80)/2, (25+55)/2


def test_stats_edge_cases() -> None:
    assert summarize([3.0]).half_width == math.inf
    assert percentile([0.1, 0.2, 0.3, 0.4], 99) == 0.4
    assert percentile([0.1, 0.2, 0.3, 0.4], 50) == 0.2


def test_tiny_run_is_reproducible_and_mirrored() -> None:
    results = run_arena(["heuristic", "random"], deals=2, seed=1)
    assert [(r.deal, r.a_team) for r in results] == [(1, 0), (1, 1), (2, 0), (2, 1)]
    assert len(pairs(results)) == 2
    again = [play_game(g, ["heuristic", "random"]) for g in games(1, 2)]
    assert [r.diff for r in results] == [r.diff for r in again]
    # the mirror plays the same cards with the teams swapped: all four seats swap bots
    for x, y in pairs(results):
        assert x.a_team == 0
        assert y.a_team == 1
    rep = report(results, ["heuristic", "random"])
    assert rep["deals"] == 2
    assert rep["games"] == 4
    assert rep["a_minus_b"]["mean"] == pytest.approx(sum(r.diff for r in results) / 4)


def test_workers_give_the_same_results() -> None:
    one = run_arena(["heuristic", "random"], deals=1, seed=3)
    two = run_arena(["heuristic", "random"], deals=1, seed=3, workers=2)
    assert [(r.deal, r.a_team, r.diff) for r in one] == [(r.deal, r.a_team, r.diff) for r in two]


def test_first_out_and_one_two_are_counted_per_bot() -> None:
    results = [
        GameResult(1, 0, 200, 0, first_out=[0], one_two=[0]),
        GameResult(1, 1, 30, 70, first_out=[1]),
        GameResult(2, 0, 0, 200, first_out=[1], one_two=[1]),
        GameResult(2, 1, 0, 200, first_out=[1], one_two=[1]),
    ]
    rep = report(results, ["a", "b"])
    assert rep["first_out"] == {"A": 0.25, "B": 0.75}
    assert rep["one_two"] == {"A": 0.25, "B": 0.5}
    played = play_game(games(seed=3, deals=1)[0], ["heuristic", "random"])
    assert len(played.first_out) == 1
    assert set(played.one_two) <= set(played.first_out)


def test_call_success_is_a_count_with_a_wilson_interval() -> None:
    # A called Tichu three times and made it each time, B called the Grand Tichu once and failed:
    # a normal interval would read "100% ± 0%" and "0% ± inf%"
    results = [
        GameResult(1, 0, 300, -100, calls=[(0, "tichu", True), (1, "grand", False)]),
        GameResult(1, 1, 200, 0, calls=[(0, "tichu", True), (0, "tichu", True)]),
    ]
    rep = report(results, ["a", "b"])
    assert rep["calls"]["A tichu"]["made"] == 3
    assert rep["calls"]["B grand"]["made"] == 0
    success = rep["calls"]["A tichu"]["success"]
    assert success == pytest.approx({"rate": 1.0, "low": 0.4385, "high": 1.0}, abs=1e-4)
    assert math.isnan(rep["calls"]["A grand"]["success"]["rate"])  # no calls: no rate
    text = format_report(rep)
    # 3 of 3: Wilson centre (1 + 1.9208/3) / (1 + 3.8415/3) = 0.7193, half 0.2808 -> 43.85%..100%
    assert "  A tichu calls: 3 (1.50 per round), made 3 (100%, 95% 44%–100%)" in text
    # 0 of 1: centre 1.9208 / 4.8415 = 0.3967, half 0.3967 -> 0%..79.35%
    assert "  B grand calls: 1 (0.50 per round), made 0 (0%, 95% 0%–79%)" in text
    assert not [line for line in text.splitlines() if "calls" in line and "inf" in line]
    assert wilson(0, 0) == (0.0, 1.0)
    low, high = wilson(50, 100)  # centre 0.5, half 1.96 * sqrt(0.0025 + 0.000096) / 1.0384 = 0.0962
    assert (low, high) == pytest.approx((0.4038, 0.5962), abs=1e-4)
