"""Differential test: the native Tichu core (:class:`NativeRound`) and the Python reference
(:class:`pagoda.tichu.Round`) side by side on random rounds of every preset and option.

At every step of the quick volume: the position, the decisions, every seat's legal actions (as
lists of notation, in order), every seat's view, ``is_over``, the score and the card points;
illegal, out-of-turn and malformed actions raise the same error with the same reason. The full
volume (``slow``: 10,000 rounds per preset, in the slices of :mod:`tests.native.volume`)
compares the legal actions of the seat that acts at every step and the position every fourth
step, the record and the score at the end. The count
files under ``tests/tichu/counts`` are checked against the native move generator. The native
core is required (``make native``).
"""

import pickle
import random
from collections import Counter
from typing import Any

import pytest

from pagoda import tichu
from pagoda.core.errors import PagodaError
from pagoda.tichu import Round, Rules
from pagoda.tichu.native import NativeRound, lead_counts, play_random, plays
from pagoda.tichu.round import Phase
from tests.native.volume import SLICES, seeds, slices
from tests.tichu.test_counts import (
    COMBO_BLOCKS,
    DEALS,
    ROUND_CASES,
    Block,
    RoundCase,
    core_top,
    parse_kinds,
    run_step,
)

PRESETS = [
    "standard",
    "bsw",
    "standard one_call_per_team=true",
    "standard wish_required=true",
    "standard small_tichu_after_exchange_only=true",
    "bsw one_call_per_team=true wish_required=true small_tichu_after_exchange_only=true",
]
"""Every preset of :data:`pagoda.tichu.RULES`, and every option that changes a round."""

BAD_TEXTS = ["", "play", "play Xx", "play 2g 2g", "pass", "take", "no-bomb", "tichu", "grand", "no-grand"]
BAD_TEXTS += [
    "give-dragon 1",
    "give-dragon 2",
    "give-dragon 9",
    "exchange 2g 3g",
    "fly",
    "play Dg",
    "play Mj wish 7",
]
BAD_TEXTS += ["play Ph", "play Dr", "play 2g 2k 2b 2r", "play Mj 2g 3g 4g 5g"]


def outcome(r: Any, seat: Any, action: object) -> tuple[str, str]:
    """What applying ``action`` does: the next position, or the error class and reason."""
    try:
        return ("ok", r.apply(seat, action).position())
    except PagodaError as e:
        return (type(e).__name__, str(e))


def texts(actions: Any) -> list[str]:
    return [str(a) for a in actions]


def same_legal(n: NativeRound, r: Round, seat: int) -> None:
    """The seat's legal actions, the same in the same order (exchanges by length and ends)."""
    mine, theirs = n.legal_actions(seat), r.legal_actions(seat)
    assert len(mine) == len(theirs), (r.position(), seat)
    if r.phase is Phase.EXCHANGE and len(theirs) > 10:
        assert texts(mine[:4]) == texts(theirs[:4])
        assert texts(mine[-4:]) == texts(theirs[-4:])
    else:
        assert texts(mine) == texts(theirs), (r.position(), seat)


def compare_step(r: Round, n: NativeRound, rng: random.Random) -> None:
    assert n.position() == r.position()
    assert [(d.seat, d.kind, len(d.actions)) for d in n.decisions()] == [
        (d.seat, d.kind, len(d.actions)) for d in r.decisions()
    ]
    for seat in range(4):
        same_legal(n, r, seat)
        assert n.view(seat) == r.view(seat)
        assert n.view(seat).text() == r.view(seat).text()
    assert (n.phase, n.to_move, n.window, n.wish, n.is_trick_complete) == (
        r.phase,
        r.to_move,
        r.window,
        r.wish,
        r.is_trick_complete,
    )
    assert n.is_over == r.is_over
    if r.is_over:
        assert n.score() == r.score()
        assert n.card_points() == r.card_points()
    for text in rng.sample(BAD_TEXTS, 2):
        seat = rng.randrange(4)
        assert outcome(n, seat, text) == outcome(r, seat, text), (r.position(), seat, text)
    if r.decisions():
        d = rng.choice(r.decisions())
        a = d.actions[rng.randrange(len(d.actions))]
        other = rng.randrange(4)
        assert outcome(n, other, a) == outcome(r, other, a), (r.position(), other, str(a))
        assert outcome(n, other, str(a)) == outcome(r, other, str(a))


