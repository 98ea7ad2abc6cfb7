"""One round (deal) of Dou Di Zhu as an immutable state: auction, play, score.

- Deal: from ``random.Random`` seeded with the seed and the deal number, so a redeal is as
  reproducible as the first deal. 17 cards each and 3 kept (``four_player``: 25 each, 8 kept).
- First bidder: in the first round, the holder of a card turned face up at the deal (a random
  position among the dealt cards, drawn from the same stream); in a match, afterwards, the winner of
  the previous round. After a redeal the same seat bids first again.
- Auction: from the first bidder each seat once bids higher than the current bid or passes; a bid
  of 3 ends it at once. All pass: the cards are dealt again (deal number + 1). Option ``rob``: seats
  in turn ``call`` or ``pass`` until one calls; then each later seat that has not yet spoken may
  ``rob`` or ``pass``, and if anyone robbed the caller may ``rob`` once more; the last to call or rob
  is landlord, and the base is 2 to the number of robs.
- The landlord takes the kept cards (shown to all) and leads. A lead may be any combination; the next
  seats beat it or pass; when all others pass, the last player leads again. The leader may not pass.
- Laizi: the wild rank is drawn when the landlord is known (or fixed by ``wild``).
- Option ``bomb_limits``: each peasant may play as many bombs (the rocket counts as one) as its
  auction allows: 1 after a pass or a bid of 1, 2 after a bid of 2, any number if it never spoke
  (a bid of 3 ended the auction first); the landlord any number. ``bombs_left`` keeps the count.
- Score: base (the bid) × 2 per bomb or rocket played (``four_player``: bombs of 5 or more only)
  × 2 for a spring (no peasant played a card) or an anti-spring (the landlord played only the first
  lead). The landlord wins or loses that times the number of peasants; each peasant loses or wins it.

>>> from pagoda import doudizhu as ddz
>>> r = ddz.Round.from_hands(["33", "4", "5"], landlord=0)
>>> [str(a) for a in r.legal_actions(0)]
['play 3', 'play 33']
>>> r = r.apply(0, "play 33")
>>> r.is_over, r.score()
(True, (4, -2, -2))
"""

import dataclasses
import random
from collections.abc import Callable, Sequence
from enum import Enum
from typing import Any, NamedTuple

from pagoda.core.errors import IllegalAction, PagodaError
from pagoda.core.record import Record, parse_record
from pagoda.doudizhu.actions import BID, CALL, PASS, PASS_KIND, PLAY, ROB, Action
from pagoda.doudizhu.cards import (
    JOKER_B,
    ONE,
    RANK_CHARS,
    Cards,
    counts_of,
    deck,
    format_mask,
    is_subset,
    pack,
    parse_mask,
    size_of,
)
from pagoda.doudizhu.combos import BOMB, ROCKET, Combo, beats, best_reading, is_reading, readings
from pagoda.doudizhu.movegen import (
    _ABOVE,
    _AT_LEAST,
    _FOURS,
    _JOKER_B_SHIFT,
    _LOW8,
    _SIMPLE_TABLES,
    bombs_and_rocket,
    legal_plays,
)
from pagoda.doudizhu.rules import RULES, Rules, format_rules, parse_rules
from pagoda.doudizhu.wild import hand_allows, wild_readings

_new_action = tuple.__new__
_ACTION = Action


class Phase(Enum):
    """The phase of a round."""

    AUCTION = "auction"
    PLAY = "play"
    OVER = "over"


class View(NamedTuple):
    """What one seat may know: its own hand, the public actions, the kept cards once shown, counts."""

    seat: int
    phase: Phase
    to_move: int
    hand: Cards
    counts: tuple[int, ...]
    landlord: int | None
    kitty: Cards | None
    bid: int
    wild: int | None
    top: Combo | None
    top_seat: int | None
    multiplier: int
    history: tuple[tuple[int, str], ...]
    rules: Rules


Deal = tuple[int, ...]
"""A deal: the packed hand of each seat, then the packed kept cards."""


def deal(seed: int, number: int, rules: Rules) -> tuple[Deal, int]:
    """Deal ``number`` (1, 2, ... after redeals) of ``seed``: the deal and the face-up card's seat."""
    rng = random.Random(f"doudizhu {seed} {number}")
    cards = _deck_cards(rules.decks)
    _shuffle(rng, cards)
    n = rules.hand_size
    hands = []
    for s in range(rules.players):
        hands.append(sum(cards[s * n : (s + 1) * n]))
    kitty = sum(cards[rules.players * n :])
    face_up = _below(rng, rules.players * n)  # rng.randrange(rules.players * n)
    return (*hands, kitty), face_up // n


_DECKS: dict[int, tuple[int, ...]] = {}


