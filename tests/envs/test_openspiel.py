"""OpenSpiel's random simulation test on both registered games and every preset."""

import importlib
from typing import Any

import pytest

from pagoda.envs import openspiel

pyspiel: Any = importlib.import_module("pyspiel")


@pytest.mark.parametrize(
    ("name", "params"),
    [
        (openspiel.TICHU, {}),
        (openspiel.TICHU, {"rules": "bsw"}),
        *[
            (openspiel.DOUDIZHU, {"preset": p})
            for p in ("classic", "four_player", "laizi", "rlcard", "openspiel")
        ],
    ],
)
def test_random_sim(name: str, params: dict[str, str]) -> None:
    game = openspiel.load(name, **params)
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)


def test_registered_and_cloned_independently() -> None:
    game = pyspiel.load_game("python_pagoda_tichu")
    state = game.new_initial_state()
    for _ in range(openspiel.CHANCE_DIGITS):
        assert state.is_chance_node()
        state.apply_action(7)
    clone = state.clone()
    clone.apply_action(clone.legal_actions()[0])
    assert len(state.history()) == openspiel.CHANCE_DIGITS
    assert state.current_player() == 0
    assert clone.current_player() == 1
    assert "hand" in state.information_state_string(0)
    assert len(state.observation_tensor(0)) == game.observation_tensor_size()


def test_match_episode_rewards_every_round() -> None:
    game = openspiel.load(openspiel.DOUDIZHU, preset="classic rounds=2", episode="match")
    state = game.new_initial_state()
    rounds_rewarded = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(3)
            continue
        state.apply_action(state.legal_actions()[-1])
        if any(state.rewards()):
            rounds_rewarded += 1
    assert rounds_rewarded == 2
    assert sum(state.returns()) == 0
