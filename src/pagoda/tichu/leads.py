"""What a hand leads: the plain list, and the same counted first, each kind made when read.

:func:`lead_reference` is the definition: every kind's generator (:mod:`pagoda.tichu.generators`)
in the order of :data:`LEAD_KINDS`, the bombs last. :func:`lead_plays` is what a round lists:

a hand of 14 cards can lead hundreds of plays, and a player who picks one needs their number
and the one picked (a single, most often). The number of each kind comes from the cards of each
rank, without making a play:

- singles: one a card, the Mah Jong's once per wish;
- pairs: ``C(n, 2)`` of a rank of ``n`` cards, and ``n`` more with the Phoenix; triples:
  ``C(n, 3)``, and ``C(n, 2)`` more with the Phoenix;
- full houses: each triple with each pair of another rank, and with the Phoenix each two
  pairs of different ranks;
- pair runs and straights: a rank window at a time, the product of the choices at each rank
  (less a straight's one-suit sets, which are bombs);
- bombs: each four of a kind, and each run of five or more of a suit.

A kind is made whole by its generator when an index first falls in it. The plays and their
order are the reference's, and property tests hold the two equal.
"""

from collections.abc import Callable, Sequence
from functools import partial
from math import comb
from typing import overload

from pagoda.tichu.cards import (
    CARDS,
    DOG,
    DOG_BIT,
    MAH_JONG,
    MAH_JONG_BIT,
    NORMAL_CARDS,
    PHOENIX,
    PHOENIX_BIT,
    rank_shift,
)
from pagoda.tichu.combos import DOG_KIND, SINGLE
from pagoda.tichu.generators import (
    Generator,
    Raw,
    bomb_plays,
    five_rank_starts,
    four_of_a_kind_starts,
    full_house_plays,
    pair_plays,
    pair_run_plays,
    pair_run_windows,
    rank_counts,
    single_plays,
    straight_flush_starts,
    straight_plays,
    straight_windows,
    triple_plays,
    window_pair_runs,
    window_straights,
    with_wishes,
)

#: The generators of a lead, in the order its plays are listed (bombs last).
LEAD_KINDS: tuple[Generator, ...] = (
    single_plays,
    pair_plays,
    triple_plays,
    full_house_plays,
    pair_run_plays,
    straight_plays,
    bomb_plays,
)


def lead_reference(hand: int, choice: bool = False) -> list[Raw]:
    """Every play ``hand`` leads, each kind's in turn (with ``choice``, every reading).

    >>> from pagoda.tichu.cards import to_mask
    >>> len(lead_reference(to_mask("2g 2k Ph")))  # 3 singles + pairs 2g2k, 2gPh, 2kPh + triple 2g2kPh
    7
    """
    return [play for generate in LEAD_KINDS for play in generate(hand, None, choice)]


#: A play as listed: a combination, or ``(combination, wish)`` for a play of the Mah Jong.
Entry = Raw | tuple[Raw, int]
#: One kind (or rank window) of a lead: the number of its plays, and the maker of their list.
Part = tuple[int, Callable[[], Sequence[Entry]]]


def count_same_ranks(counts: list[int], phoenix: int) -> tuple[int, int, int]:
    """The pairs, triples and full houses of a hand with ``counts`` cards of each rank
    (:func:`~pagoda.tichu.generators.rank_counts`; ``phoenix`` 1 with the Phoenix; no reading
    named), from how many ranks hold one, two, three or four cards.

    A rank of 2, 3 or 4 cards makes 1, 3 or 6 pairs, and 0, 1 or 4 triples; with the Phoenix each
    card makes a pair more, and each pair a triple more. A full house is a triple and a pair of
    another rank; with the Phoenix, also two pairs of different ranks (the higher made a triple).
    """
    naturals = counts[2:]
    ones, twos, threes, fours = naturals.count(1), naturals.count(2), naturals.count(3), naturals.count(4)
    cards = ones + 2 * twos + 3 * threes + 4 * fours
    natural_pairs = twos + 3 * threes + 6 * fours
    natural_triples = threes + 4 * fours
    pairs = natural_pairs + phoenix * cards
    triples = natural_triples + phoenix * natural_pairs
    # Every triple with every pair, less each with the pairs of its own rank: a rank of 3 cards
    # has 1 triple and 3 pairs (6 with the Phoenix), one of 4 cards 4 triples and 6 pairs (10).
    own = threes * 1 * (3 + 3 * phoenix) + fours * 4 * (6 + 4 * phoenix)
    houses = natural_triples * pairs - own
    if phoenix:
        # Two natural pairs of different ranks: half of every pair with every pair, less each
        # pair with those of its own rank.
        same = twos * 1**2 + threes * 3**2 + fours * 6**2
        houses += (natural_pairs * natural_pairs - same) // 2
    return pairs, triples, houses


