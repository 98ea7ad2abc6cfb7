"""One generator per Tichu combination kind: the plays of that kind a hand can make on a table.

Each generator takes a hand (a card mask), the combination on the table (``None``: leading)
and whether the player may name the Phoenix's rank, and lists the plays of its kind that beat
the table, as ``(kind, rank, mask, phoenix)`` tuples (:data:`Raw`), one per set of cards (with
its highest reading; with ``choice``, one per reading). The order is the order of the legal
actions: by rank, and within a rank by the cards' masks, lowest first.

- :func:`single_plays`: the Mah Jong (leading), the naturals above the table, the Phoenix
  (half above, not on the Dragon), the Dragon, the Dog (leading).
- :func:`pair_plays`, :func:`triple_plays`: two or three cards of a rank, or one fewer with the
  Phoenix.
- :func:`full_house_plays`: a triple and a pair; the Phoenix completes either, or turns two
  pairs into a full house of the higher triple.
- :func:`pair_run_plays`, :func:`straight_plays`: runs of consecutive ranks (pairs; single
  cards from the Mah Jong's 1 up), listed a rank window at a time (:func:`pair_run_windows`,
  :func:`straight_windows`), the Phoenix filling one gap or standing for one rank.
- :func:`bomb_plays`: fours of a kind, then straight flushes by suit, lowest first.
"""

from collections.abc import Callable

