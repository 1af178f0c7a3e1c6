//! Colliders on children and grandchildren, changing colliders, joints of every type as
//! components, events as messages, dragging with [`PointerDrag`], bodies in a hierarchy,
//! moves of entities without a body, `Transform` scale, sleeping bodies left alone by
//! the write-back and (feature `debug-draw`) debug drawing into gizmos: all headless
//! (`MinimalPlugins`), stepped by running `FixedUpdate` by hand at 64 Hz, so h = 1/256 s
//! per substep (the app and the spawning helpers are in `common`).

mod common;

use std::f32::consts::{FRAC_PI_2, FRAC_PI_4, PI};

use bevy::prelude::*;
use bevy_impulse2d::PhysicsPose;
use bevy_impulse2d::impulse2d as i2;
use bevy_impulse2d::prelude::*;
use common::*;

#[test]
fn colliders_on_children_and_grandchildren_are_placed_by_the_hierarchy() {
    let mut app = app();
    // A body without gravity, a circle on a child at (2, 0) turned 90°, and a 2 m × 1 m
    // box on the child's child at (0, 1) in the child's frame: (2, 0) + R(90°)(0, 1) =
    // (1, 0) in the body's frame, its long side turned to y.
    let body = dynamic(&mut app, GravityScale(0.0), 0.0, 10.0);
    let at = turned(2.0, 0.0, FRAC_PI_2);
    let child = spawn(&mut app, (Collider::circle(0.5), at, ChildOf(body)));
    let grandchild = child_at(&mut app, child, Collider::rectangle(2.0, 1.0), 0.0, 1.0);
    step(&mut app, 1);

    let id = body_of(&app, body);
    let w = physics(&app);
    let circle = w.shape(shape_of(&app, child)).unwrap();
    assert_eq!(circle.body(), id);
    let c = circle.circle().unwrap();
    assert!(close(c.center, i2::Vec2::new(2.0, 0.0), 1e-6), "{c:?}");
    let boxed = w.shape(shape_of(&app, grandchild)).unwrap();
    assert_eq!(boxed.body(), id);
    // In the body's frame: centred on (1, 0), 1 m wide in x and 2 m tall in y.
    let poly = boxed.polygon().unwrap();
    assert!(
        close(poly.centroid(), i2::Vec2::new(1.0, 0.0), 1e-6),
        "{poly:?}"
    );
    let (lo, hi) = extents(&poly);
    assert!(close(lo, i2::Vec2::new(0.5, -1.0), 1e-6), "{poly:?}");
    assert!(close(hi, i2::Vec2::new(1.5, 1.0), 1e-6), "{poly:?}");
    // Mass and centre of mass (density 1 kg/m²): π/4 kg at x = 2 and 2 kg at x = 1.
    let b = w.body(id).unwrap();
    let (m1, m2) = (PI * 0.25, 2.0);
    assert!((b.mass() - (m1 + m2)).abs() < 1e-4, "{}", b.mass());
    let cx = (m1 * 2.0 + m2 * 1.0) / (m1 + m2);
    assert!(close(
        b.local_center_of_mass(),
        i2::Vec2::new(cx, 0.0),
        1e-4
    ));

    // Despawning the grandchild takes its shape away and leaves the rest.
    app.world_mut().despawn(grandchild);
    step(&mut app, 1);
    let w = physics(&app);
    assert_eq!(w.body(id).unwrap().shapes().len(), 1);
    assert!((w.body(id).unwrap().mass() - m1).abs() < 1e-4);
}

#[test]
fn changing_a_collider_changes_its_shape() {
    let (mut app, ball) = over_ground(Collider::circle(0.5), 0.0, 0.5);
    step(&mut app, 64);
    let id = body_of(&app, ball);
    assert!((physics(&app).body(id).unwrap().position().y - 0.5).abs() < 0.01);

    // A bigger ball: twice the radius, four times the mass; it rests 1 m up.
    *app.world_mut().get_mut::<Collider>(ball).unwrap() = Collider::circle(1.0);
    step(&mut app, 128);
    let w = physics(&app);
    let b = w.body(id).unwrap();
    assert_eq!(b.shapes().len(), 1);
    assert_eq!(
        w.shape(b.shapes()[0]).unwrap().circle().unwrap().radius,
        1.0
    );
    assert!((b.mass() - PI).abs() < 1e-4, "{}", b.mass());
    assert!((b.position().y - 1.0).abs() < 0.01, "{:?}", b.position());

    // A 2 m × 0.5 m box: 1 kg, resting 0.25 m up (on its long side).
    *app.world_mut().get_mut::<Collider>(ball).unwrap() = Collider::rectangle(2.0, 0.5);
    step(&mut app, 128);
    let b = physics(&app).body(id).unwrap();
    assert_eq!(b.shapes().len(), 1);
    assert!((b.mass() - 1.0).abs() < 1e-5, "{}", b.mass());
    assert!((b.position().y - 0.25).abs() < 0.01, "{:?}", b.position());

    // A sensor: it touches nothing, so the body falls through the ground.
    app.world_mut().entity_mut(ball).insert(Sensor);
    step(&mut app, 32);
    let w = physics(&app);
    let b = w.body(id).unwrap();
    assert!(w.shape(b.shapes()[0]).unwrap().is_sensor());
    assert!(b.position().y < -1.0, "{:?}", b.position());
    app.world_mut().entity_mut(ball).remove::<Sensor>();
    app.world_mut().entity_mut(ball).insert(HitEvents);
    step(&mut app, 1);
    let w = physics(&app);
    let s = w.shape(w.body(id).unwrap().shapes()[0]).unwrap();
    assert!(!s.is_sensor() && s.hit_events_enabled());
}

