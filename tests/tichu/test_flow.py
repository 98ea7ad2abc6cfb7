"""The flow of a round: Grand Tichu, the hidden simultaneous exchange, Tichu calls, and the endings.

Positions are dealt with ``Round.new(seed)`` where only the flow matters, and built with
``Round.from_hands`` where the exact cards matter (going out with the Dog or the Dragon, a winner
who is out taking its trick, a one-two).
"""

from collections.abc import Iterable
from pathlib import Path

import pytest

from pagoda.tichu import CARDS, IllegalAction, ParseError, Round, format_cards, parse_cards, to_mask
from pagoda.tichu.cards import FULL_DECK
from pagoda.tichu.round import Phase

SEED = 2024


def _rest(*hands: str) -> str:
    """The cards of the deck that none of ``hands`` holds."""
    used = 0
    for h in hands:
        used |= to_mask(h)
    return format_cards(FULL_DECK & ~used)


def _four(h0: str, h1: str, h2: str) -> list[str]:
    return [h0, h1, h2, _rest(h0, h1, h2)]


def _strs(actions: Iterable[object]) -> list[str]:
    return [str(a) for a in actions]


def _no_bombs(r: Round) -> Round:
    """``r`` after every seat of its bomb window answers ``no-bomb``."""
    for seat in r.window:
        r = r.apply(seat, "no-bomb")
    return r


def _after_grand(seed: int = SEED) -> Round:
    r = Round.new(seed)
    for s in range(4):
        r = r.apply(s, "no-grand")
    return r


def _gifts(r: Round, seat: int) -> tuple[str, str, str]:
    """Three cards of the seat's hand to give (to next, partner, previous)."""
    hand = r.hand(seat)
    return (str(hand[0]), str(hand[5]), str(hand[13]))


# ----------------------------------------------------------------- Grand Tichu


def test_grand_tichu_phase_deals_eight_and_asks_every_seat() -> None:
    r = Round.new(SEED)
    assert r.phase is Phase.GRAND_TICHU
    assert [len(r.hand(s)) for s in range(4)] == [8, 8, 8, 8]
    assert r.awaiting == (0, 1, 2, 3)
    assert r.to_move == 0
    for s in range(4):
        assert _strs(r.legal_actions(s)) == ["grand", "no-grand"]

    r = r.apply(2, "grand")
    assert r.awaiting == (0, 1, 3)
    assert r.to_move == 0
    assert r.legal_actions(2) == ()
    assert _strs(r.legal_actions(1)) == ["grand", "no-grand"]
    assert r.grand_calls == (2,)
    r = r.apply(0, "no-grand")
    assert r.awaiting == (1, 3)
    assert r.to_move == 1
    assert r.legal_actions(0) == ()
    r = r.apply(1, "no-grand")
    assert r.to_move == 3
    assert r.phase is Phase.GRAND_TICHU
    assert [len(r.hand(s)) for s in range(4)] == [8, 8, 8, 8]
    r = r.apply(3, "grand")
    assert r.phase is Phase.EXCHANGE
    assert r.grand_calls == (2, 3)
    assert [len(r.hand(s)) for s in range(4)] == [14, 14, 14, 14]
    assert r.awaiting == (0, 1, 2, 3)


def test_the_eight_first_cards_stay_in_the_fourteen() -> None:
    first = Round.new(SEED)
    r = _after_grand(SEED)
    for s in range(4):
        assert to_mask(first.hand(s)) & ~to_mask(r.hand(s)) == 0
    union = 0
    for s in range(4):
        union |= to_mask(r.hand(s))
    assert union == FULL_DECK


def test_no_tichu_and_no_play_during_grand_tichu() -> None:
    r = Round.new(SEED)
    for s in range(4):
        with pytest.raises(IllegalAction, match="14 cards"):
            r.apply(s, "tichu")
    with pytest.raises(IllegalAction, match="grand or no-grand"):
        r.apply(0, f"play {r.hand(0)[0]}")
    with pytest.raises(IllegalAction, match="grand or no-grand"):
        r.apply(0, "pass")
    r = r.apply(0, "grand")
    with pytest.raises(IllegalAction, match="already decided"):
        r.apply(0, "no-grand")
    with pytest.raises(IllegalAction, match="already decided"):
        r.apply(0, "grand")


