"""Move generation: every legal play from a hand, one generator per kind in a dispatch table.

A lead may be any combination the hand holds (never a pass); a follow must beat the play on the
table: the same kind and length with a higher main rank, or a bomb, or the rocket. Each distinct set
of cards is listed once (with the reading :func:`~pagoda.doudizhu.combos.best_reading` gives it);
with wild cards, once per set of cards and reading.

>>> from pagoda.doudizhu.cards import parse_cards
>>> from pagoda.doudizhu.rules import RULES
>>> [str(p) for p in plays(parse_cards("3334"), rules=RULES["classic"])]
['3', '4', '33', '333', '3334']
>>> on = plays(parse_cards("5"), rules=RULES["classic"])[0]
>>> [str(p) for p in plays(parse_cards("34BR"), on=on, rules=RULES["classic"])]
['B', 'R', 'BR']
"""

from collections.abc import Callable, Sequence
from functools import lru_cache

from pagoda.doudizhu.cards import ACE, JOKER_B, JOKER_R, NUM_RANKS, ONE, Cards, counts_of, parse_mask
from pagoda.doudizhu.combos import (
    BOMB,
    CHAIN,
    FOUR_TWO_PAIR,
    FOUR_TWO_SOLO,
    PAIR,
    PAIR_CHAIN,
    PLANE,
    PLANE_PAIR,
    PLANE_SOLO,
    PREFERENCE,
    ROCKET,
    SOLO,
    TRIO,
    TRIO_PAIR,
    TRIO_SOLO,
    Combo,
    beats,
    bomb_order,
)
from pagoda.doudizhu.rules import RULES, Rules
from pagoda.doudizhu.wild import as_played
from pagoda.doudizhu.wildgen import fast_wild_plays, supported

Generator = Callable[[list[int], Rules, int, int], list[Combo]]
"""A kind's generator: (counts per rank, rules, lowest main rank index allowed, length or 0)."""

_BOTH_JOKERS_SHIFT = (5 * JOKER_B, 5 * JOKER_R)

# Tables made once: the combinations without kickers, by rank index (and start, length).
_SOLO = [Combo(SOLO, i + 3, 1, ONE[i], ONE[i]) for i in range(NUM_RANKS)]
_PAIR = [Combo(PAIR, i + 3, 1, 2 * ONE[i], 2 * ONE[i]) for i in range(NUM_RANKS)]
_TRIO = [Combo(TRIO, i + 3, 1, 3 * ONE[i], 3 * ONE[i]) for i in range(NUM_RANKS)]
_BOMB = {
    (k, i): Combo(BOMB, i + 3, 1, k * ONE[i], k * ONE[i], bomb_order(k, i))
    for k in range(4, 9)
    for i in range(JOKER_B)
}


def _run_mask(s: int, length: int, per: int) -> int:
    return sum(per * ONE[i] for i in range(s, s + length))


_RUN_KIND = {1: CHAIN, 2: PAIR_CHAIN, 3: PLANE}
_RUNS = {
    (per, s, length): Combo(
        _RUN_KIND[per], s + length + 2, length, _run_mask(s, length, per), _run_mask(s, length, per)
    )
    for per in (1, 2, 3)
    for s in range(ACE + 1)
    for length in range(1, ACE + 2 - s)
}


@lru_cache(maxsize=1 << 16)
def _combo(kind: str, rank: int, length: int, mask: int) -> Combo:
    """The combination (kind, rank, length, mask) without wild cards, made once and shared."""
    return Combo(kind, rank, length, mask, mask)


def _both_jokers(mask: int) -> bool:
    return bool((mask >> 65) & 31) and bool((mask >> 70) & 31)


