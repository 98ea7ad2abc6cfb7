"""Round robins: team-aware ratings of several bots, their JSON and their PNG."""

import json
import random
from collections.abc import Sequence
from pathlib import Path

import pytest

from pagoda.arena import doudizhu, tichu
from pagoda.arena.ratings import (
    MU,
    SIGMA,
    Outcome,
    PairRun,
    interleave,
    outcome,
    points_matrix,
    rate,
    round_robin,
    round_robin_pairs,
)
from pagoda.bots import _REGISTRY, BotSpec

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


class FirstLegal:
    """Always the first legal action: a third, weak bot for the round robins."""

    def decide(self, view: object, legal_actions: Sequence[object], rng: random.Random) -> object:
        return legal_actions[0]


@pytest.fixture(autouse=True)
def first_legal(monkeypatch: pytest.MonkeyPatch) -> None:
    """Registered for these tests only, so other tests' lists of bots do not see it."""
    for game in ("tichu", "doudizhu"):
        spec = BotSpec(game, "first-legal", 0, FirstLegal, "always the first legal action")
        monkeypatch.setitem(_REGISTRY, (game, "first-legal"), spec)


def test_ranks_follow_points_and_ties_share() -> None:
    assert outcome([("a", "a"), ("b", "b")], [150, -50]).ranks == (0, 1)
    assert outcome([("l",), ("p", "p")], [-4, 4]).ranks == (1, 0)
    assert outcome([("a", "a"), ("b", "b")], [100, 100]).ranks == (0, 0)


def test_the_winner_rises_the_loser_falls_and_both_grow_surer() -> None:
    a, b = rate([outcome([("a", "a"), ("b", "b")], [1, -1])], ["a", "b"])
    assert (a.bot, b.bot) == ("a", "b")
    assert a.mu == pytest.approx(26.9643, abs=1e-4)
    assert b.mu == pytest.approx(23.0357, abs=1e-4)
    assert a.mu + b.mu == pytest.approx(2 * MU)
    assert a.sigma == pytest.approx(8.178, abs=1e-3)
    assert a.sigma < SIGMA
    assert a.ordinal == pytest.approx(a.mu - 3 * a.sigma)
    assert (a.games, b.games) == (1, 1)
    tie = rate([outcome([("a", "a"), ("b", "b")], [1, 1])], ["a", "b"])
    assert [r.mu for r in tie] == pytest.approx([MU, MU])


def test_a_lone_landlord_beating_two_peasants_gains_more_than_a_team_of_two() -> None:
    landlord, peasants = rate([outcome([("a",), ("b", "b")], [4, -4])], ["a", "b"])
    assert landlord.mu == pytest.approx(28.7085, abs=1e-4)
    assert peasants.mu == pytest.approx(21.2915, abs=1e-4)
    pair, _ = rate([outcome([("a", "a"), ("b", "b")], [4, -4])], ["a", "b"])
    assert landlord.mu > pair.mu


def test_games_are_rated_in_turn_and_the_order_is_best_first() -> None:
    x = [Outcome((("x",), ("y",)), (0, 1))] * 3
    z = [Outcome((("z",), ("x",)), (1, 0))] * 2
    assert interleave([x, z]) == [x[0], z[0], x[1], z[1], x[2]]
    table = rate(interleave([x, z]), ["z", "y", "x"])
    assert [r.bot for r in table] == ["x", "z", "y"]
    assert [r.games for r in table] == [5, 2, 3]
    assert round_robin_pairs(["a", "b", "c", "d"]) == [
        ("a", "b"),
        ("a", "c"),
        ("a", "d"),
        ("b", "c"),
        ("b", "d"),
        ("c", "d"),
    ]


def test_points_matrix_is_antisymmetric() -> None:
    runs = [PairRun("a", "b", {}, [], 10.0, 2.0), PairRun("a", "c", {}, [], -4.0, 1.0)]
    m = points_matrix(["a", "b", "c"], runs)
    assert m["mean"] == [[None, 10.0, -4.0], [-10.0, None, None], [4.0, None, None]]
    assert m["half_width"] == [[None, 2.0, 1.0], [2.0, None, None], [1.0, None, None]]


