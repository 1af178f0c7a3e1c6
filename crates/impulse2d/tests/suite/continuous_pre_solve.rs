//! Continuous collision asks the pre-solve callback about each hit it finds
//! (as Box2D v3.1 does): a fast body jumps up through a one-way platform
//! instead of being stopped under it, and still lands on it from above.

use crate::build;

use std::sync::{Arc, Mutex};

use impulse2d::core::LINEAR_SLOP;
use impulse2d::pos::coord_to_f32;
use impulse2d::{BodyId, ShapeId, Vec2, World};
use impulse2d_scenes::{OneWayPlatform, PLATFORM_TOP, one_way_contact_enabled, one_way_platform};

const DT: f32 = 1.0 / 60.0;

/// Launch speed, m/s: 2.5 m per step, so that the 1 m box starting on the
/// ground (centre at 0.5 m) ends its first step with its centre at 3.0 m,
/// inside the 0.2 m platform (2.9 m to 3.1 m), and its second at 5.5 m,
/// above it.
const JUMP_SPEED: f32 = 150.0;

/// Height of the box's centre when it stops under the platform: its top
/// (centre + 0.5 m) against the platform's underside (2.9 m).
const UNDER_PLATFORM: f32 = PLATFORM_TOP - 0.2 - 0.5;

fn step(world: &mut World) {
    world.step(DT, 4).unwrap();
    if let Err(e) = world.validate() {
        panic!("invalid world after step {}: {e}", world.step_count());
    }
}

/// What the callback was given.
#[derive(Clone, Copy, Debug)]
struct Call {
    a: ShapeId,
    b: ShapeId,
    normal: Vec2,
    point: Vec2,
    separation: f32,
    point_count: usize,
}

/// The one-way platform scene launched at `JUMP_SPEED`, with the scene's
/// callback wrapped to record every call.
fn launch(bullet: bool) -> (World, OneWayPlatform, ShapeId, Arc<Mutex<Vec<Call>>>) {
    let mut world = build::world();
    let scene = one_way_platform(&mut world, JUMP_SPEED).unwrap();
    world.body_mut(scene.body).unwrap().set_bullet(bullet);
    let box_shape = world.body(scene.body).unwrap().shapes()[0];
    let calls = Arc::new(Mutex::new(Vec::new()));
    let record = calls.clone();
    let platform = scene.platform_shape;
    world.set_pre_solve(move |a, b, manifold| {
        let p = manifold.points()[0];
        record.lock().unwrap().push(Call {
            a,
            b,
            normal: manifold.normal,
            point: p.point,
            separation: p.separation,
            point_count: manifold.point_count,
        });
        one_way_contact_enabled(platform, a, b, manifold)
    });
    (world, scene, box_shape, calls)
}

fn height(world: &World, body: BodyId) -> f32 {
    coord_to_f32(world.body(body).unwrap().position().y)
}

fn jumps_through_and_lands(bullet: bool) {
    let (mut world, scene, box_shape, calls) = launch(bullet);

    // Step 1: the sweep hits the platform's underside; the callback is asked
    // with (platform, fast box) and a one-point manifold at the time of
    // impact, normal from the platform down to the box, and says no.
    step(&mut world);
    {
        let calls = calls.lock().unwrap();
        assert_eq!(calls.len(), 1, "{calls:?}");
        let c = calls[0];
        assert_eq!((c.a, c.b), (scene.platform_shape, box_shape));
        assert_eq!(c.point_count, 1);
        assert!((c.normal - Vec2::new(0.0, -1.0)).length() < 1e-4, "{c:?}");
        // Time of impact leaves a gap of the linear slop (± a quarter).
        assert!(
            (c.separation - LINEAR_SLOP).abs() <= 0.3 * LINEAR_SLOP,
            "{c:?}"
        );
        // The point is in world coordinates (in both builds): mid-way across
        // the gap under the platform's underside (y = 2.9 m), within the
        // box's half-width of its centre line x = 0.
        assert!(
            (c.point.y - (2.9 - 0.5 * c.separation)).abs() < 1e-3,
            "{c:?}"
        );
        assert!(c.point.x.abs() <= 0.5 + 1e-4, "{c:?}");
    }
    // Not moved back: free flight, 0.5 + 2.5 m less a little gravity.
    let y1 = height(&world, scene.body);
    assert!((y1 - 3.0).abs() < 0.01, "y = {y1}");

    step(&mut world);
    let y2 = height(&world, scene.body);
    assert!((y2 - 5.5).abs() < 0.01, "y = {y2}");
    let vy = world.body(scene.body).unwrap().linear_velocity().y;
    assert!(
        (vy - (JUMP_SPEED - 2.0 * 10.0 * DT)).abs() < 0.01,
        "vy = {vy}"
    );

    // Up 150²/20 = 1125 m and back down in 2 × 15 s; it comes down at
    // 150 m/s and the platform, solid from above, catches it.
    let mut landed_at = None;
    for i in 0..2000 {
        step(&mut world);
        let y = height(&world, scene.body);
        if world.body(scene.body).unwrap().linear_velocity().y < 0.0 {
            assert!(y > PLATFORM_TOP + 0.5 - 0.05, "fell through at y = {y}");
        }
        if landed_at.is_none() && (y - (PLATFORM_TOP + 0.5)).abs() < 0.02 {
            landed_at = Some(i);
        }
    }
    assert!(landed_at.is_some_and(|i| i > 1700), "{landed_at:?}");
    let y = height(&world, scene.body);
    assert!((y - (PLATFORM_TOP + 0.5)).abs() < 0.02, "rests at {y}");
}

#[test]
fn a_fast_box_jumps_up_through_a_one_way_platform_and_lands_on_it() {
    jumps_through_and_lands(false);
}

#[test]
fn a_bullet_jumps_up_through_a_one_way_platform_and_lands_on_it() {
    jumps_through_and_lands(true);
}

/// Without the callback, or with pre-solve events off on both shapes,
/// continuous collision stops the box under the platform: it does not
/// tunnel.
#[test]
fn without_pre_solve_the_platform_stops_the_fast_box() {
    for (bullet, clear) in [(false, true), (false, false), (true, true), (true, false)] {
        let (mut world, scene, _, calls) = launch(bullet);
        if clear {
            world.clear_pre_solve();
        } else {
            world
                .shape_mut(scene.platform_shape)
                .unwrap()
                .set_pre_solve_events_enabled(false);
        }
        step(&mut world);
        let y1 = height(&world, scene.body);
        assert!((y1 - UNDER_PLATFORM).abs() < 0.01, "y = {y1}");
        let mut highest = y1;
        for _ in 0..120 {
            step(&mut world);
            highest = highest.max(height(&world, scene.body));
        }
        assert!(highest < UNDER_PLATFORM + 0.01, "highest {highest}");
        assert!(calls.lock().unwrap().is_empty());
    }
}
