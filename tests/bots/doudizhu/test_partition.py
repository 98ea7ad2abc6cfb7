"""The hand partition finds the fewest combinations on crafted hands; bids on crafted hands."""

import pytest

from pagoda import doudizhu as ddz
from pagoda.bots.doudizhu import HeuristicBot, min_plays, partition, strength
from pagoda.doudizhu.actions import BID

CLASSIC = ddz.RULES["classic"]


@pytest.mark.parametrize(
    ("hand", "expected"),
    [
        # nothing combines: 3 5 7 9 J K 2 are 7 solos
        ("3579JK2", 7),
        # chain 34567 (1) + trio 999 with the solo J as kicker (1) + pair 22 (1) = 3
        ("34567 999 J 22", 3),
        # 3456789 + 89: chain 3456789 (1) + solos 8 and 9 (2) = 3, or chain 34567 (1) + pairs 88 and
        # 99 (2) = 3; nothing does it in 2 (the nine cards hold no two chains): 3
        ("3456789 89", 3),
        # the greedy trap: the longest chain 3..T leaves 8 and T as solos (1 + 2 = 3); chain 34567
        # (1) + chain 89TJQ? no Q. Best is chain 3456789T (1) + 8 (1) + T (1) = 3; 34567 + 889TT does
        # not combine (889TT is nothing): 3
        ("3456789T 8 T", 3),
        # pair chain 334455 (1) + plane 666777 with the lowest two solos 9 and J as kickers (1) + 2 = 3
        ("334455 666777 9 J 2", 3),
        # the rocket (1) + bomb 8888 (1) + solo 3 (1) = 3: bombs are kept whole, never four-with-two
        ("BR 8888 3", 3),
        # two trios 555 and 999 (not consecutive) each take a kicker: 5553 + 999 4 = 2
        ("555 999 3 4", 2),
        # plane 555666 + pairs 33 and 44 as its kickers = 1
        ("555666 33 44", 1),
        # chain 3..A of 12 cards (1) + 2 (1) + black joker (1) = 3
        ("3456789TJQKA 2 B", 3),
        # two chains sharing ranks: 34567 + 56789 (2); the pair-less leftovers none = 2
        ("34567 56789", 2),
    ],
)
def test_min_plays(hand: str, expected: int) -> None:
    mask = ddz.parse_cards(hand).mask
    assert min_plays(mask, CLASSIC) == expected
    parts = partition(mask, CLASSIC)
    assert len(parts) == expected
    covered = 0
    for g in parts:
        assert ddz.classify(g.mask, CLASSIC) is not None, str(g)
        covered += g.mask
    assert covered == mask


def test_four_player_partition_keeps_big_bombs() -> None:
    rules = ddz.RULES["four_player"]
    # a bomb of six 7s (1) + the four jokers, the rocket (1) + pair 33 (1) = 3
    mask = ddz.parse_cards("777777 BBRR 33").mask
    assert min_plays(mask, rules) == 3


def _bid(hand: str) -> str:
    r = ddz.Round.from_hands([hand, "4", "5"], landlord=0)
    view = r.view(0)._replace(phase=ddz.Phase.AUCTION, landlord=None, kitty=None)
    legal = [ddz.PASS, *(ddz.Action(BID, b) for b in (1, 2, 3))]
    return str(HeuristicBot().bid(view, legal))


def test_bids_three_on_a_monster_and_passes_on_a_weak_hand() -> None:
    monster = "BR 2222 AA KKK 3456 QQ"  # rocket, a bomb of 2s, aces: 17 cards
    weak = "3 4 5 6 8 9 J Q K 3 4 6 8 T J 7 Q"  # no 2, no joker, no bomb, scattered: 17 cards
    assert len(ddz.parse_cards(monster)) == 17
    assert len(ddz.parse_cards(weak)) == 17
    assert strength(ddz.parse_cards(monster).mask, CLASSIC) > strength(ddz.parse_cards(weak).mask, CLASSIC)
    assert _bid(monster) == "bid 3"
    assert _bid(weak) == "pass"


def test_the_memo_never_serves_a_partition_made_under_other_rules() -> None:
    # CPython gives a freed Rules object's id to the next one made: keyed by id, the memo served
    # the one-pack rocket to the two-pack rules (where BR is two solos), so it keys on the options
    mask = ddz.parse_cards("BR").mask
    for preset in ["classic", "four_player"] * 50:
        rules = ddz.parse_rules(preset)
        kinds = [g.kind for g in partition(mask, rules)]
        assert kinds == (["rocket"] if preset == "classic" else ["solo", "solo"]), preset
        del rules
