"""A Tichu round as an immutable state: deal, Grand Tichu, exchange, play, scoring.

The flow: each seat gets 8 cards and says ``grand`` or ``no-grand`` (Grand Tichu, ±200); then 6
more; each seat gives one card to each other seat (``exchange``: simultaneous, nobody receives
before all have given); the Mah Jong's holder leads. A seat may call ``tichu`` (±100) while it
has played no card (not after a Grand Tichu); several seats may call.

On its turn a seat plays a combination that beats the one on the table, or passes (the leader may
not pass). A bomb may also be played out of turn while a trick is live: on any play, on one's own,
on the Dragon, and after the last pass until the trick is taken; play then goes on after the
bomber. When every other seat still in has passed after the last play, the trick is complete and
its winner (even one already out) must ``take`` it, or give a Dragon trick to an opponent
(``give-dragon``). Who is still asked whether it bombs is part of the state, the bomb *window*
(:attr:`Round.window`): opened after every play and once more when the trick becomes complete,
left by a bomb or by ``no-bomb``; the trick is taken only once it is empty.
:meth:`Round.decisions` lists the seats asked now and what each may do: the one flow that every
driver steps through. The Dog is led alone and hands the lead to the partner (or, if the partner is
out, to the next seat still in after the partner). The Mah Jong may wish for a rank: until a
natural card of it is played, a seat on its turn that holds the rank and can make a legal play
containing it must do so (out-of-turn bombs are free of the wish). The wish is set after the
Mah Jong's play: that play's own cards never fulfil it, even when they hold the wished rank.

The round ends when three seats are out (a Dragon trick still on the table is given away first;
any other unfinished trick goes to whoever played last), or at once when partners go out first
and second (one-two: 200 to that team, card points ignored). The last seat's hand goes to the
opposing team, its tricks to the first seat out (``bsw``: to the opposing team). A Tichu call
wins its bonus only if the caller goes out first.

A round's position is one line of text (:meth:`Round.position`, like chess's FEN) that
:meth:`Round.from_position` reads back; ``repr`` of a round is that call.
"""

import enum
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from pagoda.core import Decision, IllegalAction, PagodaError, ParseError, Record, parse_record
from pagoda.tichu.actions import (
    EXCHANGE,
    GIVE_DRAGON,
    GRAND,
    NO_BOMB,
    NO_GRAND,
    PASS,
    PLAY,
    SINGLE_PLAYS,
    TAKE,
    TICHU,
    Action,
    ExchangeChoices,
    LeadList,
    PlayList,
    as_action,
)
from pagoda.tichu.cards import (
    CARDS,
    DOG_BIT,
    DRAGON,
    DRAGON_BIT,
    FULL_DECK,
    MAH_JONG_BIT,
    PHOENIX_BIT,
    RANK_MASKS,
    Card,
    CardsLike,
    count_points,
    format_cards,
    format_rank,
    mask_cards,
    parse_cards,
    parse_rank,
    to_mask,
)
from pagoda.tichu.combos import DOG_KIND, SINGLE, Combo, beats, readings
from pagoda.tichu.movegen import has_bomb, lead_plays, raw_bombs, raw_plays, with_wishes
from pagoda.tichu.rules import RULES, Rules

_ACTION_GRAND = Action(GRAND)
_ACTION_NO_GRAND = Action(NO_GRAND)
_ACTION_TICHU = Action(TICHU)
_ACTION_PASS = Action(PASS)
_ACTION_TAKE = Action(TAKE)
_ACTION_NO_BOMB = Action(NO_BOMB)
_WISHES = tuple(range(2, 15))
_WISH_OR_NONE = (0, *_WISHES)
_NATURALS = sum(RANK_MASKS)
_CARD_BITS = tuple(1 << c for c in range(56))
_LOWEST_UNSET = tuple(next((s for s in range(4) if not m >> s & 1), -1) for m in range(16))
# _FIRST_IN[seats << 2 | s]: the first of s, s + 1, s + 2, s + 3 (mod 4) in the seat mask ``seats``.
_FIRST_IN = tuple(
    next((t for t in ((s + k) & 3 for k in range(4)) if seats >> t & 1), -1)
    for seats in range(16)
    for s in range(4)
)

# On a single, the Phoenix's rank depends on the card it is played on (led, it is 1.5:
# SINGLE_PLAYS has that one).
_PHOENIX_ON: dict[float, Action] = {
    rank: Action(PLAY, PHOENIX_BIT, 0, 0, None, -1, Combo(SINGLE, rank + 0.5, PHOENIX_BIT))
    for rank in range(1, 15)
}
# The cards that beat a single of rank 0..15 (whole part): higher naturals, the Phoenix and the
# Dragon; nothing beats the Dragon but a bomb.
_BEATS_SINGLE: tuple[int, ...] = tuple(
    sum(RANK_MASKS[r] for r in range(above + 1, 15)) | PHOENIX_BIT | DRAGON_BIT if above < 15 else 0
    for above in range(16)
)


class Phase(enum.Enum):
    """The phases of a round, in order."""

    GRAND_TICHU = "grand_tichu"
    EXCHANGE = "exchange"
    PLAY = "play"
    OVER = "over"

    def __str__(self) -> str:
        return self.value


# Up to this many plays, a list of actions costs less than one made on demand (PlayList).
_EAGER_PLAYS = 3

_History = tuple["_History", int, Action] | None


class Setup(NamedTuple):
    """What a round keeps from its deal on, changed only by the Grand Tichu decisions, the
    exchange and the calls."""

    deal: tuple[tuple[Card, ...], ...]
    seed: int | None
    start: Phase  # the phase the round was dealt into: Grand Tichu, or straight into play
    decided: int  # the seats that have decided on Grand Tichu
    given: tuple[tuple[Card, Card, Card] | None, ...]  # each seat's exchange, once given
    grand: int  # the seats that called Grand Tichu
    tichu: int  # the seats that called Tichu (rare in play: a new Setup then)
    position: str | None = None  # the position the round was set up from (from_position)


@dataclass(frozen=True, slots=True, repr=False)
class View:
    """What one seat may know of a round: its own cards and everything public, nothing more."""

    seat: int
    phase: Phase
    rules: Rules
    hand: int
    hand_sizes: tuple[int, int, int, int]
    grand_decided: tuple[bool, bool, bool, bool]
    grand_calls: tuple[bool, bool, bool, bool]
    tichu_calls: tuple[bool, bool, bool, bool]
    given: tuple[Card, Card, Card] | None
    received: tuple[Card, Card, Card] | None
    to_move: int
    top: Combo | None
    top_seat: int
    trick: tuple[tuple[int, Combo], ...]
    passed: tuple[bool, bool, bool, bool]
    is_trick_complete: bool
    wish: int
    out: tuple[int, ...]
    won: tuple[int, int, int, int]
    played: int
    events: tuple[tuple[int, str], ...]
    #: ``(seat,)`` while this seat is in the bomb window (asked whether it bombs), else empty:
    #: who else is asked would tell who holds a bomb, so a view never shows it.
    window: tuple[int, ...] = ()

    @property
    def hand_cards(self) -> tuple[Card, ...]:
        """The seat's cards in hand order."""
        return mask_cards(self.hand)

    @property
    def unseen(self) -> int:
        """The cards this seat has not seen: in other hands or not yet dealt to it."""
        return FULL_DECK & ~self.hand & ~self.played & ~sum(self.won)

    def text(self) -> str:
        """The view as one line, like :meth:`Round.position` but only what this seat may know.

        Eighteen fields: the seat, the rules, the phase, its hand, the four hand sizes, the
        seats that decided on and called Grand Tichu, called Tichu, its own exchange given and
        received, the trick, the seats that passed, the bomb window as this seat sees it, the
        wish, the seats out, the won cards, the seat to move, and the public log (``seat:action``
        with ``+`` for spaces, ``,`` between). :meth:`parse` reads it back; ``repr`` calls it.

        >>> v = Round.new(seed=3).apply(1, "grand").view(2)
        >>> v.text()
        'standard 2 grand_tichu 3r7r8k8r9rQgQrKb 8/8/8/8 1 1 - - - - - - - - -/-/-/- 0 1:grand'
        >>> View.parse(v.text()) == v
        True
        """
        events = ",".join(f"{s}:{a.replace(' ', '+')}" for s, a in self.events) or "-"
        fields = (
            str(self.rules).replace(" ", ","),
            str(self.seat),
            self.phase.value,
            _cards_text(self.hand),
            "/".join(map(str, self.hand_sizes)),
            _seat_set(_bits(self.grand_decided)),
            _seat_set(_bits(self.grand_calls)),
            _seat_set(_bits(self.tichu_calls)),
            _gift_text(self.given),
            _gift_text(self.received),
            _trick_text(self.trick),
            _seat_set(_bits(self.passed)),
            "".join(map(str, self.window)) or "-",
            format_rank(self.wish) if self.wish else "-",
            "".join(map(str, self.out)) or "-",
            "/".join(_cards_text(w) for w in self.won),
            str(self.to_move) if self.to_move >= 0 else "-",
            events,
        )
        return " ".join(fields)

    @staticmethod
    def parse(text: str) -> "View":
        """Read :meth:`text` back; :class:`~pagoda.core.ParseError` names a bad field."""
        part, bad, rules = _read_fields(text, _VIEW_PARTS, "view")
        if part["seat"] not in ("0", "1", "2", "3"):
            raise bad("seat", "a seat 0-3")
        phase = next((p for p in Phase if p.value == part["phase"]), None)
        if phase is None:
            raise bad("phase", "one of " + ", ".join(p.value for p in Phase))
        try:
            hand = 0 if part["hand"] == "-" else to_mask(part["hand"])
        except ParseError as e:
            raise bad("hand", str(e)) from None
        size_words = part["hand_sizes"].split("/")
        if len(size_words) != 4 or not all(w.isdigit() and int(w) <= 14 for w in size_words):
            raise bad("hand_sizes", "four sizes 0-14 between /")
        sizes = [int(w) for w in size_words]
        trick = _parse_trick(part, bad)
        top = trick[-1][1] if trick else None
        top_seat = trick[-1][0] if trick else -1
        won = _four_masks(part, "won", bad)
        out = _parse_seats(part, "out", bad)
        passed = _parse_seat_set(part, "passed", bad)
        seated = _bits(tuple(n > 0 for n in sizes))
        others = seated & ~(1 << top_seat) if trick else 0
        closing = phase is Phase.PLAY and len(out) == 3
        events: list[tuple[int, str]] = []
        if part["events"] != "-":
            for event in part["events"].split(","):
                seat_text, _, action = event.partition(":")
                if seat_text not in ("0", "1", "2", "3") or not action:
                    raise bad("events", f"{event!r} is not <seat>:<action>")
                events.append((int(seat_text), action.replace("+", " ")))
        view = View(
            seat=int(part["seat"]),
            phase=phase,
            rules=rules,
            hand=hand,
            hand_sizes=(sizes[0], sizes[1], sizes[2], sizes[3]),
            grand_decided=_bools(_parse_seat_set(part, "decided", bad)),
            grand_calls=_bools(_parse_seat_set(part, "grand", bad)),
            tichu_calls=_bools(_parse_seat_set(part, "tichu", bad)),
            given=_parse_gift(part, "given", part["given"], bad),
            received=_parse_gift(part, "received", part["received"], bad),
            to_move=_parse_to_move(part, bad),
            top=top,
            top_seat=top_seat,
            trick=trick,
            passed=_bools(passed),
            is_trick_complete=top is not None and (closing or passed & others == others),
            wish=_parse_wish(part, bad),
            out=out,
            won=won,
            played=won[0] | won[1] | won[2] | won[3] | sum(c.mask for _, c in trick),
            events=tuple(events),
            window=_parse_seats(part, "window", bad),
        )
        again = view.text().split()
        for name, back in zip(_VIEW_PARTS, again, strict=True):
            word = part[name]
            if word != back:
                raise bad(name, f"not as a view writes it: {back!r}")
        return view

    def __repr__(self) -> str:
        return f"View.parse({self.text()!r})"


