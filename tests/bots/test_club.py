"""The club bot's designed decisions, pinned on specific hands and views."""

import dataclasses
import random

import pytest

from pagoda.bots import get_bot
from pagoda.bots.tichu import NO_BOMB, ClubBot, HeuristicBot
from pagoda.bots.tichu.club import club_tichu_worthy
from pagoda.bots.tichu.heuristic import _bomb_cards, card_value
from pagoda.tichu import Action, Round, View, count_points, to_mask
from pagoda.tichu.actions import EXCHANGE, GIVE_DRAGON, GRAND, NO_GRAND, PASS, PLAY, TICHU
from pagoda.tichu.cards import DRAGON, FULL_DECK, MAH_JONG, PHOENIX, mask_cards
from pagoda.tichu.round import Phase

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


def test_follows_an_opponent_even_when_that_breaks_a_combination() -> None:
    # partition: the full house 2-2-2-3-3, the straight 6-T, the pairs Q and A: no single to spare
    r = _deal(s0="Mj 4g 5g 6g 7g 8g 9g Tg Jg Qg Kg Ag Dr Ph", s1="6k 7k 8k 9k Tk Qb Qr Ab Ar 2k 2b 2r 3r 3b")
    r = _to_move(_after(r, (0, "play Mj")), 1)
    view, legal = _decision(r, 1)
    legal = [a for a in legal if a.kind != TICHU]
    # every single over the Mah Jong costs a combination: a 2 leaves the pair run 2-2-3-3 (4
    # combinations, not 3), a Queen leaves the single Queen, a straight card four singles; the
    # cheapest, lowest first, is a 2, and the opponent (13 cards, no call) does not press
    assert str(ClubBot().decide(view, legal, RNG)) == "play 2k"
    assert str(ClubBot(break_up=1).decide(view, legal, RNG)) == "play 2k"
    assert ClubBot(break_up=0).decide(view, legal, RNG).kind == PASS  # only what costs nothing
    with pytest.raises(ValueError, match="break_up must be at least 0, not -1"):
        ClubBot(break_up=-1)
    with pytest.raises(ValueError, match="ace_break must be at least 0, not -2"):
        ClubBot(ace_break="-2")
    with pytest.raises(ValueError, match="shed_below must be at least 0, not -1"):
        get_bot("tichu", "club:shed_below=-1")


def test_keeps_its_ace_and_dragon_and_follows_with_the_next_cheapest_play() -> None:
    # partition: the straight 2-6, the full house 8-8-8-T-T, the pair Q, the Ace, the Dragon
    # (5 combinations: not yet the endgame of press=4)
    r = _deal(s0="Mj 3g 4g 5g 6g 7g 8g 9g Tg Jg Qg Kg Ag Ph", s1="2k 3k 4k 5k 6k 8b 8r 8k Tb Tr Qb Qr Ab Dr")
    r = _to_move(_after(r, (0, "play Mj")), 1)
    view, legal = _decision(r, 1)
    legal = [a for a in legal if a.kind != TICHU]
    # the Ace and the Dragon cost nothing but are kept (no points, no call, nobody close to out);
    # past them, a Queen costs one combination (the pair becomes a single), an 8 or a T two
    # (the full house becomes a triple and a single, or two pairs), a straight card four
    assert str(ClubBot().decide(view, legal, RNG)) == "play Qb"
    assert ClubBot(break_up=0).decide(view, legal, RNG).kind == PASS


def test_takes_over_the_trick_the_partner_went_out_with() -> None:
    r = _deal(s2="Mj 4g 5g 6g 7b 8r 9r Qb Qr Ak Ab Kg Kb Kr", s0="3k 3r 8k 9k Tk Jb Jr Dg Qk Qg 2k 2b 2r 5r")
    r = _to_move(_after(r, (2, "play Mj"), (3, "pass")), 0)
    view, legal = _decision(r, 0)
    legal = [a for a in legal if a.kind != TICHU]
    assert view.top_seat == 2
    assert ClubBot().decide(view, legal, RNG).kind == PASS  # the partner still in: its trick
    # the partner out with that trick: left to it, the lead passes to the opponent after it
    gone = dataclasses.replace(view, out=(2,), hand_sizes=(*view.hand_sizes[:2], 0, view.hand_sizes[3]))
    assert str(ClubBot().decide(gone, legal, RNG)) == "play 5r"  # the single 5, free to play


