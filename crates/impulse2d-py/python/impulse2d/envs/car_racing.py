"""CarRacing (Gymnasium's `CarRacing-v3`) on Impulse2D."""

from __future__ import annotations

from ._base import ImpulseEnv, ImpulseVectorEnv


class CarRacing(ImpulseEnv):
    """Gymnasium's CarRacing-v3 on Impulse2D: 96×96×3 uint8 observations.

    Arguments as Gymnasium's: ``continuous`` (``Box([-1, 0, 0], [1, 1, 1])``
    actions, or ``Discrete(5)``), ``lap_complete_percent``, ``domain_randomize``.
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
        super().__init__(
            render_mode,
            continuous=continuous,
            lap_complete_percent=lap_complete_percent,
            domain_randomize=domain_randomize,
        )


class CarRacingVector(ImpulseVectorEnv):
    """``num_envs`` CarRacings on ``workers`` threads (see ImpulseVectorEnv)."""

    _name = "CarRacing"

    @staticmethod
    def _default_max_episode_steps(kwargs: dict) -> int:
        return 1000
