//! The character controller against numbers worked out from the geometry:
//! walking covers v·t, slopes above the limit block and slide at g·sin θ,
//! walkable slopes are climbed at the commanded horizontal speed, steps below
//! the step height are climbed and above it are not, snap keeps the character
//! on a crest, platforms carry it, pushes follow F = m·a, nothing tunnels.

use crate::build;

use impulse2d::character::OneWayFilter;
use impulse2d::collision::{Capsule, compute_hull, make_offset_box, make_polygon};
use impulse2d::pos::coord_to_f32;
use impulse2d::{
    BodyDef, BodyId, BodyType, CharacterController, CharacterDef, Error, Rot, ShapeDef, ShapeId,
    Vec2, World, WorldDef,
};

const DT: f32 = 1.0 / 60.0;
const G: f32 = 10.0;
const RADIUS: f32 = 0.3;
/// Default capsule: centres at ±0.5, so the bottom is 0.8 m below the position.
const FOOT: f32 = 0.8;
/// One linear slop and a little round-off, metres.
const SLOP: f32 = impulse2d::core::LINEAR_SLOP + 1e-4;

fn world() -> World {
    World::new(&WorldDef {
        gravity: Vec2::new(0.0, -G),
        ..Default::default()
    })
    .unwrap()
}

fn static_body(world: &mut World) -> BodyId {
    world.create_body(&BodyDef::default()).unwrap()
}

/// A static box whose top is at y = 0 from x = -50 to 50.
fn flat_ground(world: &mut World) -> ShapeId {
    let body = static_body(world);
    let ground = make_offset_box(50.0, 1.0, Vec2::new(0.0, -1.0), Rot::IDENTITY).unwrap();
    world
        .create_polygon_shape(body, &ShapeDef::default(), &ground)
        .unwrap()
}

/// A convex polygon from points (static).
fn static_polygon(world: &mut World, points: &[Vec2]) -> ShapeId {
    let body = static_body(world);
    let poly = make_polygon(&compute_hull(points).unwrap(), 0.0).unwrap();
    world
        .create_polygon_shape(body, &ShapeDef::default(), &poly)
        .unwrap()
}

/// A dynamic 1 m box at `position` of `density` (kg/m², so also its mass in
/// kg) and `friction`.
fn unit_box(world: &mut World, position: Vec2, density: f32, friction: f32) -> BodyId {
    let body = build::body(world, BodyType::Dynamic, position);
    build::add_box_with(world, body, 0.5, 0.5, &build::material(density, friction));
    body
}

fn character(position: Vec2) -> CharacterController {
    CharacterController::new(&CharacterDef {
        position,
        ..Default::default()
    })
    .unwrap()
}

/// One frame as a game does it: keep the controller's velocity, add gravity,
/// set the horizontal input, move, step.
fn frame(world: &mut World, c: &mut CharacterController, input_x: f32) {
    let mut v = c.velocity();
    v.y -= G * DT;
    v.x = input_x;
    c.move_character(world, v, DT).unwrap();
    world.step(DT, 4).unwrap();
}

/// A frame without input: the velocity is kept (plus gravity).
fn coast(world: &mut World, c: &mut CharacterController) {
    let mut v = c.velocity();
    v.y -= G * DT;
    c.move_character(world, v, DT).unwrap();
    world.step(DT, 4).unwrap();
}

/// `n` frames with the same horizontal input.
fn frames(world: &mut World, c: &mut CharacterController, n: usize, input_x: f32) {
    for _ in 0..n {
        frame(world, c, input_x);
    }
}

/// A character started at (0, FOOT) and settled on the ground.
fn settled_character(world: &mut World) -> CharacterController {
    let mut c = character(Vec2::new(0.0, FOOT));
    settle(world, &mut c);
    c
}

/// Lets the character fall onto the ground and rest.
fn settle(world: &mut World, c: &mut CharacterController) {
    for _ in 0..60 {
        frame(world, c, 0.0);
    }
    assert!(c.is_grounded(), "did not land: {c:?}");
}

#[test]
fn flat_walk_covers_v_t_without_vertical_jitter() {
    let mut w = world();
    flat_ground(&mut w);
    let mut c = character(Vec2::new(0.0, FOOT + 0.05));
    settle(&mut w, &mut c);
    // Rests at most one linear slop into the ground (the plane solver's allowance).
    let sink = FOOT - c.position().y;
    assert!((0.0..=SLOP).contains(&sink), "{c:?}");
    let v = 3.0;
    let start = c.position();
    let frames = 120;
    let mut y = start.y;
    for _ in 0..frames {
        frame(&mut w, &mut c, v);
        assert!((c.position().y - y).abs() < 1e-4, "vertical jitter {c:?}");
        y = c.position().y;
        assert!(c.is_grounded());
    }
    let covered = c.position().x - start.x;
    let expected = v * DT * frames as f32;
    assert!((covered - expected).abs() < 1e-3, "{covered} vs {expected}");
}

