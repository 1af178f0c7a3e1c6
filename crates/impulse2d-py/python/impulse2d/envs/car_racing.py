"""CarRacing (Gymnasium's `CarRacing-v3`) on Impulse2D."""

from __future__ import annotations

from typing import Any

import gymnasium as gym

from .._impulse2d import CarRacingCore
from ._base import ImpulseEnv, ImpulseVectorEnv, _core_options, _rust_seed


class CarRacing(ImpulseEnv):
    """Gymnasium's CarRacing-v3 on Impulse2D: 96×96×3 uint8 observations.

    Arguments as Gymnasium's: ``continuous`` (``Box([-1, 0, 0], [1, 1, 1])``
    actions, or ``Discrete(5)``), ``lap_complete_percent``, ``domain_randomize``;
    ``reset(options={"randomize": False})`` keeps a domain-randomised env's
    colours, and ``info["lap_finished"]`` says how an episode ended.

    Seeding: unlike the other environments, CarRacing draws from NumPy's
    PCG64 seeded through ``SeedSequence``, as Gymnasium's ``np_random``, so
    ``reset(seed=s)`` builds the track Gymnasium's CarRacing-v3 builds for
    ``s`` (``track()`` is Gymnasium's ``env.track``).
    """

    _name = "CarRacing"

    def __init__(
        self,
        render_mode: str | None = None,
        lap_complete_percent: float = 0.95,
        domain_randomize: bool = False,
        continuous: bool = True,
    ):
        self.continuous = continuous
        super().__init__(render_mode, **_core_options(locals()))

    def _make_core(self, **kwargs: Any):
        return CarRacingCore(max_episode_steps=None, **kwargs)

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        gym.Env.reset(self, seed=seed)
        randomize = None
        if isinstance(options, dict) and "randomize" in options:
            randomize = bool(options["randomize"])
        raw = self._core.reset(_rust_seed(self, seed), randomize)
        if self.render_mode == "human":
            self.render()
        return self._obs(raw), {}

    def step(self, action):
        obs, reward, terminated, truncated, info = super().step(action)
        lap_finished = self._core.lap_finished()
        if lap_finished is not None:
            info["lap_finished"] = lap_finished
        return obs, reward, terminated, truncated, info

    def track(self) -> list[tuple[float, float, float, float]]:
        """The centre line as Gymnasium's ``env.track``: ``(alpha, beta, x, y)`` per point."""
        return self._core.track()

    def colors(self) -> tuple[tuple[float, float, float], ...]:
        """``(road, background, grass)`` colours, RGB 0-255."""
        return tuple(tuple(c) for c in self._core.colors())


class CarRacingVector(ImpulseVectorEnv):
    """``num_envs`` CarRacings on ``workers`` threads (see ImpulseVectorEnv)."""

    _name = "CarRacing"

    @staticmethod
    def _default_max_episode_steps(kwargs: dict) -> int:
        return 1000
