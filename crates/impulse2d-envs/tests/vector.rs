//! VectorEnv: the same bits as N single environments with the same seeds,
//! on any number of workers, with Gymnasium's next-step autoreset.

use impulse2d_envs::lunar_lander::{LunarLander, LunarLanderConfig};
use impulse2d_envs::{Action, Env, EnvError, Rng, VectorActions, VectorEnv};

const N: usize = 5;
const STEPS: usize = 400;
const SEED: u64 = 42;

/// Env `i`'s time limit: short for the first (truncations) and long for the
/// last (crashes and landings), so that both kinds of autoreset happen.
fn lander(continuous: bool, i: usize) -> LunarLander {
    LunarLander::new(LunarLanderConfig {
        continuous,
        max_episode_steps: Some(60 + 100 * i as u32),
        ..Default::default()
    })
    .unwrap()
}

/// Random actions, the same for every run: discrete in 0..4, continuous in [-1, 1].
fn actions(continuous: bool) -> Vec<Vec<f32>> {
    let mut rng = Rng::new(7);
    (0..STEPS)
        .map(|_| {
            if continuous {
                (0..2 * N).map(|_| rng.uniform(-1.0, 1.0) as f32).collect()
            } else {
                (0..N).map(|_| rng.integers(0, 4) as f32).collect()
            }
        })
        .collect()
}

/// (obs bits, reward bits, terminated, truncated) per step and env.
type Trace = Vec<(Vec<u32>, Vec<u64>, Vec<bool>, Vec<bool>)>;

/// N single envs with Gymnasium's next-step autoreset written out by hand.
fn singles(continuous: bool) -> Trace {
    let acts = actions(continuous);
    let mut envs: Vec<LunarLander> = (0..N).map(|i| lander(continuous, i)).collect();
    let mut obs = [[0.0f32; 8]; N];
    for (i, env) in envs.iter_mut().enumerate() {
        env.reset(Some(SEED + i as u64), &mut obs[i]).unwrap();
    }
    let mut autoreset = [false; N];
    let mut trace = Trace::new();
    for a in &acts {
        let mut rewards = vec![0u64; N];
        let mut term = vec![false; N];
        let mut trunc = vec![false; N];
        for i in 0..N {
            if autoreset[i] {
                envs[i].reset(None, &mut obs[i]).unwrap();
                rewards[i] = 0.0f64.to_bits();
                autoreset[i] = false;
                continue;
            }
            let action = if continuous {
                Action::Continuous(&a[2 * i..2 * i + 2])
            } else {
                Action::Discrete(a[i] as i64)
            };
            let r = envs[i].step(action, &mut obs[i]).unwrap();
            rewards[i] = r.reward.to_bits();
            term[i] = r.terminated;
            trunc[i] = r.truncated;
            autoreset[i] = r.terminated || r.truncated;
        }
        let bits = obs.iter().flatten().map(|v| v.to_bits()).collect();
        trace.push((bits, rewards, term, trunc));
    }
    trace
}

fn vector(continuous: bool, workers: usize) -> Trace {
    let acts = actions(continuous);
    let envs: Vec<LunarLander> = (0..N).map(|i| lander(continuous, i)).collect();
    let mut venv = VectorEnv::new(envs, workers).unwrap();
    assert_eq!(venv.workers(), workers.min(N));
    venv.reset(Some(SEED)).unwrap();
    let mut trace = Trace::new();
    let discrete: Vec<Vec<i64>> = acts
        .iter()
        .map(|a| a.iter().map(|&x| x as i64).collect())
        .collect();
    for (k, a) in acts.iter().enumerate() {
        let actions = if continuous {
            VectorActions::Continuous(a)
        } else {
            VectorActions::Discrete(&discrete[k])
        };
        venv.step(actions).unwrap();
        let bits = venv.observations().iter().map(|v| v.to_bits()).collect();
        let rewards = venv.rewards().iter().map(|r| r.to_bits()).collect();
        trace.push((
            bits,
            rewards,
            venv.terminated().to_vec(),
            venv.truncated().to_vec(),
        ));
    }
    trace
}