def _choose(cands: list[tuple[int, int]], need: int, unit: int) -> list[int]:
    """Packed multisets of ``need`` units from ``cands`` = [(rank index, most units)]."""
    if need == 1:
        return [ONE[r] * unit for r, _ in cands]
    if need == 2:
        units = [ONE[r] * unit for r, _ in cands]
        out = [a + b for i, a in enumerate(units) for b in units[i + 1 :]]
        out += [2 * units[i] for i, (_, most) in enumerate(cands) if most >= 2]
        return out
    out = []

    def rec(i: int, need: int, acc: int) -> None:
        if need == 0:
            out.append(acc)
            return
        if i == len(cands):
            return
        r, most = cands[i]
        one = ONE[r] * unit
        for k in range(min(most, need) + 1):
            rec(i + 1, need - k, acc + one * k)

    rec(0, need, 0)
    return out


def _solo_cands(avail: list[int], lo: int, hi: int, rules: Rules, plane: bool) -> list[tuple[int, int]]:
    cap_same = rules.kicker_max_same if rules.solo_kickers_same_rank else 1
    out = []
    for k in range(NUM_RANKS):
        n = avail[k]
        if not n or (lo <= k <= hi and not rules.kicker_own_rank):
            continue
        cap = min(n, cap_same)
        if plane and not rules.kickers_extend_plane and (k == lo - 1 or k == hi + 1) and k <= ACE:
            cap = min(cap, 2)
        out.append((k, cap))
    return out


def _pair_cands(avail: list[int], lo: int, hi: int, rules: Rules) -> list[tuple[int, int]]:
    out = []
    for k in range(NUM_RANKS):
        n = avail[k]
        if n < 2 or (lo <= k <= hi and not rules.kicker_own_rank):
            continue
        units = min(n, rules.kicker_max_same) // 2
        if not rules.pair_kickers_same_rank:
            units = min(units, 1)
        if units:
            out.append((k, units))
    return out


def _kickers(
    avail: list[int], lo: int, hi: int, rules: Rules, need: int, pairs: bool, plane: bool
) -> list[int]:
    if pairs:
        found = _choose(_pair_cands(avail, lo, hi, rules), need, 2)
    else:
        found = _choose(_solo_cands(avail, lo, hi, rules, plane), need, 1)
    if rules.kicker_rocket:
        return found
    return [m for m in found if not _both_jokers(m)]


def gen_solo(c: list[int], rules: Rules, above: int, length: int) -> list[Combo]:
    """Solos above rank index ``above``."""
    return [_SOLO[i] for i in range(above + 1, NUM_RANKS) if c[i]]


def gen_pair(c: list[int], rules: Rules, above: int, length: int) -> list[Combo]:
    """Pairs above rank index ``above`` (two jokers of one colour pair up with two packs)."""
    return [_PAIR[i] for i in range(above + 1, NUM_RANKS) if c[i] >= 2]


def gen_trio(c: list[int], rules: Rules, above: int, length: int) -> list[Combo]:
    """Trios above rank index ``above``."""
    return [_TRIO[i] for i in range(above + 1, JOKER_B) if c[i] >= 3]


@lru_cache(maxsize=1 << 14)
def _runs_of(pattern: int, per: int, least: int) -> tuple[Combo, ...]:
    """Every run of at least ``least`` in a pattern of ranks (bit ``i``: rank index ``i`` has ``per``)."""
    found: list[Combo] = []
    starts = pattern
    for _ in range(least - 1):
        starts &= starts >> 1  # bit i: ranks i .. i + the steps so far all in the pattern
    for s in range(ACE + 1) if starts else ():  # most patterns of a hand in play have no run
        if not pattern >> s & 1:
            continue
        e = s
        while e + 1 <= ACE and pattern >> (e + 1) & 1:
            e += 1
        found.extend(_RUNS[per, s, n] for n in range(least, e - s + 2))
    return tuple(found)


def _gen_run(c: list[int], rules: Rules, above: int, length: int, per: int, least: int) -> list[Combo]:
    pattern = 0
    for i in range(ACE + 1):
        if c[i] >= per and (rules.bomb_head_chains or c[i] != 4 or (i and c[i - 1] >= per)):
            pattern |= 1 << i
    found: Sequence[Combo] = _runs_of(pattern, per, least)
    if not rules.bomb_head_chains:
        # OpenSpiel starts no chain at a rank of which the hand holds four
        found = [r for r in found if c[r.rank - 3 - r.length + 1] != 4]
    if length:
        return [r for r in found if r.length == length and r.rank - 3 > above]
    if above >= 0:
        return [r for r in found if r.rank - 3 > above]
    return list(found)


