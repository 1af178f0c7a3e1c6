//! World settings changed at run time (`b2World_*`): each setter's effect on
//! the simulation, with figures worked out by hand, and bad input refused.

use crate::build;

use impulse2d::collision::{Aabb, Circle, make_box, make_offset_box};
use impulse2d::math::Rot;
use impulse2d::pos::{Coord, coord_to_f32};
use impulse2d::{BodyDef, BodyId, BodyType, RevoluteJointDef, ShapeDef, Vec2, World, WorldDef};

const DT: f32 = 1.0 / 60.0;

/// A world with a static ground box whose top face is y = 1, 40 m wide.
fn world_with_ground(def: &WorldDef) -> World {
    let mut world = World::new(def).unwrap();
    let ground = world.create_body(&BodyDef::default()).unwrap();
    build::add_box(&mut world, ground, 20.0, 1.0);
    world
}

fn dynamic(world: &mut World, position: Vec2) -> BodyId {
    world.create_body(&BodyDef::dynamic(position)).unwrap()
}

/// A dynamic body with a circle of radius `radius` (metres) at its origin.
fn ball(world: &mut World, position: Vec2, radius: f32, def: &ShapeDef) -> BodyId {
    let body = dynamic(world, position);
    world
        .create_circle_shape(body, def, &Circle::new(Vec2::ZERO, radius).unwrap())
        .unwrap();
    body
}

/// A dynamic body with a square of half-width `half` (metres).
fn square(world: &mut World, position: Vec2, half: f32) -> BodyId {
    let body = dynamic(world, position);
    build::add_box(world, body, half, half);
    body
}

fn y(world: &World, body: BodyId) -> f32 {
    coord_to_f32(world.body(body).unwrap().position().y)
}

/// Drops a ball (radius 0.5, shape `def`) from 1.25 m above its resting
/// height, so that it hits the ground at √(2·10·1.25) = 5 m/s. Returns the
/// highest its centre gets above the resting height after it first reaches
/// the ground.
fn bounce_height(world: &mut World, def: &ShapeDef) -> f32 {
    let rest = 1.5;
    let ball = ball(world, Vec2::new(0.0, rest + 1.25), 0.5, def);
    let mut landed = false;
    let mut highest = f32::MIN;
    for _ in 0..150 {
        world.step(DT, 4).unwrap();
        let h = y(world, ball) - rest;
        landed |= h < 0.05;
        if landed {
            highest = highest.max(h);
        }
    }
    assert!(landed);
    highest
}

/// [`bounce_height`] of a ball with restitution 1.
fn bounce_with_threshold(restitution_threshold: f32) -> f32 {
    let mut world = world_with_ground(&WorldDef::default());
    world
        .set_restitution_threshold(restitution_threshold)
        .unwrap();
    assert_eq!(world.restitution_threshold(), restitution_threshold);
    let def = ShapeDef {
        restitution: 1.0,
        ..Default::default()
    };
    bounce_height(&mut world, &def)
}

#[test]
fn restitution_threshold_decides_whether_an_impact_bounces() {
    // 5 m/s is below a 10 m/s threshold: the ball stays down.
    assert!(bounce_with_threshold(10.0) < 0.05);
    // Above a 1 m/s threshold it bounces back up (restitution 1: to about
    // 1.25 m; more than 80 % of that).
    assert!(bounce_with_threshold(1.0) > 0.8 * 1.25);

    let mut world = build::world();
    assert!(world.set_restitution_threshold(f32::NAN).is_err());
    assert!(world.set_restitution_threshold(-1.0).is_err());
    assert_eq!(world.restitution_threshold(), 1.0);
}

/// Drops a ball (restitution 0, hit events on) so that it hits the ground at
/// 5 m/s; returns the approach speeds of the hit events over 2 s.
fn hit_speeds(threshold: f32) -> Vec<f32> {
    let mut world = world_with_ground(&WorldDef::default());
    world.set_hit_event_threshold(threshold).unwrap();
    assert_eq!(world.hit_event_threshold(), threshold);
    let def = ShapeDef {
        enable_hit_events: true,
        ..Default::default()
    };
    ball(&mut world, Vec2::new(0.0, 1.5 + 1.25), 0.5, &def);
    let mut speeds = Vec::new();
    for _ in 0..120 {
        world.step(DT, 4).unwrap();
        speeds.extend(world.contact_events().hit.iter().map(|h| h.approach_speed));
    }
    speeds
}

