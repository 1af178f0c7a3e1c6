//! CarRacing: reward rules, termination, truncation, determinism, actions
//! and pictures, worked out from Gymnasium's rules (not from printed runs).

use impulse2d::Vec2;
use impulse2d_envs::EnvError;
use impulse2d_envs::car_racing::render::{STATE_H, STATE_W};
use impulse2d_envs::car_racing::track::PLAYFIELD;
use impulse2d_envs::car_racing::{
    CarAction, CarRacing, CarRacingConfig, MAX_EPISODE_STEPS, OBS_LEN,
};

mod common;

fn env(config: CarRacingConfig, seed: u64) -> CarRacing {
    let mut env = CarRacing::new(config).unwrap();
    env.reset_with_options(Some(seed), None).unwrap();
    env
}

fn unlimited() -> CarRacingConfig {
    CarRacingConfig {
        max_episode_steps: None,
        ..Default::default()
    }
}

/// Where the hull is, m.
fn hull_position(env: &CarRacing) -> Vec2 {
    env.world()
        .unwrap()
        .body(env.car().unwrap().hull)
        .unwrap()
        .position()
}

/// The nearest centre-line point to the hull.
fn nearest_point(env: &CarRacing) -> usize {
    let p = hull_position(env);
    let track = env.track();
    let d2 =
        |i: usize| (track[i].x - f64::from(p.x)).powi(2) + (track[i].y - f64::from(p.y)).powi(2);
    (0..track.len())
        .min_by(|&a, &b| d2(a).total_cmp(&d2(b)))
        .unwrap()
}

/// A pure-pursuit driver along the centre line: steers towards the point
/// `lookahead` tiles past the nearest one and holds `target_speed` (m/s).
fn drive(env: &CarRacing, lookahead: usize, target_speed: f64) -> CarAction {
    let hull = env.world().unwrap().body(env.car().unwrap().hull).unwrap();
    let p = hull.position();
    let fwd = hull.world_vector(Vec2::new(0.0, 1.0));
    let v = hull.linear_velocity();
    let track = env.track();
    let target = track[(nearest_point(env) + lookahead) % track.len()];
    let (dx, dy) = (target.x - f64::from(p.x), target.y - f64::from(p.y));
    let (fx, fy) = (f64::from(fwd.x), f64::from(fwd.y));
    // Positive: the target is to the left; steering +1 turns right.
    let left = (fx * dy - fy * dx).atan2(fx * dx + fy * dy);
    let steer = (-2.0 * left).clamp(-1.0, 1.0);
    let speed = f64::from(v.x) * fx + f64::from(v.y) * fy;
    let gas = if speed < target_speed { 0.5 } else { 0.0 };
    let brake = if speed > target_speed + 3.0 { 0.3 } else { 0.0 };
    CarAction::Continuous([steer as f32, gas as f32, brake as f32])
}

#[test]
fn a_lap_on_the_centre_line_pays_each_tile_once_in_order() {
    for seed in [1, 7] {
        let mut env = env(unlimited(), seed);
        let n = env.track().len();
        let per_tile = 1000.0 / n as f64;
        // Reset stepped once: the wheels stand on tile 0 (rear) and tile 1 (front).
        let mut visited = env.tiles_visited();
        assert!(visited[0] && visited[1], "seed {seed}");
        assert_eq!(
            env.tile_visited_count(),
            visited.iter().filter(|&&v| v).count()
        );

        let mut furthest = 1;
        let mut total = 0.0;
        let mut frames = 0u32;
        loop {
            let r = env.step_with_info(drive(&env, 5, 20.0)).unwrap();
            frames += 1;
            total += r.result.reward;
            let now = env.tiles_visited();
            let new: Vec<usize> = (0..n).filter(|&i| now[i] && !visited[i]).collect();
            // The first step also pays the tiles touched at reset.
            let paid = if frames == 1 {
                new.len() + 2
            } else {
                new.len()
            };
            assert!(
                (r.result.reward - (paid as f64 * per_tile - 0.1)).abs() < 1e-9,
                "seed {seed} step {frames}: reward {} for {paid} new tiles of {n}",
                r.result.reward
            );
            // In order: new tiles lie just ahead of the furthest one so far.
            for &i in &new {
                assert!(
                    i > furthest && i <= furthest + 3,
                    "seed {seed}: tile {i} after {furthest}"
                );
                furthest = i;
            }
            visited = now;
            assert!(!r.result.truncated);
            if r.result.terminated {
                assert_eq!(r.lap_finished, Some(true));
                assert_eq!(env.tile_visited_count(), n);
                break;
            }
            assert!(frames < 5000, "seed {seed}: no lap in 5000 steps");
        }
        assert_eq!(furthest, n - 1);
        // The return of a full lap: 1000 − 0.1 per frame.
        let expected = 1000.0 - 0.1 * f64::from(frames);
        assert!(
            (total - expected).abs() < 1e-6,
            "seed {seed}: {total} vs {expected}"
        );
        assert!((env.total_reward() - expected).abs() < 1e-6);
    }
}