from pagoda.core import iter_bits
from pagoda.tichu.cards import (
    CARDS,
    DOG_BIT,
    DRAGON_BIT,
    MAH_JONG_BIT,
    NORMAL_CARDS,
    PHOENIX_BIT,
    RANK_MASKS,
    SUIT_MASKS,
    card_index,
    rank_shift,
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
#: A generator of one kind: (hand, table, choice) -> the plays of that kind that beat the table.
Generator = Callable[[int, Combo | None, bool], list[Raw]]

#: The ranks of the suited cards.
RANKS = range(2, 15)


def _subsets(suits: int, size: int) -> tuple[int, ...]:
    """The ``size``-card subsets of a rank's ``suits`` (a 4-bit mask), in increasing order."""
    return tuple(s for s in range(16) if s & ~suits == 0 and s.bit_count() == size)


# _SUBSETS[suits][size]: the subsets above for every 4-bit mask of suits and every size.
_SUBSETS = tuple(tuple(_subsets(suits, size) for size in range(5)) for suits in range(16))


def rank_sets(hand: int, rank: int, size: int) -> list[int]:
    """The sets of ``size`` cards of ``rank`` (2..14) in ``hand``, as masks in increasing order.

    >>> from pagoda.tichu.cards import format_cards, to_mask
    >>> [format_cards(m) for m in rank_sets(to_mask("5g 5b 5r 6g"), 5, 2)]
    ['5g 5b', '5g 5r', '5b 5r']
    """
    shift = rank_shift(rank)
    return [s << shift for s in _SUBSETS[hand >> shift & 0xF][size]]


def rank_counts(hand: int) -> list[int]:
    """The cards of each rank 0..14 in ``hand``: the Mah Jong as rank 1, none at rank 0."""
    counts = [(hand & cards).bit_count() for cards in RANK_MASKS]
    counts[1] = 1 if hand & MAH_JONG_BIT else 0
    return counts


def single_plays(hand: int, on: Combo | None, choice: bool = False) -> list[Raw]:
    """The single cards ``hand`` can play on ``on`` (a single, or ``None``: leading)."""
    out: list[Raw] = []
    if on is None and hand & MAH_JONG_BIT:
        out.append((SINGLE, 1, MAH_JONG_BIT, 0))
    above = 1 if on is None else int(on.rank)
    higher = hand & NORMAL_CARDS & ~((1 << rank_shift(above + 1)) - 1)  # the naturals from rank above + 1
    out += [(SINGLE, CARDS[card].rank, 1 << card, 0) for card in iter_bits(higher)]
    if hand & PHOENIX_BIT and (on is None or on.mask != DRAGON_BIT):
        out.append((SINGLE, 1.5 if on is None else on.rank + 0.5, PHOENIX_BIT, 0))
    if hand & DRAGON_BIT:
        out.append((SINGLE, 15, DRAGON_BIT, 0))
    if on is None and hand & DOG_BIT:
        out.append((DOG_KIND, 0, DOG_BIT, 0))
    return out


def _same_rank(hand: int, on: Combo | None, size: int, kind: str) -> list[Raw]:
    """``size`` cards of one rank above ``on``: natural, then with the Phoenix for one of them."""
    out: list[Raw] = []
    phoenix = hand & PHOENIX_BIT
    enough = size - 1 if phoenix else size
    for rank in range(2 if on is None else int(on.rank) + 1, 15):
        if (hand & RANK_MASKS[rank]).bit_count() < enough:
            continue
        out += [(kind, rank, cards, 0) for cards in rank_sets(hand, rank, size)]
        if phoenix:
            out += [(kind, rank, cards | PHOENIX_BIT, rank) for cards in rank_sets(hand, rank, size - 1)]
    return out


def pair_plays(hand: int, on: Combo | None, choice: bool = False) -> list[Raw]:
    """The pairs ``hand`` can play on ``on`` (a pair, or ``None``: leading)."""
    return _same_rank(hand, on, 2, PAIR)


def triple_plays(hand: int, on: Combo | None, choice: bool = False) -> list[Raw]:
    """The triples ``hand`` can play on ``on`` (a triple, or ``None``: leading)."""
    return _same_rank(hand, on, 3, TRIPLE)


def full_house_plays(hand: int, on: Combo | None, choice: bool = False) -> list[Raw]:
    """The full houses ``hand`` can play on ``on`` (a full house, or ``None``: leading).

    By the triple's rank, then the pair's: a natural triple with a natural pair, then with a card
    and the Phoenix; then two pairs of a lower rank with two cards of the triple's and the Phoenix
    (read as the higher triple; with ``choice`` also as the lower one, after it).
    """
    out: list[Raw] = []
    phoenix = hand & PHOENIX_BIT
    above = 1 if on is None else int(on.rank)
    counts = rank_counts(hand)
    # The ranks that give the triple: three cards, or two with the Phoenix.
    tops = [t for t in range(above + 1, 15) if counts[t] >= (2 if phoenix else 3)]
    if not tops:
        return out
    pairs = [[], [], *[rank_sets(hand, rank, 2) for rank in RANKS]]
    singles = [[], [], *[rank_sets(hand, rank, 1) if phoenix else [] for rank in RANKS]]
    for t in tops:
        triples = rank_sets(hand, t, 3)
        twos = pairs[t] if phoenix else []  # two cards the Phoenix makes a triple
        for p in RANKS:
            if p == t or not counts[p]:
                continue
            for triple in triples:
                out += [(FULL_HOUSE, t, triple | pair, 0) for pair in pairs[p]]
                out += [(FULL_HOUSE, t, triple | card | PHOENIX_BIT, p) for card in singles[p]]
            if p < t:  # (the same cards with p > t are met from p, their higher triple)
                for two in twos:
                    for pair in pairs[p]:
                        out.append((FULL_HOUSE, t, two | pair | PHOENIX_BIT, t))
                        if choice and p > above:
                            out.append((FULL_HOUSE, p, two | pair | PHOENIX_BIT, p))
    return out


def _spans(
    lack: list[int], phoenix: int, lowest: int, shortest: int, on: Combo | None, per: int
) -> list[tuple[int, int]]:
    """The rank windows ``(lo, hi)`` of a run whose ranks lack, in all, no more cards than the
    Phoenix gives (``lack[rank]``: the cards a rank lacks, 2 where nothing can fill it).

    Leading: every window of ``shortest`` ranks or more from ``lowest`` up, by its top rank and
    then downwards. On a run: the windows of its length (``on.length // per`` ranks) above it.
    """
    out: list[tuple[int, int]] = []
    lo = lowest  # the lowest rank of a window up to hi that the Phoenix can fill
    lacking = 0  # what lo..hi lacks
    for hi in range(lowest, 15):
        lacking += lack[hi]
        while lacking > phoenix:
            lacking -= lack[lo]
            lo += 1
        if on is None:
            if hi - lo + 1 >= shortest:
                out += [(bottom, hi) for bottom in range(hi - shortest + 1, lo - 1, -1)]
        elif hi > on.rank and hi - lo + 1 >= on.length // per:
            out.append((hi - on.length // per + 1, hi))
    return out


def pair_run_windows(counts: list[int], phoenix: int, on: Combo | None) -> list[tuple[int, int]]:
    """The rank windows ``(lo, hi)`` where a hand of ``counts`` cards of each rank
    (:func:`rank_counts`) has a pair run that may be played on ``on``: a pair of every rank, but
    for one rank of one card when it holds the Phoenix (``phoenix`` 1)."""
    if max(counts[2:]) < 2:
        return []  # (no pair, no pair run)
    lack = [2, 2, *[0 if n >= 2 else 2 - n for n in counts[2:]]]
    return _spans(lack, phoenix, 2, 2, on, 2)


def window_pair_runs(hand: int, lo: int, hi: int) -> list[Raw]:
    """The pair runs of ``hand`` over the ranks ``lo``..``hi``: a pair of each rank (the higher
    ranks varying faster), those with the Phoenix for one card after the natural ones."""
    phoenix = hand & PHOENIX_BIT
    built: list[tuple[int, int]] = [(0, 0)]  # (cards so far, the rank the Phoenix stands for)
    for rank in range(lo, hi + 1):
        grown = [(cards | pair, spot) for cards, spot in built for pair in rank_sets(hand, rank, 2)]
        if phoenix:
            singles = rank_sets(hand, rank, 1)
            grown += [
                (cards | card | PHOENIX_BIT, rank) for cards, spot in built if not spot for card in singles
            ]
        built = grown
    return [(PAIR_RUN, hi, cards, spot) for cards, spot in built]


def pair_run_plays(hand: int, on: Combo | None, choice: bool = False) -> list[Raw]:
    """The pair runs ``hand`` can play on ``on`` (a pair run, or ``None``: leading)."""
    out: list[Raw] = []
    for lo, hi in pair_run_windows(rank_counts(hand), 1 if hand & PHOENIX_BIT else 0, on):
        out += window_pair_runs(hand, lo, hi)
    return out


def phoenix_spots(lo: int, hi: int, gaps: list[int], phoenix: bool, choice: bool) -> list[int]:
    """The ranks the Phoenix may stand for in a straight over ``lo``..``hi`` (0: not in it).

    A gap, it fills; in a window the hand holds whole, any rank but the Mah Jong's, and then
    none. At the bottom it makes the same cards as the straight one rank higher with the Phoenix
    on top, so that reading is left out (unless the top is the Ace, or the player names it).
    """
    if gaps:
        return [] if gaps[0] == lo and hi < 14 and not choice else gaps
    if not phoenix:
        return [0]
    return [rank for rank in range(max(lo, 2), hi + 1) if rank != lo or hi == 14 or choice] + [0]


def straight_windows(
    counts: list[int], phoenix: int, on: Combo | None, choice: bool = False
) -> list[tuple[int, int, int]]:
    """Where a hand of ``counts`` cards of each rank (:func:`rank_counts`; ``phoenix`` 1 with the
    Phoenix) has straights that may be played on ``on``: ``(lo, hi, spot)`` for the ranks
    ``lo``..``hi`` (1 is the Mah Jong) and the rank the Phoenix stands for (0: none)."""
    if 15 - counts.count(0) + phoenix < 5:
        return []  # (fewer than five ranks 1..14 held, with the Phoenix)
    lack = [2, 0 if counts[1] else 2, *[0 if n else 1 for n in counts[2:]]]  # nothing stands for the Mah Jong
    out: list[tuple[int, int, int]] = []
    for lo, hi in _spans(lack, phoenix, 1, 5, on, 1):
        gaps = [rank for rank in range(lo, hi + 1) if not counts[rank]]
        out += [(lo, hi, spot) for spot in phoenix_spots(lo, hi, gaps, bool(phoenix), choice)]
    return out


def _run_cards(hand: int, rank: int) -> list[int]:
    """The cards ``hand`` can put at ``rank`` of a straight: the Mah Jong at 1."""
    if rank == 1:
        return [MAH_JONG_BIT] if hand & MAH_JONG_BIT else []
    return rank_sets(hand, rank, 1)


def is_one_suit(cards: int) -> bool:
    """Are ``cards`` (naturals) all of one suit?"""
    return any(cards & ~suit == 0 for suit in SUIT_MASKS)


def window_straights(hand: int, lo: int, hi: int, spot: int) -> list[Raw]:
    """The straights of ``hand`` over the ranks ``lo``..``hi`` with the Phoenix for ``spot`` (0:
    without it), the higher ranks varying faster; one-suit sets are left out (straight flushes,
    listed as bombs)."""
    built = [PHOENIX_BIT if spot else 0]
    for rank in range(lo, hi + 1):
        if rank != spot:
            built = [cards | card for cards in built for card in _run_cards(hand, rank)]
    if not spot and lo > 1:
        built = [cards for cards in built if not is_one_suit(cards)]
    return [(STRAIGHT, hi, cards, spot) for cards in built]


def straight_plays(hand: int, on: Combo | None, choice: bool = False) -> list[Raw]:
    """The straights ``hand`` can play on ``on`` (a straight, or ``None``: leading)."""
    out: list[Raw] = []
    for lo, hi, spot in straight_windows(rank_counts(hand), 1 if hand & PHOENIX_BIT else 0, on, choice):
        out += window_straights(hand, lo, hi, spot)
    return out


def four_of_a_kind_starts(hand: int) -> int:
    """The Jade cards of the ranks whose four cards ``hand`` holds (a rank's four cards are
    four bits in a row, from its Jade card)."""
    return hand & hand >> 1 & hand >> 2 & hand >> 3 & SUIT_MASKS[0]


def straight_flush_starts(hand: int) -> int:
    """The cards of ``hand`` that start five cards of one suit in a row (a suit's next rank is
    four bits up)."""
    naturals = hand & NORMAL_CARDS
    starts = naturals
    for step in range(1, 5):
        starts &= naturals >> 4 * step
    return starts


def five_rank_starts(hand: int) -> int:
    """The Jade cards of the ranks 2..10 from which ``hand`` holds a natural of each of five
    ranks in a row (the ranks held are marked at their Jade card, a rank four bits up)."""
    held = (hand | hand >> 1 | hand >> 2 | hand >> 3) & SUIT_MASKS[0]
    starts = held
    for step in range(1, 5):
        starts &= held >> 4 * step
    return starts


def has_bomb(mask: int) -> bool:
    """Does ``mask`` hold four of a kind or five consecutive cards of one suit?

    >>> from pagoda.tichu.cards import to_mask
    >>> [has_bomb(to_mask(cards)) for cards in ("7g 7k 7b 7r", "2r 3r 4r 5r 6r", "2r 3r 4r 5r Ph")]
    [True, True, False]
    """
    return bool(four_of_a_kind_starts(mask) or straight_flush_starts(mask))


def bomb_plays(hand: int, on: Combo | None, choice: bool = False) -> list[Raw]:
    """The bombs ``hand`` can play on ``on`` (any combination but the Dog, or ``None``):
    fours of a kind by rank, then straight flushes by suit, lowest first, the shorter first."""
    out: list[Raw] = [
        (FOUR_OF_A_KIND, r, RANK_MASKS[r], 0) for r in RANKS if hand & RANK_MASKS[r] == RANK_MASKS[r]
    ]
    if straight_flush_starts(hand):
        for suit in range(4):
            for lo in range(2, 11):
                cards = 0
                for hi in range(lo, 15):
                    card = 1 << card_index(hi, suit)
                    if not hand & card:
                        break
                    cards |= card
                    if hi - lo >= 4:
                        out.append((STRAIGHT_FLUSH, hi, cards, 0))
    if on is not None and on.kind in BOMBS:
        out = [bomb for bomb in out if Combo(*bomb).bomb_key > on.bomb_key]
    return out


def with_wishes(plays: list[Raw], wishes: tuple[int, ...]) -> list[Raw | tuple[Raw, int]]:
    """``plays`` with each play of the Mah Jong once per wish, as ``(play, wish)``."""
    out: list[Raw | tuple[Raw, int]] = []
    for play in plays:
        if play[2] & MAH_JONG_BIT:
            out += [(play, wish) for wish in wishes]
        else:
            out.append(play)
    return out
