"""Differential test: the native heuristic and club policies pick exactly the action the Python
``heuristic`` and ``club`` bots pick, on thousands of play-phase positions of random rounds of
several presets, and their rollouts play exactly the rounds the Python driver plays with them.

The rounds are walked on the Python reference: each step is the bot's choice or, one time in
two, a uniformly random legal action (so the positions include odd ones: wishes, bombs out of
turn, calls, Dragon tricks, one-two races). At every play-phase decision the first seat asked
is the one compared. The native core is required (``make native``).
"""

import random
from typing import Any

import pytest

from pagoda.bots import Bot
from pagoda.bots.tichu.club import ClubBot
from pagoda.bots.tichu.driver import play_round, seat_rngs
from pagoda.bots.tichu.heuristic import HeuristicBot
from pagoda.bots.tichu.search import SearchBot, fast_view
from pagoda.tichu import Action, Round, Rules, View
from pagoda.tichu.native import NativeRound, from_reference
from pagoda.tichu.round import Phase
from tests.native.test_tichu_native import PRESETS
from tests.native.walks import walk

BOT = HeuristicBot()
CLUB = ClubBot()


def _walk(seed: int, rules: Rules, bot: Bot[View, Action] = BOT) -> list[Round]:
    """The play-phase positions of one round walked half by ``bot``, half at random."""
    return walk(Round.new(seed, rules), bot, random.Random(seed), lambda r: r.phase is Phase.PLAY)


@pytest.mark.parametrize("preset", PRESETS)
def test_the_native_policy_picks_the_heuristics_action(preset: str) -> None:
    rules = Rules.parse(preset)
    compared = 0
    for seed in range(40):
        for r in _walk(1000 * len(preset) + seed, rules):
            d = r.decisions()[0]
            want = BOT.decide(r.view(d.seat), d.actions, random.Random(0))
            got = from_reference(r).heuristic_action()
            assert got == want, (r.position(), d.seat, str(want), str(got))
            compared += 1
    assert compared > 1500


@pytest.mark.parametrize("preset", PRESETS)
def test_the_native_policy_picks_the_club_bots_action(preset: str) -> None:
    rules = Rules.parse(preset)
    # other options than the defaults: every option the native port takes is read
    options: dict[str, Any] = {
        "tichu_margin": 1.5,
        "tichu_max": 8,
        "shed": 1,
        "press": 2,
        "break_up": 0,
        "ace_break": 0,
        "shed_below": 0,
        "dog_margin": 2,
    }
    other = ClubBot(**options)
    compared = changed = 0
    for seed in range(40):
        for r in _walk(3000 * len(preset) + seed, rules, CLUB):
            d = r.decisions()[0]
            native = from_reference(r)
            want = CLUB.decide(r.view(d.seat), d.actions, random.Random(0))
            assert native.club_action() == want, (r.position(), d.seat, str(want))
            want_other = other.decide(r.view(d.seat), d.actions, random.Random(0))
            got_other = native.club_action(**options)
            assert got_other == want_other, (r.position(), d.seat, str(want_other))
            compared += 1
            changed += want != want_other
    assert compared > 1500
    assert changed > 20  # the options change some choices, so the port reads them


def test_native_heuristic_rollouts_play_the_python_rounds() -> None:
    for preset in PRESETS:
        rules = Rules.parse(preset)
        for seed in range(8):
            for i, r in enumerate(_walk(77 + seed, rules)):
                if i % 9:
                    continue
                end = play_round(r, [BOT] * 4, rngs=seat_rngs(seed), view_of=fast_view)
                rows = from_reference(r).rollouts(3, seed, policy="heuristic", first_out=True)
                assert rows.tolist() == [[*end.score(), end.out[0]]] * 3, r.position()


def test_native_club_rollouts_play_the_python_rounds() -> None:
    for preset in PRESETS:
        rules = Rules.parse(preset)
        for seed in range(8):
            for i, r in enumerate(_walk(91 + seed, rules, CLUB)):
                if i % 9:
                    continue
                end = play_round(r, [CLUB] * 4, rngs=seat_rngs(seed), view_of=fast_view)
                rows = from_reference(r).rollouts(2, seed, policy="club", first_out=True)
                assert rows.tolist() == [[*end.score(), end.out[0]]] * 2, r.position()


def test_rollout_policies_and_refusals() -> None:
    r = NativeRound.new(11)
    with pytest.raises(ValueError, match="play phase only"):
        r.rollouts(1, 0, policy="heuristic")
    assert r.heuristic_action() is None  # the Grand Tichu is not ported
    with pytest.raises(ValueError, match="play phase only"):
        r.rollouts(1, 0, policy="club")
    assert r.club_action() is None
    with pytest.raises(ValueError, match='no rollout policy "greedy": "random", "heuristic" or "club"'):
        r.rollouts(1, 0, policy="greedy")
    while r.phase is not Phase.PLAY:
        d = r.decisions()[0]
        r = r.apply(d.seat, d.actions[-1])
    rows = r.rollouts(20, 5, policy="random", first_out=True)
    assert rows.shape == (20, 3)
    assert (rows[:, :2] == r.rollouts(20, 5)).all()  # the same random rounds, one column more
    assert set(rows[:, 2].tolist()) <= {0, 1, 2, 3}


def test_search_with_native_rollouts_decides_as_with_python_rollouts() -> None:
    # the same determinizations, the same rollout policy: with fixed iterations, the same values
    native = SearchBot(iterations=3, width=4, solve_cards=4, search_cards=0, rollouts="native")
    python = SearchBot(iterations=3, width=4, solve_cards=4, search_cards=0, rollouts="python")
    assert (native.rollouts, python.rollouts) == ("native", "python")
    assert SearchBot().rollouts == "native"  # auto: the native core is built here
    compared = 0
    for seed in range(3):
        for i, r in enumerate(_walk(500 + seed, Rules.parse("standard"))):
            d = r.decisions()[0]
            if i % 6 or d.seat != r.to_move or len(d.actions) < 2:
                continue
            view = r.view(d.seat)
            candidates = native.candidates(view, d.actions)
            mine = native.evaluate(view, candidates, random.Random(i))
            theirs = python.evaluate(view, candidates, random.Random(i))
            assert [(s.action, s.mean, s.samples) for s in mine] == [
                (s.action, s.mean, s.samples) for s in theirs
            ]
            compared += 1
    assert compared >= 15
    assert native.rollout_count == python.rollout_count > 0
