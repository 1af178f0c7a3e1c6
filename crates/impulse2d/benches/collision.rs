//! Criterion benchmarks of the collision layer, each beside the same call into
//! Box2D v3 (`boxdd-sys`, upstream C built with `simd-avx2`, `-O2`, NDEBUG) in the
//! same group, on the same pre-generated inputs.
//!
//! Each iteration runs a batch of `BATCH` different cases (so branch predictors
//! and caches see realistic variety); criterion reports the time per batch and
//! the throughput in cases per second.
//!
//! Box2D's pairwise queries take B's pose relative to A and answer in A's frame,
//! ours take two world poses and answer in the world; the Box2D side therefore
//! includes that relative pose and the conversion of its answer to the world, done
//! exactly as Box2D's own `b2UpdateContact` and `b2TimeOfImpact` callers do (a few
//! multiplies). Inputs are converted to Box2D's structs before timing.
//!
//! Run: `cargo bench -p impulse2d --bench collision`.
//!
//! On a shared, loaded machine set `IMPULSE2D_BENCH_CLOCK=cpu` (Linux): each
//! sample is then timed by the thread's CPU clock instead of the wall clock, so
//! time the thread spends descheduled does not count.

#[path = "../tests/common/mod.rs"]
mod common;

use boxdd_sys::ffi as c;
use common::box2d::ToB2;
use common::rng::{Rng, polygon_bound, sweep_across};
use common::shapes::{proxy_bound, random_polygon, random_proxy};
use criterion::Bencher;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use impulse2d::collision::{
    Aabb, DistanceInput, Polygon, RayCastInput, SimplexCache, ToiInput, collide_polygons,
    compute_polygon_aabb, ray_cast_polygon, shape_distance, time_of_impact,
};
use impulse2d::{Transform, Vec2};
use std::hint::black_box;

unsafe extern "C" {
    // Box2D's slab test (internal to Box2D, an ordinary symbol of its static library).
    fn b2AABB_RayCast(a: c::b2AABB, p1: c::b2Vec2, p2: c::b2Vec2) -> c::b2CastOutput;
}

/// Cases per iteration.
const BATCH: usize = 1024;

#[cfg(target_os = "linux")]
mod cpu_clock {
    use std::time::Duration;

    #[repr(C)]
    struct Timespec {
        seconds: i64,
        nanoseconds: i64,
    }

    unsafe extern "C" {
        fn clock_gettime(clock: i32, time: *mut Timespec) -> i32;
    }

    /// Linux's `CLOCK_THREAD_CPUTIME_ID`.
    const THREAD_CPU_TIME: i32 = 3;

    /// The calling thread's CPU time so far.
    pub fn now() -> Duration {
        let mut t = Timespec {
            seconds: 0,
            nanoseconds: 0,
        };
        // SAFETY: `t` is a valid, writable timespec; the clock id exists on Linux.
        let status = unsafe { clock_gettime(THREAD_CPU_TIME, &mut t) };
        assert_eq!(status, 0, "clock_gettime(CLOCK_THREAD_CPUTIME_ID) failed");
        Duration::new(t.seconds as u64, t.nanoseconds as u32)
    }
}

/// Whether `IMPULSE2D_BENCH_CLOCK=cpu` asks for the thread's CPU clock.
fn cpu_clock_requested() -> bool {
    std::env::var("IMPULSE2D_BENCH_CLOCK").is_ok_and(|v| v == "cpu")
}

/// Times `routine` with criterion, by the wall clock or (see the module docs)
/// the thread's CPU clock.
fn run(b: &mut Bencher<'_>, mut routine: impl FnMut()) {
    if cpu_clock_requested() {
        #[cfg(target_os = "linux")]
        {
            b.iter_custom(|iters| {
                let start = cpu_clock::now();
                for _ in 0..iters {
                    routine();
                }
                cpu_clock::now() - start
            });
            return;
        }
        #[cfg(not(target_os = "linux"))]
        panic!("IMPULSE2D_BENCH_CLOCK=cpu needs Linux");
    }
    b.iter(routine);
}