def test_splits_its_pair_of_aces_for_a_trick_with_points() -> None:
    r = _deal(
        s0="Mj 2g 3g 4g 5g 7k 8k 9g Tk Jk 6k 6r 7g 9r",
        s1="Kg Qg 3r 4r 5r 7r 8r 9b Tr Jr Qr Kr Qk Jb",
        s2="Ab Ar 2b 3k 4b 5b 6b 8b 8g Tg Tb Qb 9k Jg",
    )
    for lead, points in (("Kg", 10), ("Qg", 0)):
        s = _to_move(_after(r, (0, "play Mj"), (1, f"play {lead}")), 2)
        view, legal = _decision(s, 2)
        legal = [a for a in legal if a.kind != TICHU]
        assert sum(count_points(c.mask) for _, c in view.trick) == points
        # only an Ace beats the King or the Queen here, and playing one splits the pair of
        # Aces (one combination more); the opponent holds 12 cards, no call: nothing presses
        choice = ClubBot().decide(view, legal, RNG)
        if points >= 10:
            assert choice.kind == PLAY, str(choice)
            assert choice.mask in (to_mask("Ab"), to_mask("Ar")), str(choice)
        else:
            assert choice.kind == PASS, str(choice)  # no points: the pair stays
        assert ClubBot(ace_break=0).decide(view, legal, RNG).kind == PASS  # the rule before


def _smaller(
    view: View, legal: list[Action], hand: str, sizes: tuple[int, int, int, int]
) -> tuple[View, list[Action]]:
    """A lead view of the same seat with only ``hand`` left, and the leads of those cards."""
    mask = to_mask(hand)
    assert mask & ~view.hand == 0
    leads = [a for a in legal if a.kind == PLAY and a.mask & ~mask == 0]
    return dataclasses.replace(view, hand=mask, hand_sizes=sizes), leads


def test_a_short_hand_leads_its_straight_before_its_singles() -> None:
    r = _deal(s0="Mj 2g 2k 8b Tr 3g 4k 5b 6r 7g 9k Jb Kr Ab")
    view, legal = _decision(r, 0)
    # partition: the straight 3-7 and the singles 9, J, K, A: singles are the kind held most
    nine, leads = _smaller(view, legal, "3g 4k 5b 6r 7g 9k Jb Kr Ab", (9, 9, 9, 9))
    straight = to_mask("3g 4k 5b 6r 7g")
    assert ClubBot().decide(nine, leads, RNG).mask == straight  # 9 cards: shed_below=9 sheds
    assert ClubBot(shed_below=8).decide(nine, leads, RNG).mask == to_mask("9k")
    assert ClubBot(shed_below=0).decide(nine, leads, RNG).mask == to_mask("9k")  # the rule before


def test_leads_the_dog_to_a_partner_with_about_as_many_cards() -> None:
    r = _deal(s0="Mj 2g 2k 8b Tr Dg 3g 4k 5b 9k Jb Kr Qg Ab")
    view, legal = _decision(r, 0)
    nine, leads = _smaller(view, legal, "Dg 3g 4k 5b 9k Jb Kr Qg Ab", (9, 9, 11, 9))
    dog = to_mask("Dg")
    assert ClubBot().decide(nine, leads, RNG).mask == dog  # the partner holds two cards more
    assert ClubBot(dog_margin=2).decide(nine, leads, RNG).mask != dog  # the rule before: 3 fewer
    three_more = dataclasses.replace(nine, hand_sizes=(9, 9, 12, 9))
    assert ClubBot().decide(three_more, leads, RNG).mask != dog
    six = dataclasses.replace(nine, hand_sizes=(9, 9, 6, 9))
    assert ClubBot(dog_margin=2).decide(six, leads, RNG).mask == dog


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


