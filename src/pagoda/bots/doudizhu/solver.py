"""An exact double-dummy solver for Dou Di Zhu endgames: alpha-beta with a transposition table.

Every hand is known (a determinization, or a real endgame). The value of a position for seat
``me`` is the exact score ``me`` ends the round with (:meth:`Round.score`: the bid, doubled by
every bomb and rocket still to come and by a spring or anti-spring): the landlord maximizes its
own score, the peasants together minimize it (they play as one, seeing every card).

The table is keyed on what decides the rest of the round: the hands, the combination on the
table and who played it, the passes since, the seat to move, the doublings so far and what a
spring still depends on (whether a peasant has played, and whether the landlord has played more
than once). Moves are tried in the heuristic's order: a play that goes out first, then the
plays that leave the fewest combinations (:func:`~pagoda.bots.doudizhu.hand.min_plays`), larger
plays before smaller, pass last; after a cut-off the move that caused it is tried first.

``node_limit`` bounds the work: past it the search raises :class:`SolverBudget`. Endgames of a
dozen cards in all solve in milliseconds.

>>> from pagoda import doudizhu as ddz
>>> r = ddz.Round.from_hands(["33 4", "5", "6"], landlord=0)
>>> solve(r, 0)  # the landlord leads 33 (nobody holds a pair), then 4: won, a spring: 2 x 2
4
"""

from collections.abc import Callable, Sequence

from pagoda.bots.alphabeta import SolverBudget, TableSearch
from pagoda.bots.doudizhu.hand import min_plays
from pagoda.doudizhu import Action, Round
from pagoda.doudizhu.actions import PASS_KIND
from pagoda.doudizhu.cards import size_of
from pagoda.doudizhu.round import Phase

_INF = 1 << 30

Key = tuple[object, ...]


def position_key(r: Round) -> Key:
    """What the rest of round ``r`` depends on (see the module doc)."""
    landlord = r.landlord
    peasants_played = any(n for s, n in enumerate(r.play_counts) if s != landlord)
    return (
        r.hands,
        r.top,
        r.top_seat,
        r.passes,
        r.to_move,
        r.doubles,
        peasants_played,
        min(r.play_counts[landlord], 2),
        r.bombs_left,
    )


def ordered_actions(r: Round) -> list[Action]:
    """The legal actions of the seat to move, in the solver's order (see the module doc)."""
    seat = r.to_move
    hand = r.hands[seat]
    rules = r.rules

    def key(a: Action) -> tuple[int, int, int]:
        if a.kind == PASS_KIND or a.combo is None:
            return (2, 0, 0)
        rest = hand - a.combo.mask
        if rest == 0:
            return (0, 0, 0)
        return (1, min_plays(rest, rules), -a.combo.size)

    return sorted(r.legal_actions(seat), key=key)


class Solver(TableSearch[Round]):
    """Alpha-beta with a transposition table, for seat ``me``'s score (see the module doc)."""

    inf = _INF

    def __init__(self, me: int, node_limit: int = 200_000) -> None:
        super().__init__(node_limit)
        self.me = me

    def value(self, r: Round, alpha: int = -_INF, beta: int = _INF) -> int:
        """The exact score of ``me`` from ``r`` on with best play by both sides.

        With a window ``alpha < beta`` the answer is *fail-soft*: a value at or below ``alpha``
        is an upper bound of the true one, at or above ``beta`` a lower bound, else exact.
        """
        if r.phase is not Phase.PLAY and r.phase is not Phase.OVER:
            raise ValueError(f"the solver plays out positions in play, not in the {r.phase.value}")
        return int(self._search(r, alpha, beta))  # scores are whole numbers

    def values(self, r: Round, actions: Sequence[Action]) -> list[int]:
        """The exact score of ``me`` after each of ``actions`` by the seat to move of ``r``."""
        seat = r.to_move
        return [self.value(r.apply(seat, a)) for a in actions]

    def _leaf(self, pos: Round) -> float | None:
        return pos.score()[self.me] if pos.phase is Phase.OVER else None

    def _key(self, pos: Round) -> Key:
        return position_key(pos)

    def _moves(self, pos: Round) -> tuple[bool, int, Callable[[int], Round]]:
        seat = pos.to_move
        actions = ordered_actions(pos)
        maximize = (seat == pos.landlord) == (self.me == pos.landlord)
        return maximize, len(actions), lambda i: pos.apply(seat, actions[i])


def cards_left(r: Round) -> int:
    """How many cards all the hands of ``r`` hold together."""
    return sum(size_of(h) for h in r.hands)


def solve(r: Round, me: int, node_limit: int = 200_000) -> int:
    """The exact score of seat ``me`` from ``r`` on (see :class:`Solver`)."""
    return Solver(me, node_limit).value(r)


__all__ = ["Solver", "SolverBudget", "cards_left", "ordered_actions", "position_key", "solve"]
