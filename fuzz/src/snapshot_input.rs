//! What a `snapshot` fuzz input means, shared by the fuzz target and by
//! `crates/impulse2d/tests/suite/fuzz_regressions.rs` (which includes this file by
//! path, so that the saved inputs replay exactly as the target read them).
//!
//! The first input byte picks the mode. A multiple of 4: the rest is taken as
//! a whole buffer (almost always rejected by the envelope). Odd: a valid
//! snapshot of a small busy world ([`seed_snapshot`]) is corrupted at the
//! positions the input names ((position u16, xor mask) triples, positions
//! counted from the end of the 20-byte header), truncated if bit 7 of the
//! mode byte is set (at the position the first two bytes of the rest name),
//! and then given a correct envelope again (length and FNV-1a checksum
//! recomputed here, from docs/snapshot-format.md), so the decoder and the
//! consistency checks behind the checksum are exercised. Two more than a
//! multiple of 4: the same with a world of every joint type, with springs,
//! limits and motors on ([`joint_seed_snapshot`]), so that joint settings are
//! corrupted too.

use impulse2d::collision::make_box;
use impulse2d::{
    BodyDef, BodyId, BodyType, DistanceJointDef, FilterJointDef, JointDef, MotorJointDef,
    MouseJointDef, MoverJointDef, PogoJointDef, PrismaticJointDef, RevoluteJointDef, ShapeDef,
    Vec2, WeldJointDef, WheelJointDef, World, WorldDef,
};
use std::sync::OnceLock;

/// Bytes before the payload: magic, version, payload length.
const HEADER: usize = 20;

/// FNV-1a, 64-bit: the snapshot checksum (and the recording's).
pub(crate) fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// A world with a static ground box `half_width` wide each way and 0.5 high
/// at the origin (the seeds' and the `replay` target's start).
pub(crate) fn ground_world(half_width: f32) -> (World, BodyId) {
    let mut world = World::new(&WorldDef::default()).unwrap();
    let ground = world.create_body(&BodyDef::default()).unwrap();
    world
        .create_polygon_shape(
            ground,
            &ShapeDef::default(),
            &make_box(half_width, 0.5).unwrap(),
        )
        .unwrap();
    (world, ground)
}

/// A dynamic box 0.5 wide at (`x`, `y`).
pub(crate) fn dynamic_box(world: &mut World, x: f32, y: f32) -> BodyId {
    let b = world
        .create_body(&BodyDef {
            body_type: BodyType::Dynamic,
            position: Vec2::new(x, y),
            ..BodyDef::default()
        })
        .unwrap();
    world
        .create_polygon_shape(b, &ShapeDef::default(), &make_box(0.25, 0.25).unwrap())
        .unwrap();
    b
}

/// A revolute joint between `a` and `b` with the default settings.
pub(crate) fn hinge(world: &mut World, a: BodyId, b: BodyId) {
    world
        .create_revolute_joint(&RevoluteJointDef {
            base: JointDef {
                body_a: a,
                body_b: b,
                ..JointDef::default()
            },
            ..RevoluteJointDef::default()
        })
        .unwrap();
}

/// The snapshot bytes of a world with a stack, a joint, contacts and a
/// sleeping body.
pub fn seed_snapshot() -> &'static [u8] {
    static BYTES: OnceLock<Vec<u8>> = OnceLock::new();
    BYTES.get_or_init(|| {
        let (mut world, mut last) = ground_world(5.0);
        for i in 0..4 {
            let b = dynamic_box(&mut world, 0.1 * i as f32, 1.0 + 0.5 * i as f32);
            if i == 3 {
                hinge(&mut world, last, b);
            }
            last = b;
        }
        for _ in 0..40 {
            world.step(1.0 / 60.0, 4).unwrap();
        }
        world.snapshot().to_bytes()
    })
}

