"""The native (Rust) Tichu core behind the reference's API: :class:`NativeRound`.

A :class:`NativeRound` answers as :class:`pagoda.tichu.Round` does (the differential tests in
``tests/native/`` hold them equal at every step) and hands out the reference's own values:
``legal_actions`` gives :class:`~pagoda.tichu.actions.Action` objects (the shared ones the
reference shares: single plays, the Mah Jong's with each wish, the Phoenix's, ``pass``,
``take``, ``no-bomb``, ...; the others made when first read from the lazy list), ``decisions``
the reference's :class:`~pagoda.core.game.Decision` tuples, and ``view``, ``position``,
``record`` come from the reference round of the same fields.

The native core plays every action of the legal lists itself (as the value, or as its text)
and deals ``new(seed)`` with the reference's shuffle (CPython's Mersenne Twister, ported), so
one seed gives one deal in both engines. Whatever it does not settle it leaves to the
reference, from the same state, so the answer is the reference's by construction: an action
outside the legal list (another spelling of a legal one, e.g. naming the Phoenix's highest
reading, accepted; an illegal one, refused with the reference's
:class:`~pagoda.core.errors.IllegalAction` or :class:`~pagoda.core.errors.ParseError`), a seat
that is no seat, a round without a seed.

This module needs the native extension (``make native``); :func:`pagoda.tichu.new_round` picks
the engine and runs without it.

>>> from pagoda.tichu.native import NativeRound
>>> r = NativeRound.from_hands(["Mj 2g 3g 4g 5g 6g 7g 8g 9g Tg Jg Qg Kg Ag",
...     "Dg 2k 3k 4k 5k 6k 7k 8k 9k Tk Jk Qk Kk Ak",
...     "Ph 2b 3b 4b 5b 6b 7b 8b 9b Tb Jb Qb Kb Ab",
...     "Dr 2r 3r 4r 5r 6r 7r 8r 9r Tr Jr Qr Kr Ar"])
>>> r = r.apply(0, "play Mj wish 7")
>>> r.window, [str(a) for a in r.legal_actions(1)][:2]
((2, 3, 0), ['play 7k', 'play 2k 3k 4k 5k 6k 7k'])
"""

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
import pagoda_native
from pagoda_native import NativeRound, TichuActions

from pagoda.core.game import Decision
from pagoda.tichu.actions import (
    _MAH_JONG_PLAYS,
    GIVE_DRAGON,
    PLAY,
    SINGLE_PLAYS,
    Action,
    ExchangeChoices,
    parse_action,
)
from pagoda.tichu.cards import CARDS, PHOENIX, CardsLike, to_mask
from pagoda.tichu.combos import KINDS, Combo
from pagoda.tichu.round import (
    _ACTION_GRAND,
    _ACTION_NO_BOMB,
    _ACTION_NO_GRAND,
    _ACTION_PASS,
    _ACTION_TAKE,
    _ACTION_TICHU,
    _PHOENIX_ON,
    Phase,
    Round,
    Setup,
)
from pagoda.tichu.rules import RULES, Rules

__all__ = ["NativeRound", "from_reference", "lead_counts", "play_random", "plays", "rules_flags"]

_PHASES = (Phase.GRAND_TICHU, Phase.EXCHANGE, Phase.PLAY, Phase.OVER)
_PHASE_CODE = {p: i for i, p in enumerate(_PHASES)}
_KIND_CODE = {k: i for i, k in enumerate(KINDS)}


def _rank(rank2: int) -> float:
    """A rank from its double: whole ranks as ``int`` (as the reference makes them), halves as ``float``."""
    return rank2 // 2 if rank2 % 2 == 0 else rank2 / 2


def _combo(kind: int, rank2: int, mask: int, phoenix: int) -> Combo:
    return Combo(KINDS[kind], _rank(rank2), mask, phoenix)


def _make_play(kind: int, rank2: int, mask: int, phoenix: int, wish: int, reading: int) -> Action:
    return Action(PLAY, mask, wish, reading, None, -1, _combo(kind, rank2, mask, phoenix))


