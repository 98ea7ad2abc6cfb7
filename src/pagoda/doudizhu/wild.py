"""Laizi (wild card) readings, and the rules that depend on the hand a play comes from.

In ``laizi`` one rank is wild: its cards may stand for any rank but the jokers (and for
themselves). A play then has cards and a reading, the combination they stand for. A bomb with wild
cards standing in is soft: it ranks below every natural bomb (``3555 < 4444`` with 3 wild) and has
exactly four cards. Four wild cards alone are a bomb of their own rank (``wild_bomb_top``: above
every bomb but the rocket). No reading holds more cards of a rank than the packs do.

>>> from pagoda.doudizhu.rules import RULES
>>> from pagoda.doudizhu.cards import parse_mask, format_mask
>>> rules = RULES["laizi"]
>>> sorted(format_mask(c.reading) for c in wild_readings(parse_mask("35678"), None, rules, 0))
['45678', '56789']
"""

from itertools import combinations_with_replacement

from pagoda.doudizhu.cards import JOKER_B, NUM_RANKS, ONE, counts_of, format_mask
from pagoda.doudizhu.combos import BOMB, CHAIN, PAIR_CHAIN, PLANE, Combo, bomb_order, readings
from pagoda.doudizhu.rules import Rules


def as_played(reading: Combo, actual: int, rules: Rules, wild: int) -> Combo | None:
    """The combination ``reading`` played with the cards ``actual``, or ``None`` if laizi forbids it."""
    soft = actual != reading.mask
    if reading.kind == BOMB:
        size = reading.size
        rank_index = reading.rank - 3
        if soft:
            if size > 4:
                return None
            if actual == 4 * ONE[wild]:
                return None
            return reading._replace(mask=actual, order=bomb_order(size, rank_index, hard=False))
        top = rules.wild_bomb_top and rank_index == wild
        return reading._replace(order=bomb_order(size, rank_index, hard=True, top=top))
    if not soft:
        return reading
    return reading._replace(mask=actual)


def _fits(reading_mask: int, rules: Rules) -> bool:
    most = 4 * rules.decks
    return all(n <= most for n in counts_of(reading_mask)[:JOKER_B])


def wild_readings(mask: int, reading: int | None, rules: Rules, wild: int) -> list[Combo]:
    """Every combination the cards ``mask`` can be played as (only as ``reading`` when given)."""
    w = (mask >> (5 * wild)) & 31
    base = mask - w * ONE[wild]
    if reading is not None:
        subs = counts_of(reading - base) if reading >= 0 else []
        diff = counts_of(reading)
        have = counts_of(base)
        ok = all(diff[r] >= have[r] for r in range(NUM_RANKS)) and diff[JOKER_B] == have[JOKER_B]
        ok = ok and diff[JOKER_B + 1] == have[JOKER_B + 1] and sum(subs) == w
        if not ok:
            return []
        candidates = [reading]
    else:
        candidates = [
            base + sum(ONE[r] for r in pick) for pick in combinations_with_replacement(range(JOKER_B), w)
        ]
    out: list[Combo] = []
    for r_mask in candidates:
        if not _fits(r_mask, rules):
            continue
        for combo in readings(r_mask, rules):
            played = as_played(combo, mask, rules, wild)
            if played is not None:
                out.append(played)
    return out


def hand_allows(combo: Combo, counts: list[int], rules: Rules) -> str | None:
    """Why the hand ``counts`` may not make this play under ``rules`` (``None``: it may)."""
    if not rules.bomb_head_chains and combo.kind in (CHAIN, PAIR_CHAIN, PLANE):
        head = combo.rank - 3 - combo.length + 1
        if counts[head] == 4:
            return (
                f"{combo}: under {rules.name} no chain starts at a rank of which the hand holds four"
                f" ({format_mask(4 * ONE[head])})"
            )
    return None
