//! Broad-phase benchmarks: our `DynamicTree` / `BroadPhase` beside parry2d's `Bvh`
//! (the BVH Rapier uses) and brute force, on the same boxes.
//!
//! For n = 1,000, 10,000 and 100,000 boxes (half-sizes 0.1–0.6 m, scattered so that
//! the density stays constant as n grows):
//! - `build`: insert every box into an empty structure (ours also followed by a full
//!   rebuild; parry's also by its bulk binned build);
//! - `step`: 10% of the boxes move by up to 0.3 m; boxes that leave their fat box
//!   (margin 0.1 m) are updated, then all overlapping pairs involving a moved box
//!   are found;
//! - `ray`: 1,000 ray casts of up to 20 m, closest hit against the boxes;
//! - `query`: 1,000 box queries of 4 m × 4 m, counting the overlaps.
//!
//! Ray casts and queries run on our tree as built by insertion (`tree`) and after a
//! full rebuild (`tree_rebuilt`, depth-first node layout); parry's tree is bulk-built.
//!
//! Run with `cargo bench -p impulse2d --bench broad_phase`.

#[path = "../tests/common/rng.rs"]
mod rng;
#[path = "../tests/common/slab.rs"]
mod slab;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use impulse2d::BodyType;
use impulse2d::broad_phase::{BroadPhase, ProxyKey};
use impulse2d::collision::{Aabb, DynamicTree, RayCastInput};
use impulse2d::math::Vec2;
use parry2d::bounding_volume::Aabb as PAabb;
use parry2d::math::Vector as PVec;
use parry2d::partitioning::{Bvh, BvhBuildStrategy, BvhWorkspace};
use parry2d::query::Ray as PRay;
use rng::Rng;
use slab::ray_box;
use std::hint::black_box;
use std::time::Duration;

const SIZES: [usize; 3] = [1_000, 10_000, 100_000];
/// Brute force only up to this many boxes.
const BRUTE_MAX: usize = 10_000;
const MARGIN: f32 = 0.1;
const CASTS: usize = 1_000;

fn world_size(n: usize) -> f32 {
    (n as f32).sqrt() * 2.0
}

fn tight_boxes(n: usize, seed: u64) -> Vec<Aabb> {
    let mut rng = Rng::new(seed);
    let w = world_size(n);
    (0..n)
        .map(|_| {
            let c = Vec2::new(rng.range(0.0, w), rng.range(0.0, w));
            let h = Vec2::new(rng.range(0.1, 0.6), rng.range(0.1, 0.6));
            Aabb::new(c - h, c + h)
        })
        .collect()
}

fn rays(n: usize) -> Vec<RayCastInput> {
    let mut rng = Rng::new(99);
    let w = world_size(n);
    (0..CASTS)
        .map(|_| RayCastInput {
            origin: Vec2::new(rng.range(0.0, w), rng.range(0.0, w)),
            translation: Vec2::new(rng.range(-14.0, 14.0), rng.range(-14.0, 14.0)),
            max_fraction: 1.0,
        })
        .collect()
}

fn query_boxes(n: usize) -> Vec<Aabb> {
    let mut rng = Rng::new(98);
    let w = world_size(n);
    (0..CASTS)
        .map(|_| {
            let c = Vec2::new(rng.range(0.0, w), rng.range(0.0, w));
            Aabb::new(c - Vec2::new(2.0, 2.0), c + Vec2::new(2.0, 2.0))
        })
        .collect()
}

fn to_parry(b: &Aabb) -> PAabb {
    PAabb::new(
        PVec::new(b.lower.x, b.lower.y),
        PVec::new(b.upper.x, b.upper.y),
    )
}

/// The moving boxes of the step benchmark: tight and fat boxes, and which tenth moves
/// next.
struct Motion {
    tight: Vec<Aabb>,
    fat: Vec<Aabb>,
    rng: Rng,
    next: usize,
}

impl Motion {
    fn new(n: usize) -> Motion {
        let tight = tight_boxes(n, 1);
        let fat = tight.iter().map(|b| b.fattened(MARGIN)).collect();
        Motion {
            tight,
            fat,
            rng: Rng::new(2),
            next: 0,
        }
    }

    /// Moves the next tenth of the boxes; calls `update(index, tight, new_fat)` for
    /// those that left their fat box.
    fn advance(&mut self, mut update: impl FnMut(usize, Aabb, Aabb)) {
        let n = self.tight.len();
        let count = n / 10;
        for k in 0..count {
            let i = (self.next + k) % n;
            let d = Vec2::new(self.rng.range(-0.3, 0.3), self.rng.range(-0.3, 0.3));
            let t = Aabb::new(self.tight[i].lower + d, self.tight[i].upper + d);
            self.tight[i] = t;
            if !self.fat[i].contains(&t) {
                self.fat[i] = t.fattened(MARGIN);
                update(i, t, self.fat[i]);
            }
        }
        self.next = (self.next + count) % n;
    }
}

