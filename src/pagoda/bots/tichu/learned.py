"""The ``learned`` Tichu bot: a Q(state, action) network trained by deep Monte-Carlo self-play.

In play, a small multilayer perceptron, run with numpy alone, scores each candidate action of
the seat's own turn (lead, follow, pass), of a bomb offer out of turn (each bomb and
``no-bomb``) and of the Dragon's gift; the bot takes the highest score where it beats the club
bot's choice by more than a margin (the ``margin`` option, in the network's units), and club's
choice otherwise (no randomness at play time). Trained on the round's results (``pagoda train
tichu --targets result``), the network predicts the round's result for the seat's team: the
difference of the two teams' scores, divided by 200 and clipped to ±1.5 (:func:`target`);
trained on rollouts (``--targets rollout``), it predicts each candidate's gain over club's
choice when club plays the deal out, in the same units.

Its input (:func:`features`) is read from the seat's :class:`~pagoda.tichu.View` alone:

- **the state:** its own hand and the cards it has not seen (4 bits per rank: it holds more than
  k of them, and the four special cards), the cards each other seat has played, every seat's
  hand size, Tichu and Grand Tichu calls, who is out and who went out first, the card points
  each has taken, the trick on the table (its top play, kind, rank and length, who leads it,
  its points), the wish, and how many combinations its hand splits into
  (:func:`~pagoda.bots.tichu.hand.partition_cost`);
- **the candidate action:** its kind, cards, rank, length and points, whether it is a bomb or
  goes out, the hand it leaves with that hand's partition cost, the seat a Dragon gift goes to;
- **the club bot's advice:** whether this action is :class:`~pagoda.bots.tichu.club.ClubBot`'s
  choice, so the network learns where to leave club's play.

Everything else is the club bot's: the Grand Tichu and Tichu calls, the exchange, the wish made
with the Mah Jong (the network weighs each set of cards once, with club's wish), taking a
trick. The shipped weights (``learned_tichu.npz``, half precision) are read the first time a bot
needs them, and refused when written for another feature layout (:data:`FEATURES_VERSION`).

>>> from pagoda import tichu
>>> from pagoda.bots.tichu import play_round
>>> r = play_round(tichu.Round.new(seed=7), [LearnedBot()] * 4, seed=7)
>>> r.is_over, sum(r.score()) % 5
(True, 0)
"""

import random
from collections.abc import Sequence
from functools import lru_cache
from importlib import resources
from typing import Any, NamedTuple

import numpy as np

from pagoda.bots import number_option
from pagoda.bots.tichu.club import ClubBot
from pagoda.bots.tichu.hand import partition_cost
from pagoda.bots.tichu.heuristic import hand_controls
from pagoda.tichu import Action, View, count_points, parse_cards, to_mask
from pagoda.tichu.actions import GIVE_DRAGON, NO_BOMB, PASS, PLAY, TICHU
from pagoda.tichu.cards import RANK_MASKS
from pagoda.tichu.combos import KINDS
from pagoda.tichu.round import Phase
from pagoda.train.mlp import MLP, Array, load_nets, read_nets, save_nets

#: the version of the feature layout: weights trained on another layout are refused
FEATURES_VERSION = 1
#: the shipped weights, inside the package
WEIGHTS = "learned_tichu.npz"
#: the one network's name in a weights file
NET = "play"

_STEPS = np.arange(4)
_SPECIALS = [0, 1, 54, 55]  # Dog, Mah Jong, Phoenix, Dragon
_KIND = {k: i for i, k in enumerate(KINDS)}
_ACTION_KINDS = len(KINDS) + 3  # the play kinds, pass, no-bomb, give-dragon
_CARDS = 56  # 13 ranks x 4 bits, and the 4 special cards
_RANKS = 17  # 13 rank counts / 4, and the 4 special cards

