"""Move generation: every combination a hand can play, leading or on a given combination.

One generator per kind, chosen from a dispatch table by the kind on the table; each yields only
what beats it, one :class:`Combo` per distinct set of cards (with its highest reading, or every
reading when the rules let the player name the Phoenix's rank). A hand is read as thirteen
4-bit suit masks, one per rank; subsets of those come from a table built once.
"""

from collections.abc import Callable, Sequence
from itertools import compress
from operator import itemgetter
from typing import Protocol, overload

from pagoda.tichu.cards import (
    _BYTE_INDICES,
    DOG,
    DOG_BIT,
    DRAGON_BIT,
    MAH_JONG,
    MAH_JONG_BIT,
    PHOENIX_BIT,
    CardsLike,
    rank_shift,
    to_mask,
)
from pagoda.tichu.combos import (
    BOMBS,
    DOG_KIND,
    FOUR_OF_A_KIND,
    FULL_HOUSE,
    PAIR,
    PAIR_RUN,
    SINGLE,
    STRAIGHT,
    STRAIGHT_FLUSH,
    TRIPLE,
    Combo,
)

#: A combination as generated: (kind, rank, mask, phoenix), made a :class:`Combo` when needed.
Raw = tuple[str, float, int, int]
#: A hand's suit masks per rank 0..14 (a tuple: one of ints only is left alone by the garbage
#: collector, which the cache of them would otherwise have it walk through again and again).
Nibs = tuple[int, ...]
Generator = Callable[[int, Nibs, "Combo | None", bool], list[Raw]]

_SHIFT = [0, 0, *(rank_shift(r) for r in range(2, 15))]
_RANKS = range(2, 15)
# _SUBSETS[nibble][k]: the k-card subsets of a 4-bit suit mask.
_SUBSETS: list[list[list[int]]] = [
    [[sub for sub in range(16) if sub & ~nib == 0 and sub.bit_count() == k] for k in range(5)]
    for nib in range(16)
]
_BITS = [_SUBSETS[nib][1] for nib in range(16)]
_SHORT_OF_PAIR = [max(0, 2 - nib.bit_count()) for nib in range(16)]
# _AT_LEAST[k][nib]: does a suit mask hold k cards or more? (selectors for itertools.compress)
_AT_LEAST = [[nib.bit_count() >= k for nib in range(16)] for k in range(5)]
_MISSING = [0 if nib else 1 for nib in range(16)]
_ONE = [nib.bit_count() for nib in range(16)]  # the cards of a suit mask
# _RANK_CARDS[rank][nib]: the single cards of suit mask ``nib`` at ``rank`` (the Mah Jong at 1).
_RANK_CARDS = [[[MAH_JONG_BIT]] * 16, [[MAH_JONG_BIT]] * 16] + [
    [[bit << rank_shift(r) for bit in _BITS[nib]] for nib in range(16)] for r in range(2, 15)
]


_NATURALS = sum(0xF << rank_shift(r) for r in range(2, 15))
_BYTE_NIBBLES = [(b & 0xF, b >> 4) for b in range(256)]


_NIBBLE_CACHE: dict[int, Nibs] = {}


def _nibbles(mask: int) -> Nibs:
    """Suit masks per rank 0..14 (0 and 1 empty); a hand is asked many times between its plays."""
    naturals = mask & _NATURALS
    nibs = _NIBBLE_CACHE.get(naturals)
    if nibs is None:
        if len(_NIBBLE_CACHE) > 50_000:
            _NIBBLE_CACHE.clear()
        made = [0, 0]
        for byte in (naturals >> 2).to_bytes(7, "little"):
            made.extend(_BYTE_NIBBLES[byte])
        nibs = _NIBBLE_CACHE[naturals] = tuple(made[:15])
    return nibs


def _singles(mask: int, nibs: Nibs, on: Combo | None, choice: bool) -> list[Raw]:
    out: list[Raw] = []
    above = 0.0 if on is None else on.rank
    if on is None and mask & MAH_JONG_BIT:
        out.append((SINGLE, 1, MAH_JONG_BIT, 0))
    for r in range(max(2, int(above) + 1), 15):
        nib = nibs[r]
        if nib:
            shift = _SHIFT[r]
            for bit in _BITS[nib]:
                out.append((SINGLE, r, bit << shift, 0))
    if mask & PHOENIX_BIT and (on is None or on.mask != DRAGON_BIT):
        out.append((SINGLE, 1.5 if on is None else above + 0.5, PHOENIX_BIT, 0))
    if mask & DRAGON_BIT:
        out.append((SINGLE, 15, DRAGON_BIT, 0))
    if on is None and mask & DOG_BIT:
        out.append((DOG_KIND, 0, DOG_BIT, 0))
    return out