class Round(NamedTuple):
    """An immutable Tichu round; :meth:`apply` returns the next round.

    A round is a named tuple of the fields below (as a Dou Di Zhu round is): frozen and slotted,
    and every transition makes its next round with one :meth:`_evolve`. Two rounds are equal
    when their positions are (:meth:`position`); the history that led there is compared through
    :attr:`record`.

    >>> r = Round.new(seed=1)
    >>> r.to_move = 3
    Traceback (most recent call last):
    ...
    AttributeError: can't set attribute

    >>> r = Round.from_hands([
    ...     "Mj 2g 3g 4g 5g 6g 7g 8g 9g Tg Jg Qg Kg Ag",
    ...     "Dg 2k 3k 4k 5k 6k 7k 8k 9k Tk Jk Qk Kk Ak",
    ...     "Ph 2b 3b 4b 5b 6b 7b 8b 9b Tb Jb Qb Kb Ab",
    ...     "Dr 2r 3r 4r 5r 6r 7r 8r 9r Tr Jr Qr Kr Ar"])
    >>> r.phase, r.to_move
    (<Phase.PLAY: 'play'>, 0)
    >>> r = r.apply(0, "play Mj wish 7")
    >>> r.apply(1, "pass")
    Traceback (most recent call last):
    ...
    pagoda.core.errors.IllegalAction: the wish for 7 obliges seat 1 to play one (e.g. play 7k)
    >>> r = r.apply(1, "play 7k")
    >>> r.window  # every seat holds a straight flush: all but the seat to move are asked
    (3, 0, 1)
    >>> r = r.apply(2, "pass").apply(3, "pass").apply(0, "pass")
    >>> r.is_trick_complete, r.to_move, r.window  # complete: the window opens again, winner included
    (True, 1, (1, 2, 3, 0))
    >>> [(d.seat, d.kind) for d in r.decisions()]
    [(1, 'bomb'), (2, 'bomb'), (3, 'bomb'), (0, 'bomb')]
    >>> [str(a) for a in r.legal_actions(1)][-2:]
    ['play Tk Jk Qk Kk Ak', 'no-bomb']
    >>> for seat in r.window:
    ...     r = r.apply(seat, "no-bomb")
    >>> [str(a) for a in r.decisions()[0].actions][:2]
    ['take', 'play 2k 3k 4k 5k 6k']
    """

    rules: Rules
    phase: Phase
    #: The seat whose decision the round waits for (-1 once over); in the simultaneous phases
    #: (Grand Tichu, exchange) the lowest seat still to decide (:attr:`awaiting` lists them all).
    to_move: int
    #: Fixed from the deal on, but for the Grand Tichu decisions, the exchange and the calls.
    setup: "Setup"
    #: Each seat's cards in hand, as masks (:meth:`hand` lists them).
    hands: tuple[int, int, int, int]
    #: The seats with cards in hand (a bit a seat).
    seated: int
    #: The seats whose hand holds a bomb (a hand in play only loses cards).
    bomb_seats: int
    #: The seats that may no longer call Tichu: they called, or played a card.
    quiet: int
    #: The cards of the tricks each seat has taken (or been given), as masks.
    taken: tuple[int, int, int, int]
    #: The cards of the live trick, as a mask.
    trick_cards: int
    #: The combination on the table (None when the next play is a lead).
    top: Combo | None
    #: The seat that played :attr:`top` (-1 when none).
    top_seat: int
    #: The plays of the live trick, in order.
    trick: tuple[tuple[int, Combo], ...]
    #: The seats that passed on :attr:`top` (a bit a seat).
    passed: int
    #: Every other seat still in has passed on the top.
    complete: bool
    #: The rank wished for with the Mah Jong and not yet played (0: none).
    wish: int
    #: The seats that have gone out, in order.
    out: tuple[int, ...]
    #: The round is over but for the Dragon trick's gift.
    closing: bool
    #: The bomb window: the seats still to answer whether they bomb the table, in the order they
    #: are asked. It opens after every play that leaves a live trick, and once more when the
    #: trick becomes complete: every seat still in whose hand holds a bomb that beats the table,
    #: in play order after the seat that just acted (so the last player comes last). While the
    #: trick is not complete the seat to move is not in it (its bombs are among its own plays;
    #: when a pass hands it the turn it leaves the window); once complete, the winner is. A seat
    #: leaves it by a bomb (which changes the table and opens it again) or by ``no-bomb``.
    #: ``take`` and ``give-dragon`` wait until it is empty.
    window: tuple[int, ...]
    #: Every action so far, newest first: (the history before, seat, action), None at the start.
    history: _History
    #: The seat to move's legal actions, once listed: the round's own memo (empty until asked;
    #: every new round gets its own), so that :meth:`decisions`, :meth:`legal_actions` and
    #: :meth:`apply` list them once. It never changes what the round is: equality, the position
    #: and the record ignore it.
    memo: list[Sequence[Action]]

    # ----------------------------------------------------------------- construction

    @classmethod
    def new(cls, seed: int | None = None, rules: Rules | None = None) -> "Round":
        """A round dealt from a shuffle seeded with ``seed``, at the Grand Tichu decisions."""
        deck = list(CARDS)
        random.Random(seed).shuffle(deck)
        deal = (tuple(deck[:14]), tuple(deck[14:28]), tuple(deck[28:42]), tuple(deck[42:]))
        return cls._dealt(deal, rules, seed, Phase.GRAND_TICHU)

    @classmethod
    def from_hands(cls, hands: Sequence[CardsLike], rules: Rules | None = None) -> "Round":
        """A round straight into play from four 14-card hands; the Mah Jong's holder leads."""
        return cls.from_deal(hands, rules, start=Phase.PLAY)

    @classmethod
    def from_deal(
        cls,
        deal: Sequence[CardsLike],
        rules: Rules | None = None,
        seed: int | None = None,
        start: Phase = Phase.GRAND_TICHU,
    ) -> "Round":
        """A round from four 14-card hands in deal order (the first 8 of each come first)."""
        if len(deal) != 4:
            raise PagodaError(f"a deal has 4 hands, not {len(deal)}")
        hands: list[tuple[Card, ...]] = []
        seen = 0
        for seat, cards in enumerate(deal):
            if isinstance(cards, str):
                cards = parse_cards(cards)
            elif isinstance(cards, int):
                cards = mask_cards(cards)
            hand = tuple(CARDS[c] for c in cards)
            mask = to_mask(hand)
            if len(hand) != 14:
                raise PagodaError(f"hand {seat} has {len(hand)} cards, not 14")
            if mask & seen:
                raise PagodaError(f"hand {seat} repeats {format_cards(mask & seen)} from an earlier hand")
            seen |= mask
            hands.append(hand)
        if start not in (Phase.GRAND_TICHU, Phase.PLAY):
            raise PagodaError("a round starts at the Grand Tichu decisions or straight into play")
        return cls._dealt(tuple(hands), rules, seed, start)

    @classmethod
    def _dealt(
        cls, hands: tuple[tuple[Card, ...], ...], rules: Rules | None, seed: int | None, start: Phase
    ) -> "Round":
        """The round of a deal already checked: four hands of 14 different cards."""
        grand = start is Phase.GRAND_TICHU
        masks = [_dealt_mask(hand[:8] if grand else hand) for hand in hands]
        dealt = (masks[0], masks[1], masks[2], masks[3])
        return cls(
            rules=rules if rules is not None else RULES["standard"],
            phase=start,
            to_move=0 if grand else _mah_jong_holder(dealt),
            setup=Setup(hands, seed, start, 0 if grand else 0b1111, (None, None, None, None), 0, 0),
            hands=dealt,
            seated=0b1111,
            bomb_seats=0 if grand else _bomb_seats(dealt),  # in the Grand Tichu: set when play begins
            quiet=0,
            taken=(0, 0, 0, 0),
            trick_cards=0,
            top=None,
            top_seat=-1,
            trick=(),
            passed=0,
            complete=False,
            wish=0,
            out=(),
            closing=False,
            window=(),
            history=None,
            memo=[],
        )

    @classmethod
    def from_view(cls, view: View, hands: Sequence[CardsLike]) -> "Round":
        """The position ``view`` shows, with ``hands`` as every seat's cards (a determinization).

        For simulations: ``hands[view.seat]`` must be the view's own hand, each hand as many
        cards as the view says, and all of them together exactly the cards not yet played. The
        position has no deal, so it writes no record. Only positions in play are supported.

        >>> r = Round.new(seed=2)
        >>> for seat in range(4):
        ...     r = r.apply(seat, "no-grand")
        >>> for seat in range(4):
        ...     r = r.apply(seat, r.legal_actions(seat)[-1])  # an exchange
        >>> r = r.apply(r.to_move, r.legal_actions(r.to_move)[0])
        >>> again = Round.from_view(r.view(1), [r.hand_mask(s) for s in range(4)])
        >>> again.legal_actions(again.to_move) == r.legal_actions(r.to_move)
        True
        """
        if view.phase is not Phase.PLAY:
            raise PagodaError(f"a position is built from a view in play, not in {view.phase}")
        if len(hands) != 4:
            raise PagodaError(f"a position has 4 hands, not {len(hands)}")
        masks = [to_mask(h) for h in hands]
        if masks[view.seat] != view.hand:
            raise PagodaError(f"hand {view.seat} is not the view's own hand")
        seen = view.played
        for seat, mask in enumerate(masks):
            if mask.bit_count() != view.hand_sizes[seat]:
                raise PagodaError(
                    f"hand {seat} has {mask.bit_count()} cards; the view says {view.hand_sizes[seat]}"
                )
            if mask & seen:
                raise PagodaError(f"hand {seat} holds {format_cards(mask & seen)}, already played or held")
            seen |= mask
        if seen != FULL_DECK:
            raise PagodaError(f"the hands leave out {format_cards(FULL_DECK & ~seen)}")
        grand, tichu = _bits(view.grand_calls), _bits(view.tichu_calls)
        seated = _bits(tuple(mask != 0 for mask in masks))
        complete = False
        if view.top is not None:
            others = seated & ~(1 << view.top_seat)
            complete = _bits(view.passed) & others == others
        hands = (masks[0], masks[1], masks[2], masks[3])
        return cls(
            rules=view.rules,
            phase=Phase.PLAY,
            to_move=view.to_move,
            setup=Setup((), None, Phase.PLAY, 0b1111, (None, None, None, None), grand, tichu),
            hands=hands,
            seated=seated,
            bomb_seats=_bomb_seats(hands),
            quiet=grand | tichu | _bits(tuple(size < 14 for size in view.hand_sizes)),
            taken=view.won,
            trick_cards=sum(c.mask for _, c in view.trick),
            top=view.top,
            top_seat=view.top_seat,
            trick=view.trick,
            passed=_bits(view.passed),
            complete=complete,
            wish=view.wish,
            out=view.out,
            closing=len(view.out) == 3,
            window=view.window,
            history=None,
            memo=[],
        )

    def __reduce__(self) -> tuple[object, ...]:
        # A pickled round lists its legal actions again when asked (the memo is not kept).
        return (Round._make, ((*self[:_MEMO], []),))

    def _evolve(self, seat: int, action: Action, changes: dict[str, object]) -> "Round":
        """The round after ``seat`` did ``action``, with ``changes`` to its fields.

        The one way a transition makes its next round: the action joins the history.
        """
        changes["history"] = (self.history, seat, action)
        return self._changed(changes)

    def _changed(self, changes: dict[str, object]) -> "Round":
        """This round with ``changes`` to its fields, and a memo of its own."""
        fields: list[object] = list(self)
        for name, value in changes.items():
            fields[_FIELD_INDEX[name]] = value  # (a KeyError names a field a round lacks)
        fields[_MEMO] = []
        return Round._make(fields)

    # ----------------------------------------------------------------- queries

    @property
    def awaiting(self) -> tuple[int, ...]:
        """Every seat the round waits for: several in the simultaneous phases."""
        if self.phase is Phase.GRAND_TICHU:
            return tuple(s for s in range(4) if not self.setup.decided >> s & 1)
        if self.phase is Phase.EXCHANGE:
            return tuple(s for s in range(4) if self.setup.given[s] is None)
        if self.phase is Phase.PLAY:
            return (self.to_move,)
        return ()

    @property
    def is_over(self) -> bool:
        """True once the round is scored."""
        return self.phase is Phase.OVER

    def hand(self, seat: int) -> tuple[Card, ...]:
        """The cards ``seat`` holds now, in hand order."""
        return mask_cards(self.hands[seat])

    def hand_mask(self, seat: int) -> int:
        """The cards ``seat`` holds now, as a mask."""
        return self.hands[seat]

    @property
    def seed(self) -> int | None:
        """The shuffle's seed, if the deal came from one."""
        return self.setup.seed

    @property
    def grand_calls(self) -> tuple[int, ...]:
        """The seats that called Grand Tichu."""
        return tuple(s for s in range(4) if self.setup.grand >> s & 1)

    @property
    def tichu_calls(self) -> tuple[int, ...]:
        """The seats that called (small) Tichu."""
        return tuple(s for s in range(4) if self.setup.tichu >> s & 1)

    def won(self, seat: int) -> int:
        """The cards in the tricks ``seat`` has taken (or been given), as a mask."""
        return self.taken[seat]

    @property
    def is_trick_complete(self) -> bool:
        """Has every other seat still in passed on the last play (so it waits to be taken)?"""
        return self.closing or self.complete

    def _may_call_grand(self, seat: int) -> bool:
        return not (self.rules.one_call_per_team and self.setup.grand >> ((seat + 2) & 3) & 1)

    def _may_call_tichu(self, seat: int) -> bool:
        if self.quiet >> seat & 1:
            return False  # the usual case once play is under way
        if self.phase is Phase.EXCHANGE:
            if self.rules.small_tichu_after_exchange_only:
                return False
        elif self.phase is not Phase.PLAY:
            return False
        if self.closing:
            return False
        called = self.setup.grand | self.setup.tichu
        return not (self.rules.one_call_per_team and called >> ((seat + 2) & 3) & 1)

    # ----------------------------------------------------------------- legal actions

    def decisions(self) -> tuple[Decision[Action], ...]:
        """The seats asked now and what each may do, in the order a sequential driver asks.

        In the Grand Tichu and the exchange: every seat awaited, in seat order
        (``"simultaneous"``). In play: each seat of :attr:`window` in its order (``"bomb"``: its
        bombs, ``no-bomb`` and ``tichu`` while allowed), then the seat to move (``"turn"``)
        unless the trick is complete and the window still open. Nothing once the round is over.
        """
        phase = self.phase
        if phase is Phase.PLAY:
            window = self.window
            if not window:  # the usual case: only the seat to move is asked
                seat = self.to_move
                return (Decision(seat, "turn", self._listed(seat)),)
            asked = tuple(Decision(s, "bomb", self.legal_actions(s)) for s in window)
            if self.complete:
                return asked
            return (*asked, Decision(self.to_move, "turn", self.legal_actions(self.to_move)))
        if phase is Phase.OVER:
            return ()
        return tuple(Decision(s, "simultaneous", self.legal_actions(s)) for s in self.awaiting)

    def legal_actions(self, seat: int) -> Sequence[Action]:
        """Everything ``seat`` may do now (an immutable sequence).

        The seat to move: its plays and ``pass`` (or ``take``/``give-dragon`` once the trick is
        complete and the bomb window empty), and ``tichu`` while allowed. Any other seat: the
        bombs that beat the live trick, ``no-bomb`` while it is in the :attr:`window`, and
        ``tichu`` while allowed. In the exchange, the 2,184 exchanges come as a list generated
        on demand.
        """
        if self.phase is Phase.PLAY:
            if seat != self.to_move:
                if not 0 <= seat < 4:
                    raise PagodaError(f"seat {seat} is not a seat: 0-3")
                return self._out_of_turn_actions(seat)
            return self._listed(seat)
        if not 0 <= seat < 4:
            raise PagodaError(f"seat {seat} is not a seat: 0-3")
        phase = self.phase
        if phase is Phase.GRAND_TICHU:
            if self.setup.decided >> seat & 1:
                return ()
            return (_ACTION_GRAND, _ACTION_NO_GRAND) if self._may_call_grand(seat) else (_ACTION_NO_GRAND,)
        if phase is Phase.EXCHANGE:
            tichu = (_ACTION_TICHU,) if self._may_call_tichu(seat) else ()
            if self.setup.given[seat] is not None:
                return tichu
            return ExchangeChoices(self.hands[seat], first=tichu)
        return ()

    def _listed(self, seat: int) -> Sequence[Action]:
        """The legal actions of the seat to move in play, listed once (the round's memo)."""
        memo = self.memo
        if not memo:
            memo.append(self._turn_actions(seat))
        return memo[0]

    def _turn_actions(self, seat: int) -> Sequence[Action]:
        """The legal actions of the seat to move in play."""
        top = self.top
        if not (self.quiet >> seat & 1) or self.closing or (self.complete and self.window):
            return self._other_turn_actions(seat)
        # The usual cases: the seat to move may no longer call Tichu, and leads or answers a play.
        hand = self.hands[seat]
        bomb = self.bomb_seats >> seat & 1
        wished = self.wish and hand & RANK_MASKS[self.wish]
        if top is None:
            if wished or self.rules.phoenix_choice:
                return self._other_turn_actions(seat)
            wishes = _WISHES if self.rules.wish_required else _WISH_OR_NONE
            return LeadList(lead_plays(hand, wishes), ())
        if self.complete:
            out = _dragon_gifts(seat) if top.mask == DRAGON_BIT else [_ACTION_TAKE]
            if bomb:
                _add_bombs(out, hand, top)
            return tuple(out)
        if top.kind == SINGLE and not wished:
            out = []
            rank = top.rank
            cards = hand & _BEATS_SINGLE[int(rank)]
            naturals = cards & _NATURALS
            while naturals:
                low = naturals & -naturals
                out.append(SINGLE_PLAYS[low.bit_length() - 1])
                naturals ^= low
            if cards & PHOENIX_BIT:
                out.append(_PHOENIX_ON[rank])
            if cards & DRAGON_BIT:
                out.append(SINGLE_PLAYS[DRAGON])
            if bomb:
                _add_bombs(out, hand, top)
            out.append(_ACTION_PASS)
            return tuple(out)
        if wished or self.rules.phoenix_choice:
            return self._other_turn_actions(seat)
        # Another kind: most often nothing beats it, and then there is only pass. (The Mah Jong
        # is in none of the plays: a straight that beats one is higher from its lowest card on.)
        raw = raw_plays(hand, top, bombs=bomb == 1)
        if len(raw) > _EAGER_PLAYS:
            return PlayList(raw, (_ACTION_PASS,))
        return (*(Action(PLAY, c[2], 0, 0, None, -1, Combo(*c)) for c in raw), _ACTION_PASS)

    def _out_of_turn_actions(self, seat: int) -> tuple[Action, ...]:
        """The bombs ``seat`` may play on the table out of turn, ``no-bomb``, ``tichu``."""
        out: list[Action] = []
        if self.closing:
            return ()
        top = self.top
        if self.bomb_seats >> seat & 1 and top is not None and top.kind != DOG_KIND:
            _add_bombs(out, self.hands[seat], top)
        if seat in self.window:
            out.append(_ACTION_NO_BOMB)
        if self._may_call_tichu(seat):
            out.append(_ACTION_TICHU)
        return tuple(out)

    def _other_turn_actions(self, seat: int) -> Sequence[Action]:
        """The seat to move's legal actions in the cases :meth:`_turn_actions` does not list."""
        hand = self.hands[seat]
        top = self.top
        if self.closing:
            return tuple(_dragon_gifts(seat))
        tichu = [_ACTION_TICHU] if self._may_call_tichu(seat) else []
        if top is not None and self.complete:
            out: list[Action] = []
            if not self.window:
                out = _dragon_gifts(seat) if top.mask == DRAGON_BIT else [_ACTION_TAKE]
            if has_bomb(hand):
                _add_bombs(out, hand, top)
            if seat in self.window:
                out.append(_ACTION_NO_BOMB)
            return (*out, *tichu)
        choice = self.rules.phoenix_choice
        wished = RANK_MASKS[self.wish] if self.wish else 0
        if top is None and not choice and not hand & wished:
            # Each straight is made when read; the Mah Jong's plays once per wish (and
            # without one, if allowed).
            wishes = _WISHES if self.rules.wish_required else _WISH_OR_NONE
            return LeadList(lead_plays(hand, wishes), tichu)
        raw = raw_plays(hand, top, choice, bombs=bool(self.bomb_seats >> seat & 1))
        forced = False
        if self.wish:
            wished = RANK_MASKS[self.wish]
            if hand & wished:
                must = [c for c in raw if c[2] & wished]
                if must:
                    raw, forced = must, True
        if top is not None and not forced:
            tichu.insert(0, _ACTION_PASS)
        if not choice:
            if not hand & MAH_JONG_BIT:
                return PlayList(raw, tichu)
            # A play of the Mah Jong is listed once per wish (and without one, if allowed).
            wishes = _WISHES if self.rules.wish_required else _WISH_OR_NONE
            return PlayList(with_wishes(raw, wishes), tichu)
        out = []
        self._add_plays(out, [Combo(*c) for c in raw])
        return (*out, *tichu)

    def _add_plays(self, out: list[Action], combos: list[Combo]) -> None:
        choice = self.rules.phoenix_choice
        no_wish = not self.rules.wish_required
        if not choice:
            append = out.append
            for c in combos:
                mask = c.mask
                if mask & MAH_JONG_BIT:
                    if no_wish:
                        append(Action(PLAY, mask, 0, 0, None, -1, c))
                    out.extend(Action(PLAY, mask, w, 0, None, -1, c) for w in _WISHES)
                else:
                    append(Action(PLAY, mask, 0, 0, None, -1, c))
            return
        for c in combos:
            reading = c.phoenix if choice and c.phoenix and len(readings(c.mask)) > 1 else 0
            if c.mask & MAH_JONG_BIT:
                if no_wish:
                    out.append(Action(PLAY, c.mask, 0, reading, combo=c))
                out.extend(Action(PLAY, c.mask, w, reading, combo=c) for w in _WISHES)
            else:
                out.append(Action(PLAY, c.mask, 0, reading, combo=c))

    def is_legal(self, seat: int, action: Action | str) -> bool:
        """Would :meth:`apply` accept ``action`` from ``seat``?"""
        try:
            self.apply(seat, action)
        except PagodaError:
            return False
        return True

    # ----------------------------------------------------------------- transitions

    def apply(self, seat: int, action: Action | str) -> "Round":
        """The round after ``seat`` does ``action`` (text or :class:`Action`).

        An illegal action raises :class:`~pagoda.core.IllegalAction` saying why; this round
        is unchanged either way.
        """
        memo = self.memo
        if memo and seat == self.to_move and type(seat) is int and isinstance(action, Action):
            # One of the (immutable) actions this round itself listed for the seat to move is
            # applied without checking it again; any other object is checked.
            listed = memo[0]
            found = False
            if type(listed) is tuple:
                for listed_action in listed:
                    if listed_action is action:
                        found = True
                        break
            elif isinstance(listed, PlayList):
                found = listed.made(action)
            if found:
                kind = action.kind
                if kind == PLAY:
                    return self._play(seat, action, action.combo)  # type: ignore[arg-type]
                if kind == PASS:
                    return self._pass(seat, action)
                if kind == TAKE:
                    return self._take(seat, seat, action)
                if kind == GIVE_DRAGON:
                    return self._take(seat, action.target, action)
                if kind == NO_BOMB:
                    return self._no_bomb(seat, action)
                return self._called_tichu(seat, action)
        if type(seat) is not int or not 0 <= seat < 4:  # (0.0 and False equal seat 0, but are no seat)
            raise IllegalAction(f"seat {seat!r} is not a seat: 0-3", "not_a_seat")
        act = as_action(action)  # bad syntax raises ParseError, not IllegalAction
        phase = self.phase
        if phase is Phase.OVER:
            raise IllegalAction("the round is over", "round_over")
        kind = act.kind
        if kind == TICHU:
            if not self._may_call_tichu(seat):
                raise self._why_no_tichu(seat)
            return self._called_tichu(seat, act)
        if phase is Phase.GRAND_TICHU:
            return self._apply_grand(seat, act)
        if phase is Phase.EXCHANGE:
            return self._apply_exchange(seat, act)
        if kind == PLAY:
            return self._apply_play(seat, act)
        if kind == PASS:
            return self._apply_pass(seat, act)
        if kind == NO_BOMB:
            return self._apply_no_bomb(seat, act)
        if kind in (TAKE, GIVE_DRAGON):
            return self._apply_take(seat, act)
        raise IllegalAction(
            f"{kind!r} is not an action of the {phase} phase", "wrong_phase", action=kind, phase=phase.value
        )

    def _apply_no_bomb(self, seat: int, act: Action) -> "Round":
        if seat not in self.window:
            top = self.top
            if top is None or self.closing:
                raise IllegalAction(
                    "no-bomb answers the bomb window, and there is no live trick to bomb", "no_trick_to_bomb"
                )
            if seat == self.to_move and not self.complete:
                raise IllegalAction(
                    f"seat {seat} is to move: its bombs are among its plays, or it passes",
                    "to_move_not_asked",
                    seat=seat,
                )
            raise IllegalAction(
                f"seat {seat} is not in the bomb window: it holds no bomb that beats {top}, or has answered",
                "not_in_window",
                seat=seat,
                top=str(top),
            )
        return self._no_bomb(seat, act)

    def _no_bomb(self, seat: int, act: Action) -> "Round":
        return self._evolve(seat, act, {"window": tuple(s for s in self.window if s != seat)})

    def _called_tichu(self, seat: int, act: Action) -> "Round":
        setup = self.setup
        return self._evolve(
            seat,
            act,
            {"setup": setup._replace(tichu=setup.tichu | 1 << seat), "quiet": self.quiet | 1 << seat},
        )

    def _why_no_tichu(self, seat: int) -> IllegalAction:
        if self.phase is Phase.GRAND_TICHU:
            return IllegalAction("Tichu is called once all 14 cards are dealt", "tichu_before_deal")
        if self.phase is Phase.EXCHANGE and self.rules.small_tichu_after_exchange_only:
            return IllegalAction("these rules allow Tichu only after the exchange", "tichu_after_exchange")
        if self.setup.grand >> seat & 1:
            return IllegalAction(
                f"seat {seat} called Grand Tichu and cannot also call Tichu", "tichu_after_grand", seat=seat
            )
        if self.setup.tichu >> seat & 1:
            return IllegalAction(f"seat {seat} has already called Tichu", "tichu_called", seat=seat)
        if self.quiet >> seat & 1:
            return IllegalAction(
                f"seat {seat} has played a card: Tichu is called before the first play",
                "tichu_after_play",
                seat=seat,
            )
        return IllegalAction(
            f"seat {seat}'s partner has called: these rules allow one call per team",
            "one_call_per_team",
            seat=seat,
        )

    def _apply_grand(self, seat: int, act: Action) -> "Round":
        if act.kind not in (GRAND, NO_GRAND):
            raise IllegalAction(
                f"every seat first decides grand or no-grand, not {act}", "grand_first", action=str(act)
            )
        setup = self.setup
        if setup.decided >> seat & 1:
            raise IllegalAction(f"seat {seat} has already decided on Grand Tichu", "grand_decided", seat=seat)
        if act.kind == GRAND and not self._may_call_grand(seat):
            raise IllegalAction(
                f"seat {seat}'s partner has called: these rules allow one call per team",
                "one_call_per_team",
                seat=seat,
            )
        decided = setup.decided | 1 << seat
        called = 1 << seat if act.kind == GRAND else 0
        setup = setup._replace(decided=decided, grand=setup.grand | called)
        quiet = self.quiet | called
        if decided == 0b1111:  # the other 6 cards are dealt
            hands = tuple(_dealt_mask(hand) for hand in setup.deal)
            return self._evolve(
                seat,
                act,
                {"setup": setup, "quiet": quiet, "hands": hands, "phase": Phase.EXCHANGE, "to_move": 0},
            )
        return self._evolve(seat, act, {"setup": setup, "quiet": quiet, "to_move": _LOWEST_UNSET[decided]})

    def _apply_exchange(self, seat: int, act: Action) -> "Round":
        if act.kind != EXCHANGE or act.gifts is None:
            raise IllegalAction(
                f"in the exchange each seat gives three cards, not {act}", "exchange_first", action=str(act)
            )
        setup = self.setup
        if setup.given[seat] is not None:
            raise IllegalAction(f"seat {seat} has already given its cards", "exchange_given", seat=seat)
        gifts = act.gifts
        if len(gifts) == 3 and type(gifts[0]) is Card and type(gifts[1]) is Card and type(gifts[2]) is Card:
            mask = _CARD_BITS[gifts[0]] | _CARD_BITS[gifts[1]] | _CARD_BITS[gifts[2]]
        else:
            mask = to_mask(gifts)
        if mask.bit_count() != 3:
            raise IllegalAction("the three cards given must be different", "exchange_different")
        if mask & ~self.hands[seat]:
            raise IllegalAction(
                f"seat {seat} does not hold {format_cards(mask & ~self.hands[seat])}",
                "not_held",
                seat=seat,
                cards=format_cards(mask & ~self.hands[seat]),
            )
        given = list(setup.given)
        given[seat] = gifts
        hands = list(self.hands)
        hands[seat] &= ~mask
        if None in given:
            return self._evolve(
                seat,
                act,
                {
                    "setup": setup._replace(given=tuple(given)),
                    "hands": tuple(hands),
                    "to_move": given.index(None),
                },
            )
        # Each seat receives the first card of the seat before it (which gives to the next
        # seat first), the second of its partner and the third of the seat after it.
        g: list[tuple[Card, Card, Card]] = given  # type: ignore[assignment]
        bit = _CARD_BITS
        for s in range(4):
            hands[s] |= bit[g[(s + 3) & 3][0]] | bit[g[(s + 2) & 3][1]] | bit[g[(s + 1) & 3][2]]
        return self._evolve(
            seat,
            act,
            {
                "setup": setup._replace(given=tuple(given)),
                "hands": tuple(hands),
                "bomb_seats": _bomb_seats((hands[0], hands[1], hands[2], hands[3])),
                "phase": Phase.PLAY,
                "to_move": _mah_jong_holder(hands),
            },
        )

    def _resolve_play(self, seat: int, act: Action) -> Combo:
        """The combination ``act`` plays, read against the table."""
        mask = act.mask
        hand = self.hands[seat]
        if mask & ~hand:
            raise IllegalAction(
                f"seat {seat} does not hold {format_cards(mask & ~hand)}",
                "not_held",
                seat=seat,
                cards=format_cards(mask & ~hand),
            )
        found = readings(mask, self.top)
        if not found:
            raise IllegalAction(
                f"{format_cards(mask)} is not a combination", "not_a_combination", cards=format_cards(mask)
            )
        if act.reading:
            named = [c for c in found if c.phoenix == act.reading]
            if not named:
                options = " or ".join(format_rank(c.phoenix) for c in found if c.phoenix) or "nothing"
                raise IllegalAction(
                    f"the Phoenix in {format_cards(mask)} can stand for {options}",
                    "phoenix_cannot",
                    cards=format_cards(mask),
                    options=options,
                )
            if not self.rules.phoenix_choice and named[0] is not found[0]:
                raise IllegalAction(
                    "these rules read the Phoenix as the highest rank it can stand for", "phoenix_highest"
                )
            return named[0]
        if self.rules.phoenix_choice and len(found) > 1:
            beating = [c for c in found if beats(c, self.top)]
            if len(beating) == 1:
                return beating[0]  # only one reading may be played here: no need to name it
            options = " or ".join(format_rank(c.phoenix) for c in found)
            raise IllegalAction(
                f"name the Phoenix's rank in {format_cards(mask)}: 'as' {options}",
                "phoenix_name",
                cards=format_cards(mask),
                options=options,
            )
        return found[0]

    def _apply_play(self, seat: int, act: Action) -> "Round":
        if self.closing:
            raise IllegalAction(
                f"the round is over but for the Dragon trick: seat {self.to_move} gives it away",
                "dragon_gift_pending",
                seat=self.to_move,
            )
        combo = self._resolve_play(seat, act)
        top = self.top
        in_turn = seat == self.to_move and not self.is_trick_complete
        if combo.is_bomb and not in_turn:
            if top is None:
                raise IllegalAction(
                    "a bomb is played out of turn only on a live trick, never on an empty table",
                    "bomb_on_empty",
                )
            if top.kind == DOG_KIND:
                raise IllegalAction("nothing may be played on the Dog", "on_the_dog")
            if not beats(combo, top):
                raise IllegalAction(
                    f"{combo} does not beat {top}", "does_not_beat", play=str(combo), top=str(top)
                )
        else:
            if not in_turn:
                if seat == self.to_move:
                    raise IllegalAction(
                        "the trick is complete: take it (only a bomb may still be played)", "trick_complete"
                    )
                raise IllegalAction(
                    f"it is seat {self.to_move}'s turn; out of turn only a bomb may be played",
                    "out_of_turn",
                    seat=self.to_move,
                )
            if not beats(combo, top):
                assert top is not None
                raise IllegalAction(
                    f"{combo} does not beat {top}", "does_not_beat", play=str(combo), top=str(top)
                )
            if self.wish and not combo.mask & RANK_MASKS[self.wish]:
                self._check_wish(seat)
        if act.wish and not combo.mask & MAH_JONG_BIT:
            raise IllegalAction("a wish is made only with the Mah Jong", "wish_without_mah_jong")
        if combo.mask & MAH_JONG_BIT and not act.wish and self.rules.wish_required:
            raise IllegalAction("these rules require a wish with the Mah Jong", "wish_required")
        return self._play(seat, act, combo)

    def _play(self, seat: int, act: Action, combo: Combo) -> "Round":
        mask = combo.mask
        left = self.hands[seat] ^ mask  # the cards are in the hand: checked, or listed from it
        hands = _replaced(self.hands, seat, left)
        seated = self.seated if left else self.seated & ~(1 << seat)
        bombs = self.bomb_seats
        if bombs >> seat & 1 and not has_bomb(left):
            bombs &= ~(1 << seat)
        wish = self.wish
        if wish and mask & RANK_MASKS[wish]:
            wish = 0
        if act.wish:
            wish = act.wish  # set after the play: its own cards never fulfil it
        out = self.out if left else (*self.out, seat)
        if combo.kind == DOG_KIND:
            r = self._evolve(
                seat,
                act,
                {
                    "hands": hands,
                    "seated": seated,
                    "bomb_seats": bombs,
                    "quiet": self.quiet | 1 << seat,
                    "taken": _replaced(self.taken, seat, self.taken[seat] | DOG_BIT),
                    "wish": wish,
                    "out": out,
                    "window": (),
                    "to_move": _FIRST_IN[seated << 2 | (seat + 2) & 3],
                },
            )
            return r._ended() if not left else r
        to_move = _FIRST_IN[seated << 2 | (seat + 1) & 3]
        r = self._evolve(
            seat,
            act,
            {
                "window": _bomb_window(hands, bombs, combo, seat, to_move, False) if bombs else (),
                "hands": hands,
                "seated": seated,
                "bomb_seats": bombs,
                "quiet": self.quiet | 1 << seat,
                "trick_cards": self.trick_cards | mask,
                "top": combo,
                "top_seat": seat,
                "trick": (*self.trick, (seat, combo)),
                "passed": 0,
                "complete": False,
                "wish": wish,
                "out": out,
                "to_move": to_move,
            },
        )
        return r._ended() if not left else r  # the round can end only when a seat goes out

    def _check_wish(self, seat: int) -> None:
        wished = RANK_MASKS[self.wish]
        hand = self.hands[seat]
        if not hand & wished:
            return
        combos = raw_plays(hand, self.top, self.rules.phoenix_choice)
        if any(c[2] & wished for c in combos):
            example = format_cards(next(c[2] for c in combos if c[2] & wished))
            wish = format_rank(self.wish)
            raise IllegalAction(
                f"the wish for {wish} obliges seat {seat} to play one (e.g. play {example})",
                "wish_obliges",
                rank=self.wish,
                seat=seat,
                example=example,
            )

    def _ended(self) -> "Round":
        """This round after a seat went out: over if it is, closing if the Dragon trick waits."""
        out = self.out
        if len(out) >= 2 and (out[0] - out[1]) % 2 == 0:  # a one-two
            return self._changed({"phase": Phase.OVER, "to_move": -1, "window": ()})
        if len(out) < 3:
            return self
        top = self.top
        if top is not None and top.mask == DRAGON_BIT:
            return self._changed({"closing": True, "to_move": self.top_seat, "window": ()})
        taken = self.taken
        if self.top_seat >= 0:
            taken = _replaced(taken, self.top_seat, taken[self.top_seat] | self.trick_cards)
        return self._changed(
            {
                "phase": Phase.OVER,
                "to_move": -1,
                "window": (),
                "taken": taken,
                "trick_cards": 0,
                "top": None,
                "top_seat": -1,
                "trick": (),
            }
        )

    def _apply_pass(self, seat: int, act: Action) -> "Round":
        if self.closing:
            raise IllegalAction(
                f"the round is over but for the Dragon trick: seat {self.to_move} gives it away",
                "dragon_gift_pending",
                seat=self.to_move,
            )
        if seat != self.to_move:
            raise IllegalAction(
                f"it is seat {self.to_move}'s turn, not seat {seat}'s", "not_your_turn", seat=self.to_move
            )
        if self.top is None:
            raise IllegalAction("the leader may not pass", "leader_cannot_pass")
        if self.is_trick_complete:
            raise IllegalAction("the trick is complete: take it", "trick_complete")
        if self.wish:
            self._check_wish(seat)
        return self._pass(seat, act)

    def _pass(self, seat: int, act: Action) -> "Round":
        seated = self.seated
        passed = self.passed | 1 << seat
        if seated & ~(passed | 1 << self.top_seat):  # seats still in that may yet answer the top
            to_move = _FIRST_IN[seated << 2 | (seat + 1) & 3]
            # The window stays open, but for the seat whose turn it now is.
            window = self.window
            if to_move in window:
                window = tuple(s for s in window if s != to_move)
            return self._evolve(
                seat, act, {"passed": passed, "complete": False, "to_move": to_move, "window": window}
            )
        to_move = self.top_seat
        bombs = self.bomb_seats
        return self._evolve(
            seat,
            act,
            {
                "passed": passed,
                "complete": True,
                "to_move": to_move,
                "window": _bomb_window(self.hands, bombs, self.top, seat, to_move, True) if bombs else (),
            },
        )

    def _apply_take(self, seat: int, act: Action) -> "Round":
        top = self.top
        if seat != self.to_move or not self.is_trick_complete or top is None:
            if top is not None and seat == self.top_seat:
                raise IllegalAction(
                    "the trick is not complete: not every other seat still in has passed",
                    "trick_not_complete",
                )
            raise IllegalAction(f"seat {seat} has no trick to take", "no_trick_to_take", seat=seat)
        dragon = top.mask == DRAGON_BIT
        if act.kind == TAKE and dragon:
            raise IllegalAction(
                "a trick won with the Dragon is given to an opponent: give-dragon <seat>", "dragon_is_given"
            )
        if act.kind == GIVE_DRAGON:
            if not dragon:
                raise IllegalAction("only a trick won with the Dragon is given away", "not_a_dragon_trick")
            if (act.target - seat) % 2 == 0:
                raise IllegalAction(
                    f"the Dragon trick goes to an opponent: seat {(seat + 1) & 3} or {(seat + 3) & 3}",
                    "dragon_to_opponent",
                    left=(seat + 1) & 3,
                    right=(seat + 3) & 3,
                )
        if self.window:
            raise IllegalAction(
                f"the bomb window is open: {_seats(self.window)} may still bomb the trick"
                " (or answer no-bomb)",
                "bomb_window_open",
                seats="".join(map(str, self.window)),
            )
        return self._take(seat, act.target if act.kind == GIVE_DRAGON else seat, act)

    def _take(self, seat: int, taker: int, act: Action) -> "Round":
        return self._evolve(
            seat,
            act,
            {
                "taken": _replaced(self.taken, taker, self.taken[taker] | self.trick_cards),
                "trick_cards": 0,
                "top": None,
                "top_seat": -1,
                "trick": (),
                "passed": 0,
                "complete": False,
                "closing": False,
                "window": (),
                "phase": Phase.OVER if self.closing else self.phase,
                "to_move": -1 if self.closing else _FIRST_IN[self.seated << 2 | seat],
            },
        )

    # ----------------------------------------------------------------- position notation

    def position(self) -> str:
        """The state as one line of text (like chess's FEN); :meth:`from_position` reads it back.

        Fifteen fields, separated by spaces: the rules (spaces as commas), the phase, the four
        hands (``/`` between seats, ``-`` for none), the cards still to be dealt (in the Grand
        Tichu: 6 a seat, else ``-``), the seats that have decided on Grand Tichu, called Grand
        Tichu, called Tichu (each a set of seat digits, ``-`` for none), each seat's exchange
        (to next, partner, previous; ``-`` until given), the live trick (``seat:cards`` per
        play, ``=rank`` after a Phoenix standing for a rank, ``,`` between plays), the seats that
        passed on it, the bomb window (in order), the wish, the seats out (in order), each
        seat's won cards, and the seat to move (``-`` once over).

        >>> r = Round.from_hands(["Mj 2g 3g 4g 5g 6g 7g 8g 9g Tg Jg Qg Kg Ag",
        ...     "Dg 2k 3k 4k 5k 6k 7k 8k 9k Tk Jk Qk Kk Ak",
        ...     "Ph 2b 3b 4b 5b 6b 7b 8b 9b Tb Jb Qb Kb Ab",
        ...     "Dr 2r 3r 4r 5r 6r 7r 8r 9r Tr Jr Qr Kr Ar"]).apply(0, "play Mj wish 7")
        >>> fields = r.position().split()
        >>> fields[:2], fields[2].split("/")[0], fields[8:13], fields[14]
        (['standard', 'play'], '2g3g4g5g6g7g8g9gTgJgQgKgAg', ['0:Mj', '-', '230', '7', '-'], '1')
        >>> Round.from_position(r.position()) == r
        True
        >>> Round.from_position(r.position()).legal_actions(1) == r.legal_actions(1)
        True
        """
        setup = self.setup
        hands = self.hands
        undealt = "-"
        if self.phase is Phase.GRAND_TICHU:
            undealt = "/".join(_cards_text(to_mask(setup.deal[s]) & ~hands[s]) for s in range(4))
        fields = (
            str(self.rules).replace(" ", ","),
            self.phase.value,
            "/".join(_cards_text(h) for h in hands),
            undealt,
            _seat_set(setup.decided),
            _seat_set(setup.grand),
            _seat_set(setup.tichu),
            "/".join(_gift_text(g) for g in setup.given),
            _trick_text(self.trick),
            _seat_set(self.passed),
            "".join(map(str, self.window)) or "-",
            format_rank(self.wish) if self.wish else "-",
            "".join(map(str, self.out)) or "-",
            "/".join(_cards_text(w) for w in self.taken),
            str(self.to_move) if self.to_move >= 0 else "-",
        )
        return " ".join(fields)

    @classmethod
    def from_position(cls, text: str) -> "Round":
        """The round :meth:`position` wrote; :class:`~pagoda.core.ParseError` names a bad part.

        Its :attr:`record` starts from the position (a ``[Position "..."]`` header).
        """
        part, bad, rules = _read_fields(text, _POSITION_PARTS, "position")
        phase = next((p for p in Phase if p.value == part["phase"]), None)
        if phase is None:
            raise bad("phase", "one of " + ", ".join(p.value for p in Phase))
        hands = _four_masks(part, "hands", bad)
        if phase is Phase.GRAND_TICHU:
            undealt = _four_masks(part, "undealt", bad)
        elif part["undealt"] != "-":
            raise bad("undealt", "cards are still to be dealt only in the Grand Tichu")
        else:
            undealt = (0, 0, 0, 0)
        decided, grand, tichu, passed = (
            _parse_seat_set(part, name, bad) for name in ("decided", "grand", "tichu", "passed")
        )
        given = _parse_gifts(part, "given", bad)
        trick = _parse_trick(part, bad)
        top = trick[-1][1] if trick else None
        window = _parse_seats(part, "window", bad)
        wish = _parse_wish(part, bad)
        out = _parse_seats(part, "out", bad)
        won = _four_masks(part, "won", bad)
        to_move = _parse_to_move(part, bad)
        pending = 0
        if phase is Phase.EXCHANGE:
            pending = sum(to_mask(g) for g in given if g is not None)
        seen = 0
        trick_mask = sum(c.mask for _, c in trick)
        for name, masks in (("hands", hands), ("undealt", undealt), ("won", won), ("trick", (trick_mask,))):
            for mask in masks:
                if mask & seen:
                    raise bad(name, f"{format_cards(mask & seen)} is in two places")
                seen |= mask
        if seen & pending or (seen | pending) != FULL_DECK:
            missing = format_cards(FULL_DECK & ~seen & ~pending)
            raise ParseError(f"position: the cards do not add up to the deck (missing: {missing or 'none'})")
        start = Phase.PLAY if phase in (Phase.PLAY, Phase.OVER) and None in given else Phase.GRAND_TICHU
        deal: tuple[tuple[Card, ...], ...] = ()
        if phase is Phase.GRAND_TICHU:
            deal = tuple(mask_cards(hands[s]) + mask_cards(undealt[s]) for s in range(4))
        in_play = phase in (Phase.PLAY, Phase.OVER)
        seated = _bits(tuple(h != 0 for h in hands)) if in_play else 0b1111
        played = _bits(tuple(h.bit_count() < 14 for h in hands)) if in_play else 0
        top_seat = trick[-1][0] if trick else -1
        others = seated & ~(1 << top_seat) if trick else 0
        r = cls(
            rules=rules,
            phase=phase,
            to_move=to_move,
            setup=Setup(deal, None, start, decided, given, grand, tichu, text),
            hands=hands,
            seated=seated,
            bomb_seats=_bomb_seats(hands) if in_play else 0,
            quiet=grand | tichu | played,
            taken=won,
            trick_cards=trick_mask,
            top=top,
            top_seat=top_seat,
            trick=tuple(trick),
            passed=passed,
            complete=top is not None and passed & others == others,
            wish=wish,
            out=out,
            closing=phase is Phase.PLAY and len(out) == 3,
            window=window,
            history=None,
            memo=[],
        )
        again = r.position().split()
        for name, back in zip(_POSITION_PARTS, again, strict=True):
            word = part[name]
            if word != back:
                raise bad(name, f"not as this round writes it: {back!r}")
        if window and (top is None or (to_move in window and not r.complete)):
            raise bad("window", "only seats other than the one to move are asked, and only on a live trick")
        return r

    # ----------------------------------------------------------------- scoring

    def score(self) -> tuple[int, int]:
        """The points of this round for teams (0+2, 1+3): card points and Tichu bonuses.

        Raises :class:`~pagoda.core.PagodaError` before the round is over.
        """
        if self.phase is not Phase.OVER:
            raise PagodaError("the round is not over yet")
        points = [0, 0]
        out = self.out
        if (out[0] - out[1]) % 2 == 0:
            points[out[0] & 1] += 200
        else:
            points = list(self.card_points())
        for seat in range(4):
            bonus = 200 if self.setup.grand >> seat & 1 else 100 if self.setup.tichu >> seat & 1 else 0
            points[seat & 1] += bonus if out[0] == seat else -bonus
        return (points[0], points[1])

    def card_points(self) -> tuple[int, int]:
        """The card points each team ends with (before one-two and Tichu bonuses); 100 in all."""
        if self.phase is not Phase.OVER:
            raise PagodaError("the round is not over yet")
        piles = list(self.taken)
        last = next((s for s in range(4) if s not in self.out), -1)
        if last >= 0:
            opponent = (last + 1) & 3
            piles[opponent] |= self.hands[last]
            to = self.out[0] if self.rules.last_tricks_to == "first_out" else opponent
            piles[to] |= piles[last]
            piles[last] = 0
        else:  # a one-two: the rest of the cards do not count
            pass
        return (count_points(piles[0] | piles[2]), count_points(piles[1] | piles[3]))

    # ----------------------------------------------------------------- views and records

    def view(self, seat: int, events: bool = True) -> View:
        """What ``seat`` may know: its hand, its own exchange, and everything public.

        ``events=False`` leaves out the public log of actions (``View.events`` is then empty),
        which simulated players in a search do not need.
        """
        if not 0 <= seat < 4:
            raise PagodaError(f"seat {seat} is not a seat: 0-3")
        received: tuple[Card, Card, Card] | None = None
        setup = self.setup
        if self.phase in (Phase.PLAY, Phase.OVER) and setup.start is Phase.GRAND_TICHU:
            g = [setup.given[(seat + k) & 3] for k in (3, 2, 1)]
            if g[0] and g[1] and g[2]:
                received = (g[0][0], g[1][1], g[2][2])
        played = 0
        for s in range(4):
            played |= self.taken[s]
        played |= self.trick_cards
        log = tuple(self._public_events(seat)) if events else ()
        h = self.hands
        return View(
            seat=seat,
            phase=self.phase,
            rules=self.rules,
            hand=h[seat],
            hand_sizes=(h[0].bit_count(), h[1].bit_count(), h[2].bit_count(), h[3].bit_count()),
            grand_decided=_bools(setup.decided),
            grand_calls=_bools(setup.grand),
            tichu_calls=_bools(setup.tichu),
            given=setup.given[seat],
            received=received,
            to_move=self.to_move,
            top=self.top,
            top_seat=self.top_seat,
            trick=self.trick,
            passed=_bools(self.passed),
            is_trick_complete=self.is_trick_complete,
            wish=self.wish,
            out=self.out,
            won=self.taken,
            played=played,
            events=log,
            window=(seat,) if seat in self.window else (),
        )

    def _public_events(self, seat: int) -> list[tuple[int, str]]:
        # Another seat's exchange shows as "exchange"; its no-bomb not at all (it tells a bomb).
        return [
            (s, "exchange" if a.kind == EXCHANGE and s != seat else str(a))
            for s, a in self.actions
            if a.kind != NO_BOMB or s == seat
        ]

    @property
    def actions(self) -> list[tuple[int, Action]]:
        """Every action so far, in order, as ``(seat, action)``."""
        out: list[tuple[int, Action]] = []
        node = self.history
        while node is not None:
            node, seat, act = node
            out.append((seat, act))
        out.reverse()
        return out

    @property
    def record(self) -> Record:
        """The game record: rules, deal and actions; :func:`replay` turns it back into this round."""
        headers = [("Game", "tichu"), ("Rules", str(self.rules))]
        setup = self.setup
        if setup.position is not None:
            headers.append(("Position", setup.position))
            return Record(tuple(headers), tuple((s, str(a)) for s, a in self.actions))
        if setup.seed is not None:
            headers.append(("Seed", str(setup.seed)))
        if not setup.deal:
            raise PagodaError("a position built from a view has no deal, so no record")
        headers.append(("Deal", " | ".join(format_cards(hand) for hand in setup.deal)))
        headers.append(("Start", "grand" if setup.start is Phase.GRAND_TICHU else "play"))
        return Record(tuple(headers), tuple((s, str(a)) for s, a in self.actions))

    def _key(self) -> tuple[object, ...]:
        # What the position notation holds: rounds are equal when their positions are.
        setup = self.setup
        undealt: tuple[int, ...] = ()
        if self.phase is Phase.GRAND_TICHU:
            undealt = tuple(to_mask(setup.deal[s]) & ~self.hands[s] for s in range(4))
        return (
            self.rules,
            self.phase,
            self.hands,
            undealt,
            setup.decided,
            setup.grand,
            setup.tichu,
            setup.given,
            self.trick,
            self.passed,
            self.window,
            self.wish,
            self.out,
            self.taken,
            self.to_move,
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Round):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return f"Round.from_position({self.position()!r})"