# ----------------------------------------------------------------- exchange


def test_exchange_is_simultaneous_and_hidden() -> None:
    r = _after_grand()
    dealt = [r.hand(s) for s in range(4)]
    gifts = [_gifts(r, s) for s in range(4)]
    assert r.to_move == 0
    assert len(r.legal_actions(0)) == 1 + 14 * 13 * 12  # tichu, then every exchange

    # Seats 2 and 0 give first, out of seat order.
    r = r.apply(2, "exchange " + " ".join(gifts[2]))
    r = r.apply(0, "exchange " + " ".join(gifts[0]))
    assert r.phase is Phase.EXCHANGE
    assert r.awaiting == (1, 3)
    assert r.to_move == 1
    for s in (0, 2):
        assert len(r.hand(s)) == 11
        assert set(r.hand(s)) == set(dealt[s]) - set(parse_cards(" ".join(gifts[s])))
        assert r.view(s).given == parse_cards(" ".join(gifts[s]))
    for s in (1, 3):
        assert r.hand(s) == dealt[s]  # nobody has received anything yet
        assert r.view(s).given is None
    for s in range(4):
        assert r.view(s).received is None
    # A seat that gave may do nothing more in the exchange but call Tichu.
    assert _strs(r.legal_actions(0)) == ["tichu"]

    r = r.apply(3, "exchange " + " ".join(gifts[3]))
    for s in range(4):
        assert r.view(s).received is None
    assert r.hand(1) == dealt[1]
    r = r.apply(1, "exchange " + " ".join(gifts[1]))

    assert r.phase is Phase.PLAY
    for s in range(4):
        kept = set(dealt[s]) - set(parse_cards(" ".join(gifts[s])))
        assert len(kept) == 11
        from_prev = parse_cards(gifts[(s + 3) % 4][0])[0]
        from_partner = parse_cards(gifts[(s + 2) % 4][1])[0]
        from_next = parse_cards(gifts[(s + 1) % 4][2])[0]
        assert set(r.hand(s)) == kept | {from_prev, from_partner, from_next}
        assert len(r.hand(s)) == 14
        assert r.view(s).received == (from_prev, from_partner, from_next)
        assert r.view(s).given == parse_cards(" ".join(gifts[s]))
    holder = next(s for s in range(4) if CARDS[1] in r.hand(s))
    assert r.to_move == holder
    assert r.awaiting == (holder,)
    assert r.top is None


def test_exchange_gives_to_next_partner_previous_in_that_order() -> None:
    # The text is ``exchange <to next> <to partner> <to previous>`` (docs/protocol.md, README).
    r = _after_grand()
    first, second, third = r.hand(0)[0], r.hand(0)[1], r.hand(0)[2]
    r = r.apply(0, f"exchange {first} {second} {third}")
    for s in (1, 2, 3):
        r = r.apply(s, r.legal_actions(s)[-1])
    assert first in r.hand(1)
    assert second in r.hand(2)
    assert third in r.hand(3)
    assert (r.view(1).received[0], r.view(2).received[1], r.view(3).received[2]) == (first, second, third)  # type: ignore[index]
    protocol = (Path(__file__).parents[2] / "docs" / "protocol.md").read_text()
    assert "`exchange <to next> <to partner> <to previous>`" in protocol
    assert "<left>" not in protocol


def test_exchange_errors() -> None:
    r = _after_grand()
    hand = r.hand(0)
    other = r.hand(1)[0]
    with pytest.raises(IllegalAction, match=f"does not hold {other}"):
        r.apply(0, f"exchange {hand[0]} {hand[1]} {other}")
    with pytest.raises(ParseError, match=r"twice"):
        r.apply(0, f"exchange {hand[0]} {hand[0]} {hand[1]}")
    with pytest.raises(ParseError, match="3 cards"):
        r.apply(0, f"exchange {hand[0]} {hand[1]}")
    with pytest.raises(IllegalAction, match="three cards"):
        r.apply(0, f"play {hand[0]}")
    r = r.apply(0, f"exchange {hand[0]} {hand[1]} {hand[2]}")
    with pytest.raises(IllegalAction, match="already given"):
        r.apply(0, f"exchange {hand[3]} {hand[4]} {hand[5]}")