#[test]
fn a_car_that_leaves_the_playfield_gets_minus_100_and_terminates() {
    let mut env = env(unlimited(), 3);
    // Straight on along the starting heading (full throttle would spin the
    // rear-driven car, in Gymnasium too): off the road at the first bend,
    // then across the grass until the hull crosses the ±333 m square.
    let heading = |env: &CarRacing| {
        let hull = env.world().unwrap().body(env.car().unwrap().hull).unwrap();
        (
            hull.world_vector(Vec2::new(0.0, 1.0)),
            hull.linear_velocity(),
        )
    };
    let (dir, _) = heading(&env);
    for step in 0..3000 {
        let (fwd, v) = heading(&env);
        let left = fwd.cross(dir).atan2(fwd.dot(dir));
        let gas = if v.dot(fwd) < 30.0 { 0.4 } else { 0.0 };
        let r = env
            .step_with_info(CarAction::Continuous([
                (-2.0 * left).clamp(-1.0, 1.0),
                gas,
                0.0,
            ]))
            .unwrap();
        let p = hull_position(&env);
        let outside = f64::from(p.x).abs() > PLAYFIELD || f64::from(p.y).abs() > PLAYFIELD;
        assert_eq!(r.result.terminated, outside, "step {step}");
        if outside {
            assert_eq!(r.result.reward, -100.0);
            assert_eq!(r.lap_finished, Some(false));
            return;
        }
        assert!(r.result.reward < 1000.0 / 50.0);
    }
    panic!("the car never left the playfield");
}

#[test]
fn episodes_are_truncated_after_1000_steps() {
    let mut env = env(CarRacingConfig::default(), 2);
    for step in 1..=MAX_EPISODE_STEPS {
        let r = env
            .step_with_info(CarAction::Continuous([0.0, 0.0, 1.0]))
            .unwrap();
        assert_eq!(r.result.truncated, step == MAX_EPISODE_STEPS, "step {step}");
        assert!(!r.result.terminated);
    }
    // A reset starts the count again.
    env.reset_with_options(None, None).unwrap();
    let r = env
        .step_with_info(CarAction::Continuous([0.0, 0.0, 1.0]))
        .unwrap();
    assert!(!r.result.truncated);
}

#[test]
fn same_seed_same_bits_other_seed_other_track() {
    let run = |seed: u64| {
        let mut env = env(CarRacingConfig::default(), seed);
        let mut rewards = Vec::new();
        let mut obs = env.observation().to_vec();
        for i in 0..300 {
            let a = drive(&env, 4 + i % 3, 25.0);
            rewards.push(env.step_with_info(a).unwrap().result.reward.to_bits());
            obs.extend_from_slice(env.observation());
        }
        let hash = env.world().unwrap().state_hash();
        (env.track().len(), rewards, obs, hash)
    };
    let a = run(11);
    let b = run(11);
    assert!(a == b, "same seed, different results");
    let c = run(12);
    assert!(a.2 != c.2);
    // Reseeding the same env repeats the episode too.
    let mut e = env(CarRacingConfig::default(), 5);
    let first = e.observation().to_vec();
    let track: Vec<f64> = e.track().iter().map(|p| p.x).collect();
    e.step_with_info(CarAction::Continuous([0.5, 1.0, 0.0]))
        .unwrap();
    e.reset_with_options(Some(5), None).unwrap();
    assert_eq!(e.observation(), &first[..]);
    assert_eq!(e.track().iter().map(|p| p.x).collect::<Vec<_>>(), track);
}

/// Whether a pixel is the road's grey (tiles are 102, 104 or 107 on every
/// channel; the grass and background are green).
fn is_road(px: &[u8]) -> bool {
    let (r, g, b) = (i32::from(px[0]), i32::from(px[1]), i32::from(px[2]));
    (r - g).abs() <= 3 && (g - b).abs() <= 3 && (95..=112).contains(&g)
}

