//! Sensor overlap events: sensors on any body type, seeing sleeping bodies,
//! with per-shape switches.

use crate::build;

use impulse2d::collision::{Circle, Polygon, make_box, make_offset_box};
use impulse2d::{
    BodyDef, BodyId, BodyType, Rot, SensorBeginTouchEvent, SensorEndTouchEvent, ShapeDef, ShapeId,
    Vec2, World,
};

const DT: f32 = 1.0 / 60.0;

fn step(world: &mut World) {
    world.step(DT, 4).unwrap();
    if let Err(e) = world.validate() {
        panic!("invalid world after step {}: {e}", world.step_count());
    }
}

fn sensor_def() -> ShapeDef {
    ShapeDef {
        is_sensor: true,
        ..Default::default()
    }
}

/// A shapeless static body at the origin holding one sensor `polygon`.
fn sensor_on_static_body(world: &mut World, polygon: &Polygon) -> ShapeId {
    let holder = world.create_body(&BodyDef::default()).unwrap();
    world
        .create_polygon_shape(holder, &sensor_def(), polygon)
        .unwrap()
}

fn ball(world: &mut World, position: Vec2, def: &ShapeDef) -> (BodyId, ShapeId) {
    let body = world.create_body(&BodyDef::dynamic(position)).unwrap();
    let shape = world
        .create_circle_shape(
            body,
            def,
            &Circle {
                center: Vec2::ZERO,
                radius: 0.25,
            },
        )
        .unwrap();
    (body, shape)
}

/// All sensor events of `steps` steps, in order.
fn run(world: &mut World, steps: usize) -> (Vec<SensorBeginTouchEvent>, Vec<SensorEndTouchEvent>) {
    let (mut begin, mut end) = (Vec::new(), Vec::new());
    for _ in 0..steps {
        step(world);
        let e = world.sensor_events();
        begin.extend_from_slice(e.begin);
        end.extend_from_slice(e.end);
    }
    (begin, end)
}

/// A ball falls through a static sensor band between y = 4 and y = 6: it
/// begins overlapping once and ends once, in that order.
#[test]
fn a_falling_ball_enters_and_leaves_a_static_sensor() {
    let mut world = build::world_with_gravity(Vec2::ZERO);
    let band = make_offset_box(2.0, 1.0, Vec2::new(0.0, 5.0), Rot::IDENTITY).unwrap();
    let sensor = sensor_on_static_body(&mut world, &band);
    let (body, visitor) = ball(&mut world, Vec2::new(0.0, 8.0), &ShapeDef::default());
    build::set_velocity(&mut world, body, Vec2::new(0.0, -3.0));
    // Moving at 3 m/s the ball's bottom reaches y = 6 after (8 − 0.25 − 6)/3
    // ≈ 0.58 s and its top leaves y = 4 after (8 + 0.25 − 4)/3 ≈ 1.42 s.
    let mut began = None;
    let mut ended = None;
    for i in 0..120 {
        step(&mut world);
        let e = world.sensor_events();
        for b in e.begin {
            assert_eq!(
                *b,
                SensorBeginTouchEvent {
                    sensor_shape_id: sensor,
                    visitor_shape_id: visitor
                }
            );
            assert!(began.replace(i).is_none(), "began twice");
        }
        for x in e.end {
            assert_eq!((x.sensor_shape_id, x.visitor_shape_id), (sensor, visitor));
            assert!(began.is_some(), "ended before it began");
            assert!(ended.replace(i).is_none(), "ended twice");
        }
        let inside = began.is_some() && ended.is_none();
        let overlaps = world.shape(sensor).unwrap().sensor_overlaps().unwrap();
        assert_eq!(overlaps == vec![visitor], inside, "step {i}");
    }
    let t_begin = (began.unwrap() + 1) as f32 * DT;
    let t_end = (ended.unwrap() + 1) as f32 * DT;
    assert!((t_begin - 0.583).abs() < 2.0 * DT, "began at {t_begin} s");
    assert!((t_end - 1.417).abs() < 2.0 * DT, "ended at {t_end} s");
    // A sensor makes no contacts: the ball went straight through.
    assert!(world.body(body).unwrap().position().y < 4.0);
}

