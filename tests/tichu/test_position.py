"""The position notation: one line of text that reads back to an equal round (like FEN)."""

import random

import pytest

import pagoda.tichu
from pagoda.tichu import RULES, ParseError, Round, Rules, View, replay
from pagoda.tichu.round import Phase
from tests.tichu.randomplay import random_step

PRESETS = [*RULES, "standard wish_required=true one_call_per_team=true small_tichu_after_exchange_only=true"]


def _same_flow(a: Round, b: Round) -> None:
    assert [(d.seat, d.kind, list(d.actions)) for d in a.decisions()] == [
        (d.seat, d.kind, list(d.actions)) for d in b.decisions()
    ]
    for seat in range(4):
        assert list(a.legal_actions(seat)) == list(b.legal_actions(seat))


@pytest.mark.parametrize("preset", PRESETS)
def test_positions_of_random_play_read_back(preset: str) -> None:
    rules = Rules.parse(preset)
    namespace = vars(pagoda.tichu)
    steps = 0
    for seed in range(6):
        rng = random.Random(seed)
        r = Round.new(seed, rules)
        while True:
            text = r.position()
            assert "\n" not in text
            again = Round.from_position(text)
            assert again.position() == text
            assert again == r
            assert hash(again) == hash(r)
            _same_flow(again, r)
            if steps % 7 == 0:
                assert eval(repr(r), namespace) == r  # the repr is the notation
            if r.is_over:
                assert again.score() == r.score()
                break
            seat, action = random_step(r, rng)
            nxt, nxt_again = r.apply(seat, action), again.apply(seat, action)
            assert nxt_again.position() == nxt.position()
            if steps % 11 == 0:
                # A round set up from a position writes a record that replays from it.
                record = str(nxt_again.record)
                assert f'[Position "{text}"]' in record
                assert replay(record) == nxt
                assert replay(record).record == nxt_again.record
            r = nxt
            steps += 1
    assert steps > 400


def test_actions_and_rounds_repr_as_their_notation() -> None:
    r = Round.new(4)
    namespace = vars(pagoda.tichu)
    for seat in range(4):
        r = r.apply(seat, "no-grand")
    action = r.legal_actions(0)[5]
    assert repr(action) == f"Action.parse({str(action)!r})"
    assert eval(repr(action), namespace) == action
    assert repr(r) == f"Round.from_position({r.position()!r})"
    assert eval(repr(r), namespace) == r


DEALT = Round.from_hands(
    [
        "Mj 2g 3g 4g 5g 6g 7g 8g 9g Tg Jg Qg Kg Ag",
        "Dg 2k 3k 4k 5k 6k 7k 8k 9k Tk Jk Qk Kk Ak",
        "Ph 2b 3b 4b 5b 6b 7b 8b 9b Tb Jb Qb Kb Ab",
        "Dr 2r 3r 4r 5r 6r 7r 8r 9r Tr Jr Qr Kr Ar",
    ]
)


def test_an_exact_position() -> None:
    r = DEALT.apply(0, "play Mj wish 7").apply(1, "play 7k")
    assert r.position().split()[1:] == [
        "play",
        "2g3g4g5g6g7g8g9gTgJgQgKgAg/Dg2k3k4k5k6k8k9kTkJkQkKkAk/2b3b4b5b6b7b8b9bTbJbQbKbAbPh/"
        "2r3r4r5r6r7r8r9rTrJrQrKrArDr",
        "-",  # nothing left to deal
        "0123",  # every seat has decided on Grand Tichu (the round started in play)
        "-",
        "-",
        "-/-/-/-",  # no exchange
        "0:Mj,1:7k",  # the trick
        "-",  # nobody has passed on 7k
        "301",  # the bomb window: every seat with a straight flush but seat 2, to move
        "-",  # the wish for 7 is met
        "-",
        "-/-/-/-",
        "2",
    ]


def test_a_phoenix_reading_is_written_with_its_rank() -> None:
    words = DEALT.position().split()
    words[0], words[14] = "bsw", "2"  # the same cards under bsw, seat 2 to lead
    r = Round.from_position(" ".join(words))
    assert r.rules == RULES["bsw"]
    assert r.phase is Phase.PLAY
    r = r.apply(2, "play 2b Ph")
    assert r.position().split()[8] == "2:2bPh=2"
    r = r.apply(3, "pass")
    assert Round.from_position(r.position()) == r
    assert Round.from_position(r.position()).trick == r.trick


@pytest.mark.parametrize(
    ("change", "part"),
    [
        ((0, "classic"), "rules"),
        ((1, "bidding"), "phase"),
        ((2, "2g/3g"), "hands"),
        ((2, "Zz/-/-/-"), "hands"),
        ((3, "2g/-/-/-"), "undealt"),
        ((4, "0x"), "decided"),
        ((4, "10"), "decided"),
        ((7, "2g/-/-"), "given"),
        ((8, "0:Mj,1:3k4k"), "trick"),
        ((8, "5:Mj"), "trick"),
        ((10, "11"), "window"),
        ((10, "1"), "window"),  # seat 1 is to move: its bombs are among its plays
        ((11, "1"), "wish"),
        ((14, "7"), "to_move"),
    ],
)
def test_bad_positions_name_the_bad_part(change: tuple[int, str], part: str) -> None:
    words = DEALT.apply(0, "play Mj wish 7").position().split()
    index, word = change
    words[index] = word
    with pytest.raises(ParseError, match=f"position {part} "):
        Round.from_position(" ".join(words))


def test_positions_must_hold_the_whole_deck_once() -> None:
    words = DEALT.position().split()
    with pytest.raises(ParseError, match="fields"):
        Round.from_position(" ".join(words[:-1]))
    words[13] = "Ag/-/-/-"  # the Ace of Jade in seat 0's hand and in its won cards
    with pytest.raises(ParseError, match="Ag is in two places"):
        Round.from_position(" ".join(words))
    words = DEALT.position().split()
    words[2] = words[2].replace("Ag", "")
    with pytest.raises(ParseError, match=r"do not add up.*Ag"):
        Round.from_position(" ".join(words))


def test_a_round_is_a_game_state() -> None:
    from pagoda.core import GameState

    r = Round.new(seed=None)
    assert isinstance(r, GameState)
    assert Round.new(seed=1, rules=None) == Round.new(1)


@pytest.mark.parametrize("preset", ["standard", "bsw"])
def test_views_of_random_play_read_back(preset: str) -> None:
    namespace = vars(pagoda.tichu)
    for seed in range(3):
        rng = random.Random(seed)
        r = Round.new(seed, Rules.parse(preset))
        steps = 0
        while True:
            for seat in range(4):
                view = r.view(seat)
                text = view.text()
                assert "\n" not in text
                assert View.parse(text) == view
                if steps % 13 == 0:
                    assert eval(repr(view), namespace) == view  # the repr is the notation
            if r.is_over:
                break
            seat, action = random_step(r, rng)
            r = r.apply(seat, action)
            steps += 1


def test_a_view_shows_no_other_hand() -> None:
    r = DEALT.apply(0, "play Mj wish 7")
    text = r.view(2).text()
    assert text.split()[3] == "2b3b4b5b6b7b8b9bTbJbQbKbAbPh"  # its own hand, no other
    assert all(card not in text for card in ("2k", "2r", "Dr", "Dg"))
    assert text.split()[4] == "13/14/14/14"
    with pytest.raises(ParseError, match="view hand_sizes"):
        View.parse(text.replace("13/14/14/14", "13/14/14"))
