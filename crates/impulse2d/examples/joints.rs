//! Joints: a swinging chain of links (revolute joints), a motor-driven wheel,
//! a slider with a limit, and a weld that breaks past a force.
//!
//! `cargo run --release -p impulse2d --example joints`

use impulse2d::collision::{Circle, make_box};
use impulse2d::pos::to_pos;
use impulse2d::{
    BodyDef, BodyId, JointDef, JointEventKind, Pos, PrismaticJointDef, RevoluteJointDef, ShapeDef,
    Vec2, WeldJointDef, World, WorldDef,
};

/// Joins bodies `a` and `b` at the given points of each (local frames, metres).
fn joint_base(a: BodyId, b: BodyId, local_anchor_a: Vec2, local_anchor_b: Vec2) -> JointDef {
    JointDef {
        body_a: a,
        body_b: b,
        local_anchor_a,
        local_anchor_b,
        ..Default::default()
    }
}

fn main() -> impulse2d::Result<()> {
    let mut world = World::new(&WorldDef::default())?;
    let ground = world.create_body(&BodyDef::default())?;

    // A chain of ten 0.5 m links hinged to the ground at (0, 10), starting horizontal.
    let mut prev = ground;
    let mut last = ground;
    for i in 0..10 {
        let link = world.create_body(&BodyDef::dynamic(Vec2::new(0.25 + 0.5 * i as f32, 10.0)))?;
        world.create_polygon_shape(link, &ShapeDef::default(), &make_box(0.25, 0.05)?)?;
        let anchor = to_pos(Vec2::new(0.5 * i as f32, 10.0)); // world point of the hinge
        let local_a = world.body(prev)?.transform().apply_inv(anchor);
        let local_b = world.body(link)?.transform().apply_inv(anchor);
        world.create_revolute_joint(&RevoluteJointDef {
            base: joint_base(prev, link, local_a, local_b),
            ..Default::default()
        })?;
        prev = link;
        last = link;
    }

    // A wheel on an axle at (-5, 5) driven by a motor at 3 rad/s.
    let wheel = world.create_body(&BodyDef::dynamic(Vec2::new(-5.0, 5.0)))?;
    world.create_circle_shape(wheel, &ShapeDef::default(), &Circle::new(Vec2::ZERO, 0.5)?)?;
    let axle = world.create_revolute_joint(&RevoluteJointDef {
        base: joint_base(ground, wheel, Vec2::new(-5.0, 5.0), Vec2::ZERO),
        ..Default::default()
    })?;
    let mut motor = world.joint_mut(axle)?.motor()?;
    motor.enable(true);
    motor.set_max_force(100.0)?; // the largest torque, N·m
    motor.set_speed(3.0)?; // rad/s

    // A block sliding along x from (-10, 5), free to move 1 m either way, pushed by a motor.
    let block = world.create_body(&BodyDef::dynamic(Vec2::new(-10.0, 5.0)))?;
    world.create_polygon_shape(block, &ShapeDef::default(), &make_box(0.3, 0.3)?)?;
    let slider = world.create_prismatic_joint(&PrismaticJointDef {
        base: joint_base(ground, block, Vec2::new(-10.0, 5.0), Vec2::ZERO),
        local_axis_a: Vec2::X,
        enable_limit: true,
        lower_translation: -1.0,
        upper_translation: 1.0,
        enable_motor: true,
        max_motor_force: 50.0, // N
        motor_speed: 2.0,      // m/s
        ..Default::default()
    })?;

    // A 1 kg box welded under a beam at (5, 5) that breaks when the joint must hold more than 15 N
    // (its weight is 10 N: a push of 8 m/s² downwards breaks it).
    let hanging = world.create_body(&BodyDef::dynamic(Vec2::new(5.0, 4.5)))?;
    world.create_polygon_shape(hanging, &ShapeDef::default(), &make_box(0.5, 0.5)?)?;
    world.create_weld_joint(&WeldJointDef {
        base: JointDef {
            force_threshold: 15.0,
            break_on_threshold: true,
            ..joint_base(ground, hanging, Vec2::new(5.0, 5.0), Vec2::new(0.0, 0.5))
        },
        ..Default::default()
    })?;

    let mut broke_at = None;
    for step in 0..180 {
        // From 1 s on, push the welded box down with 8 N (forces last one step).
        if step >= 60 && broke_at.is_none() {
            world
                .body_mut(hanging)?
                .apply_force_to_center(Vec2::new(0.0, -8.0), true)?;
        }
        world.step(1.0 / 60.0, 4)?;
        for e in world.joint_events() {
            if e.kind == JointEventKind::Broken {
                println!("step {step}: the weld broke, force {:.1} N", e.force);
                broke_at = Some(step);
            }
        }
    }

    let end = world.body(last)?.position();
    let spin = world.body(wheel)?.angular_velocity();
    let angle = world.joint(axle)?.revolute()?.angle(); // in [-π, π]
    let slide = world.joint(slider)?.prismatic()?.translation();
    println!("chain end at ({:.2}, {:.2}) m", end.x, end.y);
    println!("wheel turning at {spin:.3} rad/s, at {angle:.2} rad after 3 s (9 rad − 2π)");
    println!("slider at {slide:.3} m (limit 1 m)");
    // The chain swings from its hinge, its end at most its 5 m length away.
    assert!((end - Pos::new(0.0, 10.0)).length() <= 5.0 + 0.05);
    assert!((spin - 3.0).abs() < 1e-3);
    assert!((angle - (9.0 - std::f32::consts::TAU)).abs() < 0.05);
    assert!((slide - 1.0).abs() < 0.02);
    assert!(broke_at.is_some_and(|s| s >= 60));
    Ok(())
}