def gen_chain(c: list[int], rules: Rules, above: int, length: int) -> list[Combo]:
    """Chains (at least ``chain_min`` consecutive solos, 3..A) topped above ``above``."""
    return _gen_run(c, rules, above, length, 1, rules.chain_min)


def gen_pair_chain(c: list[int], rules: Rules, above: int, length: int) -> list[Combo]:
    """Pair chains topped above ``above``."""
    return _gen_run(c, rules, above, length, 2, rules.pair_chain_min)


def gen_plane(c: list[int], rules: Rules, above: int, length: int) -> list[Combo]:
    """Planes without kickers topped above ``above``."""
    return _gen_run(c, rules, above, length, 3, rules.plane_min)


_TRIO_WITH = {
    (unit, t, k): Combo(
        TRIO_SOLO if unit == 1 else TRIO_PAIR,
        t + 3,
        1,
        3 * ONE[t] + unit * ONE[k],
        3 * ONE[t] + unit * ONE[k],
    )
    for unit in (1, 2)
    for t in range(JOKER_B)
    for k in range(NUM_RANKS)
}


def _gen_trio_with(c: list[int], rules: Rules, above: int, kind: str, unit: int) -> list[Combo]:
    out: list[Combo] = []
    own = rules.kicker_own_rank
    kickers = [k for k in range(NUM_RANKS) if c[k] >= unit]
    for t in range(above + 1, JOKER_B):
        if c[t] < 3:
            continue
        out += [_TRIO_WITH[unit, t, k] for k in kickers if k != t]
        if own and c[t] - 3 >= unit:
            out.append(_TRIO_WITH[unit, t, t])
    return out


def gen_trio_solo(c: list[int], rules: Rules, above: int, length: int) -> list[Combo]:
    """Trio + one card."""
    return _gen_trio_with(c, rules, above, TRIO_SOLO, 1)


def gen_trio_pair(c: list[int], rules: Rules, above: int, length: int) -> list[Combo]:
    """Trio + a pair."""
    return _gen_trio_with(c, rules, above, TRIO_PAIR, 2)


def _gen_plane_with(
    c: list[int], rules: Rules, above: int, length: int, kind: str, pairs: bool
) -> list[Combo]:
    out = []
    least = max(rules.plane_min, 1)
    for s in range(ACE + 1):
        if c[s] < 3:
            continue
        e = s
        while e + 1 <= ACE and c[e + 1] >= 3:
            e += 1
        lengths = [length] if length else range(least, e - s + 2)
        for n in lengths:
            if n < least or s + n - 1 > e or s + n - 1 <= above:
                continue
            run = _RUNS[3, s, n].mask
            avail = c.copy()
            for i in range(s, s + n):
                avail[i] -= 3
            out += [
                _combo(kind, s + n + 2, n, run + km)
                for km in _kickers(avail, s, s + n - 1, rules, n, pairs, True)
            ]
    return out


def gen_plane_solo(c: list[int], rules: Rules, above: int, length: int) -> list[Combo]:
    """Planes with as many solos as trios."""
    return _gen_plane_with(c, rules, above, length, PLANE_SOLO, False)


def gen_plane_pair(c: list[int], rules: Rules, above: int, length: int) -> list[Combo]:
    """Planes with as many pairs as trios."""
    return _gen_plane_with(c, rules, above, length, PLANE_PAIR, True)


def _gen_four_with(c: list[int], rules: Rules, above: int, kind: str, pairs: bool) -> list[Combo]:
    out = []
    for f in range(above + 1, JOKER_B):
        if c[f] < 4:
            continue
        avail = c.copy()
        avail[f] -= 4
        base = 4 * ONE[f]
        out += [_combo(kind, f + 3, 1, base + km) for km in _kickers(avail, f, f, rules, 2, pairs, False)]
    return out


def gen_four_two_solo(c: list[int], rules: Rules, above: int, length: int) -> list[Combo]:
    """Four + two solos."""
    return _gen_four_with(c, rules, above, FOUR_TWO_SOLO, False)


