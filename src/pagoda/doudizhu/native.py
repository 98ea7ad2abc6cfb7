"""The native (Rust) Dou Di Zhu core behind the reference's API: :class:`NativeRound`.

A :class:`NativeRound` answers as :class:`pagoda.doudizhu.Round` does (the differential tests in
``tests/native/`` hold them equal at every step) and hands out the reference's own values:
``legal_actions`` gives the reference's :class:`~pagoda.doudizhu.actions.Action` objects, made once
per combination and shared, and ``view``, ``position``, ``record`` come from the reference round of
the same fields.

The native core plays the common steps itself (every action in the legal list, text or value).
Whatever it does not settle it leaves to the reference, from the same state, so the answer is the
reference's by construction: the deal (``new`` deals with the reference's ``random.Random``, so one
seed gives one deal in both engines), a redeal after an all-pass auction, the laizi wild draw, an
action outside the legal list (another reading of the same cards, accepted; or an illegal one,
refused with the reference's :class:`~pagoda.core.errors.IllegalAction` or
:class:`~pagoda.core.errors.ParseError` and its reason).

>>> from pagoda.doudizhu.native import NativeRound
>>> r = NativeRound.from_hands(["33", "4", "5"], landlord=0)
>>> [str(a) for a in r.legal_actions(0)]
['play 3', 'play 33']
>>> r = r.apply(0, "play 33")
>>> r.is_over, r.score()
(True, (4, -2, -2))
"""

import hashlib
import random
from functools import lru_cache
from typing import Any, Self

import numpy as np
import numpy.typing as npt

from pagoda import native
from pagoda.core.game import Decision
from pagoda.core.record import Record
from pagoda.doudizhu.actions import BID, CALL, PASS, PLAY, ROB, Action
from pagoda.doudizhu.cards import Cards
from pagoda.doudizhu.combos import KINDS, Combo
from pagoda.doudizhu.round import Phase, Round, Setup, View
from pagoda.doudizhu.rules import RULES, Rules

RULE_FIELDS = (
    *("players", "decks", "kitty", "rob", "max_bid", "chain_min", "pair_chain_min", "plane_min"),
    *("trio_solo", "plane_solo", "four_two_solo", "four_two_pair", "solo_kickers_same_rank"),
    *("pair_kickers_same_rank", "kicker_max_same", "kicker_own_rank", "kicker_rocket"),
    *("kickers_extend_plane", "bomb_head_chains", "bombs_beat_rocket", "max_bomb", "double_min_bomb"),
    *("wild", "wild_bomb_top", "bomb_limits"),
)
"""The fields of :class:`Rules` the native core reads, in the order it reads them."""

_PHASES = (Phase.AUCTION, Phase.PLAY, Phase.OVER)
_PHASE_CODE = {p: i for i, p in enumerate(_PHASES)}
_KIND_CODE = {k: i for i, k in enumerate(KINDS)}


def _module() -> Any:
    mod = native.module()
    if mod is None:
        raise RuntimeError("the native core is not built: run `make native` (needs a Rust toolchain)")
    return mod


def _make_play(kind: int, rank: int, length: int, mask: int, reading: int, order: int) -> Action:
    return Action(PLAY, 0, Combo(KINDS[kind], rank, length, mask, reading, order))


def _make_bid(bid: int) -> Action:
    return Action(BID, bid)


_registered = False


def _core_type() -> Any:
    """The native state class, with the reference's action makers registered once."""
    global _registered
    mod = _module()
    if not _registered:
        mod.ddz_register(_make_play, _make_bid, PASS, Action(CALL), Action(ROB))
        _registered = True
    return mod.DdzCore


@lru_cache(maxsize=64)
def rules_fields(rules: Rules) -> tuple[Any, ...]:
    """The rules as the native core reads them (:data:`RULE_FIELDS`)."""
    return tuple(getattr(rules, name) for name in RULE_FIELDS)


def combo_fields(combo: Combo) -> tuple[int, int, int, int, int, int]:
    """A combination as the native core reads it."""
    return (_KIND_CODE[combo.kind], combo.rank, combo.length, combo.mask, combo.reading, combo.order)


