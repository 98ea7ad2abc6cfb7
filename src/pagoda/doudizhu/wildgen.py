"""Laizi move generation straight from rank counts and the number of wild cards.

A play with wild cards is a reading (a combination of natural ranks) and the cards that make it:
for each rank of the reading, some of its cards come from the hand and the rest are wild cards
standing in; wild cards may also stand for their own rank. So the plays of a reading are the ways
to choose, rank by rank, how many wild cards stand in, with at most as many wild cards in all as the
hand holds. This module walks each kind's readings rank by rank and keeps, for each partial reading,
the list of ways to make it so far (``(natural cards, wild cards used)``), dropping a reading as
soon as no way to make it is left. Nothing is generated that the hand cannot make.

The result is the same list of (cards, reading) pairs as the reference generator
:func:`pagoda.doudizhu.movegen.wild_plays_reference` (which reads a relaxed hand and filters it), in
a different order; a property test holds them equal.

>>> from pagoda.doudizhu.cards import parse_mask
>>> from pagoda.doudizhu.movegen import enabled_kinds
>>> from pagoda.doudizhu.rules import RULES
>>> rules = RULES["laizi"]
>>> len(fast_wild_plays(parse_mask("3555"), None, rules, 0, enabled_kinds(rules)))
31
"""

from functools import lru_cache

from pagoda.doudizhu.cards import ACE, JOKER_B, JOKER_R, NUM_RANKS, ONE, counts_of
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
    bomb_order,
)
from pagoda.doudizhu.rules import Rules

Ways = list[tuple[int, list[int]]]
"""The ways to make a partial reading: (wild cards used, the sets of cards that make it with that many)."""
Reading = tuple[str, int, int, int, list[int]]
"""A reading found: kind, rank, length, the reading's cards, and every set of cards that plays it."""


def supported(rules: Rules) -> bool:
    """Whether :func:`fast_wild_plays` covers ``rules`` (the rest go to the reference generator)."""
    return not rules.kicker_own_rank and rules.bomb_head_chains


@lru_cache(maxsize=1 << 12)
def _row(r: int, wild: int, have: int, w: int, decks: int) -> tuple[tuple[tuple[int, int], ...], ...]:
    """The ways to make 0, 1, .. cards of rank ``r`` holding ``have`` of it and ``w`` wild cards."""
    one_w = ONE[wild]
    most = 4 * decks
    row: list[list[tuple[int, int]]] = [[(0, 0)]]
    for n in range(1, max(most, decks) + 1):
        if r == wild:
            row.append([(n * one_w, n)] if n <= w else [])
        elif r >= JOKER_B:
            row.append([(n * ONE[r], 0)] if n <= have else [])
        elif n > most:
            row.append([])
        else:
            lows = range(min(n, have), max(n - w, 0) - 1, -1)
            row.append([(a * ONE[r] + (n - a) * one_w, n - a) for a in lows])
    return tuple(tuple(ways) for ways in row)