def gen_four_two_pair(c: list[int], rules: Rules, above: int, length: int) -> list[Combo]:
    """Four + two pairs."""
    return _gen_four_with(c, rules, above, FOUR_TWO_PAIR, True)


def gen_bombs(c: list[int], rules: Rules, above_order: int) -> list[Combo]:
    """Bombs (4 to ``max_bomb`` of a kind) stronger than ``above_order``."""
    out: list[Combo] = []
    if max(c[:JOKER_B]) < 4:
        return out
    for i in range(JOKER_B):
        n = c[i]
        if n >= 4:
            for k in range(4, min(n, rules.max_bomb) + 1):
                b = _BOMB[k, i]
                if b.order > above_order:
                    out.append(b)
    return out


def gen_rocket(c: list[int], rules: Rules) -> list[Combo]:
    """The rocket, if the hand holds every joker of it."""
    d = rules.rocket_count
    if c[JOKER_B] >= d and c[JOKER_R] >= d:
        m = d * (ONE[JOKER_B] + ONE[JOKER_R])
        return [Combo(ROCKET, 17, 1, m, m, rules.rocket_order)]
    return []


GENERATORS: dict[str, Generator] = {
    SOLO: gen_solo,
    PAIR: gen_pair,
    TRIO: gen_trio,
    TRIO_SOLO: gen_trio_solo,
    TRIO_PAIR: gen_trio_pair,
    CHAIN: gen_chain,
    PAIR_CHAIN: gen_pair_chain,
    PLANE: gen_plane,
    PLANE_SOLO: gen_plane_solo,
    PLANE_PAIR: gen_plane_pair,
    FOUR_TWO_SOLO: gen_four_two_solo,
    FOUR_TWO_PAIR: gen_four_two_pair,
}
"""The generator of each kind but bombs and the rocket (which follow their own rules)."""


def enabled_kinds(rules: Rules) -> tuple[str, ...]:
    """The kinds with kickers that ``rules`` allows, with the plain kinds."""
    off = {
        TRIO_SOLO: not rules.trio_solo,
        PLANE_SOLO: not rules.plane_solo,
        FOUR_TWO_SOLO: not rules.four_two_solo,
        FOUR_TWO_PAIR: not rules.four_two_pair,
    }
    return tuple(k for k in GENERATORS if not off.get(k, False))


def _dedupe(found: list[Combo]) -> list[Combo]:
    seen: dict[int, Combo] = {}
    for p in found:
        old = seen.get(p.mask)
        if old is None or (PREFERENCE[p.kind], -p.rank) < (PREFERENCE[old.kind], -old.rank):
            seen[p.mask] = p
    return list(seen.values())


@lru_cache(maxsize=64)
def _enabled(rules: Rules) -> tuple[str, ...]:
    """:func:`enabled_kinds`, once per rules."""
    return enabled_kinds(rules)


_CLASHING = frozenset([PLANE, PLANE_SOLO, PLANE_PAIR, FOUR_TWO_PAIR])


def _half_tables(combo_of: Callable[[int], Combo | None]) -> tuple[list[list[Combo]], list[list[Combo]]]:
    """For each set of rank indices 0..7 and 8..14 (as bits), the combinations ``combo_of`` gives them,
    lowest rank first (each pattern's list is its lowest rank's combination and the rest's list)."""

    def table(offset: int, bits: int) -> list[list[Combo]]:
        out: list[list[Combo]] = [[]]
        for pattern in range(1, 1 << bits):
            low = pattern & -pattern
            rest = out[pattern ^ low]
            c = combo_of(offset + low.bit_length() - 1)
            out.append(rest if c is None else [c, *rest])
        return out

    return table(0, 8), table(8, NUM_RANKS - 8)