def _add_bombs(out: list[Action], hand: int, top: Combo | None) -> None:
    """Append the plays of the bombs in ``hand`` that beat ``top``."""
    for raw in raw_bombs(hand, top):
        out.append(Action(PLAY, raw[2], 0, 0, None, -1, Combo(*raw)))


def _dealt_mask(cards: tuple[Card, ...]) -> int:
    """The mask of cards of a deal, already checked (no need for :func:`to_mask`'s checks)."""
    return sum(map(_CARD_BITS.__getitem__, cards))


def _mah_jong_holder(hands: Sequence[int]) -> int:
    """The seat whose hand holds the Mah Jong: it leads the first trick."""
    return next(seat for seat in range(4) if hands[seat] & MAH_JONG_BIT)


def _bomb_seats(hands: tuple[int, int, int, int]) -> int:
    """The seats whose hand holds a bomb, as a bit mask."""
    return sum(1 << seat for seat in range(4) if has_bomb(hands[seat]))


#: The fields of a :class:`Round`.
_FIELD_INDEX = {name: i for i, name in enumerate(Round._fields)}
_MEMO = _FIELD_INDEX["memo"]


def _replaced(four: tuple[int, int, int, int], seat: int, value: int) -> tuple[int, int, int, int]:
    """``four`` (one entry a seat) with ``seat``'s entry replaced by ``value``."""
    if seat == 0:
        return (value, four[1], four[2], four[3])
    if seat == 1:
        return (four[0], value, four[2], four[3])
    if seat == 2:
        return (four[0], four[1], value, four[3])
    return (four[0], four[1], four[2], value)


