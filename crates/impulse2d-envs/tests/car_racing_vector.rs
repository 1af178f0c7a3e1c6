//! CarRacing batched in a `VectorEnv` gives the bits of single environments
//! with the same seeds and actions, on any worker count, autoresets included.

use impulse2d_envs::car_racing::{CarRacing, CarRacingConfig, OBS_LEN};
use impulse2d_envs::{Action, Env, VectorActions, VectorEnv};

/// A fixed, varied action for env `i` at step `t`.
fn action(t: usize, i: usize) -> [f32; 3] {
    let steer = (((t / 7 + i) % 5) as f32 - 2.0) * 0.4;
    let gas = if (t + i).is_multiple_of(3) { 0.0 } else { 0.6 };
    let brake = if (t + 2 * i).is_multiple_of(11) {
        0.5
    } else {
        0.0
    };
    [steer, gas, brake]
}

#[test]
fn a_vector_of_car_racing_equals_single_envs() {
    let n = 3;
    // Short episodes, so that every env autoresets along the way.
    let config = CarRacingConfig {
        max_episode_steps: Some(30),
        ..Default::default()
    };
    for workers in [1, 2, 3] {
        let envs = (0..n).map(|_| CarRacing::new(config).unwrap()).collect();
        let mut vector = VectorEnv::new(envs, workers).unwrap();
        let mut singles: Vec<CarRacing> = (0..n).map(|_| CarRacing::new(config).unwrap()).collect();
        let mut obs = vec![0u8; OBS_LEN];

        // Env i is seeded with seed + i.
        vector.reset(Some(40)).unwrap();
        for (i, env) in singles.iter_mut().enumerate() {
            Env::reset(env, Some(40 + i as u64), &mut obs).unwrap();
            assert!(vector.observations()[i * OBS_LEN..(i + 1) * OBS_LEN] == obs[..]);
        }
        let mut autoreset = vec![false; n];
        let mut resets = 0;
        for t in 0..75 {
            let actions: Vec<f32> = (0..n).flat_map(|i| action(t, i)).collect();
            vector.step(VectorActions::Continuous(&actions)).unwrap();
            for (i, env) in singles.iter_mut().enumerate() {
                // Gymnasium's next-step autoreset: the step after an episode
                // ended resets the env (stream continued), reward 0.
                let (reward, terminated, truncated) = if autoreset[i] {
                    Env::reset(env, None, &mut obs).unwrap();
                    autoreset[i] = false;
                    resets += 1;
                    (0.0, false, false)
                } else {
                    let r = Env::step(
                        env,
                        Action::Continuous(&actions[3 * i..3 * i + 3]),
                        &mut obs,
                    )
                    .unwrap();
                    autoreset[i] = r.terminated || r.truncated;
                    (r.reward, r.terminated, r.truncated)
                };
                assert_eq!(
                    vector.rewards()[i].to_bits(),
                    reward.to_bits(),
                    "workers {workers} step {t} env {i}"
                );
                assert_eq!(vector.terminated()[i], terminated);
                assert_eq!(vector.truncated()[i], truncated);
                assert!(
                    vector.observations()[i * OBS_LEN..(i + 1) * OBS_LEN] == obs[..],
                    "workers {workers} step {t} env {i}: observations differ"
                );
            }
        }
        assert_eq!(
            resets,
            2 * n,
            "each env ends two 30-step episodes in 75 steps"
        );
    }
}
