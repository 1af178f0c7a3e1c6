//! Queries: what a ray hits first, everything along a ray, what overlaps a box,
//! and where a moving circle would first touch something.
//!
//! `cargo run --release -p impulse2d --example queries`

use impulse2d::collision::{Aabb, Circle, make_box, make_proxy};
use impulse2d::pos::to_pos;
use impulse2d::{
    BodyDef, BodyType, Pos, QueryFilter, Rot, ShapeDef, Transform, Vec2, World, WorldDef,
};

fn main() -> impulse2d::Result<()> {
    let mut world = World::new(&WorldDef {
        gravity: Vec2::ZERO,
        ..Default::default()
    })?;
    // A row of five 1 m boxes at x = 0, 2, 4, 6, 8 on y = 0, each body tagged with its index.
    let mut boxes = Vec::new();
    for i in 0..5 {
        let body = world.create_body(&BodyDef {
            body_type: BodyType::Dynamic,
            position: to_pos(Vec2::new(2.0 * i as f32, 0.0)),
            user_data: i,
            ..Default::default()
        })?;
        world.create_polygon_shape(body, &ShapeDef::default(), &make_box(0.5, 0.5)?)?;
        boxes.push(body);
    }
    // A ball at (4, 3), on its own collision category 2.
    let ball = world.create_body(&BodyDef {
        position: Pos::new(4.0, 3.0),
        ..Default::default()
    })?;
    let mut ball_def = ShapeDef::default();
    ball_def.filter.category_bits = 2;
    world.create_circle_shape(ball, &ball_def, &Circle::new(Vec2::ZERO, 0.5)?)?;
    world.step(1.0 / 60.0, 4)?; // queries see the world as of the last step

    let index_of = |w: &World, shape| {
        w.shape(shape)
            .and_then(|s| w.body(s.body()))
            .map(|b| b.user_data())
    };

    // The closest hit of a ray from (-5, 0) along +x, 20 m long.
    let hit = world
        .cast_ray_closest(
            Vec2::new(-5.0, 0.0),
            Vec2::new(20.0, 0.0),
            QueryFilter::default(),
        )?
        .expect("the ray hits the first box");
    println!(
        "closest: box {} at ({:.2}, {:.2}), normal ({:.0}, {:.0}), fraction {:.3}",
        index_of(&world, hit.shape_id)?,
        hit.point.x,
        hit.point.y,
        hit.normal.x,
        hit.normal.y,
        hit.fraction
    );
    assert!((hit.point.x - -0.5).abs() < 1e-4); // the first box's left face

    // Every hit along the same ray: the callback returns 1 to go on unclipped.
    let mut all = Vec::new();
    world.cast_ray(
        Vec2::new(-5.0, 0.0),
        Vec2::new(20.0, 0.0),
        QueryFilter::default(),
        |shape, point, _, _| {
            all.push((index_of(&world, shape).unwrap_or(u64::MAX), point.x));
            1.0
        },
    )?;
    all.sort_by(|a, b| a.1.total_cmp(&b.1));
    println!("all along the ray: {all:?}");
    assert_eq!(all.len(), 5);

    // Which shapes overlap a box around x in [1, 5], y in [-1, 4]: boxes 1 and 2 and the ball;
    // a filter that only sees category 1 leaves the ball out.
    let area = Aabb::new(Vec2::new(1.0, -1.0), Vec2::new(5.0, 4.0));
    let mut seen = 0;
    world.overlap_aabb(area, QueryFilter::default(), |_| {
        seen += 1;
        true // go on
    })?;
    let mut boxes_only = 0;
    let only_boxes = QueryFilter {
        category_bits: 1,
        mask_bits: 1,
    };
    world.overlap_aabb(area, only_boxes, |_| {
        boxes_only += 1;
        true
    })?;
    println!("overlapping the area: {seen} shapes, {boxes_only} of category 1");
    assert_eq!((seen, boxes_only), (3, 2));

    // Sweep a 0.25 m circle from (4, 6) straight down: it first touches the ball.
    let probe = make_proxy(&[Vec2::ZERO], 0.25)?;
    let start = Transform::new(Vec2::new(4.0, 6.0), Rot::IDENTITY);
    let mut first: Option<(f32, Vec2)> = None;
    world.cast_shape(
        &probe,
        start,
        Vec2::new(0.0, -10.0),
        QueryFilter::ALL,
        |_, point, _, fraction| {
            first = Some((fraction, point));
            fraction // clip the cast here: only nearer hits follow
        },
    )?;
    let (fraction, point) = first.expect("the sweep hits the ball");
    println!(
        "the swept circle touches at ({:.3}, {:.3}) after {:.3} m",
        point.x,
        point.y,
        fraction * 10.0
    );
    // It stops when its centre is 0.75 m above the ball's centre: after 6 − 3 − 0.75 = 2.25 m.
    assert!((fraction * 10.0 - 2.25).abs() < 0.01);
    let _ = boxes;
    Ok(())
}
