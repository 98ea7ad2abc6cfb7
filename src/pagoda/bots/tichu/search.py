"""The ``search`` Tichu bot: perfect-information Monte Carlo over consistent deals.

In play, the seat's candidate actions are scored by sampling *determinizations* — full deals
that agree with everything this seat knows — and playing each candidate out to the end of the
round with the bot it searches over (``policy``: ``club`` by default, or ``heuristic``) at
every seat. The candidate with the best mean score difference (own team minus the other) is
played. All candidates are scored on the same
determinizations, so their differences are not blurred by the luck of the sample.

A determinization keeps every public fact and nothing hidden (:func:`determinize`):

- this seat's hand is its own; cards played (on the table or in won tricks) are nowhere;
- the three cards this seat gave in the exchange stay with their receivers until played;
- each other seat gets exactly ``hand_sizes[seat]`` cards from the unseen ones;
- a seat that passed, or played another rank, while a wish it could have met with a single was
  in force holds no card of the wished rank (the cheap *void* inference);
- the round is rebuilt from the sampled hands plus the cards each seat has played, and the
  public play is replayed on it: a sample on which any public action would be illegal (a wish
  it would have had to meet, say) is drawn again.

The Grand Tichu, the exchange, ``tichu`` calls, out-of-turn bomb offers and lone choices are
left to that bot, and so is a decision whose public record is so constraining (wishes
met or refused) that 100 draws give no consistent deal. ``budget`` is checked between
determinizations, so a decision takes at least one determinization's rollouts.

**Endgames are solved.** On a determinization whose hands hold ``solve_cards`` cards or fewer
(default 10), every candidate gets its exact double-dummy value from the endgame solver
(:mod:`pagoda.bots.tichu.solver`) instead of a rollout, and every legal play is a candidate
(``width`` does not apply). Past ``solve_nodes`` positions (default 5,000) the solver gives
up on that determinization and the rollouts score it.

**Where to search.** ``search_cards`` (default 0: every play decision) limits the search to
decisions with at most that many cards left in all hands; the bot searched over takes the
others. With the heuristic's rollouts only the round's last 28 cards were worth searching;
with club's, searching the whole round beats the 28-card scheme (``docs/strength.md``).

**Rollouts run on the native core when it is built.** ``rollouts`` picks the engine of the
rollouts: ``native`` plays each one in a single call to the native port of the bot
(:meth:`pagoda.tichu.native.NativeRound.rollouts` with ``policy="club"`` or ``"heuristic"``,
the same choices as the Python bots, proven by ``tests/native/test_tichu_policy.py``),
``python`` plays them with the Python bot through the driver, ``auto`` (the default) the native one when
the native core is built. The determinizations, candidates and solver are the same; with a
fixed ``iterations`` both engines give the same decision, and with a time ``budget`` the native
one scores more determinizations (``docs/strength.md``).

**Two methods.** ``method=pimc`` (the default) is the above. ``method=ismcts`` grows an
information-set tree over the decisions that follow instead (:mod:`pagoda.bots.tichu.tree`:
club's moves at every seat, UCB1 with ``explore`` round points, ``per_deal`` iterations on each
determinization, club's native rollouts below the tree) and plays the most visited candidate;
endgames small enough to solve are solved as by PIMC. It needs the native core.

**Deals weighed by the opponents' play** (``misfit``, off by default). With ``misfit`` below 1,
each determinization weighs ``misfit`` to the power of the opponents' plays and passes so far
that the searched bot would not have made holding that deal's hands (:func:`misfits`): a
posterior over the hidden cards with the searched bot as the model of the opponents. Deals
weighing under 1% of the best drawn so far get no rollouts. Against club itself, whose play the
model is exactly, it was no stronger at 0.1 s than the uniform draw (lower means, inside the
intervals: ``docs/strength.md``).

Options: ``budget`` (seconds, default 1.0) bounds a decision; ``iterations`` (if given) fixes
the number of determinizations instead, which makes :meth:`SearchBot.decide` a function of the
view and the ``rng`` alone. ``width`` caps the candidates scored outside solved endgames (the
searched bot's favourites; its own choice is always among them).
"""