#[test]
fn hit_event_threshold_filters_impacts_by_speed() {
    assert!(hit_speeds(10.0).is_empty());
    let speeds = hit_speeds(1.0);
    assert_eq!(speeds.len(), 1, "{speeds:?}");
    // The impact speed, within the last step's 10/60 m/s of gravity.
    assert!((speeds[0] - 5.0).abs() < 0.2, "{speeds:?}");

    let mut world = build::world();
    assert!(world.set_hit_event_threshold(f32::INFINITY).is_err());
    assert!(world.set_hit_event_threshold(-0.5).is_err());
    assert_eq!(world.hit_event_threshold(), 1.0);
}

/// A 1 m box sunk 0.5 m into the ground rises, pushed out no faster than the
/// push velocity: returns how far it rose in 0.1 s (six steps).
fn rise_in_a_tenth_of_a_second(push_max_velocity: f32) -> f32 {
    let mut world = world_with_ground(&WorldDef::default());
    world
        .set_contact_tuning(30.0, 10.0, push_max_velocity)
        .unwrap();
    assert_eq!(
        world.settings().contact_push_max_velocity,
        push_max_velocity
    );
    let start = 1.0; // centre 1.0: bottom face at 0.5, 0.5 m below the top
    let body = square(&mut world, Vec2::new(0.0, start), 0.5);
    build::step(&mut world, 6);
    y(&world, body) - start
}

#[test]
fn contact_tuning_caps_the_push_out_speed() {
    // At most push × 0.1 s; the overlap (0.5 m) is deep enough that the
    // soft contact asks for more than either cap the whole time.
    let slow = rise_in_a_tenth_of_a_second(0.1);
    assert!(slow <= 0.1 * 0.1 + 1e-4 && slow > 0.5 * 0.1 * 0.1, "{slow}");
    let fast = rise_in_a_tenth_of_a_second(3.0);
    assert!(fast <= 3.0 * 0.1 + 1e-3 && fast > 0.5 * 3.0 * 0.1, "{fast}");

    let mut world = build::world();
    assert!(world.set_contact_tuning(f32::NAN, 10.0, 3.0).is_err());
    assert!(world.set_contact_tuning(30.0, -1.0, 3.0).is_err());
    assert!(world.set_contact_tuning(30.0, 10.0, f32::INFINITY).is_err());
    assert_eq!(*world.settings(), WorldDef::default());
}

#[test]
fn maximum_linear_speed_clamps_every_body() {
    let mut world = build::world_with_gravity(Vec2::ZERO);
    let body = ball(&mut world, Vec2::ZERO, 0.5, &ShapeDef::default());
    build::set_velocity(&mut world, body, Vec2::new(100.0, 0.0));
    world.set_maximum_linear_speed(10.0).unwrap();
    assert_eq!(world.maximum_linear_speed(), 10.0);
    world.step(DT, 4).unwrap();
    let v = world.body(body).unwrap().linear_velocity();
    assert!((v.length() - 10.0).abs() < 1e-4, "{v:?}");
    // It moved 10 m/s × 1/60 s.
    assert!((world.body(body).unwrap().position().x - (10.0 * DT) as Coord).abs() < 1e-5);

    assert!(world.set_maximum_linear_speed(0.0).is_err());
    assert!(world.set_maximum_linear_speed(-5.0).is_err());
    assert!(world.set_maximum_linear_speed(f32::NAN).is_err());
    assert_eq!(world.maximum_linear_speed(), 10.0);
}

/// A 0.1 m ball at 300 m/s (5 m a step) towards a 0.1 m thick static wall at
/// x = 5; returns its x after 10 steps.
fn ball_against_thin_wall(continuous: bool) -> f32 {
    let mut world = build::world_with_gravity(Vec2::ZERO);
    world.enable_continuous(continuous);
    assert_eq!(world.is_continuous_enabled(), continuous);
    let wall = world.create_body(&BodyDef::default()).unwrap();
    let wall_box = make_offset_box(0.05, 5.0, Vec2::new(5.0, 0.0), Rot::IDENTITY).unwrap();
    world
        .create_polygon_shape(wall, &ShapeDef::default(), &wall_box)
        .unwrap();
    let ball = ball(&mut world, Vec2::ZERO, 0.1, &ShapeDef::default());
    build::set_velocity(&mut world, ball, Vec2::new(300.0, 0.0));
    build::step(&mut world, 10);
    coord_to_f32(world.body(ball).unwrap().position().x)
}

