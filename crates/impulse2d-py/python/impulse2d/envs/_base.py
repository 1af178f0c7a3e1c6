"""Shared machinery of the gymnasium environments over the Rust cores."""

from __future__ import annotations

from typing import Any

import numpy as np

import gymnasium as gym
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from .._impulse2d import EnvCore, VectorEnvCore

try:  # "human" rendering needs pygame (not a dependency: rgb_array needs nothing).
    import importlib.util

    _HAVE_PYGAME = importlib.util.find_spec("pygame") is not None
except (ImportError, ValueError):
    _HAVE_PYGAME = False

_SINGLE_RENDER_MODES = ["rgb_array", "human"] if _HAVE_PYGAME else ["rgb_array"]


def _spaces(core) -> tuple[spaces.Space, spaces.Space]:
    shape, low, high, dtype, n, act_low, act_high = core.spaces()
    dtype = np.dtype(dtype)
    observation_space = spaces.Box(
        np.array(low, dtype=np.float32).reshape(shape).astype(dtype),
        np.array(high, dtype=np.float32).reshape(shape).astype(dtype),
        dtype=dtype,
    )
    if n is not None:
        action_space = spaces.Discrete(n)
    else:
        action_space = spaces.Box(
            np.array(act_low, dtype=np.float32), np.array(act_high, dtype=np.float32), dtype=np.float32
        )
    return observation_space, action_space


def _core_options(constructor_locals: dict[str, Any]) -> dict[str, Any]:
    """The keywords for the Rust core: an environment constructor's
    ``locals()`` without ``self``, ``render_mode`` and ``__class__``."""
    return {k: v for k, v in constructor_locals.items() if k not in ("self", "render_mode", "__class__")}


def _rust_seed(env, seed: int | None) -> int | None:
    """The seed for the Rust side: `seed`, or for a first reset without one a
    seed drawn from `env.np_random` (seeded from entropy by Gymnasium); `None`
    (continue the stream) afterwards."""
    if seed is None and not env._seeded:
        seed = int(env.np_random.integers(0, 2**63 - 1))
    if seed is not None:
        if seed < 0:
            raise ValueError(f"seed must be non-negative, not {seed}")
        env._seeded = True
    return seed


class ImpulseEnv(gym.Env):
    """A gymnasium environment over an `EnvCore` (one Rust environment).

    Seeding: `reset(seed=s)` seeds the Rust environment's own generator with
    `s` (xoshiro256**, not numpy's), so the same seed gives the same episode,
    bit for bit. The first `reset()` without a seed draws one from entropy,
    later unseeded resets continue the stream, as Gymnasium does.
    """

    metadata = {"render_modes": _SINGLE_RENDER_MODES, "render_fps": 50}
    _name = ""

    def __init__(self, render_mode: str | None = None, **kwargs: Any):
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}, not {render_mode!r}")
        self.render_mode = render_mode
        self._core = self._make_core(**kwargs)
        self.observation_space, self.action_space = _spaces(self._core)
        self._discrete = isinstance(self.action_space, spaces.Discrete)
        self._dtype = self.observation_space.dtype
        self._shape = self.observation_space.shape
        self._seeded = False
        self._screen = None
        self._clock = None

    def _make_core(self, **kwargs: Any):
        """The Rust core (an environment with extras of its own overrides this)."""
        # The time limit is gymnasium's TimeLimit wrapper (added by gym.make).
        return EnvCore(self._name, max_episode_steps=None, **kwargs)

    def _obs(self, raw: bytes) -> np.ndarray:
        return np.frombuffer(raw, dtype=self._dtype).reshape(self._shape).copy()

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        raw = self._core.reset(_rust_seed(self, seed))
        if self.render_mode == "human":
            self.render()
        return self._obs(raw), {}

    def step(self, action):
        if self._discrete:
            if isinstance(action, np.ndarray):
                if action.shape != ():
                    raise ValueError(f"a discrete action must be a scalar, not shape {action.shape}")
                action = action.item()
            if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
                raise ValueError(f"{action!r} is not a discrete action")
            raw, reward, terminated, truncated = self._core.step(int(action))
        else:
            a = np.asarray(action, dtype=np.float32)
            if a.shape != self.action_space.shape:
                raise ValueError(f"action of shape {a.shape}, expected {self.action_space.shape}")
            raw, reward, terminated, truncated = self._core.step(a.tolist())
        if self.render_mode == "human":
            self.render()
        return self._obs(raw), float(reward), bool(terminated), bool(truncated), {}

    def render(self):
        if self.render_mode is None:
            gym.logger.warn(
                "You are calling render method without specifying any render mode. "
                'Set render_mode="rgb_array" at initialization.'
            )
            return None
        w, h, rgb = self._core.render()
        frame = np.frombuffer(rgb, dtype=np.uint8).reshape(h, w, 3).copy()
        if self.render_mode == "human":
            self._show(frame)
            return None
        return frame

    def _show(self, frame: np.ndarray) -> None:
        """Shows `frame` in a pygame window at the environment's frame rate."""
        import pygame

        if self._screen is None:
            pygame.display.init()
            self._screen = pygame.display.set_mode((frame.shape[1], frame.shape[0]))
            self._clock = pygame.time.Clock()
        self._screen.blit(pygame.surfarray.make_surface(frame.swapaxes(0, 1)), (0, 0))
        pygame.event.pump()
        self._clock.tick(self.metadata["render_fps"])
        pygame.display.flip()

    def close(self):
        if self._screen is not None:
            import pygame

            pygame.display.quit()
            self._screen = None
        super().close()