# ----------------------------------------------------------------- Tichu calls


def _play_phase(seed: int = SEED) -> Round:
    r = _after_grand(seed)
    for s in range(4):
        r = r.apply(s, "exchange " + " ".join(_gifts(r, s)))
    assert r.phase is Phase.PLAY
    return r


def test_tichu_during_the_exchange_before_and_after_giving() -> None:
    r = _after_grand()
    assert "tichu" in _strs(r.legal_actions(1)[:1])
    r = r.apply(1, "tichu")
    assert r.tichu_calls == (1,)
    assert r.to_move == 0
    assert r.awaiting == (0, 1, 2, 3)
    assert "tichu" not in _strs(r.legal_actions(1)[:1])
    with pytest.raises(IllegalAction, match="already called"):
        r.apply(1, "tichu")
    r = r.apply(0, "exchange " + " ".join(_gifts(r, 0)))
    r = r.apply(3, "tichu")  # the partner of no caller; several seats may call
    r = r.apply(2, "tichu")
    assert r.tichu_calls == (1, 2, 3)


def test_tichu_in_play_until_the_first_card() -> None:
    r = _play_phase()
    lead = r.to_move
    other = (lead + 1) % 4
    partner = (other + 2) % 4
    # Out of turn: allowed, listed, and the turn stays where it was.
    assert "tichu" in _strs(r.legal_actions(other))
    r = r.apply(other, "tichu")
    assert r.to_move == lead
    assert r.tichu_calls == (other,)
    r = r.apply(partner, "tichu")  # partners may both call
    assert r.to_move == lead
    assert r.tichu_calls == tuple(sorted((other, partner)))
    with pytest.raises(IllegalAction, match="already called"):
        r.apply(other, "tichu")

    # The leader plays its lowest single: no more Tichu for it.
    single = next(a for a in r.legal_actions(lead) if str(a).count(" ") == 1 and "Mj" not in str(a))
    r = r.apply(lead, single)
    assert "tichu" not in _strs(r.legal_actions(lead))
    with pytest.raises(IllegalAction, match="played a card"):
        r.apply(lead, "tichu")

    # A pass is not a play: the seat may still call afterwards.
    nxt = r.to_move
    assert nxt == other
    third = (lead + 3) % 4
    if third != nxt and third not in r.tichu_calls:
        assert "tichu" in _strs(r.legal_actions(third))


def test_tichu_after_a_pass_is_still_allowed() -> None:
    hands = _four(
        "Mj 2g 3g 4g 5g 6g 7g 8g 9g Tg Jg Qg Kg Dg",
        "2k 3b 4k 5b 6k 7b 8k 9b Tk Jb Qk Kb Ak 2r",
        "2b 3k 4b 5k 6b 7k 8b 9k Tb Jk Qb Kk Ab Ph",
    )
    r = Round.from_hands(hands)
    r = r.apply(0, "play Mj 2g 3g 4g 5g 6g 7g 8g 9g Tg Jg Qg Kg")
    r = r.apply(1, "pass")
    assert "tichu" in _strs(r.legal_actions(1))
    r = r.apply(1, "tichu")
    assert r.tichu_calls == (1,)
    assert r.to_move == 2
    with pytest.raises(IllegalAction, match="played a card"):
        r.apply(0, "tichu")


def test_no_tichu_after_grand_tichu() -> None:
    r = Round.new(SEED).apply(0, "grand")
    for s in (1, 2, 3):
        r = r.apply(s, "no-grand")
    assert "tichu" not in _strs(r.legal_actions(0)[:1])
    with pytest.raises(IllegalAction, match="Grand Tichu"):
        r.apply(0, "tichu")
    r = r.apply(2, "tichu")  # the partner of a Grand Tichu caller may call in standard rules
    assert r.tichu_calls == (2,)
    assert r.grand_calls == (0,)


def _first_action(r: Round) -> str:
    for a in r.legal_actions(r.to_move):
        if str(a) != "tichu":
            return str(a)
    raise AssertionError("no action")