/// A ramp rising to the right from (x0, 0) at `angle`, `length` long.
fn ramp(world: &mut World, x0: f32, angle: f32, length: f32) {
    let (c, s) = (angle.cos(), angle.sin());
    let top = Vec2::new(x0 + length * c, length * s);
    static_polygon(world, &[Vec2::new(x0, 0.0), top, Vec2::new(top.x, 0.0)]);
}

/// A world with the flat ground and a [`ramp`] of `degrees` from (x0, 0),
/// `length` long; and the ramp's angle, radians.
fn ramp_world(x0: f32, degrees: f32, length: f32) -> (World, f32) {
    let mut w = world();
    flat_ground(&mut w);
    let theta = degrees.to_radians();
    ramp(&mut w, x0, theta, length);
    (w, theta)
}

#[test]
fn steep_slope_blocks_walking() {
    let x0 = 2.0;
    let (mut w, theta) = ramp_world(x0, 60.0, 6.0);
    let mut c = settled_character(&mut w);
    let rest_y = c.position().y;
    for _ in 0..180 {
        frame(&mut w, &mut c, 3.0);
        // The bottom circle touches the slope where its centre is r·tan(θ/2)
        // short of the slope's foot.
        let limit = x0 - RADIUS * (0.5 * theta).tan() + 0.01;
        assert!(c.position().x <= limit, "{c:?} beyond {limit}");
        assert!(c.position().y - rest_y < 0.01, "climbed: {c:?}");
    }
}

#[test]
fn steep_slope_slides_down_at_g_sin_theta() {
    let (mut w, theta) = ramp_world(0.0, 60.0, 12.0);
    // Above the slope, around 8 m up it.
    let along = 8.0;
    let surface = Vec2::new(along * theta.cos(), along * theta.sin());
    let normal = Vec2::new(-theta.sin(), theta.cos());
    let bottom_center = surface + normal * (RADIUS + 0.02);
    let mut c = character(bottom_center + Vec2::new(0.0, 0.5));
    // Land on it, then slide: each frame the velocity gains g·sin θ·dt along
    // the slope (gravity's normal part is clipped away).
    for _ in 0..10 {
        coast(&mut w, &mut c);
        assert!(!c.is_grounded(), "a 60° slope is not ground");
    }
    let v0 = c.velocity().length();
    let y0 = c.position().y;
    let frames = 30;
    for _ in 0..frames {
        coast(&mut w, &mut c);
    }
    let gained = c.velocity().length() - v0;
    let expected = G * theta.sin() * DT * frames as f32;
    assert!(
        (gained - expected).abs() < 0.01 * expected,
        "{gained} vs {expected}"
    );
    let dir = c.velocity().normalize();
    assert!((dir.dot(Vec2::new(-theta.cos(), -theta.sin())) - 1.0).abs() < 1e-3);
    assert!(c.position().y < y0 - 0.5, "did not slide: {c:?}");
}

#[test]
fn walkable_slope_is_climbed_at_commanded_horizontal_speed() {
    let (mut w, theta) = ramp_world(1.0, 30.0, 10.0);
    let mut c = settled_character(&mut w);
    let v = 2.0;
    // Get well onto the ramp first.
    frames(&mut w, &mut c, 90, v);
    assert!(c.is_grounded());
    let n = c.ground().unwrap().normal;
    assert!((n.y - theta.cos()).abs() < 1e-4, "{n:?}");
    for _ in 0..60 {
        let p = c.position();
        frame(&mut w, &mut c, v);
        let d = c.position() - p;
        assert!((d.x - v * DT).abs() < 1e-4, "{d:?}");
        assert!((d.y - v * DT * theta.tan()).abs() < 1e-4, "{d:?}");
        assert!(c.is_grounded());
    }
}

/// Walks right at a step of `height` whose face is at x = 2 for 2 s.
fn walk_at_step(height: f32) -> (CharacterController, f32) {
    let mut w = world();
    flat_ground(&mut w);
    let body = static_body(&mut w);
    let step = make_offset_box(
        3.0,
        0.5 * height,
        Vec2::new(5.0, 0.5 * height),
        Rot::IDENTITY,
    )
    .unwrap();
    w.create_polygon_shape(body, &ShapeDef::default(), &step)
        .unwrap();
    let mut c = settled_character(&mut w);
    let rest_y = c.position().y;
    frames(&mut w, &mut c, 120, 2.0);
    (c, rest_y)
}