_SOLO_T = _half_tables(lambda i: _SOLO[i])
_PAIR_T = _half_tables(lambda i: _PAIR[i])
_TRIO_T = _half_tables(lambda i: _TRIO[i] if i < JOKER_B else None)
_NO_JOKERS = (1 << JOKER_B) - 1
_TO_ACE = (1 << (ACE + 1)) - 1
_WITH_ROW = [
    [[_TRIO_WITH[unit, t, k] for k in range(NUM_RANKS)].__getitem__ for t in range(JOKER_B)]
    for unit in (1, 2)
]
"""``_WITH_ROW[unit - 1][t](k)``: the trio ``t`` with ``unit`` cards of rank ``k``."""


# Which ranks of a packed hand hold at least k cards, without a loop over the ranks: adding 16 - k to
# every 5-bit count (all below 16) sets its bit 4 exactly where the count is at least k.
_ONES = sum(ONE)
_BIT4 = 16 * _ONES
_AT_LEAST = tuple(_BIT4 - k * _ONES for k in range(5))
_LOW8 = (1 << 40) - 1
"""The fields of rank indices 0..7."""


def _bit4(pattern: int) -> int:
    return sum(16 << (5 * i) for i in range(8) if pattern >> i & 1)


_RANKS_LO = {_bit4(p): p for p in range(256)}
"""Bit 4 of the fields of rank indices 0..7 -> those ranks as bits."""
_RANKS_HI = {_bit4(p): p << 8 for p in range(128)}
"""Bit 4 of the fields of rank indices 8..14, shifted down by 40 -> those ranks as bits."""
_BITS_LO = [[i for i in range(8) if p >> i & 1] for p in range(256)]
_BITS_HI = [[i + 8 for i in range(7) if p >> i & 1] for p in range(128)]


_ByBit4 = tuple[dict[int, list[Combo]], dict[int, list[Combo]]]


def _by_bit4(tables: tuple[list[list[Combo]], list[list[Combo]]]) -> _ByBit4:
    """A pair of half tables keyed by the hand's bit-4 pattern (see ``_AT_LEAST``) instead of ranks."""
    lo, hi = tables
    return {g: lo[p] for g, p in _RANKS_LO.items()}, {g: hi[p >> 8] for g, p in _RANKS_HI.items()}


_SOLO_G = _by_bit4(_SOLO_T)
_PAIR_G = _by_bit4(_PAIR_T)
_TRIO_G = _by_bit4(_TRIO_T)
_ABOVE = tuple(_BIT4 & ~((1 << (5 * (i + 1))) - 1) for i in range(-1, NUM_RANKS))
"""``_ABOVE[i + 1]``: bit 4 of the fields of the ranks above index ``i``."""


def _lead_plays(c: list[int], rules: Rules) -> list[Combo]:
    """Every lead of the counts ``c`` (no kicker of the main rank, chains from any rank), from tables."""
    mask = 0
    for i, n in enumerate(c):
        mask |= n << (5 * i)
    return _lead_plays_of(mask, c, rules)