#: widths of the parts of a row
STATE_WIDTH = 2 * _CARDS + 3 * _RANKS + 4 * 5 + 8 + 8 + 8 + (_RANKS + len(KINDS) + 2 + 4 + 2) + 3 + 3
ACTION_WIDTH = _ACTION_KINDS + _CARDS + 5 + _CARDS + 4 + 2 + 1


def width() -> int:
    """The width of the network's input row."""
    return STATE_WIDTH + ACTION_WIDTH


def _bits(masks: Sequence[int]) -> Any:
    raw = np.frombuffer(b"".join(m.to_bytes(7, "little") for m in masks), np.uint8)
    return np.unpackbits(raw.reshape(len(masks), 7), axis=1, bitorder="little")


def cards_rows(masks: Sequence[int]) -> Array:
    """Cards as rows of 56: 4 bits per rank 2..A (more than k of the rank), then the 4 specials."""
    bits = _bits(masks)
    counts = bits[:, 2:54].reshape(len(masks), 13, 4).sum(axis=2)
    out = np.empty((len(masks), _CARDS), np.float32)
    out[:, :52] = (counts[:, :, None] > _STEPS).reshape(len(masks), 52)
    out[:, 52:] = bits[:, _SPECIALS]
    return out


@lru_cache(maxsize=1 << 15)
def _cards(mask: int) -> Array:
    row: Array = cards_rows([mask])[0]
    return row


@lru_cache(maxsize=1 << 15)
def _ranks(mask: int) -> Array:
    """Cards as 17 numbers: each rank's count / 4, then the 4 specials."""
    bits = _bits([mask])[0]
    out = np.empty(_RANKS, np.float32)
    out[:13] = bits[2:54].reshape(13, 4).sum(axis=1) / 4.0
    out[13:] = bits[_SPECIALS]
    return out


@lru_cache(maxsize=1 << 16)
def _event_mask(text: str) -> int:
    """The cards of a ``play`` event's text (0 for any other)."""
    if not text.startswith("play "):
        return 0
    return to_mask(parse_cards(text[5:].partition(" wish ")[0].partition(" as ")[0]))


@lru_cache(maxsize=1 << 16)
def _cost(mask: int) -> float:
    """The partition cost of ``mask`` in combinations (0 for no cards)."""
    return partition_cost(mask) / 100.0 if mask else 0.0


def state_row(view: View) -> Array:
    """The state as the seat sees it (see the module's text), one row of :data:`STATE_WIDTH`."""
    me = view.seat
    rel = [(me + k) & 3 for k in range(4)]  # this seat, the next, the partner, the previous
    played = [0, 0, 0, 0]
    for seat, text in view.events:
        played[seat] |= _event_mask(text)
    sizes: list[float] = []
    for s in rel:
        n = view.hand_sizes[s]
        sizes += [n / 14.0, float(n == 0), float(n == 1), float(n == 2), float(n <= 4)]
    calls = [float(view.tichu_calls[s]) for s in rel] + [float(view.grand_calls[s]) for s in rel]
    first = view.out[0] if view.out else -1
    out = [float(view.hand_sizes[s] == 0) for s in rel] + [float(first == s) for s in rel]
    won = [count_points(view.won[s]) / 50.0 for s in rel] + [view.won[s].bit_count() / 28.0 for s in rel]
    top = view.top
    trick = np.zeros(_RANKS + len(KINDS) + 2 + 4 + 2, np.float32)
    if top is not None:
        trick[:_RANKS] = _ranks(top.mask)
        k = _RANKS
        trick[k + _KIND[top.kind]] = 1.0
        k += len(KINDS)
        trick[k] = float(top.rank) / 15.0
        trick[k + 1] = top.length / 14.0
        if view.top_seat >= 0:
            trick[k + 2 + ((view.top_seat - me) & 3)] = 1.0
        trick[k + 6] = sum(count_points(c.mask) for _, c in view.trick) / 50.0
    else:
        trick[-1] = 1.0  # a lead
    wish = view.wish
    wishes = [float(wish > 0), (wish - 2) / 12.0 if wish else 0.0, float(bool(view.hand & RANK_MASKS[wish]))]
    hand = view.hand
    misc = [_cost(hand) / 14.0, hand_controls(hand) / 5.0, float(bool(view.window))]
    return np.concatenate(
        [
            _cards(hand),
            _cards(view.unseen),
            *(_ranks(played[s]) for s in rel[1:]),
            np.asarray(sizes + calls + out + won, np.float32),
            trick,
            np.asarray(wishes + misc, np.float32),
        ]
    )


