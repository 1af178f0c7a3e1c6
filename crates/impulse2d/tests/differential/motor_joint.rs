//! The motor joint's Box2D v3.2 drives (velocity targets and springs) against
//! Box2D's own motor joint: the same body, joint and steps in both worlds,
//! positions, angles and velocities compared after every step.

use crate::common::box2d::{
    BodyState as State, body_state, dynamic_def, our_body_state, our_dynamic_def,
};
use boxdd_sys::ffi as c;
use impulse2d::collision::make_box;
use impulse2d::{BodyDef, JointDef, MotorJointDef, ShapeDef, Vec2, World, WorldDef};

const DT: f32 = 1.0 / 60.0;
const SUB_STEPS: u32 = 4;
const STEPS: usize = 120;

fn b2v(v: Vec2) -> c::b2Vec2 {
    c::b2Vec2 { x: v.x, y: v.y }
}

/// Runs the scene in our world: a 1 m box of 2 kg jointed to static ground.
fn ours(def: &MotorJointDef, start: State) -> Vec<State> {
    let mut world = World::new(&WorldDef {
        gravity: Vec2::ZERO,
        enable_sleep: false,
        ..Default::default()
    })
    .unwrap();
    let ground = world.create_body(&BodyDef::default()).unwrap();
    let body = world.create_body(&our_dynamic_def(start)).unwrap();
    let shape = ShapeDef {
        density: 2.0,
        ..Default::default()
    };
    world
        .create_polygon_shape(body, &shape, &make_box(0.5, 0.5).unwrap())
        .unwrap();
    world
        .create_motor_joint(&MotorJointDef {
            base: JointDef {
                body_a: ground,
                body_b: body,
                ..Default::default()
            },
            ..*def
        })
        .unwrap();
    (0..STEPS)
        .map(|_| {
            world.step(DT, SUB_STEPS).unwrap();
            our_body_state(&world, body)
        })
        .collect()
}

/// The same scene in Box2D.
fn theirs(def: &MotorJointDef, start: State) -> Vec<State> {
    // SAFETY: plain FFI calls on a fresh world; every pointer passed lives
    // across its call and the ids come from this world, destroyed at the end.
    unsafe {
        let mut wd = c::b2DefaultWorldDef();
        wd.gravity = b2v(Vec2::ZERO);
        let world = c::b2CreateWorld(&wd);
        c::b2World_EnableSleeping(world, false);
        let ground = c::b2CreateBody(world, &c::b2DefaultBodyDef());
        let body = c::b2CreateBody(world, &dynamic_def(start));
        let mut sd = c::b2DefaultShapeDef();
        sd.density = 2.0;
        let polygon = c::b2MakeBox(0.5, 0.5);
        c::b2CreatePolygonShape(body, &sd, &polygon);
        let defaults = c::b2DefaultMotorJointDef();
        let jd = c::b2MotorJointDef {
            base: c::b2JointDef {
                bodyIdA: ground,
                bodyIdB: body,
                ..defaults.base
            },
            linearVelocity: b2v(def.linear_velocity),
            maxVelocityForce: def.max_velocity_force,
            angularVelocity: def.angular_velocity,
            maxVelocityTorque: def.max_velocity_torque,
            linearHertz: def.linear_hertz,
            linearDampingRatio: def.linear_damping_ratio,
            maxSpringForce: def.max_spring_force,
            angularHertz: def.angular_hertz,
            angularDampingRatio: def.angular_damping_ratio,
            maxSpringTorque: def.max_spring_torque,
            ..defaults
        };
        c::b2CreateMotorJoint(world, &jd);
        let states = (0..STEPS)
            .map(|_| {
                c::b2World_Step(world, DT, SUB_STEPS as i32);
                body_state(body)
            })
            .collect();
        c::b2DestroyWorld(world);
        states
    }
}

#[test]
fn motor_joint_velocity_and_spring_drives_match_box2d() {
    let start = (Vec2::new(1.0, 1.0), 0.3, Vec2::new(0.5, -0.2), 0.4);
    let cases = [
        // Velocity drive only, force-limited (1 N on 2 kg) and not.
        MotorJointDef {
            linear_velocity: Vec2::new(2.0, -1.0),
            max_velocity_force: 1.0,
            angular_velocity: 1.5,
            max_velocity_torque: 0.2,
            ..Default::default()
        },
        MotorJointDef {
            linear_velocity: Vec2::new(-1.0, 0.5),
            max_velocity_force: 500.0,
            angular_velocity: -2.0,
            max_velocity_torque: 500.0,
            ..Default::default()
        },
        // Springs only: stiff and free, then bounded.
        MotorJointDef {
            linear_hertz: 2.0,
            linear_damping_ratio: 0.7,
            max_spring_force: 1000.0,
            angular_hertz: 1.5,
            angular_damping_ratio: 0.3,
            max_spring_torque: 1000.0,
            ..Default::default()
        },
        MotorJointDef {
            linear_hertz: 4.0,
            linear_damping_ratio: 1.0,
            max_spring_force: 3.0,
            angular_hertz: 3.0,
            angular_damping_ratio: 1.0,
            max_spring_torque: 0.5,
            ..Default::default()
        },
        // Everything at once: a spring towards the ground body's origin
        // fighting a velocity target.
        MotorJointDef {
            linear_velocity: Vec2::new(1.0, 1.0),
            max_velocity_force: 2.0,
            angular_velocity: 1.0,
            max_velocity_torque: 0.3,
            linear_hertz: 1.0,
            linear_damping_ratio: 0.5,
            max_spring_force: 5.0,
            angular_hertz: 1.0,
            angular_damping_ratio: 0.5,
            max_spring_torque: 1.0,
            ..Default::default()
        },
    ];
    for (case, def) in cases.iter().enumerate() {
        let a = ours(def, start);
        let b = theirs(def, start);
        for (step, (x, y)) in a.iter().zip(&b).enumerate() {
            let ok = (x.0 - y.0).length() < 1e-3
                && (x.1 - y.1).abs() < 1e-3
                && (x.2 - y.2).length() < 1e-3
                && (x.3 - y.3).abs() < 1e-3;
            assert!(ok, "case {case}, step {step}: ours {x:?}, Box2D {y:?}");
        }
        // The drives did something: the body is not where it would coast to.
        let coast = start.0 + start.2 * (STEPS as f32 * DT);
        assert!(
            (a[STEPS - 1].0 - coast).length() > 0.05,
            "case {case} did nothing"
        );
    }
}
