//! `Recording::from_bytes` and `Replay` on arbitrary and on corrupted
//! recording bytes.
//!
//! The first input byte picks the mode. Even: the rest is taken as a whole
//! buffer (almost always rejected by the checksum). Odd: a valid recording
//! (a small stack with a joint; logged body calls, a keyframe after a body is
//! created, steps and hashes) is corrupted at the positions the input names
//! (xor masks), truncated or not, and its FNV-1a checksum recomputed here
//! (docs/recording-format.md), so the record decoder, the keyframes'
//! snapshot decoder and the replay itself see altered bytes.
//!
//! Properties: nothing panics; a recording that reads plays to its end or
//! stops with an `Err`; a replay world that ran is still valid.
#![no_main]

use impulse2d::{Recording, Replay, Vec2};
use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;

// The seeds' world helpers and the checksum (the library exports only what
// the `snapshot` target needs).
#[allow(dead_code)]
#[path = "../src/snapshot_input.rs"]
mod snapshot_input;
use snapshot_input::{dynamic_box, fnv1a, ground_world, hinge};

/// The bytes of a recording of a small busy world.
fn seed_recording() -> &'static [u8] {
    static BYTES: OnceLock<Vec<u8>> = OnceLock::new();
    BYTES.get_or_init(|| {
        let (mut world, _) = ground_world(5.0);
        let a = dynamic_box(&mut world, 0.0, 1.0);
        let b = dynamic_box(&mut world, 0.1, 1.5);
        hinge(&mut world, a, b);
        world.start_recording(2).unwrap();
        for i in 0..12 {
            let mut body = world.body_mut(a).unwrap();
            body.apply_force_to_center(Vec2::new(1.0, 0.0), true).unwrap();
            body.apply_angular_impulse(0.01, true).unwrap();
            if i == 6 {
                dynamic_box(&mut world, -1.0, 2.0);
            }
            world.step(1.0 / 60.0, 4).unwrap();
        }
        world.stop_recording().unwrap().as_bytes().to_vec()
    })
}

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    let buffer = if mode % 2 == 0 {
        rest.to_vec()
    } else {
        let seed = seed_recording();
        let mut body = seed[..seed.len() - 8].to_vec();
        // (position u16, xor mask) triples; a 0x80 mode bit truncates.
        for chunk in rest.chunks_exact(3) {
            let at = usize::from(u16::from_le_bytes([chunk[0], chunk[1]]));
            if at < body.len() {
                body[at] ^= chunk[2];
            }
        }
        if mode & 0x80 != 0 && rest.len() >= 2 {
            let cut = usize::from(u16::from_le_bytes([rest[0], rest[1]]));
            body.truncate(cut.min(body.len()));
        }
        let sum = fnv1a(&body);
        body.extend_from_slice(&sum.to_le_bytes());
        body
    };
    let Ok(recording) = Recording::from_bytes(&buffer) else {
        return;
    };
    let Ok(mut replay) = Replay::new(&recording, 1) else {
        return;
    };
    // Altered steps may be long (up to 1024 substeps): a bounded number.
    for _ in 0..64 {
        match replay.step() {
            Ok(Some(_)) => {}
            Ok(None) | Err(_) => break,
        }
    }
    replay.world().validate().unwrap();
});
