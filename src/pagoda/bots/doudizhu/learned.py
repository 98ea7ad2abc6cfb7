"""The ``learned`` Dou Di Zhu bot: Q(state, action) networks trained by deep Monte-Carlo self-play.

Four small multilayer perceptrons, run with numpy alone, score the candidates of a decision: in
the play the heuristic's best ``width`` actions (6 by default, the pass too when it is legal), in
the auction every bid. The bot plays the candidate of highest score where it beats the heuristic's
own choice by more than ``margin`` (``bid_margin`` in the auction; in the networks' units), else
the heuristic's choice (no randomness at play time; :func:`consult` and :class:`LearnedBot`):

- three **play** networks, one per role: the landlord, the peasant who plays right after the
  landlord (``down``) and the one who plays right before it (``up``). Each sees the state as its
  seat's :class:`~pagoda.doudizhu.View` shows it (:func:`play_features`): its own hand, the cards
  no other seat has shown, the cards each other seat has played, the cards each has left, the bid
  and the bombs so far, the play on the table and who made it, each other seat's last action in
  play, and the fewest combinations its hand plays out in; and the candidate action: its cards,
  its kind and rank, and the hand it leaves (the cards and the fewest combinations they need).
- a **bidding** network (:func:`bid_features`): the hand, its strength as the heuristic reads it,
  the auction so far (who spoke, what they bid) and the candidate bid.

Trained on the results of self-play rounds (``pagoda train doudizhu --targets result``), every
network predicts the round's result for the seat that acts (+1 won, -1 lost); trained on rollouts
(``--targets rollout``), it predicts what each candidate gains over the heuristic's choice when
the heuristic plays the deal out at every seat, in the same units halved (+1: the candidate wins
a round the heuristic's choice loses). The shipped play networks are rollout-trained, three
checkpoints of one run (320,000, 360,000 and 400,000 rounds) whose values the bot averages
(:class:`Ensemble`), the shipped bidding network result-trained for that play (:data:`BIDS`:
``--bids-for`` the three, from the bidding network shipped before them). See
:mod:`pagoda.train.doudizhu` and ``docs/strength.md``. The shipped weights (:data:`WEIGHTS` and
:data:`BIDS`, half precision) are read the first time a bot needs them.

**With ``samples``** (``learned:samples=64``; 0, the networks alone, by default) the bot also
plays each candidate out on that many deals drawn as the search draws them
(:meth:`pagoda.bots.doudizhu.search.SearchBot.sample`: consistent with everything public, the
heuristic finishing the round at every seat, small endgames solved), and weighs each candidate's
sampled gain (the share of the deals it wins less the share the heuristic's choice wins) with the
networks' value, which counts as ``prior`` deals (16 by default): networks and sampling at play
time, a few milliseconds a decision on the native core.

The bot plays any three-player, one-pack preset without wild cards (``classic``,
``rlcard``, ``openspiel``); with ``rob=true`` the call and rob are the heuristic's, and on other
presets (``four_player``, ``laizi``) it plays the heuristic's moves throughout.

>>> from pagoda import doudizhu as ddz
>>> from pagoda.bots.doudizhu import play_round
>>> r = play_round(ddz.Round.new(seed=7), [LearnedBot(), LearnedBot(), LearnedBot()], seed=7)
>>> r.is_over, sum(r.score())
(True, 0)
"""

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from pagoda.bots import number_option
from pagoda.bots.doudizhu.hand import min_plays, played_cards, unseen
from pagoda.bots.doudizhu.heuristic import HeuristicBot, best_first, strength
from pagoda.bots.doudizhu.search import SearchBot
from pagoda.doudizhu import Action, View
from pagoda.doudizhu.actions import BID, PASS_KIND, PLAY
from pagoda.doudizhu.cards import NUM_RANKS, counts_of, parse_mask, size_of
from pagoda.doudizhu.combos import KINDS
from pagoda.doudizhu.round import Phase
from pagoda.doudizhu.rules import Rules
from pagoda.train.mlp import MLP, Array, load_nets, read_nets, save_nets