def count_window_pair_runs(counts: list[int], lo: int, hi: int, phoenix: int) -> int:
    """The pair runs over the ranks ``lo``..``hi`` (as :func:`window_pair_runs` makes them)."""
    natural, with_phoenix = 1, 0
    for n in counts[lo : hi + 1]:
        natural, with_phoenix = natural * comb(n, 2), with_phoenix * comb(n, 2) + phoenix * natural * n
    return natural + with_phoenix


def count_window_straights(
    hand: int, counts: list[int], lo: int, hi: int, spot: int, flushes: bool = True
) -> int:
    """The straights over the ranks ``lo``..``hi``, the Phoenix for ``spot`` (as
    :func:`window_straights` makes them: without the one-suit sets). ``flushes=False`` says
    that the hand holds no five cards of a suit in a row, so no one-suit set to leave out."""
    n = 1
    for rank in range(lo, hi + 1):
        if rank != spot:
            n *= counts[rank]
    if spot or lo == 1 or not flushes:
        return n
    suits = 0xF  # the suits every rank has: one straight flush each
    for rank in range(lo, hi + 1):
        suits &= hand >> rank_shift(rank)
    return n - suits.bit_count()


def count_bombs(hand: int) -> int:
    """The bombs of ``hand``: fours of a kind, and the straight flushes: for each length from
    five up, the cards that start that many of their suit in a row (a suit's next rank is four
    bits up, as in :func:`~pagoda.tichu.generators.straight_flush_starts`)."""
    bombs = four_of_a_kind_starts(hand).bit_count()
    naturals = hand & NORMAL_CARDS
    starts = straight_flush_starts(hand)  # (those of five in a row)
    length = 5
    while starts:
        bombs += starts.bit_count()
        starts &= naturals >> 4 * length  # (those of one more)
        length += 1
    return bombs


def _led_single(card: int) -> Raw:
    """The play of ``card`` alone, leading."""
    if card == DOG:
        return (DOG_KIND, 0, DOG_BIT, 0)
    return (SINGLE, 1.5 if card == PHOENIX else CARDS[card].rank, 1 << card, 0)


def _wished(make: Callable[[], list[Raw]], wishes: tuple[int, ...]) -> list[Entry]:
    """The plays ``make`` makes, each with the Mah Jong once per wish."""
    return with_wishes(make(), wishes)


def lead_parts(hand: int, wishes: tuple[int, ...]) -> list[Part]:
    """The kinds (and rank windows) of what ``hand`` leads after its singles, in order, counted."""
    if hand.bit_count() < 2:
        return []
    counts = rank_counts(hand)
    phoenix = 1 if hand & PHOENIX_BIT else 0
    pairs, triples, houses = count_same_ranks(counts, phoenix)
    parts: list[Part] = []  # (a kind with no plays has no part: no index falls in it)
    if pairs:
        parts.append((pairs, partial(pair_plays, hand, None)))
    if triples:
        parts.append((triples, partial(triple_plays, hand, None)))
    if houses:
        parts.append((houses, partial(full_house_plays, hand, None)))
    # A pair run needs pairs of two ranks, or one and the Phoenix: no need to look for one else.
    naturals = counts[2:]
    paired = len(naturals) - naturals.count(0) - naturals.count(1)  # (ranks of 2 cards or more)
    for lo, hi in pair_run_windows(counts, phoenix, None) if paired + phoenix >= 2 else ():
        parts.append(
            (count_window_pair_runs(counts, lo, hi, phoenix), partial(window_pair_runs, hand, lo, hi))
        )
    flushes = straight_flush_starts(hand)
    # Without the Mah Jong and the Phoenix, a straight needs five naturals of ranks in a row.
    maybe_straights = hand & (MAH_JONG_BIT | PHOENIX_BIT) or five_rank_starts(hand)
    for lo, hi, spot in straight_windows(counts, phoenix, None) if maybe_straights else ():
        count = count_window_straights(hand, counts, lo, hi, spot, flushes != 0)
        make = partial(window_straights, hand, lo, hi, spot)
        if lo == 1 and wishes:  # each with the Mah Jong once per wish
            parts.append((count * len(wishes), partial(_wished, make, wishes)))
        else:
            parts.append((count, make))
    if 4 in counts or flushes:
        parts.append((count_bombs(hand), partial(bomb_plays, hand, None)))
    return parts