def _deck_cards(decks: int) -> list[int]:
    """The packed cards of :func:`deck` (a fresh list)."""
    found = _DECKS.get(decks)
    if found is None:
        found = _DECKS[decks] = tuple(ONE[i] for i in deck(decks))
    return list(found)


_STEPS: dict[int, tuple[tuple[int, int], ...]] = {}


def _shuffle(rng: random.Random, x: list[int]) -> None:
    """``rng.shuffle(x)`` written out: the same draws (``random.Random.shuffle`` and its
    ``_randbelow_with_getrandbits``: ``getrandbits((i + 1).bit_length())`` until at most ``i``)
    and the same swaps, without two Python calls per card."""
    steps = _STEPS.get(len(x))
    if steps is None:
        steps = _STEPS[len(x)] = tuple((i, (i + 1).bit_length()) for i in range(len(x) - 1, 0, -1))
    getrandbits = rng.getrandbits
    for i, k in steps:
        j = getrandbits(k)
        while j > i:
            j = getrandbits(k)
        x[i], x[j] = x[j], x[i]


def _below(rng: random.Random, n: int) -> int:
    """``rng.randrange(n)`` for ``n > 0`` written out (its ``_randbelow_with_getrandbits``)."""
    k = n.bit_length()
    j = rng.getrandbits(k)
    while j >= n:
        j = rng.getrandbits(k)
    return j


def draw_wild(seed: int, number: int) -> int:
    """The wild rank index (3..2) drawn for deal ``number`` of ``seed`` once the landlord is known."""
    return random.Random(f"doudizhu {seed} {number} wild").randrange(JOKER_B)


def format_deal(d: Deal) -> str:
    """The text of a deal: each seat's cards, then the kept cards, separated by ``/``."""
    return " / ".join(format_mask(m) for m in d)


def parse_deal(text: str, players: int) -> Deal:
    """Read a deal's text (see :func:`format_deal`)."""
    parts = text.split("/")
    if len(parts) != players + 1:
        raise PagodaError(f"a deal has {players} hands and the kept cards, not {len(parts)} parts: {text!r}")
    return tuple(parse_mask(p) for p in parts)


def _wild_index(rules: Rules) -> int:
    if rules.wild in ("none", "drawn"):
        return -1
    return RANK_CHARS.index(rules.wild)


_FIELDS = (
    "rules",
    "seed",
    "deals",
    "deal_no",
    "first",
    "phase",
    "to_move",
    "hands",
    "kitty",
    "landlord",
    "bid",
    "bidder",
    "auction",
    "wild",
    "top",
    "top_seat",
    "passes",
    "doubles",
    "play_counts",
    "winner",
    "history",
    "bombs_left",
)
"""The public fields of a :class:`Round`, in the order of its constructor, ``==``, ``hash`` and ``repr``."""

_FIXED = (
    *("rules", "seed", "deals", "deal_no", "first", "kitty"),
    *("landlord", "bid", "bidder", "auction", "wild"),
)
"""The fields that stay the same through the play of a deal (they change only at the auction)."""

_SLOTS = (
    "_fixed",
    *(name for name in _FIELDS if name not in _FIXED and name != "history"),
    "_history",
    "_offered",
)
"""The slots: the fixed fields in one shared object, the others, the history (kept as a chain of
actions, its text made when read) and the actions :meth:`Round.legal_actions` offered, which
:meth:`Round.apply` takes without checking them again."""


class _Fixed:
    """The fields of a round fixed during play, shared by every state of it: a new state sets
    twelve slots instead of twenty-three."""

    __slots__ = _FIXED

    def __init__(
        self,
        rules: Rules,
        seed: int | None,
        deals: "tuple[Deal, ...]",
        deal_no: int,
        first: int,
        kitty: int,
        landlord: int,
        bid: int,
        bidder: int,
        auction: tuple[tuple[int, str], ...],
        wild: int,
    ) -> None:
        self.rules = rules
        self.seed = seed
        self.deals = deals
        self.deal_no = deal_no
        self.first = first
        self.kitty = kitty
        self.landlord = landlord
        self.bid = bid
        self.bidder = bidder
        self.auction = auction
        self.wild = wild


_AUCTION = Phase.AUCTION
_PLAYING = Phase.PLAY
_OVER = Phase.OVER

History = tuple[tuple[int, str], ...]
"""The actions of a round so far, as (seat, text)."""


