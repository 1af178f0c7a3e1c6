//! Every registered scene builds and runs 300 steps with finite state and the
//! world's invariants holding.
//!
//! Slow in a debug build (the benchmark scenes have up to 22 000 bodies), so it
//! runs only in release: `cargo test --release -p impulse2d-scenes --test all_scenes`.

use impulse2d::{World, WorldDef};

const STEPS: usize = 300;

fn check_finite(world: &World, scene: &str, step: usize) {
    for id in world.body_ids() {
        let xf = world.body(id).unwrap().transform();
        let v = world.body(id).unwrap().linear_velocity();
        let w = world.body(id).unwrap().angular_velocity();
        assert!(
            xf.p.is_finite()
                && xf.q.c.is_finite()
                && xf.q.s.is_finite()
                && v.is_finite()
                && w.is_finite(),
            "{scene}: body {id:?} is not finite after step {step}: {xf:?} {v:?} {w}"
        );
    }
}

#[test]
#[cfg_attr(debug_assertions, ignore = "slow in debug: run with --release")]
fn every_scene_runs_300_steps_without_nan_and_stays_valid() {
    let scenes = impulse2d_scenes::list();
    assert!(
        scenes.len() >= 20,
        "only {} scenes registered",
        scenes.len()
    );
    // The scenes are independent: share them among up to four threads (the
    // harness runs this test alone, and the largest scenes take seconds each).
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get().min(4));
    let next = std::sync::atomic::AtomicUsize::new(0);
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                while let Some(info) =
                    scenes.get(next.fetch_add(1, std::sync::atomic::Ordering::Relaxed))
                {
                    run_scene(info.name);
                }
            });
        }
    });
}

/// Builds scene `name` and runs it [`STEPS`] steps, checking the world's
/// invariants and that its state stays finite.
fn run_scene(name: &str) {
    let mut world = World::new(&WorldDef::default()).unwrap();
    let mut scene =
        impulse2d_scenes::build(name, &mut world).unwrap_or_else(|e| panic!("{name}: {e}"));
    assert!(world.body(scene.ground).is_ok(), "{name}: bad ground id");
    world
        .validate()
        .unwrap_or_else(|e| panic!("{name} after building: {e}"));
    for step in 1..=STEPS {
        // The scene's script (spawning, event handling) runs before each step.
        scene
            .step(&mut world, step as u64 - 1, 1.0 / 60.0, 4)
            .unwrap_or_else(|e| panic!("{name} at step {step}: {e}"));
        // Validation is slow; check it every 50 steps and at the end.
        if step % 50 == 0 {
            world
                .validate()
                .unwrap_or_else(|e| panic!("{name} after step {step}: {e}"));
            check_finite(&world, name, step);
        }
    }
}

#[test]
fn names_are_unique_and_every_scene_builds() {
    let scenes = impulse2d_scenes::list();
    for (i, a) in scenes.iter().enumerate() {
        assert!(!a.name.is_empty() && !a.category.is_empty() && !a.description.is_empty());
        for b in &scenes[i + 1..] {
            assert_ne!(a.name, b.name, "two scenes named {}", a.name);
        }
    }
    // Building alone is quick even in debug, except for the largest benchmarks.
    for info in scenes.iter().filter(|s| s.category != "benchmark") {
        let mut world = World::new(&WorldDef::default()).unwrap();
        let scene = impulse2d_scenes::build(info.name, &mut world)
            .unwrap_or_else(|e| panic!("{}: {e}", info.name));
        assert!(
            world.counters().body_count > scene.bodies.len(),
            "{}",
            info.name
        );
    }
    let mut world = World::new(&WorldDef::default()).unwrap();
    assert!(impulse2d_scenes::build("no_such_scene", &mut world).is_err());
}
