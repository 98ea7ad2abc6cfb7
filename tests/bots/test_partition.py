"""The heuristic's partition finds the fewest combinations on crafted hands."""

import pytest

from pagoda.bots.tichu.hand import min_combos, partition
from pagoda.tichu import classify, to_mask


@pytest.mark.parametrize(
    ("hand", "expected"),
    [
        # straight 2-6 (5 cards) + pair of 9s (2 cards): 7 cards in 2
        ("2g 3k 4b 5r 6g 9g 9k", 2),
        # pair run 22-33-44 (6) + straight flush 5-Q in Pagoda (8): 14 cards in 2
        ("2g 2k 3g 3k 4g 4k 5b 6b 7b 8b 9b Tb Jb Qb", 2),
        # Mah Jong straight 1-5 with the Phoenix as 6 (6 cards) + the Dragon: 2
        ("Mj 2g 3k 4b 5r Ph Dr", 2),
        # nothing combines: Dog, Mah Jong, 3, 5, 7, 9, J, K, Dragon = 9 singles
        ("Dg Mj 3g 5k 7b 9r Jg Kk Dr", 9),
        # the same 9 with the Phoenix: it pairs one of them, 10 cards in 9
        ("Dg Mj 3g 5k 7b 9r Jg Kk Dr Ph", 9),
        # full house 333-88: 1; with a third 8 it is 333 + 888 (or full house + single): 2
        ("3g 3k 3b 8g 8k", 1),
        ("3g 3k 3b 8g 8k 8b", 2),
        # straight 4-9 with the Phoenix as the missing 7: 6 cards in 1
        ("4g 5k 6b 8r 9g Ph", 1),
        # pair run QQ-KK-AA with the Phoenix as the second King: 6 cards in 1
        ("Qg Qk Kg Ab Ar Ph", 1),
        # a bomb is one combination; with a lone 8 beside it, 2
        ("7g 7k 7b 7r", 1),
        ("7g 7k 7b 7r 8g", 2),
        # the greedy trap: the longest straight 2-8 leaves 6, 7, 8 as three singles (1 + 3 = 4);
        # straight 2-6 + pair run 77-88 + single 6 is 3
        ("2g 3g 4k 5b 6r 6g 7k 7b 8r 8g", 3),
    ],
)
def test_min_combos(hand: str, expected: int) -> None:
    mask = to_mask(hand)
    assert min_combos(mask) == expected
    parts = partition(mask)
    assert len(parts) == expected
    covered = 0
    for c in parts:
        assert classify(c.mask) is not None
        assert not covered & c.mask
        covered |= c.mask
    assert covered == mask