def _lead_plays_of(hand: int, c: list[int] | None, rules: Rules) -> list[Combo]:
    """Every lead of the packed ``hand`` (its counts ``c``, or ``None`` to count them when needed)."""
    lo_of, hi_of = _RANKS_LO, _RANKS_HI
    g = (hand + _AT_LEAST[1]) & _BIT4
    p1 = lo_of[g & _LOW8] | hi_of[g >> 40]
    g = (hand + _AT_LEAST[2]) & _BIT4
    p2 = lo_of[g & _LOW8] | hi_of[g >> 40]
    g = (hand + _AT_LEAST[3]) & _BIT4
    p3 = (lo_of[g & _LOW8] | hi_of[g >> 40]) & _NO_JOKERS
    lo, hi = _SOLO_T
    found = lo[p1 & 255] + hi[p1 >> 8]
    if p2:
        lo, hi = _PAIR_T
        found += lo[p2 & 255]
        found += hi[p2 >> 8]
    if p3:
        lo, hi = _TRIO_T
        found += lo[p3 & 255]
        found += hi[p3 >> 8]
        # each trio with a kicker of every other rank that has one (or two) cards, lowest first
        bits_lo, bits_hi = _BITS_LO, _BITS_HI
        trios = bits_lo[p3 & 255] + bits_hi[p3 >> 8]
        if rules.trio_solo:
            rows = _WITH_ROW[0]
            for t in trios:
                k = p1 & ~(1 << t)
                found += map(rows[t], bits_lo[k & 255] + bits_hi[k >> 8])
        rows = _WITH_ROW[1]
        for t in trios:
            k = p2 & ~(1 << t)
            found += map(rows[t], bits_lo[k & 255] + bits_hi[k >> 8])
    found += _runs_of(p1 & _TO_ACE, 1, rules.chain_min)
    found += _runs_of(p2 & _TO_ACE, 2, rules.pair_chain_min)
    clashing: list[Combo] = []
    if p3 & (p3 >> 1) or rules.plane_min < 2:
        if c is None:
            c = counts_of(hand)
        clashing += _runs_of(p3 & _TO_ACE, 3, rules.plane_min)
        if rules.plane_solo:
            clashing += gen_plane_solo(c, rules, -1, 0)
        clashing += gen_plane_pair(c, rules, -1, 0)
    if hand & _FOURS:
        if c is None:
            c = counts_of(hand)
        if rules.four_two_solo:
            found += gen_four_two_solo(c, rules, -1, 0)
        if rules.four_two_pair:
            clashing += gen_four_two_pair(c, rules, -1, 0)
        found += gen_bombs(c, rules, -1)
    d = rules.rocket_count
    if (hand >> _JOKER_B_SHIFT) & 31 >= d and (hand >> _JOKER_R_SHIFT) & 31 >= d:
        found += gen_rocket(counts_of(hand) if c is None else c, rules)
    return found + _dedupe(clashing) if clashing else found


_JOKER_B_SHIFT = 5 * JOKER_B
_JOKER_R_SHIFT = 5 * JOKER_R


def natural_plays(c: list[int], rules: Rules, on: Combo | None) -> list[Combo]:
    """Every legal play of the counts ``c`` without wild cards (see :func:`plays`)."""
    kinds = _enabled(rules)
    found: list[Combo] = []
    if on is None and not rules.kicker_own_rank and rules.bomb_head_chains:
        return _lead_plays(c, rules)
    if on is None:
        # sets of cards with two readings only arise among these kinds (and with kickers of the main rank)
        clashing: list[Combo] = []
        for kind in kinds:
            if kind in _CLASHING or rules.kicker_own_rank:
                clashing += GENERATORS[kind](c, rules, -1, 0)
            else:
                found += GENERATORS[kind](c, rules, -1, 0)
        if rules.kicker_own_rank:
            clashing += gen_bombs(c, rules, -1)
        else:
            found += gen_bombs(c, rules, -1)
        found += gen_rocket(c, rules)
        return found + _dedupe(clashing) if clashing else found
    kind = on.kind
    if kind in (BOMB, ROCKET):
        return gen_bombs(c, rules, on.order) + [r for r in gen_rocket(c, rules) if beats(r, on)]
    if kind in kinds:
        found = GENERATORS[kind](c, rules, on.rank - 3, on.length)
        if kind in (PLANE_SOLO, PLANE_PAIR, FOUR_TWO_PAIR):
            found = _dedupe(found)
    return found + gen_bombs(c, rules, -1) + gen_rocket(c, rules)


def plays(hand: Cards | int | str, on: Combo | None = None, rules: Rules = RULES["classic"]) -> list[Combo]:
    """Every legal play of ``hand`` (cards, mask or text) on ``on`` (``None``: a lead).

    One per distinct set of cards (2 solos + 2 pairs + trio + trio_solo + trio_pair = 7):

    >>> sorted(str(c) for c in plays("33344"))
    ['3', '33', '333', '3334', '33344', '4', '44']
    """
    mask = _hand_mask(hand)
    if on is None and not rules.kicker_own_rank and rules.bomb_head_chains:
        return _lead_plays_of(mask, None, rules)
    return natural_plays(counts_of(mask), rules, on)


def _hand_mask(hand: Cards | int | str) -> int:
    if isinstance(hand, str):
        return parse_mask(hand)
    return hand if isinstance(hand, int) else hand.mask