def _same_rank(size: int, kind: str) -> Generator:
    def generate(mask: int, nibs: Nibs, on: Combo | None, choice: bool) -> list[Raw]:
        out: list[Raw] = []
        phoenix = mask & PHOENIX_BIT
        start = 2 if on is None else int(on.rank) + 1
        # Only the ranks with enough cards (one fewer with the Phoenix) are looked at.
        enough = _AT_LEAST[size - 1 if phoenix else size]
        for r in compress(range(start, 15), map(enough.__getitem__, nibs[start:])):
            nib = nibs[r]
            shift = _SHIFT[r]
            for sub in _SUBSETS[nib][size]:
                out.append((kind, r, sub << shift, 0))
            if phoenix:
                for sub in _SUBSETS[nib][size - 1]:
                    out.append((kind, r, (sub << shift) | PHOENIX_BIT, r))
        return out

    return generate


def _full_houses(mask: int, nibs: Nibs, on: Combo | None, choice: bool) -> list[Raw]:
    out: list[Raw] = []
    phoenix = mask & PHOENIX_BIT
    above = 1 if on is None else int(on.rank)
    # The ranks that can give the pair: two cards, or one with the Phoenix (the ranks that
    # would give nothing are left out, which keeps the order).
    present = list(compress(_RANKS, map(_AT_LEAST[1 if phoenix else 2].__getitem__, nibs[2:])))
    pairs_only = list(compress(_RANKS, map(_AT_LEAST[2].__getitem__, nibs[2:])))
    start = above + 1
    for t in compress(range(start, 15), map(_AT_LEAST[2 if phoenix else 3].__getitem__, nibs[start:])):
        tnib = nibs[t]
        tshift = _SHIFT[t]
        triples = [s << tshift for s in _SUBSETS[tnib][3]]
        for p in present if triples else pairs_only:
            if p == t or (not triples and p > t):
                continue
            pnib = nibs[p]
            pshift = _SHIFT[p]
            pairs = [s << pshift for s in _SUBSETS[pnib][2]]
            for tri in triples:
                for pair in pairs:
                    out.append((FULL_HOUSE, t, tri | pair, 0))
                if phoenix:
                    for bit in _BITS[pnib]:
                        out.append((FULL_HOUSE, t, tri | (bit << pshift) | PHOENIX_BIT, p))
            # Two pairs and the Phoenix read as the higher triple (also the lower one when the
            # player may name it); the set is met once, from its higher rank.
            if phoenix and p < t:
                for two in _SUBSETS[tnib][2]:
                    for pair in pairs:
                        cards = (two << tshift) | pair | PHOENIX_BIT
                        out.append((FULL_HOUSE, t, cards, t))
                        if choice and p > above:
                            out.append((FULL_HOUSE, p, cards, p))
    return out


def _windows(
    cost: list[int], budget: int, lo_min: int, min_len: int, on: Combo | None, per: int
) -> list[int]:
    """The ``(lo, hi)`` rank windows (flattened) whose summed ``cost`` fits ``budget``.

    Leading: every window of at least ``min_len`` ranks; on a combination: its length
    (``on.length // per`` ranks) with a higher top. Windows grow down from each top and stop at
    the first one over budget, so the scan costs little more than what it finds.
    """
    out: list[int] = []
    if on is None:
        for hi in range(lo_min + min_len - 1, 15):
            total = 0
            lo = hi
            while lo >= lo_min:
                total += cost[lo]
                if total > budget:
                    break
                if hi - lo + 1 >= min_len:
                    out += (lo, hi)
                lo -= 1
        return out
    length = on.length // per
    for hi in range(max(int(on.rank) + 1, lo_min + length - 1), 15):
        lo = hi - length + 1
        if sum(cost[lo : hi + 1]) <= budget:
            out += (lo, hi)
    return out


def _pair_runs(mask: int, nibs: Nibs, on: Combo | None, choice: bool) -> list[Raw]:
    out: list[Raw] = []
    phoenix = 1 if mask & PHOENIX_BIT else 0
    # How many Phoenixes each rank lacks for a pair (2: more than there are).
    cost = list(map(_SHORT_OF_PAIR.__getitem__, nibs))
    windows = _windows(cost, phoenix, 2, 2, on, 2)
    for i in range(0, len(windows), 2):
        lo, hi = windows[i], windows[i + 1]
        built: list[tuple[int, int]] = [(0, 0)]
        for r in range(lo, hi + 1):
            nib, shift = nibs[r], _SHIFT[r]
            two = [s << shift for s in _SUBSETS[nib][2]]
            grown = [(m | s, ph) for m, ph in built for s in two]
            if phoenix:
                alone = [(s << shift) | PHOENIX_BIT for s in _BITS[nib]]
                grown += [(m | s, r) for m, ph in built if not ph for s in alone]
            built = grown
        out.extend([(PAIR_RUN, hi, m, ph) for m, ph in built])
    return out


