"""The ``heuristic`` Tichu bot: fast rules of thumb on top of the hand partition.

- **Calls.** Grand Tichu on 8 cards rich in controls (Dragon, Phoenix, Aces, a bomb); Tichu
  before the first play when the hand splits into few combinations and the controls cover the
  weak ones. Never when the partner has called.
- **Exchange.** The partner gets the best card (a middling one when this seat means to call);
  each opponent gets a low card that hurts the partition least, never a control or a bomb card,
  preferring ranks this seat holds twice or more: an opponent who gets it then holds at most
  three of that rank, so the gift cannot complete a four-of-a-kind bomb.
- **Lead.** The lowest combination of the best partition that is not a control (Dragon,
  Phoenix, Ace, bomb); the Dog to a partner who called or holds fewer cards; when at most one
  combination is not a sure winner ("boss", by counting the cards gone), the bosses first.
  Against an opponent with one card left, no low single.
- **Follow.** Never over the partner (unless it empties the hand); otherwise the cheapest play
  that costs the partition nothing, keeping Aces and the Dragon and Phoenix for tricks that
  matter (an opponent about to go out or who called, points on the table, the end of the hand).
- **Bombs** (in turn or out of turn) only when it matters: an opponent winning the trick with
  few cards left or a call to break, or the bomb leaves a hand that goes out.
- **Wish:** the rank given to the right-hand opponent (the next seat), if this seat holds none.
- **Dragon trick:** to the opponent who did not call, else the one with more cards.

Every choice is deterministic: the ``rng`` is not used, so the bot is also a fast rollout
policy for :mod:`pagoda.bots.tichu.search`.
"""

import random
from collections.abc import Sequence

from pagoda.bots import register
from pagoda.bots.tichu.driver import NO_BOMB
from pagoda.bots.tichu.hand import partition, partition_cost
from pagoda.tichu import CARDS, Action, Combo, View, count_points
from pagoda.tichu.actions import EXCHANGE, GIVE_DRAGON, GRAND, NO_GRAND, PASS, PLAY, TAKE, TICHU
from pagoda.tichu.cards import (
    DOG,
    DOG_BIT,
    DRAGON,
    DRAGON_BIT,
    MAH_JONG,
    MAH_JONG_BIT,
    PHOENIX,
    PHOENIX_BIT,
    RANK_MASKS,
)
from pagoda.tichu.combos import PAIR, SINGLE, TRIPLE
from pagoda.tichu.movegen import bombs, has_bomb
from pagoda.tichu.round import Phase

_ACE_MASK = RANK_MASKS[14]


def _rank_of(card: int) -> int:
    return CARDS[card].rank


def card_value(card: int) -> float:
    """How good a single card is to hold: Dragon > Phoenix > Ace > ... > Mah Jong > Dog."""
    if card == DRAGON:
        return 17.0
    if card == PHOENIX:
        return 16.0
    if card == DOG:
        return 0.5
    if card == MAH_JONG:
        return 1.0
    return float(_rank_of(card))


def _bomb_cards(hand: int) -> int:
    cards = 0
    if has_bomb(hand):
        for b in bombs(hand):
            cards |= b.mask
    return cards


def hand_controls(hand: int) -> float:
    """Controls: the Dragon and the Phoenix count 1 each, an Ace 0.75, a bomb 1.5."""
    aces = (hand & _ACE_MASK).bit_count()
    score = 0.75 * aces + (1.0 if hand & DRAGON_BIT else 0.0) + (1.0 if hand & PHOENIX_BIT else 0.0)
    if has_bomb(hand):
        seen = 0
        for b in bombs(hand):
            if not b.mask & seen:
                score += 1.5
                seen |= b.mask
    return score


def grand_strength(hand: int) -> float:
    """Strength of the first 8 cards for a Grand Tichu: controls and Kings."""
    kings = (hand & RANK_MASKS[13]).bit_count()
    return 2 * hand_controls(hand) + 0.5 * kings


#: Tichu thresholds: at most this many combinations, and at most ``controls * 2 + slack`` of them.
TICHU_MAX_COMBOS = 6
TICHU_SLACK = -1.0