/// One criterion group `name`: `impulse2d` runs `ours.1` on every case of
/// `ours.0`, `box2d` runs `theirs.1` on every case of `theirs.0` (the same
/// cases in Box2D's structs), each batch timed by [`run`]; the throughput is
/// counted in cases.
fn side_by_side<A, B>(
    c: &mut Criterion,
    name: &str,
    ours: (&[A], impl Fn(&A)),
    theirs: (&[B], impl Fn(&B)),
) {
    if let Some(rounds) = quick_rounds() {
        if std::env::var("IMPULSE2D_BENCH_QUICK_ONLY")
            .is_ok_and(|only| !only.split(',').any(|o| o == name))
        {
            return;
        }
        quick_compare(
            name,
            rounds,
            || each_case(ours.0, &ours.1),
            || each_case(theirs.0, &theirs.1),
        );
        return;
    }
    let mut g = c.benchmark_group(name);
    g.throughput(Throughput::Elements(ours.0.len() as u64));
    g.bench_function("impulse2d", |b| run(b, || each_case(ours.0, &ours.1)));
    g.bench_function("box2d", |b| run(b, || each_case(theirs.0, &theirs.1)));
    g.finish();
}

/// `IMPULSE2D_BENCH_QUICK=N`: instead of criterion's analysis, time `N` batches
/// of each side, in alternating blocks, and print the fastest batch of each, the
/// quartile, median and mean, and their ratios (`IMPULSE2D_BENCH_QUICK_ONLY=a,b`:
/// only the groups named). On a shared machine the fastest of many short samples is the one
/// least disturbed by other processes, steadier than a mean.
fn quick_rounds() -> Option<usize> {
    std::env::var("IMPULSE2D_BENCH_QUICK").ok()?.parse().ok()
}

/// See [`quick_rounds`]: the fastest of `rounds` batches of `ours` and of
/// `theirs`, timed alternately (wall clock, nanoseconds per batch), and the
/// lower quartile.
fn quick_compare(name: &str, rounds: usize, mut ours: impl FnMut(), mut theirs: impl FnMut()) {
    let mut times = [Vec::with_capacity(rounds), Vec::with_capacity(rounds)];
    // Blocks of 50 batches of one side, then of the other: the same batch
    // back to back, as criterion runs it, warms the branch predictors.
    for _ in 0..rounds.div_ceil(50) {
        for (side, times) in times.iter_mut().enumerate() {
            for _ in 0..50 {
                let start = std::time::Instant::now();
                if side == 0 {
                    ours();
                } else {
                    theirs();
                }
                times.push(start.elapsed().as_nanos() as f64);
            }
        }
    }
    let [ours, theirs] = times.map(|mut t| {
        t.sort_by(f64::total_cmp);
        let mean = t.iter().sum::<f64>() / t.len() as f64;
        [t[0], t[t.len() / 4], t[t.len() / 2], mean].map(|x| x / 1e3)
    });
    println!(
        "{name:24} µs per batch, min / q1 / median / mean: ours {:7.2} {:7.2} {:7.2} {:7.2}  \
         box2d {:7.2} {:7.2} {:7.2} {:7.2}  ratio {:.3} {:.3} {:.3} {:.3}",
        ours[0],
        ours[1],
        ours[2],
        ours[3],
        theirs[0],
        theirs[1],
        theirs[2],
        theirs[3],
        ours[0] / theirs[0],
        ours[1] / theirs[1],
        ours[2] / theirs[2],
        ours[3] / theirs[3],
    );
}

/// Runs `f` on every case: one batch. Never inlined, so that a profiler
/// (`valgrind --tool=callgrind`, run with criterion's `--profile-time`) sees
/// each group's batches as calls of their own and counts instructions per batch.
#[inline(never)]
fn each_case<T>(cases: &[T], f: &impl Fn(&T)) {
    cases.iter().for_each(f);
}

/// Box2D's relative pose of B in A (`b2InvMulTransforms`).
#[inline]
fn relative(a: &c::b2Transform, b: &c::b2Transform) -> c::b2Transform {
    let (qa, qb) = (a.q, b.q);
    let (dx, dy) = (b.p.x - a.p.x, b.p.y - a.p.y);
    c::b2Transform {
        q: c::b2Rot {
            c: qa.c * qb.c + qa.s * qb.s,
            s: qa.c * qb.s - qa.s * qb.c,
        },
        p: c::b2Vec2 {
            x: qa.c * dx + qa.s * dy,
            y: -qa.s * dx + qa.c * dy,
        },
    }
}

#[inline]
fn rotate(q: c::b2Rot, v: c::b2Vec2) -> c::b2Vec2 {
    c::b2Vec2 {
        x: q.c * v.x - q.s * v.y,
        y: q.s * v.x + q.c * v.y,
    }
}

