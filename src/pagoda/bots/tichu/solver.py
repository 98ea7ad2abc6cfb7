"""An exact double-dummy solver for Tichu card-play endgames: alpha-beta with a transposition table.

Every hand is known (a determinization, or a real endgame). The solver plays the round out
through the round's own flow (:meth:`~pagoda.tichu.Round.decisions`), as the driver does: at
each position the first seat asked chooses among all its legal actions:

- a seat of the bomb window: its bombs or ``no-bomb`` (a choice like any other);
- the seat to move: plays, ``pass``, ``take``, the Dragon gift, bombs; Mah Jong plays whose
  wishes name a rank nobody holds lead to the same game, so one of them stands for all.

The value of a position is the final score of ``team`` (seats ``team`` and ``team + 2``) minus
the other team's, as :func:`round_value` counts it: card points or the one-two's 200, and the
Tichu and Grand Tichu calls already made. ``team`` maximizes, the other team minimizes: the two
partners play as one (they see each other's cards, as every seat does here).

Simplifications, documented: no new ``tichu`` call is considered (a seat that could still call
is assumed not to); the solved game is the driver's, so a seat that answers ``no-bomb`` gets no
second chance until the window opens again (the next play, or the trick's completion).

``node_limit`` bounds the work: past it the search raises :class:`SolverBudget` and the caller
falls back to sampling. Small endgames (a dozen cards or so) solve in milliseconds to a tenth
of a second.
"""

from collections.abc import Callable, Sequence

from pagoda.bots.alphabeta import SolverBudget, TableSearch
from pagoda.tichu import Action, Round
from pagoda.tichu.actions import PASS, PLAY, TICHU
from pagoda.tichu.cards import MAH_JONG_BIT, RANK_MASKS
from pagoda.tichu.round import Phase

_INF = 10_000.0
_NO_CALLS = (False, False, False, False)


def round_value(r: Round, team: int, grand_calls: Sequence[bool] = _NO_CALLS) -> int:
    """Score of team ``team`` minus the other's at the end of ``r``.

    ``grand_calls`` marks seats whose Grand Tichu a determinization rebuilt as a Tichu call (see
    :func:`pagoda.bots.tichu.search.rebuild`): they count ±200, not ±100.
    """
    return value_of(r.score(), r.out[0], team, grand_calls)


def value_of(score: Sequence[int], first_out: int, team: int, grand_calls: Sequence[bool] = _NO_CALLS) -> int:
    """:func:`round_value` of a round that ended with ``score`` and ``first_out`` out first."""
    diff = score[team] - score[1 - team]
    for s in range(4):
        if grand_calls[s]:
            bonus = 100 if first_out == s else -100  # rebuilt as Tichu (±100): add the rest
            diff += bonus if s & 1 == team else -bonus
    return diff


def cards_left(r: Round) -> int:
    """How many cards the four hands of ``r`` hold together."""
    return sum(r.hand_mask(s).bit_count() for s in range(4))


def turn_actions(r: Round) -> list[Action]:
    """The choices of the first seat ``r`` asks (:meth:`Round.decisions`) that the solver tells
    apart, best-looking first.

    Every action of that decision but ``tichu``; of the Mah Jong plays with wishes for ranks
    nobody holds (which lead to the same game) only the first is kept.
    """
    decision = r.decisions()[0]
    hand = r.hand_mask(decision.seat)
    everything = r.hand_mask(0) | r.hand_mask(1) | r.hand_mask(2) | r.hand_mask(3)
    seen_dead: set[int] = set()
    out: list[Action] = []
    for a in decision.actions:
        if a.kind == TICHU:
            continue
        # a wish for a rank nobody will hold is a dead wish: one of them stands for all
        dead = a.kind == PLAY and a.wish and not everything & ~a.mask & RANK_MASKS[a.wish]
        if dead and a.mask & MAH_JONG_BIT:
            if a.mask in seen_dead:
                continue
            seen_dead.add(a.mask)
        out.append(a)
    out.sort(key=lambda a: _order(a, hand))
    return out


def _order(a: Action, hand: int) -> tuple[int, int, float]:
    """Move ordering: going out first, then larger plays, low before high; pass last."""
    if a.kind != PLAY:
        return (2 if a.kind == PASS else 1, 0, 0.0)
    rank = a.combo.rank if a.combo is not None else 0.0
    return (0 if a.mask == hand else 1, -a.mask.bit_count(), rank)


# A position is a round: who is asked next (its bomb window included) is part of its state.
Node = Round


class Solver(TableSearch[Node]):
    """Alpha-beta with a transposition table over one endgame's positions (see the module doc).

    One solver may be asked about several positions of the same game (its table is shared); a
    new game needs a new solver, since values depend on ``team`` and ``grand_calls``.
    """

    inf = _INF

    def __init__(self, team: int, grand_calls: Sequence[bool] = _NO_CALLS, node_limit: int = 200_000) -> None:
        super().__init__(node_limit)
        self.team = team
        self.grand_calls = tuple(grand_calls)

    def value(self, r: Round, alpha: float = -_INF, beta: float = _INF) -> float:
        """The exact value of ``r`` (with the first seat it asks choosing next).

        With a window ``alpha < beta`` the answer is *fail-soft*: a value at or below ``alpha``
        is an upper bound of the true one, at or above ``beta`` a lower bound, else exact.
        """
        return self._search(r, alpha, beta)

    def value_after(self, r: Round, seat: int, action: Action) -> float:
        """The exact value once ``seat`` has done ``action`` in ``r``."""
        return self._search(r.apply(seat, action), -_INF, _INF)

    def values(self, r: Round, seat: int, actions: Sequence[Action]) -> list[float]:
        """The exact value of each of ``actions`` by ``seat`` in ``r``."""
        return [self.value_after(r, seat, a) for a in actions]

    def _leaf(self, pos: Node) -> float | None:
        r = pos
        return float(round_value(r, self.team, self.grand_calls)) if r.phase is Phase.OVER else None

    def _key(self, pos: Node) -> Node:
        return pos

    def _moves(self, pos: Node) -> tuple[bool, int, Callable[[int], Node]]:
        """The choices of the first seat asked, each as the round after it."""
        seat = pos.decisions()[0].seat
        kids = [pos.apply(seat, a) for a in turn_actions(pos)]
        return seat & 1 == self.team, len(kids), kids.__getitem__


def solve(r: Round, team: int, grand_calls: Sequence[bool] = _NO_CALLS, node_limit: int = 200_000) -> float:
    """The exact value of ``r`` for ``team`` (see :class:`Solver`); raises :class:`SolverBudget`."""
    return Solver(team, grand_calls, node_limit).value(r)


__all__ = ["Solver", "SolverBudget", "cards_left", "round_value", "solve", "turn_actions", "value_of"]