class _Hand:
    """The hand's counts, the wild rank and count, and the ways to make ``n`` cards of each rank."""

    __slots__ = ("counts", "opts", "relaxed", "rules", "w", "wild")

    def __init__(self, counts: list[int], wild: int, rules: Rules) -> None:
        self.counts = counts
        self.wild = wild
        self.rules = rules
        w = self.w = counts[wild]
        decks = rules.decks
        most = 4 * decks
        # opts[r][n]: the ways to make n cards of rank r, (cards, wild cards used), fewest wild cards
        # first; a row depends only on (rank, wild rank, cards of the rank, wild cards, packs)
        opts = []
        for r in range(NUM_RANKS):
            opts.append(_row(r, wild, counts[r], w, decks))
        self.opts = opts
        self.relaxed = [n if r == wild or r >= JOKER_B else min(n + w, most) for r, n in enumerate(counts)]

    def start(self, r: int, n: int) -> Ways:
        """The ways to make ``n`` cards of rank ``r``, grouped by wild cards used."""
        return [(v, [q]) for q, v in self.opts[r][n]]

    def extend(self, ways: Ways, r: int, n: int) -> Ways:
        """``ways`` with ``n`` cards of rank ``r`` added (no way left: an empty list)."""
        w = self.w
        more = self.opts[r][n]
        if len(more) == 1:
            q, v = more[0]
            return [(u + v, [a + q for a in ms]) for u, ms in ways if u + v <= w]
        acc: list[list[int] | None] = [None] * (w + 1)
        for u, ms in ways:
            for q, v in more:
                t = u + v
                if t > w:
                    break
                add = [a + q for a in ms]
                old = acc[t]
                if old is None:
                    acc[t] = add
                else:
                    old += add
        return [(t, ms) for t, ms in enumerate(acc) if ms]

    def kicker_cands(self, lo: int, hi: int, pairs: bool, plane: bool) -> list[tuple[int, int]]:
        """(rank, most units) of the kickers of a main part on ranks ``lo..hi`` (as the reference's)."""
        rules = self.rules
        out = []
        if pairs:
            for k, n in enumerate(self.relaxed):
                if n < 2 or lo <= k <= hi:
                    continue
                units = min(n, rules.kicker_max_same) // 2
                if not rules.pair_kickers_same_rank:
                    units = min(units, 1)
                if units:
                    out.append((k, units))
            return out
        cap_same = rules.kicker_max_same if rules.solo_kickers_same_rank else 1
        for k, n in enumerate(self.relaxed):
            if not n or lo <= k <= hi:
                continue
            cap = min(n, cap_same)
            if plane and not rules.kickers_extend_plane and (k == lo - 1 or k == hi + 1) and k <= ACE:
                cap = min(cap, 2)
            out.append((k, cap))
        return out

    def with_kickers(
        self,
        kind: str,
        rank: int,
        length: int,
        base: int,
        ways: Ways,
        lo: int,
        hi: int,
        need: int,
        pairs: bool,
        sink: list[Reading],
    ) -> None:
        """Every choice of ``need`` kickers added to the main part (``base``, ``ways``) on ``lo..hi``."""
        cands = self.kicker_cands(lo, hi, pairs, kind in (PLANE_SOLO, PLANE_PAIR))
        count = len(cands)
        extend = self.extend
        unit = 2 if pairs else 1
        no_rocket = not self.rules.kicker_rocket
        b_field, r_field = 31 * ONE[JOKER_B], 31 * ONE[JOKER_R]
        room = [0] * (count + 1)  # room[i]: the most kicker units the candidates from i on can give
        for i in range(count - 1, -1, -1):
            room[i] = room[i + 1] + cands[i][1]

        opts = self.opts
        w = self.w

        def rec(start: int, need: int, mask: int, ways: Ways) -> None:
            # the next kicker rank is cands[i] for some i >= start: one frame per rank chosen
            for i in range(start, count):
                if room[i] < need:
                    return
                r, most = cands[i]
                step = unit * ONE[r]
                for j in range(1, min(most, need - 1) + 1):
                    more = extend(ways, r, j * unit)
                    if not more:
                        break
                    rec(i + 1, need - j, mask + j * step, more)
                else:
                    if most < need:
                        continue
                    # the last kicker rank: the plays at once, without grouping them again
                    full = mask + need * step
                    if no_rocket and full & b_field and full & r_field:
                        continue
                    last = opts[r][need * unit]
                    cards = [a + q for u, ms in ways for q, v in last if u + v <= w for a in ms]
                    if cards:
                        sink.append((kind, rank, length, full, cards))

        rec(0, need, base, ways)


def _emit(out: list[Combo], kind: str, rank: int, length: int, reading: int, ways: Ways) -> None:
    out += [Combo(kind, rank, length, a, reading, 0) for _, ms in ways for a in ms]


