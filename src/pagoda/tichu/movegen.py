"""Move generation: every combination a hand can play, leading or on a given combination.

One generator per kind, chosen from a dispatch table by the kind on the table; each yields only
what beats it, one :class:`Combo` per distinct set of cards (with its highest reading, or every
reading when the rules let the player name the Phoenix's rank). A hand is read as thirteen
4-bit suit masks, one per rank; subsets of those come from a table built once.
"""

from collections.abc import Callable

from pagoda.tichu.cards import (
    DOG_BIT,
    DRAGON_BIT,
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

_SHIFT = [0, 0, *(rank_shift(r) for r in range(2, 15))]
_RANKS = range(2, 15)
# _SUBSETS[nibble][k]: the k-card subsets of a 4-bit suit mask.
_SUBSETS: list[list[list[int]]] = [
    [[sub for sub in range(16) if sub & ~nib == 0 and sub.bit_count() == k] for k in range(5)]
    for nib in range(16)
]
_BITS = [_SUBSETS[nib][1] for nib in range(16)]
_NATURALS_LOW = (1 << 52) - 1
_POPCOUNT = [nib.bit_count() for nib in range(16)]


_BYTE_NIBBLES = [(b & 0xF, b >> 4) for b in range(256)]


def _nibbles(mask: int) -> list[int]:
    """Suit masks per rank 0..14 (0 and 1 empty)."""
    nibs = [0, 0]
    for byte in ((mask >> 2) & _NATURALS_LOW).to_bytes(7, "little"):
        nibs.extend(_BYTE_NIBBLES[byte])
    del nibs[15:]
    return nibs


def _singles(mask: int, nibs: list[int], on: Combo | None, choice: bool) -> list[Combo]:
    out: list[Combo] = []
    above = 0.0 if on is None else on.rank
    if on is None and mask & MAH_JONG_BIT:
        out.append(Combo(SINGLE, 1, MAH_JONG_BIT))
    for r in range(max(2, int(above) + 1), 15):
        nib = nibs[r]
        if nib:
            shift = _SHIFT[r]
            for bit in _BITS[nib]:
                out.append(Combo(SINGLE, r, bit << shift))
    if mask & PHOENIX_BIT and (on is None or on.mask != DRAGON_BIT):
        out.append(Combo(SINGLE, 1.5 if on is None else above + 0.5, PHOENIX_BIT))
    if mask & DRAGON_BIT:
        out.append(Combo(SINGLE, 15, DRAGON_BIT))
    if on is None and mask & DOG_BIT:
        out.append(Combo(DOG_KIND, 0, DOG_BIT))
    return out


def _same_rank(size: int, kind: str) -> Callable[[int, list[int], Combo | None, bool], list[Combo]]:
    def generate(mask: int, nibs: list[int], on: Combo | None, choice: bool) -> list[Combo]:
        out: list[Combo] = []
        phoenix = mask & PHOENIX_BIT
        start = 2 if on is None else int(on.rank) + 1
        for r in range(start, 15):
            nib = nibs[r]
            if not nib:
                continue
            shift = _SHIFT[r]
            for sub in _SUBSETS[nib][size]:
                out.append(Combo(kind, r, sub << shift))
            if phoenix:
                for sub in _SUBSETS[nib][size - 1]:
                    out.append(Combo(kind, r, (sub << shift) | PHOENIX_BIT, r))
        return out

    return generate


def _full_houses(mask: int, nibs: list[int], on: Combo | None, choice: bool) -> list[Combo]:
    out: list[Combo] = []
    phoenix = mask & PHOENIX_BIT
    above = 1 if on is None else int(on.rank)
    present = [r for r in _RANKS if nibs[r]]
    for t in present:
        tnib = nibs[t]
        if t <= above or tnib.bit_count() < 2:
            continue
        tshift = _SHIFT[t]
        triples = [s << tshift for s in _SUBSETS[tnib][3]]
        for p in present:
            if p == t:
                continue
            pnib = nibs[p]
            pshift = _SHIFT[p]
            pairs = [s << pshift for s in _SUBSETS[pnib][2]]
            for tri in triples:
                for pair in pairs:
                    out.append(Combo(FULL_HOUSE, t, tri | pair))
                if phoenix:
                    for bit in _BITS[pnib]:
                        out.append(Combo(FULL_HOUSE, t, tri | (bit << pshift) | PHOENIX_BIT, p))
            # Two pairs and the Phoenix read as the higher triple (also the lower one when the
            # player may name it); the set is met once, from its higher rank.
            if phoenix and p < t:
                for two in _SUBSETS[tnib][2]:
                    for pair in pairs:
                        cards = (two << tshift) | pair | PHOENIX_BIT
                        out.append(Combo(FULL_HOUSE, t, cards, t))
                        if choice and p > above:
                            out.append(Combo(FULL_HOUSE, p, cards, p))
    return out


def _pair_runs(mask: int, nibs: list[int], on: Combo | None, choice: bool) -> list[Combo]:
    out: list[Combo] = []
    phoenix = 1 if mask & PHOENIX_BIT else 0
    # short[r]: how many Phoenixes rank r lacks for a pair (2: it cannot be filled).
    prefix = [0, 0]
    for r in _RANKS:
        c = _POPCOUNT[nibs[r]]
        prefix.append(prefix[-1] + (0 if c >= 2 else 1 if c == 1 else 2))
    if on is None:
        lengths: range = range(2, 14)
        top_min = 3
    else:
        lengths = range(on.length // 2, on.length // 2 + 1)
        top_min = int(on.rank) + 1
    for pairs in lengths:
        for hi in range(max(top_min, pairs + 1), 15):
            lo = hi - pairs + 1
            if prefix[hi] - prefix[lo - 1] > phoenix:
                continue
            built: list[tuple[int, int]] = [(0, 0)]
            for r in range(lo, hi + 1):
                nib, shift = nibs[r], _SHIFT[r]
                two = [s << shift for s in _SUBSETS[nib][2]]
                grown = [(m | s, ph) for m, ph in built for s in two]
                if phoenix:
                    grown += [
                        (m | (s << shift) | PHOENIX_BIT, r) for m, ph in built if not ph for s in _BITS[nib]
                    ]
                built = grown
            out.extend(Combo(PAIR_RUN, hi, m, ph) for m, ph in built)
    return out


def _straights(mask: int, nibs: list[int], on: Combo | None, choice: bool) -> list[Combo]:
    out: list[Combo] = []
    phoenix = bool(mask & PHOENIX_BIT)
    nibs = nibs[:]
    nibs[1] = 1 if mask & MAH_JONG_BIT else 0
    if on is None:
        lengths: range = range(5, 15)
        top_min = 5
    else:
        lengths = range(on.length, on.length + 1)
        top_min = int(on.rank) + 1
    # prefix[r]: ranks 1..r missing, the Mah Jong's rank 1 counting double (no Phoenix for it).
    prefix = [0, 0 if nibs[1] else 2]
    for r in _RANKS:
        prefix.append(prefix[-1] + (0 if nibs[r] else 1))
    for length in lengths:
        for hi in range(max(top_min, length), 15):
            lo = hi - length + 1
            if prefix[hi] - prefix[lo - 1] > phoenix:
                continue
            missing = [r for r in range(lo, hi + 1) if not nibs[r]]
            if len(missing) > phoenix or (missing and missing[0] == 1):
                continue
            if missing:
                if missing[0] == lo and hi < 14 and not choice:
                    continue  # the same cards as the straight one higher, Phoenix on top
                spots = missing
            elif phoenix:
                # The Phoenix may stand for any rank but the Mah Jong; at the bottom it is the
                # same card set as the straight one higher with the Phoenix on top, unless the
                # top is the Ace (or the player names the reading).
                spots = [r for r in range(max(lo, 2), hi + 1) if r != lo or hi == 14 or choice]
                spots.append(0)
            else:
                spots = [0]
            for spot in spots:
                built = [0]
                for r in range(lo, hi + 1):
                    if r == spot:
                        continue
                    nib = nibs[r]
                    if r == 1:
                        built = [m | MAH_JONG_BIT for m in built]
                        continue
                    shift = _SHIFT[r]
                    built = [m | (b << shift) for m in built for b in _BITS[nib]]
                if spot:
                    out.extend(Combo(STRAIGHT, hi, m | PHOENIX_BIT, spot) for m in built)
                else:
                    flush_ok = lo == 1
                    for m in built:
                        if flush_ok or not _one_suit(m, lo):
                            out.append(Combo(STRAIGHT, hi, m))
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


_NATURALS = sum(0xF << rank_shift(r) for r in range(2, 15))
_JADE_ROW = sum(1 << rank_shift(r) for r in range(2, 15))


def has_bomb(mask: int) -> bool:
    """Does ``mask`` hold four of a kind or five consecutive cards of one suit? (a few int ops)"""
    m = mask & _NATURALS
    # A suit's next rank is 4 bits up: five shifted copies meet where a straight flush starts.
    if m & m >> 4 & m >> 8 & m >> 12 & m >> 16:
        return True
    return bool(m & m >> 1 & m >> 2 & m >> 3 & _JADE_ROW)


def _bombs(mask: int, nibs: list[int], on: Combo | None, choice: bool) -> list[Combo]:
    out: list[Combo] = []
    if not has_bomb(mask):
        return out
    for r in _RANKS:
        if nibs[r] == 0xF:
            out.append(Combo(FOUR_OF_A_KIND, r, 0xF << _SHIFT[r]))
    for suit in range(4):
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
                        out.append(Combo(STRAIGHT_FLUSH, hi, cards))
            r = end + 1
    if on is not None and on.kind in BOMBS:
        key = on.bomb_key
        out = [c for c in out if c.bomb_key > key]
    return out


_GENERATORS: dict[str, Callable[[int, list[int], Combo | None, bool], list[Combo]]] = {
    SINGLE: _singles,
    PAIR: _same_rank(2, PAIR),
    TRIPLE: _same_rank(3, TRIPLE),
    FULL_HOUSE: _full_houses,
    PAIR_RUN: _pair_runs,
    STRAIGHT: _straights,
}


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
    mask = to_mask(hand)
    nibs = _nibbles(mask)
    if on is None:
        out: list[Combo] = []
        for generate in _GENERATORS.values():
            out.extend(generate(mask, nibs, None, phoenix_choice))
        out.extend(_bombs(mask, nibs, None, phoenix_choice))
        return out
    if on.kind == DOG_KIND:
        return []
    if on.kind in BOMBS:
        return _bombs(mask, nibs, on, phoenix_choice)
    out = _GENERATORS[on.kind](mask, nibs, on, phoenix_choice)
    out.extend(_bombs(mask, nibs, on, phoenix_choice))
    return out


def bombs(hand: CardsLike, on: Combo | None = None) -> list[Combo]:
    """The bombs in ``hand`` that may be played on ``on`` (all of them when ``on`` is None)."""
    mask = to_mask(hand)
    if on is not None and on.kind == DOG_KIND:
        return []
    return _bombs(mask, _nibbles(mask), on, False)