fn bench_build(c: &mut Criterion) {
    let mut group = c.benchmark_group("build");
    for n in SIZES {
        let fat: Vec<Aabb> = tight_boxes(n, 1)
            .iter()
            .map(|b| b.fattened(MARGIN))
            .collect();
        let parry_boxes: Vec<PAabb> = fat.iter().map(to_parry).collect();
        group.bench_with_input(BenchmarkId::new("tree_insert", n), &n, |b, _| {
            b.iter(|| {
                let mut tree = DynamicTree::new();
                for (i, f) in fat.iter().enumerate() {
                    tree.create_proxy(*f, 1, i as u64).unwrap();
                }
                black_box(tree.height())
            })
        });
        group.bench_with_input(BenchmarkId::new("tree_insert_rebuild", n), &n, |b, _| {
            b.iter(|| {
                let mut tree = DynamicTree::new();
                for (i, f) in fat.iter().enumerate() {
                    tree.create_proxy(*f, 1, i as u64).unwrap();
                }
                tree.rebuild(true);
                black_box(tree.height())
            })
        });
        group.bench_with_input(BenchmarkId::new("parry_insert", n), &n, |b, _| {
            b.iter(|| {
                let mut bvh = Bvh::new();
                for (i, f) in parry_boxes.iter().enumerate() {
                    bvh.insert(*f, i as u32);
                }
                black_box(bvh.leaf_count())
            })
        });
        group.bench_with_input(BenchmarkId::new("parry_from_leaves", n), &n, |b, _| {
            b.iter(|| {
                black_box(Bvh::from_leaves(BvhBuildStrategy::Binned, &parry_boxes).leaf_count())
            })
        });
    }
    group.finish();
}

/// One step of our broad phase and of parry's BVH from the same start: the same pairs.
fn check_step_agreement(n: usize) {
    let mut motion = Motion::new(n);
    let mut bp = BroadPhase::new();
    let keys: Vec<ProxyKey> = motion
        .fat
        .iter()
        .enumerate()
        .map(|(i, f)| {
            bp.create_proxy(*f, 1, i as u32, BodyType::Dynamic, false)
                .unwrap()
        })
        .collect();
    let mut pairs = Vec::new();
    bp.update_pairs(|_, _| true, &mut pairs);
    let parry_boxes: Vec<PAabb> = motion.fat.iter().map(to_parry).collect();
    let mut bvh = Bvh::from_leaves(BvhBuildStrategy::Binned, &parry_boxes);
    let mut ws = BvhWorkspace::default();
    bvh.refit(&mut ws);
    bvh.refit(&mut ws); // clears the "changed" marks of the build

    motion.advance(|i, tight, fat| {
        bp.move_proxy(keys[i], fat).unwrap();
        bvh.insert_or_update_partially(to_parry(&tight), i as u32, MARGIN);
    });
    bp.update_pairs(|_, _| true, &mut pairs);
    bvh.refit(&mut ws);
    let mut theirs = Vec::new();
    bvh.traverse_bvtt_single_tree::<true>(&mut ws, &mut |a, b| theirs.push((a.min(b), a.max(b))));
    pairs.sort_unstable();
    theirs.sort_unstable();
    theirs.dedup();
    assert_eq!(
        pairs, theirs,
        "broad phase and parry disagree on the pairs of a step"
    );
}

