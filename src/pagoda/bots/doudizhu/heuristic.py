"""The ``heuristic`` Dou Di Zhu bot: bids from hand strength, plays by the fewest-combinations plan.

**Bidding.** :func:`strength` scores a hand: the rocket and bombs, the 2s, jokers and aces (the
control cards), wild cards, less the combinations the hand needs beyond a par. The bid is the
highest of 1..3 whose threshold the score reaches (thresholds measured by playing the landlord
against the bot itself, see ``docs/strength.md``); with ``rob``, it calls or robs above a threshold.

**Play.** Every legal action is scored (:meth:`HeuristicBot.scores`); the best is played:

- the combinations left after the action (:func:`~pagoda.bots.doudizhu.hand.min_plays`) weigh
  most: a play that fits the plan costs nothing, one that breaks it costs a combination more;
- low cards first: the rank of the play and any control card in it (A, 2, jokers) cost a little;
- bombs and the rocket cost more than a combination unless an enemy is nearly out;
- counting cards: what no other seat can beat (from the unseen cards) is a control; every control
  the plan keeps after a play is worth a little (:data:`SAFE_GROUP`), and leading a control when at
  most one combination of the rest can be beaten starts a forced play-out (:data:`PLAY_OUT`);
- the landlord, alone against two, beats a peasant's play more readily than a peasant would
  (:data:`LANDLORD_CONTEST`): passing hands the pair the tempo;
- never lead a solo (a pair) into an enemy holding one (two) cards unless nothing beats it;
- peasants: never beat the teammate's play (unless going out), feed a teammate who is nearly out
  the lowest solo or pair, and the peasant right after the landlord blocks the landlord harder.

Decisions take well under a millisecond on most positions (the plans are memoized).
"""

import random
from collections.abc import Sequence
from dataclasses import dataclass

from pagoda.bots.doudizhu.hand import Group, min_plays, partition, played_cards, unseen
from pagoda.doudizhu import PASS, Action, View
from pagoda.doudizhu.actions import BID, CALL, PASS_KIND, PLAY, ROB
from pagoda.doudizhu.cards import ACE, JOKER_B, JOKER_R, NUM_RANKS, TWO, counts_of, size_of
from pagoda.doudizhu.combos import (
    BOMB,
    CHAIN,
    PAIR,
    PAIR_CHAIN,
    PLANE,
    PLANE_PAIR,
    PLANE_SOLO,
    ROCKET,
    SOLO,
    TRIO,
    TRIO_PAIR,
    TRIO_SOLO,
    Combo,
)
from pagoda.doudizhu.round import Phase
from pagoda.doudizhu.rules import Rules, parse_rules

WIN = 1e6
_CONTROL = {ACE: 0.5, TWO: 1.5, JOKER_B: 2.5, JOKER_R: 3.0}
_PER = {SOLO: 1, PAIR: 2, TRIO: 3, TRIO_SOLO: 3, TRIO_PAIR: 3, CHAIN: 1, PAIR_CHAIN: 2, PLANE: 3}
_PER.update({PLANE_SOLO: 3, PLANE_PAIR: 3})
_RUNS = (CHAIN, PAIR_CHAIN, PLANE, PLANE_SOLO, PLANE_PAIR)
#: what each combination of the plan left after a play that nothing unseen can beat is worth
SAFE_GROUP = 3.0
#: the bonus for leading a safe combination when at most one of the rest can be beaten
PLAY_OUT = 30.0
#: how much more the landlord, alone against two, wants to beat a peasant's play than to pass
LANDLORD_CONTEST = 8.0


def strength(hand: int, rules: Rules, wild: int = -1) -> float:
    """How strong a hand is to play as landlord (a score; about 0 average, higher is stronger).

    Points: the rocket 8, a bomb 6, the red joker 4 and the black 3 (when not the rocket), a 2 is
    2, an ace 0.5, a wild card 2; less 1.5 per combination the hand needs beyond 6 (per 17 cards).
    """
    c = counts_of(hand)
    d = rules.decks
    score = 0.0
    if c[JOKER_B] >= d and c[JOKER_R] >= d:
        score += 8
    else:
        score += 3 * c[JOKER_B] + 4 * c[JOKER_R]
    for i in range(JOKER_B):
        if c[i] >= 4 and i != wild:
            score += 6 + 2 * (c[i] - 4)
        elif i == TWO:
            score += 2 * c[i]
        elif i == ACE:
            score += 0.5 * c[i]
    if wild >= 0:
        score += 2 * c[wild]
    par = 6 * size_of(hand) / 17
    score -= 1.5 * (min_plays(hand, rules) - par)
    return score