def _gen_simple(hand: _Hand, above: int, n: int, kind: str, top: int, out: list[Combo]) -> None:
    opts = hand.opts
    for r in range(above + 1, top):
        reading = n * ONE[r]
        out += [Combo(kind, r + 3, 1, q, reading, 0) for q, _ in opts[r][n]]


def _gen_runs(
    hand: _Hand, per: int, least: int, above: int, length: int, kind: str, out: list[Combo] | None
) -> list[tuple[int, int, int, Ways]]:
    """Runs of ``per`` cards a rank (3..A): into ``out``, or returned as (start, length, mask, ways)."""
    found = []
    opts = hand.opts
    for s in range(ACE + 1):
        if not opts[s][per]:
            continue
        ways = hand.start(s, per)
        mask = per * ONE[s]
        n = 1
        while ways:
            e = s + n - 1
            if n >= least and e > above and (not length or n == length):
                if out is None:
                    found.append((s, n, mask, ways))
                else:
                    _emit(out, kind, e + 3, n, mask, ways)
            if e == ACE or (length and n >= length):
                break
            ways = hand.extend(ways, e + 1, per)
            mask += per * ONE[e + 1]
            n += 1
    return found


def _gen_trio_with(hand: _Hand, above: int, kind: str, unit: int, out: list[Combo]) -> None:
    opts = hand.opts
    w = hand.w
    for t in range(above + 1, JOKER_B):
        mains = opts[t][3]
        if not mains:
            continue
        main = 3 * ONE[t]
        for k in range(NUM_RANKS):
            kick = opts[k][unit]
            if k == t or not kick:
                continue
            reading = main + unit * ONE[k]
            out += [Combo(kind, t + 3, 1, a + b, reading, 0) for a, u in mains for b, v in kick if u + v <= w]


def _gen_four_with(hand: _Hand, above: int, kind: str, pairs: bool, sink: list[Reading]) -> None:
    opts = hand.opts
    for f in range(above + 1, JOKER_B):
        if opts[f][4]:
            hand.with_kickers(kind, f + 3, 1, 4 * ONE[f], hand.start(f, 4), f, f, 2, pairs, sink)


def _gen_plane_with(
    hand: _Hand, rules: Rules, above: int, length: int, kind: str, pairs: bool, sink: list[Reading]
) -> None:
    least = max(rules.plane_min, 1)
    for s, n, mask, ways in _gen_runs(hand, 3, least, above, length, kind, None):
        hand.with_kickers(kind, s + n + 2, n, mask, ways, s, s + n - 1, n, pairs, sink)


def _gen_bombs(hand: _Hand, rules: Rules, above_order: int, out: list[Combo]) -> None:
    counts, wild, w = hand.counts, hand.wild, hand.w
    one_w = ONE[wild]
    top = rules.wild_bomb_top
    for r in range(JOKER_B):
        have = w if r == wild else counts[r]
        for size in range(4, min(have, rules.max_bomb) + 1):
            order = bomb_order(size, r, hard=True, top=top and r == wild)
            if order > above_order:
                m = size * ONE[r]
                out.append(Combo(BOMB, r + 3, 1, m, m, order))
        if r == wild or rules.max_bomb < 4:
            continue
        order = bomb_order(4, r, hard=False)
        if order <= above_order:
            continue
        reading = 4 * ONE[r]
        # soft: 1 to 3 wild cards stand in (four wild cards alone are a bomb of their own rank only)
        for k in range(max(1, 4 - counts[r]), min(3, w) + 1):
            out.append(Combo(BOMB, r + 3, 1, (4 - k) * ONE[r] + k * one_w, reading, order))


def _gen_rocket(hand: _Hand, rules: Rules, on: Combo | None, out: list[Combo]) -> None:
    d = rules.rocket_count
    c = hand.counts
    if c[JOKER_B] >= d and c[JOKER_R] >= d:
        m = d * (ONE[JOKER_B] + ONE[JOKER_R])
        order = rules.rocket_order
        if on is None or on.kind != ROCKET or order > on.order:
            out.append(Combo(ROCKET, 17, 1, m, m, order))


