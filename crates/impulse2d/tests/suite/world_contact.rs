//! Contact materials: friction on a ramp and restitution of a dropped ball.

use crate::build;

use crate::stepping;

use impulse2d::pos::coord_to_f32;
use impulse2d::{Vec2, World};
use stepping::step_checked;

/// On a 30° ramp a block holds when μ > tan 30° ≈ 0.577: with μ = 0.8 it
/// moves less than 1 cm in 5 s.
#[test]
fn friction_point_eight_holds_on_thirty_degrees() {
    let mut world = build::world();
    let ramp = impulse2d_scenes::friction_ramp(&mut world, 30.0, 0.8).unwrap();
    let start = world.body(ramp.block).unwrap().position();
    for _ in 0..300 {
        step_checked(&mut world);
    }
    let end = world.body(ramp.block).unwrap().position();
    assert!(
        (end - start).length() < 0.01,
        "block moved {} m",
        (end - start).length()
    );
}

/// Without friction the block slides with acceleration g·sin 30° = 5 m/s².
/// Measured from the velocity between 0.5 s and 1.5 s, within 2%.
#[test]
fn frictionless_block_slides_at_g_sin_theta() {
    let mut world = build::world();
    let ramp = impulse2d_scenes::friction_ramp(&mut world, 30.0, 0.0).unwrap();
    let speed_along = |world: &World| {
        world
            .body(ramp.block)
            .unwrap()
            .linear_velocity()
            .dot(ramp.downhill)
    };
    for _ in 0..30 {
        step_checked(&mut world);
    }
    let v1 = speed_along(&world);
    for _ in 0..60 {
        step_checked(&mut world);
    }
    let v2 = speed_along(&world);
    let a = v2 - v1; // over exactly 1 s
    let expected = 10.0 * 0.5;
    assert!(((a - expected) / expected).abs() < 0.02, "a = {a} m/s²");
    // It slides straight: no velocity across the ramp, no spin.
    let v = world.body(ramp.block).unwrap().linear_velocity();
    assert!((v - ramp.downhill * v.dot(ramp.downhill)).length() < 0.05);
    assert!(world.body(ramp.block).unwrap().angular_velocity().abs() < 0.05);
}

/// A ball whose bottom starts 2 m above the ground, with restitution `e`,
/// leaves the ground at `e` times its impact speed `√(2·g·h)` and rises
/// `e²·h`: 0.5 m for e = 0.5. Returns the highest rise of the ball's bottom
/// after its first bounce and the largest upward speed it had after touching.
fn drop_ball(restitution: f32) -> (f32, f32) {
    let mut world = build::world();
    let ground = impulse2d_scenes::flat_ground(&mut world, 10.0).unwrap();
    let radius = 0.5;
    let ball = impulse2d_scenes::ball(
        &mut world,
        Vec2::new(0.0, 2.0 + radius),
        radius,
        restitution,
    )
    .unwrap();
    let _ = ground;
    let mut touched = false;
    let mut apex = 0.0f32;
    let mut max_up = 0.0f32;
    for _ in 0..240 {
        step_checked(&mut world);
        let v = world.body(ball).unwrap().linear_velocity();
        // Touching means the manifold has a point: within the speculative
        // distance (2 cm) of the ground.
        if !touched && !world.body(ball).unwrap().contacts().is_empty() {
            touched = true;
        }
        if touched {
            let bottom = coord_to_f32(world.body(ball).unwrap().position().y) - radius;
            apex = apex.max(bottom);
            max_up = max_up.max(v.y);
        }
    }
    assert!(touched, "the ball never reached the ground");
    (apex, max_up)
}

#[test]
fn restitution_half_rebounds_to_a_quarter_of_the_drop() {
    let (apex, max_up) = drop_ball(0.5);
    assert!((apex - 0.5).abs() < 0.05, "rebound to {apex} m");
    // Impact speed √(2·10·2) ≈ 6.32 m/s, half of it back.
    assert!(
        (max_up - 0.5 * 40.0f32.sqrt()).abs() < 0.35,
        "left at {max_up} m/s"
    );
}

/// With restitution 0 the ball stops: no upward speed above the restitution
/// threshold (1 m/s), and it does not visibly leave the ground.
#[test]
fn restitution_zero_never_bounces_above_the_threshold() {
    let (apex, max_up) = drop_ball(0.0);
    assert!(max_up < 1.0, "bounced at {max_up} m/s");
    assert!(apex < 0.05, "rose {apex} m");
}

/// Friction mixing is replaceable: a frictionless block on a μ = 0.8 ramp
/// slides with the default geometric mean (√(0.8·0) = 0) but holds when the
/// world mixes friction with the larger coefficient (0.8 > tan 30°).
#[test]
fn friction_mixing_rule_can_be_replaced() {
    let run = |use_max: bool| {
        let mut world = build::world();
        if use_max {
            world.set_friction_mixing(|a, b| a.max(b));
        }
        let ramp = impulse2d_scenes::friction_ramp(&mut world, 30.0, 0.8).unwrap();
        frictionless(&mut world, ramp.block);
        let start = world.body(ramp.block).unwrap().position();
        for _ in 0..60 {
            step_checked(&mut world);
        }
        (world.body(ramp.block).unwrap().position() - start).length()
    };
    // Default: slides about ½·5·1² = 2.5 m in 1 s.
    assert!(run(false) > 2.0);
    assert!(run(true) < 0.01);
}

/// Sets the friction of `body`'s (first) shape to 0.
fn frictionless(world: &mut World, body: impulse2d::BodyId) {
    let shape = world.body(body).unwrap().shapes()[0];
    world.shape_mut(shape).unwrap().set_friction(0.0).unwrap();
}

/// A resting contact is recycled (its manifold kept) while nothing moves, but
/// changing a shape's friction still reaches it: a block held by μ = 0.8 on a
/// 30° ramp starts sliding at once when its friction drops to 0.
#[test]
fn recycled_contacts_see_material_changes() {
    let mut world = build::world();
    let ramp = impulse2d_scenes::friction_ramp(&mut world, 30.0, 0.8).unwrap();
    for _ in 0..20 {
        step_checked(&mut world);
    }
    let start = world.body(ramp.block).unwrap().position();
    frictionless(&mut world, ramp.block);
    world.body_mut(ramp.block).unwrap().set_awake(true);
    for _ in 0..30 {
        step_checked(&mut world);
    }
    // Half a second at 5 m/s²: about 0.6 m.
    let moved = (world.body(ramp.block).unwrap().position() - start).length();
    assert!(moved > 0.5, "block moved only {moved} m");
}
