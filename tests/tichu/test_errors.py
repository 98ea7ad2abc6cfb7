"""Every malformed or illegal action is refused with a message saying why, and changes nothing."""

import pytest

from pagoda.core import PagodaError
from pagoda.tichu import IllegalAction, ParseError, Round, parse_action, parse_cards, replay
from pagoda.tichu.round import Phase

# Seat 0 leads (Mah Jong) and holds the Dog and the Dragon; seat 1 holds four Nines.
HANDS = [
    "Dg Mj 2g 3g 4g 5g 6g 7g 8g Tg Jg Qg Kg Dr",
    "9g 9k 9b 9r 2k 3k 4k 5k 6k 7k 8k Tk Jk Qk",
    "2b 3b 4b 5b 6b 7b 8b Tb Jb Qb Kb Ab Ag Ph",
    "2r 3r 4r 5r 6r 7r 8r Tr Jr Qr Kr Ar Kk Ak",
]


def _start() -> Round:
    r = Round.from_hands(HANDS)
    assert r.to_move == 0
    return r


def _refused(
    r: Round, seat: int, action: str, *named: str, error: type[PagodaError] = IllegalAction
) -> PagodaError:
    """``action`` raises ``error`` naming each of ``named``; ``r`` is as it was."""
    copy = replay(str(r.record))
    assert copy == r
    legal = [str(a) for a in r.legal_actions(seat)]
    with pytest.raises(error) as info:
        r.apply(seat, action)
    message = str(info.value)
    for word in named:
        assert word.lower() in message.lower(), f"{message!r} does not name {word!r}"
    assert not r.is_legal(seat, action)
    assert r == copy
    assert r.record == copy.record
    assert [str(a) for a in r.legal_actions(seat)] == legal
    assert [r.hand(s) for s in range(4)] == [copy.hand(s) for s in range(4)]
    return info.value


def _no_bombs(r: Round) -> Round:
    """``r`` after every seat of its bomb window answers ``no-bomb``."""
    for seat in r.window:
        r = r.apply(seat, "no-bomb")
    assert r.window == ()
    return r


def test_illegal_action_is_a_value_error() -> None:
    assert issubclass(IllegalAction, ValueError)
    assert issubclass(ParseError, ValueError)
    with pytest.raises(ValueError, match="unknown action"):
        _start().apply(0, "fold")


def test_bad_syntax_is_a_parse_error_and_a_rules_violation_an_illegal_action() -> None:
    r = _start()
    with pytest.raises(ParseError, match="fold") as syntax:
        r.apply(0, "fold")
    assert not isinstance(syntax.value, IllegalAction)
    with pytest.raises(IllegalAction, match="does not hold") as rules:
        r.apply(0, "play 9g")
    assert not isinstance(rules.value, ParseError)


@pytest.mark.parametrize(
    ("action", "named"),
    [
        ("fold", ("unknown action", "fold")),
        ("", ("empty",)),
        ("play Zz", ("Zz",)),
        ("play 1g", ("1g",)),
        ("play 2g 2g", ("2g", "twice")),
        ("play", ("cards",)),
        ("pass now", ("pass",)),
        ("play 2g wish", ("wish",)),
        ("play Mj wish 1", ("1", "rank")),
        ("play Mj wish 5 wish 6", ("wish",)),
        ("give-dragon 7", ("give-dragon",)),
        ("exchange 2g 3g", ("3 cards",)),
    ],
)
def test_malformed_actions(action: str, named: tuple[str, ...]) -> None:
    _refused(_start(), 0, action, *named, error=ParseError)


def test_cards_not_held() -> None:
    _refused(_start(), 0, "play 9g", "does not hold", "9g")
    _refused(_start(), 0, "play 2g 2k", "does not hold", "2k")


def test_not_a_combination() -> None:
    _refused(_start(), 0, "play 2g 4g", "not a combination")
    _refused(_start(), 0, "play Dg 2g", "not a combination")
    _refused(_start(), 0, "play Mj Dr", "not a combination")


def test_out_of_turn_non_bomb() -> None:
    r = _start()
    _refused(r, 2, "play 2b", "turn")
    r = r.apply(0, "play 2g")
    assert r.to_move == 1
    _refused(r, 3, "play Ar", "seat 1", "turn")
    _refused(r, 0, "play Kg", "seat 1", "turn")
    _refused(r, 2, "pass", "seat 1", "turn")


