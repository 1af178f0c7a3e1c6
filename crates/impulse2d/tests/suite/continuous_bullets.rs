//! Continuous collision: fast bodies against a thin static wall at random
//! angles, bullets against thin dynamic and kinematic boards, and kinematic
//! target transforms.

use crate::build;

use crate::common::rng;

use impulse2d::collision::{make_box, make_offset_box};
use impulse2d::math::PI;
use impulse2d::pos::{coord_to_f32, to_pos};
use impulse2d::{
    BodyDef, BodyId, BodyType, Error, Rot, ShapeDef, ShapeId, Transform, Vec2, World,
    WorldTransform,
};
use rng::Rng;

const DT: f32 = 1.0 / 60.0;

fn zero_g() -> World {
    build::world_with_gravity(Vec2::ZERO)
}

fn step(world: &mut World) {
    world.step(DT, 4).unwrap();
    if let Err(e) = world.validate() {
        panic!("invalid world after step {}: {e}", world.step_count());
    }
}

/// A 1 cm thick static wall along the y axis (x from −0.005 to 0.005 m).
fn wall(world: &mut World) {
    let body = world.create_body(&BodyDef::default()).unwrap();
    let poly = make_offset_box(0.005, 400.0, Vec2::ZERO, Rot::IDENTITY).unwrap();
    world
        .create_polygon_shape(body, &ShapeDef::default(), &poly)
        .unwrap();
}

/// A 5 cm circle (radius) or a 10 cm box (side) fired from 1 to 10 m in
/// front of the wall at 100 to 400 m/s, within ±80° of the wall's normal,
/// spinning at up to 20 rad/s, 1,000 times: it never gets to the far side.
#[test]
fn fast_bodies_at_random_angles_never_cross_a_thin_wall() {
    let mut rng = Rng::new(2024);
    let mut reached = 0;
    for shot in 0..1000 {
        let mut world = zero_g();
        wall(&mut world);
        let angle = rng.range(-80.0, 80.0) * PI / 180.0;
        let speed = rng.range(100.0, 400.0);
        let (c, s) = impulse2d::math::cos_sin(angle);
        let start = Vec2::new(-rng.range(1.0, 10.0), rng.range(-50.0, 50.0));
        let body = world
            .create_body(&BodyDef {
                rotation: rng.rot(),
                linear_velocity: Vec2::new(c, s) * speed,
                angular_velocity: rng.range(-20.0, 20.0),
                ..build::def(BodyType::Dynamic, start)
            })
            .unwrap();
        let is_circle = shot % 2 == 0;
        if is_circle {
            build::add_circle(&mut world, body, 0.05);
        } else {
            build::add_box(&mut world, body, 0.05, 0.05);
        }
        let mut max_x = start.x;
        for _ in 0..20 {
            step(&mut world);
            let x = coord_to_f32(world.body(body).unwrap().position().x);
            max_x = max_x.max(x);
            assert!(
                x < 0.0,
                "shot {shot} (circle: {is_circle}, {speed} m/s at {} deg from {start:?}) \
                 crossed the wall: x = {x}",
                angle * 180.0 / PI
            );
        }
        if max_x > -0.2 {
            reached += 1;
        }
    }
    // Nearly every shot reached the wall (so the test means something).
    assert!(reached > 950, "only {reached} shots reached the wall");
}

/// Five 2 cm thick, 2 m tall free boards at x = 5, 6, …, 9 m and a 5 cm
/// ball at 300 m/s (5 m per step) along the x axis.
fn planks(is_bullet: bool, board_type: BodyType) -> (World, BodyId, ShapeId, Vec<BodyId>) {
    let mut world = zero_g();
    let boards: Vec<BodyId> = (0..5)
        .map(|i| {
            let b = world
                .create_body(&BodyDef {
                    body_type: board_type,
                    position: to_pos(Vec2::new(5.0 + i as f32, 0.0)),
                    ..Default::default()
                })
                .unwrap();
            build::add_box(&mut world, b, 0.01, 1.0);
            b
        })
        .collect();
    let bullet = world
        .create_body(&BodyDef {
            linear_velocity: Vec2::new(300.0, 0.0),
            is_bullet,
            ..build::def(BodyType::Dynamic, Vec2::new(0.0, 0.3))
        })
        .unwrap();
    let shape = build::add_circle(&mut world, bullet, 0.05);
    (world, bullet, shape, boards)
}

