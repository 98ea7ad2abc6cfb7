"""Information-set Monte Carlo tree search (ISMCTS) for the Tichu ``search`` bot.

PIMC (the search bot's default) scores each candidate of this decision by playing it out with
club at every seat, later decisions of this seat included: more time only sharpens those
means. ISMCTS grows a tree over the decisions that follow instead: its nodes are sequences of
actions, the same for every determinization that allows them (single-observer ISMCTS, Cowling,
Powley and Whitehouse, 2012), so with more time this seat's and the other seats' next choices
are searched too rather than left to club.

One iteration, on one determinization (a consistent deal, :func:`pagoda.bots.tichu.search.
determinize`, on the native core):

- **select**: from the root, at each decision of the tree the moves the deal allows are those
  club would weigh (:func:`moves`: club's choice, then the others that cost the hand's
  partition least, ``width`` in all); while each of them has a child, the child with the best
  UCB1 value for the seat to move is taken (its team's mean, plus ``explore`` round points
  times the square root of the log of the child's availability over its visits);
- **expand**: the first move without a child gets one;
- **simulate**: club plays the rest of the round at every seat (the native club rollout);
- **back up**: every node on the path counts the round's value for this seat's team.

Out-of-turn bomb offers, Tichu calls and lone choices are club's and make no node. The root's
most visited move is played. Each determinization serves ``per_deal`` iterations (drawing a
deal costs more than an iteration).
"""

import math
from collections.abc import Sequence

from pagoda.bots.tichu.driver import NO_BOMB
from pagoda.bots.tichu.hand import partition_cost
from pagoda.bots.tichu.solver import value_of
from pagoda.tichu import Action
from pagoda.tichu.actions import PLAY, TICHU
from pagoda.tichu.native import NativeRound


class Node:
    """A decision in the tree: its children by move, visits, summed value and availability."""

    __slots__ = ("avail", "children", "total", "visits")

    def __init__(self) -> None:
        self.children: dict[Action, Node] = {}
        self.visits = 0
        self.total = 0.0  # summed values for the root seat's team
        self.avail = 0  # iterations in which this node's move was legal at its parent


def moves(state: NativeRound, seat: int, legal: Sequence[Action], club: Action, width: int) -> list[Action]:
    """The moves of ``seat`` the tree weighs: club's choice first, then the plays that cost the
    hand's partition least (and pass), ``width`` in all; never a Tichu call."""
    hand = state.hand_mask(seat)
    seen: dict[tuple[str, int, int], Action] = {(club.kind, club.mask, club.target): club}
    for a in legal:
        key = (a.kind, a.mask, a.target)
        if a.kind != TICHU and key not in seen:
            seen[key] = a
    rest = [a for a in seen.values() if a is not club]
    rest.sort(key=lambda a: (partition_cost(hand & ~a.mask) if a.kind == PLAY else 0, a.mask))
    return [club, *rest[: max(0, width - 1)]]


class Tree:
    """One decision's ISMCTS tree, for the seat ``seat`` whose team is ``team``."""

    def __init__(
        self, seat: int, candidates: Sequence[Action], grands: Sequence[bool], width: int, explore: float
    ) -> None:
        self.seat = seat
        self.team = seat & 1
        self.candidates = list(candidates)
        self.grands = tuple(grands)
        self.width = width
        self.explore = explore
        self.root = Node()

    def iterate(self, det: NativeRound) -> None:
        """One iteration on the determinization ``det`` (at this decision, the seat to move)."""
        node, state, path = self.root, det, [self.root]
        allowed: Sequence[Action] = self.candidates
        seat = self.seat
        while True:
            child, move = self._select(node, allowed, seat)
            state = state.apply(seat, move)
            path.append(child)
            if child.visits == 0:
                break
            node = child
            state = self._advance(state)
            if state.is_over:
                break
            seat = state.decisions()[0].seat
            legal = state.decisions()[0].actions
            allowed = moves(state, seat, legal, state.club_action(), self.width)
        a, b, first = state.rollouts(1, 0, policy="club", first_out=True)[0]
        value = float(value_of((int(a), int(b)), int(first), self.team, self.grands))
        for n in path:
            n.visits += 1
            n.total += value

    @staticmethod
    def _advance(state: NativeRound) -> NativeRound:
        """Play club's answer while the decision is not the tree's (a bomb window, a Tichu call
        club makes, a lone choice)."""
        while not state.is_over:
            decisions = state.decisions()
            legal = decisions[0].actions
            club = state.club_action()
            if len(decisions) == 1 and len(legal) > 1 and club.kind != TICHU and club != NO_BOMB:
                return state
            state = state.apply(decisions[0].seat, club)
        return state

    def _select(self, node: Node, allowed: Sequence[Action], seat: int) -> tuple[Node, Action]:
        """The child to follow (a new one for the first move without a child), by UCB1."""
        for move in allowed:
            if move not in node.children:
                child = node.children[move] = Node()
                child.avail += 1
                for other in allowed:
                    if other is not move and other in node.children:
                        node.children[other].avail += 1
                return child, move
        sign = 1.0 if seat & 1 == self.team else -1.0
        best: tuple[float, Action] | None = None
        for move in allowed:
            child = node.children[move]
            child.avail += 1
            ucb = sign * child.total / child.visits + self.explore * math.sqrt(
                math.log(child.avail) / child.visits
            )
            if best is None or ucb > best[0]:
                best = (ucb, move)
        assert best is not None
        return node.children[best[1]], best[1]