class _Straights:
    """The straights of one rank window (and one rank the Phoenix stands for): counted at once,
    each made only when asked for, in the order the full list has them.

    ``choices`` holds, per rank from the lowest, the cards the hand can put there (the last rank
    varies fastest). Without the Phoenix and above the Mah Jong, the one-suit sets are left out:
    they are straight flushes, listed as bombs.
    """

    __slots__ = ("_skip", "choices", "hi", "n", "no_flush", "spot")

    def __init__(self, hi: int, spot: int, choices: list[list[int]], flushes: int) -> None:
        self.hi = hi
        self.spot = spot
        self.choices = choices
        self.no_flush = flushes  # the suits every rank has, when one-suit sets are left out
        n = 1
        for cards in choices:
            n *= len(cards)
        self.n = n - flushes.bit_count()
        self._skip: list[int] | None = None

    def __len__(self) -> int:
        return self.n

    def all(self) -> list[Raw]:
        """Every straight of the window, in order."""
        built = [0]
        for cards in self.choices:
            built = [m | b for m in built for b in cards]
        hi, spot = self.hi, self.spot
        if spot:
            return [(STRAIGHT, hi, m | PHOENIX_BIT, spot) for m in built]
        if not self.no_flush:
            return [(STRAIGHT, hi, m, 0) for m in built]
        lo = hi - len(self.choices) + 1
        return [(STRAIGHT, hi, m, 0) for m in built if not _one_suit(m, lo)]

    def __getitem__(self, k: int) -> Raw:
        skip = self._skip
        if skip is None:
            skip = self._skip = self._flush_positions()
        for position in skip:
            if position <= k:
                k += 1
        mask = PHOENIX_BIT if self.spot else 0
        for cards in reversed(self.choices):
            k, digit = divmod(k, len(cards))
            mask |= cards[digit]
        return (STRAIGHT, self.hi, mask, self.spot)

    def _flush_positions(self) -> list[int]:
        """Where the one-suit sets would stand in the full product, in order."""
        out = []
        for suit in range(4):
            if self.no_flush >> suit & 1:
                position = 0
                for cards in self.choices:
                    suit_card = _suit_card(cards, suit)
                    position = position * len(cards) + cards.index(suit_card)
                out.append(position)
        return out


def _suit_card(cards: list[int], suit: int) -> int:
    """The card of ``suit`` among ``cards`` (single cards of one rank)."""
    for card in cards:
        if (card.bit_length() - 3) % 4 == suit:
            return card
    raise AssertionError("no card of that suit")


def _straight_windows(mask: int, nibs: Nibs, on: Combo | None, choice: bool) -> list[_Straights]:
    """The straights ``mask`` can play on ``on`` (None: leading), a window and Phoenix rank at a time."""
    out: list[_Straights] = []
    phoenix = 1 if mask & PHOENIX_BIT else 0
    nibs = (nibs[0], 1 if mask & MAH_JONG_BIT else 0, *nibs[2:])
    # A missing rank costs the Phoenix; a missing rank 1 (the Mah Jong) cannot be filled.
    cost = list(map(_MISSING.__getitem__, nibs))
    cost[1] = 0 if nibs[1] else 2
    windows = _windows(cost, phoenix, 1, 5, on, 1)
    for i in range(0, len(windows), 2):
        lo, hi = windows[i], windows[i + 1]
        missing = [r for r in range(lo, hi + 1) if not nibs[r]]
        if missing:
            if missing[0] == lo and hi < 14 and not choice:
                continue  # the same cards as the straight one higher, Phoenix on top
            spots = missing
        else:
            spots = _phoenix_spots(lo, hi, choice) if phoenix else [0]
        out += [_window(nibs, lo, hi, spot) for spot in spots]
    return out


def _phoenix_spots(lo: int, hi: int, choice: bool) -> list[int]:
    """Where the Phoenix may stand in a window of ranks ``lo``..``hi`` that has them all, then 0
    (not in it): any rank but the Mah Jong's; at the bottom it is the same card set as the
    straight one higher with the Phoenix on top, unless the top is the Ace (or the player names
    the reading)."""
    spots = [r for r in range(max(lo, 2), hi + 1) if r != lo or hi == 14 or choice]
    spots.append(0)
    return spots


def _window(nibs: Sequence[int], lo: int, hi: int, spot: int) -> _Straights:
    """The straights of ranks ``lo``..``hi`` with the Phoenix for rank ``spot`` (0: none); above
    the Mah Jong and without the Phoenix, the one-suit sets are left out (straight flushes)."""
    choices = [_RANK_CARDS[r][nibs[r]] for r in range(lo, hi + 1) if r != spot]
    flushes = 0
    if not spot and lo > 1:
        flushes = 0xF
        for r in range(lo, hi + 1):
            flushes &= nibs[r]
    return _Straights(hi, spot, choices, flushes)


def _straights(mask: int, nibs: Nibs, on: Combo | None, choice: bool) -> list[Raw]:
    out: list[Raw] = []
    for window in _straight_windows(mask, nibs, on, choice):
        out += window.all()
    return out


