//! Events: contacts beginning and ending, hits, sensors and moved bodies,
//! read after each step.
//!
//! `cargo run --release -p impulse2d --example events`

use impulse2d::collision::{Circle, make_box};
use impulse2d::{BodyDef, BodyId, BodyType, Pos, ShapeDef, ShapeId, Vec2, World, WorldDef};

fn main() -> impulse2d::Result<()> {
    let mut world = World::new(&WorldDef::default())?;

    let ground = world.create_body(&BodyDef::default())?;
    world.create_polygon_shape(ground, &ShapeDef::default(), &make_box(10.0, 0.5)?)?;

    // A sensor 3 m up: it collides with nothing and reports what overlaps it.
    let gate = world.create_body(&BodyDef {
        position: Pos::new(0.0, 3.0),
        ..Default::default()
    })?;
    let sensor = ShapeDef {
        is_sensor: true,
        ..Default::default()
    };
    world.create_polygon_shape(gate, &sensor, &make_box(2.0, 0.25)?)?;

    // A bouncy ball that reports hits (impacts faster than 1 m/s, the world's threshold).
    let ball = world.create_body(&BodyDef {
        body_type: BodyType::Dynamic,
        position: Pos::new(0.0, 6.0),
        ..Default::default()
    })?;
    let bouncy = ShapeDef {
        restitution: 0.6,
        enable_hit_events: true,
        ..Default::default()
    };
    world.create_circle_shape(ball, &bouncy, &Circle::new(Vec2::ZERO, 0.25)?)?;

    let body_of = |w: &World, s: ShapeId| -> Option<BodyId> { w.shape(s).ok().map(|s| s.body()) };
    let (mut begins, mut ends, mut hits, mut sensed) = (0, 0, 0, 0);
    for step in 0..240 {
        world.step(1.0 / 60.0, 4)?;
        let t = (step + 1) as f32 / 60.0;

        let sensors = world.sensor_events();
        for e in sensors.begin {
            println!(
                "{t:5.2} s  sensor: {:?} entered",
                body_of(&world, e.visitor_shape_id)
            );
            sensed += 1;
        }
        for e in sensors.end {
            println!(
                "{t:5.2} s  sensor: {:?} left",
                body_of(&world, e.visitor_shape_id)
            );
        }

        let contacts = world.contact_events();
        begins += contacts.begin.len();
        ends += contacts.end.len();
        for e in contacts.begin {
            println!(
                "{t:5.2} s  contact begins, {} point(s)",
                e.manifold.point_count
            );
        }
        for _ in contacts.end {
            println!("{t:5.2} s  contact ends (a bounce)");
        }
        for e in contacts.hit {
            println!(
                "{t:5.2} s  hit at ({:.2}, {:.2}), {:.2} m/s",
                e.point.x, e.point.y, e.approach_speed
            );
            hits += 1;
        }

        // Body move events: what a renderer would read to update its sprites.
        if step % 60 == 59 {
            for e in world.body_events() {
                println!(
                    "{t:5.2} s  body moved to y = {:.3} (asleep: {})",
                    e.transform.p.y, e.fell_asleep
                );
            }
        }
    }
    println!("{begins} begin, {ends} end, {hits} hit, {sensed} sensor events");
    // The ball crosses the sensor on the way down, lands, bounces at least once and settles.
    assert!(sensed >= 1 && begins >= 2 && ends >= 1 && hits >= 1);
    Ok(())
}