def action_rows(view: View, actions: Sequence[Action], advice: Action | None) -> Array:
    """One row of :data:`ACTION_WIDTH` per action: its kind, cards and the hand it leaves; whether
    it is ``advice`` (the club bot's choice)."""
    hand = view.hand
    n = len(actions)
    masks = [a.mask if a.kind == PLAY else 0 for a in actions]
    rests = [hand & ~m for m in masks]
    out = np.zeros((n, ACTION_WIDTH), np.float32)
    out[:, _ACTION_KINDS : _ACTION_KINDS + _CARDS] = cards_rows(masks)
    k = _ACTION_KINDS + _CARDS
    rest_at = k + 5
    out[:, rest_at : rest_at + _CARDS] = cards_rows(rests)
    after = rest_at + _CARDS
    for i, a in enumerate(actions):
        combo = a.combo
        if a.kind == PLAY and combo is not None:
            out[i, _KIND[combo.kind]] = 1.0
            out[i, k : k + 5] = (
                float(combo.rank) / 15.0,
                combo.length / 14.0,
                float(combo.is_bomb),
                count_points(combo.mask) / 25.0,
                a.wish / 14.0,
            )
        elif a.kind == PASS:
            out[i, len(KINDS)] = 1.0
        elif a.kind == NO_BOMB:
            out[i, len(KINDS) + 1] = 1.0
        else:
            out[i, len(KINDS) + 2] = 1.0  # give-dragon
            out[i, after + 4 + (0 if (a.target - view.seat) & 3 == 1 else 1)] = 1.0
        rest = rests[i]
        out[i, after : after + 4] = (
            _cost(rest) / 14.0,
            rest.bit_count() / 14.0,
            float(rest == 0),
            hand_controls(rest) / 5.0,
        )
        out[i, -1] = float(advice is not None and a == advice)
    return out


def features(view: View, actions: Sequence[Action], advice: Action | None) -> Array:
    """One input row per candidate action: :func:`state_row` then :func:`action_rows`."""
    state = state_row(view)
    out = np.empty((len(actions), width()), np.float32)
    out[:, :STATE_WIDTH] = state
    out[:, STATE_WIDTH:] = action_rows(view, actions, advice)
    return out


def target(own: int, other: int) -> float:
    """What the network predicts: the team's score minus the other's, / 200, clipped to ±1.5.

    >>> target(100, 0), target(400, -200)
    (0.5, 1.5)
    """
    return max(-1.5, min(1.5, (own - other) / 200.0))


class Choice(NamedTuple):
    """A decision as the bot sees it: an ``action`` already settled (the club bot's, or the only
    one), or the ``candidates`` to score, their input ``rows`` and the index of club's choice."""

    action: Action | None
    candidates: Sequence[Action] = ()
    rows: Array | None = None
    advice: int = 0