def _bomb_window(
    hands: tuple[int, int, int, int], bombs: int, top: Combo | None, after: int, to_move: int, complete: bool
) -> tuple[int, ...]:
    """The bomb window on ``top`` (see :attr:`Round.window`) once ``after`` has acted.

    ``bombs``: the seats whose hand holds a bomb; ``complete``: every other seat still in has
    passed on ``top``, which ``to_move`` (its winner then) may take.
    """
    if top is None:
        return ()
    seats = []
    for k in (1, 2, 3, 4):
        s = (after + k) & 3
        if bombs >> s & 1 and (complete or s != to_move) and raw_bombs(hands[s], top):
            seats.append(s)
    return tuple(seats)


def _dragon_gifts(seat: int) -> list[Action]:
    """Giving the Dragon trick to either opponent."""
    return [Action(GIVE_DRAGON, target=(seat + 1) & 3), Action(GIVE_DRAGON, target=(seat + 3) & 3)]


def _read_fields(
    text: str, names: tuple[str, ...], what: str
) -> tuple[dict[str, str], Callable[[str, str], ParseError], Rules]:
    """The named fields of a position's or a view's text, the error maker naming a bad one, and
    the rules (the first field); :class:`~pagoda.core.ParseError` if the fields do not fit."""
    if not isinstance(text, str):
        raise ParseError(f"a {what} is text, not {type(text).__name__}")
    words = text.split()
    if len(words) != len(names):
        raise ParseError(f"a {what} has {len(names)} fields, not {len(words)}: {text!r}")
    part = dict(zip(names, words, strict=True))

    def bad(name: str, why: str) -> ParseError:
        return ParseError(f"{what} {name} {part[name]!r}: {why}")

    try:
        rules = Rules.parse(part["rules"].replace(",", " "))
    except ParseError as e:
        raise bad("rules", str(e)) from None
    return part, bad, rules


