"""Differential test: the native Dou Di Zhu core (:class:`NativeRound`) and the Python reference
(:class:`pagoda.doudizhu.Round`) side by side on random rounds of every preset.

At every step of the quick volume: the decisions, every seat's legal actions, the position, every
seat's view, ``is_over`` and the score; illegal and malformed actions raise the same error with the
same reason. The full volume (``slow``: 10,000 rounds per preset, in the slices of
:mod:`tests.native.volume`) compares the legal actions at every step and the position every few
steps. The native core is required (``make native``).
"""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pagoda import doudizhu as ddz
from pagoda.core.errors import PagodaError
from pagoda.doudizhu.native import NativeRound, lead_counts, play_random
from tests.native.volume import SLICES, seeds, slices

PRESETS = [*ddz.RULES, "classic rob=true", "four_player bomb_limits=true", "laizi wild=3"]
"""Every preset of :data:`pagoda.doudizhu.RULES`, and the options that change the flow."""

BAD_TEXTS = ["", "bid", "bid x", "bid \u0661", "bid 9", "bid 0", "play", "play 3 as", "play XYZ", "fly 3"]
BAD_TEXTS += ["call", "rob", "pass", "play 3", "play 33", "play BR", "play 3333", "play 34567"]


def outcome(r: ddz.Round | NativeRound, seat: int, action: object) -> tuple[str, str]:
    """What applying ``action`` does: the next position, or the error class and reason."""
    try:
        return ("ok", r.apply(seat, action).position())  # type: ignore[arg-type]
    except PagodaError as e:
        return (type(e).__name__, str(e))


def compare_step(r: ddz.Round, n: NativeRound, rng: random.Random) -> None:
    players = r.rules.players
    assert n.position() == r.position()
    assert n.decisions() == r.decisions()
    for seat in range(players):
        assert n.legal_actions(seat) == r.legal_actions(seat), (r.position(), seat)
        assert n.view(seat) == r.view(seat)
        assert str(n.view(seat)) == str(r.view(seat))
    assert n.is_over == r.is_over
    assert n.score() == r.score()
    assert n.record == r.record
    for text in rng.sample(BAD_TEXTS, 3):
        seat = rng.randrange(players)
        assert outcome(n, seat, text) == outcome(r, seat, text), (r.position(), seat, text)
    legal = r.legal_actions(r.to_move)
    if legal:
        a = rng.choice(legal)
        assert outcome(n, r.to_move, str(a)) == outcome(r, r.to_move, str(a))
        other = (r.to_move + 1) % players
        assert outcome(n, other, a) == outcome(r, other, a)


def lockstep(seed: int, rules: ddz.Rules, full: bool) -> int:
    """Play the reference and the native round side by side; the number of positions compared.

    ``full``: every check of :func:`compare_step` at every step. Otherwise (the full volume, kept
    affordable: the reference's laizi move generation is slow) the legal actions every fourth step
    and the position every eighth, the record and the score at the end; the actions are chosen
    from the native list, and the reference applies each of them (so a native action the
    reference refuses fails the test).
    """
    rng = random.Random(seed)
    r = ddz.Round.new(seed, rules)
    n = NativeRound.new(seed, rules)
    compared = 0
    step = 0
    while True:
        if full:
            compare_step(r, n, rng)
            compared += 1
        elif step % 8 == 0 or r.is_over:
            assert n.position() == r.position()
            compared += 1
        if r.is_over:
            break
        seat = r.to_move
        legal = n.legal_actions(seat)
        if full or step % 4 == 0:
            assert legal == r.legal_actions(seat), r.position()
        a = rng.choice(legal)
        r = r.apply(seat, a)
        n = n.apply(seat, a if rng.random() < 0.5 else str(a))
        step += 1
    assert n.is_over
    assert n.score() == r.score()
    assert n.record == r.record
    return compared


@pytest.mark.parametrize("preset", PRESETS)
def test_random_rounds_quick(preset: str) -> None:
    rules = ddz.parse_rules(preset)
    compared = sum(lockstep(seed, rules, full=True) for seed in range(12))
    assert compared >= 12 * 20


@pytest.mark.slow
@pytest.mark.parametrize("part", slices())
@pytest.mark.parametrize("preset", PRESETS)
def test_random_rounds_full(preset: str, part: int) -> None:
    rules = ddz.parse_rules(preset)
    compared = sum(lockstep(seed, rules, full=False) for seed in seeds(part))
    assert compared >= 50_000 // SLICES  # (>= 5 compared steps a round)


def test_from_position_and_reference_agree() -> None:
    r = ddz.Round.new(7).apply(0, "pass") if ddz.Round.new(7).to_move == 0 else ddz.Round.new(7)
    n = NativeRound.from_position(r.position())
    assert n.position() == r.position()
    assert n == ddz.Round.from_position(r.position())
    assert repr(n) == "NativeRound.from_position(" + repr(r.position()) + ")"