#[test]
fn a_collider_becomes_a_chain_and_back_and_moving_a_child_moves_its_shape() {
    let mut app = app();
    let wall = fixed(&mut app, Collider::rectangle(1.0, 1.0), 0.0, 0.0);
    step(&mut app, 1);
    // A closed chain of four points: four segments.
    let square = vec![
        Vec2::new(-1.0, -1.0),
        Vec2::new(1.0, -1.0),
        Vec2::new(1.0, 1.0),
        Vec2::new(-1.0, 1.0),
    ];
    *app.world_mut().get_mut::<Collider>(wall).unwrap() = Collider::Chain {
        points: square,
        closed: true,
    };
    step(&mut app, 1);
    let handle = *app.world().get::<ColliderHandle>(wall).unwrap();
    let ColliderHandle::Chain(chain) = handle else {
        panic!("{handle:?}")
    };
    let w = physics(&app);
    assert_eq!(w.chain(chain).unwrap().segments().len(), 4);
    assert_eq!(w.counters().shape_count, 4);
    *app.world_mut().get_mut::<Collider>(wall).unwrap() = Collider::circle(0.25);
    step(&mut app, 1);
    let w = physics(&app);
    assert!(w.chain(chain).is_err());
    assert_eq!(w.counters().shape_count, 1);
    assert_eq!(circle_of(&app, wall).radius, 0.25);

    // A collider on a child, moved by its Transform.
    let child = child_at(&mut app, wall, Collider::circle(0.5), 1.0, 0.0);
    step(&mut app, 1);
    move_x(&mut app, child, 3.0);
    step(&mut app, 1);
    let c = circle_of(&app, child);
    assert!(close(c.center, i2::Vec2::new(3.0, 0.0), 1e-6), "{c:?}");
}

/// A static anchor at (0, 5) and a 1 kg box, with a joint of `def` between them.
fn joint_pair(app: &mut App, b_at: Vec2, def: JointDef) -> (Entity, Entity, Entity) {
    let a = fixed(app, (), 0.0, 5.0);
    let b = dynamic(app, Collider::rectangle(1.0, 1.0), b_at.x, b_at.y);
    let j = joint(app, a, b, def);
    (a, b, j)
}

fn anchors(a: Vec2, b: Vec2) -> i2::JointDef {
    i2::JointDef {
        local_anchor_a: i2::Vec2::new(a.x, a.y),
        local_anchor_b: i2::Vec2::new(b.x, b.y),
        ..Default::default()
    }
}

/// A row of [`every_joint_type_works_as_a_component`]: a joint of `def` (of type
/// `kind`) from the anchor at (0, 5) to the box starting at `b_at`, run for `steps`,
/// after which the box's position must pass `holds`.
struct Case {
    kind: i2::JointType,
    def: JointDef,
    holds: fn(i2::Vec2) -> bool,
    b_at: Vec2,
    steps: usize,
}

/// The box starting at (1, 5), run for 1 s.
fn case(kind: i2::JointType, def: JointDef, holds: fn(i2::Vec2) -> bool) -> Case {
    let (b_at, steps) = (Vec2::new(1.0, 5.0), 64);
    Case {
        kind,
        def,
        holds,
        b_at,
        steps,
    }
}

impl Case {
    fn from(self, x: f32, y: f32) -> Case {
        let b_at = Vec2::new(x, y);
        Case { b_at, ..self }
    }
    fn for_steps(self, steps: usize) -> Case {
        Case { steps, ..self }
    }
}

/// The box's centre stays 1 m from the anchor.
fn swings_1m_from_the_anchor(p: i2::Vec2) -> bool {
    ((p - i2::Vec2::new(0.0, 5.0)).length() - 1.0).abs() < 0.01
}

/// Held at (x, y) by a spring of `hz` against gravity: at x, and y − g/ω² (ω = 2π·hz)
/// within half that sag.
fn hangs_below(p: i2::Vec2, x: f32, y: f32, hz: f32) -> bool {
    let sag = G / (2.0 * PI * hz).powi(2);
    (p.x - x).abs() < 1e-4 && (p.y - (y - sag)).abs() < 0.5 * sag
}