def _one_suit(m: int, lo: int) -> bool:
    """Are the naturals of straight ``m`` (lowest rank ``lo`` >= 2) all of one suit?"""
    suit = (m >> _SHIFT[lo]) & 0xF
    spread = 0
    r = lo
    while r < 15:
        nib = (m >> _SHIFT[r]) & 0xF
        if not nib:
            break
        spread |= nib
        r += 1
    return spread == suit


_JADE_ROW = sum(1 << rank_shift(r) for r in range(2, 15))


def has_bomb(mask: int) -> bool:
    """Does ``mask`` hold four of a kind or five consecutive cards of one suit? (a few int ops)"""
    # Four of a kind: four bits in a row from a rank's first (the specials are not in one).
    four = mask & mask >> 1
    if four & four >> 2 & _JADE_ROW:
        return True
    # A suit's next rank is 4 bits up: where a straight flush starts, a card has the next
    # rank's (five), so does the card two ranks up, and there is a card four ranks up.
    m = mask & _NATURALS
    five = m & m >> 4
    return bool(five & five >> 8 & m >> 16)


def _bombs(mask: int, nibs: Nibs, on: Combo | None, choice: bool) -> list[Raw]:
    out: list[Raw] = []
    m = mask & _NATURALS
    flush = m & m >> 4 & m >> 8 & m >> 12 & m >> 16  # where a straight flush starts
    if not flush and not m & m >> 1 & m >> 2 & m >> 3 & _JADE_ROW:
        return out
    for r in compress(_RANKS, map(_AT_LEAST[4].__getitem__, nibs[2:])):
        out.append((FOUR_OF_A_KIND, r, 0xF << _SHIFT[r], 0))
    for suit in range(4) if flush else ():
        bit = 1 << suit
        r = 2
        while r < 15:
            if not nibs[r] & bit:
                r += 1
                continue
            end = r
            while end + 1 < 15 and nibs[end + 1] & bit:
                end += 1
            if end - r >= 4:
                for lo in range(r, end - 3):
                    cards = 0
                    for k in range(lo, lo + 4):
                        cards |= bit << _SHIFT[k]
                    for hi in range(lo + 4, end + 1):
                        cards |= bit << _SHIFT[hi]
                        out.append((STRAIGHT_FLUSH, hi, cards, 0))
            r = end + 1
    if on is not None and on.kind in BOMBS:
        key = on.bomb_key
        out = [c for c in out if (c[0] == STRAIGHT_FLUSH, c[2].bit_count(), c[1]) > key]
    return out


_GENERATORS: dict[str, Generator] = {
    SINGLE: _singles,
    PAIR: _same_rank(2, PAIR),
    TRIPLE: _same_rank(3, TRIPLE),
    FULL_HOUSE: _full_houses,
    PAIR_RUN: _pair_runs,
    STRAIGHT: _straights,
}
_pairs, _triples = _GENERATORS[PAIR], _GENERATORS[TRIPLE]


