//! Times Box2D's large pyramid benchmark (base 100, 4 substeps at 60 Hz) and
//! prints ms/step per stage. Run with `cargo run --release --example large_pyramid`.

use impulse2d::{Profile, World, WorldDef};

fn main() {
    let steps: usize = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(500);
    let mut world = World::new(&WorldDef::default()).expect("world");
    let pyramid = impulse2d_scenes::large_pyramid(&mut world).expect("scene");
    let start_top = world.body(pyramid.top).expect("top").position();

    let mut total = Profile::default();
    let cpu_start = cpu_seconds();
    let start = std::time::Instant::now();
    for _ in 0..steps {
        world.step(1.0 / 60.0, 4).expect("step");
        let p = world.profile();
        total.step += p.step;
        total.pairs += p.pairs;
        total.collide += p.collide;
        total.solve += p.solve;
        total.prepare_constraints += p.prepare_constraints;
        total.integrate_velocities += p.integrate_velocities;
        total.warm_start += p.warm_start;
        total.solve_impulses += p.solve_impulses;
        total.integrate_positions += p.integrate_positions;
        total.relax_impulses += p.relax_impulses;
        total.restitution += p.restitution;
        total.store_impulses += p.store_impulses;
        total.finalize_bodies += p.finalize_bodies;
        total.enlarge_proxies += p.enlarge_proxies;
    }
    let wall = start.elapsed().as_secs_f64() * 1000.0 / steps as f64;
    let cpu = cpu_seconds().map(|end| (end - cpu_start.unwrap_or(end)) * 1000.0 / steps as f64);
    let n = steps as f32;
    let top = world.body(pyramid.top).expect("top").position();
    println!(
        "large pyramid: {steps} steps, {wall:.3} ms/step wall clock, {:.3} ms/step CPU",
        cpu.unwrap_or(f64::NAN)
    );
    println!(
        "  pairs {:.3}  collide {:.3}  solve {:.3}",
        total.pairs / n,
        total.collide / n,
        total.solve / n
    );
    println!(
        "  prepare {:.3}  int-vel {:.3}  warm {:.3}  solve {:.3}  int-pos {:.3}  relax {:.3}  restit {:.3}  store {:.3}  finalize {:.3}  enlarge {:.3}",
        total.prepare_constraints / n,
        total.integrate_velocities / n,
        total.warm_start / n,
        total.solve_impulses / n,
        total.integrate_positions / n,
        total.relax_impulses / n,
        total.restitution / n,
        total.store_impulses / n,
        total.finalize_bodies / n,
        total.enlarge_proxies / n
    );
    println!(
        "  top box moved {:.4} m sideways, {:.4} m down; counters {:?}",
        top.x - start_top.x,
        start_top.y - top.y,
        world.counters()
    );
}

/// User + system CPU time of this process, s (Linux `/proc`; `None` elsewhere).
/// Less disturbed than the wall clock when other processes share the cores.
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    let after_name = &stat[stat.rfind(')')? + 2..];
    let fields: Vec<&str> = after_name.split_whitespace().collect();
    // Fields 14 and 15 of the file (utime, stime), counted after the name.
    let utime: f64 = fields.get(11)?.parse().ok()?;
    let stime: f64 = fields.get(12)?.parse().ok()?;
    Some((utime + stime) / 100.0)
}
