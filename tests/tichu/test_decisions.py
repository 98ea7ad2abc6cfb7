"""The one decision flow of a round: the bomb window, ``no-bomb``, ``decisions()``, and what a
state hands out (nothing a caller can change)."""

import dataclasses

import pytest

from pagoda.core import Decision
from pagoda.tichu import Action, IllegalAction, Round
from pagoda.tichu.actions import PLAY
from pagoda.tichu.cards import DRAGON_BIT
from pagoda.tichu.combos import SINGLE, Combo

# Seat 1 holds the bomb 8888; seat 3 holds KKKK and the straight flushes 3r-7r, 9r-Kr, 9r-Ar,
# Tr-Ar; seats 0 and 2 hold no bomb. Seat 0 leads (Mah Jong); seat 2 holds the Dragon.
HANDS = [
    "Mj 2g 3g 4g 5k 6g 7k 9g Tg Jg Qk Ag Dg Ph",
    "8g 8k 8b 8r 2k 3k 4b 5b 6k 7b 9k Tb Jk Qb",
    "2b 3b 5g 6b 7g 9b Tk Jb Qg Ab Ak 4k Dr 2r",
    "3r 4r 5r 6r 7r 9r Tr Jr Qr Kg Kk Kb Kr Ar",
]
SEAT3_BOMBS = [
    "play 3r 4r 5r 6r 7r",
    "play 9r Tr Jr Qr Kr",
    "play 9r Tr Jr Qr Kr Ar",
    "play Tr Jr Qr Kr Ar",
    "play Kg Kk Kb Kr",
]


def _asked(r: Round) -> list[tuple[int, str]]:
    return [(d.seat, d.kind) for d in r.decisions()]


def _texts(actions: object) -> list[str]:
    return [str(a) for a in actions]  # type: ignore[attr-defined]


def _led() -> Round:
    r = Round.from_hands(HANDS)
    assert r.to_move == 0
    assert r.window == ()
    assert _asked(r) == [(0, "turn")]
    return r.apply(0, "play 2g")


def test_a_play_opens_the_window_for_every_bomb_but_the_seat_to_move() -> None:
    r = _led()
    assert r.to_move == 1
    # Seat 1 holds 8888 but is to move (its bomb is among its plays); seat 3 is asked.
    assert r.window == (3,)
    assert _asked(r) == [(3, "bomb"), (1, "turn")]
    bomb = r.decisions()[0]
    assert sorted(_texts(bomb.actions)) == sorted([*SEAT3_BOMBS, "no-bomb", "tichu"])
    assert _texts(bomb.actions)[-2:] == ["no-bomb", "tichu"]
    assert list(bomb.actions) == list(r.legal_actions(3))
    assert "play 8g 8k 8b 8r" in _texts(r.decisions()[1].actions)
    assert "no-bomb" not in _texts(r.legal_actions(1))
    # A view shows the window only to a seat in it: who else is asked would tell a bomb.
    assert r.view(3).window == (3,)
    assert [r.view(s).window for s in (0, 1, 2)] == [(), (), ()]


def test_the_seat_to_move_may_act_while_the_window_is_open() -> None:
    r = _led().apply(1, "pass")
    # A pass that does not complete the trick does not reopen the window.
    assert r.to_move == 2
    assert r.window == (3,)
    assert _asked(r) == [(3, "bomb"), (2, "turn")]


def test_no_bomb_leaves_the_window_and_passes_do_not_reopen_it() -> None:
    r = _led().apply(3, "no-bomb")
    assert r.window == ()
    assert r.actions[-1] == (3, Action("no-bomb"))
    assert "3 no-bomb" in str(r.record)
    assert (3, "no-bomb") in r.view(3).events
    assert all((3, "no-bomb") not in r.view(s).events for s in (0, 1, 2))
    r = r.apply(1, "pass").apply(2, "pass")
    assert r.window == ()
    assert _asked(r) == [(3, "turn")]
    # Seat 3 on turn: its bombs are among its plays, and no-bomb is not its to give.
    with pytest.raises(IllegalAction, match="seat 3 is to move"):
        r.apply(3, "no-bomb")


def _complete() -> Round:
    r = _led().apply(3, "no-bomb").apply(1, "pass").apply(2, "pass").apply(3, "pass")
    assert r.is_trick_complete
    return r


def test_the_completing_pass_reopens_the_window_and_take_waits_for_it() -> None:
    r = _complete()
    assert r.to_move == 0
    # Asked in play order after the last passer (seat 3): 0, 1, 2, 3; seats 1 and 3 hold bombs.
    assert r.window == (1, 3)
    assert _asked(r) == [(1, "bomb"), (3, "bomb")]
    assert _texts(r.legal_actions(1)) == ["play 8g 8k 8b 8r", "no-bomb", "tichu"]
    assert _texts(r.legal_actions(0)) == []
    with pytest.raises(IllegalAction, match="bomb window is open: seats 1 and 3"):
        r.apply(0, "take")
    r = r.apply(1, "no-bomb")
    assert r.window == (3,)
    with pytest.raises(IllegalAction, match="seat 3 may still bomb"):
        r.apply(0, "take")
    r = r.apply(3, "no-bomb")
    assert r.window == ()
    assert [(d.seat, d.kind, _texts(d.actions)) for d in r.decisions()] == [(0, "turn", ["take"])]
    # A seat that answered may still bomb until the trick is taken (RULINGS), unasked.
    assert "play 8g 8k 8b 8r" in _texts(r.legal_actions(1))
    assert r.apply(0, "take").to_move == 0


