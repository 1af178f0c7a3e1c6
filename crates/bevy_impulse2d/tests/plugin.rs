//! The plugin under `MinimalPlugins` (no window), stepped by running `FixedUpdate` by
//! hand: each run is one physics step of the fixed timestep.

mod common;

use bevy::ecs::system::SystemState;
use bevy::prelude::*;
use bevy_impulse2d::impulse2d as i2;
use bevy_impulse2d::prelude::*;
use common::*;

#[test]
fn a_body_falls_to_the_same_bits_as_in_a_world_alone() {
    let (mut app, ball) = over_ground(Collider::rectangle(1.0, 1.0), 0.3, 4.0);
    step(&mut app, 150);

    // The same scene on the engine alone.
    let mut world = i2::World::new(&i2::WorldDef::default()).unwrap();
    use i2::BodyType::{Dynamic, Static};
    plain_body(&mut world, Static, 0.0, -0.5, box_shape(20.0, 0.5));
    let body = plain_body(&mut world, Dynamic, 0.3, 4.0, box_shape(0.5, 0.5));
    for _ in 0..150 {
        world.step(1.0 / HZ, 4).unwrap();
    }

    let expected = world.body(body).unwrap().transform();
    let got = physics(&app).body(body_of(&app, ball)).unwrap().transform();
    assert_eq!(got.p.x.to_bits(), expected.p.x.to_bits());
    assert_eq!(got.p.y.to_bits(), expected.p.y.to_bits());
    assert_eq!(got.q.c.to_bits(), expected.q.c.to_bits());
    assert_eq!(got.q.s.to_bits(), expected.q.s.to_bits());
    assert_eq!(physics(&app).state_hash(), world.state_hash());
    // It landed: resting on the ground's top (y = 0) with its centre 0.5 m above it,
    // and the entity's Transform shows the body's position to the bit.
    assert!((expected.p.y - 0.5).abs() < 0.01);
    let t = app.world().get::<Transform>(ball).unwrap();
    assert_eq!(t.translation.x.to_bits(), expected.p.x.to_bits());
    assert_eq!(t.translation.y.to_bits(), expected.p.y.to_bits());
}

#[test]
fn despawning_destroys_the_body_and_its_joints() {
    let mut app = app();
    let anchor = fixed(&mut app, (), 0.0, 5.0);
    let bob = dynamic(&mut app, Collider::circle(0.25), 2.0, 5.0);
    let hinge = joint(
        &mut app,
        anchor,
        bob,
        JointDef::Revolute(i2::RevoluteJointDef {
            base: i2::JointDef {
                local_anchor_b: i2::Vec2::new(-2.0, 0.0),
                ..Default::default()
            },
            ..Default::default()
        }),
    );
    step(&mut app, 10);
    let body = body_of(&app, bob);
    let joint = joint_of(&app, hinge);
    assert_eq!(physics(&app).counters().body_count, 2);
    assert!(physics(&app).joint(joint).is_ok());
    // The pendulum swings about the anchor: its distance stays 2 m.
    let p = physics(&app).body(body).unwrap().position();
    assert!(((p - i2::Vec2::new(0.0, 5.0)).length() - 2.0).abs() < 0.01);

    app.world_mut().despawn(bob);
    step(&mut app, 1);
    assert!(physics(&app).body(body).is_err());
    assert!(physics(&app).joint(joint).is_err());
    assert_eq!(physics(&app).counters().body_count, 1);
    assert_eq!(physics(&app).counters().shape_count, 0);
    // The joint's entity stays, without a handle.
    assert!(app.world().get::<JointHandle>(hinge).is_none());

    // A collider despawned alone leaves its body.
    let collider = spawn(&mut app, (Collider::circle(0.5), ChildOf(anchor)));
    step(&mut app, 1);
    assert_eq!(physics(&app).counters().shape_count, 1);
    app.world_mut().despawn(collider);
    step(&mut app, 1);
    assert_eq!(physics(&app).counters().shape_count, 0);
    assert_eq!(physics(&app).counters().body_count, 1);
}