# Leading: the singles of each byte of a hand (the Dog's play comes last, so byte 0 leaves it out).
_SINGLE_RAWS: list[Raw] = [
    (DOG_KIND, 0, DOG_BIT, 0),
    (SINGLE, 1, MAH_JONG_BIT, 0),
    *((SINGLE, 2 + (c - 2) // 4, 1 << c, 0) for c in range(2, 54)),
    (SINGLE, 1.5, PHOENIX_BIT, 0),
    (SINGLE, 15, DRAGON_BIT, 0),
]
_BYTE_SINGLES: list[list[tuple[Raw, ...]]] = [
    [tuple(_SINGLE_RAWS[c] for c in cards if c) for cards in row] for row in _BYTE_INDICES
]
# Per-rank card counts of a hand, 4 bits a rank (rank 2 lowest), by SWAR arithmetic.
_LOW52 = (1 << 52) - 1
_NIB_5 = 0x5555555555555  # 13 nibbles of each digit
_NIB_3 = 0x3333333333333
_NIB_6 = 0x6666666666666
_NIB_7 = 0x7777777777777
_NIB_8 = 0x8888888888888
_NIB_4 = 0x4444444444444
_STRAIGHT_STARTS = sum(8 << 4 * k for k in range(10))  # a straight's lowest rank is 1 to 10


def _rank_counts(mask: int) -> tuple[int, int, int, int]:
    """The naturals (2g at bit 0) and, a nibble per rank: the cards of each rank (0..4), and bit 3
    set where a rank has at least one card, at least two."""
    m = mask >> 2 & _LOW52
    c = m - (m >> 1 & _NIB_5)
    c = (c & _NIB_3) + (c >> 2 & _NIB_3)
    return m, c, (c + _NIB_7) & _NIB_8, (c + _NIB_6) & _NIB_8


def _lead_singles(mask: int) -> list[Raw]:
    """The singles a hand leads, in hand order, the Dog last."""
    out: list[Raw] = []
    for i, byte in enumerate(mask.to_bytes(7, "little")):
        if byte:
            out += _BYTE_SINGLES[i][byte]
    if mask & DOG_BIT:
        out.append(_SINGLE_RAWS[0])
    return out


def _lead_pairs(mask: int) -> list[Raw]:
    return _pairs(mask, _nibbles(mask), None, False)


def _lead_triples(mask: int) -> list[Raw]:
    return _triples(mask, _nibbles(mask), None, False)


def _lead_full_houses(mask: int) -> list[Raw]:
    return _full_houses(mask, _nibbles(mask), None, False)


def _lead_pair_runs(mask: int) -> list[Raw]:
    return _pair_runs(mask, _nibbles(mask), None, False)


class _WindowStraights:
    """The straights a hand with the Phoenix or a straight flush leads, in :func:`raw_plays`'s
    order (:func:`_straight_windows`: windows by their top rank, then downwards; in each, the
    ranks the Phoenix may stand for, lowest first, then none): counted by arithmetic on the
    cards of each rank, and made a window at a time when read. With ``wishes``, those with the
    Mah Jong come once per wish, as ``(play, wish)``.
    """

    __slots__ = ("_nibs", "_phoenix", "_wishes", "n")

    def __init__(self, mask: int, nibs: Nibs, wishes: tuple[int, ...]) -> None:
        own = list(nibs)
        own[1] = 1 if mask & MAH_JONG_BIT else 0
        self._nibs = own
        self._phoenix = mask & PHOENIX_BIT
        self._wishes = wishes
        self.n = -self._walk(-1)[0]

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, index: int) -> "Raw | tuple[Raw, int]":
        found = self._walk(index)[1]
        if found is None:
            raise IndexError("straight index out of range")
        return found

    def _walk(self, index: int) -> "tuple[int, Raw | tuple[Raw, int] | None]":
        """The ``index``-th straight (``index`` -1: minus their number, and None)."""
        nibs = self._nibs
        phoenix = self._phoenix
        wishes = self._wishes
        for hi in range(5, 15):
            # Each window from the top rank down: the product of its ranks' cards (P), the sum
            # of those products with one rank left out for the Phoenix (S: none missing), the
            # rank missing (the Phoenix's, at most one) and the suits every rank has.
            product, leave_one_out, gap, suits = 1, 0, 0, 0xF
            lo = hi
            while lo:
                nib = nibs[lo]
                before = product
                if nib:
                    x = _ONE[nib]
                    if lo > 1 and not gap:
                        leave_one_out = leave_one_out * x + product
                    product *= x
                    suits &= nib
                elif phoenix and not gap and lo > 1:
                    gap = lo
                else:
                    break
                if hi - lo >= 4 and not (gap == lo and hi < 14):
                    # (The Phoenix at the bottom: the same cards as the straight one rank up.)
                    if gap:
                        count = product
                    else:
                        count = product - (suits.bit_count() if lo > 1 else 0)  # less the flushes
                        if phoenix:
                            count += leave_one_out - (before if lo > 1 and hi < 14 else 0)
                    per = len(wishes) if lo == 1 and wishes else 1
                    if 0 <= index < count * per:
                        return 0, self._made(lo, hi, gap, index // per, index % per)
                    index -= count * per
                lo -= 1
        return index + 1, None

    def _made(self, lo: int, hi: int, gap: int, index: int, wish: int) -> "Raw | tuple[Raw, int]":
        """The ``index``-th straight of a window, with the ``wish``-th wish where it has one."""
        if gap:
            spots = [gap]
        else:
            spots = _phoenix_spots(lo, hi, False) if self._phoenix else [0]
        for spot in spots:
            straights = _window(self._nibs, lo, hi, spot)
            if index < straights.n:
                raw = straights[index]
                return (raw, self._wishes[wish]) if lo == 1 and self._wishes else raw
            index -= straights.n
        raise AssertionError("the window's straights add up to its count")


class _LeadStraights:
    """The straights a hand without the Phoenix or a straight flush leads: counted at once, each
    made when read, in the order of the full list (windows of ranks by their top, then downwards;
    the top rank's card varies fastest). With ``wishes``, those with the Mah Jong come once per
    wish, as ``(play, wish)``.
    """

    __slots__ = ("_cards", "_mask", "_nibs", "_wishes", "n")

    def __init__(self, mask: int, nibs: Nibs, wishes: tuple[int, ...]) -> None:
        self._mask = mask
        self._nibs = nibs
        self._wishes = wishes
        self._cards: list[list[int]] | None = None  # each rank's cards, once read
        # Runs of five or more ranks: those ending at each rank, from the shorter ones ending
        # just below it (a1..a4: of one to four ranks; a5: of five or more).
        mah_jong = 1 if mask & MAH_JONG_BIT else 0
        n = a2 = a3 = a4 = a5 = 0
        a1 = mah_jong
        for nib in nibs[2:]:
            x = _ONE[nib]
            a1, a2, a3, a4, a5 = x, x * a1, x * a2, x * a3, x * (a4 + a5)
            n += a5
        if wishes and mah_jong:
            # Those from the Mah Jong up count once per wish.
            run = 1
            for r in range(2, 15):
                run *= _ONE[nibs[r]]
                if not run:
                    break
                if r >= 5:
                    n += run * (len(wishes) - 1)
        self.n = n

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, index: int) -> "Raw | tuple[Raw, int]":
        cards = self._cards
        if cards is None:
            cards = self._cards = [_RANK_CARDS[r][nib] for r, nib in enumerate(self._nibs)]
            cards[0] = []
            cards[1] = [MAH_JONG_BIT] if self._mask & MAH_JONG_BIT else []
        wishes = self._wishes
        for hi in range(5, 15):
            size = 1
            lo = hi
            while lo:
                size *= len(cards[lo])
                if not size:
                    break
                if hi - lo >= 4:
                    wished = lo == 1 and wishes
                    per = len(wishes) if wished else 1
                    if index < size * per:
                        play, wish = divmod(index, per)
                        mask = 0
                        for r in range(hi, lo - 1, -1):
                            play, digit = divmod(play, len(cards[r]))
                            mask |= cards[r][digit]
                        raw = (STRAIGHT, hi, mask, 0)
                        return (raw, wishes[wish]) if wished else raw
                    index -= size * per
                lo -= 1
        raise IndexError("straight index out of range")


# Pairs of one rank by its number of cards (0..4): 4 choose 2 is 6.
_PAIRS_OF = (0, 0, 1, 3, 6)


class Lead(Sequence["Raw | tuple[Raw, int]"]):
    """A lead's plays in :func:`raw_plays`'s order, counted at once and made when read.

    The ``singles`` come first: the hand's cards in hand order, the Dog last (with ``wishes``,
    the Mah Jong's once per wish, as ``(play, wish)``); :meth:`single` reads one without making
    anything. The other kinds follow, each as its number of plays with a list of them, a part
    that makes its plays when read (straights), or the maker of its list from the hand, called
    when the kind is first read.
    """

    __slots__ = ("_kinds", "_mask", "_wishes", "n", "singles")

    def __init__(
        self,
        mask: int,
        wishes: tuple[int, ...],
        kinds: "list[_Kind]",
    ) -> None:
        self._mask = mask
        self._wishes = wishes
        self.singles = singles = mask.bit_count() - 1 + len(wishes) if wishes else mask.bit_count()
        self._kinds = kinds
        self.n: int = singles + sum(map(_COUNT, kinds))

    def __len__(self) -> int:
        return self.n

    def single(self, k: int) -> tuple[int, int]:
        """The ``k``-th play (below :attr:`singles`): its card's index and its wish (0: none)."""
        mask = self._mask
        wishes = self._wishes
        if wishes:
            if k < len(wishes):
                return MAH_JONG, wishes[k]
            k -= len(wishes)
            mask ^= MAH_JONG_BIT
        rest = mask & ~DOG_BIT
        if k >= rest.bit_count():
            return DOG, 0
        while k:
            rest &= rest - 1
            k -= 1
        return (rest & -rest).bit_length() - 1, 0

    @overload
    def __getitem__(self, index: int) -> "Raw | tuple[Raw, int]": ...
    @overload
    def __getitem__(self, index: slice) -> "list[Raw | tuple[Raw, int]]": ...
    def __getitem__(self, index: int | slice) -> "Raw | tuple[Raw, int] | list[Raw | tuple[Raw, int]]":
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(self.n))]
        if index < 0:
            index += self.n
        if not 0 <= index < self.n:
            raise IndexError("play index out of range")
        if index < self.singles:
            card, wish = self.single(index)
            raw = _SINGLE_RAWS[card]
            return (raw, wish) if self._wishes and card == MAH_JONG else raw
        index -= self.singles
        for k, (n, part, make) in enumerate(self._kinds):
            if index < n:
                if part is None:
                    assert make is not None
                    part = make(self._mask)
                    self._kinds[k] = (n, part, None)
                return part[index]
            index -= n
        raise AssertionError("the parts add up to the length")


