"""Reinforcement-learning environments over the rules cores (the ``rl`` extra).

- :mod:`pagoda.envs.tichu_v0` and :mod:`pagoda.envs.doudizhu_v0`: PettingZoo AEC environments.
- :mod:`pagoda.envs.openspiel`: both games registered as OpenSpiel Python games.
- :mod:`pagoda.envs.tichu_flow` and :mod:`pagoda.envs.doudizhu_flow`: the games as single-seat
  decisions over a fixed action vocabulary, which both adapters wrap (numpy only).
- :mod:`pagoda.envs.vector`: B rounds stepped at once, numpy arrays in and out, on the native
  core or the flows (:mod:`pagoda.envs.vector_bench` measures both).

See docs/envs.md for the observation and action layouts.
"""
