"""Policy evaluation spread over Ray actors, each owning one vector environment,
and evolution strategies over it.

Needs ``gymnasium`` and, for the actors, ``ray`` (``pip install impulse2d[ray]``);
:func:`evaluate`, the policies and the ES helpers run without Ray.

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

import time
from typing import Any, Callable, Sequence

import numpy as np

import gymnasium as gym
from gymnasium import spaces

import impulse2d.envs  # noqa: F401  (registers impulse2d/*)

__all__ = [
    "Adam",
    "LinearPolicy",
    "MLPPolicy",
    "RolloutPool",
    "RolloutWorker",
    "SGD",
    "es_gradient",
    "es_step",
    "es_train",
    "evaluate",
    "make_env",
]


class MLPPolicy:
    """A feed-forward policy, observation → action, with ``tanh`` hidden layers
    of the sizes ``hidden`` (none: a linear policy) and its parameters as one
    flat float64 vector: for each layer, its weight matrix ``(inputs,
    outputs)`` row by row, then its bias ``(outputs,)``.

    Discrete actions take the argmax of the output (the first on ties);
    continuous ones are ``tanh`` of it scaled into the action box. Products
    are written as per-element multiply-adds, not BLAS matrix products, so an
    environment's action does not depend on how many others share the batch
    (a BLAS product may sum in a different order, or fuse multiply-adds,
    differently for different batch sizes).
    """

    def __init__(self, observation_space: spaces.Box, action_space: spaces.Space, hidden: Sequence[int] = (16,)):
        if not isinstance(observation_space, spaces.Box) or len(observation_space.shape) != 1:
            raise ValueError(f"a policy needs a flat Box observation space, not {observation_space}")
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
            raise ValueError(f"a policy needs a Discrete or flat Box action space, not {action_space}")
        hidden = tuple(int(h) for h in hidden)
        if any(h < 1 for h in hidden):
            raise ValueError(f"hidden layer sizes must be positive, not {hidden}")
        self.hidden = hidden
        sizes = (self.obs_dim, *hidden, self.act_dim)
        self.layers = list(zip(sizes[:-1], sizes[1:]))
        self.num_params = sum((a + 1) * b for a, b in self.layers)

    def zeros(self, n: int) -> np.ndarray:
        """``n`` all-zero parameter vectors, shape ``(n, num_params)``."""
        return np.zeros((n, self.num_params), dtype=np.float64)

    def initial(self, seed: int) -> np.ndarray:
        """A starting parameter vector ``(num_params,)``: hidden weights drawn
        from ``N(0, 1/inputs)`` with a generator seeded by ``seed``, the output
        layer and every bias zero (so it starts as the zero policy: action 0,
        or the middle of the action box)."""
        rng = np.random.default_rng(seed)
        theta = np.zeros(self.num_params, dtype=np.float64)
        offset = 0
        for i, (a, b) in enumerate(self.layers):
            if i < len(self.layers) - 1:
                theta[offset : offset + a * b] = rng.standard_normal(a * b) / np.sqrt(a)
            offset += (a + 1) * b
        return theta

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

    def bind(self, params: np.ndarray) -> Callable[[np.ndarray], np.ndarray]:
        """The policies of the rows of ``params`` (n, num_params) as one
        function: observations (n, obs_dim) → actions (n,) int64 or (n,
        act_dim) float32, row ``i`` acting for environment ``i``."""
        n = params.shape[0]
        layers = []
        offset = 0
        for a, b in self.layers:
            w = params[:, offset : offset + a * b].reshape(n, a, b)
            offset += a * b
            bias = params[:, offset : offset + b]
            offset += b
            layers.append((a, [np.ascontiguousarray(w[:, k, :]) for k in range(a)], bias))
        last = len(layers) - 1

        def act(obs: np.ndarray) -> np.ndarray:
            x = np.asarray(obs, dtype=np.float64)
            for i, (a, rows, bias) in enumerate(layers):
                y = bias.copy()
                for k in range(a):
                    y += x[:, k, None] * rows[k]
                x = np.tanh(y) if i < last else y
            if self.discrete:
                return np.argmax(x, axis=1).astype(np.int64)
            u = np.tanh(x)
            return (self._low + (u + 1.0) * 0.5 * (self._high - self._low)).astype(np.float32)

        return act

    def act(self, params: np.ndarray, obs: np.ndarray) -> np.ndarray:
        """Actions for observations ``obs`` (n, obs_dim) under the parameters
        ``params`` (n, num_params), one row per environment."""
        return self.bind(params)(obs)

    def spec(self) -> dict:
        """The keyword arguments that rebuild this policy's shape beside the
        environment's spaces (sent to the actors)."""
        return {"hidden": self.hidden}