#[test]
fn continuous_collision_can_be_switched_off_at_run_time() {
    // Swept: stopped in front of the wall's face at x = 4.95.
    assert!(ball_against_thin_wall(true) < 4.95);
    // Not swept: 5 m steps jump the wall.
    assert!(ball_against_thin_wall(false) > 5.05);
}

/// A 50 kg box dropped onto a 1 kg box on the ground; contact softening
/// switched on in the definition (`in_def`) or by the setter before the
/// first step (`set`). Every body's transform bits after each of 90 steps,
/// then 30 more steps after restoring a snapshot taken there.
fn heavy_on_light(in_def: bool, set: bool) -> (Vec<build::PoseBits>, bool) {
    let mut world = world_with_ground(&WorldDef {
        enable_contact_softening: in_def,
        ..Default::default()
    });
    let light = square(&mut world, Vec2::new(0.0, 1.5), 0.5);
    let heavy = square(&mut world, Vec2::new(0.1, 2.6), 0.5);
    let shape = world.body(heavy).unwrap().shapes()[0];
    world
        .shape_mut(shape)
        .unwrap()
        .set_density(50.0, true)
        .unwrap();
    if set {
        world.enable_contact_softening(true);
    }
    let mut bits = Vec::new();
    let poses = |world: &World, bits: &mut Vec<build::PoseBits>| {
        for body in [light, heavy] {
            bits.push(world.body(body).unwrap().transform().to_bits());
        }
    };
    for _ in 0..90 {
        world.step(DT, 4).unwrap();
        poses(&world, &mut bits);
    }
    // The snapshot carries the switch: flipped after it, it comes back.
    let snapshot = world.snapshot();
    let flag = world.is_contact_softening_enabled();
    world.enable_contact_softening(!flag);
    world.restore(&snapshot).unwrap();
    for _ in 0..30 {
        world.step(DT, 4).unwrap();
        poses(&world, &mut bits);
    }
    (bits, world.is_contact_softening_enabled())
}

#[test]
fn contact_softening_set_at_run_time_is_the_defs_and_survives_a_snapshot() {
    let (in_def, kept) = heavy_on_light(true, false);
    assert!(kept, "the snapshot lost the switch");
    assert_eq!(heavy_on_light(false, true), (in_def.clone(), true));
    // It changes the simulation (the heavy box sinks deeper into the light
    // one: tests/differential/contact_softening.rs measures it against
    // Box2D).
    let (off, kept) = heavy_on_light(false, false);
    assert!(!kept);
    assert_ne!(off, in_def);
    let world = build::world();
    assert!(
        !world.is_contact_softening_enabled(),
        "Box2D's default is off"
    );
}

/// A box tilted so that one bottom corner touches the ground and the other
/// is 1 m × sin 0.015 = 0.015 m above it (more than 1.5 linear slops, less
/// than the speculative distance of 0.02 m); returns the manifold's point
/// count after one step without gravity.
fn tilted_box_points(speculative: bool) -> usize {
    let mut world = world_with_ground(&WorldDef {
        gravity: Vec2::ZERO,
        ..Default::default()
    });
    world.enable_speculative(speculative);
    assert_eq!(world.is_speculative_enabled(), speculative);
    let theta = 0.015f32;
    let body = world
        .create_body(&BodyDef {
            rotation: Rot::from_angle(theta),
            ..build::def(
                BodyType::Dynamic,
                Vec2::new(0.0, 1.0 + 0.5 * theta.sin() + 0.5 * theta.cos()),
            )
        })
        .unwrap();
    build::add_box(&mut world, body, 0.5, 0.5);
    world.step(DT, 4).unwrap();
    let contacts = world.body(body).unwrap().contacts();
    assert_eq!(contacts.len(), 1);
    contacts[0].manifold.point_count
}

#[test]
fn speculative_points_can_be_switched_off() {
    assert_eq!(tilted_box_points(true), 2);
    assert_eq!(tilted_box_points(false), 1);
}

