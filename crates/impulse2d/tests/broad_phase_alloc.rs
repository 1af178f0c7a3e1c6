//! The broad phase's steady state allocates nothing: moving proxies, `update_pairs`,
//! partial rebuilds, queries and ray casts reuse their buffers. Checked with a
//! counting global allocator (this file holds a single test so that no other test's
//! allocations are counted).

mod alloc_count;

use alloc_count::allocations_during;
use impulse2d::BodyType;
use impulse2d::broad_phase::{BroadPhase, ProxyKey};
use impulse2d::collision::{Aabb, RayCastInput};
use impulse2d::math::Vec2;

/// A small linear congruential generator: enough to scatter boxes.
struct Lcg(u64);

impl Lcg {
    fn unit(&mut self) -> f32 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 40) as f32 / (1u64 << 24) as f32
    }
}

#[test]
fn steady_state_allocates_nothing() {
    let n = 2000;
    let world = 90.0;
    let mut rng = Lcg(5);
    let mut bp = BroadPhase::new();
    let mut boxes = Vec::new();
    let mut keys: Vec<ProxyKey> = Vec::new();
    for i in 0..n {
        let c = Vec2::new(rng.unit() * world, rng.unit() * world);
        let b = Aabb::new(c - Vec2::new(0.5, 0.5), c + Vec2::new(0.5, 0.5));
        let body_type = if i % 5 == 0 {
            BodyType::Static
        } else {
            BodyType::Dynamic
        };
        keys.push(bp.create_proxy(b, 1, i as u32, body_type, false).unwrap());
        boxes.push(b);
    }
    let mut pairs = Vec::with_capacity(0);

    // One step. `every` selects the proxies that move; `enlarge` picks the update.
    let mut step = |bp: &mut BroadPhase,
                    rng: &mut Lcg,
                    pairs: &mut Vec<(u32, u32)>,
                    every: usize,
                    enlarge: bool| {
        for (i, key) in keys.iter().enumerate() {
            if key.body_type() != BodyType::Dynamic || rng.unit() * every as f32 >= 1.0 {
                continue;
            }
            let d = Vec2::new(rng.unit() - 0.5, rng.unit() - 0.5);
            let b = Aabb::new(boxes[i].lower + d, boxes[i].upper + d);
            boxes[i] = b;
            if enlarge {
                bp.enlarge_proxy(*key, b).unwrap();
            } else {
                bp.move_proxy(*key, b).unwrap();
            }
        }
        bp.update_pairs(|_, _| true, pairs);
        bp.rebuild_trees();
        let mut hits = 0;
        for k in 0..20 {
            let c = Vec2::new(k as f32 * 4.0, 45.0);
            bp.tree(BodyType::Dynamic).query(
                Aabb::new(c, c + Vec2::new(3.0, 3.0)),
                u64::MAX,
                |_, _| {
                    hits += 1;
                    true
                },
            );
            let ray = RayCastInput {
                origin: c,
                translation: Vec2::new(30.0, 7.0),
                max_fraction: 1.0,
            };
            bp.tree(BodyType::Static)
                .ray_cast(&ray, u64::MAX, |input, _, _| input.max_fraction);
        }
        hits
    };

    // Warm up with steps that move every dynamic proxy: the buffers reach their
    // largest sizes.
    for _ in 0..3 {
        step(&mut bp, &mut rng, &mut pairs, 1, true);
        step(&mut bp, &mut rng, &mut pairs, 1, false);
    }

    let mut found = 0;
    let allocations = allocations_during(|| {
        for s in 0..40 {
            found += step(&mut bp, &mut rng, &mut pairs, 10, s % 2 == 0);
        }
    });

    assert!(found > 0, "the queries should find proxies");
    assert_eq!(allocations, 0, "allocations in steady-state steps");
    bp.validate().unwrap();
}