#[test]
fn steps_below_the_step_height_are_climbed_and_above_are_not() {
    let h = CharacterDef::default().step_height;
    let (low, rest_y) = walk_at_step(0.8 * h);
    assert!(low.is_grounded());
    // Resting contact is anywhere within one linear slop of overlap.
    assert!(
        (low.position().y - (rest_y + 0.8 * h)).abs() <= SLOP,
        "{low:?}"
    );
    assert!(low.position().x > 2.0 + RADIUS, "{low:?}");
    let (high, rest_y) = walk_at_step(1.2 * h);
    assert!((high.position().y - rest_y).abs() <= SLOP, "{high:?}");
    assert!(high.position().x < 2.0 - RADIUS + 0.01, "{high:?}");
}

/// Walks at 5 m/s off a crest (flat ground, then a 30° slope down) and
/// counts the frames on the ground during the 0.5 s after the crest.
fn crest(snap_distance: f32) -> usize {
    let mut w = world();
    let body = static_body(&mut w);
    let top = make_offset_box(5.0, 5.0, Vec2::new(-5.0, -5.0), Rot::IDENTITY).unwrap();
    w.create_polygon_shape(body, &ShapeDef::default(), &top)
        .unwrap();
    let theta = 30f32.to_radians();
    let l = 8.0;
    static_polygon(
        &mut w,
        &[
            Vec2::new(0.0, 0.0),
            Vec2::new(l * theta.cos(), -l * theta.sin()),
            Vec2::new(0.0, -l * theta.sin()),
        ],
    );
    let mut c = CharacterController::new(&CharacterDef {
        position: Vec2::new(-3.0, FOOT),
        snap_distance,
        ..Default::default()
    })
    .unwrap();
    settle(&mut w, &mut c);
    while c.position().x < 0.0 {
        frame(&mut w, &mut c, 5.0);
    }
    let mut grounded = 0;
    for _ in 0..30 {
        frame(&mut w, &mut c, 5.0);
        grounded += c.is_grounded() as usize;
    }
    grounded
}

#[test]
fn snap_keeps_the_character_on_a_crest() {
    // The slope falls 5·tan 30° = 2.9 m/s; from rest gravity needs 0.29 s to
    // fall that fast, so without snap the character flies for a while.
    assert_eq!(crest(0.3), 30);
    assert!(crest(0.0) < 20, "without snap it should leave the ground");
}

/// Stands on a kinematic platform driven by `drive(t) -> (v, w)` for 10 s:
/// the character's feet (the centre of its lower round end, which is what
/// touches the platform; the upright capsule itself does not turn) stay
/// within 1 cm in the platform's frame.
fn ride(drive: impl Fn(f32) -> (Vec2, f32)) {
    let mut w = world();
    // Density 1 kg/m² and friction 0.6: the default shape definition.
    let platform = build::box_body(&mut w, BodyType::Kinematic, Vec2::new(0.0, 2.0), 3.0, 0.25);
    let mut c = character(Vec2::new(1.0, 2.25 + FOOT));
    settle(&mut w, &mut c);
    // The feet: the centre of the capsule's lower round end.
    let local = w
        .body(platform)
        .unwrap()
        .local_point(c.world_capsule().center1);
    let mut t = 0.0;
    for _ in 0..600 {
        let (v, omega) = drive(t);
        let mut p = w.body_mut(platform).unwrap();
        p.set_linear_velocity(v).unwrap();
        p.set_angular_velocity(omega).unwrap();
        frame(&mut w, &mut c, 0.0);
        t += DT;
        let now = w
            .body(platform)
            .unwrap()
            .local_point(c.world_capsule().center1);
        assert!(
            (now - local).length() < 0.01,
            "t = {t}: {now:?} vs {local:?}"
        );
        assert!(c.is_grounded(), "t = {t}");
        assert_eq!(c.ground().unwrap().body, platform);
    }
}

#[test]
fn kinematic_platform_carries_the_character_translating() {
    ride(|t| (Vec2::new(3.0 * t.cos(), 1.5 * (2.0 * t).sin()), 0.0));
}

#[test]
fn kinematic_platform_carries_the_character_rotating() {
    // Tilts up to ±0.5 rad (29°, walkable) while moving.
    ride(|t| (Vec2::new(0.5 * t.sin(), 0.0), 0.5 * t.cos()));
}