fn bench_step(c: &mut Criterion) {
    let mut group = c.benchmark_group("step");
    for n in SIZES {
        check_step_agreement(n);
        // Our broad phase, re-inserting moved proxies.
        {
            let mut motion = Motion::new(n);
            let mut bp = BroadPhase::new();
            let keys: Vec<ProxyKey> = motion
                .fat
                .iter()
                .enumerate()
                .map(|(i, f)| {
                    bp.create_proxy(*f, 1, i as u32, BodyType::Dynamic, false)
                        .unwrap()
                })
                .collect();
            let mut pairs = Vec::new();
            bp.update_pairs(|_, _| true, &mut pairs);
            group.bench_with_input(BenchmarkId::new("broadphase_move", n), &n, |b, _| {
                b.iter(|| {
                    motion.advance(|i, _, fat| bp.move_proxy(keys[i], fat).unwrap());
                    bp.update_pairs(|_, _| true, &mut pairs);
                    black_box(pairs.len())
                })
            });
        }
        // Our broad phase as Box2D v3 steps it: enlarge, find pairs, partial rebuild.
        {
            let mut motion = Motion::new(n);
            let mut bp = BroadPhase::new();
            let keys: Vec<ProxyKey> = motion
                .fat
                .iter()
                .enumerate()
                .map(|(i, f)| {
                    bp.create_proxy(*f, 1, i as u32, BodyType::Dynamic, false)
                        .unwrap()
                })
                .collect();
            let mut pairs = Vec::new();
            bp.update_pairs(|_, _| true, &mut pairs);
            group.bench_with_input(
                BenchmarkId::new("broadphase_enlarge_rebuild", n),
                &n,
                |b, _| {
                    b.iter(|| {
                        motion.advance(|i, _, fat| bp.enlarge_proxy(keys[i], fat).unwrap());
                        bp.update_pairs(|_, _| true, &mut pairs);
                        bp.rebuild_trees();
                        black_box(pairs.len())
                    })
                },
            );
        }
        // parry2d: in-place leaf updates with change detection, refit, then the
        // self-traversal restricted to changed leaves (as Rapier's broad phase).
        {
            let mut motion = Motion::new(n);
            let parry_boxes: Vec<PAabb> = motion.fat.iter().map(to_parry).collect();
            let mut bvh = Bvh::from_leaves(BvhBuildStrategy::Binned, &parry_boxes);
            let mut ws = BvhWorkspace::default();
            let mut pairs: Vec<(u32, u32)> = Vec::new();
            group.bench_with_input(BenchmarkId::new("parry_refit", n), &n, |b, _| {
                b.iter(|| {
                    motion.advance(|i, tight, _| {
                        bvh.insert_or_update_partially(to_parry(&tight), i as u32, MARGIN);
                    });
                    bvh.refit(&mut ws);
                    pairs.clear();
                    bvh.traverse_bvtt_single_tree::<true>(&mut ws, &mut |a, b| pairs.push((a, b)));
                    black_box(pairs.len())
                })
            });
        }
        if n <= BRUTE_MAX {
            let mut motion = Motion::new(n);
            let mut moved = Vec::new();
            let mut pairs: Vec<(u32, u32)> = Vec::new();
            group.bench_with_input(BenchmarkId::new("brute_force", n), &n, |b, _| {
                b.iter(|| {
                    moved.clear();
                    motion.advance(|i, _, _| moved.push(i));
                    pairs.clear();
                    for &i in &moved {
                        let fi = motion.fat[i];
                        for (j, fj) in motion.fat.iter().enumerate() {
                            if j != i && fi.overlaps(fj) {
                                pairs.push((i as u32, j as u32));
                            }
                        }
                    }
                    black_box(pairs.len())
                })
            });
        }
    }
    group.finish();
}