def test_shed_weighs_the_long_leads() -> None:
    # partition: the straight Mj-6, the pair 9, the pair run J-K: one of each kind
    r = _deal(s0="Mj 2g 3k 4b 5r 6g 9g 9k Jb Jr Kg Kk Qb Qr")
    view, legal = _decision(r, 0)
    legal = [a for a in legal if a.kind != TICHU]
    straight = to_mask("Mj 2g 3k 4b 5r 6g")
    # by default (shed=0) the lowest lead of the partition: the straight, six cards gone
    assert ClubBot().decide(view, legal, RNG).mask == straight
    assert get_bot("tichu", "heuristic").decide(view, legal, RNG).mask == straight
    # shed=-1 keeps the straight for later and leads the pair
    assert ClubBot(shed=-1).decide(view, legal, RNG).mask == to_mask("9g 9k")


def test_leads_the_kind_it_holds_most_of() -> None:
    club = ClubBot()
    # partition: the straight Mj-6, the pairs 8, T and Q, the singles K and A: pairs are repeated
    r = _deal(s0="Mj 2g 3k 4b 5r 6g 8b 8k Tb Tg Qk Qg Kr Ab")
    view, legal = _decision(r, 0)
    legal = [a for a in legal if a.kind != TICHU]
    assert club.decide(view, legal, RNG).mask == to_mask("8b 8k")  # the lowest of the three


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


# ---------------------------------------------------------------------- the exchange


def _exchange_view(hand: str, grand: tuple[int, ...] = ()) -> tuple[View, list[Action]]:
    """Seat 0's exchange with ``hand`` (the rest of the deck dealt to the others in order), the
    seats in ``grand`` having called Grand Tichu."""
    mask = to_mask(hand)
    rest = list(mask_cards(FULL_DECK & ~mask))
    r = Round.from_deal([mask, to_mask(rest[:14]), to_mask(rest[14:28]), to_mask(rest[28:])])
    for seat in range(4):
        r = r.apply(seat, Action(GRAND if seat in grand else NO_GRAND))
    view = r.view(0)
    assert view.phase is Phase.EXCHANGE
    return view, list(r.legal_actions(0))


# all singles: the Dog, the Mah Jong, 2 3 4 6 7 8 9 J Q K A and the Dragon
WEAK = "Dg Mj 2g 3k 4b 6r 7g 8k 9b Jr Qg Kk Ag Dr"


def test_a_weak_hand_gives_the_partner_its_ace_and_keeps_the_dragon_and_the_mah_jong() -> None:
    view, legal = _exchange_view(WEAK)
    assert not club_tichu_worthy(view.hand)
    # gifts: to the next seat (an opponent), to the partner, to the previous seat (an opponent)
    assert str(ClubBot().decide(view, legal, RNG)) == "exchange Dg Ag 2g"
    # the heuristic's exchange gives the Dragon to the partner and the Mah Jong away
    assert str(ClubBot(exchange="heuristic").decide(view, legal, RNG)) == "exchange Dg Dr Mj"


def test_a_partner_who_called_grand_gets_the_dragon_and_the_dog_stays() -> None:
    view, legal = _exchange_view(WEAK, grand=(2,))
    assert str(ClubBot().decide(view, legal, RNG)) == "exchange 2g Dr 3k"


def test_a_strong_hand_keeps_its_controls_and_gives_the_partner_a_middling_card() -> None:
    # the straight Mj-6, 8, KKK AA, the Phoenix and the Dragon: club would call Tichu
    hand = "Mj 2g 3k 4b 5r 6g 8g Kg Kk Kb Ag Ak Ph Dr"
    view, legal = _exchange_view(hand)
    assert club_tichu_worthy(view.hand)
    # the lone 8 to the partner; the opponents get 2 and 6 (the Phoenix fills the straight Mj-5)
    assert str(ClubBot().decide(view, legal, RNG)) == "exchange 2g 8g 6g"