import contextlib
import math
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, Self, TypeVar

from pagoda.bots import Scored, register
from pagoda.bots.tichu.club import ClubBot
from pagoda.bots.tichu.driver import NO_BOMB, play_round
from pagoda.bots.tichu.hand import partition_cost
from pagoda.bots.tichu.heuristic import HeuristicBot
from pagoda.bots.tichu.solver import Solver, SolverBudget, cards_left, round_value, value_of
from pagoda.core import IllegalAction
from pagoda.native import engine_name
from pagoda.tichu import CARDS, Action, Combo, Round, View, classify, parse_action
from pagoda.tichu.actions import EXCHANGE, GIVE_DRAGON, PASS, PLAY, TICHU
from pagoda.tichu.cards import RANK_MASKS
from pagoda.tichu.combos import BOMBS, DOG_KIND, SINGLE
from pagoda.tichu.round import Phase

if TYPE_CHECKING:
    from pagoda.tichu.native import NativeRound


class _Replays(Protocol):
    """A reference round or its native twin: both replay a record the same way."""

    @property
    def window(self) -> tuple[int, ...]: ...

    def apply(self, seat: int, action: Any) -> Self: ...


AnyRound = TypeVar("AnyRound", bound=_Replays)

#: The bots a search can roll out with (both are ported to the native core).
POLICIES: dict[str, type[HeuristicBot]] = {"club": ClubBot, "heuristic": HeuristicBot}


@dataclass(frozen=True, slots=True)
class Facts:
    """What the public record of a round (and this seat's own exchange) pins down."""

    play_start: int  # index of the first play-phase event
    played_by: tuple[int, int, int, int]  # cards each seat has played, as masks
    known: tuple[int, int, int, int]  # unseen cards known to be in each seat's hand
    voids: tuple[int, int, int, int]  # ranks (as a mask of rank bits) each seat cannot hold
    early_calls: tuple[int, ...]  # seats that called Tichu before the play began


def read_facts(view: View) -> Facts:
    """The public facts of ``view`` a determinization must respect (see the module doc)."""
    events = view.events
    exchanges = [i for i, (_, text) in enumerate(events) if text.split()[0] == EXCHANGE]
    start = exchanges[3] + 1 if len(exchanges) == 4 else 0
    early = tuple(sorted({s for s, text in events[:start] if text == TICHU}))
    played = [0, 0, 0, 0]
    voids = [0, 0, 0, 0]
    top: Combo | None = None
    wish = 0
    for seat, text in events[start:]:
        word = text.split()[0]
        if word == PLAY:
            act = parse_action(text)
            played[seat] |= act.mask
            bomb = act.mask.bit_count() >= 4 and (classify(act.mask) or top or _NONE).kind in BOMBS
            if wish and not act.mask & RANK_MASKS[wish] and not bomb and _could_single(top, wish):
                voids[seat] |= 1 << wish
            if wish and act.mask & RANK_MASKS[wish]:
                wish = 0
            if act.wish:
                wish = 0 if act.mask & RANK_MASKS[act.wish] else act.wish
            combo = classify(act.mask, top)
            top = None if combo is None or combo.kind == DOG_KIND else combo
        elif word == PASS:
            if wish and _could_single(top, wish):
                voids[seat] |= 1 << wish
        elif word in ("take", GIVE_DRAGON):
            top = None
    known = [0, 0, 0, 0]
    if view.given is not None:
        for k, card in enumerate(view.given):
            holder = (view.seat + 1 + k) & 3
            if not view.played >> card & 1 and holder != view.seat:
                known[holder] |= 1 << card
    return Facts(
        start,
        (played[0], played[1], played[2], played[3]),
        (known[0], known[1], known[2], known[3]),
        (voids[0], voids[1], voids[2], voids[3]),
        early,
    )


_NONE = Combo(SINGLE, 0, 0)


