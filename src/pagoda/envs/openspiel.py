"""Tichu and Dou Di Zhu as OpenSpiel Python games: ``python_pagoda_tichu``, ``python_pagoda_doudizhu``.

>>> from pagoda.envs import openspiel
>>> game = openspiel.load("python_pagoda_doudizhu", preset="rlcard")
>>> game.num_distinct_actions(), game.num_players()
(27477, 3)

Registration happens on import (``pyspiel.load_game("python_pagoda_tichu")`` works after it).
Parameters: Tichu ``rules`` (``standard``, ``bsw`` or rules text), Dou Di Zhu ``preset``
(``classic``, ``four_player``, ``laizi``, ``rlcard``, ``openspiel`` or rules text), both
``episode`` (``round`` or ``match``). The actions are the indices of the PettingZoo
environments' vocabularies. The deal is three chance nodes of 1,024 outcomes each, the digits of
a 30-bit seed of the core's shuffle. Observations (tensor and string) come from the core's
``view(seat)``: the same vector as the PettingZoo ``observation``; the information-state string
adds the public history the view records.
"""

import importlib
from collections.abc import Callable
from typing import Any

import numpy as np

from pagoda import doudizhu as ddz
from pagoda import tichu
from pagoda.envs._common import Flow
from pagoda.envs.doudizhu_flow import DoudizhuFlow
from pagoda.envs.tichu_flow import TichuFlow

pyspiel: Any = importlib.import_module("pyspiel")

CHANCE_DIGITS = 3
CHANCE_OUTCOMES = 1024
TICHU = "python_pagoda_tichu"
DOUDIZHU = "python_pagoda_doudizhu"


def _game_type(short: str, long: str, params: dict[str, str], players: int, zero_sum: bool) -> Any:
    return pyspiel.GameType(
        short_name=short,
        long_name=long,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM if zero_sum else pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.REWARDS,
        max_num_players=players,
        min_num_players=3 if short == DOUDIZHU else players,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=params,
    )


def _game_info(flow: Flow, bound: float, length: int, zero_sum: bool) -> Any:
    return pyspiel.GameInfo(
        num_distinct_actions=flow.num_actions,
        max_chance_outcomes=CHANCE_OUTCOMES,
        num_players=flow.num_players,
        min_utility=-bound,
        max_utility=bound,
        utility_sum=0.0 if zero_sum else None,
        max_game_length=length,
    )


class _Observer:
    """The PyObserver interface over a flow's ``observe(seat)``."""

    def __init__(self, size: int, perfect_recall: bool) -> None:
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor}
        self.perfect_recall = perfect_recall

    def set_from(self, state: "_State", player: int) -> None:
        if state.flow is None:
            self.tensor.fill(0)
        else:
            self.tensor[:] = state.flow.observe(player)

    def string_from(self, state: "_State", player: int) -> str:
        flow = state.flow
        if flow is None:
            return f"seat {player}: dealing"
        text = _view_text(flow, player)
        if self.perfect_recall:
            text += "\n" + _history_text(flow, player)
        return text


def _view_text(flow: Flow, seat: int) -> str:
    if isinstance(flow, TichuFlow):
        v = flow.round.view(seat)
        top = f"{v.top} by {v.top_seat}" if v.top is not None else "-"
        return (
            f"seat {seat} {v.phase}: hand {tichu.format_cards(v.hand)} | sizes {v.hand_sizes}"
            f" | table {top} | wish {v.wish} | out {v.out} | decision {flow.actor()}"
            f" | picked {flow.picks if flow.actor() == seat else []}"
        )
    assert isinstance(flow, DoudizhuFlow)
    w = flow.round.view(seat)
    return (
        f"seat {seat} {w.phase.value}: hand {w.hand} | counts {w.counts} | landlord {w.landlord}"
        f" | table {w.top} by {w.top_seat} | bid {w.bid} | to move {w.to_move}"
    )


def _history_text(flow: Flow, seat: int) -> str:
    if isinstance(flow, TichuFlow):
        events = flow.round.view(seat).events
        if flow.match is not None:
            return f"round {flow.match.number} " + "; ".join(f"{s} {a}" for s, a in events)
        return "; ".join(f"{s} {a}" for s, a in events)
    assert isinstance(flow, DoudizhuFlow)
    rounds = f"round {len(flow.match.rounds) + 1} " if flow.match is not None else ""
    return rounds + "; ".join(f"{s} {a}" for s, a in flow.round.view(seat).history)