_POSITION_PARTS = (
    "rules",
    "phase",
    "hands",
    "undealt",
    "decided",
    "grand",
    "tichu",
    "given",
    "trick",
    "passed",
    "window",
    "wish",
    "out",
    "won",
    "to_move",
)


_VIEW_PARTS = (
    "rules",
    "seat",
    "phase",
    "hand",
    "hand_sizes",
    "decided",
    "grand",
    "tichu",
    "given",
    "received",
    "trick",
    "passed",
    "window",
    "wish",
    "out",
    "won",
    "to_move",
    "events",
)


def _cards_text(mask: int) -> str:
    """Cards without spaces (``-`` for none), as a position writes them."""
    return "".join(str(c) for c in mask_cards(mask)) or "-"


def _seat_set(mask: int) -> str:
    """A set of seats as its digits (``-`` for none)."""
    return "".join(str(s) for s in range(4) if mask >> s & 1) or "-"


def _parse_seats(part: dict[str, str], name: str, bad: Callable[[str, str], ParseError]) -> tuple[int, ...]:
    """Seats in order, each once (``-``: none)."""
    word = part[name]
    if word == "-":
        return ()
    if any(ch not in "0123" for ch in word) or len(set(word)) != len(word):
        raise bad(name, "seat digits 0-3, each once, or -")
    return tuple(int(ch) for ch in word)


