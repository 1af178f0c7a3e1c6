//! Threads: the same pyramid on 1, 2 and 4 worker threads gives the same bits,
//! and the time per step of each.
//!
//! `cargo run --release -p impulse2d --example threads`

use std::time::Instant;

use impulse2d::collision::make_box;
use impulse2d::pos::to_pos;
use impulse2d::{BodyDef, BodyType, ShapeDef, Vec2, World, WorldDef};

/// A pyramid of 0.5 m boxes, `base` boxes wide at the bottom, on the given number of threads.
fn pyramid(base: usize, workers: usize) -> impulse2d::Result<World> {
    let mut world = World::new(&WorldDef {
        worker_count: workers,
        ..Default::default()
    })?;
    let ground = world.create_body(&BodyDef::default())?;
    world.create_polygon_shape(ground, &ShapeDef::default(), &make_box(40.0, 1.0)?)?;
    let cube = make_box(0.25, 0.25)?;
    for row in 0..base {
        for i in 0..base - row {
            let x = 0.5 * (i as f32 - (base - row) as f32 / 2.0);
            let y = 1.25 + 0.5 * row as f32;
            let body = world.create_body(&BodyDef {
                body_type: BodyType::Dynamic,
                position: to_pos(Vec2::new(x, y)),
                ..Default::default()
            })?;
            world.create_polygon_shape(body, &ShapeDef::default(), &cube)?;
        }
    }
    Ok(world)
}

fn main() -> impulse2d::Result<()> {
    let (base, steps) = (40, 120);
    let mut hashes = Vec::new();
    for workers in [1, 2, 4] {
        let mut world = pyramid(base, workers)?;
        let start = Instant::now();
        for _ in 0..steps {
            world.step(1.0 / 60.0, 4)?;
        }
        let ms = start.elapsed().as_secs_f64() * 1e3 / steps as f64;
        let hash = world.state_hash();
        println!(
            "{workers} thread(s): {} bodies, {:.3} ms/step, state hash {hash:016x}",
            world.counters().body_count,
            ms
        );
        hashes.push(hash);
    }
    // Determinism: the thread count changes the speed, never the result.
    assert!(hashes.iter().all(|&h| h == hashes[0]));
    println!("same bits on every thread count");
    Ok(())
}