class Round:
    """An immutable Dou Di Zhu round; :meth:`apply` returns the next state.

    Fields (all read-only): ``rules``, ``seed``, ``deals``, ``deal_no``, ``first``, ``phase``,
    ``to_move``, ``hands``, ``kitty``, ``landlord``, ``bid``, ``bidder``, ``auction``, ``wild``,
    ``top``, ``top_seat``, ``passes``, ``doubles``, ``play_counts``, ``winner``, ``history`` and
    ``bombs_left`` (with ``bomb_limits``: the bombs each seat may still play, -1: any number; else
    empty). Two rounds are equal when every field is.
    """

    __slots__ = _SLOTS

    _fixed: _Fixed
    phase: Phase
    to_move: int
    hands: tuple[int, ...]
    top: Combo | None
    top_seat: int
    passes: int
    doubles: int
    play_counts: tuple[int, ...]
    winner: int
    bombs_left: tuple[int, ...]
    _history: "History | list[Any]"
    _offered: tuple[Action, ...] | None

    def __init__(
        self,
        rules: Rules,
        seed: int | None,
        deals: tuple[Deal, ...],
        deal_no: int,
        first: int,
        phase: Phase,
        to_move: int,
        hands: tuple[int, ...],
        kitty: int,
        landlord: int,
        bid: int,
        bidder: int,
        auction: tuple[tuple[int, str], ...],
        wild: int,
        top: Combo | None,
        top_seat: int,
        passes: int,
        doubles: int,
        play_counts: tuple[int, ...],
        winner: int,
        history: History,
        bombs_left: tuple[int, ...] = (),
    ) -> None:
        fixed = _Fixed(rules, seed, deals, deal_no, first, kitty, landlord, bid, bidder, auction, wild)
        values = (fixed, phase, to_move, hands, top, top_seat, passes, doubles, play_counts, winner)
        names = ("_fixed", "phase", "to_move", "hands", "top", "top_seat", "passes", "doubles")
        for name, value in zip((*names, "play_counts", "winner"), values, strict=True):
            object.__setattr__(self, name, value)
        object.__setattr__(self, "bombs_left", bombs_left)
        object.__setattr__(self, "_history", history)
        object.__setattr__(self, "_offered", None)

    def __setattr__(self, name: str, value: object) -> None:
        raise dataclasses.FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise dataclasses.FrozenInstanceError(f"cannot delete field {name!r}")

    @property
    def rules(self) -> Rules:
        """The rules of the round."""
        return self._fixed.rules

    @property
    def seed(self) -> int | None:
        """The seed the deals come from (``None``: a given deal)."""
        return self._fixed.seed

    @property
    def deals(self) -> tuple[Deal, ...]:
        """Every deal so far (one more after each all-pass auction)."""
        return self._fixed.deals

    @property
    def deal_no(self) -> int:
        """The number of the deal being played (1, 2, ... after redeals)."""
        return self._fixed.deal_no

    @property
    def first(self) -> int:
        """The seat that bids first."""
        return self._fixed.first

    @property
    def kitty(self) -> int:
        """The kept cards (packed)."""
        return self._fixed.kitty

    @property
    def landlord(self) -> int:
        """The landlord's seat (-1 during the auction)."""
        return self._fixed.landlord

    @property
    def bid(self) -> int:
        """The highest bid (with ``rob``: the base, 2 to the number of robs)."""
        return self._fixed.bid

    @property
    def bidder(self) -> int:
        """The seat of the highest bid (-1: none yet)."""
        return self._fixed.bidder

    @property
    def auction(self) -> tuple[tuple[int, str], ...]:
        """The auction's actions of this deal, as (seat, text)."""
        return self._fixed.auction

    @property
    def wild(self) -> int:
        """The wild rank index (-1: none, or not yet drawn)."""
        return self._fixed.wild

    @property
    def history(self) -> History:
        """Every action so far as (seat, text), the auction's included."""
        h = self._history
        if type(h) is not tuple:
            h = _history_text(h)
            _set_history(self, h)
        return h

    def _fields(self) -> tuple[object, ...]:
        return tuple(getattr(self, name) for name in _FIELDS)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        assert isinstance(other, Round)
        return self is other or self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={value!r}" for name, value in zip(_FIELDS, self._fields(), strict=True))
        return f"Round({shown})"

    def __reduce__(self) -> tuple[Any, tuple[object, ...]]:
        return Round, self._fields()

    # ----------------------------------------------------------------- construction

    @classmethod
    def new(cls, seed: int, rules: Rules = RULES["classic"], first: int | None = None) -> "Round":
        """A fresh round dealt from ``seed``, at the auction; ``first`` overrides the first bidder."""
        d, face_up_seat = deal(seed, 1, rules)
        return cls._start(rules, seed, (d,), 1, face_up_seat if first is None else first)

    @classmethod
    def _start(
        cls, rules: Rules, seed: int | None, deals: tuple[Deal, ...], number: int, first: int
    ) -> "Round":
        d = deals[number - 1]
        n = rules.players
        return _make(
            *(rules, seed, deals, number, first, _AUCTION, first, d[:n], d[n], -1, 0, -1, ()),
            *(_wild_index(rules), None, -1, 0, 0, (0,) * n, -1, (), ()),
        )

    @classmethod
    def from_deal(
        cls,
        hands: Sequence[str | Cards],
        kitty: str | Cards,
        rules: Rules = RULES["classic"],
        first: int = 0,
        seed: int | None = None,
    ) -> "Round":
        """A round at the auction from a given deal; ``first`` bids first.

        With a ``seed``, an all-pass auction redeals from it (deal 2, 3, ...) and the laizi wild
        rank is drawn from it; without one, an all-pass auction has no next deal.

        >>> from pagoda.doudizhu.round import deal, format_deal
        >>> d, _ = deal(5, 1, RULES["classic"])
        >>> r = Round.from_deal([format_mask(m) for m in d[:3]], format_mask(d[3]), first=2, seed=5)
        >>> r.phase, r.to_move, r.kitty == d[3]
        (<Phase.AUCTION: 'auction'>, 2, True)
        """
        masks = cls._check_deal(hands, kitty, rules, full=True)
        if not 0 <= first < rules.players:
            raise IllegalAction(f"no seat {first}")
        return cls._start(rules, seed, (masks,), 1, first)

    @staticmethod
    def _check_deal(hands: Sequence[str | Cards], kitty: str | Cards, rules: Rules, full: bool) -> Deal:
        """The masks of ``hands`` and ``kitty``, checked against the pack (and, if ``full``, its sizes)."""
        if len(hands) != rules.players:
            raise IllegalAction(f"{rules.name} has {rules.players} seats, not {len(hands)} hands")
        masks = tuple(h.mask if isinstance(h, Cards) else parse_mask(h) for h in hands)
        kmask = kitty.mask if isinstance(kitty, Cards) else parse_mask(kitty)
        total = counts_of(sum(masks) + kmask)
        for i, n in enumerate(total):
            most = rules.decks * (1 if i >= JOKER_B else 4)
            if n > most or (full and n != most):
                raise IllegalAction(
                    f"{n} cards of rank {RANK_CHARS[i]}: a {rules.decks}-pack game has {most}"
                )
        if full:
            for seat, m in enumerate(masks):
                if size_of(m) != rules.hand_size:
                    raise IllegalAction(f"hand {seat} has {size_of(m)} cards, not {rules.hand_size}")
        return (*masks, kmask)

    @classmethod
    def from_hands(
        cls,
        hands: Sequence[str | Cards],
        kitty: str | Cards = "",
        landlord: int = 0,
        bid: int = 1,
        rules: Rules = RULES["classic"],
        wild: str | None = None,
    ) -> "Round":
        """A round straight into play: ``landlord`` takes ``kitty`` and leads (crafted positions too)."""
        dealt = cls._check_deal(hands, kitty, rules, full=False)
        if not 0 <= landlord < rules.players:
            raise IllegalAction(f"no seat {landlord}")
        r = cls._start(rules, None, (dealt,), 1, landlord)
        w = r.wild
        if wild is not None:
            ranks = format_mask(parse_mask(wild))
            if len(ranks) != 1 or ranks not in RANK_CHARS[:JOKER_B]:
                raise IllegalAction(f"the wild rank is one rank 3..2, not {wild!r}")
            w = RANK_CHARS.index(ranks)
        return r._finish_auction(landlord, bid, w)

    # ----------------------------------------------------------------- queries

    @property
    def is_over(self) -> bool:
        """Whether the round has ended (a seat has played its last card)."""
        return self.phase is _OVER

    def hand(self, seat: int) -> Cards:
        """The cards ``seat`` holds (the whole truth: use :meth:`view` for what a seat may see)."""
        return Cards(self.hands[seat])

    @property
    def spring(self) -> bool:
        """Whether the round ended in a spring or an anti-spring."""
        if self.phase is not Phase.OVER:
            return False
        if self.winner == self.landlord:
            return all(n == 0 for s, n in enumerate(self.play_counts) if s != self.landlord)
        return self.play_counts[self.landlord] == 1

    @property
    def multiplier(self) -> int:
        """2 to the number of doubling bombs and rockets played, and once more for a spring."""
        return 1 << (self.doubles + self.spring)

    def score(self) -> tuple[int, ...]:
        """Points per seat (all zero until the round is over); they sum to zero."""
        n = self.rules.players
        if self.phase is not Phase.OVER:
            return (0,) * n
        unit = self.bid * self.multiplier
        sign = 1 if self.winner == self.landlord else -1
        return tuple(sign * unit * (n - 1) if s == self.landlord else -sign * unit for s in range(n))

    def view(self, seat: int) -> View:
        """What ``seat`` may know: never another seat's cards."""
        shown = self.phase is not Phase.AUCTION
        return View(
            seat=seat,
            phase=self.phase,
            to_move=self.to_move,
            hand=Cards(self.hands[seat]),
            counts=tuple(size_of(h) for h in self.hands),
            landlord=self.landlord if self.landlord >= 0 else None,
            kitty=Cards(self.kitty) if shown else None,
            bid=self.bid,
            wild=self.wild + 3 if self.wild >= 0 and shown else None,
            top=self.top,
            top_seat=self.top_seat if self.top_seat >= 0 else None,
            multiplier=1 << self.doubles,
            history=self.history,
            rules=self.rules,
        )

    def legal_actions(self, seat: int | None = None) -> list[Action]:
        """Every legal action of ``seat`` (default: the seat to move); empty when not its turn.

        The list is the caller's to keep or change; the state remembers the actions it offered (a
        private tuple), and :meth:`apply` takes one of those very objects without checking it again.
        """
        to_move = self.to_move
        if seat is None:
            seat = to_move
        phase = self.phase
        if phase is not _PLAYING or seat != to_move:
            if phase is not _AUCTION or seat != to_move:
                return []
            if self.rules.rob:
                stage = self._rob_stage()
                return [Action(CALL if stage == "call" else ROB), PASS]
            return [PASS] + [Action(BID, b) for b in range(self.bid + 1, self.rules.max_bid + 1)]
        offered = self._offered
        if offered is not None:
            return list(offered)
        top = self.top if self.top_seat != seat else None
        left = self.bombs_left
        bombs = not left or left[seat] != 0
        hand = self.hands[seat]
        fixed = self._fixed
        if top is not None and bombs and fixed.wild < 0 and top.kind in _FOLLOW_TABLES:
            # the most frequent case, a play on a solo, pair or trio: the actions straight from tables
            k, lo, hi = _FOLLOW_TABLES[top.kind]
            g = (hand + _AT_LEAST[k]) & _ABOVE[top.rank - 2]
            acts = lo[g & _LOW8] + hi[g >> 40]
            if hand & _FOURS or hand >> _JOKER_B_SHIFT:
                acts += [_play_of(c) for c in bombs_and_rocket(hand, fixed.rules)]
        else:
            found = legal_plays(hand, top, fixed.rules, fixed.wild, bombs)
            try:
                acts = [_PLAY_OF[c] for c in found]
            except KeyError:
                acts = [_play_of(c) for c in found]
            if top is not None:
                acts.insert(0, PASS)
        _set_offered(self, tuple(acts))
        return acts

    # ----------------------------------------------------------------- transitions

    def apply(self, seat: int, action: Action | str) -> "Round":
        """The state after ``seat`` takes ``action`` (or its text); :class:`IllegalAction` says why not.

        An action object this state's :meth:`legal_actions` returned is known legal; any other (its
        text, an equal action made elsewhere, another state's) is checked in full.
        """
        phase = self.phase
        if phase is not _PLAYING:
            if phase is _OVER:
                raise IllegalAction("the round is over")
            if seat != self.to_move:
                raise IllegalAction(f"it is seat {self.to_move}'s turn, not seat {seat}'s")
            if isinstance(action, str):
                action = self.parse_action(action, seat)
            return self._auction(seat, action)
        if seat != self.to_move:
            raise IllegalAction(f"it is seat {self.to_move}'s turn, not seat {seat}'s")
        # the history keeps an offered action itself (its text is made when read), any other's text
        entry: Action | str = action
        offered = self._offered
        for a in offered or ():
            if a is action:
                break
        else:
            if isinstance(action, str):
                action = self.parse_action(action, seat)
            self._check_play(seat, action)
            entry = str(action)
        rules = self._fixed.rules
        n = rules.players
        if action.kind == PASS_KIND:
            passes = self.passes + 1
            top, top_seat = (None, -1) if passes == n - 1 else (self.top, self.top_seat)
            return _next_play(
                self,
                _PLAYING,
                (seat + 1) % n,
                self.hands,
                top,
                top_seat,
                passes,
                self.doubles,
                self.play_counts,
                -1,
                [self._history, seat, entry],
                self.bombs_left,
            )
        combo = action.combo
        assert combo is not None
        hands = list(self.hands)
        hand = hands[seat] - combo.mask
        hands[seat] = hand
        counts = list(self.play_counts)
        counts[seat] += 1
        doubles = self.doubles
        kind = combo.kind
        bombs_left = self.bombs_left
        if kind in (ROCKET, BOMB):
            if kind == ROCKET or combo.size >= rules.double_min_bomb:
                doubles += 1
            if bombs_left and bombs_left[seat] >= 0:
                bombs_left = self._spend_bomb(seat, combo)
        over = not hand  # the seat has played its last card: it wins and the round ends
        return _next_play(
            self,
            _OVER if over else _PLAYING,
            seat if over else (seat + 1) % n,
            tuple(hands),
            combo,
            seat,
            0,
            doubles,
            tuple(counts),
            seat if over else -1,
            [self._history, seat, entry],
            bombs_left,
        )

    def parse_action(self, text: str, seat: int | None = None) -> Action:
        """Read an action's text in this state (plays take the reading that fits the table)."""
        if seat is None:
            seat = self.to_move
        words = text.split(None, 1)
        if not words:
            raise IllegalAction("empty action")
        verb = words[0].lower()
        rest = words[1] if len(words) > 1 else ""
        if verb in (PASS_KIND, CALL, ROB) and not rest:
            return Action(verb)
        if verb == BID:
            if not rest.strip().isdigit():
                raise IllegalAction(f"a bid is a number: {text!r}")
            return Action(BID, int(rest))
        if verb == PLAY and rest:
            if self.phase is not Phase.PLAY:
                raise IllegalAction("no play during the auction")
            cards_text, _, reading_text = rest.partition(" as ")
            try:
                mask = parse_mask(cards_text)
                reading = parse_mask(reading_text) if reading_text else None
            except PagodaError as e:
                raise IllegalAction(str(e)) from None
            top = self.top if self.top_seat != seat else None
            return Action(PLAY, 0, self._read_play(mask, reading, top))
        raise IllegalAction(f"cannot read action {text!r} (bid N, pass, call, rob, play CARDS)")

    def _read_play(self, mask: int, reading: int | None, top: Combo | None) -> Combo:
        text = format_mask(mask)
        options: Sequence[Combo]
        if self.wild >= 0 and (mask >> (5 * self.wild)) & 31:
            options = wild_readings(mask, reading, self.rules, self.wild)
            if reading is None:
                natural = [c for c in options if c.reading == mask]
                distinct = {c.reading for c in options}
                if not natural and len(distinct) > 1:
                    shown = ", ".join(sorted(format_mask(d) for d in distinct))
                    raise IllegalAction(f"{text} can be read several ways: name one with 'as' ({shown})")
                if natural:
                    options = natural
        else:
            if reading is not None and reading != mask:
                raise IllegalAction(f"{text} has no wild card to read as {format_mask(reading)}")
            options = readings(mask, self.rules)
        if not options:
            raise IllegalAction(f"{text} is not a combination under {self.rules.name}")
        combo = best_reading(options, top)
        if combo is None:
            raise IllegalAction(f"{text} does not beat {top} ({top.kind if top else ''})")
        return combo

    def _evolve(self, **changes: object) -> "Round":
        # a field-by-field copy (the auction's transitions; play has its own in _play)
        return _make(*[changes[name] if name in changes else getattr(self, name) for name in _FIELDS])

    # auction ---------------------------------------------------------------------

    def _rob_stage(self) -> str:
        calls = [i for i, (_, a) in enumerate(self.auction) if a == CALL]
        return "call" if not calls else "rob"

    def _auction(self, seat: int, action: Action) -> "Round":
        rules = self.rules
        entry = (seat, str(action))
        auction = (*self.auction, entry)
        history = (*self.history, entry)
        n = rules.players
        if rules.rob:
            return self._rob(seat, action, auction, history)
        bid, bidder = self.bid, self.bidder
        if action.kind == BID:
            if not self.bid < action.bid <= rules.max_bid:
                raise IllegalAction(
                    f"a bid must be above {self.bid} and at most {rules.max_bid}, not {action.bid}"
                )
            bid, bidder = action.bid, seat
        elif action.kind != PASS_KIND:
            raise IllegalAction(f"{action} is not an auction action here (bid N or pass)")
        if bid == rules.max_bid or len(auction) == n:
            if bidder < 0:
                return self._redeal(history)
            done = self._evolve(auction=auction, history=history)
            return done._finish_auction(bidder, bid, self._drawn_wild())
        return self._evolve(auction=auction, history=history, bid=bid, bidder=bidder, to_move=(seat + 1) % n)

    def _rob(
        self,
        seat: int,
        action: Action,
        auction: tuple[tuple[int, str], ...],
        history: tuple[tuple[int, str], ...],
    ) -> "Round":
        n = self.rules.players
        order = [(self.first + i) % n for i in range(n)]
        stage = self._rob_stage()
        want = CALL if stage == "call" else ROB
        if action.kind not in (want, PASS_KIND):
            raise IllegalAction(f"{action} is not an auction action here ({want} or pass)")
        acts = [a for _, a in auction]
        if CALL not in acts:
            if len(auction) == n:
                return self._redeal(history)
            return self._evolve(auction=auction, history=history, to_move=order[len(auction)])
        k = acts.index(CALL)
        caller = order[k]
        robbers = order[k + 1 :]
        after = auction[k + 1 :]
        robs = [s for s, a in after if a == ROB]
        base = 2 ** len(robs)
        last = robs[-1] if robs else caller
        if len(after) < len(robbers):
            nxt = robbers[len(after)]
            return self._evolve(auction=auction, history=history, to_move=nxt, bid=base, bidder=last)
        if len(after) == len(robbers) and any(a == ROB for _, a in after):
            return self._evolve(auction=auction, history=history, to_move=caller, bid=base, bidder=last)
        done = self._evolve(auction=auction, history=history)
        return done._finish_auction(last, base, self._drawn_wild())

    def _drawn_wild(self) -> int:
        if self.rules.wild != "drawn":
            return self.wild
        if self.seed is None:
            raise IllegalAction("the wild rank is drawn from the seed, and this round has none")
        return draw_wild(self.seed, self.deal_no)

    def _redeal(self, history: tuple[tuple[int, str], ...]) -> "Round":
        number = self.deal_no + 1
        deals = self.deals
        if len(deals) < number:
            if self.seed is None:
                raise IllegalAction("everyone passed: a redeal needs a seed or the next deal")
            deals = (*deals, deal(self.seed, number, self.rules)[0])
        fresh = Round._start(self.rules, self.seed, deals, number, self.first)
        return fresh._evolve(history=history)

    def _finish_auction(self, landlord: int, bid: int, wild: int) -> "Round":
        hands = list(self.hands)
        hands[landlord] += self.kitty
        return self._evolve(
            phase=Phase.PLAY,
            landlord=landlord,
            bid=bid,
            bidder=landlord,
            to_move=landlord,
            hands=tuple(hands),
            wild=wild,
            bombs_left=self._bomb_limits(landlord) if self.rules.bomb_limits else (),
        )

    def _bomb_limits(self, landlord: int) -> tuple[int, ...]:
        """The bombs each seat may play (-1: any number), from what each peasant said at the auction."""
        limits = []
        for seat in range(self.rules.players):
            said = [text for s, text in self.auction if s == seat]
            if seat == landlord or not said:
                limits.append(-1)
            else:
                limits.append(2 if "bid 2" in said else 1)
        return tuple(limits)

    # play --------------------------------------------------------------------------

    def _check_play(self, seat: int, action: Action) -> None:
        """Raise :class:`IllegalAction` unless ``seat`` may take ``action`` (a play or pass) now."""
        top = self.top if self.top_seat != seat else None
        if action.kind == PASS_KIND:
            if top is None:
                raise IllegalAction("the leader may not pass")
            return
        combo = action.combo
        if action.kind != PLAY or combo is None:
            raise IllegalAction(f"{action} is not a play action (play CARDS or pass)")
        hand = self.hands[seat]
        if not is_subset(combo.mask, hand):
            raise IllegalAction(f"seat {seat} does not hold {format_mask(combo.mask)}")
        if not beats(combo, top):
            raise IllegalAction(f"{combo} ({combo.kind}) does not beat {top} ({top.kind if top else ''})")
        self._check_reading(combo)
        rules = self._fixed.rules
        if not rules.bomb_head_chains:
            why = hand_allows(combo, counts_of(hand), rules)
            if why:
                raise IllegalAction(why)

    def _spend_bomb(self, seat: int, combo: Combo) -> tuple[int, ...]:
        left = list(self.bombs_left)
        if left[seat] == 0:
            said = [text for s, text in self.auction if s == seat]
            raise IllegalAction(
                f"seat {seat} has played all the bombs its auction allows ({', '.join(said)}): not {combo}"
            )
        left[seat] -= 1
        return tuple(left)

    def _check_reading(self, combo: Combo) -> None:
        options: Sequence[Combo]
        if combo.reading == combo.mask:
            if is_reading(combo, self.rules):
                return
            options = readings(combo.mask, self.rules)
        else:
            options = wild_readings(combo.mask, combo.reading, self.rules, self.wild)
        if combo not in options:
            raise IllegalAction(f"{combo} is not a {combo.kind} of rank {combo.rank} under {self.rules.name}")

    # ----------------------------------------------------------------- records

    @property
    def record(self) -> Record:
        """The round's record: Game, Rules, Seed, First, the deals, and every action so far."""
        headers = [("Game", "doudizhu"), ("Rules", format_rules(self.rules))]
        if self.seed is not None:
            headers.append(("Seed", str(self.seed)))
            headers.append(("First", str(self.first)))
        for i, d in enumerate(self.deals[: self.deal_no]):
            headers.append(("Deal" if i == 0 else f"Deal{i + 1}", format_deal(d)))
        if self.seed is None:
            headers.append(("Landlord", str(self.landlord)))
            headers.append(("Bid", str(self.bid)))
        if self.wild >= 0 and self.rules.wild == "drawn":
            headers.append(("Wild", RANK_CHARS[self.wild]))
        return Record(tuple(headers), self.history)


