"""Policy evaluation spread over Ray actors, each owning one vector environment.

Needs ``gymnasium`` and, for the actors, ``ray`` (``pip install impulse2d[ray]``);
:func:`evaluate` and :class:`LinearPolicy` run without Ray.

A batch of candidates (one parameter vector each, rows of a 2-D numpy array)
is evaluated one episode per candidate. Candidate ``j`` of a batch evaluated
with seed ``s`` plays the episode of environment seed ``s + j``, whichever
actor and vector-environment slot runs it, so the results of a run depend on
its seed only, not on the number of actors, their scheduling or ``num_envs``::

    import ray
    from impulse2d.distributed import RolloutPool

    ray.init(num_cpus=2, include_dashboard=False)   # or ray.init(address="auto")
    pool = RolloutPool("impulse2d/LunarLander-v0", num_actors=2, num_envs=8, workers=1)
    params = pool.policy.zeros(16)                  # (16, 36): 16 candidates
    returns, steps = pool.evaluate(params, seed=1000)   # float64 (16,), int64 (16,)
    pool.close()
"""

from __future__ import annotations

from typing import Any

import numpy as np

import gymnasium as gym
from gymnasium import spaces

import impulse2d.envs  # noqa: F401  (registers impulse2d/*)

__all__ = ["LinearPolicy", "RolloutPool", "RolloutWorker", "es_step", "es_train", "evaluate", "make_env"]


class LinearPolicy:
    """A linear policy, observation → action, with its parameters as one flat
    float64 vector of ``(obs_dim + 1) * act_dim`` numbers: a weight matrix
    ``(obs_dim, act_dim)`` row by row, then the bias ``(act_dim,)``.

    Discrete actions take the argmax of the logits (the first on ties);
    continuous ones are ``tanh`` of them scaled into the action box. The
    product is written as per-element multiply-adds, so an environment's
    action does not depend on how many others share the batch (a BLAS matrix
    product may sum in a different order for different batch sizes).
    """

    def __init__(self, observation_space: spaces.Box, action_space: spaces.Space):
        if not isinstance(observation_space, spaces.Box) or len(observation_space.shape) != 1:
            raise ValueError(f"a linear policy needs a flat Box observation space, not {observation_space}")
        self.obs_dim = int(observation_space.shape[0])
        if isinstance(action_space, spaces.Discrete):
            self.discrete = True
            self.act_dim = int(action_space.n)
        elif isinstance(action_space, spaces.Box) and len(action_space.shape) == 1:
            self.discrete = False
            self.act_dim = int(action_space.shape[0])
            self._low = action_space.low.astype(np.float64)
            self._high = action_space.high.astype(np.float64)
        else:
            raise ValueError(f"a linear policy needs a Discrete or flat Box action space, not {action_space}")
        self.num_params = (self.obs_dim + 1) * self.act_dim

    def zeros(self, n: int) -> np.ndarray:
        """``n`` all-zero parameter vectors, shape ``(n, num_params)``."""
        return np.zeros((n, self.num_params), dtype=np.float64)

    def check(self, params: Any) -> np.ndarray:
        """``params`` as a float64 ``(n, num_params)`` array; ``ValueError`` for
        a wrong shape or a NaN/infinite entry."""
        p = np.asarray(params, dtype=np.float64)
        if p.ndim != 2 or p.shape[1] != self.num_params:
            raise ValueError(f"parameters of shape {p.shape}, expected (n, {self.num_params})")
        if not np.all(np.isfinite(p)):
            bad = np.flatnonzero(~np.all(np.isfinite(p), axis=1))
            raise ValueError(f"non-finite parameters in candidates {bad.tolist()}")
        return p

    def act(self, params: np.ndarray, obs: np.ndarray):
        """Actions for observations ``obs`` (n, obs_dim) under the parameters
        ``params`` (n, num_params), one row per environment."""
        n = obs.shape[0]
        w = params[:, : self.obs_dim * self.act_dim].reshape(n, self.obs_dim, self.act_dim)
        logits = params[:, self.obs_dim * self.act_dim :].copy()
        x = obs.astype(np.float64)
        for k in range(self.obs_dim):
            logits += x[:, k, None] * w[:, k, :]
        if self.discrete:
            return np.argmax(logits, axis=1).astype(np.int64)
        u = np.tanh(logits)
        return (self._low + (u + 1.0) * 0.5 * (self._high - self._low)).astype(np.float32)


