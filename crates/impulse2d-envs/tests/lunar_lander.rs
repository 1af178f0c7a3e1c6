//! LunarLander: Gymnasium's heuristic lands, episodes are deterministic.

use impulse2d_envs::lunar_lander::{LunarLander, LunarLanderConfig, heuristic};
use impulse2d_envs::{Action, ActionSpace, Env, EnvError};

mod common;

/// Runs Gymnasium's heuristic for one episode; (return, steps, last obs).
fn heuristic_episode(continuous: bool, seed: u64) -> (f64, u32, [f32; 8]) {
    let mut env = LunarLander::new(LunarLanderConfig {
        continuous,
        ..Default::default()
    })
    .unwrap();
    let mut obs = [0.0f32; 8];
    env.reset(Some(seed), &mut obs).unwrap();
    let mut total = 0.0;
    let mut steps = 0;
    loop {
        let a = heuristic(&obs, continuous);
        let r = env.step(a.as_action(), &mut obs).unwrap();
        total += r.reward;
        steps += 1;
        if r.terminated || r.truncated {
            return (total, steps, obs);
        }
    }
}

/// Gymnasium's heuristic lands (return > 200) in at least 9 of seeds 0..10.
fn assert_heuristic_lands(continuous: bool) {
    let results: Vec<_> = (0..10).map(|s| heuristic_episode(continuous, s)).collect();
    for (s, r) in results.iter().enumerate() {
        eprintln!(
            "seed {s}: return {:.1} in {} steps, obs {:?}",
            r.0, r.1, r.2
        );
    }
    let landed = results.iter().filter(|r| r.0 > 200.0).count();
    assert!(landed >= 9, "{landed} of 10 landed");
}

#[test]
fn heuristic_lands_discrete() {
    assert_heuristic_lands(false);
}

#[test]
fn heuristic_lands_continuous() {
    assert_heuristic_lands(true);
}

fn env(continuous: bool) -> LunarLander {
    LunarLander::new(LunarLanderConfig {
        continuous,
        ..Default::default()
    })
    .unwrap()
}

/// Observations and rewards of `steps` steps of a fixed action pattern, as bits.
fn trace(env: &mut LunarLander, seed: Option<u64>, steps: usize) -> Vec<u64> {
    let mut obs = [0.0f32; 8];
    env.reset(seed, &mut obs).unwrap();
    let mut out: Vec<u64> = obs.iter().map(|v| v.to_bits() as u64).collect();
    for k in 0..steps {
        let r = env
            .step(Action::Discrete((k % 4) as i64), &mut obs)
            .unwrap();
        out.extend(obs.iter().map(|v| v.to_bits() as u64));
        out.push(r.reward.to_bits());
    }
    out
}

#[test]
fn same_seed_same_bits_and_unseeded_reset_continues_the_stream() {
    let a = trace(&mut env(false), Some(5), 200);
    let b = trace(&mut env(false), Some(5), 200);
    assert_eq!(a, b);
    assert_ne!(a, trace(&mut env(false), Some(6), 200));
    // reset(None) continues the stream: a second episode differs from the
    // first, and is the same after the same first episode.
    let mut e1 = env(false);
    let mut e2 = env(false);
    let first = trace(&mut e1, Some(5), 200);
    let _ = trace(&mut e2, Some(5), 200);
    let second = trace(&mut e1, None, 50);
    assert_ne!(first[..8], second[..8]);
    assert_eq!(second, trace(&mut e2, None, 50));
}

#[test]
fn spaces_are_gymnasiums() {
    let d = env(false);
    assert_eq!(d.action_space(), ActionSpace::Discrete(4));
    let c = env(true);
    assert_eq!(c.action_space(), common::continuous(&[-1.0; 2], &[1.0; 2]));
    let space = d.observation_space();
    assert_eq!(space.shape, vec![8]);
    assert_eq!(
        space.high,
        vec![2.5, 2.5, 10.0, 10.0, std::f32::consts::TAU, 10.0, 1.0, 1.0]
    );
    assert_eq!(d.render_size(), (600, 400));
}

#[test]
fn falls_freely_with_the_engines_off() {
    // Lander and legs fall together: once the legs have settled against their
    // limits, the lander's vertical speed grows by g·t. Observation 3 is
    // v_y · (H/2) / FPS with H = 400/30 m, so 20 steps (0.4 s) at g = 10 add
    // −4 m/s, i.e. −4 · (20/3) / 50 = −0.5333 to it.
    let mut e = env(true);
    let mut obs = [0.0f32; 8];
    e.reset(Some(3), &mut obs).unwrap();
    let off = [-1.0f32, 0.0];
    for _ in 0..10 {
        e.step(Action::Continuous(&off), &mut obs).unwrap();
    }
    let v0 = obs[3] as f64;
    for _ in 0..20 {
        e.step(Action::Continuous(&off), &mut obs).unwrap();
    }
    let dv = obs[3] as f64 - v0;
    let expected = -4.0 * (400.0 / 30.0 / 2.0) / 50.0;
    assert!(
        (dv - expected).abs() < 0.01 * expected.abs(),
        "{dv} vs {expected}"
    );
    assert_eq!((obs[6], obs[7]), (0.0, 0.0));
}