#[test]
fn every_joint_type_works_as_a_component() {
    use i2::JointType as T;
    let cases = vec![
        // 1 m rod from A's centre to B's: B stays 1 m away while it swings.
        case(
            T::Distance,
            JointDef::Distance(i2::DistanceJointDef {
                base: anchors(Vec2::ZERO, Vec2::ZERO),
                length: 1.0,
                ..default()
            }),
            swings_1m_from_the_anchor,
        ),
        // Hinge at A's centre, B's centre 1 m away: the same circle.
        case(
            T::Revolute,
            JointDef::Revolute(i2::RevoluteJointDef {
                base: anchors(Vec2::ZERO, Vec2::new(-1.0, 0.0)),
                ..default()
            }),
            swings_1m_from_the_anchor,
        ),
        // Slider along A's x axis through B's start: B stays on y = 5.
        case(
            T::Prismatic,
            JointDef::Prismatic(i2::PrismaticJointDef {
                base: anchors(Vec2::new(1.0, 0.0), Vec2::ZERO),
                ..default()
            }),
            |p| (p.y - 5.0).abs() < 0.01,
        ),
        // Wheel on A's y axis at x = 1: B bounces on its spring but stays on x = 1.
        case(
            T::Wheel,
            JointDef::Wheel(i2::WheelJointDef {
                base: anchors(Vec2::new(1.0, 0.0), Vec2::ZERO),
                ..default()
            }),
            |p| (p.x - 1.0).abs() < 0.01 && p.y < 5.0,
        ),
        // Welded 1 m to the right: it stays there.
        case(
            T::Weld,
            JointDef::Weld(i2::WeldJointDef {
                base: anchors(Vec2::new(1.0, 0.0), Vec2::ZERO),
                ..default()
            }),
            |p| close(p, i2::Vec2::new(1.0, 5.0), 0.02),
        ),
        // Motor joint holding B 2 m to the right of A against gravity.
        case(
            T::Motor,
            JointDef::Motor(i2::MotorJointDef {
                linear_offset: i2::Vec2::new(2.0, 0.0),
                max_force: 1000.0,
                max_torque: 1000.0,
                ..default()
            }),
            |p| close(p, i2::Vec2::new(2.0, 5.0), 0.05),
        )
        .for_steps(128),
        // Mouse joint holding B by its centre (the target at creation) at 4 Hz: it
        // hangs g/ω² = 10/(8π)² ≈ 1.6 cm below.
        case(
            T::Mouse,
            JointDef::Mouse(i2::MouseJointDef {
                target: i2::Vec2::new(1.0, 5.0),
                ..default()
            }),
            |p| hangs_below(p, 1.0, 5.0, 4.0),
        )
        .for_steps(128),
        // Mover driving B at 1 m/s along x (and 0 along y, against gravity): after 1 s
        // it is about 1 m further right, at the same height.
        case(
            T::Mover,
            JointDef::Mover(i2::MoverJointDef {
                linear_velocity: i2::Vec2::new(1.0, 0.0),
                max_velocity_force: i2::Vec2::new(100.0, 100.0),
                ..default()
            }),
            |p| (p.x - 2.0).abs() < 0.02 && (p.y - 5.0).abs() < 0.01,
        ),
        // Pogo leg of rest length 1.5 m straight up from A (5 Hz): B rides at
        // 5 + 1.5 − g/(10π)² ≈ 6.49.
        case(
            T::Pogo,
            JointDef::Pogo(i2::PogoJointDef {
                base: anchors(Vec2::ZERO, Vec2::ZERO),
                rest_length: 1.5,
                ..default()
            }),
            |p| hangs_below(p, 0.0, 6.5, 5.0),
        )
        .from(0.0, 6.5)
        .for_steps(128),
        // Filter joint: B starts inside A's box and falls through it, freely: after
        // n substeps of h, y = 5 − g·h²·n(n+1)/2 (symplectic Euler).
        case(
            T::Filter,
            JointDef::Filter(i2::FilterJointDef::default()),
            |p| {
                let (h, n) = (1.0 / 256.0f32, 256.0f32);
                let y = 5.0 - 10.0 * h * h * n * (n + 1.0) / 2.0;
                p.x.abs() < 1e-4 && (p.y - y).abs() < 1e-3
            },
        )
        .from(0.0, 5.0),
    ];
    for case in cases {
        let kind = case.kind;
        let mut app = app();
        let filter = kind == T::Filter;
        let (a, b, j) = joint_pair(&mut app, case.b_at, case.def);
        if filter {
            // Give A a box too, where B is: without the joint they would collide.
            app.world_mut()
                .entity_mut(a)
                .insert(Collider::rectangle(2.0, 2.0));
        }
        step(&mut app, case.steps);
        let joint = app
            .world()
            .get::<JointHandle>(j)
            .unwrap_or_else(|| panic!("{kind:?}: no joint"))
            .0;
        let w = physics(&app);
        let view = w.joint(joint).unwrap();
        assert_eq!(view.joint_type(), kind);
        assert_eq!(view.body_a(), body_of(&app, a), "{kind:?}");
        assert_eq!(view.body_b(), body_of(&app, b), "{kind:?}");
        assert_eq!(view.user_data(), j.to_bits(), "{kind:?}");
        let p = w.body(body_of(&app, b)).unwrap().position();
        assert!((case.holds)(p), "{kind:?}: B at {p:?}");
        if filter {
            assert!(w.body(body_of(&app, b)).unwrap().contacts().is_empty());
        }

        // Removing the component destroys the joint; the entity stays.
        app.world_mut().entity_mut(j).remove::<Joint>();
        step(&mut app, 1);
        assert!(physics(&app).joint(joint).is_err(), "{kind:?}");
        assert!(app.world().get::<JointHandle>(j).is_none(), "{kind:?}");
    }
}

