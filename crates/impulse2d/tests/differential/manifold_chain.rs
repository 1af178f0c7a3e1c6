//! Chain-segment manifolds that carry a GJK cache, against Box2D's.

use super::manifold::{Tally, TestShape, judge, run};
use super::support::{CASES, for_cases};
use crate::common::box2d;
use crate::common::fuzz_cases;
use impulse2d::Transform;
use impulse2d::collision::{
    ChainSegment, Manifold, Polygon, SimplexCache, collide_chain_segment_and_capsule,
    collide_chain_segment_and_polygon,
};

/// A chain function that carries a GJK cache.
type WithCache<B> = fn(&ChainSegment, Transform, &B, Transform, &mut SimplexCache) -> Manifold;

/// [`run`] on a chain function and Box2D's, each call from an empty cache.
fn run_cold<B: TestShape>(name: &'static str, seed: u64, ours: WithCache<B>, theirs: WithCache<B>) {
    let fresh = || SimplexCache::default();
    run::<ChainSegment, B>(
        name,
        seed,
        CASES / 20,
        |a, xa, b, xb| ours(a, xa, b, xb, &mut fresh()),
        |a, xa, b, xb| theirs(a, xa, b, xb, &mut fresh()),
    );
}

/// `collide_chain_segment_and_capsule` and `collide_chain_segment_and_polygon`
/// from an empty cache each time; `chain_cache_warm_starts_match` covers reuse.
#[test]
fn collide_chain_segment_with_capsule_and_polygon_match() {
    run_cold(
        "collide_chain_segment_and_capsule",
        0xCB,
        collide_chain_segment_and_capsule,
        box2d::collide_chain_segment_and_capsule,
    );
    run_cold(
        "collide_chain_segment_and_polygon",
        0xCC,
        collide_chain_segment_and_polygon,
        box2d::collide_chain_segment_and_polygon,
    );
}

/// The chain functions keep GJK's simplex in a cache between frames. A polygon
/// sliding along a chain segment for five frames, each library with its own
/// cache: the same manifolds every frame (with the accepted differences of
/// `manifold`). The caches themselves may differ: on overlap Box2D returns
/// without writing its cache, ours keeps the triangle it found, and from
/// different caches GJK may list the same simplex in another order.
#[test]
fn chain_cache_warm_starts_match() {
    let mut tally = Tally::default();
    for_cases(
        0xCD,
        "collide_chain_segment_and_polygon (warm)",
        CASES / 5,
        |rng, _, m| {
            let a = ChainSegment::generate(rng);
            let b = Polygon::generate(rng);
            let xf_a = rng.transform(2.0);
            let mut xf_b = rng.pose_near(xf_a, a.bound(), b.bound());
            let velocity = rng.vec_in(0.05);
            let (mut cache_ours, mut cache_b2) = (SimplexCache::default(), SimplexCache::default());
            for _frame in 0..5 {
                let before = (cache_ours, cache_b2);
                let mo = collide_chain_segment_and_polygon(&a, xf_a, &b, xf_b, &mut cache_ours);
                let mt =
                    box2d::collide_chain_segment_and_polygon(&a, xf_a, &b, xf_b, &mut cache_b2);
                let again = |xf| {
                    box2d::collide_chain_segment_and_polygon(
                        &a,
                        xf_a,
                        &b,
                        xf,
                        &mut before.1.clone(),
                    )
                };
                let check = judge(true, None, xf_b, &mo, &mt, again, &mut tally);
                m.check_outputs(
                    check,
                    || {
                        format!(
                            "A {a:?} at {xf_a:?}\nB {b:?} at {xf_b:?}\ncaches before {before:?}"
                        )
                    },
                    &mo,
                    &mt,
                );
                xf_b.p += velocity;
            }
        },
    );
    tally.finish("collide_chain_segment_and_polygon (warm)", CASES / 20);
}

/// The fuzz input `fuzz/regressions/manifold/chain-concave-end-capsule-far-clip`:
/// a capsule whose core ends beyond the chain segment's first point, where the
/// corner is concave (the previous segment rises along this one's normal), and
/// whose round reaches over that point by about 0.33 m. The normal toward the
/// capsule leans toward the concave corner, so both libraries snap it to the
/// segment's normal and clip the capsule's core to the segment's side planes: the
/// clipped part of the capsule is 47 m from the segment. Box2D keeps those two
/// points (a "touching" manifold none of whose points can act); ours is empty, as
/// for any chain contact whose closest point is beyond the speculative distance.
#[test]
fn chain_capsule_beyond_a_concave_end_is_empty_where_box2d_keeps_far_points() {
    let (a, xf_a, b, xf_b) = fuzz_cases::chain_concave_end_capsule();
    let mt =
        box2d::collide_chain_segment_and_capsule(&a, xf_a, &b, xf_b, &mut SimplexCache::default());
    assert_eq!(mt.point_count, 2, "Box2D {mt:?}");
    assert!(
        mt.points().iter().all(|p| p.separation > 47.0),
        "Box2D {mt:?}"
    );
    let mo = collide_chain_segment_and_capsule(&a, xf_a, &b, xf_b, &mut SimplexCache::default());
    assert_eq!(mo.point_count, 0, "ours {mo:?}");
}
