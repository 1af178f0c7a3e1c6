"""Gymnasium's Box2D environments on Impulse2D (needs ``gymnasium``).

Importing this module registers, with Gymnasium:

- ``impulse2d/LunarLander-v0`` (``continuous=True`` for continuous actions)
  and ``impulse2d/LunarLanderContinuous-v0``;
- ``impulse2d/BipedalWalker-v0`` (``hardcore=True`` for the hardcore course)
  and ``impulse2d/BipedalWalkerHardcore-v0``;
- ``impulse2d/CarRacing-v0`` (``continuous=False`` for ``Discrete(5)``).

Each has a vector version for ``gym.make_vec(id, num_envs=N,
vectorization_mode="vector_entry_point", workers=W)``: N environments stepped
in Rust on W threads with next-step autoreset. The physics is Impulse2D's, not
Box2D 2.3's, hence the new ids.
"""

from __future__ import annotations

import gymnasium as gym

from .car_racing import CarRacing, CarRacingVector
from .bipedal_walker import BipedalWalker, BipedalWalkerHeuristics, BipedalWalkerVector
from .lunar_lander import LunarLander, LunarLanderVector, heuristic

__all__ = [
    "BipedalWalker",
    "BipedalWalkerHeuristics",
    "BipedalWalkerVector",
    "CarRacing",
    "CarRacingVector",
    "LunarLander",
    "LunarLanderVector",
    "heuristic",
]

_REGISTRATIONS = [
    ("impulse2d/LunarLander-v0", "LunarLander", {}, 1000, 200),
    ("impulse2d/LunarLanderContinuous-v0", "LunarLander", {"continuous": True}, 1000, 200),
    ("impulse2d/BipedalWalker-v0", "BipedalWalker", {}, 1600, 300),
    ("impulse2d/BipedalWalkerHardcore-v0", "BipedalWalker", {"hardcore": True}, 2000, 300),
    ("impulse2d/CarRacing-v0", "CarRacing", {}, 1000, 900),
]

for _id, _cls, _kwargs, _steps, _threshold in _REGISTRATIONS:
    if _id not in gym.registry:
        gym.register(
            id=_id,
            entry_point=f"impulse2d.envs:{_cls}",
            vector_entry_point=f"impulse2d.envs:{_cls}Vector",
            max_episode_steps=_steps,
            reward_threshold=_threshold,
            kwargs=_kwargs,
        )
