"""impulse2d.envs CarRacing: what only CarRacing has (the discrete checker run,
rewards per tile, the randomize option, lap_finished, bad input, tracks equal
to Gymnasium's). test_envs.py covers the checker and vector == singles."""

import numpy as np
import pytest

gym = pytest.importorskip("gymnasium")

import impulse2d.envs  # noqa: E402,F401  (registers the ids)
from gymnasium.utils.env_checker import check_env  # noqa: E402


def test_check_env_passes_with_discrete_actions():
    env = gym.make("impulse2d/CarRacing-v0", render_mode="rgb_array", continuous=False)
    check_env(env.unwrapped, skip_render_check=False)
    obs, _ = env.reset(seed=0)
    assert obs.shape == (96, 96, 3) and obs.dtype == np.uint8
    frame = env.render()
    assert frame.shape == (400, 600, 3) and frame.dtype == np.uint8


def test_spaces_and_limits_are_gymnasiums():
    env = gym.make("impulse2d/CarRacing-v0")
    assert env.observation_space == gym.spaces.Box(0, 255, (96, 96, 3), np.uint8)
    assert env.action_space == gym.spaces.Box(
        np.array([-1, 0, 0], np.float32), np.array([1, 1, 1], np.float32), dtype=np.float32
    )
    assert env.spec.max_episode_steps == 1000
    assert gym.make("impulse2d/CarRacing-v0", continuous=False).action_space == gym.spaces.Discrete(5)


def test_reward_is_minus_a_tenth_per_step_plus_tiles():
    env = gym.make("impulse2d/CarRacing-v0")
    env.reset(seed=3)
    n = len(env.unwrapped.track())
    total = 0.0
    for _ in range(100):
        _, r, terminated, truncated, _ = env.step(np.array([0.0, 0.2, 0.0], np.float32))
        total += r
        # Each step: -0.1 plus a whole number of tiles at 1000/N.
        tiles = (r + 0.1) / (1000.0 / n)
        assert abs(tiles - round(tiles)) < 1e-9
    assert total > 0  # tiles were driven over


def test_same_seed_same_episode():
    def run(seed):
        env = gym.make("impulse2d/CarRacing-v0")
        obs, _ = env.reset(seed=seed)
        out = [obs]
        for i in range(40):
            obs, r, *_ = env.step(np.array([np.sin(i / 5), 0.4, 0.0], np.float32))
            out.append(obs)
            out.append(np.array([r]))
        return np.concatenate([o.ravel().view(np.uint8) for o in out])

    assert np.array_equal(run(5), run(5))
    assert not np.array_equal(run(5), run(6))


def test_leaving_the_playfield_gives_minus_100_and_lap_finished_false():
    env = gym.make("impulse2d/CarRacing-v0", max_episode_steps=None).unwrapped
    env.reset(seed=3)
    # A gentle throttle, no steering: straight on along the starting heading,
    # off the road at the first bend, on until the hull crosses ±333 m.
    for _ in range(3000):
        _, r, terminated, truncated, info = env.step(np.array([0.0, 0.1, 0.0], np.float32))
        if terminated:
            assert r == -100.0 and info == {"lap_finished": False}
            return
        assert "lap_finished" not in info
    pytest.fail("the car never left the playfield")


def test_bad_actions_raise_value_error():
    env = gym.make("impulse2d/CarRacing-v0").unwrapped
    env.reset(seed=1)
    for bad in ([np.nan, 0, 0], [0, np.inf, 0], [0, 0], [[0, 0, 0]]):
        with pytest.raises(ValueError):
            env.step(np.array(bad, np.float32))
    discrete = gym.make("impulse2d/CarRacing-v0", continuous=False).unwrapped
    discrete.reset(seed=1)
    for bad in (5, -1, 1.5, np.array([1, 2])):
        with pytest.raises(ValueError):
            discrete.step(bad)
    with pytest.raises(ValueError):
        gym.make("impulse2d/CarRacing-v0", lap_complete_percent=float("nan"))


def test_domain_randomize_option():
    env = gym.make("impulse2d/CarRacing-v0", domain_randomize=True).unwrapped
    env.reset(seed=1)
    road, bg, grass = first = env.colors()
    assert all(0 <= c < 210 for c in (*road, *bg))
    assert sorted(np.subtract(grass, bg)) == [0, 0, 20]
    env.reset(options={"randomize": False})
    assert env.colors() == first
    env.reset()
    assert env.colors() != first
    plain = gym.make("impulse2d/CarRacing-v0").unwrapped
    plain.reset(seed=1)
    assert plain.colors() == ((102, 102, 102), (102, 204, 102), (102, 230, 102))


def test_tracks_match_gymnasiums_for_the_same_seed():
    """Our seeded stream is NumPy's PCG64, so the checkpoints and track are
    Gymnasium's (needs gymnasium[box2d]; skipped without it)."""
    pytest.importorskip("Box2D")
    pytest.importorskip("pygame")
    theirs = gym.make("CarRacing-v3").unwrapped
    ours = gym.make("impulse2d/CarRacing-v0").unwrapped
    for seed in range(5):
        theirs.reset(seed=seed)
        ours.reset(seed=seed)
        a = np.array(theirs.track)
        b = np.array(ours.track())
        assert a.shape == b.shape
        assert np.allclose(a, b, rtol=0, atol=1e-9)
