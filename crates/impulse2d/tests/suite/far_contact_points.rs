//! `ManifoldPoint::point` is the contact's world position on every public
//! path, in both builds, 100 km from the origin: the pre-solve callback
//! (ordinary contacts, continuous collision against a static body, two
//! bullets), contact data (world, body, shape), begin-touch and hit events.
//! Positions are placed on the `f32` grid there, so the expected points are
//! worked out by hand exactly; `point` is an `f32` world coordinate, so it
//! may be off by the rounding at 100 km (see `TOL_POINT`).
//!
//! With `large-world` the precise position far away is body A's centre of
//! mass (`f64`) plus `anchor_a` (as `ManifoldPoint::point` documents): that
//! is checked to 1 mm.

use crate::build;

use std::sync::{Arc, Mutex};

use impulse2d::collision::{Manifold, ManifoldPoint, make_box, make_offset_box};
use impulse2d::core::LINEAR_SLOP;
use impulse2d::pos::to_pos;
use impulse2d::{BodyDef, BodyId, BodyType, Pos, Rot, ShapeDef, ShapeId, Vec2, World, WorldDef};

/// The scene's origin: 100 km east, 80 km south (integers, exact in `f32`).
const FAR: Vec2 = Vec2::new(100_000.0, -80_000.0);

/// Spacing of `f32` numbers between 65,536 m and 131,072 m: 2¹⁶⁻²³ m.
const STEP_100KM: f32 = 1.0 / 128.0;

/// How far `point` may be from the hand-worked position: rounding to the
/// `f32` grid at 100 km (half a step; the default build's world-frame
/// arithmetic adds a few such roundings: two steps cover them) and 1 mm of
/// collision round-off near the bodies.
const TOL_POINT: f32 = 2.0 * STEP_100KM + 1e-3;

/// How far body A's centre of mass plus `anchor_a` may be from it: 1 mm
/// with `f64` positions; the default build's `f32` positions round as `point`.
#[cfg(feature = "large-world")]
const TOL_ANCHOR: f32 = 1e-3;
#[cfg(not(feature = "large-world"))]
const TOL_ANCHOR: f32 = TOL_POINT;

/// A world position `offset` (m) from `FAR`.
fn far(offset: Vec2) -> Pos {
    to_pos(FAR) + offset
}

/// Checks a point against a world position: `point` to `TOL_POINT`, and
/// body `a`'s centre of mass plus `anchor_a` to `TOL_ANCHOR`.
fn check_point(world: &World, what: &str, a: BodyId, p: &ManifoldPoint, want: Pos) {
    let err = want - to_pos(p.point);
    assert!(
        err.x.abs() <= TOL_POINT && err.y.abs() <= TOL_POINT,
        "{what}: point {:?}, want {want:?} (off by {err:?})",
        p.point
    );
    let centre = world.body(a).unwrap().world_center_of_mass();
    let err = want - (centre + p.anchor_a);
    assert!(
        err.x.abs() <= TOL_ANCHOR && err.y.abs() <= TOL_ANCHOR,
        "{what}: centre of A + anchor_a off by {err:?}"
    );
}

/// A 1 m box resting on a static 10 m × 1 m slab, its bottom face on the
/// slab's top (y = FAR.y + 0.5), centred 1 m right of the slab's centre and
/// moving down at 5 m/s (a hit event). Contact points: the box's bottom
/// corners, (FAR.x + 0.5, FAR.y + 0.5) and (FAR.x + 1.5, FAR.y + 0.5),
/// separation 0 when the manifold is computed at the start of the step.
struct Resting {
    world: World,
    ground: BodyId,
    ground_shape: ShapeId,
    body: BodyId,
    calls: Arc<Mutex<Vec<(ShapeId, ShapeId, Manifold)>>>,
}

