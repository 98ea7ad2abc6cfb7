"""The ``club`` Tichu bot: the heuristic's partition played the way a good club player plays it.

It keeps :class:`~pagoda.bots.tichu.heuristic.HeuristicBot`'s hand partition, and changes the
exchange, the card play and the calls:

- **Exchange.** The partner gets the best card this hand can spare up to an Ace (the Dragon and
  the Phoenix stay: ``weak_gift``), the very best (Dragon, Phoenix) when the partner called, a
  middling card (7 to Queen) that costs the partition least when this hand is strong (a Grand
  Tichu called, or club's own Tichu rule with ``strong_slack`` to spare). The opponents get the
  two cards whose loss costs the partition least, each card's value and points counted
  against it (``give_value``, ``give_points``): low singletons, the Dog (``give_dog``; kept
  beside a partner who called, to hand the caller the lead), never a control, a bomb card or
  the Mah Jong (``give_mah_jong``), the lower to the next seat. ``exchange=heuristic`` gives
  the heuristic's exchange instead, for comparison (docs/strength.md, *The exchange*).
- **Race.** When the partner is out first and both opponents are still in, a one-two is on:
  every trick this seat can win cheaply it wins (Aces, the Dragon, the Phoenix, bombs
  included), so it goes out before either opponent. When an opponent is out first, the other
  opponent's trick is always stopped if it can be.
- **Follow to win the lead.** Against an opponent's trick it plays the combination that costs
  the partition least (the lowest of equals) even when that breaks a combination of its hand
  up to ``break_up`` more combinations (default 14: any; ``break_up=0`` plays only what costs
  nothing, the rule before): holding the lead sheds the hand, passing hands the opponents the
  tempo. The Dragon, the Phoenix and a single Ace stay for the tricks that matter, as before,
  and the next cheapest play goes instead; an Ace goes on a trick of 10 points or more (or when
  pressed) even when that splits a pair of Aces or a combination, up to ``ace_break`` more
  combinations (default 1; 0 only when it costs nothing, the rule before).
- **Support.** Never over the partner's winning trick (a bomb neither, in turn or out of turn),
  unless that empties the hand and the partner has not called, or the partner went out with
  it (left alone, the lead would pass to the opponent after the partner); when the partner is
  close to out (one or two cards), lead what the partner can follow: a low single for one
  card, a low pair (else a low single) for two. The Dog is led to a partner who called, who is
  close to out, or whose hand is smaller than this hand's size less ``dog_margin`` (default -3:
  the partner holds at most two cards more; 2, the rule before: at least three fewer).
- **Lead the kind it can repeat.** Among the combinations that are not controls, the kind
  this seat holds most of, lowest first (``shed`` weighs the cards a lead of five or more
  sheds: 1 prefers the longest, -1 the shortest, 0, the default, neither; a caller sheds the
  longest, and so does a hand of ``shed_below`` cards or fewer, default 9: late in the
  round the long combination goes before the singles); with at most one
  loser left, the bosses (sure winners, by counting the cards
  gone) come first, the loser last.
- **Calls.** Tichu when the partition's losers are few enough for the controls to cover
  them: ``combos - controls <= tichu_margin`` and at most ``tichu_max`` combinations, never
  beside a partner who called. The thresholds were calibrated on self-play (see
  docs/strength.md). Grand Tichu at ``grand_threshold`` on the heuristic's 8-card strength.
- **Dragon trick:** to the opponent with more cards (the one less likely to go out and score
  it), a caller only when both hold as many.

Every choice is deterministic: the ``rng`` is not used.
"""

import random
from collections.abc import Sequence

from pagoda.bots import register
from pagoda.bots.tichu.driver import NO_BOMB
from pagoda.bots.tichu.hand import partition, partition_cost
from pagoda.bots.tichu.heuristic import (
    HeuristicBot,
    _bomb_cards,
    _bomb_order,
    _is_control,
    _lead_key,
    card_value,
    hand_controls,
)
from pagoda.tichu import CARDS, Action, Combo, View, count_points
from pagoda.tichu.actions import EXCHANGE, PLAY
from pagoda.tichu.cards import DOG, DOG_BIT, DRAGON, DRAGON_BIT, MAH_JONG, PHOENIX, PHOENIX_BIT, RANK_MASKS
from pagoda.tichu.combos import PAIR, SINGLE

_ACE_MASK = RANK_MASKS[14]