#[test]
fn end_exit_and_joint_events_arrive_as_messages() {
    let mut app = app();
    // A 0.5 m gate 2 m up: a ball dropped from 4 m passes through it, entering and
    // then leaving it, and lands on the ground.
    let (floor, gate, ball) = gate_scene(&mut app, 2.0, 4.0, ());
    step(&mut app, 96);
    let (sensor, visitor) = (gate, ball);
    assert_eq!(
        seen::<SensorEntered>(&app),
        [SensorEntered { sensor, visitor }]
    );
    assert_eq!(
        seen::<SensorExited>(&app),
        [SensorExited { sensor, visitor }]
    );
    assert_eq!(seen::<CollisionStarted>(&app).len(), 1);
    assert!(seen::<CollisionEnded>(&app).is_empty());
    // Despawning the resting ball ends its contact with the floor: the message still
    // names its entity.
    app.world_mut().despawn(ball);
    step(&mut app, 1);
    let ended = seen::<CollisionEnded>(&app);
    let pair = (ended[0].collider_a, ended[0].collider_b);
    assert_eq!(ended.len(), 1);
    assert!(pair == (ball, floor) || pair == (floor, ball), "{pair:?}");

    // A weld that breaks above 5 N, holding a 1 kg box by its centre 1 m out: its first
    // step needs m·g = 10 N, so it breaks, once (the plugin does not make it again).
    let (_, _, weld) = joint_pair(
        &mut app,
        Vec2::new(1.0, 5.0),
        JointDef::Weld(i2::WeldJointDef {
            base: i2::JointDef {
                local_anchor_a: i2::Vec2::new(1.0, 0.0),
                force_threshold: 5.0,
                break_on_threshold: true,
                ..default()
            },
            ..default()
        }),
    );
    // And a revolute joint whose body is despawned.
    let (_, bob, hinge) = joint_pair(
        &mut app,
        Vec2::new(-3.0, 5.0),
        JointDef::Revolute(i2::RevoluteJointDef {
            base: anchors(Vec2::new(-3.0, 0.0), Vec2::ZERO),
            ..default()
        }),
    );
    step(&mut app, 2);
    app.world_mut().despawn(bob);
    step(&mut app, 1);
    let joints = seen::<JointEvent>(&app);
    let broken: Vec<_> = joints.iter().filter(|e| e.joint == weld).collect();
    assert_eq!(broken.len(), 1, "{broken:?}");
    assert_eq!(broken[0].kind, i2::JointEventKind::Broken);
    assert!((broken[0].force - G).abs() < 0.1 * G, "{:?}", broken[0]);
    assert!(app.world().get::<JointHandle>(weld).is_none());
    assert!(app.world().get::<JointBroken>(weld).is_some());
    let gone: Vec<_> = joints.iter().filter(|e| e.joint == hinge).collect();
    assert_eq!(gone.len(), 1, "{gone:?}");
    assert_eq!(gone[0].kind, i2::JointEventKind::BodyDestroyed);
}