def plays_with_wild(
    hand: Cards | int | str, wild: int, on: Combo | None = None, rules: Rules = RULES["laizi"]
) -> list[Combo]:
    """Every legal play of ``hand`` when public rank ``wild`` (3..15) is wild, one per (cards, reading)."""
    return wild_plays(_hand_mask(hand), on, rules, wild - 3)


def _substitutions(reading: Combo, need: list[int], have: list[int], spare: int, wild: int) -> list[int]:
    """The card sets that play ``reading`` (``need`` cards per rank) with ``spare`` wild cards free."""
    if need[wild] > have[wild]:
        return []
    results = [(0, 0)]  # (cards removed from the reading, wild cards used)
    for r in range(JOKER_B):
        if r == wild or not need[r]:
            continue
        low = max(0, need[r] - have[r])
        nxt = []
        for removed, used in results:
            for k in range(low, need[r] + 1):
                if used + k <= spare:
                    nxt.append((removed + k * ONE[r], used + k))
        results = nxt
        if not results:
            return []
    return [reading.mask - removed + used * ONE[wild] for removed, used in results]


def wild_plays(hand: int, on: Combo | None, rules: Rules, wild: int) -> list[Combo]:
    """Every legal play of ``hand`` when rank index ``wild`` is wild: one per (cards, reading)."""
    if not (hand >> (5 * wild)) & 31:
        return natural_plays(counts_of(hand), rules, on)
    if supported(rules):
        return fast_wild_plays(hand, on, rules, wild, _enabled(rules))
    return wild_plays_reference(hand, on, rules, wild)


def wild_plays_reference(hand: int, on: Combo | None, rules: Rules, wild: int) -> list[Combo]:
    """The plays of :func:`wild_plays` by brute force: the natural plays of a relaxed hand, filtered."""
    have = counts_of(hand)
    w = have[wild]
    if not w:
        return natural_plays(have, rules, on)
    most = 4 * rules.decks
    relaxed = [min(n + w, most) if r != wild and r < JOKER_B else n for r, n in enumerate(have)]
    out: list[Combo] = []
    seen: set[tuple[int, int]] = set()
    for reading in natural_plays(relaxed, rules, on if on is None or not on.is_bomb else None):
        need = counts_of(reading.mask)
        spare = w - need[wild]
        if spare < 0:
            continue
        short = 0  # wild cards the reading needs at the least
        for r in range(JOKER_B):
            if need[r] > have[r] and r != wild:
                short += need[r] - have[r]
        if short > spare:
            continue
        for actual in _substitutions(reading, need, have, spare, wild):
            played = as_played(reading, actual, rules, wild)
            if played is None or not beats(played, on):
                continue
            key = (played.mask, played.reading)
            if key not in seen:
                seen.add(key)
                out.append(played)
    return out


_SIMPLE_KINDS = frozenset([SOLO, PAIR, TRIO])
_FOURS = sum(0b11100 << (5 * i) for i in range(JOKER_B))
"""The bits of a packed hand that are set where a rank 3..2 has four cards or more."""


_SIMPLE_TABLES: dict[str, tuple[int, dict[int, list[Combo]], dict[int, list[Combo]]]] = {
    SOLO: (1, *_SOLO_G),
    PAIR: (2, *_PAIR_G),
    TRIO: (3, *_TRIO_G),
}


def _simple_follow(hand: int, on: Combo, rules: Rules) -> list[Combo]:
    """The plays of the packed ``hand`` on a solo, pair or trio, read from the mask directly."""
    k, lo, hi = _SIMPLE_TABLES[on.kind]
    g = (hand + _AT_LEAST[k]) & _ABOVE[on.rank - 2]
    found = lo[g & _LOW8] + hi[g >> 40]
    if hand & _FOURS or hand >> _JOKER_B_SHIFT:
        found += bombs_and_rocket(hand, rules)
    return found