def _could_single(top: Combo | None, wish: int) -> bool:
    """Could a natural single of rank ``wish`` be played now (lead, or on a lower single)?"""
    if top is None:
        return True
    return top.kind == SINGLE and top.rank < wish


def sample_hands(view: View, facts: Facts, rng: random.Random, use_voids: bool = True) -> list[int] | None:
    """Hidden hands for the other seats, consistent with ``facts``; None if a draw fails."""
    hands = [0, 0, 0, 0]
    hands[view.seat] = view.hand
    need = [0, 0, 0, 0]
    pool = view.unseen
    for s in range(4):
        if s != view.seat:
            hands[s] = facts.known[s]
            pool &= ~facts.known[s]
            need[s] = view.hand_sizes[s] - facts.known[s].bit_count()
            if need[s] < 0:
                return None
    cards = [c for c in range(56) if pool >> c & 1]
    if len(cards) != sum(need):
        return None
    rng.shuffle(cards)

    def allowed(card: int) -> list[int]:
        rank = CARDS[card].rank
        return [
            s
            for s in range(4)
            if s != view.seat
            and need[s] > 0
            and not (use_voids and 2 <= rank <= 14 and facts.voids[s] >> rank & 1)
        ]

    # the most constrained cards first; each goes to an allowed seat in proportion to its room
    cards.sort(key=lambda c: len(allowed(c)))
    for card in cards:
        seats = allowed(card)
        if not seats:
            return None
        pick = rng.randrange(sum(need[s] for s in seats))
        for s in seats:
            pick -= need[s]
            if pick < 0:
                break
        hands[s] |= 1 << card
        need[s] -= 1
    return hands


def rebuild(view: View, facts: Facts, hands: Sequence[int]) -> Round:
    """The round with these hidden ``hands`` and the public history of ``view`` replayed on it.

    Raises :class:`~pagoda.core.IllegalAction` when the history is impossible with these hands.
    Grand Tichu calls are rebuilt as Tichu calls (see :func:`round_value`).
    """
    r = play_start(view, facts, hands)
    # The events hold the view's own no-bomb answers only: the other seats of a bomb window
    # (which the sampled hands open on their own) let each trick go before it is taken.
    for seat, text in view.events[facts.play_start :]:
        if text == "take" or text.startswith("give-dragon"):
            r = _let_go(r, view.seat)
        r = r.apply(seat, text)
    return _let_go(r, view.seat)


def play_start(view: View, facts: Facts, hands: Sequence[int]) -> Round:
    """The round at the start of the play phase had the other seats now held ``hands``: each
    seat's hand and the cards it has played, the Tichu calls made before the play."""
    start = [hands[s] | facts.played_by[s] for s in range(4)]
    r = Round.from_hands(start, view.rules)
    for s in range(4):
        if s in facts.early_calls or view.grand_calls[s]:
            with contextlib.suppress(IllegalAction):
                r = r.apply(s, TICHU)
    return r


def misfits(view: View, facts: Facts, det: Round, policy: str = "club", engine: str = "native") -> int:
    """How many plays and passes of the other team in ``view``'s record ``policy`` would not
    have made, had they held the hands of the determinization ``det``.

    The record is replayed from the start of the play phase with ``det``'s hands; at each play
    or pass of an opponent on its turn (not a bomb out of turn), the bot ``policy`` is asked
    what it would do there, on ``engine`` (``native``: the native port, ``python``: the bot).
    Against that bot the real deal scores 0. The partner's play is not counted: it is often
    this search's, which is not the bot's. :meth:`SearchBot.evaluate` weighs each
    determinization by ``misfit`` to this power.
    """
    start = play_start(view, facts, [det.hand_mask(s) for s in range(4)])
    r: Round | NativeRound = start
    if engine == "native":
        from pagoda.tichu.native import from_reference

        r = from_reference(start)
    base: HeuristicBot | None = None  # the Python bot, made on first use
    count = 0
    for seat, text in view.events[facts.play_start :]:
        if text == "take" or text.startswith("give-dragon"):
            r = _let_go(r, view.seat)
        if (seat ^ view.seat) & 1 and not r.window and r.to_move == seat and text.split()[0] in (PLAY, PASS):
            if isinstance(r, Round):
                base = base or POLICIES[policy]()
                legal = r.decisions()[0].actions
                would = base.decide(fast_view(r, seat), legal, random.Random(0))
            else:
                would = r.club_action() if policy == "club" else r.heuristic_action()
            done = parse_action(text)
            if would.kind != done.kind or would.mask != done.mask:
                count += 1
        r = r.apply(seat, text)
    return count


