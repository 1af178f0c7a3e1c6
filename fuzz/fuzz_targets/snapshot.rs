//! `Snapshot::from_bytes` and `World::restore` on arbitrary and on corrupted
//! snapshot bytes (see `fuzz/src/snapshot_input.rs` for what an input means).
//!
//! Properties: nothing panics; a rejected buffer (by `Snapshot::from_bytes`
//! or by `World::restore`) leaves the restoring world exactly as it was (same
//! snapshot bytes); an accepted one restores a world that `validate()` passes,
//! steps without error or panic, and is still valid after five steps.
#![no_main]

use impulse2d::{BodyDef, Snapshot, World, WorldDef};
use impulse2d_fuzz::snapshot_buffer;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some(buffer) = snapshot_buffer(data) else {
        return;
    };
    let mut world = World::new(&WorldDef::default()).unwrap();
    world.create_body(&BodyDef::default()).unwrap();
    let before = world.snapshot();
    match Snapshot::from_bytes(&buffer) {
        Err(_) => {
            assert_eq!(world.snapshot(), before);
        }
        Ok(snapshot) => match world.restore(&snapshot) {
            // A buffer whose envelope is intact may still describe a world
            // that does not hold together: refused, nothing changed.
            Err(_) => assert_eq!(world.snapshot(), before),
            Ok(()) => {
                // Accepted: a valid world, which steps (and stays valid).
                world.validate().unwrap();
                for _ in 0..5 {
                    world.step(1.0 / 60.0, 4).unwrap();
                }
                world.validate().unwrap();
            }
        },
    }
});