/// A stack of ten 1 m boxes on the ground, stepped 2 s with sleep off;
/// returns the top box's height and the bottom contact's normal impulse
/// (both points, last step).
fn stack(warm_starting: bool) -> (f32, f32) {
    let mut world = world_with_ground(&WorldDef {
        enable_sleep: false,
        ..Default::default()
    });
    world.enable_warm_starting(warm_starting);
    assert_eq!(world.is_warm_starting_enabled(), warm_starting);
    let mut boxes = Vec::new();
    for i in 0..10 {
        let body = square(&mut world, Vec2::new(0.0, 1.5 + i as f32), 0.5);
        boxes.push(body);
    }
    build::step(&mut world, 120);
    let bottom = world.body(boxes[0]).unwrap().contacts();
    let ground_contact = bottom
        .iter()
        .find(|c| {
            let a = world.shape(c.shape_id_a).unwrap().body();
            let b = world.shape(c.shape_id_b).unwrap().body();
            a != boxes[1] && b != boxes[1]
        })
        .unwrap();
    let impulse = ground_contact
        .manifold
        .points()
        .iter()
        .map(|p| p.normal_impulse)
        .sum();
    (y(&world, boxes[9]), impulse)
}

#[test]
fn warm_starting_carries_a_stacks_weight_between_steps() {
    // Each box has mass 1 kg (1 m², density 1), so the ground carries the
    // stack's weight, 10 × 10 N; the impulse the bottom contact holds per
    // substep is that force times h = 1/240 s.
    let weight_per_substep = 100.0 * DT / 4.0;
    let (top_on, impulse_on) = stack(true);
    assert!(
        (impulse_on - weight_per_substep).abs() < 0.05 * weight_per_substep,
        "{impulse_on} vs {weight_per_substep}"
    );
    // Resting at 9.5 m above the ground with each of the ten contacts at most
    // two linear slops (1 cm) deep.
    assert!(top_on < 10.5 && top_on > 10.5 - 10.0 * 0.01, "{top_on}");
    // Without warm starting every step finds the weight again from zero, and
    // the stack sinks further into itself: at least another linear slop per
    // contact (5 cm in all).
    let (top_off, _) = stack(false);
    assert!(top_off < top_on - 10.0 * 0.005, "{top_off} vs {top_on}");
}

#[test]
fn sleeping_can_be_switched_off_and_on_at_run_time() {
    let mut world = world_with_ground(&WorldDef::default());
    square(&mut world, Vec2::new(0.0, 1.5), 0.5);
    assert!(world.is_sleeping_enabled());
    assert_eq!(world.awake_body_count(), 1);
    // Resting, it falls asleep after TIME_TO_SLEEP (0.5 s) of stillness.
    build::step(&mut world, 60);
    assert_eq!(world.awake_body_count(), 0);
    // Switching sleep off wakes it, and it stays awake.
    world.enable_sleeping(false);
    assert!(!world.is_sleeping_enabled());
    assert_eq!(world.awake_body_count(), 1);
    build::step(&mut world, 60);
    assert_eq!(world.awake_body_count(), 1);
    world.enable_sleeping(true);
    build::step(&mut world, 60);
    assert_eq!(world.awake_body_count(), 0);
    assert_eq!(world.counters().awake_body_count, 0);
}

#[test]
fn gravity_set_at_run_time_accelerates_bodies() {
    let mut world = build::world();
    let body = ball(&mut world, Vec2::ZERO, 0.5, &ShapeDef::default());
    world.set_gravity(Vec2::new(3.0, 0.0)).unwrap();
    assert_eq!(world.gravity(), Vec2::new(3.0, 0.0));
    build::step(&mut world, 60);
    // Semi-implicit Euler over N = 240 substeps of h: v = g·t and
    // x = g·h²·N(N+1)/2 = (g t²/2)(1 + 1/N) = 1.5 × 241/240.
    let v = world.body(body).unwrap().linear_velocity();
    assert!((v.x - 3.0).abs() < 1e-4 && v.y == 0.0, "{v:?}");
    let x = world.body(body).unwrap().position().x;
    assert!((x - 1.5 * 241.0 / 240.0).abs() < 1e-3, "{x}");
    assert!(world.set_gravity(Vec2::new(f32::NAN, 0.0)).is_err());
    assert_eq!(world.gravity(), Vec2::new(3.0, 0.0));
}

/// Boxes falling in a pile, with the worker count changed mid-run: returns
/// every body's transform bits after 150 steps.
fn pile(counts: [usize; 3]) -> Vec<build::PoseBits> {
    let mut world = world_with_ground(&WorldDef::default());
    let mut bodies = Vec::new();
    for i in 0..40 {
        let body = square(
            &mut world,
            Vec2::new((i % 5) as f32 * 0.9 - 2.0, 2.0 + (i / 5) as f32 * 1.1),
            0.4,
        );
        bodies.push(body);
    }
    for count in counts {
        world.set_worker_count(count).unwrap();
        assert_eq!(world.worker_count(), count);
        assert_eq!(world.settings().worker_count, count);
        build::step(&mut world, 50);
    }
    bodies
        .iter()
        .map(|&b| world.body(b).unwrap().transform().to_bits())
        .collect()
}