def club_tichu_worthy(hand: int, margin: float = 0.5, max_combos: int = 7) -> bool:
    """Call Tichu with this 14-card hand? Its losers (combinations past the controls) are few.

    >>> from pagoda.tichu import to_mask
    >>> club_tichu_worthy(to_mask("Mj Dr Ph Ag Ak 2g 3k 4b 5r 9g 9k Kg Kk Kb"))
    True
    >>> club_tichu_worthy(to_mask("2g 3k 4b 6r 7g 8k 9b Tr Jg Qk Kb Ag 5k 5g"))
    False
    """
    n = partition_cost(hand) // 100
    return n <= max_combos and n - hand_controls(hand) <= margin


class ClubBot(HeuristicBot):
    """The heuristic's partition with club play: races for the one-two, supports the partner."""

    def __init__(
        self,
        grand_threshold: float | str = 8.0,
        tichu_margin: float | str = 0.5,
        tichu_max: int | str = 7,
        shed: int | str = 0,
        press: int | str = 4,
        exchange: str = "club",
        weak_gift: float | str = 14.0,
        give_dog: int | str = 1,
        give_mah_jong: int | str = 0,
        give_value: float | str = 20.0,
        give_points: float | str = 100.0,
        strong_slack: float | str = 0.5,
        break_up: int | str = 14,
        ace_break: int | str = 1,
        shed_below: int | str = 9,
        dog_margin: int | str = -3,
        **_: object,
    ) -> None:
        super().__init__(grand_threshold=grand_threshold)
        if exchange not in ("club", "heuristic"):
            raise ValueError(f"exchange must be 'club' or 'heuristic', not {exchange!r}")
        self.exchange = exchange
        self.weak_gift = float(weak_gift)
        self.give_dog = bool(int(give_dog))
        self.give_mah_jong = bool(int(give_mah_jong))
        self.give_value = float(give_value)
        self.give_points = float(give_points)
        self.strong_slack = float(strong_slack)
        self.shed = int(shed)
        self.press = int(press)
        self.tichu_margin = float(tichu_margin)
        self.tichu_max = int(tichu_max)
        self.break_up = int(break_up)
        self.ace_break = int(ace_break)
        self.shed_below = int(shed_below)
        self.dog_margin = int(dog_margin)
        for name in ("break_up", "ace_break", "shed_below"):
            if getattr(self, name) < 0:
                raise ValueError(f"club bot option {name} must be at least 0, not {getattr(self, name)}")

    def decide(self, view: View, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        """The club bot's choice among ``legal_actions``."""
        return super().decide(view, legal_actions, rng)

    # ------------------------------------------------------------------ exchange

    def _exchange(self, view: View, legal: Sequence[Action]) -> Action:
        if self.exchange == "heuristic":
            return super()._exchange(view, legal)
        hand = view.hand
        partner = (view.seat + 2) & 3
        partner_called = view.grand_calls[partner] or view.tichu_calls[partner]
        protected = _bomb_cards(hand)
        gift = self._to_partner(view, partner_called, protected)
        low, high = self._to_opponents(hand & ~(1 << gift), protected, keep_dog=partner_called)
        action = Action(EXCHANGE, gifts=(CARDS[low], CARDS[gift], CARDS[high]))
        if action not in legal:  # pragma: no cover - every triple of own cards is legal
            return next(a for a in legal if a.kind == EXCHANGE)
        return action

    def _to_partner(self, view: View, partner_called: bool, protected: int) -> int:
        """The card for the partner: the best one to a caller, a middling one from a strong hand,
        else the best card up to an Ace (the Dragon and the Phoenix stay)."""
        hand = view.hand
        spare = [c for c in range(56) if hand >> c & 1 and not protected >> c & 1]
        if not spare:  # bombs only: two straight flushes of seven
            spare = [c for c in range(56) if hand >> c & 1]
        strong = view.grand_calls[view.seat] or (
            not partner_called
            and club_tichu_worthy(hand, self.tichu_margin + self.strong_slack, self.tichu_max + 1)
        )
        if strong:
            mids = [c for c in spare if 7 <= card_value(c) <= 12]
            if mids:  # the one the partition misses least, the higher of equals
                return min(mids, key=lambda c: (partition_cost(hand & ~(1 << c)), -c))
            return min(spare, key=lambda c: (card_value(c), c))
        top = card_value(DRAGON) if partner_called else self.weak_gift
        pool = [c for c in spare if card_value(c) <= top] or spare
        return max(pool, key=lambda c: (card_value(c), -partition_cost(hand & ~(1 << c)), c))

    def _to_opponents(self, rest: int, protected: int, keep_dog: bool) -> tuple[int, int]:
        """The two cards for the opponents, lower first: the pair of cards whose loss costs the
        partition of ``rest`` least, counting each card's value and its points against it.

        Never a control (Dragon, Phoenix, Ace), a bomb card or the Mah Jong (its holder leads the
        first trick and makes the wish); the Dog goes, unless ``keep_dog`` (the partner called: the
        Dog hands the lead to the caller)."""

        def allowed(c: int) -> bool:
            if protected >> c & 1 or c in (DRAGON, PHOENIX) or card_value(c) >= 14:
                return False
            if c == DOG:
                return self.give_dog and not keep_dog
            return c != MAH_JONG or self.give_mah_jong

        cards = [c for c in range(56) if rest >> c & 1]
        pool = [c for c in cards if allowed(c)]
        if len(pool) < 2:  # controls and bombs only: the lowest, bomb cards last
            pool = sorted(cards, key=lambda c: (protected >> c & 1, card_value(c), c))[:2]

        def cost(c: int) -> float:
            return self.give_value * card_value(c) + (self.give_points if CARDS[c].points > 0 else 0)

        best = (float("inf"), pool[0], pool[1])
        for i, a in enumerate(pool):
            for b in pool[i + 1 :]:
                score = partition_cost(rest & ~(1 << a) & ~(1 << b)) + cost(a) + cost(b)
                if score < best[0]:
                    best = (score, a, b)
        _, a, b = best
        return (a, b) if (card_value(a), a) <= (card_value(b), b) else (b, a)

    # ------------------------------------------------------------------ situation

    @staticmethod
    def _racing(view: View) -> bool:
        """Is a one-two on: the partner out first, both opponents still in?"""
        partner = (view.seat + 2) & 3
        return view.out[:1] == (partner,)

    @staticmethod
    def _urgent(view: View, top_seat: int) -> bool:
        """Must the opponent's trick be stopped? Close to out, a caller, or racing for a one-two."""
        if top_seat < 0 or (top_seat - view.seat) % 2 == 0:
            return False
        if view.out and (view.out[0] - top_seat) % 2 == 0:
            return True  # the top seat's partner is out first: stop the one-two
        left = view.hand_sizes[top_seat]
        if left <= 3:
            return True
        return (view.tichu_calls[top_seat] or view.grand_calls[top_seat]) and left <= 8

    def _call_tichu(self, view: View) -> bool:
        partner = (view.seat + 2) & 3
        if view.tichu_calls[partner] or view.grand_calls[partner]:
            return False
        return view.hand.bit_count() == 14 and club_tichu_worthy(view.hand, self.tichu_margin, self.tichu_max)

    @staticmethod
    def _give_dragon(view: View, gives: list[Action]) -> Action:
        def key(a: Action) -> tuple[int, int]:
            t = a.target
            called = view.tichu_calls[t] or view.grand_calls[t]
            return (view.hand_sizes[t], 0 if called else 1)

        return max(gives, key=key)

    # ------------------------------------------------------------------ lead

    def _lead(self, view: View, plays: list[Action]) -> Action:
        hand = view.hand
        partner = (view.seat + 2) & 3
        by_mask: dict[int, list[Action]] = {}
        for a in plays:
            by_mask.setdefault(a.mask, []).append(a)
        if hand in by_mask and (not self._supporting(view) or len(by_mask) == 1):
            return self._with_wish(view, by_mask[hand])
        parts = [c for c in partition(hand) if c.mask in by_mask and c.mask != hand]
        if not parts or view.wish:
            return super()._lead(view, plays)
        left = view.hand_sizes[partner]
        if hand & DOG_BIT and DOG_BIT in by_mask and left:
            partner_called = view.tichu_calls[partner] or view.grand_calls[partner]
            if partner_called or left + self.dog_margin < hand.bit_count() or left <= 2:
                return by_mask[DOG_BIT][0]
        bosses = [c for c in parts if self._boss(view, c) or c.is_bomb]
        others = [c for c in parts if c not in bosses and c.mask != DOG_BIT]
        if len(others) <= 1 and bosses:
            non_bombs = [c for c in bosses if not c.is_bomb]
            if non_bombs and others:
                return self._with_wish(view, by_mask[min(non_bombs, key=_lead_key).mask])
            if others:
                return self._with_wish(view, by_mask[others[0].mask])
        if 0 < left <= 2 and not self._racing(view):
            feed = self._feed(view, plays, left)
            if feed is not None:
                return feed
        pool = [c for c in parts if not _is_control(c)] or parts
        opponents = [
            view.hand_sizes[s] for s in ((view.seat + 1) & 3, (view.seat + 3) & 3) if view.hand_sizes[s]
        ]
        if min(opponents, default=14) == 1:
            multi = [c for c in pool if c.length > 1]
            if multi:
                pool = multi
            else:
                singles = [c for c in parts if c.kind == SINGLE and c.mask != DOG_BIT]
                if singles:
                    pool = [max(singles, key=lambda c: c.rank)]
        kinds: dict[tuple[str, int], int] = {}
        for c in pool:
            kinds[(c.kind, c.length)] = kinds.get((c.kind, c.length), 0) + 1
        called = view.tichu_calls[view.seat] or view.grand_calls[view.seat]
        shed = 1 if called or hand.bit_count() <= self.shed_below else self.shed
        choice = min(pool, key=lambda c: (-_shed(c) * shed, -kinds[(c.kind, c.length)], *_lead_key(c)))
        return self._with_wish(view, by_mask[choice.mask])

    def _feed(self, view: View, plays: list[Action], left: int) -> Action | None:
        """A low lead the partner with ``left`` cards can follow, if it costs this hand little."""
        hand = view.hand
        base = partition_cost(hand)
        kinds = (SINGLE,) if left == 1 else (PAIR, SINGLE)
        for kind in kinds:
            options = [
                a
                for a in plays
                if a.combo is not None
                and a.combo.kind == kind
                and a.combo.rank <= 10
                and a.mask not in (DOG_BIT, PHOENIX_BIT)
                and partition_cost(hand & ~a.mask) <= base
            ]
            if options:
                best = min(options, key=lambda a: (a.combo.rank if a.combo else 0, a.mask))
                return self._with_wish(view, [b for b in plays if b.mask == best.mask])
        return None

    # ------------------------------------------------------------------ follow

    def _follow(self, view: View, plays: list[Action], pass_action: Action | None) -> Action:
        hand = view.hand
        partner = (view.seat + 2) & 3
        supporting = self._supporting(view)
        for a in plays:
            if a.mask == hand and not supporting:
                return a  # going out
        if supporting and pass_action is not None:
            plays = [a for a in plays if a.mask != hand]
        if not plays:
            assert pass_action is not None
            return pass_action
        if view.top_seat == partner and view.hand_sizes[partner] and pass_action is not None:
            return pass_action
        base = partition_cost(hand)
        racing = self._racing(view)
        urgent = self._urgent(view, view.top_seat)
        trick_points = sum(count_points(c.mask) for _, c in view.trick)
        endgame = base <= 100 * self.press
        called = view.tichu_calls[view.seat] or view.grand_calls[view.seat]
        scored: list[tuple[int, float, Action]] = []
        bomb_plays: list[Action] = []
        for a in plays:
            combo = a.combo
            if combo is not None and combo.is_bomb:
                bomb_plays.append(a)
                continue
            damage = partition_cost(hand & ~a.mask) - (base - 100)
            rank = float(combo.rank) if combo is not None else 0.0
            scored.append((damage, rank, a))
        scored.sort(key=lambda t: (t[0], t[1], t[2].mask))
        pressing = urgent or racing or endgame
        for damage, _, a in scored:
            combo = a.combo
            is_single = combo is not None and combo.kind == SINGLE
            control = a.mask in (DRAGON_BIT, PHOENIX_BIT)
            high = is_single and a.mask & _ACE_MASK
            if damage <= 100 * self.break_up and not control and not high:
                return self._with_wish(view, [b for b in plays if b.mask == a.mask])
            if damage <= 100 * self.ace_break and high and (pressing or trick_points >= 10 or called):
                return a
            if control and (pressing or (called and a.mask == DRAGON_BIT) or trick_points >= 20):
                return a
            if damage <= 100 and (urgent or racing):
                return self._with_wish(view, [b for b in plays if b.mask == a.mask])
            if not (control or high):
                break  # else the next cheapest play, past the controls kept
        if bomb_plays and (urgent or racing or self._bomb_goes_out(hand, bomb_plays)):
            return min(bomb_plays, key=_bomb_order)
        if pass_action is not None:
            return pass_action
        if scored:
            best = scored[0][2]
            return self._with_wish(view, [b for b in plays if b.mask == best.mask])
        return min(bomb_plays, key=_bomb_order)

    def _offer(self, view: View, legal: Sequence[Action]) -> Action:
        bomb_plays = [a for a in legal if a.kind == PLAY]
        top = view.top_seat
        if bomb_plays and top >= 0 and (top - view.seat) % 2:
            if self._urgent(view, top) and (view.hand_sizes[top] <= 2 or self._racing(view) or view.out):
                return min(bomb_plays, key=_bomb_order)
            if self._bomb_goes_out(view.hand, bomb_plays):
                return min(bomb_plays, key=_bomb_order)
        return NO_BOMB


def _shed(c: Combo) -> int:
    """How many cards a lead sheds, counted only for combinations of five or more."""
    return c.length if c.length >= 5 else 0


register("tichu", "club", level=2, description="club play: one-two races, partner support, calibrated calls")(
    ClubBot
)