def lead_plays(mask: int, wishes: tuple[int, ...] = ()) -> Lead:
    """:func:`raw_plays` when leading, each kind counted at once and made only when read.

    A 14-card hand can lead hundreds of plays; a player who picks one of them needs their
    number and the one it picks (a single, most often). Every kind is counted by arithmetic on
    the cards of each rank, without making a play: singles, pairs, triples, full houses and
    pair runs are made (a kind at a time) when first read, straights one at a time. With
    ``wishes``, each play of the Mah Jong comes once per wish, as ``(play, wish)``.

    >>> hand = to_mask("Mj 2g 3g 4k 5k 6k 6r Ph")
    >>> len(lead_plays(hand))  # 8 singles, 7 pairs, 1 triple, 1 pair run, 31 straights
    48
    >>> len(lead_plays(hand, (7, 9)))  # the Mah Jong's 19 plays (18 straights) once per wish
    67
    """
    if not mask & MAH_JONG_BIT:
        wishes = ()
    kinds: list[_Kind] = []
    cards = mask.bit_count()
    if cards < 2:
        return Lead(mask, wishes, kinds)
    m, c, present, two = _rank_counts(mask)
    phoenix = mask & PHOENIX_BIT
    nibs: Nibs | None = None
    if two or (phoenix and present):
        three = (c + _NIB_5) & _NIB_8
        n2, n3, n4 = two.bit_count(), three.bit_count(), (c & _NIB_4).bit_count()
        pairs = n2 + 2 * n3 + 3 * n4  # per rank: 1 of 2 cards, 3 of 3, 6 of 4
        triples = n3 + 3 * n4  # 1 of 3 cards, 4 of 4
        if phoenix:
            ones = m.bit_count()
            # A triple and a pair of another rank, the Phoenix making the pair with a card
            # (ranks of 3 and 4 cards pair with themselves: 3 x (3 + 3) and 4 x (6 + 4) are
            # taken off); or two pairs, the Phoenix making the higher a triple (pairs of
            # different ranks: half of pairs squared less those of one rank, 1, 9 and 36).
            houses = triples * (pairs + ones) - 6 * n3 - 34 * n4
            houses += (pairs * pairs - n2 - 8 * n3 - 27 * n4) // 2
            triples += pairs  # the Phoenix makes a triple of each pair
            pairs += ones  # and a pair of each card
        else:
            houses = triples * pairs - 3 * n3 - 21 * n4  # less a rank's triples with its own pairs
        kinds.append((pairs, None, _lead_pairs))
        if triples:
            kinds.append((triples, None, _lead_triples))
        if houses:
            kinds.append((houses, None, _lead_full_houses))
        if two & two >> 4 or (phoenix and (two & present >> 4 or present & two >> 4)):
            # Runs of two or more ranks of pairs, from those of one or more ranks ending just
            # below each rank: all natural (a), or with the Phoenix for one card (b).
            nibs = _nibbles(mask)
            runs = a = b = 0
            for nib in nibs[2:]:
                p = _PAIRS_OF[_ONE[nib]]
                q = _ONE[nib] if phoenix else 0
                runs += p * (a + b) + q * a
                a, b = p * (1 + a), q * (1 + a) + p * b
            kinds.append((runs, None, _lead_pair_runs))
    flush = 0
    if cards >= 5:  # straights, straight flushes
        flush = _lead_straights(mask, m, present, nibs, wishes, kinds)
    if c & _NIB_4 or flush:
        bombs = _bombs(mask, nibs or _nibbles(mask), None, False)
        kinds.append((len(bombs), bombs, None))
    return Lead(mask, wishes, kinds)