#[test]
fn switches_on_either_shape_turn_sensor_events_off() {
    for (sensor_on, visitor_on) in [(true, false), (false, true), (true, true)] {
        let mut world = build::world();
        let holder = world.create_body(&BodyDef::default()).unwrap();
        let def = ShapeDef {
            enable_sensor_events: sensor_on,
            ..sensor_def()
        };
        let band = make_offset_box(2.0, 1.0, Vec2::new(0.0, 5.0), Rot::IDENTITY).unwrap();
        world.create_polygon_shape(holder, &def, &band).unwrap();
        let visitor_def = ShapeDef {
            enable_sensor_events: visitor_on,
            ..Default::default()
        };
        ball(&mut world, Vec2::new(0.0, 5.0), &visitor_def);
        let (begin, _) = run(&mut world, 2);
        assert_eq!(begin.len(), usize::from(sensor_on && visitor_on));
    }
}

/// A ball comes to rest, and sleeps, inside a static sensor on the ground:
/// the overlap lasts (no end event while it sleeps). Then a kinematic sensor
/// sweeps over the sleeping ball and sees it without waking it.
#[test]
fn sensors_see_sleeping_bodies() {
    let mut world = build::world();
    build::ground_slab(&mut world, 20.0);
    let zone = make_offset_box(1.0, 1.0, Vec2::new(0.0, 1.1), Rot::IDENTITY).unwrap();
    let static_sensor = sensor_on_static_body(&mut world, &zone);
    let (body, visitor) = ball(&mut world, Vec2::new(0.0, 3.0), &ShapeDef::default());

    let (begin, end) = run(&mut world, 240);
    assert_eq!(begin.len(), 1);
    assert_eq!(begin[0].sensor_shape_id, static_sensor);
    assert!(end.is_empty());
    assert!(
        !world.body(body).unwrap().is_awake(),
        "the ball should sleep"
    );
    let (begin, end) = run(&mut world, 60);
    assert!(begin.is_empty() && end.is_empty());
    assert_eq!(
        world
            .shape(static_sensor)
            .unwrap()
            .sensor_overlaps()
            .unwrap(),
        vec![visitor]
    );

    // A kinematic sensor moving at 2 m/s from x = -5 passes over the ball.
    let mover = world
        .create_body(&BodyDef {
            linear_velocity: Vec2::new(2.0, 0.0),
            ..build::def(BodyType::Kinematic, Vec2::new(-5.0, 0.6))
        })
        .unwrap();
    let moving_sensor = world
        .create_polygon_shape(mover, &sensor_def(), &make_box(0.5, 0.5).unwrap())
        .unwrap();
    let mut seen = Vec::new();
    for _ in 0..360 {
        step(&mut world);
        let e = world.sensor_events();
        seen.extend(e.begin.iter().map(|b| (true, *b)));
        seen.extend(e.end.iter().map(|x| {
            (
                false,
                SensorBeginTouchEvent {
                    sensor_shape_id: x.sensor_shape_id,
                    visitor_shape_id: x.visitor_shape_id,
                },
            )
        }));
        assert!(
            !world.body(body).unwrap().is_awake(),
            "a sensor woke the ball"
        );
    }
    let expected = SensorBeginTouchEvent {
        sensor_shape_id: moving_sensor,
        visitor_shape_id: visitor,
    };
    assert_eq!(seen, vec![(true, expected), (false, expected)]);
}