def test_a_weak_hand_trims_its_straight_for_the_opponents() -> None:
    # the straight Mj-7, 99 JJ with the Phoenix, the Ace and the Dragon
    view, legal = _exchange_view("Mj 2g 3k 4b 5r 6g 7k 9b 9r Jg Jk Ak Ph Dr")
    assert str(ClubBot().decide(view, legal, RNG)) == "exchange 6g Ak 7k"


def test_never_breaks_a_bomb_nor_gives_points_it_can_keep() -> None:
    hand = "Dg 3g 3k 3b 3r 5g 6k 8b 8r Tg Jk Qb Ab Ph"
    view, legal = _exchange_view(hand)
    # the four 3s stay, and so do the 5 and the pair of 8s: the Dog and the lone 6 go
    assert str(ClubBot().decide(view, legal, RNG)) == "exchange Dg Ab 6k"
    # to a Grand caller: the Phoenix; the Dog stays to hand the lead to the caller
    view, legal = _exchange_view(hand, grand=(2,))
    assert str(ClubBot().decide(view, legal, RNG)) == "exchange 5g Ph 6k"


def test_the_exchange_option_is_checked() -> None:
    assert ClubBot().exchange == "club"
    assert get_bot("tichu", "club:exchange=heuristic").exchange == "heuristic"
    with pytest.raises(ValueError, match="exchange must be 'club' or 'heuristic', not 'clubs'"):
        ClubBot(exchange="clubs")
    with pytest.raises(ValueError, match="'random'"):
        get_bot("tichu", "club:exchange=random")


def test_the_exchange_is_legal_and_keeps_bombs_and_controls_over_200_deals() -> None:
    club, heuristic = ClubBot(), HeuristicBot()
    old = ClubBot(exchange="heuristic")
    kinds = {"weak": 0, "grand partner": 0}
    for seed in range(200):
        r = Round.new(seed=seed)
        caller = seed % 8  # seats 0-3 call Grand Tichu in half the deals
        for seat in range(4):
            may = Action(GRAND) in r.legal_actions(seat)
            r = r.apply(seat, Action(GRAND if seat == caller and may else NO_GRAND))
        assert r.phase is Phase.EXCHANGE
        gifts = []
        for seat in range(4):
            view, legal = r.view(seat), r.legal_actions(seat)
            action = club.decide(view, legal, RNG)
            assert action in legal
            assert action.kind == EXCHANGE
            assert action.gifts is not None
            # the heuristic option is the heuristic's exchange, card for card
            assert old.decide(view, legal, RNG) == heuristic.decide(view, legal, RNG)
            left, partner, right = action.gifts
            where = (seed, seat, str(action))
            assert len({left, partner, right}) == 3
            assert not to_mask([left, partner, right]) & _bomb_cards(view.hand), where
            for card in (left, right):  # no control and not the Mah Jong to an opponent
                assert card not in (DRAGON, PHOENIX, MAH_JONG), where
                assert card_value(card) < 14, where
            if view.grand_calls[(seat + 2) & 3]:
                kinds["grand partner"] += 1
                spare = mask_cards(view.hand & ~_bomb_cards(view.hand))
                assert card_value(partner) == max(card_value(c) for c in spare), where
            elif not view.grand_calls[seat] and not club_tichu_worthy(view.hand, 1.0, 8):
                kinds["weak"] += 1
                assert card_value(partner) <= 14, where  # the Dragon and the Phoenix stay
            gifts.append(action)
        for seat, action in enumerate(gifts):
            r = r.apply(seat, action)
        assert r.phase is Phase.PLAY
    assert kinds["grand partner"] >= 20, kinds
    assert kinds["weak"] >= 400, kinds
