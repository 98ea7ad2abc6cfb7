"""The club bot's designed decisions, pinned on specific hands and views."""

import dataclasses
import random

from pagoda.bots import get_bot
from pagoda.bots.tichu import NO_BOMB, ClubBot
from pagoda.bots.tichu.club import club_tichu_worthy
from pagoda.tichu import Action, Round, View, to_mask
from pagoda.tichu.actions import GIVE_DRAGON, PASS, PLAY, TICHU
from pagoda.tichu.cards import FULL_DECK, mask_cards

RNG = random.Random(0)


def _deal(**hands: str) -> Round:
    """A round in play with the named seats' hands (``s0=...``); the rest of the deck fills the others."""
    fixed = {int(k[1:]): to_mask(v) for k, v in hands.items()}
    rest = FULL_DECK
    for m in fixed.values():
        rest &= ~m
    cards = list(mask_cards(rest))
    out = []
    for seat in range(4):
        if seat in fixed:
            out.append(fixed[seat])
        else:
            out.append(to_mask(cards[:14]))
            cards = cards[14:]
    return Round.from_hands(out)


def _decision(r: Round, seat: int) -> tuple[View, list[Action]]:
    """The view and legal actions of ``seat``'s pending decision (its turn or its bomb offer)."""
    for d in r.decisions():
        if d.seat == seat:
            return r.view(seat), list(d.actions)
    raise AssertionError(f"seat {seat} is not asked")


def _after(r: Round, *moves: tuple[int, str]) -> Round:
    """Apply ``moves``, answering ``no-bomb`` for every bomb offer in between."""
    for seat, action in moves:
        while r.decisions()[0].seat != seat or NO_BOMB in r.decisions()[0].actions:
            d = r.decisions()[0]
            assert NO_BOMB in d.actions, f"seat {d.seat} is asked to play, not {seat}"
            r = r.apply(d.seat, NO_BOMB)
        r = r.apply(seat, action)
    return r


def _to_move(r: Round, seat: int) -> Round:
    while r.decisions()[0].seat != seat or NO_BOMB in r.decisions()[0].actions:
        r = r.apply(r.decisions()[0].seat, NO_BOMB)
    return r


def test_club_is_registered() -> None:
    assert isinstance(get_bot("tichu", "club"), ClubBot)
    assert isinstance(get_bot("tichu", "club:tichu_margin=0.5"), ClubBot)


def test_does_not_overtake_the_partners_ace_not_even_with_a_bomb() -> None:
    club = ClubBot()
    r = _deal(s0="Mj Ag 2g 3g 4g 6g 7g 8g 9g Tg Jg Qg 5k 6k", s2="Dr Kg Kk Kb Kr 2b 3b 4b 8b 9b Tb Jb Qb Ab")
    r = _after(r, (0, "tichu"), (0, "play Ag"))
    view, legal = _decision(r, 2)
    assert NO_BOMB in legal  # the bomb offer right after the partner's play
    assert club.decide(view, legal, RNG) == NO_BOMB
    r = _to_move(r, 1)
    r = _to_move(_after(r, (1, "pass")), 2)
    view, legal = _decision(r, 2)
    assert any(a.kind == PLAY and a.combo is not None and a.combo.is_bomb for a in legal)
    assert any(a.kind == PLAY and str(a) == "play Dr" for a in legal)
    assert club.decide(view, legal, RNG).kind == PASS


def test_races_for_the_one_two_with_its_ace() -> None:
    club = ClubBot()
    r = _deal(
        s0="Mj 2g 3g 4g 6g 7g 8g 9g Tg Jg Kg 5k 6k Ag",
        s1="Qg Dg 2k 3k 4k 7k 8k 9k Tk Jk Qk Ak 5g 7r",
        s2="Ab 2b 2r 5b 5r 9b Jb Jr Qb 3b 7b 8r 4r Tb",
    )
    r = _after(r, (0, "play Mj"), (1, "play Qg"))
    r = _to_move(r, 2)
    view, legal = _decision(r, 2)
    assert view.hand & to_mask("Ab")  # a single Ace, no other control
    assert not view.hand & to_mask("Dr Ph")
    # the partner still in with 13 cards: the Ace is kept
    assert club.decide(view, legal, RNG).kind == PASS
    # the partner out first: a one-two is on, so the Ace takes the trick
    racing = dataclasses.replace(view, out=(0,), hand_sizes=(0, *view.hand_sizes[1:]))
    choice = club.decide(racing, legal, RNG)
    assert choice.kind == PLAY
    assert choice.mask == to_mask("Ab")
    # an opponent out first: its partner's trick is stopped, a one-two for them is on
    stopping = dataclasses.replace(view, out=(3,), hand_sizes=(*view.hand_sizes[:3], 0))
    assert club.decide(stopping, legal, RNG).mask == to_mask("Ab")