#[test]
fn pointer_drag_grabs_pulls_and_lets_go() {
    let (mut app, crate_) = over_ground(Collider::rectangle(1.0, 1.0), 0.0, 0.5);
    // Turned 45° and weightless at (10, 5): its bounding box reaches 0.707 m out.
    let weightless = (Collider::rectangle(1.0, 1.0), GravityScale(0.0));
    let diamond = spawn(
        &mut app,
        (RigidBody::Dynamic, weightless, turned(10.0, 5.0, FRAC_PI_4)),
    );
    step(&mut app, 32);
    app.init_resource::<PointerDrag>();
    let world = app.world_mut();
    world.resource_scope(|world, mut drag: Mut<PointerDrag>| {
        let mut physics = world.resource_mut::<PhysicsWorld>();
        // Nothing there; the static ground; a point in the diamond's bounding box but
        // outside it (|x'| + ... : 1.2/√2 = 0.85 m from its centre line > 0.5 m).
        assert_eq!(drag.press(&mut physics, Vec2::new(5.0, 5.0)), None);
        assert_eq!(drag.press(&mut physics, Vec2::new(0.0, -0.5)), None);
        assert_eq!(drag.press(&mut physics, Vec2::new(10.6, 5.6)), None);
        assert_eq!(drag.press(&mut physics, Vec2::NAN), None);
        assert_eq!(
            drag.press(&mut physics, Vec2::new(10.3, 5.0)),
            Some(diamond)
        );
        // Grab the crate 0.25 m above its centre.
        assert_eq!(drag.press(&mut physics, Vec2::new(0.0, 0.75)), Some(crate_));
    });
    // Only one drag at a time: the diamond's joint went when the crate was grabbed.
    assert_eq!(physics(&app).joint_count(), 1);
    // Lift it as a pointer would, at 1.6 m/s up to (0, 4), and hold it there.
    for k in 1..=128 {
        app.world_mut()
            .resource_scope(|world, mut drag: Mut<PointerDrag>| {
                let target = Vec2::new(0.0, 0.75 + 3.25 * k as f32 / 128.0);
                drag.move_to(&mut world.resource_mut::<PhysicsWorld>(), target);
            });
        step(&mut app, 1);
    }
    step(&mut app, 128);
    let id = body_of(&app, crate_);
    let b = physics(&app).body(id).unwrap();
    // The grabbed point hangs g/ω² = 10/(10π)² ≈ 1 cm below the target, the crate's
    // centre 0.25 m below the grabbed point.
    let grabbed = b.world_point(i2::Vec2::new(0.0, 0.25));
    let sag = G / (2.0 * PI * 5.0).powi(2);
    assert!(grabbed.x.abs() < 0.01, "{grabbed:?}");
    assert!((grabbed.y - (4.0 - sag)).abs() < 0.5 * sag, "{grabbed:?}");
    let hang = grabbed - b.position();
    assert!(hang.x.abs() < 0.01, "{hang:?}");
    assert!((hang.y - 0.25).abs() < 0.01, "{hang:?}");
    assert_eq!(
        app.world()
            .resource::<PointerDrag>()
            .dragged(app.world().resource::<PhysicsWorld>()),
        Some(id)
    );

    // Let go: the joint goes and the crate falls back to the ground (resting on a side,
    // its centre 0.5 m up).
    app.world_mut()
        .resource_scope(|world, mut drag: Mut<PointerDrag>| {
            drag.release(&mut world.resource_mut::<PhysicsWorld>());
        });
    assert_eq!(physics(&app).joint_count(), 0);
    step(&mut app, 192);
    let y = physics(&app).body(id).unwrap().position().y;
    assert!((y - 0.5).abs() < 0.01, "{y}");

    // Despawning what is dragged ends the drag; moving then does nothing.
    app.world_mut()
        .resource_scope(|world, mut drag: Mut<PointerDrag>| {
            let mut physics = world.resource_mut::<PhysicsWorld>();
            assert_eq!(drag.press(&mut physics, Vec2::new(0.0, 0.5)), Some(crate_));
        });
    app.world_mut().despawn(crate_);
    step(&mut app, 1);
    app.world_mut()
        .resource_scope(|world, mut drag: Mut<PointerDrag>| {
            let mut physics = world.resource_mut::<PhysicsWorld>();
            drag.move_to(&mut physics, Vec2::new(1.0, 1.0));
            assert_eq!(drag.dragged(&physics), None);
        });
    // The drag's anchor is a body with no entity.
    assert!(physics(&app).counters().body_count >= 2);
}

#[cfg(feature = "debug-draw")]
mod debug_draw {
    use super::*;
    use bevy::gizmos::config::DefaultGizmoConfigGroup;
    use bevy::gizmos::gizmos::GizmoBuffer;
    use bevy_impulse2d::draw_world;
    use i2::debug_draw::DrawOptions;