def test_other_reading_of_the_same_cards_is_accepted() -> None:
    # 333444555666 leads as a plane; as a plane with solos it is another legal reading
    r = ddz.Round.from_hands(["333444555666", "4", "5"], landlord=0)
    n = NativeRound.from_hands(["333444555666", "4", "5"], landlord=0)
    other = ddz.Action.from_text("play plane_solo 5 333444555666")
    assert other not in n.legal_actions(0)
    assert n.apply(0, other).position() == r.apply(0, other).position()


def test_rollouts_and_batched_rounds() -> None:
    n = NativeRound.new(3)
    scores = n.rollouts(50, seed=1)
    assert scores.shape == (50, 3)
    assert (scores.sum(axis=1) == 0).all()
    assert (scores != 0).all()
    for preset in PRESETS:
        rules = ddz.parse_rules(preset)
        s, steps = play_random(200, rules, seed=5)
        assert s.shape == (200, rules.players)
        assert (s.sum(axis=1) == 0).all()
        assert (s != 0).all()
        assert steps > 200 * 10


def test_lead_counts_match_the_reference() -> None:
    rng = random.Random(1)
    for preset in PRESETS:
        rules = ddz.parse_rules(preset)
        wild = "3456789TJQKA2".index(rules.wild) if len(rules.wild) == 1 else -1
        hands = []
        for seed in range(40):
            d = ddz.Round.new(seed, rules).hands
            hands.append(d[rng.randrange(rules.players)])
        counts = lead_counts(hands, rules, wild)
        assert list(counts) == [len(ddz.legal_plays(h, None, rules, wild)) for h in hands]


@pytest.mark.parametrize("preset", PRESETS)
def test_new_deals_the_reference_cards(preset: str) -> None:
    rules = ddz.parse_rules(preset)
    for seed in [*range(100), 2**47 + 11, 10**30, -3]:
        n = NativeRound.new(seed, rules)
        r = ddz.Round.new(seed, rules)
        assert n.position() == r.position()
        assert n.record == r.record
        assert (
            NativeRound.new(seed, rules, first=1).position() == ddz.Round.new(seed, rules, first=1).position()
        )


def test_pickles_and_reads_reference_attributes() -> None:
    import copy
    import pickle

    n = NativeRound.new(9)
    while n.phase is ddz.Phase.AUCTION:
        n = n.apply(n.to_move, n.legal_actions()[-1])
    r = ddz.replay(n.record)
    back = pickle.loads(pickle.dumps(n))
    assert isinstance(back, NativeRound)
    assert back.position() == n.position()
    assert back.record == n.record
    assert copy.deepcopy(n).position() == n.position()
    assert (n.landlord, n.hands, n.kitty, n.spring) == (r.landlord, r.hands, r.kitty, r.spring)
    assert n.hand(n.landlord) == r.hand(r.landlord)
    with pytest.raises(AttributeError, match="_nothing"):
        _ = n._nothing


_FUZZ_STATES: dict[tuple[str, int], tuple[ddz.Round, NativeRound]] = {}


def _fuzz_state(preset: str, steps: int) -> tuple[ddz.Round, NativeRound]:
    key = (preset, steps)
    if key not in _FUZZ_STATES:
        rules = ddz.parse_rules(preset)
        rng = random.Random(steps)
        r = ddz.Round.new(steps, rules)
        for _ in range(steps):
            if r.is_over:
                break
            r = r.apply(r.to_move, rng.choice(r.legal_actions(r.to_move)))
        _FUZZ_STATES[key] = (r, NativeRound.from_position(r.position()))
    return _FUZZ_STATES[key]


@settings(max_examples=300, deadline=None)
@given(
    st.sampled_from(PRESETS),
    st.integers(0, 40),
    st.integers(0, 3),
    st.one_of(
        st.text(max_size=20),
        st.builds(
            lambda verb, cards: f"{verb} {cards}",
            st.sampled_from(["play", "bid", "pass", "call", "rob", "PLAY", "play  "]),
            st.text(alphabet="3456789TJQKA2BR10 asx", max_size=16),
        ),
    ),
)
def test_any_text_gets_the_reference_answer(preset: str, steps: int, seat: int, text: str) -> None:
    # arbitrary text: the same next position, or the same error class and reason, as the reference
    r, n = _fuzz_state(preset, steps)
    seat %= r.rules.players
    assert outcome(n, seat, text) == outcome(r, seat, text)


def test_satisfies_the_one_protocol() -> None:
    from pagoda.core import GameState

    state: GameState = NativeRound.new(4)
    assert isinstance(state, GameState)
    assert isinstance(ddz.new_round(4, engine="native"), NativeRound)
    assert isinstance(ddz.new_round(4, engine="python"), ddz.Round)
    assert ddz.new_round(4, engine="native").position() == ddz.new_round(4, engine="python").position()