#[test]
fn events_arrive_as_messages() {
    let mut app = app();
    let (ground, gate, ball) = gate_scene(&mut app, 3.0, 6.0, HitEvents);
    step(&mut app, 120);
    let pair = |a: Entity, b: Entity| (a == ball && b == ground) || (a == ground && b == ball);
    let started = seen::<CollisionStarted>(&app);
    assert_eq!(
        started
            .iter()
            .filter(|m| pair(m.collider_a, m.collider_b))
            .count(),
        1
    );
    assert_eq!(
        seen::<SensorEntered>(&app),
        [SensorEntered {
            sensor: gate,
            visitor: ball
        }]
    );
    // Falling 5.75 m − 0.25 m onto the ground: about √(2 g h) = 10.5 m/s at the hit.
    let hit = seen::<ContactHit>(&app)
        .iter()
        .find(|h| pair(h.collider_a, h.collider_b))
        .expect("a hit");
    assert!(
        (hit.approach_speed - (2.0f32 * 10.0 * 5.5).sqrt()).abs() < 0.5,
        "{}",
        hit.approach_speed
    );
}

#[test]
fn changing_a_component_changes_the_body() {
    let mut app = app();
    let e = dynamic(&mut app, Collider::rectangle(1.0, 1.0), 0.0, 10.0);
    step(&mut app, 1);
    let id = body_of(&app, e);

    // No gravity: the velocity stays what it was set to.
    app.world_mut().entity_mut(e).insert(GravityScale(0.0));
    app.world_mut().get_mut::<Velocity>(e).unwrap().linear = Vec2::new(2.0, 0.0);
    step(&mut app, 32);
    let b = physics(&app).body(id).unwrap();
    assert_eq!(b.gravity_scale(), 0.0);
    assert_eq!(b.linear_velocity(), i2::Vec2::new(2.0, 0.0));
    // The Velocity component follows the body.
    assert_eq!(
        app.world().get::<Velocity>(e).unwrap().linear,
        Vec2::new(2.0, 0.0)
    );

    // Moving the Transform moves the body.
    *app.world_mut().get_mut::<Transform>(e).unwrap() = Transform::from_xyz(-3.0, 1.0, 0.0);
    step(&mut app, 1);
    let p = physics(&app).body(id).unwrap().position();
    assert!(
        (p.x - (-3.0 + 2.0 / 64.0)).abs() < 1e-5 && (p.y - 1.0).abs() < 1e-6,
        "{p:?}"
    );

    // Material and body type.
    app.world_mut().entity_mut(e).insert(Material {
        friction: 0.1,
        ..default()
    });
    *app.world_mut().get_mut::<RigidBody>(e).unwrap() = RigidBody::Static;
    step(&mut app, 1);
    let b = physics(&app).body(id).unwrap();
    assert_eq!(b.body_type(), i2::BodyType::Static);
    let shape = b.shapes()[0];
    assert_eq!(physics(&app).shape(shape).unwrap().friction(), 0.1);

    // An impulse of 3 N·s on the 1 kg box (static again: dynamic first).
    *app.world_mut().get_mut::<RigidBody>(e).unwrap() = RigidBody::Dynamic;
    app.world_mut().entity_mut(e).insert(ExternalImpulse {
        impulse: Vec2::new(0.0, 3.0),
        angular: 0.0,
    });
    step(&mut app, 1);
    let vy = physics(&app).body(id).unwrap().linear_velocity().y;
    assert!((vy - 3.0).abs() < 1e-5, "{vy}");
    assert_eq!(
        *app.world().get::<ExternalImpulse>(e).unwrap(),
        ExternalImpulse::default()
    );
}

#[test]
fn queries_find_entities() {
    let mut app = app();
    let wall = fixed(&mut app, Collider::rectangle(1.0, 4.0), 5.0, 0.0);
    step(&mut app, 1);
    let mut state = SystemState::<PhysicsQuery>::new(app.world_mut());
    let query = state.get(app.world()).unwrap();
    let hit = query
        .cast_ray(Vec2::ZERO, Vec2::X, 20.0, i2::QueryFilter::default())
        .unwrap();
    assert_eq!(hit.entity, wall);
    assert!((hit.distance - 4.5).abs() < 1e-5 && hit.normal == Vec2::new(-1.0, 0.0));
    let found = query.overlap_aabb(
        Vec2::new(4.0, -1.0),
        Vec2::new(6.0, 1.0),
        i2::QueryFilter::default(),
    );
    assert_eq!(found, vec![wall]);
    let shape_hit = query
        .cast_shape(
            &Collider::circle(0.5),
            Vec2::ZERO,
            0.0,
            Vec2::X,
            20.0,
            i2::QueryFilter::default(),
        )
        .unwrap();
    assert_eq!(shape_hit.entity, wall);
    assert!(
        (shape_hit.distance - 4.0).abs() < 0.01,
        "{}",
        shape_hit.distance
    );
}