    #[test]
    fn shapes_are_drawn_into_gizmos() {
        let mut world = i2::World::new(&i2::WorldDef::default()).unwrap();
        let circle = i2::collision::Circle::new(i2::Vec2::ZERO, 0.5).unwrap();
        let fixed = i2::BodyType::Static;
        plain_body(
            &mut world,
            fixed,
            2.0,
            3.0,
            i2::ShapeGeometry::Circle(circle),
        );
        plain_body(&mut world, fixed, -2.0, 1.0, box_shape(0.5, 0.5));

        let mut gizmos = GizmoBuffer::<DefaultGizmoConfigGroup, ()>::new();
        draw_world(&mut gizmos, &world, &DrawOptions::default());
        let view = gizmos.buffer();
        let points: Vec<Vec2> = view
            .strip_positions
            .iter()
            .chain(view.list_positions.iter())
            .filter(|p| p.is_finite())
            .map(|p| p.truncate())
            .collect();
        let centre = Vec2::new(2.0, 3.0);
        let on_circle = |p: &Vec2| ((*p - centre).length() - 0.5).abs() < 1e-4;
        let corners = [
            Vec2::new(-2.5, 0.5),
            Vec2::new(-1.5, 0.5),
            Vec2::new(-1.5, 1.5),
            Vec2::new(-2.5, 1.5),
        ];
        let is_corner = |p: &Vec2| corners.iter().any(|c| (*p - *c).length() < 1e-5);
        // Every point is on the circle, at its centre (the spoke), or a box corner.
        for p in &points {
            assert!(
                on_circle(p) || (*p - centre).length() < 1e-5 || is_corner(p),
                "{p:?}"
            );
        }
        // All four corners are drawn; the circle goes all the way round.
        for c in corners {
            assert!(points.iter().any(|p| (*p - c).length() < 1e-5), "{c:?}");
        }
        for (dx, dy) in [(1.0, 0.0), (0.0, 1.0), (-1.0, 0.0), (0.0, -1.0)] {
            let near = points
                .iter()
                .filter(|p| on_circle(p))
                .any(|p| (*p - centre).normalize().dot(Vec2::new(dx, dy)) > 0.9);
            assert!(near, "{dx} {dy}");
        }

        // Shapes off: nothing drawn.
        let mut none = GizmoBuffer::<DefaultGizmoConfigGroup, ()>::new();
        let off = DrawOptions {
            draw_shapes: false,
            draw_joints: false,
            ..DrawOptions::default()
        };
        draw_world(&mut none, &world, &off);
        assert!(none.buffer().strip_positions.is_empty());
        assert!(none.buffer().list_positions.is_empty());
    }

    #[test]
    fn the_debug_plugin_runs_headless() {
        use bevy::gizmos::AppGizmoBuilder;
        let mut app = app_with(|app| {
            app.init_gizmo_group::<DefaultGizmoConfigGroup>()
                .add_plugins(Impulse2dDebugPlugin);
        });
        ground(&mut app);
        step(&mut app, 1);
        app.world_mut().run_schedule(PostUpdate);
        assert!(app.world().contains_resource::<DebugDrawOptions>());
    }
}

// ---- Hierarchy, scale and what the step writes back ----

fn pose_of(app: &App, e: Entity) -> i2::Transform {
    physics(app).body(body_of(app, e)).unwrap().transform()
}

fn local_xy(app: &App, e: Entity) -> i2::Vec2 {
    let t = app.world().get::<Transform>(e).unwrap();
    i2::Vec2::new(t.translation.x, t.translation.y)
}

fn local_angle(app: &App, e: Entity) -> f32 {
    let q = app.world().get::<Transform>(e).unwrap().rotation;
    2.0 * q.z.atan2(q.w)
}

#[test]
fn a_child_body_is_placed_in_the_world_and_written_back_in_its_parents_frame() {
    let mut app = app();
    // A parent without a body at (10, 0) turned 90°, and a child body at (2, 0) in its
    // frame: in the world (10, 0) + R(90°)(2, 0) = (10, 2), turned 90°. No gravity, and
    // 1 m/s along world x.
    let parent = spawn(&mut app, turned(10.0, 0.0, FRAC_PI_2));
    let velocity = Velocity {
        linear: Vec2::new(1.0, 0.0),
        angular: 0.0,
    };
    let parts = (Collider::circle(0.25), GravityScale(0.0), velocity);
    let child = child_at(&mut app, parent, (RigidBody::Dynamic, parts), 2.0, 0.0);
    step(&mut app, 1);
    let p = pose_of(&app, child);
    let moved = 1.0 / HZ;
    assert!(close(p.p, i2::Vec2::new(10.0 + moved, 2.0), 1e-5), "{p:?}");
    assert!((p.q.angle() - FRAC_PI_2).abs() < 1e-6, "{p:?}");
    // Written back in the parent's frame: R(−90°)((10 + d, 2) − (10, 0)) = (2, −d),
    // not turned relative to the parent.
    step(&mut app, 63);
    let d = 1.0;
    assert!(close(
        pose_of(&app, child).p,
        i2::Vec2::new(11.0, 2.0),
        1e-4
    ));
    assert!(
        close(local_xy(&app, child), i2::Vec2::new(2.0, -d), 1e-4),
        "{:?}",
        local_xy(&app, child)
    );
    assert!(local_angle(&app, child).abs() < 1e-5);

    // A child body under a body: both fall alike, so the child stays at (1, 0) in the
    // parent's frame while both drop g·t²/2-ish (the same for both) in the world.
    let mut app = self::app();
    let top = dynamic(&mut app, Collider::rectangle(1.0, 1.0), 0.0, 20.0);
    let ball = (RigidBody::Dynamic, Collider::circle(0.25));
    let under = child_at(&mut app, top, ball, 3.0, 0.0);
    step(&mut app, 1);
    assert!(close(
        pose_of(&app, under).p,
        pose_of(&app, top).p + i2::Vec2::new(3.0, 0.0),
        1e-5
    ));
    step(&mut app, 32);
    let (pt, pu) = (pose_of(&app, top).p, pose_of(&app, under).p);
    assert!(pt.y < 19.0, "{pt:?}");
    assert!(
        close(pu, pt + i2::Vec2::new(3.0, 0.0), 1e-4),
        "{pt:?} {pu:?}"
    );
    assert!(close(local_xy(&app, under), i2::Vec2::new(3.0, 0.0), 1e-4));
}

