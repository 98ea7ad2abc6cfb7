"""Tichu actions and their text.

``grand`` · ``no-grand`` · ``tichu`` · ``exchange <to next> <to partner> <to previous>`` ·
``play <cards>`` · ``play <cards> wish <rank>`` (with the Mah Jong) · ``play <cards> as <rank>``
(naming the Phoenix's rank, where the rules let the player choose) · ``pass`` · ``take`` ·
``give-dragon <seat>`` · ``no-bomb`` (a seat asked whether it bombs the table lets play go on).
"""

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import permutations
from typing import TYPE_CHECKING, overload

from pagoda.core import ParseError
from pagoda.tichu.cards import (
    CARDS,
    MAH_JONG,
    MAH_JONG_BIT,
    Card,
    format_cards,
    format_rank,
    mask_indices,
    parse_cards,
    parse_rank,
    to_mask,
)
from pagoda.tichu.combos import Combo, _single

if TYPE_CHECKING:
    from pagoda.tichu.movegen import Lead, Raw

GRAND = "grand"
NO_GRAND = "no-grand"
TICHU = "tichu"
EXCHANGE = "exchange"
PLAY = "play"
PASS = "pass"
TAKE = "take"
GIVE_DRAGON = "give-dragon"
NO_BOMB = "no-bomb"
_SIMPLE = (GRAND, NO_GRAND, TICHU, PASS, TAKE, NO_BOMB)


@dataclass(frozen=True, slots=True, eq=False, repr=False)
class Action:
    """One action (immutable); ``str(action)`` is its text and :func:`parse_action` reads it back.

    A play carries its card ``mask`` (and the :class:`Combo` when the action came from
    ``legal_actions``), the ``wish`` made with the Mah Jong (0: none) and the Phoenix
    ``reading`` named (0: none). An exchange carries its three ``gifts`` (to the next seat, the
    partner, the previous seat); ``give-dragon`` its ``target`` seat.

    >>> a = parse_action("play Mj 2g 3k 4b 5r wish 7")
    >>> a.kind, a.wish, str(a)
    ('play', 7, 'play Mj 2g 3k 4b 5r wish 7')
    >>> a.mask = 0
    Traceback (most recent call last):
    ...
    dataclasses.FrozenInstanceError: cannot assign to field 'mask'
    """

    kind: str
    mask: int = 0
    wish: int = 0
    reading: int = 0
    gifts: tuple[Card, Card, Card] | None = None
    target: int = -1
    combo: Combo | None = None

    @staticmethod
    def parse(text: str) -> "Action":
        """Read an action's text: :func:`parse_action` (``repr(action)`` calls it).

        >>> Action.parse("play 2g")
        Action.parse('play 2g')
        """
        return parse_action(text)

    @classmethod
    def play(cls, combo: Combo, wish: int = 0, reading: int = 0) -> "Action":
        """The action that plays ``combo``."""
        return cls(PLAY, combo.mask, wish, reading, combo=combo)

    def _key(self) -> tuple[str, int, int, int, tuple[Card, Card, Card] | None, int]:
        return (self.kind, self.mask, self.wish, self.reading, self.gifts, self.target)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, str):
            return str(self) == other
        if not isinstance(other, Action):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __str__(self) -> str:
        kind = self.kind
        if kind == PLAY:
            text = f"play {format_cards(self.mask)}"
            if self.reading:
                text += f" as {format_rank(self.reading)}"
            if self.wish:
                text += f" wish {format_rank(self.wish)}"
            return text
        if kind == EXCHANGE:
            assert self.gifts is not None
            return "exchange " + format_cards(self.gifts)
        if kind == GIVE_DRAGON:
            return f"give-dragon {self.target}"
        return kind

    def __repr__(self) -> str:
        return f"Action.parse({str(self)!r})"


