//! Ray casts against Box2D's.

use super::support::{CASES, Mismatches, close, for_cases, vclose};
use crate::common::box2d::{self, self as b2};
use crate::common::rng::{Rng, capsule_bound, circle_bound, polygon_bound, segment_bound};
use crate::common::shapes::random_polygon;
use impulse2d::Transform;
use impulse2d::Vec2;
use impulse2d::collision::{
    Aabb, CastOutput, DistanceInput, RayCastInput, ShapeProxy, SimplexCache, make_proxy,
    ray_cast_capsule, ray_cast_circle, ray_cast_polygon, ray_cast_segment,
};
use impulse2d::core::LINEAR_SLOP;
use std::fmt::Debug;

/// A ray near a shape of bounding radius `bound` about the origin: starting
/// anywhere within 1.5 bounds (so inside a fifth of the time or so), aimed at a
/// point of the shape's disk, long enough or not to reach it; clipped by
/// `max_fraction` a quarter of the time.
fn random_ray(rng: &mut Rng, bound: f32) -> RayCastInput {
    let origin = rng.vec_in(1.5 * bound + 0.1);
    let target = rng.vec_in(bound);
    let translation = (target - origin) * rng.range(0.3, 2.5);
    let max_fraction = if rng.chance(0.25) {
        rng.range(0.2, 1.0)
    } else {
        1.0
    };
    RayCastInput {
        origin,
        translation,
        max_fraction,
    }
}

/// Exact agreement up to round-off: same hit; on a hit the same point and
/// fraction along the ray, to 1e-5 of the coordinates' magnitude (some 100 f32
/// ulps: the two libraries evaluate the intersections with different formulas),
/// and normal (1e-4); initial overlaps (fraction 0, zero normal) the same in both.
fn compare(input: &RayCastInput, ours: &CastOutput, theirs: &CastOutput) -> Result<(), String> {
    let tol = 1e-5 * (1.0 + input.origin.length() + input.translation.length());
    if ours.hit != theirs.hit {
        return Err(format!("hit: ours {}, Box2D {}", ours.hit, theirs.hit));
    }
    if !theirs.hit {
        return Ok(());
    }
    let length = input.translation.length();
    if !close(ours.fraction * length, theirs.fraction * length, tol) {
        return Err("fraction".into());
    }
    if !vclose(ours.point, theirs.point, tol) {
        return Err("point".into());
    }
    if !vclose(ours.normal, theirs.normal, 1e-4) {
        return Err("normal".into());
    }
    Ok(())
}

/// Checks one cast by both libraries with [`compare`]; on failure the case is
/// described by `what` (the shape) and the ray. Returns 1 if Box2D hit, else 0.
fn check_cast(
    m: &mut Mismatches,
    what: impl FnOnce() -> String,
    input: &RayCastInput,
    ours: CastOutput,
    theirs: CastOutput,
) -> usize {
    let inputs = || format!("{} {input:?}", what());
    m.check_outputs(compare(input, &ours, &theirs), inputs, &ours, &theirs);
    theirs.hit as usize
}

/// A random shape from `shape`, a ray near it ([`random_ray`] within its
/// `bound`), cast by `ours` and by Box2D's `theirs`: [`check_cast`].
fn cast_at<S: Debug>(
    rng: &mut Rng,
    m: &mut Mismatches,
    shape: fn(&mut Rng) -> S,
    bound: fn(&S) -> f32,
    ours: fn(&RayCastInput, &S) -> CastOutput,
    theirs: fn(&RayCastInput, &S) -> CastOutput,
) -> usize {
    let shape = shape(rng);
    let input = random_ray(rng, bound(&shape));
    let (ours, theirs) = (ours(&input, &shape), theirs(&input, &shape));
    check_cast(m, || format!("{shape:?}"), &input, ours, theirs)
}

/// Distance from `point` to the core of a proxy, by Box2D's GJK.
fn core_distance(core: &ShapeProxy, point: Vec2) -> f32 {
    let input = DistanceInput {
        proxy_a: *core,
        proxy_b: make_proxy(&[point], 0.0).unwrap(),
        transform_a: Transform::IDENTITY,
        transform_b: Transform::IDENTITY,
        use_radii: false,
    };
    box2d::shape_distance(&input, &mut SimplexCache::default()).distance
}

/// `ray_cast_circle`, `ray_cast_capsule` and `ray_cast_segment` (one- and
/// two-sided) against Box2D's: same results up to round-off.
#[test]
fn ray_cast_circle_capsule_segment_match() {
    let (mut hits, name) = (0, "ray_cast_circle/capsule/segment");
    for_cases(0x4A1C, name, CASES, |rng, i, m| {
        hits += cast_at(
            rng,
            m,
            Rng::circle,
            circle_bound,
            ray_cast_circle,
            b2::ray_cast_circle,
        );
        hits += cast_at(
            rng,
            m,
            Rng::capsule,
            capsule_bound,
            ray_cast_capsule,
            b2::ray_cast_capsule,
        );
        let segment = rng.segment();
        let one_sided = i % 2 == 0;
        let input = random_ray(rng, segment_bound(&segment));
        let ours = ray_cast_segment(&input, &segment, one_sided);
        let theirs = b2::ray_cast_segment(&input, &segment, one_sided);
        let what = || format!("{segment:?} one-sided {one_sided}");
        hits += check_cast(m, what, &input, ours, theirs);
    });
    assert!(hits > CASES, "only {hits} hits in {} casts", 3 * CASES);
}