#[test]
fn a_bullet_hits_the_first_of_a_row_of_thin_boards() {
    let (mut world, bullet, shape, boards) = planks(true, BodyType::Dynamic);
    assert!(world.body(bullet).unwrap().is_bullet());
    let mut first_touch = None;
    for i in 0..30 {
        step(&mut world);
        if i == 0 {
            // Stopped by time of impact at the first board's face at 4.99 m,
            // less its 5 cm radius, plus the linear slop (5 mm) by which time
            // of impact lets rounded shapes meet.
            let x = world.body(bullet).unwrap().position().x;
            assert!(x < 4.99 - 0.05 + 0.005 + 1e-3 && x > 4.8, "x = {x}");
        }
        for e in world.contact_events().begin {
            if first_touch.is_none() && (e.shape_id_a == shape || e.shape_id_b == shape) {
                let other = if e.shape_id_a == shape {
                    e.shape_id_b
                } else {
                    e.shape_id_a
                };
                first_touch = Some(world.shape(other).unwrap().body());
            }
        }
    }
    assert_eq!(first_touch, Some(boards[0]));
    // The first board was pushed forward.
    assert!(world.body(boards[0]).unwrap().linear_velocity().x > 1.0);

    // An ordinary fast body is swept against static shapes only: it passes
    // through all the boards without touching one.
    let (mut world, body, _, boards) = planks(false, BodyType::Dynamic);
    for _ in 0..3 {
        step(&mut world);
    }
    assert!(world.body(body).unwrap().position().x > 10.0);
    for b in boards {
        assert_eq!(world.body(b).unwrap().linear_velocity(), Vec2::ZERO);
    }
}

#[test]
fn a_bullet_stops_at_a_thin_kinematic_board() {
    let (mut world, bullet, _, _) = planks(true, BodyType::Kinematic);
    for _ in 0..30 {
        step(&mut world);
        let x = world.body(bullet).unwrap().position().x;
        assert!(x < 5.0, "the bullet went through: x = {x}");
    }
}

/// Bullets sweep against each other, both moving: two bullets on a collision
/// course at 300 m/s each meet instead of passing, and the contact then takes
/// over (they are not held at their time of impact): they stay in order, the
/// contact conserves momentum (0.01 kg · 300 − 0.02 kg · 300 = −3 N·s), and
/// afterwards they no longer approach each other. (They do not move on
/// together at −100 m/s: at 600 m/s of approach the substeps' sequential
/// point impulses set the boxes spinning and they part at some 27 m/s.)
#[test]
fn bullets_meet_each_other_and_move_on_together() {
    let mut world = zero_g();
    let make = |world: &mut World, y: f32, vy: f32, density: f32| {
        let b = world
            .create_body(&BodyDef {
                linear_velocity: Vec2::new(0.0, vy),
                is_bullet: true,
                ..build::def(BodyType::Dynamic, Vec2::new(0.0, y))
            })
            .unwrap();
        let def = ShapeDef {
            density,
            ..ShapeDef::default()
        };
        world
            .create_polygon_shape(b, &def, &make_box(0.05, 0.05).unwrap())
            .unwrap();
        b
    };
    let a = make(&mut world, -1.0, 300.0, 1.0);
    let b = make(&mut world, 12.0, -300.0, 2.0);
    world.body_mut(b).unwrap().set_bullet(false);
    assert!(!world.body(b).unwrap().is_bullet());
    world.body_mut(b).unwrap().set_bullet(true);
    for _ in 0..20 {
        step(&mut world);
        let (ya, yb) = (
            world.body(a).unwrap().position().y,
            world.body(b).unwrap().position().y,
        );
        assert!(yb - ya > 0.09, "ya = {ya}, yb = {yb}");
    }
    let (va, vb) = (
        world.body(a).unwrap().linear_velocity().y,
        world.body(b).unwrap().linear_velocity().y,
    );
    let momentum = 0.01 * va + 0.02 * vb;
    assert!((momentum + 3.0).abs() < 0.01, "momentum {momentum} N·s");
    assert!(vb - va >= 0.0, "still approaching: va = {va}, vb = {vb}");
}

