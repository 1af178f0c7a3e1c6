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

use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, BenchmarkId, Criterion, criterion_group, criterion_main};
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

/// The boxes of [`tight_boxes`] (seed 1) fattened by the margin.
fn fat_boxes(n: usize) -> Vec<Aabb> {
    tight_boxes(n, 1)
        .iter()
        .map(|b| b.fattened(MARGIN))
        .collect()
}

/// Our tree holding `fat`, box `i` with user data `i`, built by insertion.
fn tree_of(fat: &[Aabb]) -> DynamicTree {
    let mut tree = DynamicTree::new();
    for (i, f) in fat.iter().enumerate() {
        tree.create_proxy(*f, 1, i as u64).unwrap();
    }
    tree
}

/// [`tree_of`] `fat`, and the same tree after a full rebuild.
fn tree_and_rebuilt(fat: &[Aabb]) -> [(&'static str, DynamicTree); 2] {
    let tree = tree_of(fat);
    let mut rebuilt = tree.clone();
    rebuilt.rebuild(true);
    [("tree", tree), ("tree_rebuilt", rebuilt)]
}

/// Our broad phase holding the motion's fat boxes as dynamic proxies (shape
/// index = box index), its proxy keys, and its pairs after a first update.
fn broad_phase_of(motion: &Motion) -> (BroadPhase, Vec<ProxyKey>, Vec<(u32, u32)>) {
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
    (bp, keys, pairs)
}

/// The fraction of `ray` at which it first hits one of the boxes `fat` in
/// `tree` (the exact slab test on the box), if it hits one.
fn tree_closest_hit(tree: &DynamicTree, fat: &[Aabb], ray: &RayCastInput) -> Option<f32> {
    let mut closest = None::<f32>;
    tree.ray_cast(ray, u64::MAX, |input, _, data| {
        let box_ = &fat[data as usize];
        match ray_box(box_, input.origin, input.translation, input.max_fraction) {
            Some(t) => {
                closest = Some(closest.map_or(t, |o| o.min(t)));
                t
            }
            None => -1.0,
        }
    });
    closest
}

/// `ray` as parry's ray.
fn parry_ray(ray: &RayCastInput) -> PRay {
    PRay::new(
        PVec::new(ray.origin.x, ray.origin.y),
        PVec::new(ray.translation.x, ray.translation.y),
    )
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
        let fat = fat_boxes(n);
        let parry_boxes: Vec<PAabb> = fat.iter().map(to_parry).collect();
        group.bench_with_input(BenchmarkId::new("tree_insert", n), &n, |b, _| {
            b.iter(|| black_box(tree_of(&fat).height()))
        });
        group.bench_with_input(BenchmarkId::new("tree_insert_rebuild", n), &n, |b, _| {
            b.iter(|| {
                let mut tree = tree_of(&fat);
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
    let (mut bp, keys, mut pairs) = broad_phase_of(&motion);
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
            let (mut bp, keys, mut pairs) = broad_phase_of(&motion);
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
            let (mut bp, keys, mut pairs) = broad_phase_of(&motion);
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

/// Benchmark `id` at size `n` in `group`: `count` on every case of `cases`,
/// the counts summed (so that nothing is optimised away).
fn bench_cases<T>(
    group: &mut BenchmarkGroup<'_, WallTime>,
    id: &str,
    n: usize,
    cases: &[T],
    count: impl Fn(&T) -> usize,
) {
    group.bench_with_input(BenchmarkId::new(id, n), &n, |b, _| {
        b.iter(|| black_box(cases.iter().map(&count).sum::<usize>()))
    });
}

/// How many boxes of `tree` overlap `q`.
fn tree_overlaps(tree: &DynamicTree, q: Aabb) -> usize {
    let mut count = 0;
    tree.query(q, u64::MAX, |_, _| {
        count += 1;
        true
    });
    count
}

/// The boxes of size `n` in every structure the ray casts and queries run
/// on: ours by insertion and rebuilt ([`tree_and_rebuilt`]), parry's
/// bulk-built BVH.
struct Field {
    n: usize,
    fat: Vec<Aabb>,
    trees: [(&'static str, DynamicTree); 2],
    bvh: Bvh,
}

impl Field {
    fn new(n: usize) -> Field {
        let fat = fat_boxes(n);
        let trees = tree_and_rebuilt(&fat);
        let parry_boxes: Vec<PAabb> = fat.iter().map(to_parry).collect();
        let bvh = Bvh::from_leaves(BvhBuildStrategy::Binned, &parry_boxes);
        Field { n, fat, trees, bvh }
    }

    /// Our tree as built by insertion.
    fn tree(&self) -> &DynamicTree {
        &self.trees[0].1
    }

    /// Benchmarks `count` on every case of `cases` on each of our trees.
    fn bench_trees<T>(
        &self,
        group: &mut BenchmarkGroup<'_, WallTime>,
        cases: &[T],
        count: impl Fn(&DynamicTree, &T) -> usize,
    ) {
        for (name, tree) in &self.trees {
            bench_cases(group, name, self.n, cases, |case| count(tree, case));
        }
    }
}

/// Ray casts (group `ray`), then box queries (group `query`), on the same
/// fields of boxes.
fn bench_ray_and_query(c: &mut Criterion) {
    let fields = SIZES.map(Field::new);
    let mut group = c.benchmark_group("ray");
    for f in &fields {
        let (n, fat) = (f.n, &f.fat);
        let rays = rays(n);
        f.bench_trees(&mut group, &rays, |tree, ray| {
            let closest = tree_closest_hit(tree, fat, ray);
            usize::from(closest.is_some_and(|t| t < ray.max_fraction))
        });
        let parry_hit = |ray: &RayCastInput| {
            f.bvh
                .cast_ray(&parry_ray(ray), ray.max_fraction, |leaf, best| {
                    ray_box(&fat[leaf as usize], ray.origin, ray.translation, best)
                })
        };
        // The closest hits must agree before their speed is compared.
        for ray in &rays {
            let ours = tree_closest_hit(f.tree(), fat, ray);
            let theirs = parry_hit(ray);
            let brute = fat
                .iter()
                .filter_map(|f| ray_box(f, ray.origin, ray.translation, ray.max_fraction))
                .reduce(f32::min);
            assert_eq!(ours, brute);
            assert_eq!(theirs.map(|h| h.1), brute);
        }
        bench_cases(&mut group, "parry", n, &rays, |ray| {
            usize::from(parry_hit(ray).is_some())
        });
        if n <= BRUTE_MAX {
            bench_cases(&mut group, "brute_force", n, &rays, |ray| {
                let mut best = ray.max_fraction;
                for f in fat {
                    if let Some(t) = ray_box(f, ray.origin, ray.translation, best) {
                        best = t;
                    }
                }
                usize::from(best < ray.max_fraction)
            });
        }
    }
    group.finish();

    let mut group = c.benchmark_group("query");
    for f in &fields {
        let queries = query_boxes(f.n);
        f.bench_trees(&mut group, &queries, |tree, q| tree_overlaps(tree, *q));
        let parry_queries: Vec<PAabb> = queries.iter().map(to_parry).collect();
        let parry_count = |q: &PAabb| f.bvh.intersect_aabb(q).count();
        bench_cases(&mut group, "parry", f.n, &parry_queries, parry_count);
        // The three must agree before their speed is compared.
        let brute_count = |q: &Aabb| f.fat.iter().filter(|b| b.overlaps(q)).count();
        for (q, pq) in queries.iter().zip(&parry_queries) {
            let ours = tree_overlaps(f.tree(), *q);
            assert_eq!(ours, parry_count(pq));
            assert_eq!(ours, brute_count(q));
        }
        if f.n <= BRUTE_MAX {
            bench_cases(&mut group, "brute_force", f.n, &queries, brute_count);
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
    targets = bench_build, bench_step, bench_ray_and_query
}
criterion_main!(benches);