def lockstep(seed: int, rules: Rules, full: bool) -> int:
    """Play the reference and the native round side by side; the number of positions compared.

    ``full``: every check of :func:`compare_step` at every step. Otherwise the legal actions of
    the seat that acts at every step and the position every fourth, the record and the score at
    the end. Mostly the first seat the round asks acts (as ``pagoda bench`` plays), sometimes
    another seat asked, or any seat with something to do (a Tichu call, a bomb out of turn);
    the action is chosen from the native list, and applied as the value or as its text.
    """
    rng = random.Random(seed)
    r = Round.new(seed, rules)
    n = NativeRound.new(seed, rules)
    compared = 0
    step = 0
    while True:
        if full:
            compare_step(r, n, rng)
            compared += 1
        elif step % 4 == 0 or r.is_over:
            assert n.position() == r.position()
            compared += 1
        if r.is_over:
            break
        decisions = n.decisions()
        seat = decisions[0].seat
        roll = rng.random()
        if roll < 0.1:
            seat = rng.choice(decisions).seat
        elif roll < 0.15:
            seat = rng.choice([s for s in range(4) if n.legal_actions(s)] or [seat])
        legal = n.legal_actions(seat)
        if not full:
            same_legal(n, r, seat)
        a = legal[rng.randrange(len(legal))]
        r = r.apply(seat, a)
        n = n.apply(seat, a if rng.random() < 0.7 else str(a))
        step += 1
    assert n.is_over
    assert n.score() == r.score()
    assert n.record == r.record
    assert str(n.record) == str(r.record)
    return compared


@pytest.mark.parametrize("preset", PRESETS)
def test_random_rounds_quick(preset: str) -> None:
    rules = Rules.parse(preset)
    compared = sum(lockstep(seed, rules, full=True) for seed in range(4))
    compared += sum(lockstep(100 + seed, rules, full=False) for seed in range(20))
    assert compared >= 4 * 60


@pytest.mark.slow
@pytest.mark.parametrize("part", slices())
@pytest.mark.parametrize("preset", PRESETS)
def test_random_rounds_full(preset: str, part: int) -> None:
    rules = Rules.parse(preset)
    positions = 0
    for seed in seeds(part):
        positions += lockstep(seed, rules, full=False)
    # (a round has 30-40 positions: the 10,000 rounds hold >= 100,000, 5,000 in every slice)
    assert positions >= 100_000 // SLICES


def test_same_deal_as_the_reference() -> None:
    for seed in (0, 1, 7, 2**40 + 3, -5, 10**30):
        assert NativeRound.new(seed).position() == Round.new(seed).position()
        assert NativeRound.new(seed).record == Round.new(seed).record
    assert NativeRound.new().phase is Phase.GRAND_TICHU  # (no seed: the reference deals)


def test_from_position_pickle_and_repr() -> None:
    r = Round.new(9)
    for seat in range(4):
        r = r.apply(seat, "no-grand")
    n = NativeRound.from_position(r.position())
    assert n.position() == r.position()
    assert n == Round.from_position(r.position())
    assert repr(n) == "NativeRound.from_position(" + repr(r.position()) + ")"
    again = pickle.loads(pickle.dumps(n))
    assert isinstance(again, NativeRound)
    assert again.position() == n.position()
    assert hash(n) == hash(Round.from_position(r.position()))