def test_the_winner_of_a_complete_trick_is_in_the_window() -> None:
    r = _led().apply(3, "no-bomb").apply(1, "play 8g 8k 8b 8r")
    assert r.to_move == 2
    # After seat 1's bomb: seat 3's KKKK and straight flushes beat it.
    assert r.window == (3,)
    r = r.apply(3, "no-bomb").apply(2, "pass").apply(3, "pass").apply(0, "pass")
    assert r.is_trick_complete
    assert r.to_move == 1
    # Seat 1 won; it holds no bomb now. The window, after seat 0: 1, 2, 3 -> seat 3.
    assert r.window == (3,)
    r = r.apply(3, "play Kg Kk Kb Kr")
    # The bomb changed the table: play goes on after the bomber; seat 3 itself is asked last
    # (its straight flushes beat its own four Kings).
    assert r.to_move == 0
    assert r.window == (3,)
    assert _asked(r) == [(3, "bomb"), (0, "turn")]
    assert "play Kg Kk Kb Kr" not in _texts(r.legal_actions(3))


def test_no_bomb_from_a_seat_not_in_the_window_is_refused_with_a_reason() -> None:
    r = _complete()
    with pytest.raises(IllegalAction, match="seat 2 is not in the bomb window: it holds no bomb that beats"):
        r.apply(2, "no-bomb")
    r = r.apply(1, "no-bomb")
    with pytest.raises(IllegalAction, match=r"seat 1 is not in the bomb window.*or has answered"):
        r.apply(1, "no-bomb")
    start = Round.from_hands(HANDS)
    with pytest.raises(IllegalAction, match="no live trick"):
        start.apply(3, "no-bomb")
    grand = Round.new(3)
    with pytest.raises(IllegalAction, match="grand"):
        grand.apply(0, "no-bomb")


def test_the_simultaneous_phases_ask_every_awaited_seat_in_seat_order() -> None:
    r = Round.new(5)
    assert [(d.seat, d.kind) for d in r.decisions()] == [(s, "simultaneous") for s in range(4)]
    assert all(_texts(d.actions) == ["grand", "no-grand"] for d in r.decisions())
    r = r.apply(2, "no-grand")
    assert [d.seat for d in r.decisions()] == [0, 1, 3]
    for s in (0, 1, 3):
        r = r.apply(s, "no-grand")
    assert [(d.seat, d.kind, len(d.actions)) for d in r.decisions()] == [
        (s, "simultaneous", 1 + 14 * 13 * 12) for s in range(4)
    ]
    assert r.decisions() == tuple(Decision(s, "simultaneous", r.legal_actions(s)) for s in range(4))


def test_a_round_over_asks_nobody() -> None:
    r = Round.new(1)
    while not r.is_over:
        d = r.decisions()[0]
        r = r.apply(d.seat, d.actions[-1])
    assert r.decisions() == ()
    assert r.window == ()


# ----------------------------------------------------------------- nothing handed out can change


def test_legal_actions_cannot_be_changed_by_the_caller() -> None:
    r = _led()
    forged = Action(PLAY, DRAGON_BIT, combo=Combo(SINGLE, 15, DRAGON_BIT))
    for seat in (1, 3):  # a tuple made eagerly, and a list made on demand
        legal = r.legal_actions(seat)
        before = _texts(legal)
        with pytest.raises(AttributeError):
            legal.append(forged)  # type: ignore[attr-defined]
        with pytest.raises(TypeError):
            legal[0] = forged  # type: ignore[index]
        with pytest.raises(dataclasses.FrozenInstanceError):
            legal[0].mask = DRAGON_BIT  # type: ignore[misc]
        assert _texts(r.legal_actions(seat)) == before
    lead = Round.from_hands(HANDS).legal_actions(0)
    with pytest.raises(AttributeError):
        lead.append(forged)  # type: ignore[attr-defined]
    with pytest.raises(dataclasses.FrozenInstanceError):
        lead[0].mask = DRAGON_BIT  # type: ignore[misc]


def test_a_forged_action_is_checked_not_trusted() -> None:
    r = _led()
    forged = Action(PLAY, DRAGON_BIT, combo=Combo(SINGLE, 15, DRAGON_BIT))
    r.legal_actions(1)  # the seat to move's list is made and kept
    with pytest.raises(IllegalAction, match="seat 1 does not hold Dr"):
        r.apply(1, forged)
    # A forged action equal to a legal one is applied after being checked.
    equal = Action(PLAY, r.legal_actions(1)[0].mask)
    assert r.apply(1, equal) == r.apply(1, r.legal_actions(1)[0])
    assert sum(r.hand_mask(s) & DRAGON_BIT != 0 for s in range(4)) == 1


def test_the_combo_of_a_listed_action_cannot_be_changed() -> None:
    r = _led()
    listed = r.legal_actions(1)[0]
    assert listed.combo is not None
    # Single plays share their Combo between rounds: it is as immutable as the action.
    with pytest.raises(AttributeError):
        listed.combo.mask = DRAGON_BIT  # type: ignore[misc]
    after = r.apply(1, listed)
    assert after.top is not None
    assert after.top.mask == listed.mask
    assert sum(after.hand_mask(s) & DRAGON_BIT != 0 for s in range(4)) == 1


def test_a_decision_is_an_immutable_named_tuple() -> None:
    decision = Round.new(seed=1).decisions()[0]
    assert decision == (0, "simultaneous", decision.actions)
    with pytest.raises(AttributeError):
        decision.seat = 2  # type: ignore[misc]
