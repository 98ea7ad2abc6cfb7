"""Move generation: every combination a hand can play, leading or on a given combination.

On a combination, the generator of its kind (:mod:`pagoda.tichu.generators`, one per kind,
chosen from :data:`ANSWERS` by the kind on the table) lists what beats it, and the bombs follow;
nothing is played on the Dog. Leading, every kind's generator lists its plays in turn
(:func:`~pagoda.tichu.leads.lead_reference`). Each play is one
:class:`~pagoda.tichu.combos.Combo` per set of cards (with its highest reading, or every reading
when the rules let the player name the Phoenix's rank).

:func:`lead_plays` gives the same lead counted first and made when read
(:mod:`pagoda.tichu.leads`), which is what a round lists.
"""

from pagoda.tichu.cards import CardsLike, to_mask
from pagoda.tichu.combos import (
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
from pagoda.tichu.generators import (
    Generator,
    Raw,
    bomb_plays,
    full_house_plays,
    has_bomb,
    pair_plays,
    pair_run_plays,
    single_plays,
    straight_plays,
    triple_plays,
    with_wishes,
)
from pagoda.tichu.leads import LEAD_KINDS, Lead, lead_plays, lead_reference

__all__ = [
    "ANSWERS",
    "LEAD_KINDS",
    "Lead",
    "Raw",
    "bombs",
    "has_bomb",
    "lead_plays",
    "lead_reference",
    "plays",
    "raw_bombs",
    "raw_plays",
    "with_wishes",
]


def _nothing(hand: int, on: Combo | None, choice: bool = False) -> list[Raw]:
    """Nothing but a bomb beats a bomb (the bombs are listed after the answers)."""
    return []


#: The generator of the answers to each kind of combination, bombs aside.
ANSWERS: dict[str, Generator] = {
    SINGLE: single_plays,
    PAIR: pair_plays,
    TRIPLE: triple_plays,
    FULL_HOUSE: full_house_plays,
    PAIR_RUN: pair_run_plays,
    STRAIGHT: straight_plays,
    FOUR_OF_A_KIND: _nothing,
    STRAIGHT_FLUSH: _nothing,
}


def raw_plays(mask: int, on: Combo | None, phoenix_choice: bool = False, *, bombs: bool = True) -> list[Raw]:
    """:func:`plays` as ``(kind, rank, mask, phoenix)`` tuples, for the rules core.

    ``bombs=False`` leaves out the bombs of a hand known to hold none.
    """
    if on is None:
        return lead_reference(mask, phoenix_choice)
    if on.kind == DOG_KIND:
        return []
    out = ANSWERS[on.kind](mask, on, phoenix_choice)
    if bombs:
        out += bomb_plays(mask, on)
    return out


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
    return bomb_plays(mask, on)


def bombs(hand: CardsLike, on: Combo | None = None) -> list[Combo]:
    """The bombs in ``hand`` that may be played on ``on`` (all of them when ``on`` is None).

    >>> [str(c) for c in bombs("4g 4k 4b 4r 5g 6g 7g 8g", on=bombs("3g 3k 3b 3r")[0])]
    ['4g 4k 4b 4r', '4g 5g 6g 7g 8g']
    """
    return [Combo(*raw) for raw in raw_bombs(to_mask(hand), on)]