#[test]
fn conveyor_moves_the_character_at_its_tangent_speed() {
    let mut w = world();
    let body = static_body(&mut w);
    let belt = make_offset_box(50.0, 1.0, Vec2::new(0.0, -1.0), Rot::IDENTITY).unwrap();
    let speed = 1.5;
    w.create_polygon_shape(
        body,
        &ShapeDef {
            tangent_speed: speed,
            ..Default::default()
        },
        &belt,
    )
    .unwrap();
    let mut c = settled_character(&mut w);
    let x0 = c.position().x;
    frames(&mut w, &mut c, 60, 0.0);
    // A body on a belt with positive tangent speed moves along +x (the
    // contact solver drives the tangential velocity to it).
    assert!((c.position().x - x0 - speed).abs() < 1e-3, "{c:?}");
}

/// A dynamic box of `mass` kg (1 m cube, face at x = 1.5) on ground of the
/// given friction; the character starts 1 cm from it and walks into it at
/// 2 m/s for `seconds`. Returns how far the
/// box moved and the gap between the character and the box.
fn push_box(mass: f32, friction: f32, push_force: f32, seconds: f32) -> (f32, f32) {
    let mut w = world();
    let ground = static_body(&mut w);
    let slab = make_offset_box(50.0, 1.0, Vec2::new(0.0, -1.0), Rot::IDENTITY).unwrap();
    let def = ShapeDef {
        friction,
        ..Default::default()
    };
    w.create_polygon_shape(ground, &def, &slab).unwrap();
    let b = unit_box(&mut w, Vec2::new(2.0, 0.5), mass, friction);
    let mut c = CharacterController::new(&CharacterDef {
        position: Vec2::new(1.5 - RADIUS - 0.01, FOOT),
        push_force,
        ..Default::default()
    })
    .unwrap();
    settle(&mut w, &mut c);
    let x0 = coord_to_f32(w.body(b).unwrap().position().x);
    for _ in 0..(seconds / DT).round() as usize {
        frame(&mut w, &mut c, 2.0);
    }
    let xb = coord_to_f32(w.body(b).unwrap().position().x);
    (xb - x0, (xb - 0.5) - (c.position().x + RADIUS))
}

#[test]
fn pushes_follow_the_push_force() {
    // 1000 kg on frictionless ground, 100 N: a = 0.1 m/s², and the character
    // (2 m/s) keeps pressing, so after T = 2 s the box moved ½·a·T² = 0.2 m
    // (plus the 1/N of a stepped integration).
    let (moved, gap) = push_box(1000.0, 0.0, 100.0, 2.0);
    let expected = 0.5 * 0.1 * 4.0;
    assert!(
        (moved - expected).abs() < 0.03 * expected,
        "{moved} vs {expected}"
    );
    assert!(gap.abs() < 0.02, "the character stays at the box: {gap}");
    // With friction 0.6 the same 100 N cannot move 1000 kg (needs 6000 N):
    // the character is blocked.
    let (moved, gap) = push_box(1000.0, 0.6, 100.0, 2.0);
    assert!(moved.abs() < 1e-3, "{moved}");
    assert!(gap.abs() < 0.02, "{gap}");
    // But it pushes 1 kg (6 N of friction) along at its walking speed.
    let (moved, gap) = push_box(1.0, 0.6, 100.0, 2.0);
    assert!(moved > 2.0 * 2.0 - 0.5, "{moved}");
    assert!(gap < 0.3, "{gap}");
}

#[test]
fn a_dynamic_body_pushes_the_character() {
    let mut w = world();
    let ground = static_body(&mut w);
    let slab = make_offset_box(50.0, 1.0, Vec2::new(0.0, -1.0), Rot::IDENTITY).unwrap();
    let def = ShapeDef {
        friction: 0.0,
        ..Default::default()
    };
    w.create_polygon_shape(ground, &def, &slab).unwrap();
    let mut c = settled_character(&mut w);
    let b = unit_box(&mut w, Vec2::new(-3.0, 0.5), 1.0, 0.0);
    build::set_velocity(&mut w, b, Vec2::new(2.0, 0.0));
    for _ in 0..120 {
        frame(&mut w, &mut c, 0.0);
        let xb = coord_to_f32(w.body(b).unwrap().position().x);
        // Never more than a few centimetres inside the box.
        assert!(c.position().x - RADIUS > xb + 0.5 - 0.05, "{c:?} box {xb}");
    }
    // The box slid 4 m in 2 s: the character was pushed along.
    assert!(c.position().x > 1.0, "{c:?}");
}

