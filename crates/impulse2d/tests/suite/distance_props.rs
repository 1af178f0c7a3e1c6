//! Property tests of GJK distance and time of impact on random convex polygons.
//!
//! The polygons are inscribed in a circle at sorted angles with a minimum spacing,
//! so they are convex, counter-clockwise and free of tiny edges; overlap is then
//! decided independently by the separating-axis theorem over all edge normals.

use impulse2d::collision::{
    DistanceInput, DistanceOutput, ShapeProxy, SimplexCache, ToiInput, ToiState, make_proxy,
    shape_distance, time_of_impact,
};
use impulse2d::core::{LINEAR_SLOP, TOI_TARGET_FRACTION};
use impulse2d::{Rot, Sweep, Transform, Vec2};
use proptest::prelude::*;

/// Round-off allowance for positions of a few metres in `f32`.
const EPS: f32 = 1e-4;

/// A random convex polygon: 3 to 8 points on a circle of radius 0.2–3 m, angular
/// gaps at least ~0.15 rad.
fn polygon() -> impl Strategy<Value = Vec<Vec2>> {
    (3usize..=8, 0.2f32..3.0, 0.0f64..std::f64::consts::TAU)
        .prop_flat_map(|(n, r, phase)| {
            (Just(r), Just(phase), prop::collection::vec(0.2f64..1.0, n))
        })
        .prop_map(|(r, phase, gaps)| {
            let total: f64 = gaps.iter().sum();
            let mut angle = phase;
            gaps.iter()
                .map(|g| {
                    let p = Vec2::new(r * angle.cos() as f32, r * angle.sin() as f32);
                    angle += g / total * std::f64::consts::TAU;
                    p
                })
                .collect()
        })
}

fn transform() -> impl Strategy<Value = Transform> {
    (-6.0f32..6.0, -6.0f32..6.0, -3.2f32..3.2)
        .prop_map(|(x, y, a)| Transform::new(Vec2::new(x, y), Rot::from_angle(a)))
}

fn distance(a: &ShapeProxy, xa: Transform, b: &ShapeProxy, xb: Transform) -> DistanceOutput {
    distance_cached(a, xa, b, xb, &mut SimplexCache::default())
}

fn distance_cached(
    a: &ShapeProxy,
    xa: Transform,
    b: &ShapeProxy,
    xb: Transform,
    cache: &mut SimplexCache,
) -> DistanceOutput {
    let input = DistanceInput {
        proxy_a: *a,
        proxy_b: *b,
        transform_a: xa,
        transform_b: xb,
        use_radii: false,
    };
    shape_distance(&input, cache)
}

fn world(points: &[Vec2], xf: Transform) -> Vec<Vec2> {
    points.iter().map(|&p| xf.apply(p)).collect()
}

/// The largest separation of `b` from the edges of the counter-clockwise polygon `a`.
fn face_separation(a: &[Vec2], b: &[Vec2]) -> f32 {
    (0..a.len())
        .map(|i| {
            let (p, q) = (a[i], a[(i + 1) % a.len()]);
            let n = (q - p).right_perp().normalize();
            b.iter()
                .map(|&v| (v - p).dot(n))
                .fold(f32::INFINITY, f32::min)
        })
        .fold(f32::NEG_INFINITY, f32::max)
}

/// The SAT separation: positive iff the polygons are apart, and then a lower bound
/// of their distance; negative (minus the penetration) when they overlap.
fn sat_separation(a: &[Vec2], b: &[Vec2]) -> f32 {
    face_separation(a, b).max(face_separation(b, a))
}

/// Whether `p` lies within `slack` of the counter-clockwise polygon.
fn on_or_inside(poly: &[Vec2], p: Vec2, slack: f32) -> bool {
    face_separation(poly, &[p]) <= slack
}

