"""Hand analysis for the Tichu bots: the fewest combinations a hand splits into, and its strength.

A hand is read as its *shape*: how many cards of each rank it holds, with the Mah Jong and the
Phoenix (suits matter only for straight flushes, which are tried apart). The partition is an
exact search over shapes: the lowest rank left must go into some combination, so every
combination that contains it is tried and the best rest is memoised. The best partition has
the fewest combinations; among those, the fewest low singles (below a Jack), so a hand keeps
its pairs and straights together.

>>> from pagoda.tichu import to_mask
>>> min_combos(to_mask("2g 3k 4b 5r 6g 9g 9k"))  # the straight 2-6 and the pair of 9s
2
>>> [str(c) for c in partition(to_mask("Mj 2g 3k 4b 5r Ph Dr"))]
['Mj 2g 3k 4b 5r Ph', 'Dr']
"""

from collections.abc import Iterator

from pagoda.tichu import Combo, classify
from pagoda.tichu.cards import DOG_BIT, DRAGON_BIT, MAH_JONG_BIT, PHOENIX_BIT, rank_shift
from pagoda.tichu.combos import STRAIGHT_FLUSH
from pagoda.tichu.movegen import bombs, has_bomb

# A shape: (phoenix 0/1, Mah Jong 0/1, count of rank 2, ..., count of rank 14): index = rank.
Shape = tuple[int, ...]
# One combination of a plan: how many cards of each rank (index = rank, 0 = Phoenix).
Use = tuple[int, ...]

_LOW_SINGLE = 11  # singles below a Jack are "low": the partition keeps as few as it can
_SHIFTS = [0, 0, *(rank_shift(r) for r in range(2, 15))]
_MEMO: dict[Shape, tuple[int, tuple[Use, ...]]] = {}
_MEMO_LIMIT = 400_000


def shape(mask: int) -> Shape:
    """The shape of the cards in ``mask`` (the Dog and the Dragon are left out)."""
    return (
        1 if mask & PHOENIX_BIT else 0,
        1 if mask & MAH_JONG_BIT else 0,
        *((mask >> _SHIFTS[r] & 0xF).bit_count() for r in range(2, 15)),
    )


def _take(use: dict[int, int]) -> Use:
    u = [0] * 15
    for r, n in use.items():
        u[r] = n
    return tuple(u)


def _options(s: Shape) -> Iterator[tuple[Use, int]]:
    """Every combination containing a card of the lowest rank held, with its tie-break cost."""
    ph = s[0]
    low = next(r for r in range(1, 15) if s[r])
    c = s[low]
    # singles
    yield _take({low: 1}), 1 if low < _LOW_SINGLE else 0
    if low >= 2:
        # pairs, triples, four of a kind
        if c >= 2:
            yield _take({low: 2}), 0
        if c >= 1 and ph:
            yield _take({low: 1, 0: 1}), 0
        if c >= 3:
            yield _take({low: 3}), 0
        if c >= 2 and ph:
            yield _take({low: 2, 0: 1}), 0
        if c == 4:
            yield _take({low: 4}), 0
        # full houses: (cards of low, cards of other, phoenix)
        for other in range(2, 15):
            if other == low or not s[other]:
                continue
            o = s[other]
            for a, b, p in ((3, 2, 0), (2, 3, 0), (2, 2, 1), (3, 1, 1), (1, 3, 1)):
                if c >= a and o >= b and ph >= p:
                    yield _take({low: a, other: b, 0: p}), 0
        # pair runs from low: one card of at most one rank may be the Phoenix
        used_ph = 0
        use: dict[int, int] = {}
        r = low
        while r <= 14 and s[r]:
            if s[r] >= 2:
                use[r] = 2
            elif ph and not used_ph:
                use[r] = 1
                used_ph = 1
            else:
                break
            if r > low:
                u = dict(use)
                if used_ph:
                    u[0] = 1
                yield _take(u), 0
            r += 1
    # straights from low: one rank missing or one past the end may be the Phoenix
    for use_ph in (0, 1) if ph else (0,):
        gap = 0
        use = {}
        r = low
        while r <= 14:
            if s[r]:
                use[r] = 1
            elif use_ph and not gap and r > low:
                gap = r
            else:
                break
            length = len(use) + (1 if gap else 0)
            if use_ph and not gap:
                # the Phoenix extends the run at one end
                if length + 1 >= 5 and (r < 14 or low > 2):
                    yield _take({**use, 0: 1}), 0
            elif length >= 5 and (gap != r):
                u = dict(use)
                if use_ph:
                    u[0] = 1
                yield _take(u), 0
            r += 1


