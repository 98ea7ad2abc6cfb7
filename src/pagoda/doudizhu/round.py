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

The state satisfies :class:`pagoda.core.GameState`: ``new``, ``apply``, ``legal_actions`` (a
tuple), ``decisions``, ``view``, ``score``, ``record``, and ``position``/``from_position``, one
line of text that holds everything the rules read (:func:`format_position`).

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
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from functools import lru_cache
from typing import Any, NamedTuple

from pagoda.core.errors import IllegalAction, PagodaError, ParseError
from pagoda.core.game import Decision
from pagoda.core.record import Record, parse_record
from pagoda.doudizhu.actions import BID, CALL, PASS, PASS_KIND, PLAY, ROB, Action
from pagoda.doudizhu.cards import (
    JOKER_B,
    ONE,
    RANK_CHARS,
    Cards,
    check_ascii,
    counts_of,
    deck,
    format_mask,
    is_subset,
    pack,
    parse_mask,
    parse_number,
    size_of,
)
from pagoda.doudizhu.combos import (
    BOMB,
    ROCKET,
    Combo,
    beats,
    best_reading,
    format_combo,
    is_reading,
    parse_combo,
    readings,
)
from pagoda.doudizhu.movegen import legal_plays
from pagoda.doudizhu.rules import RULES, Rules, format_rules, parse_rules
from pagoda.doudizhu.wild import hand_allows, wild_readings


class Phase(Enum):
    """The phase of a round."""

    AUCTION = "auction"
    PLAY = "play"
    OVER = "over"


History = tuple[tuple[int, str], ...]
"""Actions as (seat, text)."""

_NONE = "-"
"""What the position and view texts write for nothing (no seat, no cards, no play)."""


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

    def __str__(self) -> str:
        return format_view(self)

    def __repr__(self) -> str:
        return f"View.from_text({format_view(self)!r})"

    @classmethod
    def from_text(cls, text: str) -> "View":
        """Read :func:`format_view`'s text back (the repr of a view evaluates to it)."""
        return parse_view(text)


def format_view(v: View) -> str:
    """The one-line text of a view: ``; ``-separated fields, each its name and value.

    ``seat``, ``rules``, ``phase``, ``to``, ``hand`` (the seat's own cards), ``counts`` (every
    seat's number of cards), ``landlord``, ``kitty`` (once shown), ``bid``, ``wild``, ``top`` and
    ``by``, ``multiplier`` (the bombs' so far) and ``history`` (``seat action`` entries, ``,``
    between them); ``-`` for none.

    >>> v = Round.from_hands(["33", "4", "5"], landlord=0).apply(0, "play 3").view(1)
    >>> str(v).split("; ")
    ['seat 1', 'rules classic', 'phase play', 'to 1', 'hand 4', 'counts 1/1/1', 'landlord 0',
     'kitty -', 'bid 1', 'wild -', 'top solo 3 3', 'by 0', 'multiplier 1', 'history 0 play 3']
    >>> View.from_text(str(v)) == v
    True
    """
    fields = (
        ("seat", str(v.seat)),
        ("rules", format_rules(v.rules)),
        ("phase", v.phase.value),
        ("to", str(v.to_move)),
        ("hand", format_mask(v.hand.mask) or _NONE),
        ("counts", "/".join(map(str, v.counts))),
        ("landlord", _NONE if v.landlord is None else str(v.landlord)),
        ("kitty", _NONE if v.kitty is None else format_mask(v.kitty.mask) or _NONE),
        ("bid", str(v.bid)),
        ("wild", _NONE if v.wild is None else RANK_CHARS[v.wild - 3]),
        ("top", _NONE if v.top is None else format_combo(v.top)),
        ("by", _NONE if v.top_seat is None else str(v.top_seat)),
        ("multiplier", str(v.multiplier)),
        ("history", ", ".join(f"{s} {a}" for s, a in v.history) or _NONE),
    )
    return "; ".join(f"{name} {value}" for name, value in fields)


_VIEW_FIELDS = (
    *("seat", "rules", "phase", "to", "hand", "counts", "landlord", "kitty", "bid", "wild", "top"),
    *("by", "multiplier", "history"),
)


def _fields_of(text: str, names: tuple[str, ...], what: str) -> dict[str, str]:
    """The ``name value`` fields of a position or view text, checked against ``names``."""
    check_ascii(text, what)
    parts = [p.strip() for p in text.split(";")]
    if len(parts) != len(names):
        raise ParseError(f"{what} has {len(names)} fields separated by ';', not {len(parts)}")
    f: dict[str, str] = {}
    for want, part in zip(names, parts, strict=True):
        name, _, value = part.partition(" ")
        if name != want or not value.strip():
            raise ParseError(f"{what} field {len(f) + 1} is {part!r}, not '{want} VALUE'")
        f[name] = value.strip()
    return f