# the slots' own setters: the frozen Round's __setattr__ refuses every field
_set_history: Callable[[Round, History], None] = Round.__dict__["_history"].__set__
_set_offered: Callable[[Round, tuple[Action, ...]], None] = Round.__dict__["_offered"].__set__


def _history_text(node: "History | list[Any]") -> History:
    """The history of a chain of ``[earlier, seat, action or its text]`` ending in a history tuple."""
    entries = []
    while type(node) is list:
        earlier, seat, action = node
        entries.append((seat, action if type(action) is str else str(action)))
        node = earlier
    assert isinstance(node, tuple)
    entries.reverse()
    return node + tuple(entries)


_PLAY_OF: dict[Combo, Action] = {}
"""The play action of each combination seen (equal combinations share one): making an Action costs
more than finding it."""
_PLAY_OF_MAX = 1 << 16


def _play_of(combo: Combo) -> Action:
    found = _PLAY_OF.get(combo)
    if found is None:
        if len(_PLAY_OF) >= _PLAY_OF_MAX:
            _PLAY_OF.clear()
        found = _PLAY_OF[combo] = _new_action(_ACTION, (PLAY, 0, combo))
    return found


def _follow_tables() -> dict[str, tuple[int, dict[int, list[Action]], dict[int, list[Action]]]]:
    """For a play on a solo, pair or trio: the cards needed, and the actions that answer it as the
    follow tables of :mod:`~pagoda.doudizhu.movegen` have them (the pass first, in the low half)."""
    out = {}
    for kind, (k, lo, hi) in _SIMPLE_TABLES.items():
        low = {g: [PASS, *map(_play_of, found)] for g, found in lo.items()}
        out[kind] = (k, low, {g: [_play_of(c) for c in found] for g, found in hi.items()})
    return out