def _best(s: Shape) -> tuple[int, tuple[Use, ...]]:
    """(cost, plan): cost = 100 x combinations + low singles, for the shape's best partition."""
    if not any(s):
        return 0, ()
    found = _MEMO.get(s)
    if found is not None:
        return found
    if s[0] and not any(s[1:]):
        best: tuple[int, tuple[Use, ...]] = (100, (_take({0: 1}),))
    else:
        best = (1 << 30, ())
        for use, extra in _options(s):
            rest = tuple(a - b for a, b in zip(s, use, strict=True))
            cost, plan = _best(rest)
            cost += 100 + extra
            if cost < best[0]:
                best = (cost, (use, *plan))
    if len(_MEMO) > _MEMO_LIMIT:
        _MEMO.clear()
    _MEMO[s] = best
    return best


def _specials(mask: int) -> int:
    return (1 if mask & DOG_BIT else 0) + (1 if mask & DRAGON_BIT else 0)


def partition_cost(mask: int) -> int:
    """100 x the fewest combinations ``mask`` splits into, plus its low singles (a tie-break)."""
    cost = _best(shape(mask))[0] + 100 * _specials(mask)
    if has_bomb(mask):
        for b in bombs(mask):
            if b.kind == STRAIGHT_FLUSH:
                cost = min(cost, 100 + partition_cost(mask & ~b.mask))
    return cost


def min_combos(mask: int) -> int:
    """The fewest combinations (bombs included) the cards of ``mask`` can be played as."""
    return partition_cost(mask) // 100


def _concrete(mask: int, plan: tuple[Use, ...]) -> list[Combo]:
    out: list[Combo] = []
    left = mask
    for use in plan:
        cards = 0
        if use[0]:
            cards |= PHOENIX_BIT
        if use[1]:
            cards |= MAH_JONG_BIT
        for r in range(2, 15):
            n = use[r]
            nib = left >> _SHIFTS[r] & 0xF
            while n:
                bit = nib & -nib
                nib &= ~bit
                cards |= bit << _SHIFTS[r]
                n -= 1
        left &= ~cards
        combo = classify(cards)
        assert combo is not None, f"plan gave no combination: {cards:x}"
        out.append(combo)
    return out


def partition(mask: int) -> list[Combo]:
    """A partition of ``mask`` into the fewest combinations (see the module doc), lowest first."""
    best_cost = _best(shape(mask))[0] + 100 * _specials(mask)
    flush: Combo | None = None
    if has_bomb(mask):
        for b in bombs(mask):
            if b.kind == STRAIGHT_FLUSH and 100 + partition_cost(mask & ~b.mask) < best_cost:
                best_cost, flush = 100 + partition_cost(mask & ~b.mask), b
    if flush is not None:
        return sorted([flush, *partition(mask & ~flush.mask)], key=_order)
    out = _concrete(mask, _best(shape(mask))[1])
    for special in (DOG_BIT, DRAGON_BIT):
        if mask & special:
            c = classify(special)
            assert c is not None
            out.append(c)
    return sorted(out, key=_order)


def _order(c: Combo) -> tuple[float, int]:
    return (c.rank if c.mask != DOG_BIT else 0.0, -c.length)