def _play_out(r: Round) -> Round:
    for _ in range(3000):
        if r.is_over:
            return r
        r = r.apply(r.to_move, _first_action(r))
    raise AssertionError("the round does not end")


def _dealt_round(seed: int, calls: dict[int, str]) -> Round:
    """A round where ``calls`` maps seats to "grand" or "tichu"; everything else is fixed."""
    r = Round.new(seed)
    for s in range(4):
        r = r.apply(s, "grand" if calls.get(s) == "grand" else "no-grand")
    for s in range(4):
        if calls.get(s) == "tichu":
            r = r.apply(s, "tichu")
        r = r.apply(s, "exchange " + " ".join(_gifts(r, s)))
    return _play_out(r)


@pytest.mark.parametrize("seed", [5, 11])
def test_tichu_bonuses_go_with_the_first_seat_out(seed: int) -> None:
    plain = _dealt_round(seed, {})
    first = plain.out[0]
    called = _dealt_round(seed, {first: "grand", (first + 1) % 4: "tichu", (first + 2) % 4: "tichu"})
    assert called.out == plain.out
    a0, b0 = plain.score()
    a1, b1 = called.score()
    mine, theirs = (a1 - a0, b1 - b0) if first % 2 == 0 else (b1 - b0, a1 - a0)
    assert mine == 200 - 100  # the Grand Tichu won, the partner's Tichu lost
    assert theirs == -100  # the opponent's Tichu lost

    loser = (first + 1) % 4
    lost = _dealt_round(seed, {loser: "grand"})
    a2, b2 = lost.score()
    if loser % 2 == 0:
        assert (a2 - a0, b2 - b0) == (-200, 0)
    else:
        assert (a2 - a0, b2 - b0) == (0, -200)


# ----------------------------------------------------------------- endings and edge cases

DOG_LAST = "Dg Mj 2g 3g 4g 5g 6g 7g 8g 9g Tg Jg Qg Kg"
DRAGON_LAST = "2k 3b 4k 5b 6k 7b 8k 9b Tk Jb Qk Kb Ak Dr"


def test_dog_as_last_card_then_one_two_with_the_dragon_ends_at_once() -> None:
    rest = _rest(DOG_LAST, DRAGON_LAST).split()
    r = Round.from_hands([DOG_LAST, " ".join(rest[:14]), DRAGON_LAST, " ".join(rest[14:])])
    assert r.to_move == 0
    r = r.apply(0, "tichu").apply(1, "tichu")
    r = r.apply(0, "play Mj 2g 3g 4g 5g 6g 7g 8g 9g Tg Jg Qg Kg")
    for s in (1, 2, 3):
        r = r.apply(s, "pass")
    assert r.is_trick_complete
    r = _no_bombs(r)
    assert r.to_move == 0
    r = _no_bombs(r).apply(0, "take")
    assert r.to_move == 0
    r = r.apply(0, "play Dg")  # the Dog as the last card: out, and the partner leads
    assert r.out == (0,)
    assert r.to_move == 2
    assert r.top is None
    assert r.won(0) & to_mask("Dg")
    r = r.apply(2, "play 2k 3b 4k 5b 6k 7b 8k 9b Tk Jb Qk Kb Ak")
    assert r.to_move == 3
    r = r.apply(3, "pass")
    assert r.to_move == 1  # seat 0 is out
    r = r.apply(1, "pass")
    assert r.is_trick_complete
    r = _no_bombs(r)
    assert r.to_move == 2
    r = _no_bombs(r).apply(2, "take")
    r = r.apply(2, "play Dr")  # the Dragon as last card makes a one-two: over at once
    assert r.is_over
    assert r.out == (0, 2)
    assert r.to_move == -1
    assert r.legal_actions(2) == ()
    assert r.score() == (200 + 100, -100)
    with pytest.raises(IllegalAction, match="over"):
        r.apply(2, "give-dragon 1")