def _parse_seat_set(part: dict[str, str], name: str, bad: Callable[[str, str], ParseError]) -> int:
    """A set of seats written in increasing order, as a mask."""
    seats = _parse_seats(part, name, bad)
    if list(seats) != sorted(seats):
        raise bad(name, "seat digits in increasing order")
    return sum(1 << s for s in seats)


def _four_masks(
    part: dict[str, str], name: str, bad: Callable[[str, str], ParseError]
) -> tuple[int, int, int, int]:
    """Four card sets between ``/``, one a seat (``-`` for none)."""
    words = part[name].split("/")
    if len(words) != 4:
        raise bad(name, "four card lists, one a seat, between /")
    try:
        masks = [0 if w == "-" else to_mask(w) for w in words]
    except ParseError as e:
        raise bad(name, str(e)) from None
    return (masks[0], masks[1], masks[2], masks[3])


def _gift_text(gifts: tuple[Card, Card, Card] | None) -> str:
    return "-" if gifts is None else "".join(map(str, gifts))


def _trick_text(trick: tuple[tuple[int, Combo], ...]) -> str:
    """The plays of a trick: ``seat:cards``, ``=rank`` after a Phoenix standing for a rank."""
    plays = []
    for seat, combo in trick:
        text = f"{seat}:{_cards_text(combo.mask)}"
        if combo.phoenix:
            text += f"={format_rank(combo.phoenix)}"
        plays.append(text)
    return ",".join(plays) or "-"


