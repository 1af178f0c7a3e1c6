"""LunarLander (Gymnasium's `LunarLander-v3`) on Impulse2D."""

from __future__ import annotations

from ._base import ImpulseEnv, ImpulseVectorEnv, _core_options


class LunarLander(ImpulseEnv):
    """Gymnasium's LunarLander-v3 on Impulse2D: same spaces, rewards and rules.

    Arguments as Gymnasium's: ``continuous`` (``Box(-1, 1, (2,))`` actions
    instead of ``Discrete(4)``), ``gravity`` (between -12 and 0, m/s²),
    ``enable_wind``, ``wind_power``, ``turbulence_power``.
    """

    _name = "LunarLander"

    def __init__(
        self,
        render_mode: str | None = None,
        continuous: bool = False,
        gravity: float = -10.0,
        enable_wind: bool = False,
        wind_power: float = 15.0,
        turbulence_power: float = 1.5,
    ):
        self.continuous = continuous
        super().__init__(render_mode, **_core_options(locals()))


class LunarLanderVector(ImpulseVectorEnv):
    """``num_envs`` LunarLanders on ``workers`` threads (see ImpulseVectorEnv)."""

    _name = "LunarLander"

    @staticmethod
    def _default_max_episode_steps(kwargs: dict) -> int:
        return 1000


def heuristic(env, s):
    """Gymnasium's LunarLander heuristic, unchanged (``env.unwrapped.continuous`` decides the action type)."""
    import numpy as np

    angle_targ = s[0] * 0.5 + s[2] * 1.0  # angle should point towards center
    if angle_targ > 0.4:
        angle_targ = 0.4  # more than 0.4 radians (22 degrees) is bad
    if angle_targ < -0.4:
        angle_targ = -0.4
    hover_targ = 0.55 * np.abs(s[0])  # target y should be proportional to horizontal offset

    angle_todo = (angle_targ - s[4]) * 0.5 - (s[5]) * 1.0
    hover_todo = (hover_targ - s[1]) * 0.5 - (s[3]) * 0.5

    if s[6] or s[7]:  # legs have contact
        angle_todo = 0
        hover_todo = -(s[3]) * 0.5  # override to reduce fall speed, that's all we need after contact

    if env.unwrapped.continuous:
        a = np.array([hover_todo * 20 - 1, -angle_todo * 20])
        a = np.clip(a, -1, +1)
    else:
        a = 0
        if hover_todo > np.abs(angle_todo) and hover_todo > 0.05:
            a = 2
        elif angle_todo < -0.05:
            a = 3
        elif angle_todo > +0.05:
            a = 1
    return a
