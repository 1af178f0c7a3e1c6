//! Contact manifolds for every shape pair, on shapes built through the public
//! constructors (and, for one input in four, struct literals that skip validation),
//! with arbitrary finite transforms within `±HUGE`.
//!
//! Always (the manifold module documents that no input panics and that a
//! non-finite result becomes an empty manifold): no panic; `point_count ≤ 2`; when
//! there are points, the normal and every point, anchor and separation are finite;
//! for validated shapes the *closest* point has `separation ≤ SPECULATIVE_DISTANCE`
//! (a face contact keeps its far clipped point whatever its separation, as Box2D
//! v3 does and the manifold module documents); when every shape number is within
//! `±HUGE`, the normal has unit length.
#![no_main]

use impulse2d::Transform;
use impulse2d::collision::{
    Manifold, SimplexCache, collide_capsule_and_circle, collide_capsules,
    collide_chain_segment_and_capsule, collide_chain_segment_and_circle,
    collide_chain_segment_and_polygon, collide_circles, collide_polygon_and_capsule,
    collide_polygon_and_circle, collide_polygons, collide_segment_and_capsule,
    collide_segment_and_circle, collide_segment_and_polygon,
};
use impulse2d::core::SPECULATIVE_DISTANCE;
use impulse2d_fuzz::{Bytes, Shape, decode_shape, decode_shape_unchecked, finite2};
use libfuzzer_sys::fuzz_target;

/// The manifold of `a` against `b` when a function exists for that order.
fn collide(
    a: &Shape,
    xa: Transform,
    b: &Shape,
    xb: Transform,
    cache: &mut SimplexCache,
) -> Option<Manifold> {
    use Shape::*;
    let m = match (a, b) {
        (Circle(a), Circle(b)) => collide_circles(a, xa, b, xb),
        (Capsule(a), Circle(b)) => collide_capsule_and_circle(a, xa, b, xb),
        (Capsule(a), Capsule(b)) => collide_capsules(a, xa, b, xb),
        (Polygon(a), Circle(b)) => collide_polygon_and_circle(a, xa, b, xb),
        (Polygon(a), Capsule(b)) => collide_polygon_and_capsule(a, xa, b, xb),
        (Polygon(a), Polygon(b)) => collide_polygons(a, xa, b, xb),
        (Segment(a), Circle(b)) => collide_segment_and_circle(a, xa, b, xb),
        (Segment(a), Capsule(b)) => collide_segment_and_capsule(a, xa, b, xb),
        (Segment(a), Polygon(b)) => collide_segment_and_polygon(a, xa, b, xb),
        (ChainSegment(a), Circle(b)) => collide_chain_segment_and_circle(a, xa, b, xb),
        (ChainSegment(a), Capsule(b)) => collide_chain_segment_and_capsule(a, xa, b, xb, cache),
        (ChainSegment(a), Polygon(b)) => collide_chain_segment_and_polygon(a, xa, b, xb, cache),
        _ => return None,
    };
    Some(m)
}

/// `validated`: both shapes came from the constructors (struct-literal shapes may
/// have negative radii, which make any separation possible). `in_range`: every
/// shape number is within `±HUGE` (beyond, squared lengths overflow and a normal
/// can degenerate to zero while staying finite).
fn check(m: &Manifold, validated: bool, in_range: bool, context: &dyn Fn() -> String) {
    assert!(
        m.point_count <= 2,
        "point_count {} for {}",
        m.point_count,
        context()
    );
    if m.point_count == 0 {
        return;
    }
    let n = m.normal;
    assert!(
        finite2(n) && (!in_range || (n.length_squared() - 1.0).abs() < 1.0e-3),
        "normal {n:?} in {m:?} for {}",
        context()
    );
    for p in m.points() {
        assert!(
            finite2(p.point) && finite2(p.anchor_a) && finite2(p.anchor_b),
            "non-finite point {p:?} in {m:?} for {}",
            context()
        );
        assert!(
            p.separation.is_finite(),
            "separation {} in {m:?} for {}",
            p.separation,
            context()
        );
    }
    let closest = m
        .points()
        .iter()
        .map(|p| p.separation)
        .fold(f32::MAX, f32::min);
    assert!(
        !validated || closest <= SPECULATIVE_DISTANCE,
        "closest separation {closest} in {m:?} for {}",
        context()
    );
}

fuzz_target!(|data: &[u8]| {
    let mut b = Bytes::new(data);
    let unchecked = b.byte().is_multiple_of(4);
    let decode = if unchecked {
        decode_shape_unchecked
    } else {
        decode_shape
    };
    let Some(a) = decode(&mut b) else {
        return;
    };
    let Some(c) = decode(&mut b) else {
        return;
    };
    let in_range = !b.wild();
    let xa = b.transform();
    let xc = b.transform();
    let mut cache = SimplexCache {
        count: u16::from(b.byte()),
        index_a: [b.byte(), b.byte(), b.byte()],
        index_b: [b.byte(), b.byte(), b.byte()],
    };
    let initial_cache = cache;
    let context =
        || format!("{a:?} at {xa:?} against {c:?} at {xc:?} (initial cache {initial_cache:?})");
    // Each pair in the order(s) a function exists for; twice, so that the chain
    // functions also run warm-started from the cache the first call left.
    for _ in 0..2 {
        let mut run_cache = cache;
        if let Some(m) = collide(&a, xa, &c, xc, &mut run_cache) {
            check(&m, !unchecked, in_range, &context);
        }
        if let Some(m) = collide(&c, xc, &a, xa, &mut run_cache) {
            check(&m, !unchecked, in_range, &context);
        }
        cache = run_cache;
    }
});