_FOLLOW_TABLES = _follow_tables()


class _Draft:
    """A :class:`Round` being built: the same slots, writable; :func:`_make` turns it into a Round
    (setting slots through the frozen class costs three times as much, on every action of every
    round)."""

    __slots__ = _SLOTS


def _makers() -> tuple[Callable[..., Round], Callable[..., Round]]:
    """``make(*fields)``, and ``next_play(state, phase, to_move, hands, top, top_seat, passes,
    doubles, play_counts, winner, history, bombs_left)`` that shares the fixed fields of ``state``."""
    scope: dict[str, Any] = {"_new": _Draft, "_Fixed": _Fixed, "Round": Round}
    changing = [name for name in _FIELDS if name not in _FIXED]
    slot = {name: "_history" if name == "history" else name for name in changing}
    lines = [f"def make({', '.join(_FIELDS)}):", "    o = _new()"]
    lines.append(f"    o._fixed = _Fixed({', '.join(_FIXED)})")
    lines += [f"    o.{slot[name]} = {name}" for name in changing]
    lines += ["    o._offered = None", "    o.__class__ = Round", "    return o"]
    lines += [f"def next_play(s, {', '.join(changing)}):", "    o = _new()", "    o._fixed = s._fixed"]
    lines += [f"    o.{slot[name]} = {name}" for name in changing]
    lines += ["    o._offered = None", "    o.__class__ = Round", "    return o"]
    exec("\n".join(lines), scope)  # the way dataclasses writes __init__
    return scope["make"], scope["next_play"]