def _parse_history(text: str, what: str) -> History:
    """``seat action`` entries separated by ``,`` (``-``: none)."""
    out = []
    for entry in [] if text == _NONE else text.split(","):
        seat, _, action = entry.strip().partition(" ")
        out.append((parse_number(seat, f"a seat in {what}"), action))
    return tuple(out)


def parse_view(text: str) -> View:
    """Read :func:`format_view`'s text; :class:`ParseError` names the part that is wrong."""
    f = _fields_of(text, _VIEW_FIELDS, "a view")

    def opt(name: str) -> int | None:
        return None if f[name] == _NONE else parse_number(f[name], f"view field {name}")

    try:
        rules = parse_rules(f["rules"])
        phase = Phase(f["phase"])
    except ValueError as e:
        raise ParseError(f"a view: {e}") from None
    wild = None
    if f["wild"] != _NONE:
        if len(f["wild"]) != 1 or f["wild"].upper() not in RANK_CHARS[:JOKER_B]:
            raise ParseError(f"view field wild is a rank 3..2 or -, not {f['wild']!r}")
        wild = RANK_CHARS.index(f["wild"].upper()) + 3
    return View(
        seat=parse_number(f["seat"], "view field seat"),
        phase=phase,
        to_move=parse_number(f["to"], "view field to"),
        hand=Cards(0 if f["hand"] == _NONE else parse_mask(f["hand"])),
        counts=tuple(parse_number(c, "view field counts") for c in f["counts"].split("/")),
        landlord=opt("landlord"),
        kitty=None
        if f["kitty"] == _NONE and phase is Phase.AUCTION
        else Cards(0 if f["kitty"] == _NONE else parse_mask(f["kitty"])),
        bid=parse_number(f["bid"], "view field bid"),
        wild=wild,
        top=None if f["top"] == _NONE else parse_combo(f["top"]),
        top_seat=opt("by"),
        multiplier=parse_number(f["multiplier"], "view field multiplier"),
        history=_parse_history(f["history"], "view field history"),
        rules=rules,
    )


Deal = tuple[int, ...]
"""A deal: the packed hand of each seat, then the packed kept cards."""


def deal(seed: int, number: int, rules: Rules) -> tuple[Deal, int]:
    """Deal ``number`` (1, 2, ... after redeals) of ``seed``: the deal and the face-up card's seat."""
    rng = random.Random(f"doudizhu {seed} {number}")
    cards = [ONE[i] for i in deck(rules.decks)]
    rng.shuffle(cards)
    n = rules.hand_size
    hands = [sum(cards[s * n : (s + 1) * n]) for s in range(rules.players)]
    kitty = sum(cards[rules.players * n :])
    face_up = rng.randrange(rules.players * n)
    return (*hands, kitty), face_up // n


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


@lru_cache(maxsize=1 << 12)
def _play_of(combo: Combo) -> Action:
    """The play action of a combination (equal combinations share one)."""
    return Action(PLAY, 0, combo)


@lru_cache(maxsize=1 << 12)
def _text_of(action: Action) -> str:
    """The text of an action, as the history keeps it."""
    return str(action)


def _play_actions(hand: int, top: Combo | None, rules: Rules, wild: int, bombs: bool) -> tuple[Action, ...]:
    """The actions of a seat in play: the pass (unless it leads), then every legal play."""
    plays = tuple(map(_play_of, legal_plays(hand, top, rules, wild, bombs)))
    return plays if top is None else (PASS, *plays)


@dataclass(frozen=True, slots=True)
class Setup:
    """What stays the same through the play of a deal: the rules, the seed and the deals, the
    first bidder, the kept cards, the auction and what it decided (landlord, bid, wild rank), and
    the position the round was made from ("" when dealt). :class:`Round` reads these as its own."""

    rules: Rules
    seed: int | None
    deals: tuple[Deal, ...]
    deal_no: int
    first: int
    kitty: int
    landlord: int
    bid: int
    bidder: int
    auction: History
    wild: int
    start: str = ""