SEAT0 = "Mj 2g 3g 4g 5g 6g 7g 8g 9g Tg Jg Qg Kg Dr"
SEAT1 = "2k 3b 4k 5b 6k 7b 8k 9b Tk Jb Qk Kb Ak 2r"
SEAT2 = "2b 3k 4b 5k 6b 7k 8b 9k Tb Jk Qb Kk Ab Ph"
SEAT3 = "Dg 3r 4r 5r 6r 7r 8r 9r Tr Jr Qr Kr Ag Ar"


def _opening() -> Round:
    """Seat 0 leads a 13-card straight, seat 1 beats it and takes the trick."""
    assert _rest(SEAT0, SEAT1, SEAT2) == format_cards(to_mask(SEAT3))
    r = Round.from_hands([SEAT0, SEAT1, SEAT2, SEAT3])
    r = r.apply(0, "play Mj 2g 3g 4g 5g 6g 7g 8g 9g Tg Jg Qg Kg")
    r = r.apply(1, "play 2k 3b 4k 5b 6k 7b 8k 9b Tk Jb Qk Kb Ak")
    for s in (2, 3, 0):
        r = r.apply(s, "pass")
    assert r.is_trick_complete
    r = _no_bombs(r)
    assert r.to_move == 1
    return _no_bombs(r).apply(1, "take")


def test_a_winner_who_is_out_takes_its_trick_and_the_next_seat_in_leads() -> None:
    r = _opening().apply(1, "play 2r")
    assert r.out == (1,)
    assert r.to_move == 2
    for s in (2, 3, 0):
        r = r.apply(s, "pass")
    assert r.is_trick_complete
    r = _no_bombs(r)
    assert r.to_move == 1  # out, but the trick is its own
    assert _strs(r.legal_actions(1)) == ["take"]
    with pytest.raises(IllegalAction):
        r.apply(2, "play Ab")
    r = _no_bombs(r).apply(1, "take")
    assert r.won(1) & to_mask("2r")
    assert r.to_move == 2
    assert r.top is None


def test_dragon_trick_given_to_an_opponent_who_is_out() -> None:
    r = _opening().apply(1, "play 2r")
    for s in (2, 3, 0):
        r = r.apply(s, "pass")
    r = _no_bombs(r).apply(1, "take")
    r = r.apply(2, "play Ab").apply(3, "pass").apply(0, "play Dr")
    assert r.out == (1, 0)
    assert r.to_move == 2
    r = r.apply(2, "pass").apply(3, "pass")
    assert r.is_trick_complete
    r = _no_bombs(r)
    assert r.to_move == 0
    assert _strs(r.legal_actions(0)) == ["give-dragon 1", "give-dragon 3"]
    with pytest.raises(IllegalAction, match="opponent"):
        r.apply(0, "give-dragon 2")
    with pytest.raises(IllegalAction, match="give-dragon"):
        r.apply(0, "take")
    r = r.apply(0, "give-dragon 1")
    assert r.won(1) & to_mask("Ab Dr") == to_mask("Ab Dr")
    assert r.won(0) == 0
    assert r.to_move == 2  # seat 0 and seat 1 are out: the next seat still in leads
    assert r.top is None
    # The Dog led by seat 3, whose partner is out: the lead goes to the next seat in after seat 1.
    r = r.apply(2, "play Kk").apply(3, "play Ar").apply(2, "pass")
    assert r.is_trick_complete
    r = _no_bombs(r)
    assert r.to_move == 3
    r = _no_bombs(r).apply(3, "take").apply(3, "play Dg")
    assert r.to_move == 2
    r = r.apply(2, "play 2b 3k 4b 5k 6b 7k 8b 9k Tb Jk Qb Ph")
    assert r.is_over
    assert r.out == (1, 0, 2)
    # Seat 3's hand (5r Tr Kr: 25) goes to seat 0's team, its tricks (Kk Ar: 10) to seat 1.
    assert r.card_points() == (15, 85)
    assert r.score() == (15, 85)