proptest! {
    #[test]
    fn distance_is_symmetric_non_negative_and_agrees_with_sat(
        pa in polygon(), pb in polygon(), xa in transform(), xb in transform(),
    ) {
        let a = make_proxy(&pa, 0.0).unwrap();
        let b = make_proxy(&pb, 0.0).unwrap();
        let ab = distance(&a, xa, &b, xb);
        let ba = distance(&b, xb, &a, xa);
        let d = ab.distance;
        prop_assert!(d.is_finite() && d >= 0.0);
        prop_assert!((d - ba.distance).abs() <= EPS, "{} vs {}", d, ba.distance);

        let (wa, wb) = (world(&pa, xa), world(&pb, xb));
        let sat = sat_separation(&wa, &wb);
        if sat > 1e-3 {
            prop_assert!(d > 0.0);
            prop_assert!(d >= sat - EPS, "distance {} below SAT bound {}", d, sat);
        } else if sat < -1e-3 {
            prop_assert_eq!(d, 0.0);
            prop_assert_eq!(ab.normal, Vec2::ZERO);
        }

        // No closer than the closest pair of vertices.
        let vertex_min = wa.iter()
            .flat_map(|&p| wb.iter().map(move |&q| p.distance(q)))
            .fold(f32::INFINITY, f32::min);
        prop_assert!(d <= vertex_min + EPS);

        // The witness points lie on the shapes and are `distance` apart along the normal.
        prop_assert!(on_or_inside(&wa, ab.point_a, EPS));
        prop_assert!(on_or_inside(&wb, ab.point_b, EPS));
        if d > 0.0 {
            prop_assert!((ab.point_a.distance(ab.point_b) - d).abs() <= EPS);
            prop_assert!((ab.normal.length() - 1.0).abs() <= 1e-5);
            if d > 1e-2 {
                let dir = (ab.point_b - ab.point_a).normalize();
                prop_assert!((dir - ab.normal).length() <= 1e-3);
            }
        }
    }

    #[test]
    fn point_distance_is_zero_exactly_inside(
        pa in polygon(), xa in transform(), x in -8.0f32..8.0, y in -8.0f32..8.0,
    ) {
        let a = make_proxy(&pa, 0.0).unwrap();
        let b = make_proxy(&[Vec2::new(x, y)], 0.0).unwrap();
        let d = distance(&a, xa, &b, Transform::IDENTITY).distance;
        let inside = face_separation(&world(&pa, xa), &[Vec2::new(x, y)]);
        if inside < -1e-3 {
            prop_assert_eq!(d, 0.0);
        } else if inside > 1e-3 {
            prop_assert!(d >= inside - EPS);
        }
    }

    #[test]
    fn radii_are_subtracted(
        pa in polygon(), pb in polygon(), xa in transform(), xb in transform(),
        ra in 0.0f32..1.0, rb in 0.0f32..1.0,
    ) {
        let a = make_proxy(&pa, ra).unwrap();
        let b = make_proxy(&pb, rb).unwrap();
        let core = distance(&a, xa, &b, xb).distance;
        let input = DistanceInput {
            proxy_a: a, proxy_b: b, transform_a: xa, transform_b: xb, use_radii: true,
        };
        let rounded = shape_distance(&input, &mut SimplexCache::default()).distance;
        prop_assert!((rounded - (core - ra - rb).max(0.0)).abs() <= EPS);
    }

    #[test]
    fn warm_start_gives_the_cold_distance(
        pa in polygon(), pb in polygon(), xa in transform(), xb in transform(),
        dx in -0.3f32..0.3, dy in -0.3f32..0.3, da in -0.3f32..0.3,
    ) {
        let a = make_proxy(&pa, 0.0).unwrap();
        let b = make_proxy(&pb, 0.0).unwrap();
        let mut cache = SimplexCache::default();
        let first = distance_cached(&a, xa, &b, xb, &mut cache);
        let again = distance_cached(&a, xa, &b, xb, &mut cache);
        prop_assert!((first.distance - again.distance).abs() <= 1e-5);
        // B moves a little, as between two steps: the stale simplex is a fine start.
        let moved = Transform::new(xb.p + Vec2::new(dx, dy), xb.q.mul(Rot::from_angle(da)));
        let warm = distance_cached(&a, xa, &b, moved, &mut cache);
        let cold = distance(&a, xa, &b, moved);
        prop_assert!((warm.distance - cold.distance).abs() <= EPS,
            "warm {} cold {}", warm.distance, cold.distance);
    }
}

fn sweep_at(s: &Sweep, t: f32) -> Transform {
    s.transform_at(t)
}

