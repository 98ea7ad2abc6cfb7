"""``python -m pagoda.envs.bench``: environment steps per second, pagoda's and RLCard's and OpenSpiel's
Dou Di Zhu environments side by side (uniformly random legal actions, one process, one core).

A step is one decision and the next observation, as each library's RL interface gives it:
pagoda's PettingZoo ``env.step`` + ``env.last()`` (observation dict with the action mask);
RLCard's ``env.step`` (its encoded state and legal actions); OpenSpiel's
``rl_environment.Environment.step`` (its C++ game, information-state tensors and legal actions).
"""

import argparse
import importlib
import random
import time
from collections.abc import Callable
from typing import Any

import numpy as np


def _rate(run_episode: Callable[[int], int], seconds: float) -> tuple[float, int]:
    start = time.perf_counter()
    steps = episodes = 0
    while time.perf_counter() - start < seconds or episodes < 2:
        steps += run_episode(episodes)
        episodes += 1
    return steps / (time.perf_counter() - start), episodes


def pagoda_env(module: str, **kwargs: str) -> Callable[[int], int]:
    """Random episodes of a pagoda PettingZoo environment."""
    env = importlib.import_module(f"pagoda.envs.{module}").env(**kwargs)

    def episode(seed: int) -> int:
        rng = random.Random(seed)
        env.reset(seed=seed)
        steps = 0
        for _agent in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            env.step(rng.choice(np.flatnonzero(obs["action_mask"])))
            steps += 1
        return steps

    return episode


def rlcard_env() -> Callable[[int], int]:
    """Random episodes of RLCard's ``doudizhu`` environment (no auction)."""
    rlcard: Any = importlib.import_module("rlcard")
    env = rlcard.make("doudizhu", config={"seed": 0})

    def episode(seed: int) -> int:
        rng = random.Random(seed)
        state, _ = env.reset()
        steps = 0
        while not env.is_over():
            state, _ = env.step(rng.choice(list(state["legal_actions"])))
            steps += 1
        return steps

    return episode


def openspiel_env() -> Callable[[int], int]:
    """Random episodes of OpenSpiel's C++ ``dou_dizhu`` through its Python RL environment."""
    rl_environment: Any = importlib.import_module("open_spiel.python.rl_environment")
    env = rl_environment.Environment("dou_dizhu")

    def episode(seed: int) -> int:
        rng = random.Random(seed)
        step = env.reset()
        steps = 0
        while not step.last():
            player = step.observations["current_player"]
            step = env.step([rng.choice(step.observations["legal_actions"][player])])
            steps += 1
        return steps

    return episode


def main(argv: list[str] | None = None) -> int:
    """Print steps/s and episodes for each environment."""
    parser = argparse.ArgumentParser(prog="python -m pagoda.envs.bench", description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0, help="seconds per environment")
    parser.add_argument("--only-pagoda", action="store_true", help="skip RLCard and OpenSpiel")
    args = parser.parse_args(argv)
    rows: list[tuple[str, Callable[[], Callable[[int], int]]]] = [
        ("pagoda doudizhu_v0 classic", lambda: pagoda_env("doudizhu_v0", preset="classic")),
        ("pagoda doudizhu_v0 rlcard", lambda: pagoda_env("doudizhu_v0", preset="rlcard")),
        ("pagoda doudizhu_v0 openspiel", lambda: pagoda_env("doudizhu_v0", preset="openspiel")),
        ("pagoda tichu_v0 standard", lambda: pagoda_env("tichu_v0", rules="standard")),
    ]
    if not args.only_pagoda:
        rows += [("RLCard doudizhu", rlcard_env), ("OpenSpiel dou_dizhu", openspiel_env)]
    print(f"{'environment':<30} {'steps/s':>10} {'episodes':>9}")
    for name, make in rows:
        try:
            episode = make()
        except ImportError as e:
            print(f"{name:<30} not installed ({e})")
            continue
        rate, episodes = _rate(episode, args.seconds)
        print(f"{name:<30} {rate:>10.0f} {episodes:>9}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