def parse_action(text: str) -> Action:
    """Read an action's text (the syntax only; whether it is legal is the round's question).

    >>> parse_action("exchange 2g Dr 3k").gifts
    (Card.parse('2g'), Card.parse('Dr'), Card.parse('3k'))
    >>> parse_action("play 5g 5r wish 3")
    Traceback (most recent call last):
    ...
    pagoda.core.errors.ParseError: a wish is made only with the Mah Jong: 'play 5g 5r wish 3'
    """
    if not isinstance(text, str):
        raise ParseError(f"an action is text, not {type(text).__name__}")
    words = text.split()
    if not words:
        raise ParseError("empty action")
    kind = words[0].lower()
    rest = words[1:]
    if kind in _SIMPLE:
        if rest:
            raise ParseError(f"{kind!r} takes nothing after it: {text!r}")
        return Action(kind)
    if kind == EXCHANGE:
        gifts = parse_cards(" ".join(rest))
        if len(gifts) != 3:
            raise ParseError(
                f"an exchange gives 3 cards (to next, partner, previous), not {len(gifts)}: {text!r}"
            )
        return Action(EXCHANGE, gifts=(gifts[0], gifts[1], gifts[2]))
    if kind == GIVE_DRAGON:
        if len(rest) != 1 or rest[0] not in ("0", "1", "2", "3"):
            raise ParseError(f"give-dragon names one seat 0-3: {text!r}")
        return Action(GIVE_DRAGON, target=int(rest[0]))
    if kind == PLAY:
        wish = reading = 0
        card_words: list[str] = []
        i = 0
        while i < len(rest):
            word = rest[i].lower()
            if word not in ("wish", "as"):
                if wish or reading:
                    raise ParseError(f"the cards come before 'as' and 'wish': {text!r}")
                card_words.append(rest[i])
                i += 1
                continue
            if i + 1 >= len(rest):
                raise ParseError(f"'{word}' is followed by a rank: {text!r}")
            if wish if word == "wish" else reading:
                raise ParseError(f"'{word}' is said once: {text!r}")
            value = parse_rank(rest[i + 1])
            if word == "wish":
                wish = value
            else:
                reading = value
            i += 2
        rest = card_words
        if not rest:
            raise ParseError(f"play names the cards it plays: {text!r}")
        mask = to_mask(" ".join(rest))
        if wish and not mask & MAH_JONG_BIT:
            raise ParseError(f"a wish is made only with the Mah Jong: {text!r}")
        return Action(PLAY, mask, wish, reading)
    raise ParseError(
        f"unknown action {words[0]!r}: one of grand, no-grand, tichu, exchange, play, pass, take,"
        " give-dragon, no-bomb"
    )


def as_action(action: "Action | str") -> Action:
    """``action`` itself, or read from its text."""
    return action if isinstance(action, Action) else parse_action(action)


class _LazyActions(Sequence[Action]):
    """A read-only list of actions made on demand: subclasses give ``__len__`` and ``_item``."""

    __slots__ = ()

    def _item(self, index: int) -> Action:
        raise NotImplementedError

    @overload
    def __getitem__(self, index: int) -> Action: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[Action]: ...
    def __getitem__(self, index: int | slice) -> Action | Sequence[Action]:
        if isinstance(index, slice):
            return [self._item(i) for i in range(*index.indices(len(self)))]
        n = len(self)
        if index < 0:
            index += n
        if not 0 <= index < n:
            raise IndexError("action index out of range")
        return self._item(index)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Sequence) and not isinstance(other, str):
            return len(self) == len(other) and list(self) == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return repr(list(self))


class ExchangeChoices(_LazyActions):
    """The 14 x 13 x 12 = 2,184 exchanges of a hand, generated on demand (a read-only list).

    ``first`` are actions listed before the exchanges (the ``tichu`` call while allowed).

    >>> from pagoda.tichu.cards import to_mask
    >>> choices = ExchangeChoices(to_mask("2g 3g 4g"), first=(Action("tichu"),))
    >>> len(choices), str(choices[0]), str(choices[1]), str(choices[-1])
    (7, 'tichu', 'exchange 2g 3g 4g', 'exchange 4g 3g 2g')
    """

    __slots__ = ("_cards", "_first", "_hand", "_n")

    def __init__(self, hand: int, first: tuple[Action, ...] = ()) -> None:
        self._hand = hand
        self._cards: list[int] | None = None  # the hand's card numbers, listed when first read
        self._first = first
        n = hand.bit_count()
        self._n = n * (n - 1) * (n - 2)

    def _indices(self) -> list[int]:
        """The numbers of the hand's cards, in hand order (listed once, when first needed)."""
        cards = self._cards
        if cards is None:
            cards = self._cards = mask_indices(self._hand)
        return cards

    def __len__(self) -> int:
        return len(self._first) + self._n

    def _item(self, index: int) -> Action:
        if index < len(self._first):
            return self._first[index]
        index -= len(self._first)
        cards = list(self._indices())
        n = len(cards)
        a, rest = divmod(index, (n - 1) * (n - 2))
        first = cards.pop(a)
        b, c = divmod(rest, n - 2)
        second = cards.pop(b)
        return Action(EXCHANGE, 0, 0, 0, (CARDS[first], CARDS[second], CARDS[cards[c]]), -1, None)

    def __iter__(self) -> Iterator[Action]:
        yield from self._first
        for gifts in permutations(self._indices(), 3):
            yield Action(EXCHANGE, gifts=(CARDS[gifts[0]], CARDS[gifts[1]], CARDS[gifts[2]]))

    def __contains__(self, item: object) -> bool:
        if isinstance(item, str):
            try:
                item = parse_action(item)
            except ParseError:
                return False
        if not isinstance(item, Action):
            return False
        if item.kind != EXCHANGE or item.gifts is None:
            return item in self._first
        gifts = item.gifts
        cards = self._indices()
        return len(set(gifts)) == 3 and all(g in cards for g in gifts)


