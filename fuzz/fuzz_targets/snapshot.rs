//! `Snapshot::from_bytes` and `World::restore` on arbitrary and on corrupted
//! snapshot bytes.
//!
//! The first input byte picks the mode. Even: the rest is taken as a whole
//! buffer (almost always rejected by the envelope). Odd: a valid snapshot of a
//! small busy world is corrupted at the positions the input names (xor
//! masks), truncated or not, and then given a correct envelope again (length
//! and FNV-1a checksum recomputed here, from docs/snapshot-format.md), so the
//! decoder and the consistency checks behind the checksum are exercised.
//!
//! Properties: nothing panics; a rejected buffer (by `Snapshot::from_bytes`
//! or by `World::restore`) leaves the restoring world exactly as it was (same
//! snapshot bytes); an accepted one restores a world that `validate()` passes,
//! steps without error or panic, and is still valid after five steps.
#![no_main]

use impulse2d::collision::make_box;
use impulse2d::{
    BodyDef, BodyType, RevoluteJointDef, JointDef, ShapeDef, Snapshot, Vec2, World, WorldDef,
};
use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;

const HEADER: usize = 20;

fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// A world with a stack, a joint, contacts and a sleeping body: its
/// snapshot bytes.
fn seed_snapshot() -> &'static [u8] {
    static BYTES: OnceLock<Vec<u8>> = OnceLock::new();
    BYTES.get_or_init(|| {
        let mut world = World::new(&WorldDef::default()).unwrap();
        let ground = world.create_body(&BodyDef::default()).unwrap();
        world
            .create_polygon_shape(ground, &ShapeDef::default(), &make_box(5.0, 0.5).unwrap())
            .unwrap();
        let mut last = ground;
        for i in 0..4 {
            let b = world
                .create_body(&BodyDef {
                    body_type: BodyType::Dynamic,
                    position: Vec2::new(0.1 * i as f32, 1.0 + 0.5 * i as f32),
                    ..BodyDef::default()
                })
                .unwrap();
            world
                .create_polygon_shape(b, &ShapeDef::default(), &make_box(0.25, 0.25).unwrap())
                .unwrap();
            if i == 3 {
                world
                    .create_revolute_joint(&RevoluteJointDef {
                        base: JointDef {
                            body_a: last,
                            body_b: b,
                            ..JointDef::default()
                        },
                        ..RevoluteJointDef::default()
                    })
                    .unwrap();
            }
            last = b;
        }
        for _ in 0..40 {
            world.step(1.0 / 60.0, 4).unwrap();
        }
        world.snapshot().to_bytes()
    })
}

/// Rewrites the envelope of `bytes` (length and checksum) so that it passes.
fn seal(mut bytes: Vec<u8>) -> Vec<u8> {
    if bytes.len() < HEADER {
        return bytes;
    }
    let len = (bytes.len() - HEADER) as u64;
    bytes[12..20].copy_from_slice(&len.to_le_bytes());
    let sum = fnv1a(&bytes);
    bytes.extend_from_slice(&sum.to_le_bytes());
    bytes
}

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    let buffer = if mode % 2 == 0 {
        rest.to_vec()
    } else {
        let seed = seed_snapshot();
        let mut body = seed[..seed.len() - 8].to_vec();
        // (position u16, xor mask) triples; a 0xff mode bit truncates.
        for chunk in rest.chunks_exact(3) {
            let at = HEADER + usize::from(u16::from_le_bytes([chunk[0], chunk[1]]));
            if at < body.len() {
                body[at] ^= chunk[2];
            }
        }
        if mode & 0x80 != 0 && rest.len() >= 2 {
            let cut = HEADER + usize::from(u16::from_le_bytes([rest[0], rest[1]]));
            body.truncate(cut.min(body.len()));
        }
        seal(body)
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
