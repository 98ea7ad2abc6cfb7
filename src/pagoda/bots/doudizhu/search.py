"""The ``search`` Dou Di Zhu bot: determinized sampling (PIMC) with heuristic rollouts.

In the play, the heuristic's best few actions are the candidates. Each sample deals the unseen
cards to the other seats consistently with everything public (:func:`determinize`): the bot's own
hand stays, played cards are gone, every seat gets exactly its hand size, and the landlord keeps
the shown kept cards it has not played. Every candidate is played on every sample and the round
finished by the heuristic for all seats; a candidate's value is its mean outcome for the bot's
side (points, plus one for a win and minus one for a loss). The learned bot bids
(:mod:`pagoda.bots.doudizhu.learned`: its bidding network, which bids as the heuristic on the
presets the networks do not play and where the landlord may be robbed), or with
``bids=heuristic`` the heuristic.

**Endgames are solved.** On a sample whose hands hold ``solve_cards`` cards or fewer in all
(default 12), every candidate gets its exact double-dummy value from the endgame solver
(:mod:`pagoda.bots.doudizhu.solver`) instead of a rollout, and every legal action is a
candidate; past ``solve_nodes`` positions (default 4,000) the rollouts score that sample.

**Rollouts run on the native core when it is built** (``rollouts``: ``auto``, the default, or
``native`` or ``python``): each is one call to the native port of the heuristic
(:meth:`pagoda.doudizhu.native.NativeRound.heuristic_playout`, the same rounds as the Python
bot's, held equal by ``tests/native/test_doudizhu_policy.py``). With ``iterations`` both engines
give the same decision; with a ``budget`` the native one scores many more samples.

Options (``search:budget=0.1:width=6``): ``budget`` seconds per decision (default 1.0),
``iterations`` samples instead of a budget (then a decision does not depend on the machine's
speed: the same ``rng`` gives the same action), ``width`` candidates (default 6),
``solve_cards`` and ``solve_nodes`` as above, ``rollouts`` the engine of the rollouts, ``bids``
who bids: ``learned`` (the default) or ``heuristic``.
"""

import random
import time
from collections.abc import Sequence
from functools import cached_property

from pagoda.bots import Bot, Scored
from pagoda.bots.doudizhu.hand import played_cards, unseen
from pagoda.bots.doudizhu.heuristic import HeuristicBot, best_first
from pagoda.bots.doudizhu.solver import Solver, SolverBudget
from pagoda.doudizhu import Action, Round, View
from pagoda.doudizhu.actions import PASS_KIND, PLAY
from pagoda.doudizhu.cards import NUM_RANKS, ONE, counts_of, size_of
from pagoda.doudizhu.native import NativeRound
from pagoda.doudizhu.round import Phase, Setup
from pagoda.doudizhu.rules import Rules, parse_rules
from pagoda.native import ENGINES, engine_name

#: Who may bid for the search (its ``bids`` option).
BIDDERS = ("heuristic", "learned")


def determinize(view: View, rng: random.Random, decks: int = 1) -> tuple[int, ...]:
    """A packed hand per seat consistent with the view: own hand as is, the others drawn from the unseen.

    The landlord (when it is another seat) holds the kept cards it has not played yet; every
    other seat holds exactly ``view.counts[seat]`` cards; no played card appears anywhere.
    """
    me = view.seat
    n = len(view.counts)
    played = played_cards(view.history)
    left = unseen(view.hand.mask, sum(played.values()), decks)
    hands = [0] * n
    hands[me] = view.hand.mask
    need = list(view.counts)
    need[me] = 0
    landlord = view.landlord
    if landlord is not None and landlord != me and view.kitty is not None:
        kept = counts_of(view.kitty.mask)
        gone = counts_of(played.get(landlord, 0))
        for i in range(NUM_RANKS):
            k = min(max(0, kept[i] - gone[i]), left[i], need[landlord])
            if k:
                hands[landlord] += k * ONE[i]
                left[i] -= k
                need[landlord] -= k
    pool = [i for i in range(NUM_RANKS) for _ in range(left[i])]
    rng.shuffle(pool)
    at = 0
    for s in range(n):
        for i in pool[at : at + need[s]]:
            hands[s] += ONE[i]
        at += need[s]
    return tuple(hands)


def position(view: View, hands: tuple[int, ...], rules: Rules) -> Round:
    """The round the view describes, with ``hands`` as every seat's cards (for simulation)."""
    landlord = view.landlord if view.landlord is not None else 0
    plays = [0] * len(hands)
    passes = 0
    for seat, text in view.history:
        if text.startswith("play "):
            plays[seat] += 1
            passes = 0
        elif text == PASS_KIND:
            passes += 1
    kitty = view.kitty.mask if view.kitty else 0
    setup = Setup(
        rules=rules,
        seed=None,
        deals=((*hands, kitty),),
        deal_no=1,
        first=landlord,
        kitty=kitty,
        landlord=landlord,
        bid=view.bid,
        bidder=landlord,
        auction=(),
        wild=view.wild - 3 if view.wild is not None else -1,
    )
    return Round(
        setup=setup,
        phase=Phase.PLAY,
        to_move=view.to_move,
        hands=hands,
        top=view.top,
        top_seat=view.top_seat if view.top_seat is not None else -1,
        passes=passes if view.top is not None else 0,
        doubles=view.multiplier.bit_length() - 1,
        play_counts=tuple(plays),
        winner=-1,
        history=view.history,
    )