class Round(NamedTuple):
    """An immutable Dou Di Zhu round; :meth:`apply` returns the next state.

    Fields: ``setup`` (:class:`Setup`, whose fields the round offers as its own: ``rules``,
    ``seed``, ``deals`` (every deal so far), ``deal_no``, ``first`` (the first bidder), ``kitty``,
    ``landlord`` (-1 during the auction), ``bid`` (with ``rob``: the base, 2 to the number of
    robs), ``bidder`` (-1: none yet), ``auction`` (this deal's auction as (seat, text)), ``wild``
    (the wild rank index, -1: none or not yet drawn) and ``start``), then ``phase``, ``to_move``,
    ``hands`` (packed), ``top`` and ``top_seat`` (the play to beat and its seat, None and -1 on an
    empty table), ``passes`` (since the top was played), ``doubles`` (doubling bombs and rockets
    played), ``play_counts`` (plays per seat, for the spring), ``winner`` (-1 until the round is
    over), ``history`` (every action as (seat, text)) and ``bombs_left`` (with ``bomb_limits``: the
    bombs each seat may still play, -1: any number; else empty).

    A round is a named tuple of these fields, so it is frozen and slotted, and its next state is
    one :meth:`_evolve` away. Two rounds are equal when their positions are (:meth:`position`:
    everything the rules read); the history that led there is compared through :attr:`record`.
    """

    setup: Setup
    phase: Phase
    to_move: int
    hands: tuple[int, ...]
    top: Combo | None
    top_seat: int
    passes: int
    doubles: int
    play_counts: tuple[int, ...]
    winner: int
    history: History
    bombs_left: tuple[int, ...] = ()

    def _evolve(self, **changes: Any) -> "Round":
        """This round with ``changes`` to its fields: the one way a transition makes its next state."""
        evolved = Round._make(map(changes.pop, Round._fields, self))
        if changes:
            raise TypeError(f"a round has no field {', '.join(changes)}")
        return evolved

    def _settle(self, **changes: Any) -> Setup:
        """The setup with ``changes`` (what the auction decides), for :meth:`_evolve`'s ``setup``."""
        return dataclasses.replace(self.setup, **changes)

    @property
    def rules(self) -> Rules:
        """The rules of the round."""
        return self.setup.rules

    @property
    def seed(self) -> int | None:
        """The seed the deals come from (None: a given deal)."""
        return self.setup.seed

    @property
    def deals(self) -> tuple[Deal, ...]:
        """Every deal so far (one more after each all-pass auction)."""
        return self.setup.deals

    @property
    def deal_no(self) -> int:
        """The number of the deal being played (1, 2, ... after redeals)."""
        return self.setup.deal_no

    @property
    def first(self) -> int:
        """The seat that bids first."""
        return self.setup.first

    @property
    def kitty(self) -> int:
        """The kept cards (packed)."""
        return self.setup.kitty

    @property
    def landlord(self) -> int:
        """The landlord's seat (-1 during the auction)."""
        return self.setup.landlord

    @property
    def bid(self) -> int:
        """The highest bid (with ``rob``: the base, 2 to the number of robs)."""
        return self.setup.bid

    @property
    def bidder(self) -> int:
        """The seat of the highest bid (-1: none yet)."""
        return self.setup.bidder

    @property
    def auction(self) -> History:
        """The auction's actions of this deal, as (seat, text)."""
        return self.setup.auction

    @property
    def wild(self) -> int:
        """The wild rank index (-1: none, or not yet drawn)."""
        return self.setup.wild

    @property
    def start(self) -> str:
        """The position the round was made from ("" when dealt)."""
        return self.setup.start

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Round):
            return NotImplemented
        return self is other or self.position() == other.position()

    def __ne__(self, other: object) -> bool:
        return not self == other

    def __hash__(self) -> int:
        return hash(self.position())

    def __repr__(self) -> str:
        return f"Round.from_position({self.position()!r})"

    # ----------------------------------------------------------------- construction

    @classmethod
    def new(cls, seed: int | None = None, rules: Rules | None = None, first: int | None = None) -> "Round":
        """A fresh round dealt from ``seed``, at the auction; ``first`` overrides the first bidder.

        ``seed`` None: a random seed (the record names it, so the round still replays); ``rules``
        None: the ``classic`` preset.

        >>> r = Round.new()
        >>> r.seed is not None, r.rules.name, r.phase
        (True, 'classic', <Phase.AUCTION: 'auction'>)
        """
        if seed is None:
            seed = random.Random().getrandbits(48)
        if rules is None:
            rules = RULES["classic"]
        d, face_up_seat = deal(seed, 1, rules)
        return cls._start(rules, seed, (d,), 1, first=face_up_seat if first is None else first, d=d)

    @classmethod
    def _start(
        cls, rules: Rules, seed: int | None, deals: tuple[Deal, ...], number: int, first: int, d: Deal
    ) -> "Round":
        """The auction of deal ``d`` (deal ``number``) with ``first`` to bid; ``deals``: those known."""
        n = rules.players
        setup = Setup(rules, seed, deals, number, first, d[n], -1, 0, -1, (), _wild_index(rules))
        return cls(
            setup=setup,
            phase=Phase.AUCTION,
            to_move=first,
            hands=d[:n],
            top=None,
            top_seat=-1,
            passes=0,
            doubles=0,
            play_counts=(0,) * n,
            winner=-1,
            history=(),
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
            raise IllegalAction(f"no seat {first}", "not_a_seat")
        return cls._start(rules, seed, (masks,), 1, first, masks)

    @staticmethod
    def _check_deal(hands: Sequence[str | Cards], kitty: str | Cards, rules: Rules, full: bool) -> Deal:
        """The masks of ``hands`` and ``kitty``, checked against the pack (and, if ``full``, its sizes)."""
        if len(hands) != rules.players:
            raise IllegalAction(f"{rules.name} has {rules.players} seats, not {len(hands)} hands", "bad_deal")
        masks = tuple(h.mask if isinstance(h, Cards) else parse_mask(h) for h in hands)
        kmask = kitty.mask if isinstance(kitty, Cards) else parse_mask(kitty)
        total = counts_of(sum(masks) + kmask)
        for i, n in enumerate(total):
            most = rules.decks * (1 if i >= JOKER_B else 4)
            if n > most or (full and n != most):
                raise IllegalAction(
                    f"{n} cards of rank {RANK_CHARS[i]}: a {rules.decks}-pack game has {most}", "bad_deal"
                )
        if full:
            for seat, m in enumerate(masks):
                if size_of(m) != rules.hand_size:
                    raise IllegalAction(
                        f"hand {seat} has {size_of(m)} cards, not {rules.hand_size}", "bad_deal"
                    )
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
            raise IllegalAction(f"no seat {landlord}", "not_a_seat")
        r = cls._start(rules, None, (dealt,), 1, landlord, dealt)
        w = r.wild
        if wild is not None:
            ranks = format_mask(parse_mask(wild))
            if len(ranks) != 1 or ranks not in RANK_CHARS[:JOKER_B]:
                raise IllegalAction(f"the wild rank is one rank 3..2, not {wild!r}", "bad_deal")
            w = RANK_CHARS.index(ranks)
        return r._finish_auction(landlord, bid, w)

    # ----------------------------------------------------------------- queries

    @property
    def is_over(self) -> bool:
        """Whether the round has ended: a seat has played its last card, and won."""
        return self.winner >= 0

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

    def _table(self, seat: int) -> Combo | None:
        """The play ``seat`` must beat (None: it leads)."""
        return self.top if self.top_seat != seat else None

    def legal_actions(self, seat: int | None = None) -> tuple[Action, ...]:
        """Every legal action of ``seat`` (default: the seat to move); empty when not its turn.

        The tuple cannot be changed; :meth:`apply` checks any action it is given in full.
        """
        if seat is None:
            seat = self.to_move
        if seat != self.to_move:
            return ()
        setup = self.setup
        if self.phase is Phase.PLAY:
            top = self._table(seat)
            bombs = not self.bombs_left or self.bombs_left[seat] != 0
            return _play_actions(self.hands[seat], top, setup.rules, setup.wild, bombs)
        if self.phase is Phase.OVER:
            return ()
        if setup.rules.rob:
            return (Action(CALL if self._rob_stage() == "call" else ROB), PASS)
        return (PASS, *(Action(BID, b) for b in range(setup.bid + 1, setup.rules.max_bid + 1)))

    def decisions(self) -> tuple[Decision[Action], ...]:
        """The one seat asked now (its turn) and its legal actions; none once the round is over.

        >>> r = Round.from_hands(["33", "4", "5"], landlord=0)
        >>> (d,) = r.decisions()
        >>> d.seat, d.kind
        (0, 'turn')
        >>> d.actions
        (Action.from_text('play solo 3 3'), Action.from_text('play pair 3 33'))
        """
        if self.phase is Phase.OVER:
            return ()
        return (Decision(self.to_move, "turn", self.legal_actions(self.to_move)),)

    # ----------------------------------------------------------------- transitions

    def apply(self, seat: int, action: Action | str) -> "Round":
        """The state after ``seat`` takes ``action`` (or its text).

        :class:`ParseError` if the text is not an action, :class:`IllegalAction` (saying why) if
        the rules refuse it; either way this state is unchanged.
        """
        if type(seat) is not int:  # (0.0 and False equal seat 0, but are no seat)
            raise IllegalAction(f"seat {seat!r} is not a seat", "not_a_seat")
        if seat != self.to_move or self.phase is not Phase.PLAY:
            if self.phase is Phase.OVER:
                raise IllegalAction("the round is over", "round_over")
            if seat != self.to_move:
                raise IllegalAction(
                    f"it is seat {self.to_move}'s turn, not seat {seat}'s", "not_your_turn", seat=self.to_move
                )
            return self._auction(seat, self.parse_action(action, seat) if isinstance(action, str) else action)
        if isinstance(action, str):
            action = self.parse_action(action, seat)
        self._check_play(seat, action)  # raises, saying why, unless the action is legal
        return self._play(seat, action)

    def _play(self, seat: int, action: Action) -> "Round":
        """The state after ``seat``'s legal play or pass."""
        n = self.setup.rules.players
        history = (*self.history, (seat, _text_of(action)))
        combo = action.combo
        if combo is None:  # a pass: after every other seat has passed, the table is empty again
            passes = self.passes + 1
            if passes == n - 1:
                return self._evolve(
                    to_move=(seat + 1) % n, top=None, top_seat=-1, passes=passes, history=history
                )
            return self._evolve(to_move=(seat + 1) % n, passes=passes, history=history)
        hands = list(self.hands)
        hands[seat] -= combo.mask
        counts = list(self.play_counts)
        counts[seat] += 1
        if combo.kind == ROCKET or combo.kind == BOMB:
            return self._bomb(seat, combo, tuple(hands), tuple(counts), history)
        over = not hands[seat]  # the seat has played its last card: it wins and the round ends
        return self._evolve(
            phase=Phase.OVER if over else Phase.PLAY,
            to_move=seat if over else (seat + 1) % n,
            hands=tuple(hands),
            top=combo,
            top_seat=seat,
            passes=0,
            play_counts=tuple(counts),
            winner=seat if over else -1,
            history=history,
        )

    def _bomb(
        self, seat: int, combo: Combo, hands: tuple[int, ...], counts: tuple[int, ...], history: History
    ) -> "Round":
        """The state after ``seat`` plays a bomb or the rocket: it may double the score, and it
        spends one of the seat's bombs under ``bomb_limits``."""
        doubles = self.doubles
        if combo.kind == ROCKET or combo.size >= self.setup.rules.double_min_bomb:
            doubles += 1
        bombs_left = self.bombs_left
        if bombs_left and bombs_left[seat] >= 0:
            bombs_left = self._spend_bomb(seat, combo)
        over = not hands[seat]
        return self._evolve(
            phase=Phase.OVER if over else Phase.PLAY,
            to_move=seat if over else (seat + 1) % len(hands),
            hands=hands,
            top=combo,
            top_seat=seat,
            passes=0,
            doubles=doubles,
            play_counts=counts,
            winner=seat if over else -1,
            history=history,
            bombs_left=bombs_left,
        )

    def parse_action(self, text: str, seat: int | None = None) -> Action:
        """Read an action's text in this state (plays take the reading that fits the table).

        :class:`ParseError` if the text is not an action's notation (which is ASCII),
        :class:`IllegalAction` if it is one the rules refuse here.

        >>> r = Round.new(5)
        >>> r.parse_action("bid \u0661")
        Traceback (most recent call last):
        ...
        pagoda.core.errors.ParseError: action text is ASCII: '\u0661' (ARABIC-INDIC DIGIT ONE)...
        """
        if seat is None:
            seat = self.to_move
        check_ascii(text, "action text")
        words = text.split(None, 1)
        if not words:
            raise ParseError("empty action")
        verb = words[0].lower()
        rest = words[1] if len(words) > 1 else ""
        if verb in (PASS_KIND, CALL, ROB) and not rest:
            return Action(verb)
        if verb == BID:
            return Action(BID, parse_number(rest.strip(), "a bid"))
        if verb == PLAY and rest:
            cards_text, _, reading_text = rest.partition(" as ")
            mask = parse_mask(cards_text)
            reading = parse_mask(reading_text) if reading_text else None
            if self.phase is not Phase.PLAY:
                raise IllegalAction(
                    "no play during the auction", "wrong_phase", action="play", phase="auction"
                )
            top = self._table(seat)
            return Action(PLAY, 0, self._read_play(mask, reading, top))
        raise ParseError(f"cannot read action {text!r} (bid N, pass, call, rob, play CARDS)")

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
                    raise IllegalAction(
                        f"{text} can be read several ways: name one with 'as' ({shown})",
                        "wild_name",
                        cards=text,
                        options=shown,
                    )
                if natural:
                    options = natural
        else:
            if reading is not None and reading != mask:
                raise IllegalAction(
                    f"{text} has no wild card to read as {format_mask(reading)}", "no_wild_card", cards=text
                )
            options = readings(mask, self.rules)
        if not options:
            raise IllegalAction(
                f"{text} is not a combination under {self.rules.name}", "not_a_combination", cards=text
            )
        combo = best_reading(options, top)
        if combo is None:
            raise IllegalAction(
                f"{text} does not beat {top} ({top.kind if top else ''})",
                "does_not_beat",
                play=text,
                top=str(top),
            )
        return combo

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
                    f"a bid must be above {self.bid} and at most {rules.max_bid}, not {action.bid}",
                    "bid_range",
                    above=self.bid,
                    most=rules.max_bid,
                )
            bid, bidder = action.bid, seat
        elif action.kind != PASS_KIND:
            raise IllegalAction(
                f"{action} is not an auction action here (bid N or pass)", "auction_first", action=str(action)
            )
        if bid == rules.max_bid or len(auction) == n:
            if bidder < 0:
                return self._redeal(history)
            done = self._evolve(setup=self._settle(auction=auction), history=history)
            return done._finish_auction(bidder, bid, self._drawn_wild())
        setup = self._settle(auction=auction, bid=bid, bidder=bidder)
        return self._evolve(setup=setup, history=history, to_move=(seat + 1) % n)

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
            raise IllegalAction(
                f"{action} is not an auction action here ({want} or pass)",
                "auction_first",
                action=str(action),
            )
        acts = [a for _, a in auction]
        if CALL not in acts:
            if len(auction) == n:
                return self._redeal(history)
            return self._evolve(
                setup=self._settle(auction=auction), history=history, to_move=order[len(auction)]
            )
        k = acts.index(CALL)
        caller = order[k]
        robbers = order[k + 1 :]
        after = auction[k + 1 :]
        robs = [s for s, a in after if a == ROB]
        base = 2 ** len(robs)
        last = robs[-1] if robs else caller
        if len(after) < len(robbers):
            setup = self._settle(auction=auction, bid=base, bidder=last)
            return self._evolve(setup=setup, history=history, to_move=robbers[len(after)])
        if len(after) == len(robbers) and any(a == ROB for _, a in after):
            setup = self._settle(auction=auction, bid=base, bidder=last)
            return self._evolve(setup=setup, history=history, to_move=caller)
        done = self._evolve(setup=self._settle(auction=auction), history=history)
        return done._finish_auction(last, base, self._drawn_wild())

    def _drawn_wild(self) -> int:
        if self.rules.wild != "drawn":
            return self.wild
        if self.seed is None:
            raise IllegalAction("the wild rank is drawn from the seed, and this round has none", "no_seed")
        return draw_wild(self.seed, self.deal_no)

    def _redeal(self, history: tuple[tuple[int, str], ...]) -> "Round":
        number = self.deal_no + 1
        deals = self.deals
        if len(deals) >= number:  # a record's next deal
            d = deals[number - 1]
        elif self.seed is None:
            raise IllegalAction("everyone passed: a redeal needs a seed or the next deal", "no_seed")
        else:
            d = deal(self.seed, number, self.rules)[0]
            deals = (*deals, d)
        fresh = Round._start(self.rules, self.seed, deals, number, self.first, d)
        return fresh._evolve(setup=fresh._settle(start=self.start), history=history)

    def _finish_auction(self, landlord: int, bid: int, wild: int) -> "Round":
        hands = list(self.hands)
        hands[landlord] += self.kitty
        return self._evolve(
            setup=self._settle(landlord=landlord, bid=bid, bidder=landlord, wild=wild),
            phase=Phase.PLAY,
            to_move=landlord,
            hands=tuple(hands),
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
        top = self._table(seat)
        if action.kind == PASS_KIND:
            if top is None:
                raise IllegalAction("the leader may not pass", "leader_cannot_pass")
            return
        combo = action.combo
        if action.kind != PLAY or combo is None:
            raise IllegalAction(
                f"{action} is not a play action (play CARDS or pass)",
                "wrong_phase",
                action=str(action),
                phase="play",
            )
        hand = self.hands[seat]
        if not is_subset(combo.mask, hand):
            raise IllegalAction(
                f"seat {seat} does not hold {format_mask(combo.mask)}",
                "not_held",
                seat=seat,
                cards=format_mask(combo.mask),
            )
        if not beats(combo, top):
            raise IllegalAction(
                f"{combo} ({combo.kind}) does not beat {top} ({top.kind if top else ''})",
                "does_not_beat",
                play=str(combo),
                top=str(top),
            )
        self._check_reading(combo)
        rules = self.rules
        if not rules.bomb_head_chains:
            why = hand_allows(combo, counts_of(hand), rules)
            if why:
                raise IllegalAction(why, "bomb_broken")

    def _spend_bomb(self, seat: int, combo: Combo) -> tuple[int, ...]:
        left = list(self.bombs_left)
        if left[seat] == 0:
            said = [text for s, text in self.auction if s == seat]
            raise IllegalAction(
                f"seat {seat} has played all the bombs its auction allows ({', '.join(said)}): not {combo}",
                "bombs_spent",
                seat=seat,
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
            raise IllegalAction(
                f"{combo} is not a {combo.kind} of rank {combo.rank} under {self.rules.name}",
                "not_a_combination",
                cards=str(combo),
            )

    # ----------------------------------------------------------------- records

    @property
    def record(self) -> Record:
        """The round's record: Game, Rules, Seed, First, the deals (or the Position it was made
        from), and every action since."""
        headers = [("Game", "doudizhu"), ("Rules", format_rules(self.rules))]
        if self.start:
            headers.append(("Position", self.start))
            return Record(tuple(headers), self.history)
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

    def position(self) -> str:
        """The state as one line of text that :meth:`from_position` reads back (:func:`format_position`)."""
        return format_position(self)

    @classmethod
    def from_position(cls, text: str) -> "Round":
        """The round a :meth:`position` describes; its record starts from that position.

        :class:`ParseError` names the part of the text that is wrong.
        """
        r = parse_position(text)
        return r._evolve(setup=r._settle(start=r.position()))


def _seat_or_none(value: int) -> str:
    return _NONE if value < 0 else str(value)


def format_position(r: Round) -> str:
    """The position of a round: ``; ``-separated fields, each its name and value.

    ``rules`` (the rules text), ``phase``, ``seed`` (``-``: none), ``deal`` (its number), ``first``
    (the first bidder), ``hands`` (``/`` between seats, ``-`` for none), ``kitty`` (shown to all
    once the auction is over), ``auction`` (``seat action`` entries, ``,`` between them),
    ``bid`` and ``bidder``, ``landlord``, ``wild`` (a rank), ``top`` (the combination to beat,
    :func:`~pagoda.doudizhu.combos.format_combo`) and ``by`` (its seat), ``passes`` (since the
    top), ``doubles`` (bombs and rockets that doubled the score), ``plays`` (per seat, for the
    spring), ``bombs_left`` (with ``bomb_limits``; ``*``: any number) and ``to`` (the seat to move,
    the winner once the round is over).

    >>> r = Round.from_hands(["33", "4", "5"], landlord=0)
    >>> print(r.position().replace("; ", ";\\n"))  # one line, here cut at each field
    rules classic;
    phase play;
    seed -;
    deal 1;
    first 0;
    hands 33/4/5;
    kitty -;
    auction -;
    bid 1;
    bidder 0;
    landlord 0;
    wild -;
    top -;
    by -;
    passes 0;
    doubles 0;
    plays 0/0/0;
    bombs_left -;
    to 0
    >>> r.apply(0, "play 3").position()[-80:]
    'wild -; top solo 3 3; by 0; passes 0; doubles 0; plays 1/0/0; bombs_left -; to 1'
    >>> Round.from_position(r.position()) == r
    True
    """
    auction = ", ".join(f"{s} {a}" for s, a in r.auction) or _NONE
    fields = (
        ("rules", format_rules(r.rules)),
        ("phase", r.phase.value),
        ("seed", _NONE if r.seed is None else str(r.seed)),
        ("deal", str(r.deal_no)),
        ("first", str(r.first)),
        ("hands", "/".join(format_mask(h) or _NONE for h in r.hands)),
        ("kitty", format_mask(r.kitty) or _NONE),
        ("auction", auction),
        ("bid", str(r.bid)),
        ("bidder", _seat_or_none(r.bidder)),
        ("landlord", _seat_or_none(r.landlord)),
        ("wild", RANK_CHARS[r.wild] if r.wild >= 0 else _NONE),
        ("top", _NONE if r.top is None else format_combo(r.top)),
        ("by", _seat_or_none(r.top_seat)),
        ("passes", str(r.passes)),
        ("doubles", str(r.doubles)),
        ("plays", "/".join(map(str, r.play_counts))),
        ("bombs_left", "/".join("*" if b < 0 else str(b) for b in r.bombs_left) or _NONE),
        ("to", str(r.to_move)),
    )
    return "; ".join(f"{name} {value}" for name, value in fields)


_POSITION_FIELDS = (
    *("rules", "phase", "seed", "deal", "first", "hands", "kitty", "auction", "bid", "bidder"),
    *("landlord", "wild", "top", "by", "passes", "doubles", "plays", "bombs_left", "to"),
)


def parse_position(text: str) -> Round:
    """Read :func:`format_position`'s text into a round (with no history and no record start)."""
    f = _fields_of(text, _POSITION_FIELDS, "a position")
    try:
        rules = parse_rules(f["rules"])
    except ParseError as e:
        raise ParseError(f"position field rules: {e}") from None
    n = rules.players

    def number(name: str, value: str | None = None) -> int:
        return parse_number(f[name] if value is None else value, f"position field {name}")

    def seat(name: str, none_ok: bool = True, value: str | None = None) -> int:
        text = f[name] if value is None else value
        if text == _NONE and none_ok:
            return -1
        s = number(name, text)
        if s >= n:
            raise ParseError(f"position field {name}: {rules.name} has seats 0..{n - 1}, not {s}")
        return s

    def per_seat(name: str) -> list[str]:
        values = f[name].split("/")
        if len(values) != n:
            raise ParseError(f"position field {name} has {len(values)} entries, not one per seat ({n})")
        return values

    def cards(name: str, value: str) -> int:
        try:
            return 0 if value == _NONE else parse_mask(value)
        except ParseError as e:
            raise ParseError(f"position field {name}: {e}") from None

    try:
        phase = Phase(f["phase"])
    except ValueError:
        raise ParseError(f"position field phase is auction, play or over, not {f['phase']!r}") from None
    hands = tuple(cards("hands", h) for h in per_seat("hands"))
    kitty = cards("kitty", f["kitty"])
    counts = counts_of(sum(hands) + (kitty if phase is Phase.AUCTION else 0))
    for i, k in enumerate(counts):
        most = rules.decks * (1 if i >= JOKER_B else 4)
        if k > most:
            raise ParseError(
                f"position field hands: {k} cards of rank {RANK_CHARS[i]}, a pack of {rules.name} has {most}"
            )
    auction: list[tuple[int, str]] = []
    for entry in [] if f["auction"] == _NONE else f["auction"].split(","):
        who, _, said = entry.strip().partition(" ")
        if said not in ("pass", "call", "rob") and not (said.startswith("bid ") and said[4:].isdigit()):
            raise ParseError(f"position field auction: {entry.strip()!r} is not 'SEAT pass|call|rob|bid N'")
        auction.append((seat("auction", none_ok=False, value=who), said))
    wild = -1
    if f["wild"] != _NONE:
        if len(f["wild"]) != 1 or f["wild"].upper() not in RANK_CHARS[:JOKER_B]:
            raise ParseError(f"position field wild is a rank 3..2 or -, not {f['wild']!r}")
        wild = RANK_CHARS.index(f["wild"].upper())
    top = None
    if f["top"] != _NONE:
        try:
            top = parse_combo(f["top"])
        except ParseError as e:
            raise ParseError(f"position field top: {e}") from None
    top_seat = seat("by")
    if (top is None) != (top_seat < 0):
        raise ParseError("position fields top and by: a top play has a seat, an empty table none")
    plays = tuple(number("plays", v) for v in per_seat("plays"))
    bombs_left: tuple[int, ...] = ()
    if f["bombs_left"] != _NONE:
        bombs_left = tuple(-1 if v == "*" else number("bombs_left", v) for v in per_seat("bombs_left"))
    landlord = seat("landlord")
    if (phase is Phase.AUCTION) != (landlord < 0):
        raise ParseError(
            f"position field landlord: the {phase.value} phase has {'none' if landlord < 0 else 'one'}"
        )
    to_move = seat("to", none_ok=False)
    if number("deal") < 1:
        raise ParseError("position field deal: deals are numbered from 1")
    setup = Setup(
        rules=rules,
        seed=None if f["seed"] == _NONE else number("seed"),
        deals=(),
        deal_no=number("deal"),
        first=seat("first", none_ok=False),
        kitty=kitty,
        landlord=landlord,
        bid=number("bid"),
        bidder=seat("bidder"),
        auction=tuple(auction),
        wild=wild,
    )
    return Round(
        setup=setup,
        phase=phase,
        to_move=to_move,
        hands=hands,
        top=top,
        top_seat=top_seat,
        passes=number("passes"),
        doubles=number("doubles"),
        play_counts=plays,
        winner=to_move if phase is Phase.OVER else -1,
        history=(),
        bombs_left=bombs_left,
    )


def replay(record: Record | str) -> Round:
    """The round a record describes, by folding its actions over its deal (or its position).

    A record's text is ASCII (:class:`ParseError` otherwise: a seat written ``\u0661`` is not 1)."""
    if isinstance(record, str):
        check_ascii(record, "a Dou Di Zhu record")
    rec = parse_record(record) if isinstance(record, str) else record
    if rec.header("Game") != "doudizhu":
        raise PagodaError(f"not a Dou Di Zhu record: Game {rec.header('Game')!r}")
    rules = parse_rules(rec.header("Rules"))
    start = rec.get("Position")
    wild_text = rec.get("Wild")
    if start is not None:
        r = Round.from_position(start)
        if r.rules != rules:
            raise PagodaError(f"the record's Rules {rec.header('Rules')!r} are not its position's")
    else:
        deals = [parse_deal(rec.header("Deal"), rules.players)]
        k = 2
        while (more := rec.get(f"Deal{k}")) is not None:
            deals.append(parse_deal(more, rules.players))
            k += 1
        seed_text = rec.get("Seed")
        if seed_text is not None:
            seed = parse_number(seed_text, "the Seed header")
            first = parse_number(rec.header("First"), "the First header")
            r = Round._start(rules, seed, tuple(deals), 1, first, deals[0])
        else:
            d = deals[0]
            hands = [Cards(m) for m in d[: rules.players]]
            r = Round.from_hands(
                hands,
                Cards(d[rules.players]),
                parse_number(rec.header("Landlord"), "the Landlord header"),
                parse_number(rec.header("Bid"), "the Bid header"),
                rules,
                wild_text,
            )
    for seat, text in rec.actions:
        r = r.apply(seat, text)
    if wild_text is not None and r.wild >= 0 and RANK_CHARS[r.wild] != wild_text:
        raise PagodaError(f"the record's wild {wild_text} is not the one its seed draws")
    return r


__all__ = [
    "Deal",
    "Phase",
    "Round",
    "Setup",
    "View",
    "deal",
    "format_deal",
    "format_position",
    "format_view",
    "pack",
    "parse_deal",
    "parse_position",
    "parse_view",
    "replay",
]