fn core_gap(a: &ShapeProxy, sa: &Sweep, b: &ShapeProxy, sb: &Sweep, t: f32) -> f32 {
    distance(a, sweep_at(sa, t), b, sweep_at(sb, t)).distance
}

/// Two sweeps over a step: centres anywhere nearby, moving up to 10 m; with
/// `spin`, turning up to 2 rad.
fn sweeps(spin: bool) -> impl Strategy<Value = (Sweep, Sweep)> {
    let max_turn = if spin { 2.0f32 } else { 0.0 };
    let one = move || {
        (
            -6.0f32..6.0,
            -6.0f32..6.0,
            -10.0f32..10.0,
            -10.0f32..10.0,
            -3.2f32..3.2,
            -1.0f32..=1.0,
        )
            .prop_map(move |(x, y, dx, dy, a, turn)| Sweep {
                local_center: Vec2::ZERO,
                c1: Vec2::new(x, y),
                c2: Vec2::new(x + dx, y + dy),
                a1: a,
                a2: a + turn * max_turn,
            })
    };
    (one(), one())
}

fn check_toi(
    pa: &[Vec2],
    ra: f32,
    pb: &[Vec2],
    rb: f32,
    sa: Sweep,
    sb: Sweep,
    translation_only: bool,
) -> Result<(), TestCaseError> {
    let a = make_proxy(pa, ra).unwrap();
    let b = make_proxy(pb, rb).unwrap();
    let out = time_of_impact(&ToiInput {
        proxy_a: a,
        proxy_b: b,
        sweep_a: sa,
        sweep_b: sb,
        max_fraction: 1.0,
    });
    let target = LINEAR_SLOP.max(ra + rb - LINEAR_SLOP);
    let tol = TOI_TARGET_FRACTION * LINEAR_SLOP;
    prop_assert!((0.0..=1.0).contains(&out.fraction));
    match out.state {
        ToiState::Overlapped => {
            prop_assert_eq!(core_gap(&a, &sa, &b, &sb, 0.0), 0.0);
        }
        ToiState::Hit => {
            let gap = core_gap(&a, &sa, &b, &sb, out.fraction);
            prop_assert!(gap <= target + tol + EPS, "gap {} at {:?}", gap, out);
            if out.fraction > 0.0 {
                prop_assert!(gap >= target - tol - EPS, "gap {} at {:?}", gap, out);
            }
            if translation_only && out.fraction > 0.0 {
                // No earlier contact was skipped, and just before it the gap was wider.
                for i in 0..20 {
                    let t = out.fraction * (i as f32 / 20.0);
                    let earlier = core_gap(&a, &sa, &b, &sb, t);
                    prop_assert!(
                        earlier >= target - tol - EPS,
                        "gap {} at t = {}",
                        earlier,
                        t
                    );
                }
                let before = core_gap(&a, &sa, &b, &sb, (out.fraction - 1e-3).max(0.0));
                prop_assert!(before >= gap - tol, "{} then {}", before, gap);
            }
        }
        ToiState::Separated => {
            prop_assert_eq!(out.fraction, 1.0);
            prop_assert!(core_gap(&a, &sa, &b, &sb, 1.0) > target - EPS);
            if translation_only {
                for i in 0..=40 {
                    let t = i as f32 / 40.0;
                    let gap = core_gap(&a, &sa, &b, &sb, t);
                    prop_assert!(gap > target - EPS, "gap {} at t = {}", gap, t);
                }
            }
        }
        ToiState::Failed => {
            prop_assert!(!translation_only, "translation-only TOI failed: {:?}", out);
        }
    }
    Ok(())
}

proptest! {
    #[test]
    fn toi_of_translating_polygons(
        pa in polygon(), pb in polygon(), ra in 0.0f32..0.5, rb in 0.0f32..0.5,
        (sa, sb) in sweeps(false),
    ) {
        check_toi(&pa, ra, &pb, rb, sa, sb, true)?;
    }

    #[test]
    fn toi_of_spinning_polygons(
        pa in polygon(), pb in polygon(), ra in 0.0f32..0.5, rb in 0.0f32..0.5,
        (sa, sb) in sweeps(true),
    ) {
        check_toi(&pa, ra, &pb, rb, sa, sb, false)?;
    }
}
