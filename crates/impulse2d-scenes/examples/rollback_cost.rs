//! What a rollback costs beside a step: Box2D's large pyramid (sleep off, one
//! thread) of the given base, 60 steps in, then per form of `RollbackState`
//! the bytes per body and the median time of a save, a load and a step;
//! then the same for a full `Snapshot` (`World::snapshot`, `World::restore`).
//!
//! `cargo run --release -p impulse2d-scenes --example rollback_cost -- 141 9`
//! (base 141: 10,011 boxes; 9 repetitions). Under callgrind, count the
//! instructions of one call each with `-- 141 1` and
//! `--toggle-collect='*save_rollback*'` (or `*load_rollback*`, `*World::step*`,
//! `*World::snapshot*`, `*World::restore*`).
//!
//! Each form is also checked for exactness: 10 steps after its last load
//! must give the state hash that 10 steps after the saved moment gave.

use impulse2d::{RollbackState, World, WorldDef};
use std::time::Instant;

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() -> impulse2d::Result<()> {
    let mut args = std::env::args().skip(1);
    let base: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(141);
    let reps: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(9);
    // `parts`: also where the packed bytes go
    let parts = args.next().is_some_and(|s| s == "parts");
    let mut world = World::new(&WorldDef::default())?;
    impulse2d_scenes::benchmarks::large_pyramid(&mut world, base)?;
    let bodies = world.body_ids().count() as f64;
    for _ in 0..60 {
        world.step(1.0 / 60.0, 4)?;
    }
    println!("{bodies} bodies; ms: median of {reps}");
    if parts {
        for (label, bytes) in world.rollback_breakdown() {
            println!("  {label}: {:.1} B/body", bytes / bodies);
        }
    }
    // the run a rollback must reproduce: 10 steps on from this moment
    let expected = {
        let mut state = RollbackState::new();
        world.save_rollback(&mut state);
        for _ in 0..10 {
            world.step(1.0 / 60.0, 4)?;
        }
        let hash = world.state_hash();
        world.load_rollback(&state)?;
        hash
    };
    for (name, mut state) in [
        ("copied", RollbackState::new()),
        ("compact", RollbackState::compact()),
    ] {
        world.save_rollback(&mut state);
        let (mut save, mut load, mut step) = (Vec::new(), Vec::new(), Vec::new());
        for _ in 0..reps {
            let t = Instant::now();
            world.load_rollback(&state)?;
            load.push(t.elapsed().as_secs_f64() * 1e3);
            let t = Instant::now();
            world.step(1.0 / 60.0, 4)?;
            step.push(t.elapsed().as_secs_f64() * 1e3);
            world.load_rollback(&state)?;
            let t = Instant::now();
            world.save_rollback(&mut state);
            save.push(t.elapsed().as_secs_f64() * 1e3);
        }
        let (save, load, step) = (median(save), median(load), median(step));
        // exact: load, 10 steps, the saved run's hash
        world.load_rollback(&state)?;
        for _ in 0..10 {
            world.step(1.0 / 60.0, 4)?;
        }
        let exact = if world.state_hash() == expected {
            "yes"
        } else {
            "NO"
        };
        world.load_rollback(&state)?;
        println!(
            "{name}: {:.0} B/body, save {save:.3}, load {load:.3}, step {step:.3}, (save+load)/step {:.2}, exact after load: {exact}",
            state.byte_len() as f64 / bodies,
            (save + load) / step
        );
    }
    // the full snapshot, for comparison
    let mut snapshot = world.snapshot();
    let (mut save, mut load) = (Vec::new(), Vec::new());
    for _ in 0..reps {
        let t = Instant::now();
        world.restore(&snapshot)?;
        load.push(t.elapsed().as_secs_f64() * 1e3);
        let t = Instant::now();
        snapshot = world.snapshot();
        save.push(t.elapsed().as_secs_f64() * 1e3);
    }
    println!(
        "full snapshot: {:.0} B/body, save {:.3}, load {:.3}",
        snapshot.len() as f64 / bodies,
        median(save),
        median(load)
    );
    Ok(())
}
