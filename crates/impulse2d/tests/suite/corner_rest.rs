//! Impacts that end in a rest (issue 17): a box dropped corner-first at any
//! angle and speed comes to rest on a face, never balanced on a corner.
//!
//! A box resting on a face on flat ground is tilted by at most the difference
//! of its two points' penetrations over its width: a few linear slops
//! (5 mm each) over 1 m, well under a degree. Balanced on a corner it is tilted
//! by tens of degrees. The test asks for under 1°.

use crate::box2d_world;
use crate::build;

use boxdd_sys::ffi as c;
use impulse2d::math::PI;
use impulse2d::pos::{coord_to_f32, to_pos};
use impulse2d::{BodyDef, BodyType, Rot, Vec2};
use impulse2d_scenes::solver2d::high_mass_ratio_3;

const DT: f32 = 1.0 / 60.0;
const SUBSTEPS: u32 = 4;
/// Half the box's side, metres.
const HALF: f32 = 0.5;
/// Largest tilt from a face of a box at rest, radians.
const MAX_TILT: f32 = PI / 180.0;
/// Steps before giving up on sleep (20 s).
const MAX_STEPS: usize = 1200;

/// The tilt of rotation angle `a` from the nearest multiple of 90°.
fn tilt(a: f32) -> f32 {
    let quarter = 0.5 * PI;
    let r = a.rem_euclid(quarter);
    r.min(quarter - r)
}

/// Drops a 1 m box turned by `angle` with its lowest corner 0.1 m above the
/// ground, moving down at `speed`; returns (asleep, angle) once asleep or
/// after [`MAX_STEPS`].
fn drop_ours(angle: f32, speed: f32) -> (bool, f32) {
    let mut world = build::world();
    build::ground_slab(&mut world, 20.0);
    let rot = Rot::from_angle(angle);
    // The lowest corner's depth below the centre: |c|·h + |s|·h.
    let reach = HALF * (rot.c.abs() + rot.s.abs());
    let body = world
        .create_body(&BodyDef {
            rotation: rot,
            linear_velocity: Vec2::new(0.0, -speed),
            ..build::def(BodyType::Dynamic, Vec2::new(0.0, reach + 0.1))
        })
        .unwrap();
    build::add_box(&mut world, body, HALF, HALF);
    for _ in 0..MAX_STEPS {
        world.step(DT, SUBSTEPS).unwrap();
        if !world.body(body).unwrap().is_awake() {
            break;
        }
    }
    let b = world.body(body).unwrap();
    (!b.is_awake(), b.rotation().angle())
}

/// The same drop in Box2D v3 (boxdd-sys).
fn drop_box2d(angle: f32, speed: f32) -> (bool, f32) {
    let rot = Rot::from_angle(angle);
    let reach = HALF * (rot.c.abs() + rot.s.abs());
    // SAFETY: plain FFI calls on a fresh Box2D world, destroyed at the end.
    unsafe {
        let (world, _) = box2d_world::world_with_ground(20.0);
        let sd = c::b2DefaultShapeDef();
        let mut bd = c::b2DefaultBodyDef();
        bd.type_ = c::b2BodyType_b2_dynamicBody;
        bd.position = c::b2Vec2 {
            x: 0.0,
            y: reach + 0.1,
        };
        bd.rotation = c::b2Rot { c: rot.c, s: rot.s };
        bd.linearVelocity = c::b2Vec2 { x: 0.0, y: -speed };
        let body = c::b2CreateBody(world, &bd);
        let poly = c::b2MakeBox(HALF, HALF);
        c::b2CreatePolygonShape(body, &sd, &poly);
        for _ in 0..MAX_STEPS {
            c::b2World_Step(world, DT, SUBSTEPS as i32);
            if !c::b2Body_IsAwake(body) {
                break;
            }
        }
        let q = c::b2Body_GetRotation(body);
        let awake = c::b2Body_IsAwake(body);
        c::b2DestroyWorld(world);
        (!awake, impulse2d::math::atan2(q.s, q.c))
    }
}

/// Drop angles 0.5° to 89.5° in steps of 1° at 0, 3, 6 and 12 m/s, and
/// 44.05° to 45.95° in steps of 0.1° (a box landing within millimetres of
/// balance) at 0 to 8 m/s.
fn drops() -> impl Iterator<Item = (f32, f32)> {
    let coarse = (0..90).flat_map(|k| {
        let angle = (k as f32 + 0.5).to_radians();
        [0.0, 3.0, 6.0, 12.0].into_iter().map(move |v| (angle, v))
    });
    let fine = (0..20).flat_map(|k| {
        let angle = (44.05 + 0.1 * k as f32).to_radians();
        [0.0, 1.0, 2.0, 3.0, 5.0, 8.0]
            .into_iter()
            .map(move |v| (angle, v))
    });
    coarse.chain(fine)
}

#[test]
fn a_box_dropped_corner_first_never_rests_on_its_corner() {
    let mut corner = Vec::new();
    for (angle, speed) in drops() {
        let (asleep, a) = drop_ours(angle, speed);
        assert!(asleep, "dropped at {angle} rad, {speed} m/s: still awake");
        if tilt(a) > MAX_TILT {
            corner.push((angle.to_degrees(), speed, a.to_degrees()));
        }
    }
    assert!(corner.is_empty(), "asleep on a corner: {corner:?}");
}