#[test]
fn bad_input_is_an_error_and_changes_nothing() {
    let mut e = env(false);
    let mut obs = [0.0f32; 8];
    assert_eq!(
        e.step(Action::Discrete(0), &mut obs),
        Err(EnvError::NotReset)
    );
    e.reset(Some(1), &mut obs).unwrap();
    let before = obs;
    for bad in [
        Action::Discrete(4),
        Action::Discrete(-1),
        Action::Continuous(&[0.0, 0.0]),
    ] {
        assert!(matches!(
            e.step(bad, &mut obs),
            Err(EnvError::InvalidAction(_))
        ));
    }
    assert!(matches!(
        e.step(Action::Discrete(0), &mut [0.0; 7]),
        Err(EnvError::BadBuffer {
            expected: 8,
            got: 7
        })
    ));
    assert_eq!(obs, before);
    // The next good step is the same as without the bad calls.
    let mut fresh = env(false);
    let mut o2 = [0.0f32; 8];
    fresh.reset(Some(1), &mut o2).unwrap();
    fresh.step(Action::Discrete(2), &mut o2).unwrap();
    e.step(Action::Discrete(2), &mut obs).unwrap();
    assert_eq!(obs, o2);

    let mut c = env(true);
    c.reset(Some(1), &mut obs).unwrap();
    for bad in [
        Action::Continuous(&[f32::NAN, 0.0]),
        Action::Continuous(&[0.0, f32::INFINITY]),
        Action::Continuous(&[0.0]),
        Action::Discrete(1),
    ] {
        assert!(matches!(
            c.step(bad, &mut obs),
            Err(EnvError::InvalidAction(_))
        ));
    }
    for gravity in [0.0, -12.0, f64::NAN, 3.0] {
        assert!(
            LunarLander::new(LunarLanderConfig {
                gravity,
                ..Default::default()
            })
            .is_err()
        );
    }
}

#[test]
fn wind_pushes_the_lander() {
    // With wind on, the same seed gives a different path than without.
    let mut calm = env(false);
    let mut windy = LunarLander::new(LunarLanderConfig {
        enable_wind: true,
        ..Default::default()
    })
    .unwrap();
    let (mut a, mut b) = ([0.0f32; 8], [0.0f32; 8]);
    calm.reset(Some(9), &mut a).unwrap();
    windy.reset(Some(9), &mut b).unwrap();
    for _ in 0..30 {
        calm.step(Action::Discrete(0), &mut a).unwrap();
        windy.step(Action::Discrete(0), &mut b).unwrap();
    }
    assert_ne!(a[2], b[2]);
}

#[test]
fn renders_gymnasiums_picture() {
    let mut e = env(false);
    let (w, h) = e.render_size();
    let mut rgb = vec![0u8; w * h * 3];
    let mut obs = [0.0f32; 8];
    e.reset(Some(0), &mut obs).unwrap();
    e.render(&mut rgb).unwrap();
    let px = |x: usize, y: usize| {
        let i = (y * w + x) * 3;
        (rgb[i], rgb[i + 1], rgb[i + 2])
    };
    // Top row: sky (black); bottom row: moon (white); the helipad is at
    // H/4 = 3.33 m, 100 px above the bottom, between x = 240 and 360 px.
    assert_eq!(px(50, 0), (0, 0, 0));
    assert_eq!(px(300, h - 1), (255, 255, 255));
    assert_eq!(px(300, h - 1 - 95), (255, 255, 255));
    assert_eq!(px(300, h - 1 - 105), (0, 0, 0));
    // The lander: centre at (300, 400 − 13.3·30 ≈ 0) after one step, so its
    // lower part shows at the top centre in the lander's fill colour.
    let lander_px = (0..40).flat_map(|y| (280..320).map(move |x| (x, y)));
    assert!(lander_px.clone().any(|(x, y)| px(x, y) == (128, 102, 230)));
    // Yellow flags next to the helipad poles.
    assert!((0..h).any(|y| px(250, y) == (204, 204, 0)));
    assert!(matches!(
        e.render(&mut rgb[1..]),
        Err(EnvError::BadBuffer { .. })
    ));
}

/// Writes frames of a heuristic landing as PPM files when IMPULSE2D_ENVS_FRAMES is set.
#[test]
fn dump_frames_when_asked() {
    let Ok(dir) = std::env::var("IMPULSE2D_ENVS_FRAMES") else {
        return;
    };
    let mut e = env(false);
    let (w, h) = e.render_size();
    let mut rgb = vec![0u8; w * h * 3];
    let mut obs = [0.0f32; 8];
    e.reset(Some(0), &mut obs).unwrap();
    for k in 0..400 {
        let a = heuristic(&obs, false);
        let r = e.step(a.as_action(), &mut obs).unwrap();
        if k % 50 == 0 || r.terminated {
            e.render(&mut rgb).unwrap();
            let mut f = format!("P6 {w} {h} 255\n").into_bytes();
            f.extend_from_slice(&rgb);
            std::fs::write(format!("{dir}/lander_{k:03}.ppm"), f).unwrap();
        }
        if r.terminated {
            break;
        }
    }
}
