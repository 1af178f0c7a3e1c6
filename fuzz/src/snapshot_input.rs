//! What a `snapshot` fuzz input means, shared by the fuzz target and by
//! `crates/impulse2d/tests/fuzz_regressions.rs` (which includes this file by
//! path, so that the saved inputs replay exactly as the target read them).
//!
//! The first input byte picks the mode. Even: the rest is taken as a whole
//! buffer (almost always rejected by the envelope). Odd: a valid snapshot of a
//! small busy world ([`seed_snapshot`]) is corrupted at the positions the
//! input names ((position u16, xor mask) triples, positions counted from the
//! end of the 20-byte header), truncated if bit 7 of the mode byte is set (at
//! the position the first two bytes of the rest name), and then given a
//! correct envelope again (length and FNV-1a checksum recomputed here, from
//! docs/snapshot-format.md), so the decoder and the consistency checks behind
//! the checksum are exercised.

use impulse2d::collision::make_box;
use impulse2d::{BodyDef, BodyType, JointDef, RevoluteJointDef, ShapeDef, Vec2, World, WorldDef};
use std::sync::OnceLock;

/// Bytes before the payload: magic, version, payload length.
const HEADER: usize = 20;

/// FNV-1a, 64-bit: the snapshot checksum.
fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// The snapshot bytes of a world with a stack, a joint, contacts and a
/// sleeping body.
pub fn seed_snapshot() -> &'static [u8] {
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

/// The buffer a fuzz input stands for (`None` for an empty input).
pub fn snapshot_buffer(data: &[u8]) -> Option<Vec<u8>> {
    let (&mode, rest) = data.split_first()?;
    if mode % 2 == 0 {
        return Some(rest.to_vec());
    }
    let seed = seed_snapshot();
    let mut body = seed[..seed.len() - 8].to_vec();
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
    Some(seal(body))
}