class SearchBot:
    """Determinized sampling over the heuristic's best candidates, with heuristic rollouts."""

    def __init__(
        self,
        budget: float | str = 1.0,
        iterations: int | str | None = None,
        width: int | str = 6,
        rules: Rules | str | None = None,
        solve_cards: int | str = 12,
        solve_nodes: int | str = 4_000,
        rollouts: str = "auto",
        bids: str = "learned",
    ) -> None:
        self.budget = float(budget)
        self.iterations = int(iterations) if iterations is not None else None
        self.width = int(width)
        self.solve_cards = int(solve_cards)
        self.solve_nodes = int(solve_nodes)
        self.rules = parse_rules(rules) if isinstance(rules, str) else rules
        self.heuristic = HeuristicBot(rules=self.rules)
        if rollouts not in ENGINES:
            raise ValueError(f"search bot option rollouts must be auto, native or python, not {rollouts!r}")
        #: The engine of the rollouts: ``"native"`` or ``"python"``.
        self.rollouts = engine_name(rollouts)
        if bids not in BIDDERS:
            raise ValueError(f"search bot option bids must be heuristic or learned, not {bids!r}")
        #: Who bids in the auction: ``"heuristic"`` or ``"learned"`` (the bidding network).
        self.bids = bids

    def decide(self, view: View, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        """The candidate with the best mean over the samples; in the auction, the bidder's bid."""
        if view.phase is Phase.AUCTION and len(legal_actions) > 1:
            return self.bidder.decide(view, legal_actions, rng)
        if len(legal_actions) == 1 or view.phase is not Phase.PLAY:
            return self.heuristic.decide(view, legal_actions, rng)
        for a in legal_actions:
            if a.kind == PLAY and a.combo is not None and a.combo.mask == view.hand.mask:
                return a
        candidates = self.candidates(view, legal_actions)
        if len(candidates) == 1:
            return candidates[0]
        scored = self.evaluate(view, candidates, rng)
        return max(scored, key=lambda s: s.mean).action

    @cached_property
    def bidder(self) -> Bot[View, Action]:
        """The bot that bids for this one: the heuristic, or the learned bot (made, and its
        networks read, on first use: the learned bot makes a search of its own)."""
        if self.bids == "heuristic":
            return self.heuristic
        from pagoda.bots.doudizhu.learned import LearnedBot  # it samples with this module

        return LearnedBot()

    def candidates(self, view: View, legal: Sequence[Action]) -> list[Action]:
        """The heuristic's best ``width`` actions, best first (pass always among them when legal)."""
        scores = self.heuristic.scores(view, legal)
        width = self.width if sum(view.counts) > self.solve_cards else len(legal)
        return [legal[k] for k in best_first(scores, legal, width)]

    def evaluate(self, view: View, candidates: Sequence[Action], rng: random.Random) -> list[Scored[Action]]:
        """Every candidate's mean outcome over the same samples, until the budget or iterations."""
        rules = self.heuristic.rules_for(view)
        totals = [[] for _ in candidates]  # type: list[list[float]]
        deadline = time.perf_counter() + self.budget
        done = 0
        while True:
            for k, value in enumerate(self.sample(view, candidates, rng, rules)):
                totals[k].append(value)
            done += 1
            if self.iterations is not None:
                if done >= self.iterations:
                    break
            elif time.perf_counter() >= deadline:
                break
        out = []
        for action, values in zip(candidates, totals, strict=True):
            n = len(values)
            mean = sum(values) / n
            var = sum((v - mean) ** 2 for v in values) / (n - 1) if n > 1 else 0.0
            out.append(Scored(action, mean, (var / n) ** 0.5, n))
        return out

    def sample(
        self, view: View, candidates: Sequence[Action], rng: random.Random, rules: Rules
    ) -> list[float]:
        """Every candidate's outcome for the view's side on one deal drawn by :func:`determinize`:
        exact where the deal is small enough to solve, else a rollout of each."""
        me = view.seat
        start = position(view, determinize(view, rng, rules.decks), rules)
        solved = self._solved(start, me, candidates)
        if solved:
            return solved
        base: Round | NativeRound = NativeRound(start) if self.rollouts == "native" else start
        return [self.rollout(base.apply(me, action), me, start.bid) for action in candidates]

    def _solved(self, start: Round, me: int, candidates: Sequence[Action]) -> list[float] | None:
        """Each candidate's exact outcome for ``me`` on a small enough sample, else None."""
        if sum(size_of(h) for h in start.hands) > self.solve_cards:
            return None
        try:
            points = Solver(me, self.solve_nodes).values(start, candidates)
        except SolverBudget:
            return None
        return [_value(p, start.bid) for p in points]

    def rollout(self, r: "Round | NativeRound", me: int, bid: int) -> float:
        """Finish ``r`` (in play, at ``bid``) with the heuristic at every seat; the outcome for
        ``me``'s side. A native round is finished natively, in one call."""
        if isinstance(r, NativeRound):
            return _value(r.heuristic_playout().score()[me], bid)
        bot = self.heuristic
        while not r.is_over:
            seat = r.to_move
            legal = r.legal_actions(seat)
            if len(legal) == 1:
                action = legal[0]
            else:
                scores = bot.scores(r.view(seat), legal)
                action = legal[max(range(len(legal)), key=scores.__getitem__)]
            r = r.apply(seat, action)
        return _value(r.score()[me], bid)


def _value(points: int, bid: int) -> float:
    """A finished round's value for a side: its points in bid units, plus one if it won, less one if not."""
    return points / max(1, bid) + (1.0 if points > 0 else -1.0)


__all__ = ["Scored", "SearchBot", "determinize", "position"]