/// Box2D's figure for the same drops (printed with `--nocapture`): some of
/// its boxes fall asleep on a corner, so the drops do reach the case.
#[test]
fn box2d_figure_for_the_same_drops() {
    let mut corner = 0;
    let mut total = 0;
    for (angle, speed) in drops() {
        let (_, a) = drop_box2d(angle, speed);
        total += 1;
        if tilt(a) > MAX_TILT {
            corner += 1;
        }
    }
    println!("Box2D v3: {corner} of {total} drops asleep on a corner");
    assert!(corner > 0);
}

/// Solver2D's high mass ratio 3 (a 20 m, 400 kg box dropped onto the tips of
/// two 0.5 kg triangles; `impulse2d_scenes::solver2d::high_mass_ratio_3`)
/// sways on the triangles before it sleeps. The tipping check (a body on a
/// single loaded point stays awake) must not keep it awake longer: it comes to
/// rest no later than Box2D v3 does on the same setup, built here through
/// boxdd-sys.
#[test]
fn high_mass_ratio_3_sleeps_no_later_than_box2d() {
    let mut world = build::world();
    let scene = high_mass_ratio_3(&mut world).unwrap();
    let [left, right, big] = scene.bodies[..] else {
        panic!("three bodies expected");
    };
    // The setup built for Box2D below, checked against the scene.
    let (triangle, box_half, box_y) = (
        [(-0.5f32, 0.0f32), (0.5, 0.0), (0.0, 1.0)],
        10.0f32,
        14.0f32,
    );
    for (id, x) in [(left, -9.0f32), (right, 9.0)] {
        let b = world.body(id).unwrap();
        assert_eq!(b.position(), to_pos(Vec2::new(x, 0.5)));
        assert!(
            (b.mass() - 0.5).abs() < 1e-5,
            "triangle of 1 m² · 1/2 at density 1"
        );
    }
    let b = world.body(big).unwrap();
    assert_eq!(b.position(), to_pos(Vec2::new(0.0, box_y)));
    assert!((b.mass() - 4.0 * box_half * box_half).abs() < 1e-2);

    let asleep =
        |awake: &mut dyn FnMut() -> bool| (1..=1200).find(|_| !awake()).unwrap_or(usize::MAX);
    let ours = asleep(&mut || {
        world.step(DT, SUBSTEPS).unwrap();
        world.counters().awake_body_count > 0
    });
    // SAFETY: plain FFI calls on a fresh Box2D world, destroyed at the end.
    let box2d = unsafe {
        let (bw, _) = box2d_world::world_with_ground(50.0);
        let sd = c::b2DefaultShapeDef();
        let points = triangle.map(|(x, y)| c::b2Vec2 { x, y });
        let hull = c::b2ComputeHull(points.as_ptr(), 3);
        let tri = c::b2MakePolygon(&hull, 0.0);
        let mut bodies = Vec::new();
        for (x, y, poly) in [
            (-9.0, 0.5, tri),
            (9.0, 0.5, tri),
            (0.0, box_y, c::b2MakeBox(box_half, box_half)),
        ] {
            let mut bd = c::b2DefaultBodyDef();
            bd.type_ = c::b2BodyType_b2_dynamicBody;
            bd.position = c::b2Vec2 { x, y };
            let body = c::b2CreateBody(bw, &bd);
            c::b2CreatePolygonShape(body, &sd, &poly);
            bodies.push(body);
        }
        let steps = asleep(&mut || {
            c::b2World_Step(bw, DT, SUBSTEPS as i32);
            bodies.iter().any(|&b| c::b2Body_IsAwake(b))
        });
        let poses = bodies.iter().map(|&b| {
            let q = c::b2Body_GetRotation(b);
            (c::b2Body_GetPosition(b).x, impulse2d::math::atan2(q.s, q.c))
        });
        let angles: Vec<(f32, f32)> = poses.collect();
        c::b2DestroyWorld(bw);
        (steps, angles)
    };
    let (box2d, box2d_angles) = box2d;
    println!("high mass ratio 3 asleep at step: ours {ours}, Box2D v3 {box2d}");
    // At rest the triangles lean and the box has slid as Box2D's have (a
    // few hundredths of a radian, some 0.1 m: contact friction acts in the
    // relax pass only, in both).
    for (id, theirs) in [left, right, big].into_iter().zip(box2d_angles) {
        let b = world.body(id).unwrap();
        let ours = (coord_to_f32(b.position().x), b.rotation().angle());
        assert!(
            (ours.0 - theirs.0).abs() < 1e-3 && (ours.1 - theirs.1).abs() < 1e-3,
            "at rest (x m, angle rad): ours {ours:?}, Box2D's {theirs:?}"
        );
    }
    assert!(box2d < usize::MAX, "Box2D's box comes to rest");
    assert!(
        ours <= box2d,
        "ours asleep at step {ours}, Box2D at {box2d}"
    );
}
