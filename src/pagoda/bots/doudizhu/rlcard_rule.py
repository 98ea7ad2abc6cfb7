"""``rlcard-rule``: RLCard's Dou Di Zhu rule agent (``DouDizhuRuleAgentV1``) seated at our table.

The adapter translates our view into the raw state the agent reads and its answer back:

- ``trace``: the plays of this round as ``(seat, cards)`` or ``(seat, "pass")`` (the auction left
  out: RLCard's game starts in the play), ``current_hand``: our hand in RLCard's card text (the
  same letters, lowest first), ``actions``: our legal actions in that text, ``landlord``, ``self``.
- The agent's answer is looked up among our legal actions. When the agent cannot answer (a
  position RLCard's tables do not know: four players, wild cards, a play outside its move set) or
  answers something illegal here, the adapter plays the lowest play of the table's kind, else
  passes, else leads its lowest combination, and counts a ``fallback``.
- The agent draws with ``numpy.random`` when it cannot follow (as landlord, or against the
  landlord): numpy's global generator is seeded from our ``rng`` before every call, so a seeded
  round replays exactly.
- **Bidding**: RLCard ships no bidding agent (its game makes seat 0 landlord). The adapter bids from
  RLCard's own hand score, :func:`rlcard.games.doudizhu.utils.get_landlord_score` (rocket 8, bomb
  6, 2 = 2, red joker 4, black joker 3, ace 1): bid 3 from 12, 2 from 9, 1 from 6; with ``rob``,
  call from 7 and rob from 10.
"""

import importlib
import random
from collections.abc import Sequence
from typing import Any

from pagoda.doudizhu import PASS, Action, View
from pagoda.doudizhu.actions import BID, CALL, PASS_KIND, PLAY, ROB
from pagoda.doudizhu.cards import format_mask
from pagoda.doudizhu.round import Phase

BID_FROM = {3: 12, 2: 9, 1: 6}
CALL_FROM = 7
ROB_FROM = 10


def _load() -> tuple[Any, Any, Any]:
    rules_models = importlib.import_module("rlcard.models.doudizhu_rule_models")
    utils = importlib.import_module("rlcard.games.doudizhu.utils")
    numpy = importlib.import_module("numpy")
    return rules_models.DouDizhuRuleAgentV1(), utils.get_landlord_score, numpy


def play_trace(history: Sequence[tuple[int, str]]) -> list[tuple[int, str]]:
    """The plays of a round's history in RLCard's form: the auction (all before the first play) dropped.

    >>> play_trace([(0, "bid 1"), (1, "pass"), (0, "play 33"), (1, "pass"), (2, "play 35678 as 45678")])
    [(0, '33'), (1, 'pass'), (2, '35678')]
    """
    out: list[tuple[int, str]] = []
    started = False
    for seat, text in history:
        if text.startswith("play "):
            started = True
            out.append((seat, text[5:].partition(" as ")[0].replace(" ", "")))
        elif started and text == PASS_KIND:
            out.append((seat, "pass"))
    return out


class RLCardRuleBot:
    """RLCard's rule agent (DouDizhuRuleAgentV1) behind our bot interface; needs ``rlcard``."""

    def __init__(self) -> None:
        self.agent, self.landlord_score, self.np = _load()
        self.fallbacks = 0
        self.calls = 0

    def decide(self, view: View, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        """The agent's action, translated; a legal fallback where the agent has no answer."""
        if len(legal_actions) == 1:
            return legal_actions[0]
        if view.phase is Phase.AUCTION:
            return self.bid(view, legal_actions)
        self.calls += 1
        by_text: dict[str, Action] = {}
        for a in legal_actions:
            if a.kind == PLAY and a.combo is not None:
                by_text.setdefault(format_mask(a.combo.mask), a)
            elif a.kind == PASS_KIND:
                by_text["pass"] = a
        state = {
            "raw_obs": {
                "trace": play_trace(view.history),
                "current_hand": format_mask(view.hand.mask),
                "actions": list(by_text),
                "landlord": view.landlord,
                "self": view.seat,
                "num_cards_left": list(view.counts),
            }
        }
        self.np.random.seed(rng.randrange(1 << 32))
        try:
            answer = str(self.agent.step(state))
        except (KeyError, IndexError, ValueError):
            answer = ""
        chosen = by_text.get(answer)
        if chosen is not None:
            return chosen
        self.fallbacks += 1
        return fallback(view, legal_actions)

    def bid(self, view: View, legal: Sequence[Action]) -> Action:
        """The auction action from RLCard's hand score (see the module's notes)."""
        text = format_mask(view.hand.mask)
        try:
            score = int(self.landlord_score(text))
        except (KeyError, IndexError, ValueError):
            score = 0
        kinds = {a.kind for a in legal}
        if CALL in kinds or ROB in kinds:
            want, need = (CALL, CALL_FROM) if CALL in kinds else (ROB, ROB_FROM)
            return next(a for a in legal if a.kind == want) if score >= need else PASS
        level = max((b for b, least in BID_FROM.items() if score >= least), default=0)
        bids = [a for a in legal if a.kind == BID and a.bid <= level]
        if not bids:
            return PASS if PASS in legal else legal[0]
        return max(bids, key=lambda a: a.bid)


def fallback(view: View, legal: Sequence[Action]) -> Action:
    """The lowest play of the table's kind, else pass, else the lowest lead (fewest cards on ties)."""
    plays = [a for a in legal if a.kind == PLAY and a.combo is not None]
    top = view.top if view.top_seat is not None and view.top_seat != view.seat else None
    if top is not None:
        same = [a for a in plays if a.combo is not None and a.combo.kind == top.kind]
        if same:
            return min(same, key=lambda a: a.combo.rank if a.combo else 0)
        if PASS in legal:
            return PASS
    if plays:
        return min(plays, key=lambda a: (a.combo.rank, -a.combo.size) if a.combo else (0, 0))
    return legal[0]


__all__ = ["RLCardRuleBot", "fallback", "play_trace"]
