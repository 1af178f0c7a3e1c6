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

use impulse2d::{Recording, Replay};
use libfuzzer_sys::fuzz_target;

// The input's meaning (shared with crates/impulse2d/tests/suite/fuzz_regressions.rs).
#[allow(dead_code)]
#[path = "../src/snapshot_input.rs"]
mod snapshot_input;

fuzz_target!(|data: &[u8]| {
    let Some(buffer) = snapshot_input::recording_buffer(data) else {
        return;
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