/// A world-frame manifold as Box2D's contact update builds it from the local one.
#[derive(Clone, Copy, Default)]
#[allow(dead_code)] // Only consumed by `black_box`.
struct WorldManifold {
    normal: [f32; 2],
    anchors: [[f32; 4]; 2],
    separations: [f32; 2],
    count: i32,
}

#[inline]
fn to_world(
    local: &c::b2LocalManifold,
    xf_a: &c::b2Transform,
    xf_b: &c::b2Transform,
) -> WorldManifold {
    let n = rotate(xf_a.q, local.normal);
    let mut m = WorldManifold {
        normal: [n.x, n.y],
        count: local.pointCount,
        ..Default::default()
    };
    let (dx, dy) = (xf_a.p.x - xf_b.p.x, xf_a.p.y - xf_b.p.y);
    for i in 0..local.pointCount as usize {
        let a = rotate(xf_a.q, local.points[i].point);
        m.anchors[i] = [a.x, a.y, a.x + dx, a.y + dy];
        m.separations[i] = local.points[i].separation;
    }
    m
}

/// Polygon pairs that overlap, touch or nearly touch.
struct PolygonPairs {
    ours: Vec<(Polygon, Transform, Polygon, Transform)>,
    theirs: Vec<(c::b2Polygon, c::b2Transform, c::b2Polygon, c::b2Transform)>,
}

/// `BATCH` cases, case `i` drawn by `make(rng, i)` from one generator seeded
/// with `seed`.
fn batch<T>(seed: u64, mut make: impl FnMut(&mut Rng, usize) -> T) -> Vec<T> {
    let mut rng = Rng::new(seed);
    (0..BATCH).map(|i| make(&mut rng, i)).collect()
}

/// Two random shapes from `shape`, A at a random pose within 2 m of the
/// origin and B near it (overlapping, touching or nearly touching; `bound`
/// gives a shape's reach from its origin).
fn posed_pair<T>(
    rng: &mut Rng,
    shape: fn(&mut Rng) -> T,
    bound: fn(&T) -> f32,
) -> (T, Transform, T, Transform) {
    let a = shape(rng);
    let b = shape(rng);
    let xf_a = rng.transform(2.0);
    let xf_b = rng.pose_near(xf_a, bound(&a), bound(&b));
    (a, xf_a, b, xf_b)
}

fn polygon_pairs(seed: u64) -> PolygonPairs {
    let ours = batch(seed, |rng, _| {
        posed_pair(rng, random_polygon, polygon_bound)
    });
    let theirs = ours
        .iter()
        .map(|(a, xa, b, xb)| (a.to_b2(), xa.to_b2(), b.to_b2(), xb.to_b2()))
        .collect();
    PolygonPairs { ours, theirs }
}

fn bench_collide_polygons(c: &mut Criterion) {
    let pairs = polygon_pairs(0xBE_01);
    side_by_side(
        c,
        "collide_polygons",
        (&pairs.ours, |(pa, xa, pb, xb)| {
            black_box(collide_polygons(black_box(pa), *xa, black_box(pb), *xb));
        }),
        (&pairs.theirs, |(pa, xa, pb, xb)| {
            let xf = relative(xa, xb);
            // SAFETY: pointers to live values; the C function only reads them.
            let local = unsafe { c::b2CollidePolygons(black_box(pa), black_box(pb), xf) };
            black_box(to_world(&local, xa, xb));
        }),
    );
}

fn bench_shape_distance(c: &mut Criterion) {
    let inputs = batch(0xBE_02, |rng, i| {
        let (proxy_a, transform_a, proxy_b, transform_b) =
            posed_pair(rng, random_proxy, proxy_bound);
        DistanceInput {
            proxy_a,
            proxy_b,
            transform_a,
            transform_b,
            use_radii: i % 2 == 0,
        }
    });
    let theirs: Vec<(c::b2DistanceInput, c::b2Transform, c::b2Transform)> = inputs
        .iter()
        .map(|d| {
            let input = c::b2DistanceInput {
                proxyA: d.proxy_a.to_b2(),
                proxyB: d.proxy_b.to_b2(),
                transform: c::b2Transform {
                    p: c::b2Vec2 { x: 0.0, y: 0.0 },
                    q: c::b2Rot { c: 1.0, s: 0.0 },
                },
                useRadii: d.use_radii,
            };
            (input, d.transform_a.to_b2(), d.transform_b.to_b2())
        })
        .collect();
    side_by_side(
        c,
        "shape_distance",
        (&inputs, |input| {
            let mut cache = SimplexCache::default();
            black_box(shape_distance(black_box(input), &mut cache));
        }),
        (&theirs, |(input, xa, xb)| {
            let mut input = *input;
            input.transform = relative(xa, xb);
            let mut cache = c::b2SimplexCache {
                count: 0,
                indexA: [0; 3],
                indexB: [0; 3],
            };
            // SAFETY: pointers to locals; no debug simplexes.
            let out = unsafe {
                c::b2ShapeDistance(black_box(&input), &mut cache, std::ptr::null_mut(), 0)
            };
            // Back to the world frame, as ours reports it.
            let pa = rotate(xa.q, out.pointA);
            let pb = rotate(xa.q, out.pointB);
            let n = rotate(xa.q, out.normal);
            black_box((
                pa.x + xa.p.x,
                pa.y + xa.p.y,
                pb.x + xa.p.x,
                pb.y + xa.p.y,
                n,
                out.distance,
            ));
        }),
    );
}

