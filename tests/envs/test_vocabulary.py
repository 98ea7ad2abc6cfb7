"""Every legal action of the cores maps to exactly one index, and every legal index back."""

import random

import numpy as np
import pytest

from pagoda import doudizhu as ddz
from pagoda import tichu
from pagoda.envs import doudizhu_flow, tichu_flow
from pagoda.envs.tichu_flow import PLAY_INDEX, TichuFlow, play_key


def _tichu_index(a: tichu.Action, seat: int, top: tichu.Combo | None) -> int:
    if a.kind == "play":
        combo = a.combo or tichu.classify(a.mask, top)
        assert combo is not None
        return PLAY_INDEX[play_key(combo)]
    if a.kind == "give-dragon":
        return tichu_flow.A_GIVE_NEXT if (a.target - seat) % 4 == 1 else tichu_flow.A_GIVE_PREV
    return tichu_flow.SIMPLE.index(a.kind)


def test_tichu_vocabulary_is_fixed() -> None:
    assert tichu_flow.NUM_ACTIONS == 1589
    assert len(set(tichu_flow.PLAY_KEYS)) == len(tichu_flow.PLAY_KEYS) == 1511


@pytest.mark.parametrize("rules", ["standard", "bsw", "standard wish_required=true one_call_per_team=true"])
def test_tichu_actions_map_both_ways(rules: str) -> None:
    checked = 0
    for seed in range(6):
        rng = random.Random(seed)
        flow = TichuFlow(seed, tichu.Rules.parse(rules))
        while not flow.is_over:
            r, seat, legal = flow.round, flow.actor(), flow.legal()
            assert legal == sorted(set(legal))
            kind = flow._decide().kind
            if kind in (tichu_flow.D_TURN, tichu_flow.D_POLL):
                for a in r.legal_actions(seat):
                    if kind == tichu_flow.D_POLL and a.kind != "play" and a.kind != "tichu":
                        continue
                    assert _tichu_index(a, seat, r.top) in legal, (str(a), r)
                    checked += 1
                for index in legal:
                    rep = flow.action(index)
                    if index == tichu_flow.A_NO_BOMB:
                        continue
                    assert rep is not None
                    assert r.is_legal(seat, rep), (index, str(rep))
                    assert _tichu_index(rep, seat, r.top) == index
            elif kind == tichu_flow.D_EXCHANGE:
                hand = r.hand_mask(seat)
                picks = {i - tichu_flow.EXCHANGE0 for i in legal if i >= tichu_flow.EXCHANGE0}
                assert picks == {c for c in range(56) if hand >> c & 1} - set(flow.picks)
            flow.step(rng.choice(legal))
    assert checked > 1000


def test_tichu_out_of_turn_bomb_is_asked() -> None:
    r = tichu.Round.from_hands(
        [
            "Mj 2g 3g 4g 5g 6g 7g 8g 9g Tg Jg Qg Kg Ag",
            "Dg 2k 3k 4k 5k 6k 7k 8k 9k Tk Jk Qk Kk Ak",
            "Ph 2b 3b 4b 5b 6b 7b 8b 9b Tb Jb Qb Kb Ab",
            "Dr 2r 3r 4r 5r 6r 7r 8r 9r Tr Jr Qr Kr Ar",
        ]
    )
    flow = TichuFlow.from_round(r.apply(0, "tichu"))
    single_two = PLAY_INDEX[("single", 2, 0, 0)]
    flow.step(single_two)
    # Seat 1 moves next (its bombs are among its plays); the others are asked from seat 2 on, the
    # player itself last.
    assert flow.round.window == (2, 3, 0)
    assert flow.actor() == 2
    assert tichu_flow.A_NO_BOMB in flow.legal()
    flow.step(tichu_flow.A_NO_BOMB)
    bombs = [i for i in flow.legal() if i >= tichu_flow.PLAY0]
    assert all(tichu_flow.PLAY_KEYS[i - tichu_flow.PLAY0][0] == "straight_flush" for i in bombs)
    flow.step(bombs[0])
    assert flow.round.top is not None
    assert flow.round.top.kind == "straight_flush"
    assert flow.round.to_move == 0
    assert flow.round.window == (1, 2, 3)
    assert flow.actor() == 1


def test_tichu_mah_jong_asks_for_the_wish() -> None:
    r = tichu.Round.from_hands(
        [
            "Mj 2g 3g 4g 5g 6g 7g 8g 9g Tg Jg Qg Kg Ag",
            "Dg 2k 3k 4k 5k 6k 7k 8k 9k Tk Jk Qk Kk Ak",
            "Ph 2b 3b 4b 5b 6b 7b 8b 9b Tb Jb Qb Kb Ab",
            "Dr 2r 3r 4r 5r 6r 7r 8r 9r Tr Jr Qr Kr Ar",
        ]
    )
    flow = TichuFlow.from_round(r)
    flow.step(PLAY_INDEX[("mahjong", 1, 0, 0)])
    assert flow.actor() == 0
    assert flow.legal() == list(range(tichu_flow.WISH0, tichu_flow.WISH0 + 14))
    flow.step(tichu_flow.WISH0 + 7 - 1)
    assert flow.round.wish == 7


def test_tichu_canonical_suits_keep_bombs() -> None:
    r = tichu.Round.from_hands(
        [
            "Mj 5g 5r 6g 7g 8g 9g Tk Jk Qk Kk Ak Dr Ph",
            "Dg 2k 3k 4k 5k 6k 7k 8k 9k 2g 3g 4g Tg Jg",
            "2b 3b 4b 5b 6b 7b 8b 9b Tb Jb Qb Kb Ab Qg",
            "2r 3r 4r 6r 7r 8r 9r Tr Jr Qr Kr Ar Kg Ag",
        ]
    )
    flow = TichuFlow.from_round(r)
    rep = flow.action(PLAY_INDEX[("single", 5, 0, 0)])
    assert rep is not None
    assert str(rep) == "play 5r"


@pytest.mark.parametrize("preset", ["classic", "rlcard", "openspiel", "four_player", "laizi"])
def test_doudizhu_actions_map_both_ways(preset: str) -> None:
    rules = ddz.RULES[preset]
    vocab = doudizhu_flow.vocabulary(rules)
    assert len(set(vocab.plays)) == len(vocab.plays)
    for seed in range(3):
        rng = random.Random(seed)
        flow = doudizhu_flow.DoudizhuFlow(seed, rules)
        while not flow.is_over:
            legal = flow.legal()
            for a in flow.round.legal_actions():
                if a.kind == "play":
                    assert a.combo is not None
                    assert vocab.index[a.combo.reading] in legal
            for index in legal:
                rep = flow.action(index)
                assert rep is not None
                if index >= vocab.play0:
                    assert rep.combo is not None
                    assert vocab.index[rep.combo.reading] == index
                else:
                    assert vocab.text(index) == str(rep)
            features = flow.features(legal)
            assert features.shape == (len(legal), flow.feature_size)
            assert features.dtype == np.int8
            flow.step(rng.choice(legal))


def test_doudizhu_vocabulary_sizes() -> None:
    sizes = {p: doudizhu_flow.vocabulary(ddz.RULES[p]).size for p in ddz.RULES}
    # rlcard: pass + 27,471 plays is RLCard's own 27,472, with the 6 auction actions before them
    assert sizes == {
        "classic": 32199,
        "rlcard": 27477,
        "openspiel": 25667,
        "four_player": 25666,
        "laizi": 32199,
    }