/// The snapshot bytes of a world with one joint of every type between a
/// static ground and a row of boxes (springs, limits and motors on where the
/// type has them), stepped until the joints hold impulses.
pub fn joint_seed_snapshot() -> &'static [u8] {
    static BYTES: OnceLock<Vec<u8>> = OnceLock::new();
    BYTES.get_or_init(|| {
        let (mut world, ground) = ground_world(8.0);
        let bodies: Vec<_> = (0..10)
            .map(|i| dynamic_box(&mut world, 1.5 * i as f32 - 7.0, 2.0))
            .collect();
        let base = |i: usize| JointDef {
            body_a: ground,
            body_b: bodies[i],
            local_anchor_a: Vec2::new(1.5 * i as f32 - 7.0, 1.5),
            constraint_hertz: Some(30.0),
            constraint_damping_ratio: Some(2.0),
            force_threshold: 1.0e4,
            torque_threshold: 1.0e4,
            ..JointDef::default()
        };
        world
            .create_revolute_joint(&RevoluteJointDef {
                base: base(0),
                enable_spring: true,
                hertz: 2.0,
                damping_ratio: 0.3,
                enable_limit: true,
                lower_angle: -0.5,
                upper_angle: 0.5,
                enable_motor: true,
                motor_speed: 1.0,
                max_motor_torque: 5.0,
                ..RevoluteJointDef::default()
            })
            .unwrap();
        world
            .create_prismatic_joint(&PrismaticJointDef {
                base: base(1),
                enable_spring: true,
                hertz: 1.5,
                damping_ratio: 0.4,
                enable_limit: true,
                lower_translation: -0.4,
                upper_translation: 0.6,
                enable_motor: true,
                motor_speed: 0.5,
                max_motor_force: 20.0,
                ..PrismaticJointDef::default()
            })
            .unwrap();
        world
            .create_wheel_joint(&WheelJointDef {
                base: base(2),
                enable_limit: true,
                lower_translation: -0.3,
                upper_translation: 0.3,
                enable_motor: true,
                motor_speed: 2.0,
                max_motor_torque: 3.0,
                ..WheelJointDef::default()
            })
            .unwrap();
        world
            .create_distance_joint(&DistanceJointDef {
                base: base(3),
                length: 0.75,
                enable_spring: true,
                hertz: 4.0,
                damping_ratio: 0.5,
                lower_spring_force: -50.0,
                upper_spring_force: 60.0,
                enable_limit: true,
                min_length: 0.5,
                max_length: 1.25,
                enable_motor: true,
                motor_speed: 0.25,
                max_motor_force: 10.0,
            })
            .unwrap();
        world
            .create_weld_joint(&WeldJointDef {
                base: base(4),
                linear_hertz: 5.0,
                linear_damping_ratio: 0.7,
                angular_hertz: 3.0,
                angular_damping_ratio: 0.2,
                ..WeldJointDef::default()
            })
            .unwrap();
        world
            .create_motor_joint(&MotorJointDef {
                base: base(5),
                linear_offset: Vec2::new(0.1, 0.2),
                angular_offset: 0.3,
                max_force: 40.0,
                max_torque: 8.0,
                linear_velocity: Vec2::new(0.5, 0.0),
                max_velocity_force: 15.0,
                angular_velocity: 0.5,
                max_velocity_torque: 6.0,
                linear_hertz: 2.5,
                linear_damping_ratio: 0.9,
                max_spring_force: 30.0,
                angular_hertz: 1.25,
                angular_damping_ratio: 0.6,
                max_spring_torque: 7.0,
                ..MotorJointDef::default()
            })
            .unwrap();
        world
            .create_mouse_joint(&MouseJointDef {
                base: base(6),
                target: Vec2::new(2.0, 3.0),
                hertz: 6.0,
                damping_ratio: 0.8,
                max_force: 90.0,
            })
            .unwrap();
        world
            .create_mover_joint(&MoverJointDef {
                base: base(7),
                linear_velocity: Vec2::new(0.3, -0.2),
                max_velocity_force: Vec2::new(25.0, 35.0),
            })
            .unwrap();
        world
            .create_pogo_joint(&PogoJointDef {
                base: base(8),
                hertz: 3.5,
                damping_ratio: 0.45,
                rest_length: 0.6,
                max_tension_force: 70.0,
                max_compression_force: 80.0,
                ..PogoJointDef::default()
            })
            .unwrap();
        world
            .create_filter_joint(&FilterJointDef { base: base(9) })
            .unwrap();
        for _ in 0..20 {
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
    let seed = match mode % 4 {
        0 => return Some(rest.to_vec()),
        2 => joint_seed_snapshot(),
        _ => seed_snapshot(),
    };
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

/// The bytes of a recording of a small busy world: the `replay` target's seed
/// (logged body calls, a box created mid-recording, steps and keyframes).
pub fn seed_recording() -> &'static [u8] {
    static BYTES: OnceLock<Vec<u8>> = OnceLock::new();
    BYTES.get_or_init(|| {
        let (mut world, _) = ground_world(5.0);
        let a = dynamic_box(&mut world, 0.0, 1.0);
        let b = dynamic_box(&mut world, 0.1, 1.5);
        hinge(&mut world, a, b);
        world.start_recording(2).unwrap();
        for i in 0..12 {
            let mut body = world.body_mut(a).unwrap();
            body.apply_force_to_center(Vec2::new(1.0, 0.0), true)
                .unwrap();
            body.apply_angular_impulse(0.01, true).unwrap();
            if i == 6 {
                dynamic_box(&mut world, -1.0, 2.0);
            }
            world.step(1.0 / 60.0, 4).unwrap();
        }
        world.stop_recording().unwrap().as_bytes().to_vec()
    })
}

/// The recording buffer a `replay` fuzz input stands for (`None` for an empty
/// input). The first byte picks the mode. Even: the rest is taken as a whole
/// buffer. Odd: [`seed_recording`] is corrupted at the positions the input
/// names ((position u16, xor mask) triples, counted from the buffer's start),
/// truncated if bit 7 of the mode byte is set (at the position the first two
/// bytes of the rest name), and given its FNV-1a checksum again
/// (docs/recording-format.md).
pub fn recording_buffer(data: &[u8]) -> Option<Vec<u8>> {
    let (&mode, rest) = data.split_first()?;
    if mode % 2 == 0 {
        return Some(rest.to_vec());
    }
    let seed = seed_recording();
    let mut body = seed[..seed.len() - 8].to_vec();
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
    Some(body)
}