class NativeRound:
    """A Dou Di Zhu round on the native core: the same answers as :class:`~pagoda.doudizhu.Round`.

    Immutable: :meth:`apply` returns the next state. Attributes the reference round has and this
    class does not name (``hands``, ``kitty``, ``spring``, ``parse_action``, ...) are read from the
    reference round of the same state.
    """

    __slots__ = ("_core", "_ctx", "_ref_cache")
    _core: Any
    _ctx: tuple[Rules, int | None, tuple[Any, ...], str]
    _ref_cache: Round | None

    def __init__(self, reference: Round) -> None:
        """The native state of a reference round."""
        r = reference
        self._core = _core_type().from_fields(
            rules_fields(r.rules),
            _PHASE_CODE[r.phase],
            r.to_move,
            list(r.hands),
            r.kitty,
            None if r.top is None else combo_fields(r.top),
            r.top_seat,
            r.passes,
            r.doubles,
            list(r.play_counts),
            r.winner,
            r.landlord,
            r.bid,
            r.bidder,
            r.first,
            r.deal_no,
            r.wild,
            list(r.auction),
            list(r.bombs_left),
            list(r.history),
        )
        self._ctx = (r.rules, r.seed, r.deals, r.start)
        self._ref_cache = r

    def _next(self, core: Any) -> "NativeRound":
        nxt = object.__new__(NativeRound)
        nxt._core = core
        nxt._ctx = self._ctx
        nxt._ref_cache = None
        return nxt

    def reference(self) -> Round:
        """The reference round of this state (equal position, history and record)."""
        r = self._ref_cache
        if r is None:
            fields = self._core.fields()
            (phase, to_move, hands, kitty, top, top_seat, passes, doubles, counts, winner) = fields[:10]
            (landlord, bid, bidder, first, deal_no, wild, auction, bombs_left, history) = fields[10:]
            rules, seed, deals, start = self._ctx
            setup = Setup(
                rules, seed, deals, deal_no, first, kitty, landlord, bid, bidder, tuple(auction), wild, start
            )
            r = Round(
                setup=setup,
                phase=_PHASES[phase],
                to_move=to_move,
                hands=tuple(hands),
                top=None if top is None else top.combo,
                top_seat=top_seat,
                passes=passes,
                doubles=doubles,
                play_counts=tuple(counts),
                winner=winner,
                history=tuple(history),
                bombs_left=tuple(bombs_left),
            )
            self._ref_cache = r
        return r

    # ------------------------------------------------------------------ construction

    @classmethod
    def new(cls, seed: int | None = None, rules: Rules | None = None, first: int | None = None) -> Self:
        """A fresh round dealt from ``seed``: the reference's deal of that seed, dealt natively
        (CPython's Mersenne Twister and ``random.shuffle``, seeded as the reference seeds them)."""
        if seed is None:
            seed = random.Random().getrandbits(48)
        if rules is None:
            rules = RULES["classic"]
        fields = rules_fields(rules)
        text = f"doudizhu {seed} 1".encode()
        hands, kitty, face_up_seat = _module().ddz_deal(fields, text + hashlib.sha512(text).digest())
        if first is None:
            first = face_up_seat
        elif not 0 <= first < rules.players:
            return cls(Round.new(seed, rules, first))  # the reference's answer to a seat out of range
        r = object.__new__(cls)
        r._core = _core_type().start(fields, hands, kitty, first, 1)
        r._ctx = (rules, seed, ((*hands, kitty),), "")
        r._ref_cache = None
        return r

    @classmethod
    def from_deal(
        cls,
        hands: Any,
        kitty: str | Cards,
        rules: Rules = RULES["classic"],
        first: int = 0,
        seed: int | None = None,
    ) -> Self:
        """A round at the auction from a given deal (as :meth:`Round.from_deal`)."""
        return cls(Round.from_deal(hands, kitty, rules, first, seed))

    @classmethod
    def from_hands(
        cls,
        hands: Any,
        kitty: str | Cards = "",
        landlord: int = 0,
        bid: int = 1,
        rules: Rules = RULES["classic"],
        wild: str | None = None,
    ) -> Self:
        """A round straight into play (as :meth:`Round.from_hands`)."""
        return cls(Round.from_hands(hands, kitty, landlord, bid, rules, wild))

    @classmethod
    def from_position(cls, text: str) -> Self:
        """The round a position describes (as :meth:`Round.from_position`)."""
        return cls(Round.from_position(text))

    # ------------------------------------------------------------------ the protocol

    @property
    def rules(self) -> Rules:
        """The rules of the round."""
        return self._ctx[0]

    @property
    def to_move(self) -> int:
        """The seat to move (the winner once the round is over)."""
        return int(self._core.to_move)

    @property
    def is_over(self) -> bool:
        """Whether a seat has played its last card."""
        return bool(self._core.is_over)

    @property
    def phase(self) -> Phase:
        """The phase of the round."""
        return _PHASES[self._core.phase]

    def legal_actions(self, seat: int | None = None) -> tuple[Action, ...]:
        """Every legal action of ``seat`` (default: the seat to move), the reference's values."""
        core = self._core
        return core.legal(core.to_move if seat is None else seat)  # type: ignore[no-any-return]

    def decisions(self) -> tuple[Decision[Action], ...]:
        """The one seat asked now and its legal actions; none once the round is over."""
        core = self._core
        if core.is_over:
            return ()
        seat = core.to_move
        return (Decision(seat, "turn", core.legal(seat)),)

    def apply(self, seat: int, action: Action | str) -> "NativeRound":
        """The state after ``seat`` takes ``action`` (or its text); the reference's errors."""
        core = self._core.apply(seat, action)
        if core is None:
            return NativeRound(self.reference().apply(seat, action))
        return self._next(core)

    def score(self) -> tuple[int, ...]:
        """Points per seat (all zero until the round is over)."""
        return self._core.score()  # type: ignore[no-any-return]

    def view(self, seat: int) -> View:
        """What ``seat`` may know (the reference's view of this state)."""
        return self.reference().view(seat)

    @property
    def record(self) -> Record:
        """The round's record (the reference's)."""
        return self.reference().record

    def position(self) -> str:
        """The state as one line of text (the reference's notation)."""
        return self.reference().position()

    def rollouts(self, k: int, seed: int = 0) -> npt.NDArray[np.int64]:
        """The scores of ``k`` uniform random rollouts from here, in one native call (k x players)."""
        return self._core.rollouts(k, seed)  # type: ignore[no-any-return]

    def heuristic_action(self) -> Action:
        """The ``heuristic`` bot's choice for the seat to move, chosen natively: the same action
        as :meth:`pagoda.bots.doudizhu.heuristic.HeuristicBot.decide` on this seat's view (held
        equal by ``tests/native/test_doudizhu_policy.py``)."""
        k: int | None = self._core.heuristic_action()
        if k is None:
            raise ValueError("the round is over: no seat is to move")
        return self.legal_actions()[k]

    def heuristic_scores(self) -> list[float]:
        """The ``heuristic`` bot's score of every legal action of the seat to move in the play
        (:meth:`~pagoda.bots.doudizhu.heuristic.HeuristicBot.scores`); empty outside the play."""
        return list(self._core.heuristic_scores())

    def heuristic_playout(self) -> "NativeRound":
        """The round played to its end by the ``heuristic`` bot at every seat, natively: the round
        :func:`pagoda.bots.doudizhu.driver.play_round` plays with the Python bot at every seat
        (the bot draws no random numbers). A redeal or the laizi wild draw is the reference's."""
        r = self
        while True:
            core, pending = r._core.heuristic_playout()
            r = r._next(core)
            if pending is None:
                return r
            r = r.apply(r.to_move, r.legal_actions()[pending])

    # ------------------------------------------------------------------ values

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(f"NativeRound has no attribute {name!r}")
        return getattr(self.reference(), name)

    def __reduce__(self) -> tuple[Any, tuple[Round]]:
        # pickled (and copied) as its reference round: the native state is rebuilt from it
        return (NativeRound, (self.reference(),))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (NativeRound, Round)):
            return self.position() == other.position()
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.position())

    def __repr__(self) -> str:
        return f"NativeRound.from_position({self.position()!r})"


def play_random(rounds: int, rules: Rules | None = None, seed: int = 0) -> tuple[npt.NDArray[np.int64], int]:
    """``rounds`` uniform random rounds (auction included) in one native call: the scores
    (rounds x players) and the number of actions taken. The deals come from the native core's own
    generator, not from the reference's seeds."""
    scores, steps = _module().ddz_play_random(rules_fields(rules or RULES["classic"]), rounds, seed)
    return scores, int(steps)


def lead_counts(hands: list[int], rules: Rules | None = None, wild: int = -1) -> npt.NDArray[np.uint32]:
    """The number of leads of each packed hand, listed natively in one call."""
    return _module().ddz_lead_counts(rules_fields(rules or RULES["classic"]), hands, wild)  # type: ignore[no-any-return]


def legal_plays(
    hand: int, on: Combo | None, rules: Rules, wild: int = -1, bombs: bool = True
) -> tuple[Action, ...]:
    """The native :func:`pagoda.doudizhu.movegen.legal_plays`, as play actions."""
    _core_type()
    return _module().ddz_legal_plays(  # type: ignore[no-any-return]
        rules_fields(rules), hand, None if on is None else combo_fields(on), wild, bombs
    )