def _has_straight(mask: int, present: int) -> int:
    """Does ``mask`` hold a straight (``present``: bit 3 of each rank's nibble where it has a card)?"""
    ranks = present << 4 | (mask & MAH_JONG_BIT) << 2  # rank 1 (the Mah Jong) below rank 2
    if mask & PHOENIX_BIT:
        # Five ranks from 1 to 14 of which the hand has four: the Phoenix fills the fifth.
        f = ranks >> 3
        counts = f + (f >> 4) + (f >> 8) + (f >> 12) + (f >> 16)  # ranks present from each start
        return (counts + _NIB_4) & _STRAIGHT_STARTS
    return ranks & ranks >> 4 & ranks >> 8 & ranks >> 12 & ranks >> 16


def _lead_straights(
    mask: int,
    m: int,
    present: int,
    nibs: Nibs | None,
    wishes: tuple[int, ...],
    kinds: "list[_Kind]",
) -> int:
    """Add the straights ``mask`` leads to a lead's parts; returns where its straight flushes start."""
    phoenix = mask & PHOENIX_BIT
    flush = m & m >> 4 & m >> 8 & m >> 12 & m >> 16  # where a straight flush starts
    if _has_straight(mask, present):
        nibs = nibs or _nibbles(mask)
        straights: _WindowStraights | _LeadStraights
        if phoenix or flush:
            straights = _WindowStraights(mask, nibs, wishes)
        else:
            straights = _LeadStraights(mask, nibs, wishes)
        kinds.append((straights.n, straights, None))
    return flush


def with_wishes(plays: list[Raw], wishes: tuple[int, ...]) -> list[Raw | tuple[Raw, int]]:
    """``plays`` with each play of the Mah Jong once per wish, as ``(play, wish)``."""
    out: list[Raw | tuple[Raw, int]] = []
    for play in plays:
        if play[2] & MAH_JONG_BIT:
            out += [(play, w) for w in wishes]
        else:
            out.append(play)
    return out


class _Part(Protocol):
    """A list of plays, or a part made when read."""

    def __len__(self) -> int: ...
    def __getitem__(self, index: int) -> "Raw | tuple[Raw, int]": ...


#: A kind of a lead's plays: their number, and the plays or the maker of their list from the hand.
_Kind = tuple[int, "_Part | None", "Callable[[int], _Part] | None"]
_COUNT = itemgetter(0)


