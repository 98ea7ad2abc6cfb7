"""``pagoda.envs.doudizhu_v0``: Dou Di Zhu as a PettingZoo AEC environment, auction included.

>>> from pagoda.envs import doudizhu_v0
>>> env = doudizhu_v0.env(preset="rlcard")
>>> env.reset(seed=1)
>>> int(env.action_space("player_0").n), len(env.possible_agents)
(27477, 3)
"""

from typing import Any

from pagoda import doudizhu as ddz
from pagoda.envs.aec import PagodaAECEnv
from pagoda.envs.doudizhu_flow import DoudizhuFlow

PRESETS = ("classic", "four_player", "laizi", "rlcard", "openspiel")


def raw_env(
    preset: str = "classic",
    episode: str = "round",
    render_mode: str | None = None,
    action_features: bool = False,
) -> Any:
    """The environment: ``preset`` a preset name or rules text (``classic rob=true``);
    ``episode`` ``round`` or ``match`` (``rules.rounds`` rounds); ``action_features`` puts the
    legal indices and their feature rows in ``infos``."""
    rules = ddz.parse_rules(preset)
    if episode not in ("round", "match"):
        raise ValueError(f"episode is 'round' or 'match', not {episode!r}")

    def make(seed: int) -> DoudizhuFlow:
        return DoudizhuFlow(seed, rules, episode)

    return PagodaAECEnv(make, "doudizhu_v0", render_mode, action_features)


env = raw_env

__all__ = ["PRESETS", "env", "raw_env"]