#[test]
fn the_observation_shows_road_under_the_car() {
    let mut env = env(CarRacingConfig::default(), 4);
    let obs = env.observation();
    assert_eq!(obs.len(), OBS_LEN);
    // The car is drawn at (1/2, 3/4) of Gymnasium's 1000 × 800 window.
    let (cx, cy) = ((STATE_W / 2) as usize, (STATE_H * 3 / 4) as usize);
    let px = |obs: &[u8], x: usize, y: usize| obs[(y * STATE_W as usize + x) * 3..][..3].to_vec();
    // At reset (t = 1/50 s) the zoom is 0.6·0.98 + 16.2·0.02 = 0.912 window
    // px/m: the 13.3 m road is 13.3 · 0.912 · 96/1000 = 1.17 observation
    // pixels wide, under the car, so in a row through the car one of two
    // pixels is at least 0.58 road: its green at most 204 − 0.58·102 = 145
    // (over the background) and red equal to blue (the car is 0.2 px wide).
    let near = (cy - 1..=cy + 1).flat_map(|y| (cx - 1..=cx + 1).map(move |x| (x, y)));
    assert!(
        near.clone().any(|(x, y)| {
            let p = px(obs, x, y);
            p[1] <= 150 && p[0].abs_diff(p[2]) <= 2
        }),
        "no road at the car"
    );
    // After a second at rest the zoom is 16.2 px/m: the road spans ±108
    // window px (±10 observation px) around the car, the hull ±1.2 m
    // (±2 px): road either side of it, grass far out.
    for _ in 0..60 {
        env.step_with_info(CarAction::Continuous([0.0, 0.0, 1.0]))
            .unwrap();
    }
    let obs = env.observation();
    for dx in [5, 7] {
        assert!(
            is_road(&px(obs, cx - dx, cy)),
            "left {dx}: {:?}",
            px(obs, cx - dx, cy)
        );
        assert!(
            is_road(&px(obs, cx + dx, cy)),
            "right {dx}: {:?}",
            px(obs, cx + dx, cy)
        );
    }
    // The hull's red over the road at the car's centre.
    let c = px(obs, cx, cy);
    assert!(c[0] > 150 && c[1] < 60 && c[2] < 60, "car {c:?}");
    // The bottom 12 rows (100 of 800 window rows) are the black bar with the
    // indicators: its right end is empty.
    let bar = px(obs, STATE_W as usize - 2, STATE_H as usize - 2);
    assert_eq!(bar, vec![0, 0, 0]);
    // The video frame is 600 × 400.
    assert_eq!(env.render_rgb_array().unwrap().len(), 600 * 400 * 3);
}

#[test]
fn bad_actions_are_errors_and_change_nothing() {
    let mut fresh = CarRacing::new(CarRacingConfig::default()).unwrap();
    assert_eq!(
        fresh.step_with_info(CarAction::Continuous([0.0; 3])),
        Err(EnvError::NotReset)
    );
    assert!(fresh.render_rgb_array().is_err());

    let mut cont = env(CarRacingConfig::default(), 6);
    let before = (
        cont.observation().to_vec(),
        cont.world().unwrap().state_hash(),
    );
    for bad in [
        CarAction::Continuous([f32::NAN, 0.0, 0.0]),
        CarAction::Continuous([0.0, f32::INFINITY, 0.0]),
        CarAction::Discrete(3),
    ] {
        assert!(matches!(
            cont.step_with_info(bad),
            Err(EnvError::InvalidAction(_))
        ));
    }
    assert_eq!(
        before,
        (
            cont.observation().to_vec(),
            cont.world().unwrap().state_hash()
        )
    );

    let mut disc = env(
        CarRacingConfig {
            continuous: false,
            ..Default::default()
        },
        6,
    );
    for bad in [
        CarAction::Discrete(5),
        CarAction::Discrete(-1),
        CarAction::Continuous([0.0; 3]),
    ] {
        assert!(matches!(
            disc.step_with_info(bad),
            Err(EnvError::InvalidAction(_))
        ));
    }
    for a in 0..5 {
        disc.step_with_info(CarAction::Discrete(a)).unwrap();
    }
    assert!(
        CarRacing::new(CarRacingConfig {
            lap_complete_percent: f64::NAN,
            ..Default::default()
        })
        .is_err()
    );
}

#[test]
fn discrete_gas_drives_forward_and_steering_turns_the_right_way() {
    let config = CarRacingConfig {
        continuous: false,
        ..Default::default()
    };
    let heading = |env: &CarRacing| {
        let hull = env.world().unwrap().body(env.car().unwrap().hull).unwrap();
        (
            hull.world_vector(Vec2::new(0.0, 1.0)),
            hull.linear_velocity(),
            hull.rotation().angle(),
        )
    };
    let mut env = env(config, 8);
    let (fwd0, _, angle0) = heading(&env);
    for _ in 0..50 {
        env.step_with_info(CarAction::Discrete(3)).unwrap();
    }
    let (_, v, _) = heading(&env);
    assert!(v.dot(fwd0) > 1.0, "gas moved the car {v:?}");
    // Steer right (1) while rolling: the heading turns clockwise.
    for _ in 0..25 {
        env.step_with_info(CarAction::Discrete(1)).unwrap();
    }
    let (_, _, angle1) = heading(&env);
    let turn = (angle1 - angle0 + std::f32::consts::PI).rem_euclid(std::f32::consts::TAU)
        - std::f32::consts::PI;
    assert!(turn < -0.05, "right turn {turn}");
}