class _State(pyspiel.State):  # type: ignore[misc]
    def __init__(self, game: Any, make: Callable[[int], Flow]) -> None:
        super().__init__(game)
        self._make = make
        self._digits: list[int] = []
        self.flow: Flow | None = None
        self._rewards = [0.0] * game.num_players()
        self._returns = [0.0] * game.num_players()

    def current_player(self) -> int:
        flow = self.flow
        if flow is None:
            return int(pyspiel.PlayerId.CHANCE)
        if flow.is_over:
            return int(pyspiel.PlayerId.TERMINAL)
        return flow.actor()

    def _legal_actions(self, player: int) -> list[int]:
        assert self.flow is not None
        return self.flow.legal()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        p = 1.0 / CHANCE_OUTCOMES
        return [(i, p) for i in range(CHANCE_OUTCOMES)]

    def _apply_action(self, action: int) -> None:
        if self.flow is None:
            self._digits.append(action)
            if len(self._digits) == CHANCE_DIGITS:
                seed = 0
                for d in self._digits:
                    seed = seed * CHANCE_OUTCOMES + d
                self.flow = self._make(seed)
            return
        self._rewards = self.flow.step(action)
        self._returns = [a + b for a, b in zip(self._returns, self._rewards, strict=True)]

    def _action_to_string(self, player: int, action: int) -> str:
        if self.flow is None:
            return f"seed digit {action}"
        return self.flow.action_text(action)

    def is_terminal(self) -> bool:
        return self.flow is not None and self.flow.is_over

    def rewards(self) -> list[float]:
        return list(self._rewards)

    def returns(self) -> list[float]:
        return list(self._returns)

    def __str__(self) -> str:
        if self.flow is None:
            return f"dealing, seed digits {self._digits}"
        return str(getattr(self.flow, "text")())  # noqa: B009


class _Game(pyspiel.Game):  # type: ignore[misc]
    def __init__(self, game_type: Any, params: dict[str, Any] | None, make: Callable[[int], Flow]) -> None:
        self._make = make
        self._probe = make(0)
        zero_sum = isinstance(self._probe, DoudizhuFlow)
        match = getattr(self._probe, "match", None) is not None
        bound = 1e6 if match else (1000.0 if not zero_sum else 3 * 2**20 * 4.0)
        length = 1_000_000 if match else 5000
        info = _game_info(self._probe, bound, length, zero_sum)
        super().__init__(game_type, info, params or {})

    def new_initial_state(self) -> _State:
        return _State(self, self._make)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> _Observer:
        recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return _Observer(self._probe.obs_size, recall)


_TICHU_TYPE = _game_type(TICHU, "Tichu (pagoda)", {"rules": "standard", "episode": "round"}, 4, False)
_DDZ_TYPE = _game_type(DOUDIZHU, "Dou Di Zhu (pagoda)", {"preset": "classic", "episode": "round"}, 4, True)


class TichuGame(_Game):
    """Tichu: 4 players, teams 0+2 and 1+3, each rewarded its team's score."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        p = dict(params or {})
        rules = tichu.Rules.parse(str(p.get("rules", "standard")))
        episode = str(p.get("episode", "round"))
        super().__init__(_TICHU_TYPE, p, lambda seed: TichuFlow(seed, rules, episode))


class DoudizhuGame(_Game):
    """Dou Di Zhu: 3 players (4 with ``four_player``), the auction included."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        p = dict(params or {})
        rules = ddz.parse_rules(str(p.get("preset", "classic")))
        episode = str(p.get("episode", "round"))
        super().__init__(_DDZ_TYPE, p, lambda seed: DoudizhuFlow(seed, rules, episode))


def _register() -> None:
    registered = set(pyspiel.registered_names())
    if TICHU not in registered:
        pyspiel.register_game(_TICHU_TYPE, TichuGame)
    if DOUDIZHU not in registered:
        pyspiel.register_game(_DDZ_TYPE, DoudizhuGame)


_register()


def load(name: str, **params: str) -> Any:
    """``pyspiel.load_game(name, params)`` for one of the two games."""
    return pyspiel.load_game(name, params)


__all__ = ["DOUDIZHU", "TICHU", "DoudizhuGame", "TichuGame", "load"]