#[test]
fn worker_count_changes_at_run_time_without_changing_results() {
    assert_eq!(pile([1, 3, 2]), pile([1, 1, 1]));

    let mut world = build::world();
    assert_eq!(world.worker_count(), 1);
    assert!(world.set_worker_count(0).is_err());
    assert!(world.set_worker_count(impulse2d::MAX_WORKERS + 1).is_err());
    assert_eq!(world.worker_count(), 1);
}

#[test]
fn user_data_is_kept_with_the_world() {
    let mut world = World::new(&WorldDef {
        user_data: 7,
        ..Default::default()
    })
    .unwrap();
    assert_eq!(world.user_data(), 7);
    world.set_user_data(u64::MAX);
    assert_eq!(world.user_data(), u64::MAX);
}

/// A box sliding slowly on the ground; transform bits after 60 steps.
fn slide(recycle_in_def: f32, recycle_set: Option<f32>) -> build::PoseBits {
    let mut world = world_with_ground(&WorldDef {
        contact_recycle_distance: recycle_in_def,
        ..Default::default()
    });
    if let Some(d) = recycle_set {
        world.set_contact_recycle_distance(d).unwrap();
        assert_eq!(world.contact_recycle_distance(), d);
    }
    let body = square(&mut world, Vec2::new(0.0, 1.5), 0.5);
    build::set_velocity(&mut world, body, Vec2::new(1.0, 0.0));
    build::step(&mut world, 60);
    world.body(body).unwrap().transform().to_bits()
}

#[test]
fn contact_recycle_distance_set_at_run_time_is_the_defs() {
    let default = WorldDef::default().contact_recycle_distance;
    // Setting it before the first step is the same as creating the world with it.
    assert_eq!(slide(default, Some(0.0)), slide(0.0, None));
    assert_eq!(slide(0.0, Some(default)), slide(default, None));
    // And it matters: recycled manifolds are updated from the motion, not
    // recomputed, which changes the low bits.
    assert_ne!(slide(0.0, None), slide(default, None));

    let mut world = build::world();
    assert!(world.set_contact_recycle_distance(-0.01).is_err());
    assert!(world.set_contact_recycle_distance(f32::NAN).is_err());
    assert_eq!(world.contact_recycle_distance(), default);
}

/// A 1 kg ball hanging from a static anchor by a revolute joint (ball centre
/// at the anchor) under gravity, sleep off; returns how far the ball's centre
/// sags below the anchor after 2 s.
fn joint_sag(hertz: f32, damping_ratio: f32) -> f32 {
    let mut world = World::new(&WorldDef {
        enable_sleep: false,
        ..Default::default()
    })
    .unwrap();
    world.set_joint_tuning(hertz, damping_ratio).unwrap();
    assert_eq!(world.settings().joint_hertz, hertz);
    let anchor = world.create_body(&BodyDef::default()).unwrap();
    let r = (1.0 / std::f32::consts::PI).sqrt(); // area 1 m²: 1 kg
    let ball = ball(&mut world, Vec2::ZERO, r, &ShapeDef::default());
    world
        .create_revolute_joint(&RevoluteJointDef {
            base: build::joint(anchor, ball, Vec2::ZERO, Vec2::ZERO),
            ..Default::default()
        })
        .unwrap();
    build::step(&mut world, 120);
    -y(&world, ball)
}

#[test]
fn joint_tuning_sets_the_stiffness_of_joints() {
    // A soft joint holds its load like a spring of that frequency: the point
    // constraint settles where its bias balances the weight, at g/ω² below
    // the anchor (soft step: bias rate × mass scale / impulse scale = ω²/g
    // per metre). At 5 Hz that is 10/(2π·5)² = 1.01 cm; at 60 Hz 0.07 mm.
    for hertz in [5.0f32, 60.0] {
        let sag = joint_sag(hertz, 1.0);
        let spring = 10.0 / (2.0 * std::f32::consts::PI * hertz).powi(2);
        assert!(
            (sag - spring).abs() < 0.03 * spring + 1e-5,
            "{hertz} Hz: {sag} vs {spring}"
        );
    }

    let mut world = build::world();
    assert!(world.set_joint_tuning(-1.0, 2.0).is_err());
    assert!(world.set_joint_tuning(60.0, f32::NAN).is_err());
    assert_eq!(world.settings().joint_hertz, 60.0);
}