class PlayList(_LazyActions):
    """Plays of combinations (as generated) followed by a few other actions, made on demand.

    Most of a long list of legal plays is never looked at (a random or sampling player picks
    one), so its :class:`Action` objects are built only when read. An entry is a combination
    as generated, or ``(combination, wish)`` for a play of the Mah Jong with its wish. It
    behaves as a read-only list and compares equal to a list of the same actions.
    """

    __slots__ = ("_combos", "_made", "_n", "_rest")

    def __init__(
        self, combos: "Sequence[Raw] | Sequence[Raw | tuple[Raw, int]]", rest: Sequence[Action]
    ) -> None:
        self._combos = combos
        self._n = len(combos)
        self._rest = tuple(rest)  # a copy: nothing the caller keeps can change the list
        self._made: dict[int, Action] = {}  # by index, the plays handed out

    def __len__(self) -> int:
        return self._n + len(self._rest)

    @overload
    def __getitem__(self, index: int) -> Action: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[Action]: ...
    def __getitem__(self, index: int | slice) -> Action | Sequence[Action]:
        if type(index) is not int:
            return super().__getitem__(index)
        n = self._n
        if index < 0:
            index += n + len(self._rest)
        if 0 <= index < n:
            made = self._made.get(index)
            return made if made is not None else self._make(index)
        if n <= index < n + len(self._rest):
            return self._rest[index - n]
        raise IndexError("action index out of range")

    def _make(self, index: int) -> Action:
        entry = self._combos[index]
        if len(entry) == 2:
            raw, wish = entry
        else:
            raw, wish = entry, 0
        made = self._made[index] = Action(PLAY, raw[2], wish, 0, None, -1, Combo(*raw))
        return made

    def _item(self, index: int) -> Action:
        if index >= self._n:
            return self._rest[index - self._n]
        made = self._made.get(index)
        return made if made is not None else self._make(index)

    def made(self, action: object) -> bool:
        """Is ``action`` itself one this list has handed out?"""
        for a in self._made.values():
            if a is action:
                return True
        for a in self._rest:  # noqa: SIM110 (a plain loop is faster than any() here)
            if a is action:
                return True
        return False

    def __iter__(self) -> Iterator[Action]:
        for i in range(len(self._combos)):
            yield self._item(i)
        yield from self._rest


# A single card led is the most frequent play of all: each is made once and shared by every
# round (an action is a value), the Mah Jong's once per wish (0: none).
SINGLE_PLAYS: tuple[Action, ...] = tuple(
    Action(PLAY, 1 << c, 0, 0, None, -1, _single(1 << c, None)) for c in range(56)
)
_MAH_JONG_PLAYS: tuple[Action, ...] = (
    SINGLE_PLAYS[MAH_JONG],
    *(Action(PLAY, MAH_JONG_BIT, w, 0, None, -1, SINGLE_PLAYS[MAH_JONG].combo) for w in range(1, 15)),
)


class LeadList(PlayList):
    """A lead's plays (:func:`~pagoda.tichu.movegen.lead_plays`) followed by a few other actions:
    its singles are the shared :data:`SINGLE_PLAYS`, the rest made on demand.

    >>> from pagoda.tichu.movegen import lead_plays
    >>> leads = LeadList(lead_plays(to_mask("Mj 2g 2k"), (0, 7)), [])
    >>> [str(a) for a in leads]
    ['play Mj', 'play Mj wish 7', 'play 2g', 'play 2k', 'play 2g 2k']
    >>> leads[2] is SINGLE_PLAYS[2]
    True
    """

    __slots__ = ("_singles",)

    def __init__(self, lead: "Lead", rest: Sequence[Action]) -> None:
        self._combos = lead
        self._n = lead.n
        self._singles = lead.singles  # (read on every pick: kept here)
        self._rest = tuple(rest)
        self._made = {}

    @overload
    def __getitem__(self, index: int) -> Action: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[Action]: ...
    def __getitem__(self, index: int | slice) -> Action | Sequence[Action]:
        if type(index) is int and 0 <= index < self._singles:  # the pick of most random leads
            return self._make(index)
        return PlayList.__getitem__(self, index)

    def _make(self, index: int) -> Action:
        if index < self._singles:
            lead: Lead = self._combos  # type: ignore[assignment]
            card, wish = lead.single(index)
            made = self._made[index] = _MAH_JONG_PLAYS[wish] if card == MAH_JONG else SINGLE_PLAYS[card]
            return made
        return PlayList._make(self, index)