def _trio_with_follow(hand: int, above: int, rules: Rules, unit: int) -> list[Combo]:
    """The plays of the packed ``hand`` on a trio with ``unit`` kicker cards (no kicker of the
    trio's own rank) of main rank index ``above``: as ``gen_trio_solo`` / ``gen_trio_pair``, then
    the bombs and the rocket."""
    found: list[Combo] = []
    g = (hand + _AT_LEAST[3]) & _ABOVE[above + 1]
    p3 = (_RANKS_LO[g & _LOW8] | _RANKS_HI[g >> 40]) & _NO_JOKERS
    if p3:
        g = (hand + _AT_LEAST[unit]) & _BIT4
        kick = _RANKS_LO[g & _LOW8] | _RANKS_HI[g >> 40]
        rows = _WITH_ROW[unit - 1]
        for t in _BITS_LO[p3 & 255] + _BITS_HI[p3 >> 8]:
            k = kick & ~(1 << t)
            found += map(rows[t], _BITS_LO[k & 255] + _BITS_HI[k >> 8])
    if hand & _FOURS or hand >> _JOKER_B_SHIFT:
        found += bombs_and_rocket(hand, rules)
    return found


def _run_follow(hand: int, on: Combo, rules: Rules, per: int) -> list[Combo]:
    """The plays of the packed ``hand`` on a chain, pair chain or plane (``per`` cards a rank) when
    any rank may head a chain: the runs of its length topped higher (as ``_gen_run``), then the
    bombs and the rocket."""
    g = (hand + _AT_LEAST[per]) & _BIT4
    pattern = (_RANKS_LO[g & _LOW8] | _RANKS_HI[g >> 40]) & _TO_ACE
    length = on.length
    full = (1 << length) - 1
    least = (rules.chain_min, rules.pair_chain_min, rules.plane_min)[per - 1]
    found = [
        _RUNS[per, s, length]
        for s in range(max(0, on.rank - 3 - length + 2), ACE - length + 2)
        if (pattern >> s) & full == full and length >= least
    ]
    if hand & _FOURS or hand >> _JOKER_B_SHIFT:
        found += bombs_and_rocket(hand, rules)
    return found


_RUN_PER_KIND = {CHAIN: 1, PAIR_CHAIN: 2, PLANE: 3}


def bombs_and_rocket(hand: int, rules: Rules) -> list[Combo]:
    """Every bomb of the packed ``hand``, then the rocket if it holds it (what beats any non-bomb)."""
    found = gen_bombs(counts_of(hand), rules, -1) if hand & _FOURS else []
    d = rules.rocket_count
    if (hand >> _JOKER_B_SHIFT) & 31 >= d and (hand >> _JOKER_R_SHIFT) & 31 >= d:
        m = d * (ONE[JOKER_B] + ONE[JOKER_R])
        found.append(Combo(ROCKET, 17, 1, m, m, rules.rocket_order))
    return found


def legal_plays(hand: int, on: Combo | None, rules: Rules, wild: int = -1, bombs: bool = True) -> list[Combo]:
    """Every legal play of the packed ``hand`` on ``on``, with rank index ``wild`` wild (-1: none).

    ``bombs=False``: without bombs and the rocket (a seat that has played all its ``bomb_limits``).
    """
    if wild >= 0:
        found = wild_plays(hand, on, rules, wild)
    elif on is None:
        if not rules.kicker_own_rank and rules.bomb_head_chains:
            found = _lead_plays_of(hand, None, rules)
        else:
            found = natural_plays(counts_of(hand), rules, None)
    elif on.kind in _SIMPLE_KINDS:
        found = _simple_follow(hand, on, rules)
    elif on.kind == TRIO_SOLO and rules.trio_solo and not rules.kicker_own_rank:
        found = _trio_with_follow(hand, on.rank - 3, rules, 1)
    elif on.kind == TRIO_PAIR and not rules.kicker_own_rank:
        found = _trio_with_follow(hand, on.rank - 3, rules, 2)
    elif on.kind in _RUN_PER_KIND and rules.bomb_head_chains:
        found = _run_follow(hand, on, rules, _RUN_PER_KIND[on.kind])
    else:
        found = natural_plays(counts_of(hand), rules, on)
    if bombs:
        return found
    return [c for c in found if c.kind != BOMB and c.kind != ROCKET]