#: the version of the feature layout: weights trained on another layout are refused
FEATURES_VERSION = 2
#: the play networks, by role, and the bidding network
ROLES = ("landlord", "down", "up")
NETS = (*ROLES, "bid")
#: the shipped weights, inside the package: the 360,000-round checkpoint, then the 320,000 and
#: 400,000 ones, valued together (each with the same bidding network, which :data:`BIDS` replaces)
WEIGHTS = ("learned_doudizhu.npz", "learned_doudizhu_320k.npz", "learned_doudizhu_400k.npz")
#: the shipped bidding network: 80,000 rounds of training for the play of :data:`WEIGHTS`
#: (``pagoda train doudizhu --bids-for``; the file's play networks are the 360,000-round ones, unused)
BIDS = "learned_doudizhu_bids.npz"
#: the heuristic's best actions a play network weighs (and the pass, when it is legal)
WIDTH = 6
#: the margin by default: the shipped networks', chosen on tuning deals (docs/strength.md)
MARGIN = 0.05
#: the same for the bidding network (its own, not the play's)
BID_MARGIN = 0.0
#: with ``samples``, how many sampled deals the networks' values count as
PRIOR = 16.0

_KIND_INDEX = {k: i for i, k in enumerate(KINDS)}
_NK = len(KINDS)
_THERMO = NUM_RANKS * 4
_STEPS = np.arange(4)
_ADVISOR = HeuristicBot()


@lru_cache(maxsize=1 << 16)
def _thermo(mask: int) -> Array:
    """Cards as 4 bits per rank: bit k of rank r is set when the cards hold more than k of r."""
    c = np.asarray(counts_of(mask))
    return (c[:, None] > _STEPS).astype(np.float32).ravel()


def _counts(mask: int) -> Array:
    return np.asarray(counts_of(mask), np.float32) / 4.0


def _left(n: int) -> list[float]:
    return [n / 20.0, float(n == 1), float(n == 2), float(n <= 4)]


def supported(rules: Rules) -> bool:
    """Whether the networks can play ``rules`` (three seats, one pack, no wild cards)."""
    return rules.players == 3 and rules.decks == 1 and rules.wild == "none"


def role_of(view: View) -> int:
    """0 landlord, 1 the peasant after it, 2 the peasant before it."""
    landlord = view.landlord if view.landlord is not None else 0
    return (view.seat - landlord) % 3


def _last_plays(view: View) -> tuple[list[str | None], int]:
    """Each seat's last action in play (None: none yet) and where the play began in the history."""
    history = view.history
    begin = next((i for i, (_, a) in enumerate(history) if a.startswith("play ")), len(history))
    last: list[str | None] = [None, None, None]
    for seat, text in history[begin:]:
        last[seat] = text
    return last, begin


def _action_part(text: str | None) -> list[float]:
    if text is None:
        return [0.0] * (NUM_RANKS + 2)
    if text == PASS_KIND:
        return [0.0] * NUM_RANKS + [1.0, 1.0]
    mask = parse_mask(text[5:].partition(" as ")[0])
    return [*(c / 4.0 for c in counts_of(mask)), 0.0, 1.0]


def state_features(view: View) -> Array:
    """The play state as the seat to act sees it (see the module's text), one row."""
    me = view.seat
    nxt, prv = (me + 1) % 3, (me + 2) % 3
    rules = view.rules
    hand = view.hand.mask
    played = played_cards(view.history)
    hidden = unseen(hand, sum(played.values()), rules.decks)
    role = role_of(view)
    last, _ = _last_plays(view)
    top = view.top if view.top_seat is not None and view.top_seat != me else None
    top_part = [0.0] * (NUM_RANKS + _NK + 4)
    if top is not None:
        top_part[:NUM_RANKS] = [c / 4.0 for c in counts_of(top.mask)]
        top_part[NUM_RANKS + _KIND_INDEX[top.kind]] = 1.0
        k = NUM_RANKS + _NK
        top_part[k] = float(view.top_seat == nxt)
        top_part[k + 1] = float(view.top_seat == prv)
        top_part[k + 2] = float(role != 0 and view.top_seat != view.landlord)  # the teammate's
        top_part[k + 3] = (top.rank - 3) / 14.0
    scalars = [
        *(float(role == k) for k in range(3)),
        view.bid / 3.0,
        math.log2(max(1, view.multiplier)) / 4.0,
        float(top is None),
        min_plays(hand, rules) / 10.0,
        *_left(view.counts[me]),
        *_left(view.counts[nxt]),
        *_left(view.counts[prv]),
    ]
    return np.concatenate(
        [
            _thermo(hand),
            (np.asarray(hidden)[:, None] > _STEPS).astype(np.float32).ravel(),
            _counts(played.get(nxt, 0)),
            _counts(played.get(prv, 0)),
            np.asarray(top_part + _action_part(last[nxt]) + _action_part(last[prv]) + scalars, np.float32),
        ]
    )