def test_leads_the_pair_and_keeps_the_straight_for_later() -> None:
    club, heuristic = ClubBot(), get_bot("tichu", "heuristic")
    r = _deal(s0="Mj 2g 3k 4b 5r 6g 9g 9k Jb Jr Kg Kk Qb Qr")
    view, legal = _decision(r, 0)
    legal = [a for a in legal if a.kind != TICHU]
    assert club.decide(view, legal, RNG).mask == to_mask("9g 9k")
    assert heuristic.decide(view, legal, RNG).mask == to_mask("Mj 2g 3k 4b 5r 6g")


def test_leads_the_kind_it_holds_most_of() -> None:
    club = ClubBot()
    # partition: the straight 2-6, pairs 8 and Q and K, the single T and A: pairs are repeated
    r = _deal(s0="Mj 2g 3k 4b 5r 6g 8b 8k Tb Qg Qk Kg Kk Ab")
    view, legal = _decision(r, 0)
    legal = [a for a in legal if a.kind != TICHU]
    choice = club.decide(view, legal, RNG)
    assert choice.combo is not None
    assert choice.combo.kind == "pair", str(choice)


def test_feeds_a_partner_with_one_card_a_low_single() -> None:
    club = ClubBot()
    r = _deal(s0="Mj 2g 3k 4b 5r 6g 8b 8k Tb Qg Qk Kg Kk Ab")
    view, legal = _decision(r, 0)
    legal = [a for a in legal if a.kind != TICHU]
    feeding = dataclasses.replace(view, hand_sizes=(14, 9, 1, 9))
    choice = club.decide(feeding, legal, RNG)
    assert choice.combo is not None
    assert choice.combo.kind == "single", str(choice)
    assert choice.combo.rank <= 10, str(choice)


def test_calls_tichu_with_controls_to_cover_its_losers_not_with_a_long_weak_hand() -> None:
    club = ClubBot()
    # the straight Mj-5, 99, KKK, AA, Dr: 5 combinations against 4.5 controls
    strong = "Mj Dr Ph Ag Ak 2g 3k 4b 5r 9g 9k Kg Kk Kb"
    weak = "Mj 2g 3k 4b 6r 7g 8k 9b Tr Jg Qk Kb 5k 5g"  # straights and singles, no control
    assert club_tichu_worthy(to_mask(strong), club.tichu_margin, club.tichu_max)
    assert not club_tichu_worthy(to_mask(weak), club.tichu_margin, club.tichu_max)
    view, legal = _decision(_deal(s0=strong), 0)
    assert club.decide(view, legal, RNG).kind == TICHU
    # not beside a partner who called
    beside_a_caller = dataclasses.replace(view, tichu_calls=(False, False, True, False))
    assert club.decide(beside_a_caller, legal, RNG).kind == PLAY
    view2, legal2 = _decision(_deal(s0=weak), 0)
    assert any(a.kind == TICHU for a in legal2)
    assert club.decide(view2, legal2, RNG).kind == PLAY


def test_gives_the_dragon_trick_to_the_opponent_with_more_cards() -> None:
    club = ClubBot()
    view = _deal(s0="Mj 2g 3g 4g 6g 7g 8g 9g Tg Jg Qg 5k 6k Dr").view(0)
    gives = [Action(GIVE_DRAGON, target=1), Action(GIVE_DRAGON, target=3)]
    view = dataclasses.replace(view, hand_sizes=(3, 2, 5, 9), tichu_calls=(False, False, False, True))
    assert club.decide(view, gives, RNG).target == 3
    view = dataclasses.replace(view, hand_sizes=(3, 9, 5, 2))
    assert club.decide(view, gives, RNG).target == 1