def tichu_worthy(hand: int) -> bool:
    """Call Tichu with this 14-card hand? Few combinations, and controls to cover them."""
    n = partition_cost(hand) // 100
    return n <= TICHU_MAX_COMBOS and n <= 2 * hand_controls(hand) + TICHU_SLACK


class HeuristicBot:
    """Rules of thumb over the hand partition; deterministic and fast (well under a millisecond)."""

    def __init__(self, grand_threshold: float | str = 7.5, **_: object) -> None:
        self.grand_threshold = float(grand_threshold)

    def decide(self, view: View, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        """The heuristic's choice among ``legal_actions``."""
        phase = view.phase
        if phase is Phase.GRAND_TICHU:
            return self._grand(view, legal_actions)
        if phase is Phase.EXCHANGE:
            return self._exchange(view, legal_actions)
        return self.play(view, legal_actions)

    # ------------------------------------------------------------------ calls and exchange

    def _grand(self, view: View, legal: Sequence[Action]) -> Action:
        partner = (view.seat + 2) & 3
        call = grand_strength(view.hand) >= self.grand_threshold and not view.grand_calls[partner]
        want = GRAND if call else NO_GRAND
        return next(a for a in legal if a.kind == want)

    def _exchange(self, view: View, legal: Sequence[Action]) -> Action:
        hand = view.hand
        strong = tichu_worthy(hand) or view.grand_calls[view.seat]
        partner = (view.seat + 2) & 3
        protected = _bomb_cards(hand)
        cards = [c for c in range(56) if hand >> c & 1]
        if view.grand_calls[partner] or view.tichu_calls[partner] or not strong:
            # the best card the partition can spare
            best = max(cards, key=lambda c: (card_value(c) - (20 if protected >> c & 1 else 0), c))
        else:
            mids = [c for c in cards if 7 <= card_value(c) <= 12 and not protected >> c & 1]
            best = (
                max(mids, key=lambda c: (-partition_cost(hand & ~(1 << c)), c))
                if mids
                else min(cards, key=lambda c: (card_value(c), c))
            )
        rest = hand & ~(1 << best)
        gifts: list[int] = []
        for _ in range(2):
            pool = [c for c in range(56) if rest >> c & 1]
            pick = min(pool, key=lambda c: (self._giveaway_cost(rest, c, protected), c))
            gifts.append(pick)
            rest &= ~(1 << pick)
        low, high = sorted(gifts, key=lambda c: (card_value(c), c))
        action = Action(EXCHANGE, gifts=(CARDS[low], CARDS[best], CARDS[high]))
        if action not in legal:  # pragma: no cover - every triple of own cards is legal
            return next(a for a in legal if a.kind == EXCHANGE)
        return action

    @staticmethod
    def _giveaway_cost(hand: int, card: int, protected: int) -> float:
        value = card_value(card)
        cost = 3.0 * value + partition_cost(hand & ~(1 << card)) / 10
        if card in (DRAGON, PHOENIX) or value >= 14 or protected >> card & 1:
            cost += 1000
        if card not in (DOG, MAH_JONG, DRAGON, PHOENIX):
            r = _rank_of(card)
            if (hand & RANK_MASKS[r]).bit_count() == 1:
                cost += 4  # the opponent might hold the other three
            if r in (5, 10, 13):
                cost += 6  # points
        return cost

    # ------------------------------------------------------------------ play

    def play(self, view: View, legal: Sequence[Action]) -> Action:
        """A decision in the play phase (an out-of-turn offer when ``NO_BOMB`` is listed)."""
        rest = [a for a in legal if a.kind != PLAY]
        kinds = {a.kind for a in rest}
        if NO_BOMB in rest:
            return self._offer(view, legal)
        if TICHU in kinds and self._call_tichu(view):
            return next(a for a in rest if a.kind == TICHU)
        if GIVE_DRAGON in kinds:
            return self._give_dragon(view, [a for a in rest if a.kind == GIVE_DRAGON])
        if TAKE in kinds:
            return next(a for a in rest if a.kind == TAKE)
        plays = [a for a in legal if a.kind == PLAY]
        if view.top is None:
            return self._lead(view, plays)
        return self._follow(view, plays, next((a for a in rest if a.kind == PASS), None))

    def _call_tichu(self, view: View) -> bool:
        partner = (view.seat + 2) & 3
        if view.tichu_calls[partner] or view.grand_calls[partner]:
            return False
        return view.hand.bit_count() == 14 and tichu_worthy(view.hand)

    @staticmethod
    def _give_dragon(view: View, gives: list[Action]) -> Action:
        def key(a: Action) -> tuple[int, int]:
            t = a.target
            called = view.tichu_calls[t] or view.grand_calls[t]
            return (0 if called else 1, view.hand_sizes[t])

        return max(gives, key=key)

    # ------------------------------------------------------------------ situation

    @staticmethod
    def _urgent(view: View, top_seat: int) -> bool:
        """Must the trick be stopped? Its winner is an opponent who is close to going out or called."""
        if top_seat < 0 or (top_seat - view.seat) % 2 == 0:
            return False
        left = view.hand_sizes[top_seat]
        if left <= 3:
            return True
        return (view.tichu_calls[top_seat] or view.grand_calls[top_seat]) and left <= 8

    @staticmethod
    def _supporting(view: View) -> bool:
        """Has the partner called and is still in (so this seat should not go out first)?"""
        partner = (view.seat + 2) & 3
        return bool(view.hand_sizes[partner]) and (view.tichu_calls[partner] or view.grand_calls[partner])

    @staticmethod
    def _opponent_called(view: View) -> bool:
        return any(
            (view.tichu_calls[s] or view.grand_calls[s]) and view.hand_sizes[s] > 0
            for s in ((view.seat + 1) & 3, (view.seat + 3) & 3)
        )

    @staticmethod
    def _boss(view: View, combo: Combo) -> bool:
        """Can nothing unseen beat ``combo`` (bombs aside)?"""
        unseen = view.unseen
        if combo.kind == SINGLE:
            if combo.mask == DRAGON_BIT:
                return True
            if combo.mask in (PHOENIX_BIT, DOG_BIT) or unseen & DRAGON_BIT:
                return False
            r = int(combo.rank)
            if unseen & PHOENIX_BIT:
                return False
            return all(not unseen & RANK_MASKS[k] for k in range(r + 1, 15))
        if combo.kind in (PAIR, TRIPLE):
            need = 2 if combo.kind == PAIR else 3
            ph = 1 if unseen & PHOENIX_BIT else 0
            r = int(combo.rank)
            return all((unseen & RANK_MASKS[k]).bit_count() + ph < need for k in range(r + 1, 15))
        return False

    # ------------------------------------------------------------------ lead

    def _lead(self, view: View, plays: list[Action]) -> Action:
        hand = view.hand
        by_mask: dict[int, list[Action]] = {}
        for a in plays:
            by_mask.setdefault(a.mask, []).append(a)
        if hand in by_mask:
            if not self._supporting(view) or len(by_mask) == 1:
                return self._with_wish(view, by_mask[hand])
            del by_mask[hand]  # let the partner who called go out first
        parts = [c for c in partition(hand) if c.mask in by_mask]
        if not parts:  # the wish forces something outside the partition
            best = min(by_mask, key=lambda m: (partition_cost(hand & ~m), m))
            return self._with_wish(view, by_mask[best])
        partner = (view.seat + 2) & 3
        if hand & DOG_BIT and DOG_BIT in by_mask and view.hand_sizes[partner]:
            partner_called = view.tichu_calls[partner] or view.grand_calls[partner]
            if partner_called or view.hand_sizes[partner] + 2 < hand.bit_count():
                return by_mask[DOG_BIT][0]
        bosses = [c for c in parts if self._boss(view, c) or c.is_bomb]
        others = [c for c in parts if c not in bosses and c.mask != DOG_BIT]
        if len(others) <= 1 and bosses:
            non_bombs = [c for c in bosses if not c.is_bomb]
            if non_bombs and others:
                return self._with_wish(view, by_mask[min(non_bombs, key=_lead_key).mask])
            if others:
                return self._with_wish(view, by_mask[others[0].mask])
        pool = [c for c in parts if not _is_control(c)] or parts
        opp_min = min(
            (view.hand_sizes[s] for s in ((view.seat + 1) & 3, (view.seat + 3) & 3) if view.hand_sizes[s]),
            default=14,
        )
        if opp_min == 1:
            multi = [c for c in pool if c.length > 1]
            if multi:
                pool = multi
            else:
                singles = [c for c in parts if c.kind == SINGLE and c.mask != DOG_BIT]
                if singles:
                    pool = [max(singles, key=lambda c: c.rank)]
        choice = min(pool, key=_lead_key)
        return self._with_wish(view, by_mask[choice.mask])

    def _with_wish(self, view: View, actions: list[Action]) -> Action:
        """Among the same cards with different wishes, the wish this seat prefers."""
        if len(actions) == 1 or not actions[0].mask & MAH_JONG_BIT:
            return actions[0]
        by_wish = {a.wish: a for a in actions}
        hand = view.hand & ~actions[0].mask
        wanted: list[int] = []
        if view.given is not None:
            card = view.given[0]  # to the next seat: the right-hand opponent
            if 2 <= card.rank <= 14:
                wanted.append(card.rank)
        wanted.extend(range(14, 1, -1))
        for rank in wanted:
            if rank in by_wish and not hand & RANK_MASKS[rank] and view.unseen & RANK_MASKS[rank]:
                return by_wish[rank]
        return by_wish.get(0, actions[0])

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
        if view.top_seat == partner and pass_action is not None:
            return pass_action
        base = partition_cost(hand)
        urgent = self._urgent(view, view.top_seat)
        trick_points = sum(count_points(c.mask) for _, c in view.trick)
        endgame = base <= 300
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
        for damage, _, a in scored:
            combo = a.combo
            is_single = combo is not None and combo.kind == SINGLE
            control = a.mask in (DRAGON_BIT, PHOENIX_BIT)
            high = is_single and a.mask & _ACE_MASK
            if damage <= 0 and not control and not high:
                return self._with_wish(view, [b for b in plays if b.mask == a.mask])
            if damage <= 0 and high and (urgent or trick_points >= 10 or endgame or called):
                return a
            if control and (urgent or endgame or (called and a.mask == DRAGON_BIT) or trick_points >= 20):
                return a
            if damage <= 100 and urgent:
                return self._with_wish(view, [b for b in plays if b.mask == a.mask])
            break
        if bomb_plays and (urgent or self._bomb_goes_out(hand, bomb_plays)):
            return min(bomb_plays, key=_bomb_order)
        if pass_action is not None:
            return pass_action
        if scored:
            best = scored[0][2]
            return self._with_wish(view, [b for b in plays if b.mask == best.mask])
        return min(bomb_plays, key=_bomb_order)

    @staticmethod
    def _bomb_goes_out(hand: int, bomb_plays: list[Action]) -> bool:
        return any(partition_cost(hand & ~a.mask) <= 100 for a in bomb_plays)

    def _offer(self, view: View, legal: Sequence[Action]) -> Action:
        bomb_plays = [a for a in legal if a.kind == PLAY]
        if bomb_plays and view.top_seat >= 0 and (view.top_seat - view.seat) % 2:
            if self._urgent(view, view.top_seat) and view.hand_sizes[view.top_seat] <= 2:
                return min(bomb_plays, key=_bomb_order)
            if self._bomb_goes_out(view.hand, bomb_plays):
                return min(bomb_plays, key=_bomb_order)
        return NO_BOMB


def _is_control(c: Combo) -> bool:
    if c.is_bomb:
        return True
    if c.kind == SINGLE:
        return c.mask in (DRAGON_BIT, PHOENIX_BIT) or c.rank >= 14
    return False


def _lead_key(c: Combo) -> tuple[float, int, int]:
    rank = 8.0 if c.mask == DOG_BIT else float(c.rank)
    return (rank, -c.length, c.mask)


def _bomb_order(a: Action) -> tuple[int, int, float, int]:
    c = a.combo
    if c is None:  # pragma: no cover - legal plays carry their combination
        return (0, 0, 0.0, a.mask)
    key = c.bomb_key
    return (int(key[0]), key[1], float(key[2]), a.mask)


register("tichu", "heuristic", level=1)(HeuristicBot)
