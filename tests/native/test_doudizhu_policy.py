"""Differential test: the native Dou Di Zhu heuristic picks exactly the action the Python
``heuristic`` bot picks, gives every legal action the same score, and its playouts play exactly
the rounds the Python driver plays with the bot at every seat.

The rounds are walked on the Python reference from its own deals: each step is the bot's choice
or, one time in two, a uniformly random legal action (so the positions include odd ones: early
bombs, broken chains, peasants overtaking each other). Every decision with a choice is compared,
the auction's included, on every preset the native core plays (rob, bomb limits and a fixed wild
rank too). The native core is required (``make native``).
"""

import random

import pytest

from pagoda import doudizhu as ddz
from pagoda.bots.doudizhu.driver import play_round
from pagoda.bots.doudizhu.heuristic import HeuristicBot
from pagoda.doudizhu.native import NativeRound
from pagoda.doudizhu.round import Phase
from tests.native.test_doudizhu_native import PRESETS
from tests.native.walks import walk

BOT = HeuristicBot()


def _walk(seed: int, rules: ddz.Rules) -> list[ddz.Round]:
    """The positions with a choice of one round walked half by the bot, half at random."""
    return walk(ddz.Round.new(seed, rules), BOT, random.Random(seed), lambda r: len(r.legal_actions()) > 1)


@pytest.mark.parametrize("preset", PRESETS)
def test_the_native_heuristic_picks_and_scores_as_the_bot(preset: str) -> None:
    rules = ddz.parse_rules(preset)
    compared = bids = 0
    for seed in range(6):
        for r in _walk(7000 + seed, rules):
            (d,) = r.decisions()
            view = r.view(d.seat)
            native = NativeRound(r)
            want = BOT.decide(view, d.actions, random.Random(0))
            assert native.heuristic_action() == want, (r.position(), str(want))
            if r.phase is Phase.PLAY:
                assert native.heuristic_scores() == BOT.scores(view, d.actions), r.position()
            else:
                assert native.heuristic_scores() == []
                bids += 1
            compared += 1
    # 6 rounds of some 15-60 decisions with a choice each, one to three of them the auction's
    assert compared > 100
    assert bids >= 6


@pytest.mark.parametrize("preset", PRESETS)
def test_native_playouts_play_the_drivers_round(preset: str) -> None:
    rules = ddz.parse_rules(preset)
    for seed in range(5):
        start = ddz.Round.new(500 + seed, rules)
        want = play_round(start, [BOT] * rules.players, seed=0)
        got = NativeRound(start).heuristic_playout()
        assert got.is_over
        assert got.position() == want.position()
        assert got.score() == want.score()


@pytest.mark.parametrize("preset", ["classic", "classic rob=true", "laizi"])
def test_a_redeal_inside_a_playout_is_the_references(preset: str) -> None:
    # every seat passes deal 500 (three presets) and the bot plays the next deal of the seed
    start = ddz.Round.new(500, ddz.parse_rules(preset))
    got = NativeRound(start).heuristic_playout()
    assert got.deal_no == 2
    assert got.position() == play_round(start, [BOT] * 3, seed=0).position()


def test_a_playout_from_the_middle_of_a_round() -> None:
    r = ddz.Round.new(11, ddz.RULES["classic"])
    for _ in range(12):
        r = r.apply(r.to_move, BOT.decide(r.view(r.to_move), r.legal_actions(), random.Random(0)))
    assert r.phase is Phase.PLAY
    got = NativeRound(r).heuristic_playout()
    assert got.position() == play_round(r, [BOT] * 3).position()
    assert got.history[: len(r.history)] == r.history


def test_no_choice_once_the_round_is_over() -> None:
    r = NativeRound.from_hands(["33", "4", "5"], landlord=0).apply(0, "play 33")
    with pytest.raises(ValueError, match="the round is over"):
        r.heuristic_action()
    assert r.heuristic_playout().score() == (4, -2, -2)


def test_the_search_scores_the_same_with_native_and_python_rollouts() -> None:
    from pagoda.bots.doudizhu.search import SearchBot

    # solve_cards=0: every sample is rolled out; a fixed number of samples: the same draws
    bots = {e: SearchBot(iterations=3, solve_cards=0, rollouts=e) for e in ("native", "python")}
    searched = 0
    for r in _walk(9100, ddz.RULES["classic"]):
        (d,) = r.decisions()
        if r.phase is not Phase.PLAY:
            continue
        view = r.view(d.seat)
        candidates = bots["python"].candidates(view, d.actions)
        if len(candidates) < 2:
            continue
        scored = {e: b.evaluate(view, candidates, random.Random(searched)) for e, b in bots.items()}
        assert scored["native"] == scored["python"], r.position()
        searched += 1
    assert searched >= 10


def test_the_search_refuses_an_unknown_rollout_engine() -> None:
    from pagoda.bots.doudizhu.search import SearchBot

    with pytest.raises(ValueError, match="option rollouts must be auto, native or python, not 'rust'"):
        SearchBot(rollouts="rust")