def _parse_gifts(
    part: dict[str, str], name: str, bad: Callable[[str, str], ParseError]
) -> tuple[tuple[Card, Card, Card] | None, ...]:
    """Four exchanges between ``/`` (``-``: not given, or not known)."""
    words = part[name].split("/")
    if len(words) != 4:
        raise bad(name, "four exchanges, one a seat, between /")
    return tuple(_parse_gift(part, name, word, bad) for word in words)


def _parse_gift(
    part: dict[str, str], name: str, word: str, bad: Callable[[str, str], ParseError]
) -> tuple[Card, Card, Card] | None:
    """Three cards of an exchange (to next, partner, previous), or ``-``."""
    if word == "-":
        return None
    try:
        cards = parse_cards(word)
    except ParseError as e:
        raise bad(name, str(e)) from None
    if len(cards) != 3:
        raise bad(name, "an exchange gives three cards")
    return (cards[0], cards[1], cards[2])


def _parse_trick(
    part: dict[str, str], bad: Callable[[str, str], ParseError]
) -> tuple[tuple[int, Combo], ...]:
    """The plays of a trick, each read against the one before it."""
    trick: list[tuple[int, Combo]] = []
    top: Combo | None = None
    if part["trick"] == "-":
        return ()
    for play in part["trick"].split(","):
        seat_text, _, rest = play.partition(":")
        cards_text, _, named = rest.partition("=")
        if seat_text not in ("0", "1", "2", "3") or not cards_text:
            raise bad("trick", f"{play!r} is not <seat>:<cards>[=<rank>]")
        try:
            mask = to_mask(cards_text)
            phoenix = parse_rank(named) if named else 0
        except ParseError as e:
            raise bad("trick", str(e)) from None
        found = [c for c in readings(mask, top) if c.phoenix == phoenix]
        if not found or not beats(found[0], top):
            raise bad("trick", f"{play!r} is no combination that beats the one before it")
        top = found[0]
        trick.append((int(seat_text), top))
    return tuple(trick)