def test_pass_when_leading() -> None:
    _refused(_start(), 0, "pass", "leader", "pass")


def test_a_play_that_does_not_beat() -> None:
    r = _start().apply(0, "play Kg")
    _refused(r, 1, "play Qk", "does not beat")
    _refused(r, 1, "play 9g 9k", "does not beat")
    # A straight flush is a bomb: it beats the single.
    assert r.apply(1, "play 2k 3k 4k 5k 6k").top_seat == 1


def test_wish_without_the_mah_jong() -> None:
    _refused(_start(), 0, "play 2g wish 5", "wish", "Mah Jong", error=ParseError)


def test_wish_obliges() -> None:
    r = _start().apply(0, "play Mj wish 9")
    assert r.to_move == 1
    _refused(r, 1, "pass", "wish", "9")
    _refused(r, 1, "play Qk", "wish", "9")
    r = r.apply(1, "play 9g")
    assert r.wish == 0


def test_take_when_the_trick_is_not_complete() -> None:
    r = _start().apply(0, "play 2g")
    _refused(r, 0, "take", "not complete")
    _refused(r, 1, "take", "no trick")
    r = r.apply(1, "pass").apply(2, "pass")
    _refused(r, 0, "take", "not complete")
    r = r.apply(3, "pass")
    assert r.is_trick_complete
    _refused(r, 1, "take", "no trick")
    _refused(r, 0, "pass", "take")
    _refused(r, 0, "play 3g", "take")
    _refused(r, 0, "give-dragon 1", "Dragon")
    # Every seat holds a straight flush: all are asked, after the last passer, before the take.
    assert r.window == (0, 1, 2, 3)
    _refused(r, 0, "take", "bomb window", "seats 0, 1, 2 and 3")
    assert _no_bombs(r).apply(0, "take").to_move == 0


def test_take_on_an_empty_table() -> None:
    _refused(_start(), 0, "take", "no trick")


def test_give_dragon_to_the_partner() -> None:
    r = _start().apply(0, "play Dr")
    r = r.apply(1, "pass").apply(2, "pass").apply(3, "pass")
    assert r.is_trick_complete
    _refused(r, 0, "give-dragon 2", "opponent")
    _refused(r, 0, "give-dragon 0", "opponent")
    _refused(r, 0, "take", "give-dragon")
    _refused(r, 1, "give-dragon 2", "no trick")
    _refused(r, 0, "give-dragon 3", "bomb window")
    r = _no_bombs(r)
    assert r.apply(0, "give-dragon 3").won(3) == r.apply(0, "give-dragon 3").won(3)
    assert r.apply(0, "give-dragon 3").to_move == 0


def test_bomb_on_an_empty_table_out_of_turn() -> None:
    r = _start()
    _refused(r, 1, "play 9g 9k 9b 9r", "empty table")
    # Led in turn, the bomb is an ordinary lead.
    r = r.apply(0, "play 2g").apply(1, "play 9g 9k 9b 9r")
    assert r.top is not None
    assert r.top.kind == "four_of_a_kind"
    r = _no_bombs(r.apply(2, "pass").apply(3, "pass").apply(0, "pass")).apply(1, "take")
    assert r.to_move == 1


def test_bomb_after_a_taken_trick_out_of_turn() -> None:
    r = _no_bombs(_start().apply(0, "play 2g").apply(1, "pass").apply(2, "pass").apply(3, "pass"))
    r = r.apply(0, "take")
    assert r.top is None
    _refused(r, 1, "play 9g 9k 9b 9r", "empty table")


def test_bomb_on_the_dog() -> None:
    r = _start().apply(0, "play Dg")
    assert r.to_move == 2
    _refused(r, 1, "play 9g 9k 9b 9r")
    assert "play 9g 9k 9b 9r" not in [str(a) for a in r.legal_actions(1)]
    assert [str(a) for a in r.legal_actions(1)] == ["tichu"]


