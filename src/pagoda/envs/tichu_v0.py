"""``pagoda.envs.tichu_v0``: Tichu as a PettingZoo AEC environment (4 agents, teams 0+2 and 1+3).

>>> from pagoda.envs import tichu_v0
>>> env = tichu_v0.env()
>>> env.reset(seed=1)
>>> int(env.action_space("player_0").n), env.agent_selection
(1589, 'player_0')
"""

from typing import Any

from pagoda import tichu
from pagoda.envs.aec import PagodaAECEnv
from pagoda.envs.tichu_flow import NUM_ACTIONS, TichuFlow


def raw_env(
    rules: str | tichu.Rules = "standard",
    episode: str = "round",
    render_mode: str | None = None,
    action_features: bool = False,
) -> Any:
    """The environment: ``rules`` a preset name (``standard``, ``bsw``) or rules text or value;
    ``episode`` ``round`` or ``match`` (to the target score); ``action_features`` puts the legal
    indices and their feature rows in ``infos``."""
    value = rules if isinstance(rules, tichu.Rules) else tichu.Rules.parse(rules)
    if episode not in ("round", "match"):
        raise ValueError(f"episode is 'round' or 'match', not {episode!r}")

    def make(seed: int) -> TichuFlow:
        return TichuFlow(seed, value, episode)

    return PagodaAECEnv(make, "tichu_v0", render_mode, action_features)


env = raw_env

__all__ = ["NUM_ACTIONS", "env", "raw_env"]
