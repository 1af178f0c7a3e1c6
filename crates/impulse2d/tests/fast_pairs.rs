//! Fast bodies against fast bodies (issue 17): bodies marked as bullets never
//! pass through each other, nor through a thin free plate, whatever the
//! fraction of a step at which they meet.

use boxdd_sys::ffi as c;
use impulse2d::collision::{Circle, make_box};
use impulse2d::{BodyDef, BodyId, BodyType, Vec2, World, WorldDef};

const DT: f32 = 1.0 / 60.0;
const SUBSTEPS: u32 = 4;
/// Start offsets tried, spread over one step's travel.
const OFFSETS: usize = 64;

fn zero_g() -> World {
    World::new(&WorldDef {
        gravity: Vec2::ZERO,
        ..Default::default()
    })
    .unwrap()
}

fn body(world: &mut World, x: f32, y: f32, vx: f32, bullet: bool) -> BodyId {
    world
        .create_body(&BodyDef {
            body_type: BodyType::Dynamic,
            position: Vec2::new(x, y),
            linear_velocity: Vec2::new(vx, 0.0),
            is_bullet: bullet,
            ..Default::default()
        })
        .unwrap()
}

/// Two 0.1 m boxes (or 0.05 m-radius balls) at 200 m/s towards each other,
/// their paths overlapping by half their size (`dy` = 0.05 m) or fully.
/// Returns the smallest gap `x_b − x_a` seen over 30 steps, metres: while the
/// boxes have not passed each other it stays positive; at rest against each
/// other it is their size, 0.1 m, less at most a slop.
fn crossing(offset: f32, dy: f32, balls: bool, bullet: bool) -> f32 {
    let mut w = zero_g();
    let start = 5.0 + offset;
    let a = body(&mut w, -start, 0.0, 200.0, bullet);
    let b = body(&mut w, start, dy, -200.0, bullet);
    for id in [a, b] {
        if balls {
            let circle = Circle::new(Vec2::ZERO, 0.05).unwrap();
            w.create_circle_shape(id, &Default::default(), &circle)
                .unwrap();
        } else {
            w.create_polygon_shape(id, &Default::default(), &make_box(0.05, 0.05).unwrap())
                .unwrap();
        }
    }
    let mut gap = f32::MAX;
    for _ in 0..30 {
        w.step(DT, SUBSTEPS).unwrap();
        let (xa, xb) = (w.body(a).unwrap().position().x, w.body(b).unwrap().position().x);
        gap = gap.min(xb - xa);
    }
    gap
}

#[test]
fn two_small_bullets_crossing_at_200_m_s_meet_at_any_offset() {
    // One step closes 2 × 200 / 60 = 6.7 m.
    let travel = 400.0 * DT;
    for k in 0..OFFSETS {
        let offset = travel * k as f32 / OFFSETS as f32;
        for (dy, balls) in [(0.0, false), (0.05, false), (0.0, true), (0.05, true)] {
            let gap = crossing(offset, dy, balls, true);
            assert!(
                gap > 0.0,
                "offset {offset} m, dy {dy}, balls {balls}: passed through (gap {gap})"
            );
        }
    }
}

/// A 2 cm thick, 1 m tall free plate at x = 10 and a 5 cm ball bullet at
/// 300 m/s: the ball's centre never gets past the plate's, at any start
/// offset within a step's travel (5 m).
#[test]
fn a_bullet_never_passes_a_thin_free_plate() {
    let travel = 300.0 * DT;
    for k in 0..OFFSETS {
        let offset = travel * k as f32 / OFFSETS as f32;
        for y in [0.0, 0.3, 0.45] {
            let mut w = zero_g();
            let plate = body(&mut w, 10.0, 0.0, 0.0, false);
            w.create_polygon_shape(plate, &Default::default(), &make_box(0.01, 0.5).unwrap())
                .unwrap();
            let ball = body(&mut w, -offset, y, 300.0, true);
            let circle = Circle::new(Vec2::ZERO, 0.05).unwrap();
            w.create_circle_shape(ball, &Default::default(), &circle)
                .unwrap();
            for step in 0..30 {
                w.step(DT, SUBSTEPS).unwrap();
                let p = w.body(plate).unwrap().transform();
                let x = w.body(ball).unwrap().position();
                // The ball's centre in the plate's frame.
                let local = p.apply_inv(x);
                assert!(
                    local.x < 0.0 || local.y.abs() > 0.5,
                    "offset {offset}, y {y}, step {step}: ball at {local:?} in the plate's frame"
                );
            }
        }
    }
}

/// Box2D v3 (boxdd-sys) on the crossing boxes, both bullets: how many of the
/// offsets pass through (printed with `--nocapture`; bullets ignore each other
/// there).
#[test]
fn box2d_figure_for_crossing_bullets() {
    let travel = 400.0 * DT;
    let mut passed = 0;
    for k in 0..OFFSETS {
        let offset = travel * k as f32 / OFFSETS as f32;
        // SAFETY: plain FFI calls on a fresh Box2D world, destroyed at the end.
        let gap = unsafe {
            let mut def = c::b2DefaultWorldDef();
            def.gravity = c::b2Vec2 { x: 0.0, y: 0.0 };
            let world = c::b2CreateWorld(&def);
            let mut ids = Vec::new();
            for (x, v) in [(-5.0 - offset, 200.0), (5.0 + offset, -200.0)] {
                let mut bd = c::b2DefaultBodyDef();
                bd.type_ = c::b2BodyType_b2_dynamicBody;
                bd.position = c::b2Vec2 { x, y: 0.0 };
                bd.linearVelocity = c::b2Vec2 { x: v, y: 0.0 };
                bd.isBullet = true;
                let id = c::b2CreateBody(world, &bd);
                let poly = c::b2MakeBox(0.05, 0.05);
                c::b2CreatePolygonShape(id, &c::b2DefaultShapeDef(), &poly);
                ids.push(id);
            }
            let mut gap = f32::MAX;
            for _ in 0..30 {
                c::b2World_Step(world, DT, SUBSTEPS as i32);
                let xa = c::b2Body_GetPosition(ids[0]).x;
                let xb = c::b2Body_GetPosition(ids[1]).x;
                gap = gap.min(xb - xa);
            }
            c::b2DestroyWorld(world);
            gap
        };
        if gap <= 0.0 {
            passed += 1;
        }
    }
    println!("Box2D v3: {passed} of {OFFSETS} offsets pass through");
    assert!(passed > 0);
    // Ours without the bullet mark: the same, they pass (not swept).
    let ours_unmarked = (0..OFFSETS)
        .filter(|&k| crossing(travel * k as f32 / OFFSETS as f32, 0.0, false, false) <= 0.0)
        .count();
    println!("ours, not bullets: {ours_unmarked} of {OFFSETS} offsets pass through");
}
