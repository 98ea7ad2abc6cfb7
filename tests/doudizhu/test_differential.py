"""Differential test: the ``rlcard`` and ``openspiel`` presets list exactly the plays of those
engines, leading and following, on thousands of positions of random games played in the real
engines (the ``compare`` extra, which ``make test`` installs: without it these tests fail)."""

import importlib
import os
import random

from pagoda import doudizhu as ddz
from pagoda.doudizhu.cards import format_mask, parse_mask
from pagoda.doudizhu.combos import PLANE_PAIR, PLANE_SOLO, Combo, readings

GAMES = int(os.environ.get("DDZ_DIFF_GAMES", "100"))


def test_rlcard_move_sets() -> None:
    np = importlib.import_module("numpy")
    game_module = importlib.import_module("rlcard.games.doudizhu.game")
    rules = ddz.RULES["rlcard"]
    positions = 0
    for seed in range(GAMES):
        game = game_module.DoudizhuGame()
        game.np_random = np.random.RandomState(seed)
        state, pid = game.init_game()
        rng = random.Random(seed)
        while not game.is_over():
            hand = parse_mask(state["current_hand"])
            theirs = set(state["actions"])
            greater = game.round.greater_player
            if greater is None or greater.player_id == pid:
                ours = {format_mask(p.mask) for p in ddz.plays(hand, None, rules)}
            else:
                # RLCard answers every reading of the cards on the table at once
                ours = {"pass"}
                for on in readings(parse_mask(greater.played_cards), rules):
                    ours |= {format_mask(p.mask) for p in ddz.plays(hand, on, rules)}
            assert ours == theirs, (state["current_hand"], greater and greater.played_cards)
            positions += 1
            state, pid = game.step(rng.choice(sorted(theirs)))
    assert positions >= 50 * GAMES


def _openspiel_cards(text: str) -> str:
    return text.replace("(BWJ)", "B").replace("(CJ)", "R")


def _openspiel_combo(text: str, rules: ddz.Rules) -> Combo:
    """Our reading of an OpenSpiel play (``333444-56`` names its plane before the dash)."""
    text = _openspiel_cards(text)
    if "-" in text:
        chain, kickers = text.split("-")
        length = len(chain) // 3
        kind = PLANE_SOLO if len(kickers) == length else PLANE_PAIR
        top = ddz.parse_cards(chain[-1]).counts().index(1) + 3
        found = [
            c
            for c in readings(parse_mask(chain + kickers), rules)
            if c.kind == kind and c.length == length and c.rank == top
        ]
    else:
        found = list(readings(parse_mask(text), rules))
    assert len(found) == 1, text
    return found[0]


def test_openspiel_move_sets() -> None:
    pyspiel = importlib.import_module("pyspiel")
    rules = ddz.RULES["openspiel"]
    game = pyspiel.load_game("dou_dizhu")
    positions = 0
    for seed in range(GAMES):
        rng = random.Random(seed)
        state = game.new_initial_state()
        on: Combo | None = None
        passes = 0
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
                continue
            seat = state.current_player()
            legal = state.legal_actions()
            texts = [state.action_to_string(seat, a) for a in legal]
            if any(t.startswith("Bid") for t in texts):
                state.apply_action(rng.choice(legal))
                continue
            observed = state.observation_string(seat)
            hand = parse_mask(_openspiel_cards(observed.split("My hand ")[1].split("\n")[0]))
            theirs = {
                "pass" if t == "Pass" else format_mask(parse_mask(_openspiel_cards(t).replace("-", "")))
                for t in texts
            }
            ours = {format_mask(p.mask) for p in ddz.plays(hand, on, rules)} | ({"pass"} if on else set())
            assert ours == theirs, (format_mask(hand), on)
            positions += 1
            action = rng.choice(legal)
            text = state.action_to_string(seat, action)
            if text == "Pass":
                passes += 1
                if passes == 2:
                    on = None
            else:
                on, passes = _openspiel_combo(text, rules), 0
            state.apply_action(action)
    assert positions >= 50 * GAMES
