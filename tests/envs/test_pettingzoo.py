"""PettingZoo's own API and seed tests on every environment and preset."""

import importlib
import warnings
from typing import Any

import pytest

from pagoda.envs import doudizhu_v0, tichu_v0

_pz_test: Any = importlib.import_module("pettingzoo.test")
api_test, seed_test = _pz_test.api_test, _pz_test.seed_test

# Both follow from dict observations (observation + action_mask), as in PettingZoo's own card games.
_EXPECTED = ("Observation is not a NumPy array", "Observation space for each agent probably should be")


def _checked(run: object) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert callable(run)
        run()
    unexpected = [str(w.message) for w in caught if not str(w.message).startswith(_EXPECTED)]
    assert not unexpected


@pytest.mark.parametrize("rules", ["standard", "bsw"])
def test_tichu_api(rules: str) -> None:
    _checked(lambda: api_test(tichu_v0.env(rules=rules, action_features=True), num_cycles=200))


def test_tichu_seed() -> None:
    _checked(lambda: seed_test(lambda: tichu_v0.env(action_features=True), num_cycles=100))


def test_tichu_match_api() -> None:
    _checked(lambda: api_test(tichu_v0.env(episode="match"), num_cycles=150))


@pytest.mark.parametrize("preset", doudizhu_v0.PRESETS)
def test_doudizhu_api(preset: str) -> None:
    _checked(lambda: api_test(doudizhu_v0.env(preset=preset), num_cycles=60))


@pytest.mark.parametrize("preset", doudizhu_v0.PRESETS)
def test_doudizhu_seed(preset: str) -> None:
    _checked(lambda: seed_test(lambda: doudizhu_v0.env(preset=preset, action_features=True), num_cycles=30))


def test_doudizhu_match_episode() -> None:
    env = doudizhu_v0.env(preset="classic rounds=2", episode="match")
    env.reset(seed=3)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    ends = 0
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        totals[agent] += reward
        if terminated or truncated:
            ends += 1
            env.step(None)
            continue
        legal = [i for i, m in enumerate(obs["action_mask"]) if m]
        env.step(legal[-1])
    assert ends == 3
    assert sum(totals.values()) == 0