#[test]
fn moving_an_entity_without_a_body_moves_the_colliders_and_bodies_below_it() {
    let mut app = app();
    // Body at (0, 10) without gravity; under it a body-less entity at (1, 0); under that
    // a circle at (0, 1): at (1, 1) in the body's frame.
    let body = dynamic(&mut app, GravityScale(0.0), 0.0, 10.0);
    let middle = child_at(&mut app, body, (), 1.0, 0.0);
    let leaf = child_at(&mut app, middle, Collider::circle(0.5), 0.0, 1.0);
    step(&mut app, 1);
    let centre = |app: &App| circle_of(app, leaf).center;
    assert!(close(centre(&app), i2::Vec2::new(1.0, 1.0), 1e-6));
    // The middle entity to (3, 0), turned 90°: (3, 0) + R(90°)(0, 1) = (2, 0).
    *app.world_mut().get_mut::<Transform>(middle).unwrap() = turned(3.0, 0.0, FRAC_PI_2);
    step(&mut app, 1);
    assert!(
        close(centre(&app), i2::Vec2::new(2.0, 0.0), 1e-6),
        "{:?}",
        centre(&app)
    );
    let b = physics(&app).body(body_of(&app, body)).unwrap();
    assert!(close(
        b.local_center_of_mass(),
        i2::Vec2::new(2.0, 0.0),
        1e-5
    ));

    // A body-less root with a body under it at (1, 2): moving the root by (5, 0)
    // teleports the body to (6, 2), with nothing to interpolate across.
    let root = spawn(&mut app, Transform::default());
    let parts = (Collider::circle(0.25), GravityScale(0.0));
    let hung = child_at(&mut app, root, (RigidBody::Dynamic, parts), 1.0, 2.0);
    step(&mut app, 1);
    assert!(close(pose_of(&app, hung).p, i2::Vec2::new(1.0, 2.0), 1e-6));
    move_x(&mut app, root, 5.0);
    step(&mut app, 1);
    assert!(close(pose_of(&app, hung).p, i2::Vec2::new(6.0, 2.0), 1e-6));
    let pose = app.world().get::<PhysicsPose>(hung).unwrap();
    assert!(close(pose.previous.p, i2::Vec2::new(6.0, 2.0), 1e-6));
    assert!(close(local_xy(&app, hung), i2::Vec2::new(1.0, 2.0), 1e-6));
}

fn extents(poly: &i2::collision::Polygon) -> (i2::Vec2, i2::Vec2) {
    let v = poly.vertices();
    v.iter()
        .fold((v[0], v[0]), |(lo, hi), &p| (lo.min(p), hi.max(p)))
}

