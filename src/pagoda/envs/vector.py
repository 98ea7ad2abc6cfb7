"""Batched environments: B rounds of one game stepped together, numpy arrays in and out.

:func:`tichu_vector` and :func:`doudizhu_vector` make a :class:`VectorEnv` of ``num_envs`` rounds
(round episodes) on one of two engines with the same answers: ``native`` (the Rust core steps all
B rounds in one call and writes the observations and masks straight into preallocated arrays)
and ``python`` (B decision flows, :mod:`pagoda.envs.tichu_flow` / :mod:`pagoda.envs.doudizhu_flow`);
``auto`` picks native when it is built. The layouts and vocabularies are the PettingZoo
environments' (docs/envs.md); tests/envs/test_vector.py holds the two engines equal at every step.

A :class:`VectorEnv` is a :class:`gymnasium.vector.VectorEnv` (same-step autoreset) for a
turn-based game of several seats, one seat acting in each round at a time:

- ``reset(seed=...)`` returns ``(obs, infos)`` and ``step(actions)`` returns ``obs`` first:
  ``observation`` (B x obs_size ``int8``, what the seat to act may know), ``action_mask``
  (B x num_actions ``int8``) and ``agent`` (B ``int64``, the seat to act).
- ``step`` also returns ``rewards`` (B x players ``float32``: each seat's reward, at the end of a
  round; one column per seat where a one-agent environment has a single reward), ``terminations``
  (B ``bool``), ``truncations`` (all False) and ``infos`` (empty).
- ``observation_space`` and ``action_space`` are the batched Gymnasium spaces of
  ``single_observation_space`` and ``single_action_space``.
- A round that ends is reset at once (Gymnasium's same-step autoreset): the ``obs`` row is then
  the next round's first decision, the rewards and termination those of the round that ended.
- Seeding: ``reset(seed=...)`` seeds a ``random.Random`` that draws each round's deal seed
  (``getrandbits(31)``, environment 0 first, then each reset in order), as the PettingZoo
  environments draw theirs.

The arrays returned are the environment's own buffers, overwritten by the next call: copy what
must outlive it.

>>> env = tichu_vector(2, engine="python")
>>> obs, infos = env.reset(seed=1)
>>> obs["observation"].shape, obs["action_mask"].shape, obs["agent"].tolist()
((2, 964), (2, 1589), [0, 0])
"""

import hashlib
import random
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from gymnasium.vector import VectorEnv as GymVectorEnv
from gymnasium.vector.utils import batch_space

from pagoda import doudizhu as ddz
from pagoda import native, tichu
from pagoda.envs.doudizhu_flow import DoudizhuFlow, vocabulary
from pagoda.envs.tichu_flow import NUM_ACTIONS, OBS_SIZE, TichuFlow

Obs = dict[str, npt.NDArray[Any]]


class Batch(Protocol):
    """B rounds as decisions: what both engines do (the native classes and :class:`FlowBatch`)."""

    num_envs: int
    obs_size: int
    num_actions: int

    def reset(self, index: int, seed: int) -> None:
        """Start round ``index`` on the deal of ``seed``."""
        ...

    def step(
        self, actions: npt.NDArray[np.int64], rewards: npt.NDArray[np.float32], dones: npt.NDArray[np.bool_]
    ) -> None:
        """Apply one action per round; write the rewards and whether each round ended."""
        ...

    def observe(
        self,
        seats: npt.NDArray[np.int64],
        obs: npt.NDArray[np.int8],
        mask: npt.NDArray[np.int8],
        actors: npt.NDArray[np.int64],
    ) -> None:
        """Write the observation of ``seats[i]`` (-1: the seat to act), the masks and the actors."""
        ...

    def legal(self, index: int) -> list[int]:
        """The legal indices of round ``index``."""
        ...