#[test]
fn destroying_a_sensor_or_a_visitor_ends_the_overlap_at_the_next_step() {
    let mut world = build::world_with_gravity(Vec2::ZERO);
    let zone = make_box(3.0, 3.0).unwrap();
    let sensor = sensor_on_static_body(&mut world, &zone);
    let (_, a) = ball(&mut world, Vec2::new(-1.0, 0.0), &ShapeDef::default());
    let (body_b, b) = ball(&mut world, Vec2::new(1.0, 0.0), &ShapeDef::default());
    let (begin, _) = run(&mut world, 1);
    assert_eq!(begin.len(), 2);

    world.destroy_body(body_b).unwrap();
    assert!(world.sensor_events().end.is_empty());
    let (_, end) = run(&mut world, 1);
    assert_eq!(end.len(), 1);
    assert_eq!(
        (end[0].sensor_shape_id, end[0].visitor_shape_id),
        (sensor, b)
    );

    world.destroy_shape(sensor, true).unwrap();
    let (begin, end) = run(&mut world, 1);
    assert!(begin.is_empty());
    assert_eq!(end.len(), 1);
    assert_eq!(
        (end[0].sensor_shape_id, end[0].visitor_shape_id),
        (sensor, a)
    );
    let (begin, end) = run(&mut world, 3);
    assert!(begin.is_empty() && end.is_empty());
}

/// A sensor on a dynamic body sees static and kinematic shapes; filters
/// apply; shapes on its own body are ignored.
#[test]
fn a_sensor_on_a_dynamic_body_sees_every_body_type() {
    let mut world = build::world_with_gravity(Vec2::ZERO);
    let wall = build::body(&mut world, BodyType::Static, Vec2::new(0.0, 1.5));
    let wall_shape = build::add_box(&mut world, wall, 0.5, 0.5);
    let platform = build::body(&mut world, BodyType::Kinematic, Vec2::new(1.5, 0.0));
    let platform_shape = build::add_box(&mut world, platform, 0.5, 0.5);
    let hidden = build::body(&mut world, BodyType::Static, Vec2::new(-1.5, 0.0));
    let other_category = ShapeDef {
        filter: impulse2d::Filter {
            category_bits: 4,
            mask_bits: u64::MAX,
            group_index: 0,
        },
        ..Default::default()
    };
    world
        .create_polygon_shape(hidden, &other_category, &make_box(0.5, 0.5).unwrap())
        .unwrap();

    let probe = world
        .create_body(&BodyDef::dynamic(Vec2::new(0.0, 0.0)))
        .unwrap();
    let probe_sensor_def = ShapeDef {
        filter: impulse2d::Filter {
            category_bits: 1,
            mask_bits: 1,
            group_index: 0,
        },
        ..sensor_def()
    };
    let sensor = world
        .create_circle_shape(
            probe,
            &probe_sensor_def,
            &Circle {
                center: Vec2::ZERO,
                radius: 2.0,
            },
        )
        .unwrap();
    build::add_circle(&mut world, probe, 0.1);
    run(&mut world, 1);
    let mut seen = world.shape(sensor).unwrap().sensor_overlaps().unwrap();
    seen.sort();
    let mut expected = vec![wall_shape, platform_shape];
    expected.sort();
    assert_eq!(seen, expected);

    // Moving the probe far away ends both overlaps at the next step.
    world
        .body_mut(probe)
        .unwrap()
        .set_transform(Vec2::new(50.0, 0.0), Rot::IDENTITY)
        .unwrap();
    let (_, end) = run(&mut world, 1);
    assert_eq!(end.len(), 2);
}

#[test]
fn sensor_overlaps_rejects_stale_ids_and_non_sensors() {
    let mut world = build::world();
    let g = build::ground_slab(&mut world, 20.0);
    let solid = world.body(g).unwrap().shapes()[0];
    assert!(matches!(
        world.shape(solid).and_then(|view| view.sensor_overlaps()),
        Err(impulse2d::Error::InvalidOperation(_))
    ));
    world.destroy_body(g).unwrap();
    assert!(matches!(
        world.shape(solid).and_then(|view| view.sensor_overlaps()),
        Err(impulse2d::Error::InvalidId { .. })
    ));
}
