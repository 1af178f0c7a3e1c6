//! Friction and rolling resistance in the relax pass only, as Box2D v3.2
//! solves contacts (`b2SolveContactsTask` and `b2SolveContact_Overflow`
//! apply them only when `useBias` is false): checked against Box2D v3.2
//! itself (boxdd-sys) on two scenes where the biased pass with friction
//! gives visibly different motion.
//!
//! - A 1 m box dropped 2.5 m onto flat ground slides a few millimetres
//!   sideways as it lands (the two contact points are pushed apart one after
//!   the other, and friction acts only in the relax pass): its final pose
//!   must be Box2D's.
//! - The registry's car (two sprung wheels, a motor) over eight bumps: the
//!   step at which it passes them and how far a bump knocks a wheel off its
//!   suspension line must be Box2D's.

use crate::box2d_world;
use crate::build;

use boxdd_sys::ffi as c;
use impulse2d::math::atan2;
use impulse2d::pos::coord_to_f32;
use impulse2d::{BodyType, Vec2, World};

const DT: f32 = 1.0 / 60.0;
const SUBSTEPS: u32 = 4;

/// Where the dropped box ends: (x, y, angle) after `steps` steps.
fn drop_ours(steps: usize) -> (f32, f32, f32) {
    let mut world = build::world();
    impulse2d_scenes::flat_ground(&mut world, 20.0).unwrap();
    let body = build::body(&mut world, BodyType::Dynamic, Vec2::new(0.0, 3.0));
    build::add_box(&mut world, body, 0.5, 0.5);
    for _ in 0..steps {
        world.step(DT, SUBSTEPS).unwrap();
    }
    let b = world.body(body).unwrap();
    let p = b.position();
    (coord_to_f32(p.x), coord_to_f32(p.y), b.rotation().angle())
}

/// A dynamic Box2D body at (x, y).
///
/// # Safety
/// `world` is a live Box2D world.
unsafe fn box2d_dynamic(world: c::b2WorldId, x: f32, y: f32) -> c::b2BodyId {
    // SAFETY: the caller's.
    unsafe {
        let mut bd = c::b2DefaultBodyDef();
        bd.type_ = c::b2BodyType_b2_dynamicBody;
        bd.position = c::b2Vec2 { x, y };
        c::b2CreateBody(world, &bd)
    }
}

/// The same drop in Box2D v3.2.
fn drop_box2d(steps: usize) -> (f32, f32, f32) {
    // SAFETY: plain FFI calls on a fresh Box2D world, destroyed at the end.
    unsafe {
        let (world, _) = box2d_world::world_with_ground(20.0);
        let body = box2d_dynamic(world, 0.0, 3.0);
        let square = c::b2MakeBox(0.5, 0.5);
        c::b2CreatePolygonShape(body, &c::b2DefaultShapeDef(), &square);
        for _ in 0..steps {
            c::b2World_Step(world, DT, SUBSTEPS as i32);
        }
        let p = c::b2Body_GetPosition(body);
        let q = c::b2Body_GetRotation(body);
        c::b2DestroyWorld(world);
        (p.x, p.y, atan2(q.s, q.c))
    }
}

#[test]
fn a_dropped_box_lands_where_box2d_lands_it() {
    for steps in [60, 120, 240] {
        let ours = drop_ours(steps);
        let theirs = drop_box2d(steps);
        // the sideways slide is millimetres: agree to a hundredth of it
        assert!(
            (ours.0 - theirs.0).abs() < 1e-4
                && (ours.1 - theirs.1).abs() < 1e-4
                && (ours.2 - theirs.2).abs() < 1e-4,
            "after {steps} steps: ours {ours:?}, Box2D {theirs:?}"
        );
    }
}

/// The car's run: the step at which its chassis passes x = 42 m (past the
/// last bump by a car length) and the largest distance of a wheel centre
/// from its suspension line (m), given a step function and a reader of
/// (chassis x, [(anchor A, wheel centre, axis); 2]).
fn car_run(
    mut step: impl FnMut(),
    mut read: impl FnMut() -> (f32, [(Vec2, Vec2, Vec2); 2]),
) -> (Option<usize>, f32) {
    let mut max_off = 0.0f32;
    for i in 0..1200 {
        step();
        let (x, wheels) = read();
        for (a, b, axis) in wheels {
            max_off = max_off.max(axis.left_perp().dot(b - a).abs());
        }
        if x > 42.0 {
            return (Some(i), max_off);
        }
    }
    (None, max_off)
}