fn resting() -> Resting {
    let mut world = build::world();
    let ground = build::body(&mut world, BodyType::Static, far(Vec2::ZERO));
    let ground_shape = build::add_box(&mut world, ground, 5.0, 0.5);
    let body = world
        .create_body(&BodyDef {
            linear_velocity: Vec2::new(0.0, -5.0),
            ..BodyDef::dynamic(far(Vec2::new(1.0, 1.0)))
        })
        .unwrap();
    let def = ShapeDef {
        enable_pre_solve_events: true,
        enable_hit_events: true,
        ..ShapeDef::default()
    };
    build::add_box_with(&mut world, body, 0.5, 0.5, &def);
    let calls = Arc::new(Mutex::new(Vec::new()));
    let record = calls.clone();
    world.set_pre_solve(move |a, b, m| {
        record.lock().unwrap().push((a, b, *m));
        true
    });
    Resting {
        world,
        ground,
        ground_shape,
        body,
        calls,
    }
}

/// The two points of a resting manifold, left to right, against the box's
/// bottom corners. Body A is the one holding `shape_a`.
fn check_resting(s: &Resting, what: &str, shape_a: ShapeId, m: &Manifold) {
    assert_eq!(m.point_count, 2, "{what}: {m:?}");
    let a = if shape_a == s.ground_shape {
        s.ground
    } else {
        s.body
    };
    let mut points = [m.points[0], m.points[1]];
    points.sort_by(|p, q| p.point.x.total_cmp(&q.point.x));
    for (p, dx) in points.iter().zip([0.5, 1.5]) {
        check_point(&s.world, what, a, p, far(Vec2::new(dx, 0.5)));
    }
}

#[test]
fn resting_contact_points_are_world_positions_on_every_path() {
    let mut s = resting();
    s.world.step(build::DT, 4).unwrap();

    let calls = s.calls.lock().unwrap().clone();
    assert_eq!(calls.len(), 1, "{calls:?}");
    let (a, _, m) = calls[0];
    check_resting(&s, "pre-solve", a, &m);

    let events = s.world.contact_events();
    assert_eq!(events.begin.len(), 1);
    let begin = events.begin[0];
    check_resting(&s, "begin-touch event", begin.shape_id_a, &begin.manifold);

    assert_eq!(events.hit.len(), 1, "{:?}", events.hit);
    let hit = events.hit[0];
    // Either corner may be the fastest-approaching one.
    let x = to_pos(hit.point) - far(Vec2::new(1.0, 0.5));
    assert!(
        (x.x.abs() - 0.5).abs() <= TOL_POINT && x.y.abs() <= TOL_POINT,
        "hit event point {:?} (from the bottom's centre: {x:?})",
        hit.point
    );

    let data = s.world.contact_data(begin.contact_id).unwrap();
    check_resting(&s, "World::contact_data", data.shape_id_a, &data.manifold);
    let body_data = s.world.body(s.body).unwrap().contacts();
    let shape_data = s.world.shape(s.ground_shape).unwrap().contacts();
    for (what, data) in [("body contacts", body_data), ("shape contacts", shape_data)] {
        assert_eq!(data.len(), 1, "{what}");
        check_resting(&s, what, data[0].shape_id_a, &data[0].manifold);
    }
}

