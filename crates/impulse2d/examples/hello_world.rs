//! Hello world: a box falls onto the ground and comes to rest.
//!
//! `cargo run --release -p impulse2d --example hello_world`

use impulse2d::collision::make_box;
use impulse2d::{BodyDef, BodyType, Pos, ShapeDef, World, WorldDef};

fn main() -> impulse2d::Result<()> {
    // A world with Earth's gravity (−10 m/s² along y by default).
    let mut world = World::new(&WorldDef::default())?;

    // The ground: a static body (the default type) with a 20 m × 2 m box whose top is at y = 1.
    let ground = world.create_body(&BodyDef::default())?;
    world.create_polygon_shape(ground, &ShapeDef::default(), &make_box(10.0, 1.0)?)?;

    // A 1 m dynamic box 4 m up, density 1 kg/m², friction 0.6 (ShapeDef's defaults).
    let body = world.create_body(&BodyDef {
        body_type: BodyType::Dynamic,
        position: Pos::new(0.0, 4.0),
        ..Default::default()
    })?;
    world.create_polygon_shape(body, &ShapeDef::default(), &make_box(0.5, 0.5)?)?;

    // 90 steps of 1/60 s, each in 4 substeps.
    for step in 0..90 {
        world.step(1.0 / 60.0, 4)?;
        if step % 10 == 9 {
            let b = world.body(body)?;
            println!(
                "t = {:.2} s  y = {:.3} m  vy = {:+.3} m/s  awake: {}",
                (step + 1) as f32 / 60.0,
                b.position().y,
                b.linear_velocity().y,
                b.is_awake()
            );
        }
    }
    let y = world.body(body)?.position().y;
    // It rests on the ground (top at 1 m) with its centre half a metre above it.
    assert!((y - 1.5).abs() < 0.01, "the box ended at y = {y}");
    println!("at rest at y = {y:.3} m");
    Ok(())
}
