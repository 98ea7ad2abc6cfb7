"""The reprs of cards and combinations are the notation and evaluate back (as python-chess's do)."""

import random

import pytest

import pagoda.tichu as tichu
from pagoda.core import ParseError
from pagoda.tichu import CARDS, Card, Combo, classify, plays

NS = vars(tichu)


def test_every_card_evaluates_back() -> None:
    for card in CARDS:
        assert eval(repr(card), NS) == card
    assert repr(CARDS[55]) == "Card.parse('Dr')"
    with pytest.raises(ParseError, match="one card, not 2"):
        Card.parse("2g 3g")


def test_exact_combination_reprs() -> None:
    assert repr(classify("Ak Ar Kg Kr Ph")) == "Combo.parse('full_house A Kg Kr Ak Ar Ph phoenix A')"
    assert repr(classify("Mj")) == "Combo.parse('single 1 Mj')"
    (phoenix,) = plays("Ph", on=classify("7g"))
    assert repr(phoenix) == "Combo.parse('single 7.5 Ph')"
    assert eval(repr(phoenix), NS) == phoenix
    with pytest.raises(ParseError, match="not a reading of its cards"):
        Combo.parse("pair K Ak Ar")


def test_the_combinations_met_in_random_rounds_evaluate_back() -> None:
    met = 0
    for seed in range(40):
        rng = random.Random(seed)
        r = tichu.Round.new(seed)
        while not r.is_over:
            if r.top is not None:
                assert eval(repr(r.top), NS) == r.top
                met += 1
            d = r.decisions()[0]
            r = r.apply(d.seat, d.actions[rng.randrange(len(d.actions))])
    assert met > 2000