#[test]
fn no_tunnelling_at_100_m_per_s_or_on_dt_spikes() {
    for dt in [DT, 0.5] {
        let mut w = world();
        flat_ground(&mut w);
        let body = static_body(&mut w);
        // A 5 cm wall with its face at x = 5.
        let wall = make_offset_box(0.025, 50.0, Vec2::new(5.025, 50.0), Rot::IDENTITY).unwrap();
        w.create_polygon_shape(body, &ShapeDef::default(), &wall)
            .unwrap();
        let mut c = settled_character(&mut w);
        for _ in 0..30 {
            let mut v = c.velocity();
            v.x = 100.0;
            v.y -= G * dt;
            c.move_character(&mut w, v, dt).unwrap();
            w.step(dt, 4).unwrap();
            assert!(c.position().x + RADIUS <= 5.0 + 0.006, "dt {dt}: {c:?}");
        }
        assert!(c.position().x + RADIUS > 5.0 - 0.01, "stopped at the wall");
        assert!(c.velocity().x.abs() < 1e-3);
        // Jumping into it at the same speed from the air.
        let mut v = Vec2::new(100.0, 10.0);
        for _ in 0..5 {
            c.move_character(&mut w, v, dt).unwrap();
            v = c.velocity();
            assert!(c.position().x + RADIUS <= 5.0 + 0.006, "dt {dt}: {c:?}");
        }
    }
}

#[test]
fn one_way_platform_is_passed_from_below_and_stood_on_from_above() {
    let mut w = world();
    flat_ground(&mut w);
    let body = static_body(&mut w);
    let platform = make_offset_box(2.0, 0.1, Vec2::new(0.0, 2.9), Rot::IDENTITY).unwrap();
    let shape = w
        .create_polygon_shape(body, &ShapeDef::default(), &platform)
        .unwrap();
    let mut c = character(Vec2::new(0.0, FOOT));
    let filter: OneWayFilter = Box::new(move |s| s == shape);
    c.set_one_way_filter(Some(filter));
    settle(&mut w, &mut c);
    // Jump: v² = 2·g·h with h = 4 m puts the feet 4 m up, through the
    // platform (top at 3 m).
    let mut v = Vec2::new(0.0, (2.0 * G * 4.0).sqrt());
    let mut landed_on_platform = false;
    for _ in 0..240 {
        c.move_character(&mut w, v, DT).unwrap();
        w.step(DT, 4).unwrap();
        v = c.velocity();
        v.y -= G * DT;
        if c.is_grounded() && c.ground().unwrap().shape == shape {
            landed_on_platform = true;
        }
    }
    assert!(landed_on_platform);
    assert!(
        (c.position().y - (3.0 + FOOT - 0.005)).abs() < 2e-3,
        "{c:?}"
    );
}

#[test]
fn bad_input_is_an_error_and_changes_nothing() {
    let mut w = world();
    flat_ground(&mut w);
    for capsule in [
        Capsule {
            center1: Vec2::ZERO,
            center2: Vec2::new(0.0, 1.0),
            radius: 0.0,
        },
        Capsule {
            center1: Vec2::new(f32::NAN, 0.0),
            center2: Vec2::new(0.0, 1.0),
            radius: 0.3,
        },
    ] {
        let def = CharacterDef {
            capsule,
            ..Default::default()
        };
        assert!(CharacterController::new(&def).is_err());
        assert!(
            w.cast_mover(&capsule, Vec2::new(1.0, 0.0), Default::default())
                .is_err()
        );
        assert!(
            w.collide_mover(&capsule, Default::default(), |_, _| true)
                .is_err()
        );
    }
    assert!(
        CharacterController::new(&CharacterDef {
            max_slope: 2.0,
            ..Default::default()
        })
        .is_err()
    );
    let mut c = settled_character(&mut w);
    let before = format!("{c:?}");
    for v in [
        Vec2::new(f32::NAN, 0.0),
        Vec2::new(0.0, f32::INFINITY),
        Vec2::new(f32::MAX, 0.0),
    ] {
        assert!(c.move_character(&mut w, v, DT).is_err(), "{v:?}");
    }
    for dt in [0.0, -1.0, f32::NAN, f32::INFINITY] {
        assert!(c.move_character(&mut w, Vec2::ZERO, dt).is_err());
    }
    let b = w.create_body(&BodyDef::default()).unwrap();
    c.set_ignored_body(&w, Some(b)).unwrap();
    w.destroy_body(b).unwrap();
    assert!(matches!(
        c.move_character(&mut w, Vec2::ZERO, DT),
        Err(Error::InvalidId { .. })
    ));
    assert!(c.set_ignored_body(&w, Some(b)).is_err());
    assert_eq!(format!("{c:?}"), before);
    assert!(
        w.cast_mover(
            &c.world_capsule(),
            Vec2::new(f32::NAN, 0.0),
            Default::default()
        )
        .is_err()
    );
}