#[test]
fn vector_env_equals_single_envs_on_any_worker_count() {
    for continuous in [false, true] {
        let expected = singles(continuous);
        // The run must exercise both kinds of autoreset.
        assert!(
            expected.iter().any(|t| t.2.iter().any(|&x| x)),
            "no termination"
        );
        assert!(
            expected.iter().any(|t| t.3.iter().any(|&x| x)),
            "no truncation"
        );
        for workers in [1, 2, 3, N, 8] {
            assert!(
                vector(continuous, workers) == expected,
                "continuous {continuous}, {workers} workers"
            );
        }
    }
}

#[test]
fn bad_actions_are_errors_and_move_nothing() {
    let envs: Vec<LunarLander> = (0..3).map(|i| lander(false, i)).collect();
    let mut venv = VectorEnv::new(envs, 2).unwrap();
    venv.reset(Some(1)).unwrap();
    let before = venv.observations().to_vec();
    for bad in [
        VectorActions::Discrete(&[0, 4, 0]),
        VectorActions::Discrete(&[0, -1, 0]),
        VectorActions::Discrete(&[0, 0]),
        VectorActions::Continuous(&[0.0; 6]),
    ] {
        assert!(matches!(
            venv.step(bad),
            Err(EnvError::InvalidAction(_) | EnvError::BadBuffer { .. })
        ));
    }
    assert_eq!(venv.observations(), &before[..]);
    // The next good step is the first step of every env.
    venv.step(VectorActions::Discrete(&[0, 0, 0])).unwrap();
    let mut single = lander(false, 2);
    let mut obs = [0.0f32; 8];
    single.reset(Some(3), &mut obs).unwrap();
    single.step(Action::Discrete(0), &mut obs).unwrap();
    assert_eq!(&venv.observations()[16..24], &obs[..]);

    let cont: Vec<LunarLander> = (0..2).map(|i| lander(true, i)).collect();
    let mut venv = VectorEnv::new(cont, 2).unwrap();
    venv.reset(Some(1)).unwrap();
    assert!(
        venv.step(VectorActions::Continuous(&[0.0, f32::NAN, 0.0, 0.0]))
            .is_err()
    );
    assert!(
        venv.step(VectorActions::Continuous(&[0.0, 0.0, 0.0]))
            .is_err()
    );
    assert!(venv.step(VectorActions::Discrete(&[0, 0])).is_err());
    assert!(VectorEnv::<LunarLander>::new(Vec::new(), 1).is_err());
}

#[test]
fn bipedal_walker_vector_equals_singles() {
    use impulse2d_envs::bipedal_walker::{BipedalWalker, BipedalWalkerConfig};
    let make = |i: usize| {
        let mut c = BipedalWalkerConfig::new(i % 2 == 1);
        c.max_episode_steps = Some(40 + 30 * i as u32);
        BipedalWalker::new(c)
    };
    let n = 4;
    let mut rng = Rng::new(3);
    let acts: Vec<Vec<f32>> = (0..120)
        .map(|_| (0..4 * n).map(|_| rng.uniform(-1.0, 1.0) as f32).collect())
        .collect();
    let mut expected = Vec::new();
    {
        let mut envs: Vec<BipedalWalker> = (0..n).map(make).collect();
        let mut obs = vec![[0.0f32; 24]; n];
        for (i, e) in envs.iter_mut().enumerate() {
            e.reset(Some(9 + i as u64), &mut obs[i]).unwrap();
        }
        let mut autoreset = vec![false; n];
        for a in &acts {
            let mut rewards = vec![0.0f64; n];
            for i in 0..n {
                if autoreset[i] {
                    envs[i].reset(None, &mut obs[i]).unwrap();
                    autoreset[i] = false;
                    continue;
                }
                let r = envs[i]
                    .step(Action::Continuous(&a[4 * i..4 * i + 4]), &mut obs[i])
                    .unwrap();
                rewards[i] = r.reward;
                autoreset[i] = r.terminated || r.truncated;
            }
            expected.push((obs.concat(), rewards));
        }
    }
    for workers in [1, 3] {
        let mut venv = VectorEnv::new((0..n).map(make).collect(), workers).unwrap();
        venv.reset(Some(9)).unwrap();
        for (a, (obs, rewards)) in acts.iter().zip(&expected) {
            venv.step(VectorActions::Continuous(a)).unwrap();
            assert_eq!(venv.observations(), &obs[..]);
            assert_eq!(venv.rewards(), &rewards[..]);
        }
    }
}