def test_tichu_round_robin_on_the_same_deals() -> None:
    bots = ["first-legal", "random", "heuristic"]

    def play(a: str, b: str) -> PairRun:
        return tichu.pair_run(tichu.run_arena([a, b], deals=2, seed=1), [a, b])

    rep = round_robin(bots, play, "points")
    assert [(p["bots"]["A"], p["bots"]["B"]) for p in rep["pairs"]] == [
        ("first-legal", "random"),
        ("first-legal", "heuristic"),
        ("random", "heuristic"),
    ]
    assert [p["games"] for p in rep["pairs"]] == [4, 4, 4]
    # random calls Grand Tichu on most hands and loses it: even always-the-first-action beats it
    assert [r["bot"] for r in rep["ratings"]] == ["heuristic", "first-legal", "random"]
    assert [r["games"] for r in rep["ratings"]] == [8, 8, 8]
    heuristic = rep["ratings"][0]
    assert heuristic["mu"] > MU
    assert rep["points"]["mean"][2][1] == rep["pairs"][2]["a_minus_b"]["mean"] * -1
    again = round_robin(bots, play, "points")
    assert again["ratings"] == rep["ratings"]


def test_doudizhu_games_are_landlord_against_the_peasants() -> None:
    results = doudizhu.run_arena(["heuristic", "first-legal"], deals=2, seed=1)
    run = doudizhu.pair_run(results, ["heuristic", "first-legal"], "rlcard", False)
    assert [g.teams for g in run.outcomes] == [
        (("heuristic",), ("first-legal", "first-legal")),
        (("first-legal",), ("heuristic", "heuristic")),
    ] * 2
    for r, g in zip(results, run.outcomes, strict=True):
        assert r.a_landlord == r.a_seat0  # the fixed landlord: seat 0
        landlord_won = (r.a_points > 0) == r.a_landlord
        assert g.ranks == ((0, 1) if landlord_won else (1, 0))
    assert run.mean == run.report["both"]["adp"]["mean"]


def test_tichu_cli_writes_the_json_and_a_png(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out, png = tmp_path / "rr.json", tmp_path / "rr.png"
    argv = ["--bots", "first-legal,random,heuristic", "--deals", "1", "--no-progress"]
    assert tichu.run([*argv, "--json", str(out), "--plot", str(png)]) == 0
    text = capsys.readouterr().out
    assert "mu  sigma  ordinal  games" in text
    rep = json.loads(out.read_text())
    assert set(rep) >= {"bots", "pairs", "ratings", "rating_model", "points", "command"}
    assert rep["bots"] == ["first-legal", "random", "heuristic"]
    assert len(rep["pairs"]) == 3
    for row in rep["ratings"]:
        assert set(row) == {"bot", "mu", "sigma", "ordinal", "games"}
        assert row["ordinal"] == pytest.approx(row["mu"] - 3 * row["sigma"])
        assert row["games"] == 4
    assert rep["points"]["bots"] == rep["bots"]
    data = png.read_bytes()
    assert data.startswith(PNG_SIGNATURE)
    assert len(data) > 1000


def test_doudizhu_cli_plots_two_bots(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out, png = tmp_path / "d.json", tmp_path / "d.png"
    argv = ["--bots", "heuristic,first-legal", "--deals", "1", "--no-progress"]
    assert doudizhu.run([*argv, "--json", str(out), "--plot", str(png)]) == 0
    rep = json.loads(out.read_text())
    # the heuristic wins both games, as landlord and as the peasants
    assert rep["pairs"][0]["both"]["wp"]["mean"] == 1.0
    assert [(r["bot"], r["games"]) for r in rep["ratings"]] == [("heuristic", 2), ("first-legal", 2)]
    assert rep["ratings"][0]["mu"] > MU > rep["ratings"][1]["mu"]
    assert png.read_bytes().startswith(PNG_SIGNATURE)


def test_the_same_bot_twice_is_refused() -> None:
    with pytest.raises(SystemExit):
        tichu.run(["--bots", "random,random", "--deals", "1"])