class LinearPolicy(MLPPolicy):
    """A linear policy (an :class:`MLPPolicy` without hidden layers): its
    parameters are ``(obs_dim + 1) * act_dim`` numbers, the weight matrix
    ``(obs_dim, act_dim)`` row by row, then the bias ``(act_dim,)``."""

    def __init__(self, observation_space: spaces.Box, action_space: spaces.Space):
        super().__init__(observation_space, action_space, hidden=())


def make_env(env_id: str, num_envs: int, workers: int = 1, **kwargs: Any):
    """``gym.make_vec(env_id, num_envs, vectorization_mode="vector_entry_point",
    workers=workers, **kwargs)``: ``num_envs`` environments stepped in Rust on
    ``workers`` threads."""
    return gym.make_vec(
        env_id, num_envs=num_envs, vectorization_mode="vector_entry_point", workers=workers, **kwargs
    )


def _check_seed(seed: Any) -> int:
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise ValueError(f"seed must be a non-negative int, not {seed!r}")
    return int(seed)


def evaluate(envs, policy: MLPPolicy, params: Any, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """One episode per candidate (row of ``params``) on the vector env
    ``envs``, candidate ``j`` on environment seed ``seed + j``; returns the
    episode returns (float64) and lengths in steps (int64).

    Runs ``ceil(n / num_envs)`` rounds of ``num_envs`` candidates; in a short
    last round the spare environments play the zero policy and are ignored.
    """
    p = policy.check(params)
    seed = _check_seed(seed)
    n, m = p.shape[0], envs.num_envs
    returns = np.zeros(n, dtype=np.float64)
    lengths = np.zeros(n, dtype=np.int64)
    for start in range(0, n, m):
        k = min(m, n - start)
        batch = np.zeros((m, policy.num_params), dtype=np.float64)
        batch[:k] = p[start : start + k]
        act = policy.bind(batch)
        obs, _ = envs.reset(seed=seed + start)
        done = np.zeros(m, dtype=bool)
        done[k:] = True
        ret = np.zeros(m, dtype=np.float64)
        length = np.zeros(m, dtype=np.int64)
        while not done.all():
            obs, rewards, terminated, truncated, _ = envs.step(act(obs))
            live = ~done
            ret[live] += rewards[live]
            length[live] += 1
            done |= terminated | truncated
        returns[start : start + k] = ret[:k]
        lengths[start : start + k] = length[:k]
    return returns, lengths


def run_steps(envs, policy: MLPPolicy, params: Any, seed: int, steps: int) -> int:
    """Throughput mode: ``steps`` steps of every environment of ``envs``
    (autoresetting), environment ``i`` acting with row ``i`` of ``params``
    (``(num_envs, num_params)``), after a reset with ``seed``. Returns the
    number of environment steps taken, ``steps * num_envs``."""
    p = policy.check(params)
    if p.shape[0] != envs.num_envs:
        raise ValueError(f"{p.shape[0]} parameter rows for {envs.num_envs} environments")
    if not isinstance(steps, (int, np.integer)) or steps < 0:
        raise ValueError(f"steps must be a non-negative int, not {steps!r}")
    act = policy.bind(p)
    obs, _ = envs.reset(seed=_check_seed(seed))
    for _ in range(int(steps)):
        obs, _, _, _, _ = envs.step(act(obs))
    return int(steps) * envs.num_envs


def _policy_for(envs, policy: dict | None) -> MLPPolicy:
    """The policy of ``spec`` (``MLPPolicy`` keyword arguments; ``None``: linear)
    over the spaces of ``envs``."""
    spec = dict(policy) if policy is not None else {"hidden": ()}
    return MLPPolicy(envs.single_observation_space, envs.single_action_space, **spec)


class RolloutWorker:
    """One vector environment (``num_envs`` worlds on ``workers`` Rust
    threads) evaluating batches of policy parameters. Use it as a Ray actor
    through :class:`RolloutPool` (``ray.remote(num_cpus=workers)``), or
    in-process as it is. ``policy`` is the :class:`MLPPolicy` keyword
    arguments (``{"hidden": (16,)}``; the default ``None`` is linear);
    ``env_kwargs`` go to the environment (e.g. ``max_episode_steps``)."""

    def __init__(
        self,
        env_id: str,
        num_envs: int,
        workers: int = 1,
        env_kwargs: dict | None = None,
        policy: dict | None = None,
    ):
        self.envs = make_env(env_id, num_envs, workers, **(env_kwargs or {}))
        self.policy = _policy_for(self.envs, policy)

    def evaluate(self, params: Any, seed: int) -> tuple[np.ndarray, np.ndarray]:
        """See :func:`evaluate`; a bad batch raises ``ValueError`` and the
        worker keeps serving."""
        return evaluate(self.envs, self.policy, params, seed)

    def run_steps(self, params: Any, seed: int, steps: int) -> tuple[int, float]:
        """See :func:`run_steps`; returns the environment steps and the
        seconds they took inside this worker."""
        t0 = time.perf_counter()
        n = run_steps(self.envs, self.policy, params, seed, steps)
        return n, time.perf_counter() - t0

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
        policy: dict | None = None,
    ):
        import ray

        if num_actors < 1:
            raise ValueError(f"num_actors must be at least 1, not {num_actors}")
        if num_envs < 1 or workers < 1:
            raise ValueError(f"num_envs and workers must be at least 1, not {num_envs}, {workers}")
        self._ray = ray
        self.num_envs = num_envs
        # The policy's shape, for checking batches here rather than in an actor.
        probe = make_env(env_id, 1, 1, **(env_kwargs or {}))
        self.policy = _policy_for(probe, policy)
        probe.close()
        remote = ray.remote(num_cpus=workers)(RolloutWorker)
        self.actors = [
            remote.remote(env_id, num_envs, workers, env_kwargs, self.policy.spec()) for _ in range(num_actors)
        ]
        ray.get([a.num_params.remote() for a in self.actors])  # wait until all started

    def evaluate(self, params: Any, seed: int) -> tuple[np.ndarray, np.ndarray]:
        """Returns (float64) and episode lengths (int64) of the candidates, in
        order; the same for any number of actors."""
        p = self.policy.check(params)
        seed = _check_seed(seed)
        starts = range(0, p.shape[0], self.num_envs)
        refs = [
            self.actors[i % len(self.actors)].evaluate.remote(p[a : a + self.num_envs], seed + a)
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


class SGD:
    """Plain gradient ascent, ``theta += lr * grad`` (with ``momentum``, on
    the momentum's running sum)."""

    def __init__(self, num_params: int, lr: float, momentum: float = 0.0):
        self.lr = float(lr)
        self.momentum = float(momentum)
        self._v = np.zeros(num_params, dtype=np.float64)

    def update(self, grad: np.ndarray) -> np.ndarray:
        """The step to add to the parameters for the ascent direction ``grad``."""
        self._v = self.momentum * self._v + grad
        return self.lr * self._v


class Adam:
    """Adam (Kingma & Ba) for gradient ascent: the step for ``grad`` is
    ``lr * m̂ / (sqrt(v̂) + eps)`` with bias-corrected moment estimates."""

    def __init__(self, num_params: int, lr: float, beta1: float = 0.9, beta2: float = 0.999, eps: float = 1e-8):
        self.lr, self.beta1, self.beta2, self.eps = float(lr), float(beta1), float(beta2), float(eps)
        self._m = np.zeros(num_params, dtype=np.float64)
        self._v = np.zeros(num_params, dtype=np.float64)
        self._t = 0

    def update(self, grad: np.ndarray) -> np.ndarray:
        """The step to add to the parameters for the ascent direction ``grad``."""
        self._t += 1
        self._m = self.beta1 * self._m + (1.0 - self.beta1) * grad
        self._v = self.beta2 * self._v + (1.0 - self.beta2) * (grad * grad)
        m_hat = self._m / (1.0 - self.beta1**self._t)
        v_hat = self._v / (1.0 - self.beta2**self._t)
        return self.lr * m_hat / (np.sqrt(v_hat) + self.eps)


def centered_ranks(returns: np.ndarray) -> np.ndarray:
    """Returns replaced by their ranks scaled into ``[-0.5, 0.5]`` (ties
    broken by position), the fitness shaping of Salimans et al. (2017)."""
    n = returns.size
    ranks = np.empty(n, dtype=np.float64)
    ranks[np.argsort(returns, kind="stable")] = np.arange(n, dtype=np.float64)
    return ranks / max(n - 1, 1) - 0.5


def es_gradient(
    theta: np.ndarray,
    evaluate_fn,
    rng: np.random.Generator,
    seed: int,
    pairs: int,
    sigma: float,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The ES estimate of the gradient of the expected (rank-shaped) return at
    ``theta``: ``pairs`` antithetic Gaussian perturbations ``theta ±
    sigma·eps`` (drawn from ``rng``), evaluated by ``evaluate_fn(params,
    seed)``, the two members of a pair on the same environment seed (``seed +
    j`` for pair ``j``). Returns the gradient, the ``2 * pairs`` returns
    (plus members first) and their episode lengths."""
    eps = rng.standard_normal((pairs, theta.size))
    params = np.concatenate([theta + sigma * eps, theta - sigma * eps])
    r_plus, s_plus = evaluate_fn(params[:pairs], seed)
    r_minus, s_minus = evaluate_fn(params[pairs:], seed)
    returns = np.concatenate([r_plus, r_minus]).astype(np.float64)
    steps = np.concatenate([s_plus, s_minus]).astype(np.int64)
    ranks = centered_ranks(returns)
    grad = (ranks[:pairs] - ranks[pairs:]) @ eps / (2 * pairs * sigma)
    return grad, returns, steps


def es_step(
    theta: np.ndarray,
    evaluate_fn,
    rng: np.random.Generator,
    seed: int,
    pairs: int,
    sigma: float = 0.1,
    lr: float = 0.05,
) -> tuple[np.ndarray, np.ndarray]:
    """One step of evolution strategies with plain SGD: :func:`es_gradient`,
    then ``theta + lr * grad``. Returns the new parameters and the batch's
    returns."""
    grad, returns, _ = es_gradient(theta, evaluate_fn, rng, seed, pairs, sigma)
    return theta + lr * grad, returns


def es_train(
    evaluate_fn,
    num_params: int,
    iterations: int,
    pairs: int,
    seed: int,
    sigma: float = 0.1,
    lr: float = 0.05,
    *,
    optimizer: str = "sgd",
    weight_decay: float = 0.0,
    theta: np.ndarray | None = None,
    callback: Callable[[int, np.ndarray, np.ndarray, np.ndarray], bool | None] | None = None,
) -> tuple[np.ndarray, list[float]]:
    """``iterations`` steps of evolution strategies from ``theta`` (default:
    zeros). Iteration ``i`` uses environment seeds from ``seed * 1_000_003 +
    i * pairs``; the perturbations come from ``numpy.random.default_rng(seed)``.
    ``optimizer`` is ``"sgd"`` (plain) or ``"adam"``; ``weight_decay`` adds
    ``-weight_decay * theta`` to each gradient. ``callback(i, theta, returns,
    steps)`` runs after each iteration with the new parameters and the batch's
    returns and episode lengths; a true answer ends the training there.
    Returns the final parameters and the mean return of each iteration's
    batch."""
    rng = np.random.default_rng(seed)
    theta = np.zeros(num_params, dtype=np.float64) if theta is None else np.array(theta, dtype=np.float64)
    if theta.shape != (num_params,):
        raise ValueError(f"theta of shape {theta.shape}, expected ({num_params},)")
    if optimizer == "sgd":
        opt: SGD | Adam = SGD(num_params, lr)
    elif optimizer == "adam":
        opt = Adam(num_params, lr)
    else:
        raise ValueError(f"optimizer must be 'sgd' or 'adam', not {optimizer!r}")
    curve: list[float] = []
    for i in range(iterations):
        grad, returns, steps = es_gradient(theta, evaluate_fn, rng, seed * 1_000_003 + i * pairs, pairs, sigma)
        theta = theta + opt.update(grad - weight_decay * theta)
        curve.append(float(returns.mean()))
        if callback is not None and callback(i, theta, returns, steps):
            break
    return theta, curve