#[test]
fn a_kinematic_body_reaches_its_target_transform_in_one_step() {
    let mut world = build::world();
    let body = build::body(&mut world, BodyType::Kinematic, Vec2::new(1.0, 1.0));
    build::add_box(&mut world, body, 0.5, 0.25);
    let mut xf = world.body(body).unwrap().transform();
    let mut rng = Rng::new(5);
    for _ in 0..200 {
        let target = WorldTransform::new(
            xf.p + rng.vec_in(0.5),
            Rot::from_angle(xf.q.angle() + rng.range(-0.3, 0.3)),
        );
        world
            .body_mut(body)
            .unwrap()
            .set_target_transform(target, DT)
            .unwrap();
        step(&mut world);
        xf = world.body(body).unwrap().transform();
        assert!(
            (xf.p - target.p).length() < 1e-4,
            "{:?} for {:?}",
            xf.p,
            target.p
        );
        // Rotation integration per substep (q + hω·q⊥, normalised) turns by
        // atan(hω) rather than hω: within 1e-3 rad for these turns.
        let angle_error = xf.q.relative_angle(target.q).abs();
        assert!(angle_error < 1e-3, "angle off by {angle_error}");
    }

    // A sleeping kinematic body is woken by a target it must move to.
    let v_before = world.body(body).unwrap().linear_velocity();
    assert!(v_before.length() > 0.0);
    world
        .body_mut(body)
        .unwrap()
        .set_linear_velocity(Vec2::ZERO)
        .unwrap();
    world
        .body_mut(body)
        .unwrap()
        .set_angular_velocity(0.0)
        .unwrap();
    for _ in 0..60 {
        step(&mut world);
    }
    assert!(
        !world.body(body).unwrap().is_awake(),
        "should sleep when still"
    );
    let here = world.body(body).unwrap().transform();
    // A target closer than the sleep threshold allows leaves it asleep.
    let tiny = WorldTransform::new(here.p + Vec2::new(1e-4, 0.0), here.q);
    world
        .body_mut(body)
        .unwrap()
        .set_target_transform(tiny, DT)
        .unwrap();
    assert!(!world.body(body).unwrap().is_awake());
    let far = WorldTransform::new(here.p + Vec2::new(1.0, 0.0), here.q);
    world
        .body_mut(body)
        .unwrap()
        .set_target_transform(far, DT)
        .unwrap();
    assert!(world.body(body).unwrap().is_awake());
    step(&mut world);
    assert!((world.body(body).unwrap().position() - far.p).length() < 1e-4);
}

#[test]
fn target_transform_and_bullet_switch_reject_bad_input() {
    let mut world = build::world();
    let ground = world.create_body(&BodyDef::default()).unwrap();
    let body = world
        .create_body(&BodyDef {
            body_type: BodyType::Kinematic,
            ..Default::default()
        })
        .unwrap();
    let ok = Transform::IDENTITY;
    assert!(matches!(
        world
            .body_mut(ground)
            .and_then(|mut view| view.set_target_transform(ok, DT)),
        Err(Error::InvalidOperation(_))
    ));
    let nan = Transform::new(Vec2::new(f32::NAN, 0.0), Rot::IDENTITY);
    assert!(
        world
            .body_mut(body)
            .and_then(|mut view| view.set_target_transform(nan, DT))
            .is_err()
    );
    let bad_rot = Transform::new(Vec2::ZERO, Rot { c: 0.5, s: 0.5 });
    assert!(
        world
            .body_mut(body)
            .and_then(|mut view| view.set_target_transform(bad_rot, DT))
            .is_err()
    );
    for dt in [0.0, -1.0, f32::NAN, f32::INFINITY] {
        assert!(
            world
                .body_mut(body)
                .and_then(|mut view| view.set_target_transform(ok, dt))
                .is_err()
        );
    }
    world.destroy_body(body).unwrap();
    assert!(matches!(
        world
            .body_mut(body)
            .and_then(|mut view| view.set_target_transform(ok, DT)),
        Err(Error::InvalidId { .. })
    ));
    assert!(
        world
            .body_mut(body)
            .map(|mut view| view.set_bullet(true))
            .is_err()
    );
    assert!(world.body(body).is_err());
}
