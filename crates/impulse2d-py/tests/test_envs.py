"""impulse2d.envs: Gymnasium's checker, heuristics, vector == singles, bad input."""

import os

import numpy as np
import pytest

# "human" rendering (offered when pygame is installed) without a display.
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

gym = pytest.importorskip("gymnasium")

import impulse2d.envs  # noqa: E402  (registers the ids)
from gymnasium.utils.env_checker import check_env  # noqa: E402
from impulse2d.envs import BipedalWalkerHeuristics, heuristic  # noqa: E402

IDS = [
    "impulse2d/LunarLander-v0",
    "impulse2d/LunarLanderContinuous-v0",
    "impulse2d/BipedalWalker-v0",
    "impulse2d/BipedalWalkerHardcore-v0",
    "impulse2d/CarRacing-v0",
]


@pytest.mark.parametrize("env_id", IDS)
def test_check_env_passes(env_id):
    env = gym.make(env_id, render_mode="rgb_array")
    check_env(env.unwrapped, skip_render_check=False)
    env.reset(seed=0)
    frame = env.render()
    assert frame.shape == (400, 600, 3) and frame.dtype == np.uint8


def test_spaces_are_gymnasiums():
    env = gym.make("impulse2d/LunarLander-v0")
    assert env.action_space == gym.spaces.Discrete(4)
    assert env.observation_space.shape == (8,)
    assert np.allclose(env.observation_space.high, [2.5, 2.5, 10, 10, 2 * np.pi, 10, 1, 1])
    env = gym.make("impulse2d/LunarLander-v0", continuous=True)
    assert env.action_space.shape == (2,)
    env = gym.make("impulse2d/BipedalWalker-v0")
    assert env.action_space.shape == (4,) and env.observation_space.shape == (24,)
    assert env.spec.max_episode_steps == 1600
    assert gym.make("impulse2d/BipedalWalkerHardcore-v0").spec.max_episode_steps == 2000


@pytest.mark.parametrize("continuous", [False, True])
def test_lunar_lander_heuristic_lands(continuous):
    env = gym.make("impulse2d/LunarLander-v0", continuous=continuous)
    landed = 0
    for seed in range(10):
        s, _ = env.reset(seed=seed)
        total = 0.0
        while True:
            s, r, terminated, truncated, _ = env.step(heuristic(env, s))
            total += r
            if terminated or truncated:
                break
        landed += total > 200
    assert landed >= 9


def test_bipedal_walker_heuristic_walks():
    env = gym.make("impulse2d/BipedalWalker-v0")
    third = 200 * 14 / 30 / 3
    walked = 0
    # x is estimated from the rewards (130/30 per metre); the torque and
    # head-angle costs make the estimate short, so the check is conservative.
    for seed in range(5):
        env.reset(seed=seed)
        h = BipedalWalkerHeuristics()
        a = np.zeros(4)
        x = 0.0
        while True:
            s, r, terminated, truncated, _ = env.step(a)
            # Forward progress is the shaping's 130 * x / 30 per step.
            x += r / (130 / 30) if not terminated else 0.0
            a = h.step_heuristic(s)
            if terminated or truncated:
                break
        walked += x > third
    assert walked >= 3


@pytest.mark.parametrize("env_id", ["impulse2d/LunarLander-v0", "impulse2d/BipedalWalker-v0"])
@pytest.mark.parametrize("workers", [1, 2, 3])
def test_vector_env_equals_single_envs(env_id, workers):
    n = 3
    venv = gym.make_vec(env_id, num_envs=n, vectorization_mode="vector_entry_point", workers=workers,
                        max_episode_steps=80)
    assert venv.unwrapped.workers == workers
    singles = [gym.make(env_id, max_episode_steps=80) for _ in range(n)]
    obs, _ = venv.reset(seed=11)
    single_obs = np.stack([e.reset(seed=11 + i)[0] for i, e in enumerate(singles)])
    assert obs.dtype == np.float32 and obs.shape == (n, singles[0].observation_space.shape[0])
    assert np.array_equal(obs, single_obs)
    rng = np.random.default_rng(0)
    autoreset = [False] * n
    ended = 0
    for _ in range(200):
        actions = np.stack([venv.single_action_space.sample() for _ in range(n)])
        if env_id.startswith("impulse2d/LunarLander"):
            actions = rng.integers(0, 4, size=n)
        obs, rew, term, trunc, _ = venv.step(actions)
        for i, e in enumerate(singles):
            if autoreset[i]:
                o, _ = e.reset()
                r, te, tr = 0.0, False, False
            else:
                o, r, te, tr, _ = e.step(actions[i])
            assert np.array_equal(obs[i], o)
            assert rew[i] == r and term[i] == te and trunc[i] == tr
            autoreset[i] = te or tr
            ended += te or tr
    assert ended > 0


def test_bad_input_raises():
    env = gym.make("impulse2d/LunarLander-v0", continuous=True).unwrapped
    env.reset(seed=0)
    with pytest.raises(ValueError):
        env.step(np.array([np.nan, 0.0], dtype=np.float32))
    with pytest.raises(ValueError):
        env.step(np.zeros(3, dtype=np.float32))
    d = gym.make("impulse2d/LunarLander-v0").unwrapped
    d.reset(seed=0)
    for bad in (4, -1, 1.5, np.array([1, 2])):
        with pytest.raises(ValueError):
            d.step(bad)
    with pytest.raises(ValueError):
        gym.make("impulse2d/LunarLander-v0", gravity=5.0)
    with pytest.raises(RuntimeError):
        impulse2d.envs.LunarLander().step(0)
    venv = gym.make_vec("impulse2d/LunarLander-v0", num_envs=2, vectorization_mode="vector_entry_point")
    venv.reset(seed=0)
    with pytest.raises(ValueError):
        venv.step(np.array([0, 7]))
    with pytest.raises(ValueError):
        venv.step(np.array([0, 1, 2]))


def test_car_racing_vector_and_discrete():
    venv = gym.make_vec("impulse2d/CarRacing-v0", num_envs=2, vectorization_mode="vector_entry_point", workers=2)
    obs, _ = venv.reset(seed=5)
    assert obs.shape == (2, 96, 96, 3) and obs.dtype == np.uint8
    single = gym.make("impulse2d/CarRacing-v0")
    assert np.array_equal(single.reset(seed=6)[0], obs[1])
    a = np.array([[0.0, 0.5, 0.0]] * 2, dtype=np.float32)
    for _ in range(20):
        obs, rew, _, _, _ = venv.step(a)
        o, r, _, _, _ = single.step(a[1])
    assert np.array_equal(o, obs[1]) and r == rew[1]
    d = gym.make("impulse2d/CarRacing-v0", continuous=False)
    assert d.action_space == gym.spaces.Discrete(5)


def test_same_seed_same_trajectory():
    def run():
        env = gym.make("impulse2d/BipedalWalker-v0")
        obs, _ = env.reset(seed=3)
        out = [obs]
        for k in range(100):
            out.append(env.step(np.sin(np.arange(4) + k).astype(np.float32))[0])
        return np.stack(out)

    assert np.array_equal(run(), run())