class ImpulseVectorEnv(VectorEnv):
    """`num_envs` Rust environments stepped on `workers` threads.

    Autoreset is Gymnasium 1.x's next-step mode: the step after an episode
    ended resets that environment (its action is ignored; reward 0, neither
    flag). `reset(seed=s)` seeds environment `i` with `s + i`, so results equal
    those of `num_envs` single environments seeded the same way.
    """

    metadata = {"render_modes": ["rgb_array"], "render_fps": 50, "autoreset_mode": AutoresetMode.NEXT_STEP}
    _name = ""

    @staticmethod
    def _default_max_episode_steps(kwargs: dict) -> int:
        raise NotImplementedError

    def __init__(
        self,
        num_envs: int = 1,
        workers: int = 1,
        max_episode_steps: int | None = None,
        render_mode: str | None = None,
        **kwargs: Any,
    ):
        """``num_envs`` environments on ``workers`` threads; ``kwargs`` are the
        environment's constructor arguments; ``max_episode_steps`` defaults to
        Gymnasium's time limit for the environment."""
        if max_episode_steps is None:
            max_episode_steps = self._default_max_episode_steps(kwargs)
        if num_envs < 1:
            raise ValueError(f"num_envs must be at least 1, not {num_envs}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}, not {render_mode!r}")
        self.render_mode = render_mode
        self.num_envs = num_envs
        self._core = VectorEnvCore(
            self._name, num_envs, workers, max_episode_steps=max_episode_steps, **kwargs
        )
        self.single_observation_space, self.single_action_space = _spaces(self._core)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._discrete = isinstance(self.single_action_space, spaces.Discrete)
        self._dtype = self.single_observation_space.dtype
        self._shape = (num_envs, *self.single_observation_space.shape)
        self._seeded = False

    @property
    def workers(self) -> int:
        """Number of worker threads, the calling thread included."""
        return self._core.workers

    def _obs(self, raw: bytes) -> np.ndarray:
        return np.frombuffer(raw, dtype=self._dtype).reshape(self._shape).copy()

    def reset(self, *, seed: int | list | None = None, options: dict | None = None):
        """Resets every environment: with one int ``s``, environment ``i`` gets
        ``s + i``; with a list of ``num_envs`` seeds (ints or ``None``, as
        Gymnasium's vector envs take), environment ``i`` gets ``seed[i]``
        (``None``: it continues its stream, or on a first reset draws one)."""
        if isinstance(seed, (list, tuple, np.ndarray)):
            raw = self._core.reset_seeds(self._seed_list(list(seed)))
            return self._obs(raw), {}
        super().reset(seed=seed)
        raw = self._core.reset(_rust_seed(self, seed))
        return self._obs(raw), {}

    def _seed_list(self, seeds: list) -> list:
        """Per-environment seeds checked (length, non-negative ints or None);
        before the first seeded reset, a None is drawn from ``np_random``."""
        if len(seeds) != self.num_envs:
            raise ValueError(f"{len(seeds)} seeds for {self.num_envs} environments")
        out = []
        for s in seeds:
            if s is not None and (isinstance(s, (bool, np.bool_)) or not isinstance(s, (int, np.integer)) or s < 0):
                raise ValueError(f"a seed must be a non-negative int or None, not {s!r}")
            if s is None and not self._seeded:
                s = int(self.np_random.integers(0, 2**63 - 1))
            out.append(None if s is None else int(s))
        self._seeded = True
        return out

    def step(self, actions):
        if self._discrete:
            a = np.asarray(actions)
            if a.shape != (self.num_envs,) or not np.issubdtype(a.dtype, np.integer):
                raise ValueError(f"expected {self.num_envs} integer actions, got shape {a.shape} of {a.dtype}")
            out = self._core.step(np.ascontiguousarray(a, dtype=np.int64).tobytes())
        else:
            a = np.asarray(actions, dtype=np.float32)
            if a.shape != self.action_space.shape:
                raise ValueError(f"actions of shape {a.shape}, expected {self.action_space.shape}")
            out = self._core.step(np.ascontiguousarray(a).tobytes())
        raw, rewards, terminated, truncated = out
        return (
            self._obs(raw),
            np.frombuffer(rewards, dtype=np.float64).copy(),
            np.frombuffer(terminated, dtype=np.uint8).astype(bool),
            np.frombuffer(truncated, dtype=np.uint8).astype(bool),
            {},
        )

    def render(self):
        """The frame of every environment, as a tuple of (H, W, 3) uint8 arrays."""
        if self.render_mode is None:
            return None
        frames = []
        for i in range(self.num_envs):
            w, h, rgb = self._core.render(i)
            frames.append(np.frombuffer(rgb, dtype=np.uint8).reshape(h, w, 3).copy())
        return tuple(frames)