_make, _next_play = _makers()


def replay(record: Record | str) -> Round:
    """The round a record describes, by folding its actions over its deal (equal to the original)."""
    rec = parse_record(record) if isinstance(record, str) else record
    if rec.header("Game") != "doudizhu":
        raise PagodaError(f"not a Dou Di Zhu record: Game {rec.header('Game')!r}")
    rules = parse_rules(rec.header("Rules"))
    deals = [parse_deal(rec.header("Deal"), rules.players)]
    k = 2
    while (more := rec.get(f"Deal{k}")) is not None:
        deals.append(parse_deal(more, rules.players))
        k += 1
    seed_text = rec.get("Seed")
    wild_text = rec.get("Wild")
    if seed_text is not None:
        seed = int(seed_text)
        first = int(rec.header("First"))
        r = Round._start(rules, seed, tuple(deals), 1, first)
    else:
        d = deals[0]
        hands = [Cards(m) for m in d[: rules.players]]
        r = Round.from_hands(
            hands,
            Cards(d[rules.players]),
            int(rec.header("Landlord")),
            int(rec.header("Bid")),
            rules,
            wild_text,
        )
    for seat, text in rec.actions:
        r = r.apply(seat, text)
    if wild_text is not None and r.wild >= 0 and RANK_CHARS[r.wild] != wild_text:
        raise PagodaError(f"the record's wild {wild_text} is not the one its seed draws")
    return r


__all__ = ["Deal", "Phase", "Round", "View", "deal", "format_deal", "pack", "parse_deal", "replay"]