class Lead(Sequence[Entry]):
    """What a hand leads, in :func:`lead_reference`'s order: counted at once, made when read.

    The ``singles`` come first: the hand's cards in hand order, the Dog last (with ``wishes``,
    the Mah Jong's once per wish, as ``(play, wish)``); :meth:`single` reads one without making
    anything. The other kinds follow, each made the first time an index falls in it.
    """

    __slots__ = ("_hand", "_made", "_parts", "_wishes", "n", "singles")

    def __init__(self, hand: int, wishes: tuple[int, ...] = ()) -> None:
        if not hand & MAH_JONG_BIT:
            wishes = ()
        self._hand = hand
        self._wishes = wishes
        #: The number of single cards led (the Mah Jong once per wish).
        self.singles = hand.bit_count() + (len(wishes) - 1 if wishes else 0)
        self._parts = lead_parts(hand, wishes)
        self._made: dict[int, Sequence[Entry]] = {}  # each part's plays, once made
        #: The number of plays.
        self.n = self.singles + sum(count for count, _ in self._parts)

    def __len__(self) -> int:
        return self.n

    def single(self, k: int) -> tuple[int, int]:
        """The ``k``-th play (below :attr:`singles`): its card and its wish (0: none)."""
        wishes = self._wishes
        if k < len(wishes):
            return MAH_JONG, wishes[k]
        k -= len(wishes)
        rest = self._hand & ~DOG_BIT & ~(MAH_JONG_BIT if wishes else 0)  # the cards in hand order
        for _ in range(k):
            rest &= rest - 1  # (less the lowest)
        return ((rest & -rest).bit_length() - 1 if rest else DOG), 0

    @overload
    def __getitem__(self, index: int) -> Entry: ...
    @overload
    def __getitem__(self, index: slice) -> list[Entry]: ...
    def __getitem__(self, index: int | slice) -> Entry | list[Entry]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(self.n))]
        if index < 0:
            index += self.n
        if not 0 <= index < self.n:
            raise IndexError("play index out of range")
        if index < self.singles:
            card, wish = self.single(index)
            play = _led_single(card)
            return (play, wish) if self._wishes and card == MAH_JONG else play
        index -= self.singles
        for k, (count, make) in enumerate(self._parts):
            if index < count:
                plays = self._made.get(k)
                if plays is None:
                    plays = self._made[k] = make()
                return plays[index]
            index -= count
        raise AssertionError("the parts add up to the length")


def lead_plays(mask: int, wishes: tuple[int, ...] = ()) -> Lead:
    """:func:`lead_reference`, each kind counted at once and made only when read. With
    ``wishes``, each play of the Mah Jong comes once per wish, as ``(play, wish)``.

    >>> from pagoda.tichu.cards import to_mask
    >>> hand = to_mask("Mj 2g 3g 4k 5k 6k 6r Ph")
    >>> len(lead_plays(hand))  # 8 singles, 7 pairs, 1 triple, 1 pair run, 31 straights
    48
    >>> len(lead_plays(hand, (7, 9)))  # the Mah Jong's 19 plays (18 straights) once per wish
    67
    """
    return Lead(mask, wishes)
