//! Save and load of a whole world, side by side: our `Snapshot` and `RollbackState`,
//! Box2D's `b2World_Snapshot` / `b2World_Restore` (v3.2 through `boxdd-sys` 0.6) and
//! Rapier's `PhysicsWorld` through serde and bincode, on Box2D's large pyramid (sleep off)
//! with about 1k and 10k boxes, one thread. Per engine and way of saving: the bytes, bytes
//! per body, median µs per save and per load, the median ms per step beside them, and
//! whether the steps after a load repeat the steps after the save bit for bit.
//!
//! `cargo run --release -p impulse2d-compare --features rapier-serde --bin snapshot -- --reps 9`
//! (`--bases 44,141` sets the pyramids' bases, `--engines Impulse2D` runs one engine).

use std::time::Instant;

use impulse2d_compare::box2d::Box2d;
use impulse2d_compare::engine::advance;
use impulse2d_compare::ours::Impulse2d;
use impulse2d_compare::rapier::Rapier;
use impulse2d_compare::scenes::{large_pyramid, pyramid_box_count};
use impulse2d_compare::{Engine, RunConfig, SaveKind, Simulation};

const DT: f32 = 1.0 / 60.0;
const SUB_STEPS: u32 = 4;
/// Steps before the measurement, so that every contact exists and has impulses.
const SETTLE: u32 = 60;
/// Steps run after the save and again after the load to check exactness.
const CHECK: u32 = 10;

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// Seconds of one call of `f`, median of `reps`.
fn time(reps: usize, mut f: impl FnMut()) -> f64 {
    median(
        (0..reps)
            .map(|_| {
                let t = Instant::now();
                f();
                t.elapsed().as_secs_f64()
            })
            .collect(),
    )
}

fn states(sim: &dyn Simulation) -> Vec<u32> {
    sim.body_states()
        .into_iter()
        .flatten()
        .flat_map(|s| {
            [
                s.position[0],
                s.position[1],
                s.angle,
                s.linear_velocity[0],
                s.linear_velocity[1],
                s.angular_velocity,
            ]
        })
        .map(f32::to_bits)
        .collect()
}

fn main() {
    let mut reps = 9usize;
    let mut bases = vec![44usize, 141];
    // engine names to run (all when empty), e.g. `--engines Impulse2D` under callgrind
    let mut only: Vec<String> = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--reps" => reps = args.next().and_then(|s| s.parse().ok()).expect("--reps N"),
            "--bases" => {
                bases = args
                    .next()
                    .expect("--bases A,B")
                    .split(',')
                    .map(|s| s.parse().expect("a pyramid base"))
                    .collect()
            }
            "--engines" => {
                only = args
                    .next()
                    .expect("--engines A,B")
                    .split(',')
                    .map(str::to_string)
                    .collect()
            }
            _ => panic!("usage: snapshot [--reps N] [--bases 44,141] [--engines Impulse2D,...]"),
        }
    }
    let engines: [&dyn Engine; 3] = [&Impulse2d, &Box2d, &Rapier];
    println!(
        "| boxes | engine | save | bytes | bytes/body | save µs | load µs | step ms | (save+load)/step | exact after load |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|");
    let mut breakdown = Vec::new();
    for &base in &bases {
        let scene = large_pyramid(base);
        let boxes = pyramid_box_count(base);
        for engine in engines {
            if !only.is_empty() && !only.iter().any(|n| n == engine.name()) {
                continue;
            }
            let mut sim = engine.build(&scene, RunConfig { threads: 1 });
            for step in 0..SETTLE {
                advance(sim.as_mut(), &scene, step, DT, SUB_STEPS);
            }
            for kind in [
                SaveKind::Full,
                SaveKind::Rollback,
                SaveKind::RollbackCompact,
            ] {
                let Some(bytes) = sim.save(kind) else {
                    continue;
                };
                // Exactness: the steps after the save, then after a load.
                let mut after_save = Vec::new();
                for _ in 0..CHECK {
                    sim.step(DT, SUB_STEPS);
                    after_save.push(states(sim.as_ref()));
                }
                assert!(sim.load(kind), "{} refused its own save", engine.name());
                let step_s = time(CHECK as usize, || sim.step(DT, SUB_STEPS));
                assert!(sim.load(kind));
                let mut after_load = Vec::new();
                for _ in 0..CHECK {
                    sim.step(DT, SUB_STEPS);
                    after_load.push(states(sim.as_ref()));
                }
                let exact = after_load == after_save;
                assert!(sim.load(kind));
                let save_s = time(reps, || {
                    sim.save(kind);
                });
                let load_s = time(reps, || {
                    sim.load(kind);
                });
                let bodies = boxes + 1; // and the ground
                let name = match kind {
                    SaveKind::Full => "full",
                    SaveKind::Rollback => "rollback",
                    SaveKind::RollbackCompact => "rollback compact",
                };
                println!(
                    "| {boxes} | {} | {name} | {bytes} | {:.0} | {:.0} | {:.0} | {:.2} | {:.2} | {} |",
                    engine.name(),
                    bytes as f64 / bodies as f64,
                    save_s * 1e6,
                    load_s * 1e6,
                    step_s * 1e3,
                    (save_s + load_s) / step_s,
                    if exact { "yes" } else { "no" }
                );
            }
            let parts = sim.rollback_breakdown();
            if !parts.is_empty() {
                let bodies = (boxes + 1) as f64;
                let list: Vec<String> = parts
                    .iter()
                    .map(|(part, bytes)| format!("{part} {:.1}", bytes / bodies))
                    .collect();
                breakdown.push(format!(
                    "{boxes} boxes, {}, compact rollback bytes per body: {}",
                    engine.name(),
                    list.join(", ")
                ));
            }
        }
    }
    println!();
    for line in breakdown {
        println!("{line}");
    }
}
