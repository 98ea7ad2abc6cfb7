"""Hypothesis properties of the notation, classification, comparison and records."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from pagoda.core import parse_record
from pagoda.tichu import (
    CARDS,
    Round,
    Rules,
    beats,
    classify,
    format_cards,
    parse_action,
    parse_cards,
    plays,
    readings,
    to_mask,
)
from pagoda.tichu.cards import PHOENIX_BIT, mask_indices
from pagoda.tichu.combos import BOMBS, DOG_KIND, KINDS, Combo
from pagoda.tichu.movegen import ANSWERS, has_bomb
from pagoda.tichu.round import Phase

card_lists = st.lists(st.integers(0, 55), unique=True, max_size=14).map(
    lambda xs: tuple(CARDS[x] for x in xs)
)
small_hands = st.lists(st.integers(0, 55), unique=True, min_size=1, max_size=9).map(
    lambda xs: tuple(CARDS[x] for x in xs)
)


@given(card_lists)
def test_cards_round_trip_in_order(cards: tuple[int, ...]) -> None:
    text = format_cards(cards)
    assert parse_cards(text) == cards
    assert parse_cards(text.replace(" ", "")) == cards
    assert parse_cards(text.lower()) == cards
    assert parse_cards(text.replace("T", "10")) == cards
    assert format_cards(to_mask(text)) == " ".join(sorted(text.split(), key=lambda t: parse_cards(t)[0]))


@given(small_hands, st.randoms(use_true_random=False))
def test_classification_ignores_order_and_agrees_with_readings(
    cards: tuple[int, ...], rnd: random.Random
) -> None:
    shuffled = list(cards)
    rnd.shuffle(shuffled)
    combo = classify(cards)
    assert combo == classify(shuffled)
    found = readings(cards)
    assert (combo is None) == (not found)
    if combo is not None:
        assert combo.mask == to_mask(cards)
        assert combo.length == len(cards)
        assert all(r.rank <= combo.rank for r in found)
        assert combo.is_bomb == (combo.kind in BOMBS)


@settings(max_examples=60)
@given(small_hands)
def test_every_generated_play_classifies_as_itself(cards: tuple[int, ...]) -> None:
    for combo in plays(cards):
        again = classify(combo.cards)
        assert again is not None
        assert (again.kind, again.rank, again.mask) == (combo.kind, combo.rank, combo.mask)
        assert beats(combo, None)


@settings(max_examples=60)
@given(small_hands, small_hands)
def test_plays_on_a_combo_are_exactly_the_leads_that_beat_it(
    mine: tuple[int, ...], theirs: tuple[int, ...]
) -> None:
    hand = to_mask(mine) & ~to_mask(theirs)
    tops = plays(to_mask(theirs))
    for top in tops[:6]:
        following = {(c.mask, c.kind) for c in plays(hand, top)}
        expected = set()
        for c in plays(hand):
            c = classify(c.cards, top) or c
            if beats(c, top):
                expected.add((c.mask, c.kind))
        assert following == expected
        if top.mask == PHOENIX_BIT:  # a single Phoenix beats every single but the Dragon
            continue
        for c in plays(hand, top):
            assert not beats(top, c), f"{top!r} and {c!r} beat each other"


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10**9))
def test_actions_and_records_round_trip(seed: int) -> None:
    rng = random.Random(seed)
    r = Round.new(seed, Rules.parse(rng.choice(["standard", "bsw", "standard wish_required=true"])))
    while r.phase is not Phase.OVER:
        seat, actions = r.decisions()[0].seat, r.decisions()[0].actions
        action = actions[rng.randrange(len(actions))]
        assert parse_action(str(action)) == action
        r = r.apply(seat, action)
    text = str(r.record)
    assert str(parse_record(text)) == text
    assert Rules.parse(str(r.rules)) == r.rules


def test_every_kind_but_the_dog_has_the_generator_of_its_answers() -> None:
    assert set(ANSWERS) == set(KINDS) - {DOG_KIND}


@settings(max_examples=60)
@given(small_hands, small_hands)
def test_a_kinds_generator_yields_only_that_kind_beating_the_top(
    mine: tuple[int, ...], theirs: tuple[int, ...]
) -> None:
    hand = to_mask(mine) & ~to_mask(theirs)
    for top in plays(to_mask(theirs))[:8]:
        if top.kind == DOG_KIND:
            continue
        for raw in ANSWERS[top.kind](hand, top, False):
            play = Combo(*raw)
            again = classify(play.cards, top)
            assert again is not None
            assert (again.kind, again.rank, again.mask) == (top.kind, play.rank, play.mask)
            assert beats(play, top)


@st.composite
def bomb_prone_hands(draw: st.DrawFn) -> list[int]:
    """4 to 14 cards of a few neighbouring ranks and the specials, where bombs are common."""
    lo = draw(st.integers(2, 10))
    ranks = range(lo, min(15, lo + draw(st.sampled_from((3, 5, 7)))))
    deck = [2 + (r - 2) * 4 + s for r in ranks for s in range(4)] + [0, 1, 54, 55]
    return draw(st.lists(st.sampled_from(deck), unique=True, min_size=4, max_size=min(14, len(deck))))


@settings(max_examples=400)
@given(st.one_of(card_lists, bomb_prone_hands()))
def test_has_bomb_is_whether_the_hand_holds_one(cards: list[int]) -> None:
    mask = sum(1 << c for c in cards)
    assert has_bomb(mask) == any(c.kind in BOMBS for c in plays(mask))


@given(card_lists)
def test_mask_indices_lists_the_cards_in_hand_order(cards: tuple[int, ...]) -> None:
    assert mask_indices(to_mask(cards)) == sorted(cards)