/// Time of impact on the same sweeps through both libraries: `time_of_impact`
/// (bodies passing each other, half of them turning by up to 1 rad) and
/// `time_of_impact_spinning` (every body turning by up to π, moving up to 30 m).
fn bench_time_of_impact(c: &mut Criterion) {
    toi_group(c, "time_of_impact", 0xBE_03, None);
    toi_group(
        c,
        "time_of_impact_spinning",
        0xBE_13,
        Some(std::f32::consts::PI),
    );
}

fn toi_group(c: &mut Criterion, name: &str, seed: u64, spin: Option<f32>) {
    let inputs = batch(seed, |rng, i| {
        let a = random_proxy(rng);
        let b = random_proxy(rng);
        let meet = rng.vec_in(2.0);
        let sweep = |rng: &mut Rng, bound: f32| {
            let travel = match spin {
                None => rng.direction() * (bound * rng.range(1.0, 4.0)),
                Some(_) => rng.direction() * rng.range(0.0, 15.0),
            };
            let miss = rng.vec_in(0.5 * bound);
            let a1 = rng.angle();
            let turn = match spin {
                Some(max) => rng.range(-max, max),
                None if i % 2 == 0 => 0.0,
                None => rng.range(-1.0, 1.0),
            };
            let local_center = rng.vec_in(0.25 * bound);
            sweep_across(meet, travel, miss, local_center, a1, a1 + turn)
        };
        let sweep_a = sweep(rng, proxy_bound(&a));
        let sweep_b = sweep(rng, proxy_bound(&b));
        ToiInput {
            proxy_a: a,
            proxy_b: b,
            sweep_a,
            sweep_b,
            max_fraction: 1.0,
        }
    });
    let theirs: Vec<c::b2TOIInput> = inputs
        .iter()
        .map(|t| c::b2TOIInput {
            proxyA: t.proxy_a.to_b2(),
            proxyB: t.proxy_b.to_b2(),
            sweepA: t.sweep_a.to_b2(),
            sweepB: t.sweep_b.to_b2(),
            maxFraction: t.max_fraction,
        })
        .collect();
    side_by_side(
        c,
        name,
        (&inputs, |input| {
            black_box(time_of_impact(black_box(input)));
        }),
        (&theirs, |input| {
            // SAFETY: pointer to a live value.
            black_box(unsafe { c::b2TimeOfImpact(black_box(input)) });
        }),
    );
}