@dataclass(frozen=True, slots=True)
class BidThresholds:
    """The strength a bid needs: bid 1, 2, 3; call and rob with ``rob``."""

    one: float = 4.0
    two: float = 7.0
    three: float = 10.0
    call: float = 5.0
    rob: float = 9.0


class HeuristicBot:
    """Bids from hand strength; plays the fewest-combinations plan, low cards first, counting cards."""

    def __init__(self, rules: Rules | str | None = None, bids: BidThresholds | None = None) -> None:
        self.rules = parse_rules(rules) if isinstance(rules, str) else rules
        self.bids = bids or BidThresholds()

    # ------------------------------------------------------------------ interface

    def decide(self, view: View, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        """The best-scored legal action (ties go to the first listed: no randomness needed)."""
        if len(legal_actions) == 1:
            return legal_actions[0]
        if view.phase is Phase.AUCTION:
            return self.bid(view, legal_actions)
        scored = self.scores(view, legal_actions)
        best = max(range(len(scored)), key=lambda k: scored[k])
        return legal_actions[best]

    def rules_for(self, view: View) -> Rules:
        """The rules to reason with: the bot's own, else the table's."""
        return self.rules if self.rules is not None else view.rules

    # ------------------------------------------------------------------ auction

    def bid(self, view: View, legal: Sequence[Action]) -> Action:
        """The auction action the hand's strength asks for (the highest bid it reaches, or pass)."""
        rules = self.rules_for(view)
        s = strength(view.hand.mask, rules)
        scale = size_of(view.hand.mask) / 17
        t = self.bids
        kinds = {a.kind for a in legal}
        if CALL in kinds or ROB in kinds:
            need = t.call if CALL in kinds else t.rob
            want = CALL if CALL in kinds else ROB
            return next(a for a in legal if a.kind == want) if s >= need * scale else PASS
        level = 3 if s >= t.three * scale else 2 if s >= t.two * scale else 1 if s >= t.one * scale else 0
        bids = [a for a in legal if a.kind == BID and a.bid <= level]
        if not bids:
            return PASS if PASS in legal else legal[0]
        return max(bids, key=lambda a: a.bid)

    # ------------------------------------------------------------------ play

    def scores(self, view: View, legal: Sequence[Action]) -> list[float]:
        """A score for every legal action in the play (higher is better)."""
        ctx = _Context(view, self.rules_for(view))
        return [ctx.score(a) for a in legal]


class _Context:
    """What one play decision needs, computed once: roles, the plan, the unseen cards."""

    def __init__(self, view: View, rules: Rules) -> None:
        self.view = view
        self.rules = rules
        me = view.seat
        n = len(view.counts)
        landlord = view.landlord if view.landlord is not None else -1
        self.me = me
        self.landlord = landlord
        self.is_landlord = me == landlord
        self.enemies = [s for s in range(n) if s != me and (self.is_landlord or s == landlord)]
        self.mates = [s for s in range(n) if s != me and s not in self.enemies]
        self.hand = view.hand.mask
        self.plays_now = min_plays(self.hand, rules)
        played = played_cards(view.history)
        self.unseen = unseen(self.hand, sum(played.values()), rules.decks)
        self.top = view.top if view.top_seat is not None and view.top_seat != me else None
        self.top_seat = view.top_seat if self.top is not None else None
        self.counts = view.counts
        self.enemy_min = min((view.counts[e] for e in self.enemies), default=99)
        d = rules.decks
        u = self.unseen
        # the bombs the other seats might hold, from the unseen cards only
        self.enemy_bomb = any(u[i] >= 4 for i in range(JOKER_B)) or (u[JOKER_B] >= d and u[JOKER_R] >= d)

    def beatable(self, combo: Combo) -> bool:
        """Whether the unseen cards (all of them, wherever they are) could beat ``combo``."""
        return self._beatable(combo.kind, combo.rank, combo.length, combo.size)

    def _beatable(self, kind: str, rank: int, length: int, size: int) -> bool:
        u = self.unseen
        if kind == ROCKET:
            return False
        rocket = u[JOKER_B] >= self.rules.decks and u[JOKER_R] >= self.rules.decks
        if kind == BOMB:
            strong = [i for i in range(JOKER_B) if u[i] >= 4 and (u[i], i) > (size, rank - 3)]
            return bool(strong) or rocket
        if self.enemy_bomb:
            return True
        per = _PER.get(kind)
        if per is None:
            return True
        main_top = rank - 3
        if kind in _RUNS:
            for top in range(main_top + 1, ACE + 1):
                if all(u[i] >= per for i in range(top - length + 1, top + 1)):
                    return True
            return False
        limit = NUM_RANKS if per == 1 else JOKER_B
        return any(u[i] >= per for i in range(main_top + 1, limit))

    def group_safe(self, g: Group) -> bool:
        """Whether no unseen cards could beat the plan's combination ``g``."""
        c = counts_of(g.mask)
        per = _PER.get(g.kind, 1)
        length = sum(1 for i in range(ACE + 1) if c[i] >= per) if g.kind in _RUNS else 1
        size = c[g.rank - 3] if g.rank - 3 < JOKER_B else 2
        return not self._beatable(g.kind, g.rank, length, size)

    def safe_groups(self, mask: int) -> tuple[int, int]:
        """How many combinations of the plan of ``mask`` nothing unseen can beat, and how many in all."""
        plan = partition(mask, self.rules)
        return sum(1 for g in plan if self.group_safe(g)), len(plan)

    def urgency(self) -> float:
        """How much more than usual beating the table is worth now (negative: rather pass)."""
        seat = self.top_seat
        if seat is None:
            return 0.0
        if seat in self.mates:
            return -15.0
        left = self.counts[seat]
        u = 0.0
        if (
            not self.is_landlord
            and seat == self.landlord
            and self.me == (self.landlord + 1) % len(self.counts)
        ):
            u += 4.0  # the peasant right after the landlord blocks harder
        if self.is_landlord:
            u += LANDLORD_CONTEST
        if left <= 2:
            u += 14.0
        elif left <= 4:
            u += 7.0
        elif left <= 7:
            u += 2.0
        return u

    def score(self, action: Action) -> float:
        """The action's score: minus ten per combination left, less costs, plus the situation's terms."""
        if action.kind == PASS_KIND:
            return -10.0 * self.plays_now - self.urgency()
        combo = action.combo
        if action.kind != PLAY or combo is None:
            return -1e9
        rest = self.hand - combo.mask
        if rest == 0:
            return WIN
        after = min_plays(rest, self.rules)
        s = -10.0 * after
        c = counts_of(combo.mask)
        control = sum(_CONTROL.get(i, 0.0) * c[i] for i in (ACE, TWO, JOKER_B, JOKER_R))
        s -= 0.25 * (combo.rank - 3) + control
        if combo.is_bomb:
            s -= 6.0 if self.enemy_min <= 4 or after <= 1 else 14.0
        safe_left, _ = self.safe_groups(rest)
        s += SAFE_GROUP * safe_left
        leading = self.top is None
        if leading:
            s += 0.5 * size_of(combo.mask)
            safe = not self.beatable(combo)
            if safe and after - safe_left <= 1:
                s += PLAY_OUT
            if after == 1 and safe:
                s += 50.0
            if self.enemy_min == 1 and combo.kind == SOLO and not safe:
                s -= 20.0 - 0.5 * (combo.rank - 3)  # if it must be a solo, the highest
            if self.enemy_min == 2 and combo.kind == PAIR and not safe:
                s -= 12.0
            s += self._feed(combo)
        elif self.top_seat in self.mates:
            s -= 15.0
        return s

    def _feed(self, combo: Combo) -> float:
        """A peasant's bonus for leading a teammate who is nearly out the low solo or pair it needs."""
        if self.is_landlord or not self.mates:
            return 0.0
        n = len(self.counts)
        bonus = 0.0
        for mate in self.mates:
            left = self.counts[mate]
            nxt = (self.me + 1) % n == mate
            weight = 1.0 if nxt else 0.5
            if left == 1 and combo.kind == SOLO:
                bonus += weight * (25.0 - 1.5 * (combo.rank - 3))
            elif left == 2 and combo.kind == PAIR:
                bonus += weight * (18.0 - 1.0 * (combo.rank - 3))
        return bonus


def best_first(scores: Sequence[float], legal: Sequence[Action], width: int) -> list[int]:
    """The indices of the ``width`` best-scored actions, best first (ties in the listed order, so
    the first is the heuristic's own choice), with the pass added when it is legal and not among them.

    >>> from pagoda.doudizhu import Round
    >>> legal = Round.new(3).legal_actions()
    >>> [str(a) for a in legal]
    ['pass', 'bid 1', 'bid 2', 'bid 3']
    >>> best_first([1.0, 5.0, 3.0, 5.0], legal, 2)
    [1, 3, 0]
    """
    order = sorted(range(len(scores)), key=lambda k: -scores[k])[:width]
    passes = [k for k, a in enumerate(legal) if a.kind == PASS_KIND]
    if passes and passes[0] not in order:
        order.append(passes[0])
    return order


__all__ = ["BidThresholds", "HeuristicBot", "best_first", "strength"]