def action_row(hand: int, action: Action, rules: Rules) -> Array:
    combo = action.combo if action.kind == PLAY else None
    kind = np.zeros(_NK + 1, np.float32)
    if combo is None:
        kind[_NK] = 1.0
        cards = _thermo(0)
        rest = hand
        extra = [0.0, 0.0, 0.0]
    else:
        kind[_KIND_INDEX[combo.kind]] = 1.0
        cards = _thermo(combo.mask)
        rest = hand - combo.mask
        extra = [(combo.rank - 3) / 14.0, combo.length / 12.0, float(combo.is_bomb)]
    after = [min_plays(rest, rules) / 10.0 if rest else 0.0, size_of(rest) / 20.0, float(rest == 0)]
    return np.concatenate([cards, kind, _thermo(rest), np.asarray(extra + after, np.float32)])


def advice(view: View, legal: Sequence[Action]) -> list[float]:
    """The heuristic bot's score of every legal action (it, too, reads only the view)."""
    return _ADVISOR.scores(view, legal)


def play_features(view: View, legal: Sequence[Action], scores: Sequence[float] | None = None) -> Array:
    """One row per legal action: the state (:func:`state_features`), the action's own part and the
    heuristic's advice (whether it would play the action, how far the action's score is below the
    best, in combinations); ``scores``: :func:`advice`, when already at hand."""
    state = state_features(view)
    hand = view.hand.mask
    rows = [action_row(hand, a, view.rules) for a in legal]
    s = np.asarray(advice(view, legal) if scores is None else scores, np.float64)
    best = int(np.argmax(s))
    gap = np.clip((s - s[best]) / 10.0, -3.0, 0.0)
    out = np.empty((len(rows), len(state) + len(rows[0]) + 2), np.float32)
    out[:, : len(state)] = state
    out[:, len(state) : -2] = rows
    out[:, -2] = 0.0
    out[best, -2] = 1.0
    out[:, -1] = gap
    return out


def bid_features(view: View, legal: Sequence[Action]) -> Array:
    """One row per auction action: the hand, its strength, the auction so far and the candidate bid."""
    hand = view.hand.mask
    rules = view.rules
    history = view.history
    current = history[len(history) - len(history) % 3 :]  # an all-pass auction redeals: 3 passes
    me = view.seat
    spoke = [0.0] * 6
    for seat, text in current:
        rel = (seat - me) % 3 - 1  # 0: the next seat, 1: the previous
        spoke[2 * rel] = 1.0
        spoke[2 * rel + 1] = int(text.split()[1]) / 3.0 if text.startswith("bid ") else 0.0
    base = [
        *_thermo(hand),
        strength(hand, rules) / 10.0,
        min_plays(hand, rules) / 10.0,
        *(float(len(current) == k) for k in range(3)),
        *(float(view.bid == k) for k in range(4)),
        *spoke,
        float(len(history) >= 3),  # a redeal happened
    ]
    hint = _ADVISOR.bid(view, legal)
    out = np.zeros((len(legal), len(base) + 5), np.float32)
    out[:, : len(base)] = base
    for i, a in enumerate(legal):
        out[i, len(base) + (a.bid if a.kind == BID else 0)] = 1.0
        out[i, -1] = float(a == hint)  # the heuristic's bid
    return out


def play_width() -> int:
    """The width of a play network's input row."""
    return (
        _THERMO * 2
        + NUM_RANKS * 2
        + (NUM_RANKS + _NK + 4)
        + 2 * (NUM_RANKS + 2)
        + 19
        + (_THERMO * 2 + _NK + 1 + 6 + 2)
    )


def bid_width() -> int:
    """The width of the bidding network's input row."""
    return _THERMO + 2 + 3 + 4 + 6 + 1 + 5