def consult(view: View, legal: Sequence[Action], club: ClubBot, rng: random.Random) -> Choice:
    """Settle what the network does not weigh (see the module's text); else the candidates."""
    if len(legal) == 1:
        return Choice(legal[0])
    if view.phase is not Phase.PLAY:
        return Choice(club.decide(view, legal, rng))
    kinds = {a.kind for a in legal}
    if TICHU in kinds:
        advice = club.decide(view, legal, rng)
        if advice.kind == TICHU:
            return Choice(advice)
        legal = [a for a in legal if a.kind != TICHU]
        if len(legal) == 1:
            return Choice(legal[0])
        kinds.discard(TICHU)
    if not kinds <= {PLAY, PASS, NO_BOMB, GIVE_DRAGON}:
        return Choice(club.decide(view, legal, rng))
    advice = club.decide(view, legal, rng)
    by_mask: dict[int, list[Action]] = {}
    candidates: list[Action] = []
    for a in legal:
        if a.kind == PLAY:
            group = by_mask.setdefault(a.mask, [])
            if not group:
                candidates.append(a)
            group.append(a)
        else:
            candidates.append(a)
    for i, a in enumerate(candidates):
        group = by_mask.get(a.mask, []) if a.kind == PLAY else []
        if len(group) > 1:  # the same cards with several wishes: club's wish
            candidates[i] = advice if advice in group else club._with_wish(view, group)
    if len(candidates) == 1:
        return Choice(candidates[0])
    index = next((i for i, a in enumerate(candidates) if a == advice), 0)
    return Choice(None, candidates, features(view, candidates, advice), index)


class Model:
    """The network and what it was trained on (``meta``): episodes, feature version, widths."""

    def __init__(self, hidden: Sequence[int] = (256, 128), seed: int = 0) -> None:
        self.hidden = list(hidden)
        self.net = MLP([width(), *self.hidden, 1], seed=seed)
        self.meta: dict[str, Any] = {"features": FEATURES_VERSION, "hidden": self.hidden, "episodes": 0}

    def q(self, x: Array) -> Array:
        """The values of the rows ``x``."""
        out: Array = self.net.forward(x)
        return out

    def save(self, path: str, optimizer: bool = True, half: bool = False) -> None:
        """Write the model as a compressed npz (atomically); ``optimizer`` keeps Adam's state for
        ``--resume``, ``half`` stores the weights in half precision (the shipped file)."""
        save_nets(path, {NET: self.net}, self.meta, optimizer, half)

    @classmethod
    def load(cls, source: str | bytes) -> "Model":
        """Read a model written by :meth:`save` (a path, or the file's bytes)."""
        meta, data = read_nets(source, FEATURES_VERSION)
        model = cls(hidden=meta["hidden"])
        model.meta = meta
        load_nets({NET: model.net}, data)
        return model


@lru_cache(maxsize=1)
def shipped() -> Model:
    """The weights that come with the package, read on first use."""
    return Model.load(resources.files("pagoda.bots.tichu").joinpath(WEIGHTS).read_bytes())


#: the margin by default: the shipped network's, chosen on tuning deals (docs/strength.md)
MARGIN = 0.05


class LearnedBot:
    """Plays the candidate its network values highest when it beats club's choice by more than
    ``margin`` (in the network's units, points / 200), else club's choice; the club bot's calls
    and exchange."""

    def __init__(
        self,
        model: Model | None = None,
        weights: str | None = None,
        margin: float | str = MARGIN,
        **_: object,
    ) -> None:
        self._model = model if model is not None else Model.load(weights) if weights else None
        self.margin: float = number_option("learned", "margin", margin, 0.0)
        self.club = ClubBot()

    @property
    def model(self) -> Model:
        """The network (the shipped one unless another was given)."""
        if self._model is None:
            self._model = shipped()
        return self._model

    def decide(self, view: View, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        """The candidate of highest value (club's unless another beats it by more than the margin),
        or the club bot's choice where the network has none."""
        choice = consult(view, legal_actions, self.club, rng)
        if choice.action is not None:
            return choice.action
        assert choice.rows is not None
        q = self.model.q(choice.rows).ravel()
        best = int(np.argmax(q))
        if q[best] - q[choice.advice] <= self.margin:
            best = choice.advice
        return choice.candidates[best]


__all__ = [
    "ACTION_WIDTH",
    "FEATURES_VERSION",
    "MARGIN",
    "NET",
    "STATE_WIDTH",
    "WEIGHTS",
    "Choice",
    "LearnedBot",
    "Model",
    "action_rows",
    "cards_rows",
    "consult",
    "features",
    "shipped",
    "state_row",
    "target",
    "width",
]