def test_listed_actions_are_the_references_shared_values() -> None:
    r = NativeRound.from_hands(
        [
            "Mj 2g 3g 4g 5g 6g 7g 8g 9g Tg Jg Qg Kg Ag",
            "Dg 2k 3k 4k 5k 6k 7k 8k 9k Tk Jk Qk Kk Ak",
            "Ph 2b 3b 4b 5b 6b 7b 8b 9b Tb Jb Qb Kb Ab",
            "Dr 2r 3r 4r 5r 6r 7r 8r 9r Tr Jr Qr Kr Ar",
        ]
    )
    ref = Round.from_hands([r.hand(s) for s in range(4)])
    mine, theirs = r.legal_actions(0), ref.legal_actions(0)
    assert mine[0] is theirs[0]  # the Mah Jong led: one shared value
    assert mine[len(mine) - 1] is mine[-1]  # made once, then shared
    assert mine == theirs
    assert list(mine) == list(theirs)
    with pytest.raises(IndexError):
        mine[len(mine)]
    after = r.apply(0, mine[0])
    assert after.history[2] is mine[0]  # the history keeps the value applied
    assert r.to_move == 0
    assert after.to_move == 1


def test_illegal_and_odd_seats_answer_as_the_reference() -> None:
    r, n = Round.new(4), NativeRound.new(4)
    for seat in (-1, 4, 0.0, True, "0"):
        assert outcome(n, seat, "no-grand") == outcome(r, seat, "no-grand")
    with pytest.raises(PagodaError):
        n.legal_actions(7)
    with pytest.raises(PagodaError):
        n.score()


@pytest.mark.parametrize("case", ROUND_CASES, ids=str)
def test_round_counts_natively(case: RoundCase) -> None:
    state: Any = NativeRound.from_hands(DEALS[case.deal])
    for number, text in case.steps:
        state, failure = run_step(state, text)
        assert failure is None, f"rounds.txt:{number}: {failure}"


@pytest.mark.parametrize("block", [b for b in COMBO_BLOCKS if "hand" in b.keys], ids=str)
def test_combination_counts_natively(block: Block) -> None:
    k = block.keys
    top = core_top(k["on"])
    found = plays(k["hand"], on=top)
    assert len(found) == int(k["count"]), block
    if "kinds" in k:
        assert dict(Counter(c.kind for c in found)) == parse_kinds(k["kinds"]), block
    assert found == tichu.plays(k["hand"], on=top)
    assert plays(k["hand"], top, phoenix_choice=True) == tichu.plays(k["hand"], top, phoenix_choice=True)


def test_move_generation_on_random_hands() -> None:
    rng = random.Random(5)
    deck = list(range(56))
    for _ in range(300):
        hand = sum(1 << c for c in rng.sample(deck, rng.randrange(1, 15)))
        others = [c for c in deck if not hand >> c & 1]
        tops: list[Any] = [None]
        for size in (1, 2, 3, 5, 6):
            found = tichu.classify(sum(1 << c for c in rng.sample(others, size)))
            if found is not None:
                tops.append(found)
        for top in tops:
            for choice in (False, True):
                assert plays(hand, top, choice) == tichu.plays(hand, top, choice), (hand, top)
    hands = [sum(1 << c for c in rng.sample(deck, 14)) for _ in range(50)]
    assert list(lead_counts(hands)) == [len(tichu.plays(h)) for h in hands]


def test_batched_rounds_and_rollouts() -> None:
    scores, steps = play_random(200, seed=3)
    assert scores.shape == (200, 2)
    assert steps > 200 * 50
    totals = scores.sum(axis=1)
    assert all(t % 5 == 0 for t in totals)  # card points in fives, calls in hundreds
    r = NativeRound.new(11)
    while r.phase is not Phase.PLAY:
        d = r.decisions()[0]
        r = r.apply(d.seat, d.actions[-1])
    out = r.rollouts(50, 1)
    assert out.shape == (50, 2)
    assert (out == r.rollouts(50, 1)).all()  # one seed, one answer
    assert len({tuple(row) for row in out}) > 1


def test_new_round_picks_the_engine() -> None:
    assert isinstance(tichu.new_round(4, engine="native"), NativeRound)
    assert isinstance(tichu.new_round(4, engine="python"), Round)
    assert tichu.new_round(4, engine="native").position() == tichu.new_round(4, engine="python").position()