class Model:
    """The four networks and what they were trained on (``meta``): episodes, feature version."""

    def __init__(self, hidden: Sequence[int] = (256, 128), seed: int = 0) -> None:
        self.hidden = list(hidden)
        self.nets = {
            name: MLP([bid_width() if name == "bid" else play_width(), *self.hidden, 1], seed=seed + k)
            for k, name in enumerate(NETS)
        }
        self.meta: dict[str, Any] = {"features": FEATURES_VERSION, "hidden": self.hidden, "episodes": 0}

    def q(self, name: str, x: Array) -> Array:
        """The network ``name``'s values of the rows ``x``."""
        out: Array = self.nets[name].forward(x)
        return out

    def save(self, path: str, optimizer: bool = True, half: bool = False) -> None:
        """Write the model as a compressed npz (atomically); ``optimizer`` keeps Adam's state for
        ``--resume``, ``half`` stores the weights in half precision (the shipped file)."""
        save_nets(path, self.nets, self.meta, optimizer, half)

    @classmethod
    def load(cls, source: str | bytes) -> "Model":
        """Read a model written by :meth:`save` (a path, or the file's bytes)."""
        meta, data = read_nets(source, FEATURES_VERSION)
        model = cls(hidden=meta["hidden"])
        model.meta = meta
        load_nets(model.nets, data)
        return model


class Ensemble:
    """Several models valued as one: each network's values are the mean of the members' (the
    bot's ``weights=a.npz+b.npz``; checkpoints of one run, say)."""

    def __init__(self, members: Sequence[Model]) -> None:
        if not members:
            raise ValueError("an ensemble needs at least one model")
        self.members = list(members)

    def q(self, name: str, x: Array) -> Array:
        """The mean of the members' values of the rows ``x`` by their network ``name``."""
        out: Array = np.mean([m.q(name, x) for m in self.members], axis=0)
        return out


class Valuer(Protocol):
    """What the bot values its candidates by: a :class:`Model`, an :class:`Ensemble`, or a
    :class:`BidsFor`."""

    def q(self, name: str, x: Array) -> Array: ...


class BidsFor:
    """The bidding network of ``bids`` with the play networks of ``play``: a bidding network
    trained for that play (``pagoda train doudizhu --bids-for``)."""

    def __init__(self, bids: Valuer, play: Valuer) -> None:
        self.bids, self.play = bids, play

    def q(self, name: str, x: Array) -> Array:
        """The values of the rows ``x`` by ``bids``' bidding network, or ``play``'s network ``name``."""
        return (self.bids if name == "bid" else self.play).q(name, x)


def load_weights(weights: str) -> Model | Ensemble:
    """The model of a weights file, or the :class:`Ensemble` of several joined by ``+``."""
    paths = weights.split("+")
    if any(not p for p in paths):
        raise ValueError(f"weights {weights!r} name an empty file: join the files with single '+'")
    return Model.load(paths[0]) if len(paths) == 1 else Ensemble([Model.load(p) for p in paths])


@lru_cache(maxsize=1)
def shipped() -> BidsFor:
    """The weights that come with the package, read on first use: the bids of :data:`BIDS`, the
    play of :data:`WEIGHTS` valued together."""
    package = resources.files("pagoda.bots.doudizhu")

    def read(name: str) -> Model:
        return Model.load(package.joinpath(name).read_bytes())

    return BidsFor(read(BIDS), Ensemble([read(name) for name in WEIGHTS]))


@dataclass(frozen=True, slots=True)
class Choice:
    """A decision as the networks weigh it: the network, the candidates, their rows (one each)
    and the heuristic's choice among them (``advice``)."""

    net: str
    candidates: list[Action]
    rows: Array
    advice: int


def consult(
    view: View, legal: Sequence[Action], width: int = WIDTH, scores: Sequence[float] | None = None
) -> Choice:
    """The candidates of a decision with a choice: every auction action, or the heuristic's best
    ``width`` plays (:func:`~pagoda.bots.doudizhu.heuristic.best_first`, its choice first);
    ``scores``: :func:`advice` in the play, when already at hand (a native round's
    ``heuristic_scores``, the same numbers)."""
    if view.phase is Phase.AUCTION:
        rows = bid_features(view, legal)
        return Choice("bid", list(legal), rows, int(np.argmax(rows[:, -1])))
    if scores is None:
        scores = advice(view, legal)
    picked = best_first(scores, legal, width)
    candidates = [legal[k] for k in picked]
    rows = play_features(view, candidates, [scores[k] for k in picked])
    return Choice(ROLES[role_of(view)], candidates, rows, 0)