class FlowBatch:
    """The Python engine: B decision flows behind the native batch's interface."""

    def __init__(self, make: Any, num_envs: int, obs_size: int, num_actions: int, players: int) -> None:
        if num_envs < 1:
            raise ValueError("num_envs: at least 1")
        self._make = make
        self.num_envs = num_envs
        self.obs_size = obs_size
        self.num_actions = num_actions
        self.players = players
        self.flows: list[Any] = [None] * num_envs

    def reset(self, index: int, seed: int) -> None:
        """Start round ``index`` on the deal of ``seed``."""
        if not 0 <= index < self.num_envs:
            raise IndexError(f"environment {index}: 0..{self.num_envs - 1}")
        self.flows[index] = self._make(seed)

    def legal(self, index: int) -> list[int]:
        """The legal indices of round ``index``."""
        return list(self._flow(index).legal())

    def _flow(self, index: int) -> Any:
        flow = self.flows[index]
        if flow is None:
            raise ValueError(f"environment {index} has not been reset")
        return flow

    def step(
        self, actions: npt.NDArray[np.int64], rewards: npt.NDArray[np.float32], dones: npt.NDArray[np.bool_]
    ) -> None:
        """Apply one action per round; write the rewards and whether each round ended."""
        if len(actions) != self.num_envs:
            raise ValueError(f"actions: {self.num_envs} entries wanted, not {len(actions)}")
        flows = [self._flow(i) for i in range(self.num_envs)]
        for i, (flow, a) in enumerate(zip(flows, actions.tolist(), strict=True)):
            if flow.is_over:
                raise ValueError(f"environment {i} is over: reset it first")
            if a not in flow.legal():
                raise ValueError(f"actions[{i}] = {a} is not legal for seat {flow.actor()} now")
        for i, (flow, a) in enumerate(zip(flows, actions.tolist(), strict=True)):
            rewards[i] = flow.step(a)
            dones[i] = flow.is_over

    def observe(
        self,
        seats: npt.NDArray[np.int64],
        obs: npt.NDArray[np.int8],
        mask: npt.NDArray[np.int8],
        actors: npt.NDArray[np.int64],
    ) -> None:
        """Write the observation of ``seats[i]`` (-1: the seat to act), the masks and the actors."""
        obs.fill(0)
        mask.fill(0)
        for i in range(self.num_envs):
            flow = self._flow(i)
            actor = flow.actor()
            actors[i] = actor
            seat = int(seats[i]) if seats[i] >= 0 else actor
            if seat >= 0:
                obs[i] = flow.observe(seat)
            if seat == actor and actor >= 0:
                mask[i, flow.legal()] = 1