def reference(core: NativeRound) -> Round:
    """The reference round of a native state (equal position, history and record)."""
    (rules, phase, to_move, hands, seated, bomb_seats, quiet, taken, trick_cards, trick) = core.fields()[:10]
    (passed, complete, wish, out, closing, window, decided, grand, tichu, given) = core.fields()[10:20]
    (start_grand, history, deal, seed, position) = core.fields()[20:]
    plays = tuple((seat, _combo(k, r2, m, p)) for seat, k, r2, m, p in trick)
    gifts = tuple(None if g is None else (CARDS[g[0]], CARDS[g[1]], CARDS[g[2]]) for g in given)
    start = Phase.GRAND_TICHU if start_grand else Phase.PLAY
    return Round(
        rules=rules,
        phase=_PHASES[phase],
        to_move=to_move,
        setup=Setup(deal, seed, start, decided, gifts, grand, tichu, position),
        hands=tuple(hands),
        seated=seated,
        bomb_seats=bomb_seats,
        quiet=quiet,
        taken=tuple(taken),
        trick_cards=trick_cards,
        top=plays[-1][1] if plays else None,
        top_seat=plays[-1][0] if plays else -1,
        trick=plays,
        passed=passed,
        complete=complete,
        wish=wish,
        out=tuple(out),
        closing=closing,
        window=tuple(window),
        history=history,
        memo=[],
    )


def from_reference(r: Round) -> NativeRound:
    """The native state of a reference round."""
    setup = r.setup
    return NativeRound.from_fields(
        r.rules,
        _PHASE_CODE[r.phase],
        r.to_move,
        list(r.hands),
        r.seated,
        r.bomb_seats,
        r.quiet,
        list(r.taken),
        r.trick_cards,
        [(seat, _KIND_CODE[c.kind], int(c.rank * 2), c.mask, c.phoenix) for seat, c in r.trick],
        r.passed,
        r.complete,
        r.wish,
        list(r.out),
        r.closing,
        list(r.window),
        setup.decided,
        [None if g is None else (int(g[0]), int(g[1]), int(g[2])) for g in setup.given],
        setup.grand,
        setup.tichu,
        setup.start is Phase.GRAND_TICHU,
        r.history,
        setup.deal,
        setup.seed,
        setup.position,
    )


def _build(name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> NativeRound:
    """``Round.<name>(*args, **kwargs)`` made native (the constructors the reference checks)."""
    return from_reference(getattr(Round, name)(*args, **kwargs))


def _exchange_choices(hand: int, first: tuple[Action, ...]) -> ExchangeChoices:
    return ExchangeChoices(hand, first=first)


pagoda_native.tichu_register(
    _make_play,
    list(SINGLE_PLAYS),
    list(_MAH_JONG_PLAYS),
    [SINGLE_PLAYS[PHOENIX], *(_PHOENIX_ON[r] for r in range(1, 15))],
    [_ACTION_GRAND, _ACTION_NO_GRAND, _ACTION_TICHU, _ACTION_PASS, _ACTION_TAKE, _ACTION_NO_BOMB],
    [Action(GIVE_DRAGON, target=t) for t in range(4)],
    _exchange_choices,
    Decision,
    list(_PHASES),
    parse_action,
    Action,
    reference,
    from_reference,
    _build,
    RULES["standard"],
    list(CARDS),
)
Sequence.register(TichuActions)


def rules_flags(rules: Rules) -> tuple[bool, bool, bool, bool, bool]:
    """The options of ``rules`` that change a round, as the batched calls read them."""
    return (
        rules.phoenix_choice,
        rules.one_call_per_team,
        rules.wish_required,
        rules.small_tichu_after_exchange_only,
        rules.last_tricks_to == "opponents",
    )


def play_random(rounds: int, rules: Rules | None = None, seed: int = 0) -> tuple[npt.NDArray[np.int64], int]:
    """``rounds`` uniform random rounds (the first seat asked acting each time, as ``pagoda bench
    tichu`` plays) in one native call: the scores (rounds x 2 teams) and the number of actions.
    The deals come from the native core's own generator, not from the reference's seeds.

    >>> scores, steps = play_random(10, seed=1)
    >>> scores.shape, bool(steps > 10 * 60)
    ((10, 2), True)
    """
    scores, steps = pagoda_native.tichu_play_random(rules_flags(rules or RULES["standard"]), rounds, seed)
    return scores, int(steps)


def plays(hand: CardsLike, on: Combo | None = None, phoenix_choice: bool = False) -> list[Combo]:
    """The native :func:`pagoda.tichu.plays`: every combination ``hand`` plays on ``on``, in the same order.

    >>> from pagoda.tichu import classify
    >>> [str(c) for c in plays("5g 5r 9k 9b 9r", on=classify("8g 8r"))]
    ['9k 9b', '9k 9r', '9b 9r']
    """
    top = None if on is None else (_KIND_CODE[on.kind], int(on.rank * 2), on.mask, on.phoenix)
    return [_combo(*raw) for raw in pagoda_native.tichu_plays(to_mask(hand), top, phoenix_choice)]


def lead_counts(hands: list[int]) -> npt.NDArray[np.uint32]:
    """The number of plays each hand (a card mask) leads, listed natively in one call."""
    return pagoda_native.tichu_lead_counts(hands)
