"""impulse2d.distributed on a local Ray cluster (scripts/ray-test.sh installs ray)."""

import numpy as np
import pytest

ray = pytest.importorskip("ray")
pytest.importorskip("gymnasium")

from impulse2d.distributed import (  # noqa: E402
    LinearPolicy,
    RolloutPool,
    RolloutWorker,
    es_train,
    evaluate,
    make_env,
)

ENV = "impulse2d/LunarLander-v0"


@pytest.fixture(scope="module")
def cluster():
    ray.init(num_cpus=2, include_dashboard=False, _node_ip_address="127.0.0.1", log_to_driver=False)
    try:
        yield
    finally:
        ray.shutdown()


@pytest.fixture(scope="module")
def local():
    """The in-process reference: one environment, candidates one at a time."""
    envs = make_env(ENV, 1)
    policy = LinearPolicy(envs.single_observation_space, envs.single_action_space)
    yield lambda params, seed: evaluate(envs, policy, params, seed)
    envs.close()


def candidates(n, seed):
    policy = LinearPolicy(*_spaces())
    return np.random.default_rng(seed).normal(0.0, 0.5, (n, policy.num_params))


def _spaces():
    envs = make_env(ENV, 1)
    spaces = envs.single_observation_space, envs.single_action_space
    envs.close()
    return spaces


def test_linear_policy_is_batch_independent():
    policy = LinearPolicy(*_spaces())
    assert policy.num_params == (8 + 1) * 4
    rng = np.random.default_rng(3)
    params = rng.normal(size=(5, policy.num_params))
    obs = rng.normal(size=(5, 8)).astype(np.float32)
    together = policy.act(params, obs)
    alone = np.array([policy.act(params[i : i + 1], obs[i : i + 1])[0] for i in range(5)])
    np.testing.assert_array_equal(together, alone)
    # Against the matrix form written independently.
    w = params[:, :32].reshape(5, 8, 4)
    logits = np.einsum("nk,nka->na", obs.astype(np.float64), w) + params[:, 32:]
    np.testing.assert_array_equal(together, np.argmax(logits, axis=1))


def test_evaluate_checks_input(local):
    policy = LinearPolicy(*_spaces())
    with pytest.raises(ValueError, match="shape"):
        local(np.zeros((2, policy.num_params + 1)), 0)
    bad = np.zeros((2, policy.num_params))
    bad[1, 3] = np.nan
    with pytest.raises(ValueError, match=r"non-finite.*\[1\]"):
        local(bad, 0)
    with pytest.raises(ValueError, match="seed"):
        local(np.zeros((1, policy.num_params)), -1)


def test_vector_env_equals_one_env_at_a_time(local):
    """Candidate j plays seed + j whichever slot of whichever round runs it."""
    params = candidates(7, 11)
    envs = make_env(ENV, 3, workers=2)
    try:
        got = evaluate(envs, LinearPolicy(envs.single_observation_space, envs.single_action_space), params, 500)
    finally:
        envs.close()
    want = local(params, 500)
    np.testing.assert_array_equal(got[0], want[0])
    np.testing.assert_array_equal(got[1], want[1])
    assert np.all(want[1] >= 1) and np.all(want[1] <= 1000)
    # Shifting the seed shifts the episodes: candidate 1 at seed 500 is candidate 0 at seed 501.
    shifted = local(params[1:2], 501)
    assert shifted[0][0] == want[0][1] and shifted[1][0] == want[1][1]


@pytest.mark.parametrize("num_actors", [1, 2])
def test_pool_equals_in_process(cluster, local, num_actors):
    params = candidates(7, 12)
    pool = RolloutPool(ENV, num_actors=num_actors, num_envs=3, workers=1)
    try:
        returns, steps = pool.evaluate(params, seed=77)
    finally:
        pool.close()
    want_returns, want_steps = local(params, 77)
    assert returns.dtype == np.float64 and steps.dtype == np.int64
    np.testing.assert_array_equal(returns, want_returns)
    np.testing.assert_array_equal(steps, want_steps)


def test_bad_input_through_the_actor(cluster):
    pool = RolloutPool(ENV, num_actors=1, num_envs=2, workers=1)
    try:
        actor = pool.actors[0]
        n = pool.policy.num_params
        with pytest.raises(ValueError, match="shape"):
            ray.get(actor.evaluate.remote(np.zeros((2, n - 1)), 0))
        nan = np.zeros((2, n))
        nan[0, 0] = np.nan
        with pytest.raises(ValueError, match="non-finite"):
            ray.get(actor.evaluate.remote(nan, 0))
        with pytest.raises(ValueError, match="shape"):
            pool.evaluate(np.zeros(n), 0)
        # Still serving, and the zero policy equals the in-process worker's.
        got = ray.get(actor.evaluate.remote(np.zeros((2, n)), 5))
        worker = RolloutWorker(ENV, 1)
        want = worker.evaluate(np.zeros((2, n)), 5)
        worker.close()
        np.testing.assert_array_equal(got[0], want[0])
        np.testing.assert_array_equal(got[1], want[1])
    finally:
        pool.close()


def test_es_training_is_reproducible_and_rises(cluster, local):
    iterations, pairs, seed = 4, 8, 2
    n = LinearPolicy(*_spaces()).num_params
    curves = {}
    for k in (1, 2):
        pool = RolloutPool(ENV, num_actors=k, num_envs=4, workers=1)
        try:
            theta, curve = es_train(pool.evaluate, n, iterations, pairs, seed)
        finally:
            pool.close()
        curves[k] = (theta, curve)
    np.testing.assert_array_equal(curves[1][0], curves[2][0])
    assert curves[1][1] == curves[2][1]
    # And in-process, without Ray.
    theta, curve = es_train(local, n, iterations, pairs, seed)
    np.testing.assert_array_equal(theta, curves[1][0])
    assert curve == curves[1][1]
    # The batch's mean return rises from the first iteration (random directions
    # around zero) to the last. (Beating the zero policy, "do nothing", takes a
    # longer run: a few iterations from zero find that local optimum first.)
    assert all(np.isfinite(curve))
    assert curve[-1] > curve[0], curve