def test_play_after_the_round_is_over() -> None:
    r = Round.from_hands(
        [
            "Mj 2g 3g 4g 5g 6g 7g 8g 9g Tg Jg Qg Kg Dg",
            "2k 3b 4k 5b 6k 7b 8k 9b Tk Jb Qk Kb Ak Dr",
            "2b 3k 4b 5k 6b 7k 8b 9k Tb Jk Qb Kk Ab Ph",
            "2r 3r 4r 5r 6r 7r 8r 9r Tr Jr Qr Kr Ag Ar",
        ]
    )
    r = r.apply(0, "play Mj 2g 3g 4g 5g 6g 7g 8g 9g Tg Jg Qg Kg")
    r = _no_bombs(r.apply(1, "pass").apply(2, "pass").apply(3, "pass"))
    r = r.apply(0, "take").apply(0, "play Dg")
    r = r.apply(2, "play 2b 3k 4b 5k 6b 7k 8b 9k Tb Jk Qb Kk Ab")
    r = _no_bombs(r.apply(3, "pass").apply(1, "pass")).apply(2, "take").apply(2, "play Ph")
    assert r.phase is Phase.OVER
    assert r.score() == (200, 0)
    for seat in range(4):
        _refused(r, seat, "pass", "over")
        _refused(r, seat, "tichu", "over")
    _refused(r, 1, "play Dr", "over")
    _refused(r, 3, "take", "over")


def test_bad_seats() -> None:
    r = _start()
    for seat in (-1, 4):
        with pytest.raises(IllegalAction, match="seat"):
            r.apply(seat, "pass")
    assert r == replay(str(r.record))


def test_errors_in_the_grand_tichu_phase_change_nothing() -> None:
    r = Round.new(8)
    _refused(r, 0, "tichu", "14 cards")
    _refused(r, 0, "pass", "grand")
    r = r.apply(0, "grand")
    _refused(r, 0, "no-grand", "already decided")
    _refused(r, 1, "exchange 2g 3g 4g", "grand")


def test_errors_in_the_exchange_change_nothing() -> None:
    r = Round.new(8)
    for s in range(4):
        r = r.apply(s, "no-grand")
    hand = r.hand(1)
    not_held = r.hand(0)[0]
    _refused(r, 1, f"exchange {hand[0]} {hand[1]} {not_held}", "does not hold", str(not_held))
    _refused(r, 1, f"exchange {hand[0]} {hand[0]} {hand[1]}", "twice", error=ParseError)
    _refused(r, 1, f"play {hand[0]}", "exchange")
    r = r.apply(1, f"exchange {hand[0]} {hand[1]} {hand[2]}")
    _refused(r, 1, f"exchange {hand[3]} {hand[4]} {hand[5]}", "already given")


# ----------------------------------------------------------------- notation


@pytest.mark.parametrize(
    ("text", "bad", "position"),
    [
        ("Zz", "Zz", 0),
        ("2g 3g Xy", "Xy", 6),
        ("Mj2gQq", "Qq", 4),
        ("2g 1k", "1k", 3),
    ],
)
def test_unknown_cards_are_named_with_their_position(text: str, bad: str, position: int) -> None:
    with pytest.raises(ParseError, match=f"{bad}.*position {position}"):
        parse_cards(text)


@pytest.mark.parametrize(
    ("text", "card", "position"),
    [
        ("2g 3g 2g", "2g", 6),
        ("10r Tr", "Tr", 4),
        ("MjPhmj", "Mj", 4),
    ],
)
def test_cards_named_twice_are_named_with_their_position(text: str, card: str, position: int) -> None:
    with pytest.raises(ParseError) as info:
        parse_cards(text)
    message = str(info.value)
    assert card in message
    assert "twice" in message
    assert f"position {position}" in message


def test_parse_action_errors_are_parse_errors() -> None:
    for text in ("", "fold", "play", "exchange 2g", "give-dragon x", "play 2g as", "play Zz"):
        with pytest.raises(ParseError):
            parse_action(text)


def test_the_mah_jong_play_never_fulfils_its_own_wish() -> None:
    # The straight holds a 4 and wishes for 4: the wish is set after the play, so it stays.
    r = _start().apply(0, "play Mj 2g 3g 4g 5g wish 4")
    assert r.wish == 4
    # Seat 1 holds 4k and can beat the straight with one holding it: it must.
    _refused(r, 1, "pass", "wish", "4")
    _refused(r, 1, "play 5k 6k 7k 8k 9g", "wish", "4")
    r = r.apply(1, "play 2k 3k 4k 5k 6k")  # a straight flush: a bomb with the 4 meets it
    assert r.wish == 0