/// A 1 m box at (FAR.x, FAR.y + 0.5) launched up at 150 m/s (2.5 m per step)
/// under a static 6 m × 0.2 m platform whose underside is y = FAR.y + 2.9:
/// continuous collision finds the hit in the first step and asks the
/// pre-solve callback with one point mid-way between the box's top face and
/// the underside, at the linear slop's gap (± a quarter, as
/// `tests/suite/continuous_pre_solve.rs` checks), so y = FAR.y + 2.9 − gap/2, and
/// x within the box's half-width of FAR.x.
fn launched_under_platform(bullet: bool) {
    let mut world = build::world();
    let platform = build::body(&mut world, BodyType::Static, far(Vec2::ZERO));
    let slab = make_offset_box(3.0, 0.1, Vec2::new(0.0, 3.0), Rot::IDENTITY).unwrap();
    let def = ShapeDef {
        enable_pre_solve_events: true,
        ..ShapeDef::default()
    };
    let platform_shape = world.create_polygon_shape(platform, &def, &slab).unwrap();
    let body = world
        .create_body(&BodyDef {
            linear_velocity: Vec2::new(0.0, 150.0),
            is_bullet: bullet,
            ..BodyDef::dynamic(far(Vec2::new(0.0, 0.5)))
        })
        .unwrap();
    world
        .create_polygon_shape(body, &ShapeDef::default(), &make_box(0.5, 0.5).unwrap())
        .unwrap();
    let calls = Arc::new(Mutex::new(Vec::new()));
    let record = calls.clone();
    world.set_pre_solve(move |a, b, m| {
        record.lock().unwrap().push((a, b, *m));
        true
    });
    world.step(build::DT, 4).unwrap();

    let calls = calls.lock().unwrap();
    assert_eq!(calls.len(), 1, "{calls:?}");
    let (a, _, m) = calls[0];
    assert_eq!(a, platform_shape);
    assert_eq!(m.point_count, 1);
    let p = m.points[0];
    assert!(
        (p.separation - LINEAR_SLOP).abs() <= 0.3 * LINEAR_SLOP + STEP_100KM,
        "{m:?}"
    );
    let err = to_pos(p.point) - far(Vec2::new(0.0, 2.9 - 0.5 * LINEAR_SLOP));
    assert!(
        err.x.abs() <= 0.5 + TOL_POINT && err.y.abs() <= 0.25 * LINEAR_SLOP + TOL_POINT,
        "impact point {:?} off by {err:?}",
        p.point
    );
}

#[test]
fn continuous_impact_point_is_a_world_position() {
    launched_under_platform(false);
}

#[test]
fn continuous_impact_point_of_a_bullet_is_a_world_position() {
    launched_under_platform(true);
}

/// Two 1 m bullets 6 m apart at (FAR.x ∓ 3, FAR.y) closing at 300 m/s each
/// without gravity (10 m a step): they meet in the first step, mid-way by
/// symmetry, and the pre-solve callback is asked with one point at
/// x = FAR.x (mid-way between the faces), y within the faces' half-height
/// of FAR.y.
#[test]
fn bullet_pair_impact_point_is_a_world_position() {
    let mut world = World::new(&WorldDef {
        gravity: Vec2::ZERO,
        ..WorldDef::default()
    })
    .unwrap();
    let def = ShapeDef {
        enable_pre_solve_events: true,
        ..ShapeDef::default()
    };
    let mut bullet = |dx: f32, vx: f32| {
        let b = world
            .create_body(&BodyDef {
                linear_velocity: Vec2::new(vx, 0.0),
                is_bullet: true,
                ..BodyDef::dynamic(far(Vec2::new(dx, 0.0)))
            })
            .unwrap();
        build::add_box_with(&mut world, b, 0.5, 0.5, &def)
    };
    bullet(-3.0, 300.0);
    bullet(3.0, -300.0);
    let calls = Arc::new(Mutex::new(Vec::new()));
    let record = calls.clone();
    world.set_pre_solve(move |a, b, m: &Manifold| {
        record.lock().unwrap().push((a, b, *m));
        true
    });
    world.step(build::DT, 4).unwrap();

    let calls = calls.lock().unwrap();
    assert!(!calls.is_empty());
    for (_, _, m) in calls.iter() {
        assert_eq!(m.point_count, 1, "{m:?}");
        let p = m.points[0];
        let err = to_pos(p.point) - far(Vec2::ZERO);
        assert!(
            err.x.abs() <= LINEAR_SLOP + TOL_POINT && err.y.abs() <= 0.5 + TOL_POINT,
            "impact point {:?} off by {err:?}",
            p.point
        );
    }
}