def _let_go(r: AnyRound, seat: int) -> AnyRound:
    """``r`` (a reference or a native round) after every seat of its bomb window but ``seat``
    answers ``no-bomb``."""
    for asked in r.window:
        if asked != seat:
            r = r.apply(asked, "no-bomb")
    return r


class NoDeal(RuntimeError):
    """No deal consistent with the view was drawn in the tries allowed."""


def determinize(view: View, rng: random.Random, tries: int = 100, facts: Facts | None = None) -> Round:
    """A full round consistent with everything ``view`` knows (see the module doc).

    A view without its public record (``events`` empty: a position set up by hand) is rebuilt
    with :meth:`Round.from_view`, with no replay to check the sample against. ``facts`` are
    :func:`read_facts` of ``view``, read here unless given (a search drawing many deals of one
    view reads them once).
    """
    if facts is None:
        facts = read_facts(view)
    for attempt in range(tries):
        hands = sample_hands(view, facts, rng, use_voids=attempt < tries // 2)
        if hands is None:
            continue
        if not view.events:
            return Round.from_view(view, hands)
        try:
            return rebuild(view, facts, hands)
        except IllegalAction:
            continue
    raise NoDeal("no deal consistent with the view was found")


def fast_view(r: Round, seat: int) -> View:
    """A view without the event log, for simulated players (club and the heuristic never read it)."""
    return r.view(seat, events=False)


def _native_rollouts() -> bool:
    """Is the native core built, with its bot rollouts (an older build has none)?"""
    if engine_name() != "native":
        return False
    from pagoda.tichu.native import NativeRound

    return hasattr(NativeRound, "club_action")


class SearchBot:
    """PIMC over consistent determinizations with rollouts of club or the heuristic (see the module doc)."""

    def __init__(
        self,
        budget: float | str = 1.0,
        iterations: int | str | None = None,
        width: int | str = 8,
        solve_cards: int | str = 10,
        solve_nodes: int | str = 5_000,
        search_cards: int | str = 0,
        rollouts: str = "auto",
        policy: str = "club",
        method: str = "pimc",
        explore: float | str = 100.0,
        per_deal: int | str = 4,
        misfit: float | str = 1.0,
        **_: object,
    ) -> None:
        self.budget = float(budget)
        self.iterations = int(iterations) if iterations not in (None, "") else None
        self.width = int(width)
        self.solve_cards = int(solve_cards)
        self.solve_nodes = int(solve_nodes)
        self.search_cards = int(search_cards)
        for name in ("width", "solve_nodes"):
            if getattr(self, name) < 1:
                raise ValueError(f"search bot option {name} must be at least 1, not {getattr(self, name)}")
        if rollouts not in ("auto", "native", "python"):
            raise ValueError(f"search bot option rollouts must be auto, native or python, not {rollouts!r}")
        if policy not in POLICIES:
            raise ValueError(f"search bot option policy must be club or heuristic, not {policy!r}")
        if method not in ("pimc", "ismcts"):
            raise ValueError(f"search bot option method must be pimc or ismcts, not {method!r}")
        self.method = method
        self.misfit = float(misfit)
        if not 0.0 < self.misfit <= 1.0:
            raise ValueError(f"search bot option misfit must be above 0 and at most 1, not {self.misfit}")
        # determinizations with this many misfits more than the best seen weigh under 1%: skipped
        self._skip = math.ceil(math.log(0.01) / math.log(self.misfit)) if self.misfit < 1.0 else 1 << 30
        self.explore = float(explore)
        self.per_deal = int(per_deal)
        if self.per_deal < 1:
            raise ValueError(f"search bot option per_deal must be at least 1, not {self.per_deal}")
        #: The engine of the rollouts: ``"native"`` or ``"python"`` (see the module doc).
        self.rollouts = engine_name(rollouts) if rollouts != "auto" or _native_rollouts() else "python"
        if method == "ismcts" and self.rollouts != "native":
            raise ValueError("search bot option method=ismcts needs the native rollouts (make native)")
        #: The bot searched over: it plays the rollouts, names the first candidate and takes the
        #: decisions outside the search (``"club"`` or ``"heuristic"``).
        self.policy = policy
        self.base: HeuristicBot = POLICIES[policy]()
        self._rollout_bots = [self.base] * 4
        #: Rollouts played so far (both engines count them alike: one per candidate scored).
        self.rollout_count = 0

    def decide(self, view: View, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        """The candidate with the best mean rollout value (the searched bot's outside of play)."""
        if view.phase is not Phase.PLAY or NO_BOMB in legal_actions:
            return self.base.decide(view, legal_actions, rng)
        if self.search_cards and sum(view.hand_sizes) > self.search_cards:
            return self.base.decide(view, legal_actions, rng)
        if any(a.kind == TICHU for a in legal_actions) and self.base._call_tichu(view):
            return next(a for a in legal_actions if a.kind == TICHU)
        candidates = self.candidates(view, legal_actions)
        if len(candidates) == 1:
            return candidates[0]
        try:
            scored = self.evaluate(view, candidates, rng)
        except NoDeal:  # the public record is too constraining to sample: trust the bot
            return candidates[0]
        if self.method == "ismcts":  # the most visited (the tree's choice), then the best mean
            return max(scored, key=lambda s: (s.samples, s.mean)).action
        return max(scored, key=lambda s: s.mean).action

    def candidates(self, view: View, legal: Sequence[Action]) -> list[Action]:
        """The actions worth scoring: one per card set, the searched bot's choice first."""
        own = self.base.decide(view, legal, random.Random(0))
        seen: dict[tuple[str, int, int], Action] = {(own.kind, own.mask, own.target): own}
        for a in legal:
            if a.kind == TICHU:
                continue
            key = (a.kind, a.mask, a.target)
            if key not in seen:
                seen[key] = a
        rest = [a for a in seen.values() if a is not own]
        hand = view.hand

        def rank(a: Action) -> tuple[int, float, int]:
            if a.kind != PLAY:
                return (0, 0.0, 0)
            combo_rank = float(a.combo.rank) if a.combo is not None else 0.0
            return (partition_cost(hand & ~a.mask), combo_rank, a.mask)

        rest.sort(key=rank)
        width = self.width if sum(view.hand_sizes) > self.solve_cards else len(rest) + 1
        if own.kind == PLAY and own.wish:  # the other sets with the Mah Jong: the same wish
            rest = [
                next((b for b in legal if b.mask == a.mask and b.wish == own.wish), a)
                if a.mask == own.mask
                else a
                for a in rest
            ]
        return [own, *rest[: max(0, width - 1)]]

    def evaluate(self, view: View, candidates: Sequence[Action], rng: random.Random) -> list[Scored[Action]]:
        """Mean value (own team minus the other, in round points) of each candidate."""
        if self.method == "ismcts" and sum(view.hand_sizes) > self.solve_cards:
            return self._tree(view, candidates, rng)
        team = view.seat & 1
        facts = read_facts(view)
        weigh = self.misfit < 1.0 and bool(view.events)
        # each scored determinization: its misfits (0 unless weighed) and the candidates' values
        scored: list[tuple[int, list[float]]] = []
        fewest = 1 << 30  # the fewest misfits of a determinization so far
        n = 0
        deadline = time.perf_counter() + self.budget
        limit = self.iterations if self.iterations is not None else 1 << 30
        while n < limit and (self.iterations is not None or n == 0 or time.perf_counter() < deadline):
            try:
                det = determinize(view, rng, facts=facts)
            except NoDeal:
                if n == 0:
                    raise
                break
            seed = rng.getrandbits(32)
            n += 1
            count = misfits(view, facts, det, self.policy, self.rollouts) if weigh else 0
            if count > fewest + self._skip:  # weighs under 1% of the best seen: not worth its rollouts
                continue
            fewest = min(fewest, count)
            values = self._solved(det, view.seat, candidates, team, view.grand_calls)
            if values is None:
                self.rollout_count += len(candidates)
                if self.rollouts == "native":
                    values = native_values(det, view.seat, candidates, team, view.grand_calls, self.policy)
                else:
                    values = [
                        self._rollout(det, view.seat, action, seed, team, view.grand_calls)
                        for action in candidates
                    ]
            scored.append((count, values))
        weights = [self.misfit ** (count - fewest) for count, _ in scored]
        total = sum(weights)
        samples = total * total / sum(w * w for w in weights)  # the effective sample size
        out = []
        for i, action in enumerate(candidates):
            mean = sum(w * values[i] for w, (_, values) in zip(weights, scored, strict=True)) / total
            var = (
                sum(w * (values[i] - mean) ** 2 for w, (_, values) in zip(weights, scored, strict=True))
                / total
            )
            error = math.sqrt(var / samples) if len(scored) > 1 else math.inf
            out.append(Scored(action, mean, error, len(scored)))
        return out

    def _tree(self, view: View, candidates: Sequence[Action], rng: random.Random) -> list[Scored[Action]]:
        """Each candidate's mean and visits in an ISMCTS tree (:mod:`pagoda.bots.tichu.tree`)."""
        from pagoda.bots.tichu.tree import Tree
        from pagoda.tichu.native import from_reference

        tree = Tree(view.seat, candidates, view.grand_calls, self.width, self.explore)
        facts = read_facts(view)
        n = 0
        deadline = time.perf_counter() + self.budget
        limit = self.iterations if self.iterations is not None else 1 << 30
        while n < limit and (self.iterations is not None or n == 0 or time.perf_counter() < deadline):
            try:
                det = from_reference(determinize(view, rng, facts=facts))
            except NoDeal:
                if n == 0:
                    raise
                break
            for _ in range(self.per_deal):
                tree.iterate(det)
            self.rollout_count += self.per_deal
            n += 1
        out = []
        for action in candidates:
            child = tree.root.children.get(action)
            visits = child.visits if child is not None else 0
            mean = child.total / visits if child is not None and visits else -math.inf
            out.append(Scored(action, mean, math.inf, visits))
        return out

    def _solved(
        self, det: Round, seat: int, candidates: Sequence[Action], team: int, grands: Sequence[bool]
    ) -> list[float] | None:
        """Each candidate's exact value on ``det`` when it is small enough to solve, else None."""
        if cards_left(det) > self.solve_cards:
            return None
        solver = Solver(team, grands, self.solve_nodes)
        try:
            return solver.values(det, seat, candidates)
        except SolverBudget:
            return None

    def _rollout(
        self, det: Round, seat: int, action: Action, seed: int, team: int, grands: Sequence[bool]
    ) -> float:
        bots = self._rollout_bots
        rngs = [random.Random(seed + s) for s in range(4)]
        r = play_round(det.apply(seat, action), bots, rngs=rngs, view_of=fast_view)
        return float(round_value(r, team, grands))


def native_values(
    det: Round,
    seat: int,
    candidates: Sequence[Action],
    team: int,
    grands: Sequence[bool],
    policy: str = "club",
) -> list[float]:
    """Each candidate's value for ``team`` on ``det`` (:func:`~pagoda.bots.tichu.solver.value_of`,
    ``grands`` the public Grand Tichu calls), the round played out by ``policy`` at every seat on
    the native core (one rollout each)."""
    from pagoda.tichu.native import from_reference

    core = from_reference(det)
    values = []
    for action in candidates:
        a, b, first = core.apply(seat, action).rollouts(1, 0, policy=policy, first_out=True)[0]
        values.append(float(value_of((int(a), int(b)), int(first), team, grands)))
    return values


register("tichu", "search", level=2)(SearchBot)