def _flush(found: list[Reading], out: list[Combo]) -> None:
    """Expand readings into plays, one per set of cards read (the preferred kind, then highest rank)."""
    best: dict[int, Reading] = {}
    for entry in found:
        old = best.get(entry[3])
        if old is None or (PREFERENCE[entry[0]], -entry[1]) < (PREFERENCE[old[0]], -old[1]):
            best[entry[3]] = entry
    for kind, rank, length, reading, cards in best.values():
        out += [Combo(kind, rank, length, a, reading, 0) for a in cards]


def _gen_kind(
    hand: _Hand,
    rules: Rules,
    kind: str,
    above: int,
    length: int,
    out: list[Combo],
    clashing: list[Reading],
) -> None:
    if kind == SOLO:
        _gen_simple(hand, above, 1, SOLO, NUM_RANKS, out)
    elif kind == PAIR:
        _gen_simple(hand, above, 2, PAIR, NUM_RANKS, out)
    elif kind == TRIO:
        _gen_simple(hand, above, 3, TRIO, JOKER_B, out)
    elif kind == TRIO_SOLO:
        _gen_trio_with(hand, above, TRIO_SOLO, 1, out)
    elif kind == TRIO_PAIR:
        _gen_trio_with(hand, above, TRIO_PAIR, 2, out)
    elif kind == CHAIN:
        _gen_runs(hand, 1, rules.chain_min, above, length, CHAIN, out)
    elif kind == PAIR_CHAIN:
        _gen_runs(hand, 2, rules.pair_chain_min, above, length, PAIR_CHAIN, out)
    elif kind == PLANE:
        for s, n, mask, ways in _gen_runs(hand, 3, rules.plane_min, above, length, PLANE, None):
            clashing.append((PLANE, s + n + 2, n, mask, [a for _, ms in ways for a in ms]))
    elif kind == PLANE_SOLO:
        _gen_plane_with(hand, rules, above, length, PLANE_SOLO, False, clashing)
    elif kind == PLANE_PAIR:
        _gen_plane_with(hand, rules, above, length, PLANE_PAIR, True, clashing)
    elif kind == FOUR_TWO_SOLO:
        four: list[Reading] = []
        _gen_four_with(hand, above, FOUR_TWO_SOLO, False, four)
        for k, rank, n, reading, cards in four:
            out += [Combo(k, rank, n, a, reading, 0) for a in cards]
    elif kind == FOUR_TWO_PAIR:
        _gen_four_with(hand, above, FOUR_TWO_PAIR, True, clashing)


def fast_wild_plays(
    hand_mask: int, on: Combo | None, rules: Rules, wild: int, kinds: tuple[str, ...]
) -> list[Combo]:
    """Every legal play of ``hand_mask`` with rank index ``wild`` wild, one per (cards, reading).

    ``kinds`` are the kinds ``rules`` allows but bombs and the rocket; the hand holds a wild card.
    """
    hand = _Hand(counts_of(hand_mask), wild, rules)
    out: list[Combo] = []
    clashing: list[Reading] = []
    if on is None:
        for kind in kinds:
            _gen_kind(hand, rules, kind, -1, 0, out, clashing)
        _gen_bombs(hand, rules, -1, out)
        _gen_rocket(hand, rules, None, out)
        _flush(clashing, out)
        return out
    kind = on.kind
    if kind in (BOMB, ROCKET):
        _gen_bombs(hand, rules, on.order, out)
        _gen_rocket(hand, rules, on, out)
        return out
    if kind in kinds:
        _gen_kind(hand, rules, kind, on.rank - 3, on.length, out, clashing)
        _flush(clashing, out)
    _gen_bombs(hand, rules, -1, out)
    _gen_rocket(hand, rules, None, out)
    return out
