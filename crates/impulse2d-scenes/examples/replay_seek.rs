//! What seeking a recording costs with `ReplayPlayer`'s key frames beside
//! replaying from the start: Box2D's large pyramid (sleep off, one thread) of
//! the given base, recorded for the given number of steps; then
//!
//! - a plain `Replay` to the end (ms per step), keeping every frame's hash;
//! - the player's first pass to the end, which keeps the key frames;
//! - seeks to pseudo-random frames, each checked against the plain pass's
//!   hash, timed with the player and with a plain `Replay` that restarts and
//!   steps to the target when it must go back (what a player without key
//!   frames does).
//!
//! `cargo run --release -p impulse2d-scenes --example replay_seek -- 44 600 20`
//! (base 44: 990 boxes; 600 steps; 20 seeks). An optional fourth argument is
//! the key-frame budget in MiB (default: the player's, 512).

use impulse2d::{Replay, ReplayPlayer, World, WorldDef};
use std::time::Instant;

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn ms(t: Instant) -> f64 {
    t.elapsed().as_secs_f64() * 1e3
}

fn main() -> impulse2d::Result<()> {
    let mut args = std::env::args().skip(1);
    let mut arg = |default: u64| args.next().and_then(|s| s.parse().ok()).unwrap_or(default);
    let (base, steps, seeks) = (arg(44) as usize, arg(600), arg(20));
    let budget_mib = arg(0);

    let mut world = World::new(&WorldDef::default())?;
    impulse2d_scenes::benchmarks::large_pyramid(&mut world, base)?;
    let bodies = world.body_ids().count();
    world.start_recording(10)?;
    for _ in 0..steps {
        world.step(1.0 / 60.0, 4)?;
    }
    let recording = world.stop_recording().expect("recording");
    println!(
        "{bodies} bodies, {steps} steps, recording {:.1} MB",
        recording.len() as f64 / 1e6
    );

    let mut plain = Replay::new(&recording, 1)?;
    let mut hashes = vec![plain.world().state_hash()];
    let t = Instant::now();
    while let Some(s) = plain.step()? {
        hashes.push(s.hash);
    }
    let step_ms = ms(t) / steps as f64;
    println!("plain replay: {step_ms:.3} ms/step");

    let mut player = ReplayPlayer::new(&recording, 1)?;
    if budget_mib > 0 {
        player.set_keyframe_policy(budget_mib as usize * 1024 * 1024, 16)?;
    }
    let t = Instant::now();
    player.seek(steps)?;
    let first = ms(t);
    println!(
        "player, first pass: {:.3} ms/step ({:+.0} %); {} key frames every {} steps, {:.1} MB",
        first / steps as f64,
        100.0 * (first / steps as f64 / step_ms - 1.0),
        player.keyframe_count(),
        player.keyframe_interval(),
        player.keyframe_bytes() as f64 / 1e6
    );

    // Pseudo-random targets (a 64-bit LCG), the same for both players.
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    let targets: Vec<u64> = (0..seeks)
        .map(|_| {
            x = x
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (x >> 33) % (steps + 1)
        })
        .collect();
    let mut with_keyframes = Vec::new();
    for &target in &targets {
        let t = Instant::now();
        player.seek(target)?;
        with_keyframes.push(ms(t));
        assert_eq!(player.world().state_hash(), hashes[target as usize]);
    }
    let mut from_start = Vec::new();
    for &target in &targets {
        let t = Instant::now();
        if target < plain.steps() {
            plain.restart()?;
        }
        while plain.steps() < target {
            plain.step()?;
        }
        from_start.push(ms(t));
        assert_eq!(plain.world().state_hash(), hashes[target as usize]);
    }
    println!(
        "{seeks} seeks, ms: key frames median {:.1} (max {:.1}); from the start median {:.1} (max {:.1})",
        median(with_keyframes.clone()),
        with_keyframes.iter().copied().fold(0.0, f64::max),
        median(from_start.clone()),
        from_start.iter().copied().fold(0.0, f64::max),
    );
    Ok(())
}