#[test]
fn transform_scale_scales_the_colliders() {
    let mut app = app();
    let colliders = [
        // A 1 m box scaled 2: 2 m × 2 m, 4 kg (density 1 kg/m²).
        (Collider::rectangle(1.0, 1.0), Vec3::splat(2.0)),
        // Scaled (2, 0.5): 2 m × 0.5 m, 1 kg.
        (Collider::rectangle(1.0, 1.0), Vec3::new(2.0, 0.5, 1.0)),
        // A circle of radius 0.5 scaled 2: radius 1, π kg.
        (Collider::circle(0.5), Vec3::splat(2.0)),
        // Scaled (4, 1): the ellipse with half axes 2 and 0.5 has area π; the circle of
        // that area has radius 0.5·√4 = 1.
        (Collider::circle(0.5), Vec3::new(4.0, 1.0, 1.0)),
        // A vertical capsule, ends (0, ±0.5), radius 0.25, scaled (1, 2): ends (0, ±1),
        // radius 0.25·√2.
        (Collider::capsule(1.0, 0.25), Vec3::new(1.0, 2.0, 1.0)),
    ];
    // Weightless, 10 m apart along y = 10.
    let mut x = -10.0;
    let [uniform, squashed, ball, ellipse, capsule] = colliders.map(|(collider, scale)| {
        x += 10.0;
        let at = Transform::from_xyz(x, 10.0, 0.0).with_scale(scale);
        spawn(
            &mut app,
            (RigidBody::Dynamic, GravityScale(0.0), collider, at),
        )
    });
    step(&mut app, 1);
    let w = physics(&app);
    let shape = |e: Entity| w.shape(shape_of(&app, e)).unwrap();
    let mass = |e: Entity| w.body(body_of(&app, e)).unwrap().mass();

    let (lo, hi) = extents(&shape(uniform).polygon().unwrap());
    assert!(close(lo, i2::Vec2::new(-1.0, -1.0), 1e-6) && close(hi, i2::Vec2::new(1.0, 1.0), 1e-6));
    assert!((mass(uniform) - 4.0).abs() < 1e-5, "{}", mass(uniform));
    let (lo, hi) = extents(&shape(squashed).polygon().unwrap());
    assert!(
        close(lo, i2::Vec2::new(-1.0, -0.25), 1e-6) && close(hi, i2::Vec2::new(1.0, 0.25), 1e-6)
    );
    assert!((mass(squashed) - 1.0).abs() < 1e-5);
    assert_eq!(shape(ball).circle().unwrap().radius, 1.0);
    assert!((mass(ball) - PI).abs() < 1e-5);
    assert_eq!(shape(ellipse).circle().unwrap().radius, 1.0);
    assert!((mass(ellipse) - PI).abs() < 1e-5);
    let c = shape(capsule).capsule().unwrap();
    assert!(close(c.center1, i2::Vec2::new(0.0, -1.0), 1e-6), "{c:?}");
    assert!(close(c.center2, i2::Vec2::new(0.0, 1.0), 1e-6), "{c:?}");
    assert!((c.radius - 0.25 * 2f32.sqrt()).abs() < 1e-6);

    // A child collider under the body scaled 2: a circle of radius 0.5 at (1, 0) in the
    // child's parent's frame is at (2, 0), radius 1, in the body's.
    let child = child_at(&mut app, uniform, Collider::circle(0.5), 1.0, 0.0);
    step(&mut app, 1);
    let c = circle_of(&app, child);
    assert!(
        close(c.center, i2::Vec2::new(2.0, 0.0), 1e-6) && c.radius == 1.0,
        "{c:?}"
    );

    // Changing the scale reshapes: the ball scaled 3, radius 1.5, mass 2.25 π.
    app.world_mut().get_mut::<Transform>(ball).unwrap().scale = Vec3::splat(3.0);
    step(&mut app, 1);
    let w = physics(&app);
    assert_eq!(circle_of(&app, ball).radius, 1.5);
    assert!((w.body(body_of(&app, ball)).unwrap().mass() - 2.25 * PI).abs() < 1e-4);

    // A 1 m box scaled (1, 2) falls on the ground and rests 1 m up (its half height).
    let mut app = self::app();
    ground(&mut app);
    let at = Transform::from_xyz(0.0, 3.0, 0.0).with_scale(Vec3::new(1.0, 2.0, 1.0));
    let tall = spawn(
        &mut app,
        (RigidBody::Dynamic, Collider::rectangle(1.0, 1.0), at),
    );
    step(&mut app, 128);
    assert!(
        (pose_of(&app, tall).p.y - 1.0).abs() < 0.01,
        "{:?}",
        pose_of(&app, tall)
    );
    // The scale is kept in the Transform written back.
    assert_eq!(
        app.world().get::<Transform>(tall).unwrap().scale,
        Vec3::new(1.0, 2.0, 1.0)
    );
}

#[test]
fn sleeping_bodies_are_not_written_and_wake_up() {
    let (mut app, boxed) = over_ground(Collider::rectangle(1.0, 1.0), 0.0, 0.5);
    // At rest from the start: asleep after Box2D's 0.5 s time to sleep (32 steps at
    // 64 Hz), well within 2 s.
    step(&mut app, 128);
    assert!(app.world().get::<Sleeping>(boxed).is_some());
    let ticks = |app: &App| {
        let e = app.world().entity(boxed);
        (
            e.get_ref::<Transform>().unwrap().last_changed(),
            e.get_ref::<PhysicsPose>().unwrap().last_changed(),
        )
    };
    let before = ticks(&app);
    step(&mut app, 64);
    assert_eq!(
        ticks(&app),
        before,
        "a sleeping body's entity is not written"
    );
    assert!((local_xy(&app, boxed).y - 0.5).abs() < 0.01);

    // An upward impulse of 3 N·s on the 1 kg box: 3 m/s, it wakes, rises
    // v²/(2g) = 0.45 m and comes back to rest.
    app.world_mut().entity_mut(boxed).insert(ExternalImpulse {
        impulse: Vec2::new(0.0, 3.0),
        angular: 0.0,
    });
    let mut top = 0.0f32;
    for _ in 0..64 {
        step(&mut app, 1);
        top = top.max(local_xy(&app, boxed).y);
    }
    assert!(app.world().get::<Sleeping>(boxed).is_none());
    assert_ne!(ticks(&app), before);
    assert!((top - 0.95).abs() < 0.02, "{top}");
    assert_eq!(
        app.world().get::<ExternalImpulse>(boxed).unwrap().impulse,
        Vec2::ZERO
    );

    // Moving a static body by its Transform sticks (the step does not write it back).
    let wall = fixed(&mut app, Collider::rectangle(1.0, 1.0), 5.0, 0.5);
    step(&mut app, 1);
    move_x(&mut app, wall, 7.0);
    step(&mut app, 2);
    assert_eq!(pose_of(&app, wall).p, i2::Vec2::new(7.0, 0.5));
    assert_eq!(local_xy(&app, wall), i2::Vec2::new(7.0, 0.5));
}
