//! GJK distance, segment distance and shape casts against Box2D's.

use super::support::{CASES, close, for_cases, vclose};
use crate::common::box2d;
use crate::common::rng::Rng;
pub use crate::common::shapes::{proxy_bound, random_proxy};
use impulse2d::collision::{
    DistanceInput, ShapeCastPairInput, ShapeProxy, SimplexCache, segment_distance, shape_cast,
    shape_distance,
};
use impulse2d::core::LINEAR_SLOP;
use impulse2d::{Transform, Vec2};

/// Two proxies and poses that overlap, touch or nearly touch.
fn random_pair(rng: &mut Rng) -> (ShapeProxy, Transform, ShapeProxy, Transform) {
    let a = random_proxy(rng);
    let b = random_proxy(rng);
    let xf_a = rng.transform(2.0);
    let xf_b = rng.pose_near(xf_a, proxy_bound(&a), proxy_bound(&b));
    (a, xf_a, b, xf_b)
}

/// `shape_distance` against `b2ShapeDistance` from an empty cache, with and
/// without radii: same distance (1e-4 m); where the shapes are apart by more than
/// a millimetre, the same normal (1e-3) and closest points (1e-3 m); the same
/// simplex in the returned cache. Then a second call warm-started from each one's
/// cache at a slightly moved pose gives the same distance again.
#[test]
fn shape_distance_matches() {
    let mut apart = 0;
    for_cases(0xD157, "shape_distance", CASES, |rng, i, m| {
        let (a, xf_a, b, xf_b) = random_pair(rng);
        let mut input = DistanceInput {
            proxy_a: a,
            proxy_b: b,
            transform_a: xf_a,
            transform_b: xf_b,
            use_radii: i % 2 == 0,
        };
        let (mut cache_ours, mut cache_b2) = (SimplexCache::default(), SimplexCache::default());
        let ours = shape_distance(&input, &mut cache_ours);
        let theirs = box2d::shape_distance(&input, &mut cache_b2);
        if theirs.distance > 1e-3 {
            apart += 1;
        }
        let check = || -> Result<(), String> {
            if !close(ours.distance, theirs.distance, 1e-4) {
                return Err("distance".into());
            }
            if theirs.distance > 1e-3 {
                if !vclose(ours.normal, theirs.normal, 1e-3) {
                    return Err("normal".into());
                }
                if !vclose(ours.point_a, theirs.point_a, 1e-3)
                    || !vclose(ours.point_b, theirs.point_b, 1e-3)
                {
                    return Err("closest points".into());
                }
            }
            // Box2D returns early on overlap without writing the cache; ours keeps the
            // triangle it found. Compare the simplexes of separated shapes only.
            if cache_b2.count > 0 && cache_ours.count != cache_b2.count {
                return Err(format!(
                    "simplex count: ours {cache_ours:?}, Box2D {cache_b2:?}"
                ));
            }
            Ok(())
        };
        m.check_outputs(check(), || format!("{input:?}"), &ours, &theirs);

        // Warm start from the caches at a pose moved by up to a centimetre.
        input.transform_b.p += rng.vec_in(0.01);
        let first_ours = cache_ours;
        let first_b2 = cache_b2;
        let ours = shape_distance(&input, &mut cache_ours);
        let theirs = box2d::shape_distance(&input, &mut cache_b2);
        let check = if close(ours.distance, theirs.distance, 1e-4) {
            Ok(())
        } else {
            Err("warm-started distance".to_string())
        };
        m.check_outputs(
            check,
            || format!("{input:?}\ncaches ours {first_ours:?} Box2D {first_b2:?}"),
            &ours,
            &theirs,
        );
    });
    // The generator must exercise separated as well as overlapping pairs.
    assert!(
        apart > CASES / 5 && apart < CASES * 4 / 5,
        "{apart} of {CASES} separated"
    );
}