fn bench_ray_casts(c: &mut Criterion) {
    let mut rng = Rng::new(0xBE_04);
    // Polygons (a third rounded: Box2D then runs its iterative shape cast, ours
    // an exact cast) and rays aimed near them.
    let cases: Vec<(Polygon, RayCastInput)> = (0..BATCH)
        .map(|_| {
            let poly = random_polygon(&mut rng);
            let bound = polygon_bound(&poly);
            let origin = rng.direction() * (bound * rng.range(1.2, 3.0));
            let target = rng.vec_in(bound);
            let input = RayCastInput {
                origin,
                translation: (target - origin) * rng.range(0.5, 2.0),
                max_fraction: 1.0,
            };
            (poly, input)
        })
        .collect();
    // Then sharp polygons only: both libraries then run the same kind of
    // clipping test.
    let sharp: Vec<_> = cases
        .iter()
        .filter(|(p, _)| p.radius() == 0.0)
        .cloned()
        .collect();
    for (name, cases) in [
        ("ray_cast_polygon", cases),
        ("ray_cast_polygon_sharp", sharp),
    ] {
        let theirs: Vec<(c::b2Polygon, c::b2RayCastInput)> =
            cases.iter().map(|(p, r)| (p.to_b2(), r.to_b2())).collect();
        side_by_side(
            c,
            name,
            (&cases, |(poly, input)| {
                black_box(ray_cast_polygon(black_box(input), black_box(poly)));
            }),
            (&theirs, |(poly, input)| {
                // SAFETY: pointers to live values.
                black_box(unsafe { c::b2RayCastPolygon(black_box(poly), black_box(input)) });
            }),
        );
    }

    // What a broad-phase ray query hands to the cast: sharp polygons posed in
    // a 40 m square, rays of up to 40 m across it, and for each ray every
    // polygon whose box the ray enters (or starts in), in the polygon's
    // frame. Sixteen batches' worth of different cases, so that the branch
    // predictors cannot learn them as they learn the 679 cases above.
    // Its own generator, so that the cases of the rows above and below stay as they were.
    let mut cand_rng = Rng::new(0xBE_05);
    let mut posed: Vec<(Polygon, Transform, Aabb)> = Vec::new();
    while posed.len() < 400 {
        let poly = random_polygon(&mut cand_rng);
        if poly.radius() == 0.0 {
            let xf = cand_rng.transform(20.0);
            posed.push((poly, xf, compute_polygon_aabb(&poly, xf)));
        }
    }
    let mut candidates: Vec<(Polygon, RayCastInput)> = Vec::new();
    while candidates.len() < 16 * BATCH {
        let origin = cand_rng.vec_in(20.0);
        let translation = cand_rng.direction() * cand_rng.range(1.0, 40.0);
        let ray = RayCastInput {
            origin,
            translation,
            max_fraction: 1.0,
        };
        for (poly, xf, aabb) in &posed {
            if aabb.contains_point(origin) || aabb.ray_cast(&ray).hit {
                let local = RayCastInput {
                    origin: xf.q.inv_rotate(origin - xf.p),
                    translation: xf.q.inv_rotate(translation),
                    max_fraction: 1.0,
                };
                candidates.push((*poly, local));
            }
        }
    }
    candidates.truncate(16 * BATCH);
    let candidates_b2: Vec<(c::b2Polygon, c::b2RayCastInput)> = candidates
        .iter()
        .map(|(p, r)| (p.to_b2(), r.to_b2()))
        .collect();
    side_by_side(
        c,
        "ray_cast_polygon_sharp_candidates",
        (&candidates, |(poly, input)| {
            black_box(ray_cast_polygon(black_box(input), black_box(poly)));
        }),
        (&candidates_b2, |(poly, input)| {
            // SAFETY: pointers to live values.
            black_box(unsafe { c::b2RayCastPolygon(black_box(poly), black_box(input)) });
        }),
    );

    let boxes: Vec<(Aabb, RayCastInput)> = (0..BATCH)
        .map(|i| {
            let lower = rng.vec_in(3.0);
            let aabb = Aabb::new(lower, lower + Vec2::new(rng.size(), rng.size()));
            let reach = aabb.extents().length();
            let origin = aabb.center() + rng.direction() * (reach * rng.range(1.2, 3.0));
            let target = aabb.center() + rng.vec_in(reach);
            let mut translation = (target - origin) * rng.range(0.5, 2.0);
            if i % 16 == 0 {
                translation.y = 0.0;
            }
            (
                aabb,
                RayCastInput {
                    origin,
                    translation,
                    max_fraction: 1.0,
                },
            )
        })
        .collect();
    let boxes_b2: Vec<(c::b2AABB, c::b2Vec2, c::b2Vec2)> = boxes
        .iter()
        .map(|(a, r)| {
            (
                a.to_b2(),
                r.origin.to_b2(),
                (r.origin + r.translation).to_b2(),
            )
        })
        .collect();
    side_by_side(
        c,
        "aabb_ray_cast",
        (&boxes, |(aabb, input)| {
            black_box(black_box(aabb).ray_cast(black_box(input)));
        }),
        (&boxes_b2, |(aabb, p1, p2)| {
            // SAFETY: by-value arguments.
            black_box(unsafe { b2AABB_RayCast(black_box(*aabb), *p1, *p2) });
        }),
    );
}

criterion_group!(
    benches,
    bench_collide_polygons,
    bench_shape_distance,
    bench_time_of_impact,
    bench_ray_casts
);
criterion_main!(benches);
