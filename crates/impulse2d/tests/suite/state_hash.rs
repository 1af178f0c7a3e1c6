//! `World::state_hash`: what it covers, worked out independently through the
//! public getters, and that it is the same on every worker count.

use crate::build;

use impulse2d::{BodyDef, BodyType, World};

/// 64-bit FNV-1a over little-endian bytes, written out here from the
/// published definition (offset basis 0xcbf29ce484222325, prime 2⁴⁰ + 0x1b3).
fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// The documented hash: per live body in id order, its index, transform,
/// linear and angular velocity, as little-endian bytes.
fn expected_hash(world: &World) -> u64 {
    let mut bytes = Vec::new();
    for id in world.body_ids() {
        let b = world.body(id).unwrap();
        bytes.extend_from_slice(&id.index().to_le_bytes());
        let xf = b.transform();
        let v = b.linear_velocity();
        // The position's coordinates: `f64` (eight bytes each) with `large-world`.
        for x in [xf.p.x, xf.p.y] {
            bytes.extend_from_slice(&x.to_bits().to_le_bytes());
        }
        for x in [xf.q.c, xf.q.s, v.x, v.y, b.angular_velocity()] {
            bytes.extend_from_slice(&x.to_bits().to_le_bytes());
        }
    }
    fnv1a(&bytes)
}

fn scene(workers: usize) -> World {
    let mut world = build::world_with_workers(workers);
    impulse2d_scenes::build("pyramid", &mut world).unwrap();
    world
}

#[test]
fn empty_world_hashes_to_the_fnv_offset_basis() {
    let world = build::world();
    assert_eq!(world.state_hash(), 0xcbf2_9ce4_8422_2325);
}

#[test]
fn hash_is_fnv1a_of_every_body_motion_in_id_order() {
    let mut world = scene(1);
    // A destroyed body leaves a gap in the ids: it must be skipped.
    let extra = world
        .create_body(&BodyDef {
            body_type: BodyType::Dynamic,
            ..BodyDef::default()
        })
        .unwrap();
    world.destroy_body(extra).unwrap();
    for _ in 0..30 {
        world.step(1.0 / 60.0, 4).unwrap();
        assert_eq!(world.state_hash(), expected_hash(&world));
    }
}

#[test]
fn hash_sees_a_velocity_change_alone() {
    let mut world = scene(1);
    world.step(1.0 / 60.0, 4).unwrap();
    let before = world.state_hash();
    let id = world.body_ids().last().unwrap();
    let v = world.body(id).unwrap().linear_velocity();
    world
        .body_mut(id)
        .unwrap()
        .set_linear_velocity(impulse2d::Vec2::new(v.x + 1.0, v.y))
        .unwrap();
    assert_ne!(world.state_hash(), before);
}

#[test]
fn hash_is_the_same_on_1_2_and_4_workers() {
    let mut worlds: Vec<World> = [1, 2, 4].into_iter().map(scene).collect();
    for _ in 0..60 {
        for w in &mut worlds {
            w.step(1.0 / 60.0, 4).unwrap();
        }
        let h = worlds[0].state_hash();
        assert!(worlds.iter().all(|w| w.state_hash() == h));
    }
}