#[test]
fn bounds_hold_every_shape() {
    let mut world = build::world();
    assert_eq!(world.bounds(), None);
    let a = world.create_body(&BodyDef::default()).unwrap();
    build::add_box(&mut world, a, 2.0, 1.0);
    ball(&mut world, Vec2::new(5.0, 3.0), 0.5, &ShapeDef::default());
    // The box spans [−2, 2] × [−1, 1], the circle [4.5, 5.5] × [2.5, 3.5].
    let bounds = world.bounds().unwrap();
    let expected = Aabb::new(Vec2::new(-2.0, -1.0), Vec2::new(5.5, 3.5));
    assert!(
        (bounds.lower - expected.lower).length() < 1e-5,
        "{bounds:?}"
    );
    assert!(
        (bounds.upper - expected.upper).length() < 1e-5,
        "{bounds:?}"
    );
}

/// A 1 m box (1 kg) of user material `material` pushed along the ground at
/// 2 m/s, with a friction table: material 7 (ice) is frictionless on
/// anything, everything else has friction 0.5. Returns its speed after 0.25 s
/// and the distance it slid in 1 s.
fn slide_on_table(material: u64) -> (f32, f32) {
    let mut world = world_with_ground(&WorldDef::default());
    world.set_friction_callback(|_, a, _, b| if a == 7 || b == 7 { 0.0 } else { 0.5 });
    let def = ShapeDef {
        user_material_id: material,
        ..Default::default()
    };
    let body = dynamic(&mut world, Vec2::new(0.0, 1.5));
    world
        .create_polygon_shape(body, &def, &make_box(0.5, 0.5).unwrap())
        .unwrap();
    build::set_velocity(&mut world, body, Vec2::new(2.0, 0.0));
    let mut speed = 0.0;
    for k in 0..60 {
        world.step(DT, 4).unwrap();
        if k == 14 {
            speed = world.body(body).unwrap().linear_velocity().x;
        }
    }
    (speed, coord_to_f32(world.body(body).unwrap().position().x))
}

#[test]
fn friction_callback_mixes_by_user_material() {
    // Ice: nothing slows it; 2 m in 1 s.
    let (speed, distance) = slide_on_table(7);
    assert!((speed - 2.0).abs() < 1e-3, "{speed}");
    assert!((distance - 2.0).abs() < 1e-2, "{distance}");
    // Friction 0.5: it slows at μg = 5 m/s², so 2 − 5 × 0.25 = 0.75 m/s after
    // 0.25 s, and stops after v²/(2μg) = 0.4 m.
    let (speed, distance) = slide_on_table(0);
    assert!((speed - 0.75).abs() < 0.03, "{speed}");
    assert!((distance - 0.4).abs() < 0.02, "{distance}");
    // Restoring the default rule: √(0.6 × 0.6) = 0.6, stopping in 4/12 m.
    let mut world = world_with_ground(&WorldDef::default());
    world.set_friction_callback(|_, _, _, _| 0.0);
    world.set_friction_mixing(impulse2d::contact::mix_friction);
    let body = square(&mut world, Vec2::new(0.0, 1.5), 0.5);
    build::set_velocity(&mut world, body, Vec2::new(2.0, 0.0));
    build::step(&mut world, 60);
    let distance = world.body(body).unwrap().position().x;
    assert!((distance - 4.0 / 12.0).abs() < 0.02, "{distance}");
}

#[test]
fn restitution_callback_mixes_by_user_material() {
    // Rubber (material 3) bounces fully off anything, the rest not at all; a
    // rubber ball dropped from 1.25 m comes back up to about 1.25 m.
    let drop = |material: u64| {
        let mut world = world_with_ground(&WorldDef::default());
        world.set_restitution_callback(|_, a, _, b| if a == 3 || b == 3 { 1.0 } else { 0.0 });
        let def = ShapeDef {
            user_material_id: material,
            ..Default::default()
        };
        bounce_height(&mut world, &def)
    };
    assert!(drop(3) > 0.8 * 1.25);
    assert!(drop(0) < 0.05);
}