def sampled_gains(
    search: SearchBot, view: View, choice: Choice, samples: int, rng: random.Random
) -> npt.NDArray[np.float64]:
    """Each candidate's share of ``samples`` deals won, less the heuristic's choice's: the deals drawn
    from ``rng`` as the search draws them (:meth:`~pagoda.bots.doudizhu.search.SearchBot.sample`:
    consistent with the view, every candidate played on each and the round finished by the heuristic
    at every seat, or solved when small). The networks' units: +1, the candidate wins every deal the
    heuristic's choice loses."""
    wins = np.zeros(len(choice.candidates))
    for _ in range(samples):
        wins += np.asarray(search.sample(view, choice.candidates, rng, view.rules)) > 0
    out: npt.NDArray[np.float64] = (wins - wins[choice.advice]) / samples
    return out


class LearnedBot:
    """Plays the candidate its networks value highest where it beats the heuristic's choice by
    more than ``margin``, else the heuristic's choice; bids the same way with the bidding network.
    ``weights``: a file written by ``pagoda train doudizhu``, or several joined by ``+`` whose
    values are averaged (:class:`Ensemble`); ``bids``: a file whose bidding network bids instead of
    theirs (:class:`BidsFor`; one trained ``--bids-for`` that play); ``samples`` and ``prior``:
    the play's values weighed with sampled deals' (see the module's text)."""

    def __init__(
        self,
        model: Valuer | None = None,
        weights: str | None = None,
        margin: float | str = MARGIN,
        width: int | str = WIDTH,
        bid_margin: float | str = BID_MARGIN,
        bids: str | None = None,
        samples: int | str = 0,
        prior: float | str = PRIOR,
    ) -> None:
        play = model if model is not None else load_weights(weights) if weights else None
        self._bids = Model.load(bids) if bids else None
        self._model = BidsFor(self._bids, play) if self._bids and play else play
        self.margin: float = number_option("learned", "margin", margin, 0.0)
        self.bid_margin: float = number_option("learned", "bid_margin", bid_margin, 0.0)
        self.width: int = number_option("learned", "width", width, 1, int)
        self.samples: int = number_option("learned", "samples", samples, 0, int)
        self.prior: float = number_option("learned", "prior", prior, 0.0)
        self._fallback = HeuristicBot()
        self._search = SearchBot()  # only its sample(): the deals a decision are ``samples``

    @property
    def model(self) -> Valuer:
        """The networks (the shipped ones unless others were given)."""
        if self._model is None:
            self._model = shipped() if self._bids is None else BidsFor(self._bids, shipped())
        return self._model

    def decide(self, view: View, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        """The candidate of highest value (the heuristic's unless another beats it by more than the
        margin); the heuristic's move on presets the networks do not play."""
        if len(legal_actions) == 1:
            return legal_actions[0]
        rules = view.rules
        if not supported(rules) or (view.phase is Phase.AUCTION and rules.rob):
            return self._fallback.decide(view, legal_actions, rng)
        choice = consult(view, legal_actions, self.width)
        q: npt.NDArray[np.floating[Any]] = self.model.q(choice.net, choice.rows).ravel()
        if self.samples and choice.net != "bid":
            q = self._weigh(view, choice, q - q[choice.advice], rng)
        best = int(np.argmax(q))
        if q[best] - q[choice.advice] <= (self.bid_margin if choice.net == "bid" else self.margin):
            best = choice.advice
        return choice.candidates[best]

    def _weigh(
        self, view: View, choice: Choice, q: npt.NDArray[np.floating[Any]], rng: random.Random
    ) -> npt.NDArray[np.floating[Any]]:
        """The networks' gains over the heuristic's choice (``q``) weighed with :func:`sampled_gains`
        on ``samples`` deals, the networks counting as ``prior`` deals."""
        sampled = sampled_gains(self._search, view, choice, self.samples, rng)
        out: npt.NDArray[np.floating[Any]] = (self.samples * sampled + self.prior * q) / (
            self.samples + self.prior
        )
        return out


__all__ = [
    "BIDS",
    "BID_MARGIN",
    "FEATURES_VERSION",
    "MARGIN",
    "MLP",
    "NETS",
    "ROLES",
    "WEIGHTS",
    "WIDTH",
    "BidsFor",
    "Choice",
    "Ensemble",
    "LearnedBot",
    "Model",
    "Valuer",
    "advice",
    "bid_features",
    "bid_width",
    "consult",
    "load_weights",
    "play_features",
    "play_width",
    "sampled_gains",
    "shipped",
    "state_features",
    "supported",
]