def _lead(mask: int, phoenix_choice: bool) -> list[Raw]:
    """Every play leading with ``mask``: only the kinds the hand's rank counts allow are generated."""
    out = _lead_singles(mask)
    if len(out) < 2:
        return out  # one card
    m, c, present, two = _rank_counts(mask)
    phoenix = mask & PHOENIX_BIT
    nibs: Nibs | None = None
    if two or (phoenix and present):
        nibs = _nibbles(mask)
        out += _pairs(mask, nibs, None, phoenix_choice)
        three = (c + _NIB_5) & _NIB_8
        if three or (phoenix and two):
            out += _triples(mask, nibs, None, phoenix_choice)
            # A full house: a triple and another pair; with the Phoenix also a triple and
            # another rank, or two pairs.
            other_pair = two & (two - 1)
            if (three and (other_pair or (phoenix and present & (present - 1)))) or (phoenix and other_pair):
                out += _full_houses(mask, nibs, None, phoenix_choice)
        if two & two >> 4 or (phoenix and (two & present >> 4 or present & two >> 4)):
            out += _pair_runs(mask, nibs, None, phoenix_choice)
    if _has_straight(mask, present):
        for window in _straight_windows(mask, nibs or _nibbles(mask), None, phoenix_choice):
            out += window.all()
    if c & _NIB_4 or m & m >> 4 & m >> 8 & m >> 12 & m >> 16:
        out += _bombs(mask, nibs or _nibbles(mask), None, phoenix_choice)
    return out


def raw_plays(mask: int, on: Combo | None, phoenix_choice: bool = False, *, bombs: bool = True) -> list[Raw]:
    """:func:`plays` as ``(kind, rank, mask, phoenix)`` tuples, for the hot paths.

    ``bombs=False`` skips looking for bombs in a hand known to hold none.
    """
    if on is None:
        return _lead(mask, phoenix_choice)
    kind = on.kind
    if kind == DOG_KIND:
        return []
    if kind in BOMBS:
        return _bombs(mask, _nibbles(mask), on, phoenix_choice) if bombs else []
    if kind != SINGLE and _too_few(mask, on, kind):
        return _bombs(mask, _nibbles(mask), on, phoenix_choice) if bombs else []
    nibs = _nibbles(mask)
    out = _GENERATORS[kind](mask, nibs, on, phoenix_choice)
    if bombs:
        out += _bombs(mask, nibs, on, phoenix_choice)
    return out


# The naturals of each rank and above (index 15 and 16: none).
_FROM_RANK = [sum(0xF << rank_shift(r) for r in range(max(low, 2), 15)) for low in range(17)]


def _too_few(mask: int, on: Combo, kind: str) -> bool:
    """Does ``mask`` hold too few naturals of high enough ranks to beat ``on`` (a pair, triple,
    full house, pair run or straight) with its own kind? A test that costs less than looking."""
    phoenix = 1 if mask & PHOENIX_BIT else 0
    if kind in (PAIR, TRIPLE):
        low, need = int(on.rank) + 1, on.length - phoenix
    elif kind == FULL_HOUSE:
        low, need = int(on.rank) + 1, 3 - phoenix  # its triple
    else:  # a run: from the rank above the lowest of ``on`` up
        low = int(on.rank) + 2 - (on.length // 2 if kind == PAIR_RUN else on.length)
        need = on.length - phoenix
    return (mask & _FROM_RANK[low]).bit_count() < need


def plays(hand: CardsLike, on: Combo | None = None, phoenix_choice: bool = False) -> list[Combo]:
    """Every combination ``hand`` can play on ``on`` (``None``: leading), bombs included.

    The wish is not applied here (a :class:`~pagoda.tichu.Round` does that). With
    ``phoenix_choice`` a card set that reads several ways appears once per reading.

    >>> from pagoda.tichu.combos import classify
    >>> len(plays("2g 2k Ph"))  # 3 singles + pairs 2g2k, 2gPh, 2kPh + triple 2g2kPh = 7
    7
    >>> [str(c) for c in plays("5g 5r 9k 9b 9r", on=classify("8g 8r"))]
    ['9k 9b', '9k 9r', '9b 9r']
    """
    return [Combo(*raw) for raw in raw_plays(to_mask(hand), on, phoenix_choice)]


def raw_bombs(mask: int, on: Combo | None) -> list[Raw]:
    """:func:`bombs` as ``(kind, rank, mask, phoenix)`` tuples."""
    if (on is not None and on.kind == DOG_KIND) or not has_bomb(mask):
        return []
    return _bombs(mask, _nibbles(mask), on, False)


def bombs(hand: CardsLike, on: Combo | None = None) -> list[Combo]:
    """The bombs in ``hand`` that may be played on ``on`` (all of them when ``on`` is None)."""
    return [Combo(*raw) for raw in raw_bombs(to_mask(hand), on)]