/// `segment_distance` against `b2SegmentDistance`: same closest points, fractions
/// and squared distance, including degenerate (point-like) segments.
#[test]
fn segment_distance_matches() {
    for_cases(0x5E6D, "segment_distance", CASES, |rng, i, m| {
        let s1 = rng.segment();
        let mut s2 = rng.segment();
        let shift = rng.vec_in(2.0);
        s2.point1 += shift;
        s2.point2 += shift;
        if i % 10 == 0 {
            s2.point2 = s2.point1; // a point against a segment
        }
        let ours = segment_distance(s1.point1, s1.point2, s2.point1, s2.point2);
        let theirs = box2d::segment_distance(s1.point1, s1.point2, s2.point1, s2.point2);
        let check = if !close(
            ours.distance_squared,
            theirs.distance_squared,
            1e-5 * (1.0 + theirs.distance_squared),
        ) {
            Err("distance".to_string())
        } else if !vclose(ours.closest1, theirs.closest1, 1e-4)
            || !vclose(ours.closest2, theirs.closest2, 1e-4)
        {
            Err("closest points".to_string())
        } else if !close(ours.fraction1, theirs.fraction1, 1e-4)
            || !close(ours.fraction2, theirs.fraction2, 1e-4)
        {
            Err("fractions".to_string())
        } else {
            Ok(())
        };
        m.check_outputs(check, || format!("{s1:?} {s2:?}"), &ours, &theirs);
    });
}

/// `shape_cast` against `b2ShapeCast`: B starts near A and moves roughly towards
/// it. Same hit flag; on a hit after moving, the same fraction (1e-4), point and
/// normal (1e-3).
///
/// On purpose: when the shapes already touch at the start, Box2D reports a hit at
/// fraction 0 with a ZERO normal; ours reports the same fraction and point but a
/// unit normal (from A's core to B's core, or against the translation when the
/// cores overlap), so that callers always get a usable direction. There the test
/// checks Box2D's point and that our normal is a unit vector.
#[test]
fn shape_cast_matches() {
    let (mut hits, mut initial) = (0, 0);
    for_cases(0xCA57, "shape_cast", CASES, |rng, i, m| {
        let a = random_proxy(rng);
        let b = random_proxy(rng);
        let xf_a = rng.transform(2.0);
        let reach = proxy_bound(&a) + proxy_bound(&b);
        let xf_b = Transform::new(
            xf_a.p + rng.direction() * (reach * rng.range(0.5, 2.0)),
            rng.rot(),
        );
        // Aim at A's origin, overshooting or stopping short, with some sideways error.
        let aim = (xf_a.p - xf_b.p) * rng.range(0.3, 2.0) + rng.vec_in(0.5 * reach);
        let input = ShapeCastPairInput {
            proxy_a: a,
            proxy_b: b,
            transform_a: xf_a,
            transform_b: xf_b,
            translation_b: aim,
            max_fraction: if i % 4 == 0 { rng.range(0.2, 1.0) } else { 1.0 },
            can_encroach: i % 3 == 0,
        };
        let ours = shape_cast(&input);
        let theirs = box2d::shape_cast(&input);
        hits += theirs.hit as usize;
        let check = || -> Result<(), String> {
            if ours.hit != theirs.hit {
                return Err("hit".into());
            }
            if !theirs.hit {
                return Ok(());
            }
            if !close(ours.fraction, theirs.fraction, 1e-4) {
                return Err("fraction".into());
            }
            if !vclose(ours.point, theirs.point, 1e-3) {
                return Err("point".into());
            }
            if theirs.fraction == 0.0 && theirs.normal == Vec2::ZERO {
                // Initially touching: Box2D gives no normal, ours a unit one.
                if !close(ours.normal.length(), 1.0, 1e-4) {
                    return Err("initial-overlap normal is not a unit vector".into());
                }
            } else if !vclose(ours.normal, theirs.normal, 1e-3) {
                return Err("normal".into());
            }
            Ok(())
        };
        if theirs.hit && theirs.fraction == 0.0 {
            initial += 1;
        }
        m.check_outputs(check(), || format!("{input:?}"), &ours, &theirs);
    });
    assert!(hits > CASES / 4, "only {hits} hits");
    assert!(
        initial < hits / 2,
        "{initial} of {hits} hits are initial overlaps"
    );
    let _ = LINEAR_SLOP;
}