def make_env(env_id: str, num_envs: int, workers: int = 1, **kwargs: Any):
    """``gym.make_vec(env_id, num_envs, vectorization_mode="vector_entry_point",
    workers=workers, **kwargs)``: ``num_envs`` environments stepped in Rust on
    ``workers`` threads."""
    return gym.make_vec(
        env_id, num_envs=num_envs, vectorization_mode="vector_entry_point", workers=workers, **kwargs
    )


def evaluate(envs, policy: LinearPolicy, params: Any, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """One episode per candidate (row of ``params``) on the vector env
    ``envs``, candidate ``j`` on environment seed ``seed + j``; returns the
    episode returns (float64) and lengths in steps (int64).

    Runs ``ceil(n / num_envs)`` rounds of ``num_envs`` candidates; in a short
    last round the spare environments play the zero policy and are ignored.
    """
    p = policy.check(params)
    if not isinstance(seed, (int, np.integer)) or seed < 0:
        raise ValueError(f"seed must be a non-negative int, not {seed!r}")
    n, m = p.shape[0], envs.num_envs
    returns = np.zeros(n, dtype=np.float64)
    lengths = np.zeros(n, dtype=np.int64)
    for start in range(0, n, m):
        k = min(m, n - start)
        batch = np.zeros((m, policy.num_params), dtype=np.float64)
        batch[:k] = p[start : start + k]
        obs, _ = envs.reset(seed=int(seed) + start)
        done = np.zeros(m, dtype=bool)
        done[k:] = True
        ret = np.zeros(m, dtype=np.float64)
        length = np.zeros(m, dtype=np.int64)
        while not done.all():
            obs, rewards, terminated, truncated, _ = envs.step(policy.act(batch, obs))
            live = ~done
            ret[live] += rewards[live]
            length[live] += 1
            done |= terminated | truncated
        returns[start : start + k] = ret[:k]
        lengths[start : start + k] = length[:k]
    return returns, lengths


class RolloutWorker:
    """One vector environment (``num_envs`` worlds on ``workers`` Rust
    threads) evaluating batches of linear-policy parameters. Use it as a Ray
    actor through :class:`RolloutPool` (``ray.remote(num_cpus=workers)``), or
    in-process as it is."""

    def __init__(self, env_id: str, num_envs: int, workers: int = 1, env_kwargs: dict | None = None):
        self.envs = make_env(env_id, num_envs, workers, **(env_kwargs or {}))
        self.policy = LinearPolicy(self.envs.single_observation_space, self.envs.single_action_space)

    def evaluate(self, params: Any, seed: int) -> tuple[np.ndarray, np.ndarray]:
        """See :func:`evaluate`; a bad batch raises ``ValueError`` and the
        worker keeps serving."""
        return evaluate(self.envs, self.policy, params, seed)

    def num_params(self) -> int:
        """Length of one candidate's parameter vector."""
        return self.policy.num_params

    def close(self) -> None:
        """Close the vector environment."""
        self.envs.close()


class RolloutPool:
    """``num_actors`` Ray actors, each a :class:`RolloutWorker` reserving
    ``workers`` CPUs for its ``workers`` Rust threads (``ray.init`` first).

    :meth:`evaluate` cuts a batch into chunks of ``num_envs`` consecutive
    candidates, hands them to the actors round-robin and gathers the results in
    candidate order; chunk ``[a, b)`` is evaluated with seed ``seed + a``, so
    candidate ``j`` always plays environment seed ``seed + j``.
    """

    def __init__(
        self,
        env_id: str,
        num_actors: int,
        num_envs: int,
        workers: int = 1,
        env_kwargs: dict | None = None,
    ):
        import ray

        if num_actors < 1:
            raise ValueError(f"num_actors must be at least 1, not {num_actors}")
        if num_envs < 1 or workers < 1:
            raise ValueError(f"num_envs and workers must be at least 1, not {num_envs}, {workers}")
        self._ray = ray
        self.num_envs = num_envs
        remote = ray.remote(num_cpus=workers)(RolloutWorker)
        self.actors = [remote.remote(env_id, num_envs, workers, env_kwargs) for _ in range(num_actors)]
        # The policy's shape, for checking batches here rather than in an actor.
        probe = make_env(env_id, 1, 1, **(env_kwargs or {}))
        self.policy = LinearPolicy(probe.single_observation_space, probe.single_action_space)
        probe.close()
        ray.get([a.num_params.remote() for a in self.actors])  # wait until all started

    def evaluate(self, params: Any, seed: int) -> tuple[np.ndarray, np.ndarray]:
        """Returns (float64) and episode lengths (int64) of the candidates, in
        order; the same for any number of actors."""
        p = self.policy.check(params)
        starts = range(0, p.shape[0], self.num_envs)
        refs = [
            self.actors[i % len(self.actors)].evaluate.remote(p[a : a + self.num_envs], int(seed) + a)
            for i, a in enumerate(starts)
        ]
        parts = self._ray.get(refs)
        if not parts:
            return np.zeros(0, dtype=np.float64), np.zeros(0, dtype=np.int64)
        return np.concatenate([r for r, _ in parts]), np.concatenate([s for _, s in parts])

    def close(self) -> None:
        """Stop the actors."""
        for a in self.actors:
            self._ray.kill(a)
        self.actors = []


def es_step(
    theta: np.ndarray,
    evaluate_fn,
    rng: np.random.Generator,
    seed: int,
    pairs: int,
    sigma: float = 0.1,
    lr: float = 0.05,
) -> tuple[np.ndarray, np.ndarray]:
    """One step of evolution strategies: ``pairs`` antithetic Gaussian
    perturbations ``theta ± sigma·eps`` (drawn from ``rng``), evaluated by
    ``evaluate_fn(params, seed)`` (the pair members on the same environment
    seeds), rank-normalised returns, a plain gradient step of size ``lr``.
    Returns the new parameters and the batch's returns."""
    eps = rng.standard_normal((pairs, theta.size))
    params = np.concatenate([theta + sigma * eps, theta - sigma * eps])
    # Candidates j and pairs + j share the seed: seed + (j mod pairs).
    returns = np.empty(2 * pairs, dtype=np.float64)
    r_plus, _ = evaluate_fn(params[:pairs], seed)
    r_minus, _ = evaluate_fn(params[pairs:], seed)
    returns[:pairs], returns[pairs:] = r_plus, r_minus
    ranks = np.empty(2 * pairs, dtype=np.float64)
    ranks[np.argsort(returns, kind="stable")] = np.arange(2 * pairs, dtype=np.float64)
    ranks = ranks / (2 * pairs - 1) - 0.5
    grad = (ranks[:pairs] - ranks[pairs:]) @ eps / (2 * pairs * sigma)
    return theta + lr * grad, returns


def es_train(
    evaluate_fn,
    num_params: int,
    iterations: int,
    pairs: int,
    seed: int,
    sigma: float = 0.1,
    lr: float = 0.05,
) -> tuple[np.ndarray, list[float]]:
    """``iterations`` steps of :func:`es_step` from zero parameters; iteration
    ``i`` uses environment seeds from ``seed * 1_000_003 + i * pairs``. Returns
    the final parameters and the mean return of each iteration's batch."""
    rng = np.random.default_rng(seed)
    theta = np.zeros(num_params, dtype=np.float64)
    curve: list[float] = []
    for i in range(iterations):
        theta, returns = es_step(theta, evaluate_fn, rng, seed * 1_000_003 + i * pairs, pairs, sigma, lr)
        curve.append(float(returns.mean()))
    return theta, curve