fn bench_ray(c: &mut Criterion) {
    let mut group = c.benchmark_group("ray");
    for n in SIZES {
        let fat: Vec<Aabb> = tight_boxes(n, 1)
            .iter()
            .map(|b| b.fattened(MARGIN))
            .collect();
        let rays = rays(n);
        let mut tree = DynamicTree::new();
        for (i, f) in fat.iter().enumerate() {
            tree.create_proxy(*f, 1, i as u64).unwrap();
        }
        let mut rebuilt = tree.clone();
        rebuilt.rebuild(true);
        for (name, tree) in [("tree", &tree), ("tree_rebuilt", &rebuilt)] {
            group.bench_with_input(BenchmarkId::new(name, n), &n, |b, _| {
                b.iter(|| {
                    let mut hits = 0u32;
                    for ray in &rays {
                        let mut best = ray.max_fraction;
                        tree.ray_cast(ray, u64::MAX, |input, _, data| {
                            match ray_box(
                                &fat[data as usize],
                                input.origin,
                                input.translation,
                                input.max_fraction,
                            ) {
                                Some(t) => {
                                    best = best.min(t);
                                    t
                                }
                                None => -1.0,
                            }
                        });
                        hits += u32::from(best < ray.max_fraction);
                    }
                    black_box(hits)
                })
            });
        }

        let parry_boxes: Vec<PAabb> = fat.iter().map(to_parry).collect();
        let bvh = Bvh::from_leaves(BvhBuildStrategy::Binned, &parry_boxes);
        // The closest hits must agree before their speed is compared.
        for ray in &rays {
            let mut ours = None::<f32>;
            tree.ray_cast(ray, u64::MAX, |input, _, data| {
                match ray_box(
                    &fat[data as usize],
                    input.origin,
                    input.translation,
                    input.max_fraction,
                ) {
                    Some(t) => {
                        ours = Some(ours.map_or(t, |o| o.min(t)));
                        t
                    }
                    None => -1.0,
                }
            });
            let pray = PRay::new(
                PVec::new(ray.origin.x, ray.origin.y),
                PVec::new(ray.translation.x, ray.translation.y),
            );
            let theirs = bvh.cast_ray(&pray, ray.max_fraction, |leaf, best| {
                ray_box(&fat[leaf as usize], ray.origin, ray.translation, best)
            });
            let brute = fat
                .iter()
                .filter_map(|f| ray_box(f, ray.origin, ray.translation, ray.max_fraction))
                .reduce(f32::min);
            assert_eq!(ours, brute);
            assert_eq!(theirs.map(|h| h.1), brute);
        }
        group.bench_with_input(BenchmarkId::new("parry", n), &n, |b, _| {
            b.iter(|| {
                let mut hits = 0u32;
                for ray in &rays {
                    let pray = PRay::new(
                        PVec::new(ray.origin.x, ray.origin.y),
                        PVec::new(ray.translation.x, ray.translation.y),
                    );
                    let hit = bvh.cast_ray(&pray, ray.max_fraction, |leaf, best| {
                        ray_box(&fat[leaf as usize], ray.origin, ray.translation, best)
                    });
                    hits += u32::from(hit.is_some());
                }
                black_box(hits)
            })
        });

        if n <= BRUTE_MAX {
            group.bench_with_input(BenchmarkId::new("brute_force", n), &n, |b, _| {
                b.iter(|| {
                    let mut hits = 0u32;
                    for ray in &rays {
                        let mut best = ray.max_fraction;
                        for f in &fat {
                            if let Some(t) = ray_box(f, ray.origin, ray.translation, best) {
                                best = t;
                            }
                        }
                        hits += u32::from(best < ray.max_fraction);
                    }
                    black_box(hits)
                })
            });
        }
    }
    group.finish();
}

fn bench_query(c: &mut Criterion) {
    let mut group = c.benchmark_group("query");
    for n in SIZES {
        let fat: Vec<Aabb> = tight_boxes(n, 1)
            .iter()
            .map(|b| b.fattened(MARGIN))
            .collect();
        let queries = query_boxes(n);
        let mut tree = DynamicTree::new();
        for (i, f) in fat.iter().enumerate() {
            tree.create_proxy(*f, 1, i as u64).unwrap();
        }
        let mut rebuilt = tree.clone();
        rebuilt.rebuild(true);
        for (name, tree) in [("tree", &tree), ("tree_rebuilt", &rebuilt)] {
            group.bench_with_input(BenchmarkId::new(name, n), &n, |b, _| {
                b.iter(|| {
                    let mut count = 0usize;
                    for q in &queries {
                        tree.query(*q, u64::MAX, |_, _| {
                            count += 1;
                            true
                        });
                    }
                    black_box(count)
                })
            });
        }

        let parry_boxes: Vec<PAabb> = fat.iter().map(to_parry).collect();
        let bvh = Bvh::from_leaves(BvhBuildStrategy::Binned, &parry_boxes);
        let parry_queries: Vec<PAabb> = queries.iter().map(to_parry).collect();
        group.bench_with_input(BenchmarkId::new("parry", n), &n, |b, _| {
            b.iter(|| {
                let mut count = 0usize;
                for q in &parry_queries {
                    count += bvh.intersect_aabb(q).count();
                }
                black_box(count)
            })
        });

        // The three must agree before their speed is compared.
        for (q, pq) in queries.iter().zip(&parry_queries) {
            let mut ours = 0;
            tree.query(*q, u64::MAX, |_, _| {
                ours += 1;
                true
            });
            assert_eq!(ours, bvh.intersect_aabb(pq).count());
            assert_eq!(ours, fat.iter().filter(|f| f.overlaps(q)).count());
        }

        if n <= BRUTE_MAX {
            group.bench_with_input(BenchmarkId::new("brute_force", n), &n, |b, _| {
                b.iter(|| {
                    let mut count = 0usize;
                    for q in &queries {
                        count += fat.iter().filter(|f| f.overlaps(q)).count();
                    }
                    black_box(count)
                })
            });
        }
    }
    group.finish();
}

fn config() -> Criterion {
    Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(1))
}

criterion_group! {
    name = benches;
    config = config();
    targets = bench_build, bench_step, bench_ray, bench_query
}
criterion_main!(benches);