#[test]
fn domain_randomisation_changes_colours_on_reset_unless_told_not_to() {
    let config = CarRacingConfig {
        domain_randomize: true,
        ..Default::default()
    };
    let mut env = CarRacing::new(config).unwrap();
    env.reset_with_options(Some(1), None).unwrap();
    let p1 = *env.palette();
    for c in p1.road.iter().chain(&p1.bg) {
        assert!((0.0..210.0).contains(c));
    }
    let bumped: Vec<usize> = (0..3).filter(|&i| p1.grass[i] != p1.bg[i]).collect();
    assert_eq!(bumped.len(), 1);
    assert_eq!(p1.grass[bumped[0]], p1.bg[bumped[0]] + 20.0);
    env.reset_with_options(None, Some(false)).unwrap();
    assert_eq!(*env.palette(), p1);
    env.reset_with_options(None, None).unwrap();
    assert_ne!(*env.palette(), p1);
}

#[test]
fn the_env_trait_matches_the_inherent_calls() {
    use impulse2d_envs::{Action, ActionSpace, Env};
    let mut a = CarRacing::new(CarRacingConfig::default()).unwrap();
    let mut b = CarRacing::new(CarRacingConfig::default()).unwrap();
    assert_eq!(a.observation_space().shape, vec![96, 96, 3]);
    assert_eq!(a.observation_space().len(), OBS_LEN);
    assert_eq!(
        a.action_space(),
        common::continuous(&[-1.0, 0.0, 0.0], &[1.0, 1.0, 1.0])
    );
    let mut obs = vec![0u8; OBS_LEN];
    assert_eq!(
        Env::reset(&mut a, Some(9), &mut obs[1..]),
        Err(EnvError::BadBuffer {
            expected: OBS_LEN,
            got: OBS_LEN - 1
        })
    );
    Env::reset(&mut a, Some(9), &mut obs).unwrap();
    assert_eq!(&obs[..], b.reset_with_options(Some(9), None).unwrap());
    assert!(matches!(
        Env::step(&mut a, Action::Continuous(&[0.0, 1.0]), &mut obs),
        Err(EnvError::InvalidAction(_))
    ));
    assert!(matches!(
        Env::step(&mut a, Action::Discrete(1), &mut obs),
        Err(EnvError::InvalidAction(_))
    ));
    for i in 0..20 {
        let act = [0.1 * (i % 5) as f32 - 0.2, 0.4, 0.0];
        let ra = Env::step(&mut a, Action::Continuous(&act), &mut obs).unwrap();
        let rb = b.step_with_info(CarAction::Continuous(act)).unwrap();
        assert_eq!(ra, rb.result);
        assert_eq!(&obs[..], b.observation());
    }
    let (w, h) = a.render_size();
    let mut rgb = vec![0u8; w * h * 3];
    Env::render(&mut a, &mut rgb).unwrap();
    assert_eq!(rgb, b.render_rgb_array().unwrap());
    assert!(Env::render(&mut a, &mut rgb[3..]).is_err());
    let discrete = CarRacing::new(CarRacingConfig {
        continuous: false,
        ..Default::default()
    })
    .unwrap();
    assert_eq!(discrete.action_space(), ActionSpace::Discrete(5));
}

#[test]
fn steering_turns_the_front_wheels_to_the_joint_limit_and_gas_spins_the_rear() {
    let mut env = env(CarRacingConfig::default(), 10);
    // Full right: the front joints' motors turn towards −1 rad at up to
    // 3 rad/s and stop at the −0.4 rad limit (after about 0.13 s); the rear
    // wheels hold 0. Gas 0.5 ramps up by 0.1 per step and drives only the
    // rear wheels.
    for _ in 0..25 {
        env.step_with_info(CarAction::Continuous([1.0, 0.5, 0.0]))
            .unwrap();
    }
    let world = env.world().unwrap();
    let car = env.car().unwrap();
    let angle = |i: usize| {
        world
            .joint(car.wheels[i].joint)
            .unwrap()
            .revolute()
            .unwrap()
            .angle()
    };
    for i in 0..2 {
        // Within Box2D's angular slop (2°, 0.035 rad) of the limit.
        assert!(
            (angle(i) + 0.4).abs() < 0.035,
            "front wheel {i} at {}",
            angle(i)
        );
        assert_eq!(car.wheels[i].gas, 0.0);
        assert_eq!(car.wheels[i].steer, -1.0);
    }
    for i in 2..4 {
        assert!(angle(i).abs() < 0.02, "rear wheel {i} at {}", angle(i));
        assert!((car.wheels[i].gas - 0.5).abs() < 1e-12);
        assert!(
            car.wheels[i].omega > car.wheels[0].omega,
            "rear wheels spin faster"
        );
    }
}