/// The registry's car (`impulse2d_scenes::joints::car`) in Box2D v3.2: the
/// same bodies, shapes and wheel joints (the axis, body A's y, is the x
/// axis of frame A).
fn car_box2d() -> (Option<usize>, f32) {
    // SAFETY: plain FFI calls on a fresh Box2D world, destroyed at the end.
    unsafe {
        let (world, ground) = box2d_world::world_with_ground(100.0);
        let sd = c::b2DefaultShapeDef();
        for k in 0..8 {
            let bump = c::b2Circle {
                center: c::b2Vec2 {
                    x: 10.0 + 4.0 * k as f32,
                    y: -0.1,
                },
                radius: 0.3,
            };
            c::b2CreateCircleShape(ground, &sd, &bump);
        }
        let chassis = box2d_dynamic(world, 0.0, 1.0);
        let mut body_shape = c::b2DefaultShapeDef();
        body_shape.density = 2.0;
        c::b2CreatePolygonShape(chassis, &body_shape, &c::b2MakeBox(1.25, 0.25));
        let mut wheel_shape = c::b2DefaultShapeDef();
        wheel_shape.density = 2.0;
        wheel_shape.material.friction = 1.5;
        let xs = [-0.9f32, 0.9];
        let mut wheels = [chassis; 2];
        for (k, &x) in xs.iter().enumerate() {
            wheels[k] = box2d_dynamic(world, x, 0.4);
            let disc = c::b2Circle {
                center: c::b2Vec2 { x: 0.0, y: 0.0 },
                radius: 0.4,
            };
            c::b2CreateCircleShape(wheels[k], &wheel_shape, &disc);
            let up = c::b2Rot { c: 0.0, s: 1.0 };
            let mut jd = c::b2DefaultWheelJointDef();
            jd.base.bodyIdA = chassis;
            jd.base.bodyIdB = wheels[k];
            jd.base.localFrameA = c::b2Transform {
                p: c::b2Vec2 { x, y: -0.6 },
                q: up,
            };
            jd.base.localFrameB = c::b2Transform {
                p: c::b2Vec2 { x: 0.0, y: 0.0 },
                q: up,
            };
            jd.enableSpring = true;
            jd.hertz = 5.0;
            jd.dampingRatio = 0.7;
            jd.enableLimit = true;
            jd.lowerTranslation = -0.25;
            jd.upperTranslation = 0.25;
            jd.enableMotor = k == 0;
            jd.motorSpeed = -20.0;
            jd.maxMotorTorque = 5.0;
            c::b2CreateWheelJoint(world, &jd);
        }
        let v = |p: c::b2Vec2| Vec2::new(p.x, p.y);
        let run = car_run(
            || c::b2World_Step(world, DT, SUBSTEPS as i32),
            || {
                let wheel = |k: usize| {
                    let a = c::b2Body_GetWorldPoint(chassis, c::b2Vec2 { x: xs[k], y: -0.6 });
                    let axis = c::b2Body_GetWorldVector(chassis, c::b2Vec2 { x: 0.0, y: 1.0 });
                    (v(a), v(c::b2Body_GetPosition(wheels[k])), v(axis))
                };
                (c::b2Body_GetPosition(chassis).x, [wheel(0), wheel(1)])
            },
        );
        c::b2DestroyWorld(world);
        run
    }
}

fn car_ours() -> (Option<usize>, f32) {
    let world = std::cell::RefCell::new(World::new(&Default::default()).unwrap());
    let car = impulse2d_scenes::joints::car(&mut world.borrow_mut()).unwrap();
    car_run(
        || world.borrow_mut().step(DT, SUBSTEPS).unwrap(),
        || {
            let w = world.borrow();
            let chassis = w.body(car.chassis).unwrap();
            let axis = chassis.world_vector(Vec2::Y);
            let wheel = |k: usize| {
                let (a, b) = w.joint(car.joints[k]).unwrap().world_anchors();
                // (relative to anchor A: exact in both builds)
                (Vec2::ZERO, b - a, axis)
            };
            (coord_to_f32(chassis.position().x), [wheel(0), wheel(1)])
        },
    )
}

#[test]
fn the_car_drives_over_the_bumps_as_in_box2d() {
    let (ours_at, ours_off) = car_ours();
    let (theirs_at, theirs_off) = car_box2d();
    let (ours_at, theirs_at) = (
        ours_at.expect("ours passed"),
        theirs_at.expect("Box2D's passed"),
    );
    assert!(
        ours_at.abs_diff(theirs_at) <= 2,
        "past the bumps at step {ours_at}, Box2D at {theirs_at}"
    );
    assert!(
        (ours_off - theirs_off).abs() <= 0.1 * theirs_off,
        "a wheel {ours_off} m off its line at most, Box2D {theirs_off} m"
    );
}
