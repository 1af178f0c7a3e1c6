//! The SIMD paths (`WorldDef::simd`) give the same bits: every registered
//! scene (the benchmark scenes included, with their scripts) is stepped on the
//! baseline build and on the AVX2 build of the hot loops, and the hashes of all
//! body transforms are compared every few steps.

use impulse2d::{SimdPath, World, WorldDef};

/// 64-bit FNV-1a over the bits of every body transform, in body id order.
fn state_hash(world: &World) -> u64 {
    let mut hash = 0xcbf2_9ce4_8422_2325u64;
    for id in world.body_ids() {
        let xf = world.body(id).unwrap().transform();
        // The position's bits are `f64` ones with `large-world`.
        for x in [xf.p.x, xf.p.y] {
            for byte in x.to_bits().to_le_bytes() {
                hash ^= u64::from(byte);
                hash = hash.wrapping_mul(0x0100_0000_01b3);
            }
        }
        for x in [xf.q.c, xf.q.s] {
            for byte in x.to_bits().to_le_bytes() {
                hash ^= u64::from(byte);
                hash = hash.wrapping_mul(0x0100_0000_01b3);
            }
        }
    }
    hash
}

/// Steps scene `name` on `simd`; returns the state hash every 10 steps.
fn run(name: &str, simd: SimdPath) -> Vec<u64> {
    let mut world = World::new(&WorldDef {
        simd,
        ..WorldDef::default()
    })
    .unwrap();
    let mut scene = impulse2d_scenes::build(name, &mut world).unwrap();
    // The largest benchmark scenes for fewer steps, to keep the test short.
    let steps = if world.counters().body_count > 2000 {
        30
    } else {
        120
    };
    let mut hashes = Vec::new();
    for step in 0..steps {
        scene.before_step(&mut world, step).unwrap();
        world.step(1.0 / 60.0, 4).unwrap();
        if step % 10 == 9 {
            hashes.push(state_hash(&world));
        }
    }
    hashes
}

#[test]
fn every_scene_gives_the_same_bits_on_every_simd_path() {
    let avx2 = SimdPath::avx2_available();
    if !avx2 {
        eprintln!("this CPU has no AVX2: only the baseline path can run here");
    }
    let benchmarks = impulse2d_scenes::list()
        .iter()
        .filter(|s| s.category == "benchmark")
        .count();
    assert!(benchmarks >= 7, "the benchmark scenes are registered");
    for info in impulse2d_scenes::list() {
        let baseline = run(info.name, SimdPath::Baseline);
        assert!(!baseline.is_empty());
        if avx2 {
            assert_eq!(run(info.name, SimdPath::Avx2), baseline, "{}", info.name);
        }
    }
}

#[test]
fn the_world_reports_its_path_and_refuses_a_missing_one() {
    let made = |simd| {
        World::new(&WorldDef {
            simd,
            ..WorldDef::default()
        })
    };
    let baseline = made(SimdPath::Baseline).unwrap();
    assert_eq!(baseline.simd_path(), SimdPath::Baseline);
    let auto = made(SimdPath::Auto).unwrap();
    match made(SimdPath::Avx2) {
        Ok(world) => {
            assert!(SimdPath::avx2_available());
            assert_eq!(world.simd_path(), SimdPath::Avx2);
            assert_eq!(auto.simd_path(), SimdPath::Avx2);
        }
        Err(e) => {
            assert!(!SimdPath::avx2_available());
            assert!(e.to_string().contains("AVX2"), "{e}");
            assert_eq!(auto.simd_path(), SimdPath::Baseline);
        }
    }
    // The setting is what the world was made with; the readout is resolved.
    assert_eq!(auto.settings().simd, SimdPath::Auto);
}