/// `ray_cast_polygon` against `b2RayCastPolygon`.
///
/// Without rounding: the same results up to round-off.
///
/// With rounding they differ on purpose: Box2D runs its iterative shape cast of a
/// point, which stops once the point is within `radius − LINEAR_SLOP` of the core,
/// about one slop INSIDE the surface; ours hits the rounded surface exactly. So
/// there: the same hit except for grazing rays (whose closest approach to the core
/// is within two slops of the radius); our hit no later than Box2D's (which found
/// nothing before its own); our point on the rounded surface (its core distance
/// equals the radius within 1e-4 m) and the ray inside the shape half-way to
/// Box2D's point (so ours is a real entry, not a touch). A ray starting within
/// `radius − 0.75·slop` of the core is an initial overlap for Box2D, one starting
/// anywhere strictly within the radius is for us: where Box2D reports one, ours
/// must too, and where ours does, the origin must be inside.
#[test]
fn ray_cast_polygon_matches() {
    let mut rounded_hits = 0;
    for_cases(0x4A1D, "ray_cast_polygon", CASES, |rng, _, m| {
        let poly = random_polygon(rng);
        let input = random_ray(rng, polygon_bound(&poly));
        let ours = ray_cast_polygon(&input, &poly);
        let theirs = box2d::ray_cast_polygon(&input, &poly);
        if poly.radius() == 0.0 {
            m.check_outputs(
                compare(&input, &ours, &theirs),
                || format!("{poly:?} {input:?}"),
                &ours,
                &theirs,
            );
            return;
        }
        let r = poly.radius();
        let core = make_proxy(poly.vertices(), 0.0).unwrap();
        let mut check = || -> Result<(), String> {
            if ours.hit != theirs.hit {
                let end = input.origin + input.translation * input.max_fraction;
                let ray = make_proxy(&[input.origin, end], 0.0).unwrap();
                let closest = box2d::shape_distance(
                    &DistanceInput {
                        proxy_a: core,
                        proxy_b: ray,
                        transform_a: Transform::IDENTITY,
                        transform_b: Transform::IDENTITY,
                        use_radii: false,
                    },
                    &mut SimplexCache::default(),
                )
                .distance;
                if (closest - r).abs() > 2.0 * LINEAR_SLOP {
                    return Err(format!(
                        "hit: ours {}, Box2D {} (not grazing)",
                        ours.hit, theirs.hit
                    ));
                }
                return Ok(());
            }
            if !ours.hit {
                return Ok(());
            }
            let box2d_inside = theirs.fraction == 0.0 && theirs.normal == Vec2::ZERO;
            let ours_inside = ours.fraction == 0.0 && ours.normal == Vec2::ZERO;
            if ours_inside || box2d_inside {
                // Box2D counts an origin within `radius − 0.75·slop` of the core
                // as inside, ours anything strictly within the radius: Box2D's
                // inside is a subset of ours.
                let d = core_distance(&core, input.origin);
                if box2d_inside && !ours_inside {
                    return Err("initial overlap: Box2D yes, ours no".into());
                }
                if ours_inside && d >= r + 1e-5 {
                    return Err(format!(
                        "initial overlap: ours yes, origin {d} from the core"
                    ));
                }
                return Ok(());
            }
            let length = input.translation.length();
            let lead = (theirs.fraction - ours.fraction) * length;
            if lead < -1e-5 {
                return Err(format!("fraction: ours later than Box2D by {} m", -lead));
            }
            let d = core_distance(&core, ours.point);
            if !close(d, r, 1e-4) {
                return Err(format!("point: core distance {d}, radius {r}"));
            }
            let between = core_distance(&core, ours.point.lerp(theirs.point, 0.5));
            if between > r + 1e-5 {
                return Err(format!(
                    "fraction: the ray leaves the shape after our hit ({between})"
                ));
            }
            rounded_hits += 1;
            Ok(())
        };
        m.check_outputs(check(), || format!("{poly:?} {input:?}"), &ours, &theirs);
    });
    assert!(
        rounded_hits > CASES / 20,
        "only {rounded_hits} rounded hits"
    );
}

/// `Aabb::ray_cast` against Box2D's slab test `b2AABB_RayCast` (internal to
/// Box2D, declared in the glue): same results up to round-off, including rays
/// parallel to an axis and rays starting inside (no hit in both).
#[test]
fn aabb_ray_cast_matches() {
    let mut hits = 0;
    for_cases(0xAABB, "Aabb::ray_cast", CASES, |rng, i, m| {
        let lower = rng.vec_in(3.0);
        let aabb = Aabb::new(lower, lower + Vec2::new(rng.size(), rng.size()));
        let center = aabb.center();
        let bound = aabb.extents().length();
        let mut input = random_ray(rng, bound);
        input.origin += center;
        match i % 10 {
            0 => input.translation.x = 0.0,
            1 => input.translation.y = 0.0,
            _ => {}
        }
        let ours = aabb.ray_cast(&input);
        let theirs = box2d::aabb_ray_cast(&aabb, &input);
        hits += check_cast(m, || format!("{aabb:?}"), &input, ours, theirs);
    });
    assert!(hits > CASES / 4, "only {hits} hits");
}