def _parse_wish(part: dict[str, str], bad: Callable[[str, str], ParseError]) -> int:
    if part["wish"] == "-":
        return 0
    try:
        return parse_rank(part["wish"])
    except ParseError as e:
        raise bad("wish", str(e)) from None


def _parse_to_move(part: dict[str, str], bad: Callable[[str, str], ParseError]) -> int:
    word = part["to_move"]
    if word == "-":
        return -1
    if word not in ("0", "1", "2", "3"):
        raise bad("to_move", "a seat 0-3, or - once the round is over")
    return int(word)


def _seats(seats: tuple[int, ...]) -> str:
    """``seat 2`` or ``seats 0, 1 and 3``."""
    if len(seats) == 1:
        return f"seat {seats[0]}"
    return "seats " + ", ".join(str(s) for s in seats[:-1]) + f" and {seats[-1]}"


def _bits(flags: tuple[bool, ...]) -> int:
    """The seats whose flag is set, as a bit mask (the inverse of :func:`_bools`)."""
    return sum(1 << s for s, flag in enumerate(flags) if flag)


def _bools(mask: int) -> tuple[bool, bool, bool, bool]:
    return (bool(mask & 1), bool(mask & 2), bool(mask & 4), bool(mask & 8))


def replay(record: Record | str, rules: Rules | None = None) -> Round:
    """The round a record describes: its deal with every action applied in order.

    >>> r = Round.new(seed=1)
    >>> r = r.apply(0, "no-grand")
    >>> replay(str(r.record)) == r
    True
    """
    if isinstance(record, str):
        record = parse_record(record)
    game = record.get("Game", "tichu")
    if game != "tichu":
        raise ParseError(f"this is a record of {game!r}, not of tichu")
    if rules is None:
        rules = Rules.parse(record.header("Rules"))
    position = record.get("Position")
    if position is not None:
        r = Round.from_position(position)
        if rules is not None and rules != r.rules:
            raise ParseError(f"the position's rules {r.rules} are not {rules}")
        return _replay_actions(r, record)
    hands = [parse_cards(h) for h in record.header("Deal").split("|")]
    start = {"grand": Phase.GRAND_TICHU, "play": Phase.PLAY}.get(record.get("Start", "grand") or "grand")
    if start is None:
        raise ParseError(f"unknown Start {record.get('Start')!r}: grand or play")
    seed_text = record.get("Seed")
    seed = int(seed_text) if seed_text is not None else None
    return _replay_actions(Round.from_deal(hands, rules, seed=seed, start=start), record)


def _replay_actions(r: Round, record: Record) -> Round:
    """``r`` with the record's actions applied in order."""
    for number, (seat, text) in enumerate(record.actions, 1):
        try:
            r = r.apply(seat, text)
        except IllegalAction as e:
            raise e.again(f"action {number} ({seat} {text}): {e}") from None
        except ParseError as e:
            raise ParseError(f"action {number} ({seat} {text}): {e}") from None
    return r