def test_third_seat_out_with_the_dragon_must_give_it_then_the_round_is_over() -> None:
    r = _opening().apply(1, "play 2r")
    for s in (2, 3, 0):
        r = r.apply(s, "pass")
    r = _no_bombs(r).apply(1, "take")
    r = r.apply(2, "play 2b 3k 4b 5k 6b 7k 8b 9k Tb Jk Qb Kk Ab")
    r = r.apply(3, "pass").apply(0, "pass")
    r = _no_bombs(r).apply(2, "take").apply(2, "play Ph")
    assert r.out == (1, 2)
    assert r.to_move == 3
    r = r.apply(3, "pass").apply(0, "play Dr")
    assert r.out == (1, 2, 0)
    assert not r.is_over
    assert r.to_move == 0
    assert _strs(r.legal_actions(0)) == ["give-dragon 1", "give-dragon 3"]
    for s in (1, 2, 3):
        assert r.legal_actions(s) == ()
    # Seat 3 still holds a straight flush, but the round is over bar the gift.
    with pytest.raises(IllegalAction):
        r.apply(3, "play 3r 4r 5r 6r 7r")
    with pytest.raises(IllegalAction):
        r.apply(3, "pass")
    with pytest.raises(IllegalAction):
        r.apply(0, "take")
    with pytest.raises(IllegalAction, match="opponent"):
        r.apply(0, "give-dragon 2")
    r = r.apply(0, "give-dragon 3")
    assert r.is_over
    assert r.won(3) & to_mask("Ph Dr") == to_mask("Ph Dr")
    # Team 0: seat 2's straight (25) and seat 3's hand (25); team 1: the opening trick (50),
    # and seat 3's tricks (Ph Dr: 0) go to seat 1, the first out.
    assert r.card_points() == (50, 50)
    assert r.score() == (50, 50)


# ----------------------------------------------------------------- bombs while a trick is live

BOMB_HANDS = [
    "Dg Mj 2g 3g 4g 5g 6g 7g 8g Tg Jg Qg Kg Dr",
    "9g 9k 9b 9r 2k 3k 4k 5k 6k 7k 8k Tk Jk Qk",
    "2b 3b 4b 5b 6b 7b 8b Tb Jb Qb Kb Ab Ag Ph",
    "2r 3r 4r 5r 6r 7r 8r Tr Jr Qr Kr Ar Kk Ak",
]


def test_a_dragon_trick_won_by_a_bomb_is_the_bombers() -> None:
    r = Round.from_hands(BOMB_HANDS).apply(0, "play Dr")
    assert not r.is_legal(1, "play Ph")
    r = r.apply(1, "pass")
    with pytest.raises(IllegalAction, match="does not beat"):
        r.apply(2, "play Ph")
    r = r.apply(2, "pass").apply(3, "pass")
    assert r.is_trick_complete
    r = _no_bombs(r)
    # Complete but not taken: another seat may still bomb it, out of turn.
    assert "play 9g 9k 9b 9r" in _strs(r.legal_actions(1))
    r = r.apply(1, "play 9g 9k 9b 9r")
    assert r.top_seat == 1
    assert r.to_move == 2  # play goes on after the bomber
    assert not r.is_trick_complete
    r = r.apply(2, "pass").apply(3, "pass").apply(0, "pass")
    assert r.is_trick_complete
    r = _no_bombs(r)
    assert r.to_move == 1
    assert _strs(r.legal_actions(1))[0] == "take"
    assert "give-dragon 0" not in _strs(r.legal_actions(1))
    r = _no_bombs(r).apply(1, "take")
    assert r.won(1) == to_mask("9g 9k 9b 9r Dr")
    assert r.to_move == 1


def test_a_seat_may_bomb_its_own_play_out_of_turn() -> None:
    r = Round.from_hands(BOMB_HANDS).apply(0, "play 2g").apply(1, "play 9g")
    assert r.to_move == 2
    r = r.apply(1, "play 2k 3k 4k 5k 6k")  # a straight flush on its own Nine, out of turn
    assert r.top_seat == 1
    assert r.top is not None
    assert r.top.kind == "straight_flush"
    assert r.to_move == 2
    # A four of a kind no longer beats it; a longer straight flush does.
    assert not r.is_legal(3, "play 2r 3r 4r 5r 6r")
    assert r.is_legal(1, "play 7k 8k 9k Tk Jk Qk")
    assert r.is_legal(3, "play 2r 3r 4r 5r 6r 7r")