class VectorEnv(GymVectorEnv[Obs, npt.NDArray[np.int64], npt.NDArray[Any]]):
    """``num_envs`` rounds of one game stepped together (see the module's docstring)."""

    def __init__(self, batch: Batch, players: int, engine: str) -> None:
        self.metadata = {"autoreset_mode": AutoresetMode.SAME_STEP}
        self.batch = batch
        self.engine = engine
        self.num_envs = batch.num_envs
        self.num_players = players
        self.obs_size = batch.obs_size
        self.num_actions = batch.num_actions
        b = self.num_envs
        self._obs = np.zeros((b, self.obs_size), dtype=np.int8)
        self._mask = np.zeros((b, self.num_actions), dtype=np.int8)
        self._agent = np.zeros(b, dtype=np.int64)
        self._actor_seats = np.full(b, -1, dtype=np.int64)
        self._rewards = np.zeros((b, players), dtype=np.float32)
        self._dones = np.zeros(b, dtype=np.bool_)
        self._truncations = np.zeros(b, dtype=np.bool_)
        self._rng = random.Random()
        self._ready = False
        self.single_observation_space = spaces.Dict(
            {
                "observation": spaces.Box(0, 1, (self.obs_size,), dtype=np.int8),
                "action_mask": spaces.Box(0, 1, (self.num_actions,), dtype=np.int8),
                "agent": spaces.Discrete(players),
            }
        )
        self.single_action_space = spaces.Discrete(self.num_actions)
        self.observation_space = batch_space(self.single_observation_space, b)
        self.action_space = batch_space(self.single_action_space, b)

    def _observe(self) -> Obs:
        self.batch.observe(self._actor_seats, self._obs, self._mask, self._agent)
        return {"observation": self._obs, "action_mask": self._mask, "agent": self._agent}

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Obs, dict[str, Any]]:
        """Deal a new round in every environment: the first decisions' observations, and no infos."""
        if options:
            raise ValueError(f"options: none are taken, not {sorted(options)}")
        super().reset(seed=seed)
        if seed is not None:
            self._rng = random.Random(seed)
        for i in range(self.num_envs):
            self.batch.reset(i, self._rng.getrandbits(31))
        self._ready = True
        return self._observe(), {}

    def step(
        self, actions: npt.ArrayLike
    ) -> tuple[Obs, npt.NDArray[np.float32], npt.NDArray[np.bool_], npt.NDArray[np.bool_], dict[str, Any]]:
        """One action per round (an index of the vocabulary, legal for the seat to act).

        Returns ``(obs, rewards, terminations, truncations, infos)``; a round that ends is dealt
        again at once. A bad action is an error naming its round, and changes nothing.
        """
        if not self._ready:
            raise RuntimeError("call reset() before step()")
        acts = np.ascontiguousarray(actions, dtype=np.int64)
        if acts.shape != (self.num_envs,):
            raise ValueError(f"actions: shape ({self.num_envs},) wanted, not {acts.shape}")
        self._rewards.fill(0.0)
        self.batch.step(acts, self._rewards, self._dones)
        for i in np.flatnonzero(self._dones).tolist():
            self.batch.reset(i, self._rng.getrandbits(31))
        return self._observe(), self._rewards, self._dones, self._truncations, {}

    def observe_seat(self, seat: int) -> npt.NDArray[np.int8]:
        """The observation of ``seat`` in every round (B x obs_size; a fresh array)."""
        if not 0 <= seat < self.num_players:
            raise ValueError(f"seat {seat} is not a seat: 0..{self.num_players - 1}")
        obs = np.zeros((self.num_envs, self.obs_size), dtype=np.int8)
        mask = np.zeros((self.num_envs, self.num_actions), dtype=np.int8)
        agents = np.zeros(self.num_envs, dtype=np.int64)
        self.batch.observe(np.full(self.num_envs, seat, dtype=np.int64), obs, mask, agents)
        return obs

    def legal(self, index: int) -> list[int]:
        """The legal indices of round ``index``, ascending."""
        return list(self.batch.legal(index))

    def sample(self, rng: np.random.Generator) -> npt.NDArray[np.int64]:
        """A uniformly random legal action per round (from the current masks)."""
        out = np.empty(self.num_envs, dtype=np.int64)
        for i, row in enumerate(self._mask):
            legal = np.flatnonzero(row)
            out[i] = legal[rng.integers(len(legal))]
        return out


def _engine(engine: str) -> str:
    return native.engine_name(engine)


def tichu_vector(num_envs: int, rules: str | tichu.Rules = "standard", engine: str = "auto") -> VectorEnv:
    """``num_envs`` Tichu rounds (``rules``: a preset name, rules text or value) on ``engine``."""
    value = rules if isinstance(rules, tichu.Rules) else tichu.Rules.parse(rules)
    name = _engine(engine)
    if name == "native":
        from pagoda.tichu.native import rules_flags

        mod: Any = native.module()
        batch: Batch = mod.TichuBatch(num_envs, rules_flags(value))
    else:
        batch = FlowBatch(lambda seed: TichuFlow(seed, value), num_envs, OBS_SIZE, NUM_ACTIONS, 4)
    return VectorEnv(batch, 4, name)


def _seed_bytes(text: str) -> bytes:
    """CPython's seed of ``random.Random(text)``: the text's bytes, then their SHA-512."""
    raw = text.encode()
    return raw + hashlib.sha512(raw).digest()


def doudizhu_vector(num_envs: int, preset: str = "classic", engine: str = "auto") -> VectorEnv:
    """``num_envs`` Dou Di Zhu rounds (``preset``: a preset name or rules text) on ``engine``."""
    rules = ddz.parse_rules(preset)
    vocab = vocabulary(rules)
    probe = DoudizhuFlow(0, rules)
    name = _engine(engine)
    if name == "native":
        from pagoda.doudizhu.native import rules_fields

        mod: Any = native.module()
        batch: Batch = mod.DdzBatch(num_envs, rules_fields(rules), list(vocab.plays), _seed_bytes)
    else:
        batch = FlowBatch(
            lambda seed: DoudizhuFlow(seed, rules), num_envs, probe.obs_size, probe.num_actions, rules.players
        )
    return VectorEnv(batch, rules.players, name)


__all__ = ["Batch", "FlowBatch", "VectorEnv", "doudizhu_vector", "tichu_vector"]
