"""A PettingZoo AEC environment over a decision flow (see :mod:`pagoda.envs._common`).

Observations are dicts: ``observation`` (an ``np.int8`` vector, only what the seat may know)
and ``action_mask`` (``np.int8``, 1 for the legal indices of the agent to act, all 0 for the
others). ``infos[agent]`` holds ``legal_actions`` (the legal indices) and ``action_features``
(one row per legal index: its cards and type) when made with ``action_features=True``.
Rewards come when a round ends (every round of a match), one per agent.
"""

import importlib
import random
from collections.abc import Callable
from typing import Any, ClassVar

import numpy as np

from pagoda.envs._common import Flow, Int8Array

_pettingzoo: Any = importlib.import_module("pettingzoo")
_spaces: Any = importlib.import_module("gymnasium.spaces")


class PagodaAECEnv(_pettingzoo.AECEnv):  # type: ignore[misc]
    """The AEC environment of one game; made by ``tichu_v0.env()`` or ``doudizhu_v0.env()``."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["human", "ansi"],
        "name": "pagoda",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        make_flow: Callable[[int], Flow],
        name: str,
        render_mode: str | None = None,
        action_features: bool = False,
    ) -> None:
        super().__init__()
        self.metadata = dict(PagodaAECEnv.metadata, name=name)  # type: ignore[misc]
        self._make_flow = make_flow
        self.render_mode = render_mode
        self.action_features = action_features
        self._rng = random.Random()
        self.flow = make_flow(0)
        n = self.flow.num_players
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self.agent_name_mapping = {a: i for i, a in enumerate(self.possible_agents)}
        size, obs = self.flow.num_actions, self.flow.obs_size
        self._observation_space = _spaces.Dict(
            {
                "observation": _spaces.Box(0, 1, (obs,), dtype=np.int8),
                "action_mask": _spaces.Box(0, 1, (size,), dtype=np.int8),
            }
        )
        self._action_space = _spaces.Discrete(size)
        self.observation_spaces = dict.fromkeys(self.possible_agents, self._observation_space)
        self.action_spaces = dict.fromkeys(self.possible_agents, self._action_space)

    def observation_space(self, agent: str) -> Any:
        return self._observation_space

    def action_space(self, agent: str) -> Any:
        return self._action_space

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._rng = random.Random(seed)
        self.flow = self._make_flow(self._rng.getrandbits(31))
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.flow.actor()]
        self._update_info()

    def _update_info(self) -> None:
        for agent in self.agents:
            self.infos[agent] = {}
        if self.flow.is_over or not self.action_features:
            return
        agent = self.possible_agents[self.flow.actor()]
        legal = self.flow.legal()
        self.infos[agent] = {
            "legal_actions": np.array(legal, dtype=np.int64),
            "action_features": self.flow.features(legal),
        }

    def observe(self, agent: str) -> dict[str, Int8Array]:
        seat = self.agent_name_mapping[agent]
        mask = np.zeros(self.flow.num_actions, dtype=np.int8)
        if not self.flow.is_over and self.flow.actor() == seat:
            mask[self.flow.legal()] = 1
        return {"observation": self.flow.observe(seat), "action_mask": mask}

    def legal_actions(self, agent: str | None = None) -> list[int]:
        """The legal action indices of ``agent`` (default: the agent to act)."""
        seat = self.agent_name_mapping[agent or self.agent_selection]
        return self.flow.legal() if self.flow.actor() == seat else []

    def legal_action_features(self) -> tuple[list[int], Int8Array]:
        """The legal indices of the agent to act and one feature row per index."""
        legal = self.flow.legal()
        return legal, self.flow.features(legal)

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        assert action is not None, "an agent still in the game must act"
        seat = self.agent_name_mapping[agent]
        self._cumulative_rewards[agent] = 0.0
        rewards = self.flow.step(int(action))
        for i, a in enumerate(self.possible_agents):
            self.rewards[a] = rewards[i]
        if self.flow.is_over:
            for a in self.agents:
                self.terminations[a] = True
            self.agent_selection = self.possible_agents[(seat + 1) % len(self.possible_agents)]
        else:
            self.agent_selection = self.possible_agents[self.flow.actor()]
        self._accumulate_rewards()
        self._update_info()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        text: str = getattr(self.flow, "text")()  # noqa: B009
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass
