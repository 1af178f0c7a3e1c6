//! Contact, hit and body move events read after the step.

use crate::build;

use impulse2d::collision::{Circle, make_box, make_offset_box};
use impulse2d::{
    BodyDef, BodyId, BodyType, ContactEndTouchEvent, DistanceJointDef, Filter, JointEventKind, Rot,
    ShapeDef, ShapeId, Vec2, World, WorldDef,
};

const DT: f32 = 1.0 / 60.0;

fn step(world: &mut World) {
    world.step(DT, 4).unwrap();
    if let Err(e) = world.validate() {
        panic!("invalid world after step {}: {e}", world.step_count());
    }
}

/// A static ground box whose top is at y = 0.
fn ground(world: &mut World, def: &ShapeDef) -> (BodyId, ShapeId) {
    let body = world.create_body(&BodyDef::default()).unwrap();
    let poly = make_offset_box(20.0, 1.0, Vec2::new(0.0, -1.0), Rot::IDENTITY).unwrap();
    let shape = world.create_polygon_shape(body, def, &poly).unwrap();
    (body, shape)
}

fn dynamic_box(world: &mut World, position: Vec2, def: &ShapeDef) -> (BodyId, ShapeId) {
    let body = world.create_body(&BodyDef::dynamic(position)).unwrap();
    let shape = world
        .create_polygon_shape(body, def, &make_box(0.5, 0.5).unwrap())
        .unwrap();
    (body, shape)
}

fn same_pair(a: (ShapeId, ShapeId), b: (ShapeId, ShapeId)) -> bool {
    a == b || a == (b.1, b.0)
}

/// Steps until the box has begun touching the ground; returns the begin
/// event's contact id.
fn land(world: &mut World, pair: (ShapeId, ShapeId)) -> impulse2d::ContactId {
    for _ in 0..120 {
        step(world);
        let events = world.contact_events();
        assert!(events.end.is_empty(), "an end event before landing");
        if let Some(e) = events.begin.first() {
            assert_eq!(events.begin.len(), 1);
            assert!(same_pair((e.shape_id_a, e.shape_id_b), pair));
            assert!(e.manifold.point_count > 0);
            return e.contact_id;
        }
    }
    panic!("the box never landed");
}

/// A box dropped from `height` m onto the ground until it touches: the world,
/// the box body, the ground's and the box's shapes, and their contact.
fn landed_box(height: f32) -> (World, BodyId, (ShapeId, ShapeId), impulse2d::ContactId) {
    let mut world = build::world();
    let (_, g) = ground(&mut world, &ShapeDef::default());
    let (body, b) = dynamic_box(&mut world, Vec2::new(0.0, height), &ShapeDef::default());
    let contact = land(&mut world, (g, b));
    (world, body, (g, b), contact)
}

#[test]
fn a_landing_box_begins_touching_once_and_ends_when_destroyed() {
    let (mut world, body, (g, b), contact) = landed_box(2.0);
    // Resting: no more begin or end events.
    for _ in 0..60 {
        step(&mut world);
        let e = world.contact_events();
        assert!(e.begin.is_empty() && e.end.is_empty());
    }
    // Destroying the body ends the contact; the event is published by the
    // next step, not lost, and not visible before it.
    world.destroy_body(body).unwrap();
    assert!(world.contact_events().end.is_empty());
    step(&mut world);
    let end = world.contact_events().end;
    assert_eq!(end.len(), 1);
    assert_eq!(end[0].contact_id, contact);
    assert!(same_pair((end[0].shape_id_a, end[0].shape_id_b), (g, b)));
    assert!(world.shape(b).is_err(), "the visitor id is stale now");
    // Published once only.
    step(&mut world);
    assert!(world.contact_events().end.is_empty());
}

/// Every way of removing a touching contact between steps reports its end
/// at the next step.
#[test]
fn disabling_refiltering_retyping_and_teleporting_end_contacts() {
    type Action = fn(&mut World, BodyId, ShapeId);
    let actions: [(&str, Action); 6] = [
        ("disable body", |w, b, _| w.body_mut(b).unwrap().disable()),
        ("destroy shape", |w, _, s| w.destroy_shape(s, true).unwrap()),
        ("refilter", |w, _, s| {
            let f = Filter {
                category_bits: 2,
                mask_bits: 2,
                group_index: 0,
            };
            w.shape_mut(s).unwrap().set_filter(f).unwrap()
        }),
        ("to static", |w, b, _| {
            w.body_mut(b)
                .unwrap()
                .set_body_type(BodyType::Static)
                .unwrap()
        }),
        ("to kinematic", |w, b, _| {
            w.body_mut(b)
                .unwrap()
                .set_body_type(BodyType::Kinematic)
                .unwrap()
        }),
        ("teleport", |w, b, _| {
            w.body_mut(b)
                .unwrap()
                .set_transform(Vec2::new(0.0, 50.0), Rot::IDENTITY)
                .unwrap()
        }),
    ];
    for (name, action) in actions {
        let (mut world, body, (_, b), contact) = landed_box(1.0);
        action(&mut world, body, b);
        step(&mut world);
        let end: Vec<ContactEndTouchEvent> = world.contact_events().end.to_vec();
        assert_eq!(end.len(), 1, "{name}: {end:?}");
        assert_eq!(end[0].contact_id, contact, "{name}");
        for _ in 0..30 {
            step(&mut world);
            let e = world.contact_events();
            assert!(e.end.is_empty(), "{name}: a second end event");
            assert!(e.begin.is_empty(), "{name}: touching again");
        }
    }
}

#[test]
fn a_refilter_that_still_allows_the_contact_keeps_it() {
    let (mut world, body, (_, b), contact) = landed_box(1.0);
    // Category 2 still collides with the ground's mask (all bits), and the
    // box's mask still contains the ground's category 1.
    let filter = Filter {
        category_bits: 2,
        mask_bits: 3,
        group_index: 0,
    };
    world.shape_mut(b).unwrap().set_filter(filter).unwrap();
    for _ in 0..30 {
        step(&mut world);
        let e = world.contact_events();
        assert!(e.begin.is_empty() && e.end.is_empty());
    }
    let contacts = world.body(body).unwrap().contacts();
    assert_eq!(contacts.len(), 1);
    assert_eq!(contacts[0].contact_id, contact);
    // The box still rests on the ground (top at 0, half-height 0.5).
    assert!((world.body(body).unwrap().position().y - 0.5).abs() < 0.02);
}

#[test]
fn shapes_without_contact_events_report_nothing() {
    let mut world = build::world();
    let quiet = ShapeDef {
        enable_contact_events: false,
        ..Default::default()
    };
    ground(&mut world, &quiet);
    let (body, _) = dynamic_box(&mut world, Vec2::new(0.0, 1.0), &quiet);
    for _ in 0..60 {
        step(&mut world);
        let e = world.contact_events();
        assert!(e.begin.is_empty() && e.end.is_empty());
    }
    assert_eq!(world.body(body).unwrap().contacts().len(), 1, "it did land");
    // Switching events on later affects new contacts only: destroying this
    // one still reports nothing, so no end comes without its begin.
    for s in world.body(body).unwrap().shapes() {
        world.shape_mut(s).unwrap().set_contact_events_enabled(true);
    }
    world.destroy_body(body).unwrap();
    step(&mut world);
    assert!(world.contact_events().end.is_empty());
}

/// A ball dropped from 5 m above the ground hits it at √(2·g·h) = 10 m/s.
#[test]
fn a_dropped_ball_reports_one_hit_at_its_impact_speed() {
    for (height, threshold, expect_hit) in [(5.0, 1.0, true), (5.0, 12.0, false)] {
        let mut world = World::new(&WorldDef {
            hit_event_threshold: threshold,
            ..Default::default()
        })
        .unwrap();
        let (_, g) = ground(&mut world, &ShapeDef::default());
        let radius = 0.25;
        let body = world
            .create_body(&BodyDef::dynamic(Vec2::new(1.0, height + radius)))
            .unwrap();
        let ball = world
            .create_circle_shape(
                body,
                &ShapeDef {
                    enable_hit_events: true,
                    ..Default::default()
                },
                &Circle {
                    center: Vec2::ZERO,
                    radius,
                },
            )
            .unwrap();
        let mut hits = Vec::new();
        for _ in 0..180 {
            step(&mut world);
            hits.extend_from_slice(world.contact_events().hit);
        }
        if !expect_hit {
            assert!(hits.is_empty(), "{hits:?}");
            continue;
        }
        assert_eq!(hits.len(), 1, "{hits:?}");
        let hit = hits[0];
        let expected = (2.0f32 * 10.0 * height).sqrt();
        assert!(
            (hit.approach_speed - expected).abs() < 0.03 * expected,
            "approach speed {} for {expected}",
            hit.approach_speed
        );
        assert!(same_pair((hit.shape_id_a, hit.shape_id_b), (g, ball)));
        // The point is where the ball meets the ground, below its centre.
        assert!(hit.point.y.abs() < 0.03 && (hit.point.x - 1.0).abs() < 1e-3);
        // The normal points from A to B: up if A is the ground.
        let up = if hit.shape_id_a == g { 1.0 } else { -1.0 };
        assert!((hit.normal.y - up).abs() < 1e-4, "{:?}", hit.normal);
    }
}

#[test]
fn awake_bodies_report_moves_until_they_fall_asleep() {
    let mut world = build::world();
    ground(&mut world, &ShapeDef::default());
    let body = world
        .create_body(&BodyDef {
            user_data: 77,
            ..build::def(BodyType::Dynamic, Vec2::new(0.0, 1.0))
        })
        .unwrap();
    build::add_box(&mut world, body, 0.5, 0.5);
    let mut fell_asleep_at = None;
    for i in 0..600 {
        step(&mut world);
        let moves = world.body_events();
        if fell_asleep_at.is_some() {
            assert!(moves.is_empty(), "a sleeping body reported a move");
            continue;
        }
        // Static bodies never move; the one awake body reports each step.
        assert_eq!(moves.len(), 1);
        let m = moves[0];
        assert_eq!(m.body_id, body);
        assert_eq!(m.user_data, 77);
        assert_eq!(m.transform, world.body(body).unwrap().transform());
        assert_eq!(m.fell_asleep, !world.body(body).unwrap().is_awake());
        if m.fell_asleep {
            fell_asleep_at = Some(i);
        }
    }
    // It rests after a few tenths of a second and sleeps 0.5 s later.
    let i = fell_asleep_at.expect("the box never slept");
    assert!((30..120).contains(&i), "slept at step {i}");
}

/// Every awake body reports its pose after the whole step, on any worker
/// count: bullets too, whose sweeps move them after the other bodies are done,
/// and fast bodies that are not bullets, swept against the static wall.
#[test]
fn move_events_carry_every_awake_body_s_final_pose() {
    for workers in [1, 2, 4] {
        let mut world = build::world_with_workers(workers);
        ground(&mut world, &ShapeDef::default());
        // A thin static wall at x = 6 m.
        let wall = world.create_body(&BodyDef::default()).unwrap();
        let slab = make_offset_box(0.05, 3.0, Vec2::new(6.0, 3.0), Rot::IDENTITY).unwrap();
        world
            .create_polygon_shape(wall, &ShapeDef::default(), &slab)
            .unwrap();
        // A stack of boxes, awake for a while.
        let mut awake_ever = Vec::new();
        for i in 0..20u64 {
            let position = Vec2::new(-4.0 + 0.3 * (i % 3) as f32, 0.5 + 1.05 * i as f32);
            let body = world
                .create_body(&BodyDef {
                    user_data: 1000 + i,
                    ..BodyDef::dynamic(position)
                })
                .unwrap();
            build::add_box(&mut world, body, 0.5, 0.5);
            awake_ever.push(body);
        }
        // Fired at the wall at 300 m/s (5 m a step): a bullet and a plain
        // fast body, both stopped by their sweeps.
        let mut shots = Vec::new();
        for (k, is_bullet) in [(0u64, true), (1, false)] {
            let body = world
                .create_body(&BodyDef {
                    user_data: 7 + k,
                    is_bullet,
                    linear_velocity: Vec2::new(300.0, 0.0),
                    gravity_scale: 0.0,
                    ..BodyDef::dynamic(Vec2::new(0.0, 1.0 + 2.0 * k as f32))
                })
                .unwrap();
            build::add_circle(&mut world, body, 0.1);
            shots.push(body);
        }
        for i in 0..90 {
            step(&mut world);
            let moves = world.body_events();
            let mut seen = std::collections::HashSet::new();
            for m in moves {
                assert!(seen.insert(m.body_id), "two moves for one body");
                let body = world.body(m.body_id).unwrap();
                assert_eq!(m.transform, body.transform(), "step {i}, {workers} workers");
                assert_eq!(m.user_data, body.user_data());
                assert_eq!(m.fell_asleep, !body.is_awake());
            }
            for &b in awake_ever.iter().chain(&shots) {
                if world.body(b).unwrap().is_awake() {
                    assert!(seen.contains(&b), "an awake body without a move event");
                }
            }
            for &shot in &shots {
                let x = world.body(shot).unwrap().position().x;
                assert!(x < 6.0, "a shot passed the wall (x = {x} m)");
            }
        }
    }
}

/// As Box2D v3's `b2World_Step` with a zero time step: a paused step moves
/// nothing and, like any step, replaces the last step's events. What it reports
/// is only what calls made since the last step caused: the end-touch event of a
/// destroyed shape and the joint event of a destroyed body; begin, hit and body
/// move events of the last step are gone, for contacts and joints alike.
#[test]
fn a_zero_step_reports_only_what_calls_since_the_last_step_caused() {
    let mut world = build::world();
    let (ground_body, g) = ground(&mut world, &ShapeDef::default());
    let (body, b) = dynamic_box(&mut world, Vec2::new(0.0, 1.0), &ShapeDef::default());
    let other = world.create_body(&BodyDef::default()).unwrap();
    let joint = world
        .create_distance_joint(&DistanceJointDef {
            base: build::joint(ground_body, other, Vec2::ZERO, Vec2::ZERO),
            length: 1.0,
            ..Default::default()
        })
        .unwrap();
    land(&mut world, (g, b));
    assert!(!world.body_events().is_empty());
    let transform = world.body(body).unwrap().transform();
    let steps = world.step_count();

    // Nothing happened since: the paused step reports nothing at all.
    world.step(0.0, 4).unwrap();
    let events = world.contact_events();
    assert!(events.begin.is_empty() && events.end.is_empty() && events.hit.is_empty());
    assert!(world.body_events().is_empty());
    assert!(world.joint_events().is_empty());
    assert_eq!(world.body(body).unwrap().transform(), transform);

    // Destroying the touching box and the jointed body: the paused step
    // publishes their end-touch and joint events, and the next step drops them.
    world.destroy_shape(b, true).unwrap();
    world.destroy_body(other).unwrap();
    world.step(0.0, 4).unwrap();
    let end = world.contact_events().end;
    assert_eq!(end.len(), 1);
    assert!(same_pair((end[0].shape_id_a, end[0].shape_id_b), (g, b)));
    assert!(world.contact_events().begin.is_empty());
    let joint_events = world.joint_events();
    assert_eq!(joint_events.len(), 1);
    assert_eq!(joint_events[0].joint_id, joint);
    assert_eq!(joint_events[0].kind, JointEventKind::BodyDestroyed);
    assert_eq!(world.step_count(), steps, "paused steps are not counted");

    world.step(1.0 / 60.0, 4).unwrap();
    assert!(world.contact_events().end.is_empty());
    assert!(world.joint_events().is_empty());
}
