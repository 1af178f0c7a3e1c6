//! Inputs found by the fuzz targets under `fuzz/` (raw inputs in
//! `fuzz/regressions/<target>/`), replayed as ordinary tests so that a fix stays
//! fixed. Each test states the property the fuzz target checks, not a printed value.

use impulse2d::Pos;
use impulse2d::collision::{
    Capsule, ChainSegment, Circle, DistanceInput, DistanceOutput, Manifold, MassData, Polygon,
    Segment, SimplexCache, ToiInput, collide_chain_segment_and_capsule, collide_polygon_and_circle,
    collide_polygons, collide_segment_and_capsule, collide_segment_and_polygon, compute_hull,
    compute_polygon_mass, make_box, make_offset_polygon, make_polygon, shape_distance,
    validate_hull,
};
use impulse2d::core::{MAX_SUB_STEPS, SPECULATIVE_DISTANCE};
use impulse2d::{
    BodyDef, BodyId, BodyType, Error, QuarantineReason, Rot, ShapeDef, Transform, Vec2, World,
    WorldDef,
};

use crate::build;

use crate::common::fuzz_cases;

// The fuzz harness (default build only: its seed worlds take `Vec2`
// positions, and the saved inputs are default-build snapshot bytes).
#[cfg(not(feature = "large-world"))]
#[path = "../../../../fuzz/src/snapshot_input.rs"]
mod snapshot_input;

/// The manifold target's contract: a manifold is empty, or its closest point is
/// within `SPECULATIVE_DISTANCE`.
fn assert_empty_or_within_reach(m: &impulse2d::collision::Manifold) {
    let closest = fuzz_cases::closest_separation(m);
    assert!(
        m.point_count == 0 || closest <= SPECULATIVE_DISTANCE,
        "{m:?}"
    );
}

fn v(x: u32, y: u32) -> Vec2 {
    Vec2::new(f32::from_bits(x), f32::from_bits(y))
}

/// Fuzz target `hull`, input `fuzz/regressions/hull/offset-polygon-reflex-corner-mass`.
///
/// A long thin quadrilateral (about 1.4e5 m long, within ±HUGE) is a valid hull, but
/// `make_offset_polygon` with a rotation and offset rounds its vertices by up to
/// ~0.016 m (one ulp at 1.3e5), more than the hull's collinear tolerance (0.01 m):
/// a corner turns the wrong way by a hair, and `compute_polygon_mass` of the rounded
/// polygon used to fail its `debug_assert!(theta > 0.0)`. The fuzzed placement also
/// puts a vertex at x ≈ 1.3e5, beyond HUGE, so it is now an `OutOfRange` error; the
/// same hull and rotation moved so that every vertex stays within HUGE still folds,
/// and must be rejected or have a finite, positive mass.
#[test]
fn offset_polygon_with_a_reflex_rounding_corner_has_a_mass() {
    let points = [
        v(0xc7bf2d02, 0xc7b96970), // (-97882.016, -94930.875)
        v(0x42f2e400, 0x429c4e00), // (121.44531, 78.15234)
        v(0x42b2b200, 0x42d9fe00), // (89.34766, 108.99609)
        v(0xc7b9ddb5, 0xc7b442cf), // (-95163.414, -92293.62)
    ];
    let hull = compute_hull(&points).expect("a valid hull");
    let q = Rot {
        c: f32::from_bits(0xbf0f2907), // -0.5592198
        s: f32::from_bits(0x3f543a9e), // 0.8290194
    };
    let radius = f32::from_bits(0x3cd4a3c6); // 0.025957

    // As fuzzed: the first vertex lands at x = 0.559·97882 + 0.829·94931 − 964 ≈ 1.32e5.
    let fuzzed = Transform::new(v(0xc470f200, 0xc08e0000), q); // (-963.78125, -4.4375)
    assert!(matches!(
        make_offset_polygon(&hull, fuzzed, radius),
        Err(Error::OutOfRange { .. })
    ));

    // Moved 40 km left: every vertex within ±HUGE (x ≤ 1.33e5 − 4e4).
    for dx in [0.0, 0.25, 0.5, 0.75, 1.0, 1.5] {
        let xf = Transform::new(Vec2::new(-40_000.0 - dx, -4.4375), q);
        let Ok(polygon) = make_offset_polygon(&hull, xf, radius) else {
            continue;
        };
        let mass =
            compute_polygon_mass(&polygon, 0.030841).expect("a mass for an accepted polygon");
        assert!(mass.mass.is_finite() && mass.mass > 0.0);
        assert!(mass.rotational_inertia.is_finite() && mass.rotational_inertia >= 0.0);
        assert!(mass.center.is_finite());
    }
}

/// Fuzz target `hull`, input `fuzz/regressions/hull/offset-polygon-collapsed-centroid`.
///
/// A sliver triangle near (-96475, -96475): its third vertex is 0.0156 m (one ulp
/// there) off the line through the other two, more than the 0.01 m collinear
/// tolerance, so `compute_hull` accepts it. Rotated and moved by
/// `make_offset_polygon`, the rounded vertices leave it with no positive area and
/// `polygon_centroid` fails its `debug_assert!(area > 0.0)` (a panic in debug
/// builds; in release the centroid is garbage). The constructor must return an
/// `Err` or a polygon with a finite centroid and mass. (It now checks the placed
/// vertices exactly and rejects the folded triangle.)
#[test]
fn offset_sliver_triangle_is_rejected_or_has_a_centroid() {
    let points = [
        v(0xc476f800, 0xc7bc6d8e), // (-987.875, -96475.11)
        v(0xc7bc6d8e, 0xc7bc6d8e), // (-96475.11, -96475.11)
        v(0xc7bc6d90, 0xc7bc6d90), // (-96475.125, -96475.125)
    ];
    let hull = compute_hull(&points).expect("a valid hull");
    let xf = Transform::new(
        v(0x4264e400, 0x4264e400), // (57.222656, 57.222656)
        Rot {
            c: f32::from_bits(0x3f4805cf), // 0.78133863
            s: f32::from_bits(0x3f1fc57f), // 0.6241073
        },
    );
    let radius = f32::from_bits(0x4264e400); // 57.222656
    let Ok(polygon) = make_offset_polygon(&hull, xf, radius) else {
        return;
    };
    assert!(polygon.centroid().is_finite());
    let mass = compute_polygon_mass(&polygon, 1.0).expect("a mass for an accepted polygon");
    assert!(mass.mass.is_finite() && mass.mass > 0.0);
    assert!(mass.center.is_finite() && mass.rotational_inertia.is_finite());
}

/// Fuzz target `manifold`, input `fuzz/regressions/manifold/zero-normal-huge-chain-segment`
/// (found with a chain segment 1.25e33 m long; 1e20 m shows the same).
///
/// `Segment::new` and `ChainSegment::new` accept any finite coordinates, unlike
/// `compute_hull`, which rejects coordinates beyond `HUGE` (1e5 m). A chain segment
/// longer than about 1.8e19 m has a squared length that overflows to infinity, and
/// against a capsule lying on its line the manifold comes back with two points and
/// a zero normal (finite, so not caught by the "non-finite result is empty" rule).
/// Either the constructor rejects such a segment, or the manifold is empty or has a
/// unit normal. The constructors now reject coordinates beyond HUGE; struct literals
/// that bypass them still may not panic, but are outside the unit-normal promise
/// (the fuzz target checks that only when every shape number is within ±HUGE).
#[test]
fn chain_segment_beyond_huge_is_rejected_or_gives_a_unit_normal() {
    let capsule = Capsule::new(Vec2::ZERO, Vec2::new(0.0, 118.03906), 0.0).unwrap();
    let Ok(segment) = Segment::new(Vec2::new(0.0, 1.0e20), Vec2::new(0.0, 118.03906)) else {
        return;
    };
    let Ok(chain) = ChainSegment::new(Vec2::ZERO, segment, Vec2::ZERO) else {
        return;
    };
    let m = collide_chain_segment_and_capsule(
        &chain,
        Transform::IDENTITY,
        &capsule,
        Transform::IDENTITY,
        &mut SimplexCache::default(),
    );
    if m.point_count > 0 {
        let len_sq = m.normal.length_squared();
        assert!(
            (len_sq - 1.0).abs() < 1.0e-3,
            "normal {:?} with {} points",
            m.normal,
            m.point_count
        );
    }
}

/// Fuzz target `manifold`, input
/// `fuzz/regressions/manifold/capsule-huge-radius-separation-rounds-past-reach`.
///
/// A segment from (0, 0) to (14.46, 0) at y = Y = 90987.88 against a capsule of
/// radius Y whose core runs along y = 0 from x = 77.46 to 154.92. The closest core
/// point to the segment is the core's end (77.46, 0), seen from the segment's end
/// (14.46, Y): the gap is √(63² + Y²) − Y = 63² / (√(63² + Y²) + Y) = 0.0218 m,
/// beyond the speculative distance (0.02 m). The capsule code tested the squared
/// distance against (r + 0.02)² (which rounding at 9e4 m let pass) and then
/// reported the separation d − r as 0.0234 m: a manifold whose only point was
/// beyond reach. The separation it reports is now what decides.
#[test]
fn capsule_with_a_huge_radius_has_no_point_beyond_reach() {
    let y = 90987.88f32;
    let segment = Segment::new(Vec2::ZERO, Vec2::new(14.4609375, 0.0)).unwrap();
    let capsule = Capsule::new(Vec2::new(77.46094, 0.0), Vec2::ZERO, y).unwrap();
    let xf_segment = Transform::new(Vec2::new(0.0, y), Rot::IDENTITY);
    let xf_capsule = Transform::new(Vec2::new(77.46094, 0.0), Rot::IDENTITY);
    let dx = 77.46094f64 - 14.4609375;
    let yd = f64::from(y);
    let gap = dx * dx / ((dx * dx + yd * yd).sqrt() + yd);
    assert!(gap > f64::from(SPECULATIVE_DISTANCE), "gap {gap}");
    let m = collide_segment_and_capsule(&segment, xf_segment, &capsule, xf_capsule);
    assert_empty_or_within_reach(&m);
}

/// Fuzz target `manifold`, input
/// `fuzz/regressions/manifold/rounded-triangle-92km-circle-separation-2.34cm-beyond-2cm`.
///
/// A triangle rounded by R = 92,544 m (f32 spacing 1/128 m there) and a point-like
/// circle whose centre lies 3/128 m = 0.0234 m beyond the rounded face: beyond the
/// speculative distance (0.02 m). The reach test compared the face separation with
/// R + 0.02, which rounds up to R + 3/128, and let the pair through; the manifold then
/// reported its one point at 0.0234 m, beyond reach. The same rounding is built here
/// with every number exact in f32 (a box's top face y = 0 instead of the triangle,
/// the centre at y = R + 3/128 above it).
#[test]
fn polygon_with_a_huge_radius_has_no_circle_point_beyond_reach() {
    let radius = 92_544.0f32;
    let gap = 3.0 / 128.0;
    assert!(f64::from(gap) > f64::from(SPECULATIVE_DISTANCE));
    assert_eq!(
        radius + SPECULATIVE_DISTANCE,
        radius + gap,
        "the rounding this test needs"
    );
    let square = compute_hull(&[
        Vec2::new(-4.0, -4.0),
        Vec2::new(4.0, -4.0),
        Vec2::new(4.0, 0.0),
        Vec2::new(-4.0, 0.0),
    ])
    .expect("a box");
    let polygon = make_polygon(&square, radius).expect("a rounded box");
    let circle = Circle::new(Vec2::ZERO, 0.0).unwrap();
    let xf_circle = Transform::new(Vec2::new(0.5, radius + gap), Rot::IDENTITY);
    let m = collide_polygon_and_circle(&polygon, Transform::IDENTITY, &circle, xf_circle);
    assert_empty_or_within_reach(&m);
}

/// Fuzz target `manifold`, input
/// `fuzz/regressions/manifold/chain-concave-end-capsule-far-clip`.
///
/// In the chain segment's frame (its body at x = -121.140625): the segment runs
/// from p1 = (0, 0) to p2 = (-118.08, 121.47), so its unit direction is
/// e = (-0.6970, 0.7171) and its colliding normal n = (0.7171, 0.6970). The ghost
/// (126.46, 118.49) makes the previous segment rise from p1 almost along n: the
/// corner at p1 is concave (an L-shaped pit). The capsule's core runs from
/// c1 = (121.140625, 0) to c2 = (121.140625, 121.03906), radius 121.47266. The
/// shapes overlap: |c1 − p1| = 121.140625 < 121.47266, by 0.33 m, but only at p1,
/// reached from beyond the end (c1 is at e·c1 = -84.4 along the segment, behind the
/// previous segment, which ignores the capsule as its centroid is behind it too).
/// The normal toward the capsule leans toward the concave corner, so it is snapped
/// to n and the core is clipped to the segment's side planes: the clipped part
/// (e·c from 0 to 2.35) starts at c = (121.14, 117.76), n·c − r = 86.87 + 82.08 −
/// 121.47 = 47.48 m from the segment. The manifold used to hold those two points
/// (47.47 m and 49.76 m; Box2D v3.2 gives the same), breaking the contract that a
/// manifold's closest point is within `SPECULATIVE_DISTANCE`. It is now empty: the
/// corner region beyond p1 belongs to the neighbour.
#[test]
fn chain_capsule_beyond_a_concave_end_has_no_far_manifold() {
    let (chain, xf_chain, capsule, xf_capsule) = fuzz_cases::chain_concave_end_capsule();
    // The shapes do overlap, at the chain's first point.
    let p1 = xf_chain.apply(chain.segment.point1);
    assert!(p1.distance(xf_capsule.apply(capsule.center1)) < capsule.radius);

    let mut cache = SimplexCache::default();
    for _ in 0..2 {
        // Cold, then warm-started from the cache the first call left (as the fuzz target).
        let m =
            collide_chain_segment_and_capsule(&chain, xf_chain, &capsule, xf_capsule, &mut cache);
        // The fuzz property asks that some point be within SPECULATIVE_DISTANCE;
        // the part of the capsule the segment may act on is 47.48 m away, so none.
        assert!(
            m.points()
                .iter()
                .all(|p| p.separation > SPECULATIVE_DISTANCE),
            "{m:?}"
        );
        assert_eq!(m.point_count, 0, "{m:?}");
    }
}

/// Fuzz target `manifold`, input
/// `fuzz/regressions/manifold/thin-polygon-near-collinear-faces`.
///
/// The polygon (its own frame) has vertices (0, 90987.88), (-972.375, 0),
/// (0, -95208.59) and (0.030248, 0): its right side is two faces, nearly collinear
/// (normals (1, ∓3.2e-7)), meeting at a corner 0.03 m proud at y = 0. Moved into
/// the polygon's frame, the segment runs from s1 = (-587.34, -980.73) to
/// (23548.85, 14512.90). At y = -980.73 the polygon spans x from
/// -972.375·(1 − 980.73/95208.59) = -962.4 to 0.03, so s1 is inside it, 587.37 m
/// from the lower right face (and 375 m from the left side, measured along x). The
/// segment leaves through the right side at y ≈ -604.
///
/// Both right faces separate the segment by -587.37 m (to within 0.0006 m, less
/// than the 0.008 m round-off at 95 km), and rounding picked the upper one, whose
/// side planes (y ≥ 0) clip s1 away: the manifold said the overlapping shapes were
/// 940 m and 23549 m apart (Box2D v3.2 gives the same). The contact must have a
/// point within `SPECULATIVE_DISTANCE`, and the deepest point is s1, 587.37 m deep
/// through the right side.
#[test]
fn thin_polygon_with_near_collinear_faces_keeps_the_deep_point() {
    let case = fuzz_cases::thin_polygon_near_collinear_faces();
    let m = assert_segment_polygon_closest(case, -587.37);
    // The normal pushes the polygon out through its right side: -x in its frame.
    let n = case.3.q.inv_rotate(m.normal);
    assert!(n.x < -0.9999, "normal {n:?} in the polygon's frame");
}

/// Fuzz target `manifold`, input
/// `fuzz/regressions/manifold/thin-polygon-near-parallel-incident-edges`.
///
/// The polygon (its own frame) has vertices (0, 90987.88), (-121.48, 62.24),
/// (-121.46, 0), (0, -95208.59) and (0.030248, 0): its right side is two nearly
/// collinear faces meeting at a corner 0.03 m proud at y = 0. In its frame the
/// segment runs from w1 = (-431.47, 92482.09) to (575.57, -62.24), direction
/// d = (1007.04, -92544.33), |d| = 92549.81: it crosses the polygon's top end. The
/// top vertex (0, 90987.88) is d × (v − w1) / |d| = (1007.04 · -1494.21 +
/// 92544.33 · 431.47) / 92549.81 = 415.19 m on one side of the segment's line, and
/// the corner (0.030248, 0) is (1007.04 · -92482.09 + 92544.33 · 431.50) / 92549.81
/// = -574.8 m, on the other side: the segment cuts through the polygon.
///
/// The segment's face is the reference (it separates most, -415.19 m); the
/// polygon's two right faces are equally anti-parallel to it within round-off, and
/// the lower one was picked as the incident edge: clipped to the segment, it lies
/// 574.8 m and 575.6 m away, so the manifold said the shapes were apart (Box2D v3.2
/// gives the same). The contact must have a point within `SPECULATIVE_DISTANCE`,
/// and the deepest is the top vertex, 415.19 m through the segment.
#[test]
fn thin_polygon_with_near_parallel_incident_edges_keeps_the_deep_point() {
    assert_segment_polygon_closest(
        fuzz_cases::thin_polygon_near_parallel_incident_edges(),
        -415.19,
    );
}

/// The segment–polygon contact of `case` has a point within
/// `SPECULATIVE_DISTANCE`, and its closest point separates by `expected`
/// metres to within 0.1 m; the manifold.
fn assert_segment_polygon_closest(
    (segment, xf_segment, polygon, xf_polygon): (Segment, Transform, Polygon, Transform),
    expected: f32,
) -> Manifold {
    let m = collide_segment_and_polygon(&segment, xf_segment, &polygon, xf_polygon);
    let closest = fuzz_cases::closest_separation(&m);
    assert!(closest <= SPECULATIVE_DISTANCE, "{m:?}");
    assert!(
        (closest - expected).abs() < 0.1,
        "closest {closest} in {m:?}"
    );
    m
}

/// Distance from `p` to the segment `a–b`, in `f64`.
fn point_segment_distance(p: [f64; 2], a: [f64; 2], b: [f64; 2]) -> f64 {
    let (ex, ey) = (b[0] - a[0], b[1] - a[1]);
    let t = (((p[0] - a[0]) * ex + (p[1] - a[1]) * ey) / (ex * ex + ey * ey)).clamp(0.0, 1.0);
    ((p[0] - a[0] - t * ex).powi(2) + (p[1] - a[1] - t * ey).powi(2)).sqrt()
}

/// The world vertices of `polygon` placed by `xf`, in `f64`.
fn world_vertices(polygon: &impulse2d::collision::Polygon, xf: Transform) -> Vec<[f64; 2]> {
    placed(polygon.vertices(), xf)
}

/// Fuzz target `manifold`, input
/// `fuzz/regressions/manifold/huge-rounded-sliver-box-overlapping-triangle-reports-2606m`
/// (found by CI's 60 s smoke).
///
/// B is a box 6 cm wide centred at (92,544.33, 0), turned by π − 0.0518 rad,
/// with a rounding radius of 92,550 m; A a triangle with a corner at the origin,
/// radius 117 m. The cores are 92,544.3 m apart and the radii add to 92,667.9 m,
/// so the shapes overlap by about 123.6 m. At x ≈ 92,544 `f32` coordinates are
/// 7.8 mm apart, so the box's corners round by a tenth of its width and its left
/// edge comes out exactly vertical, while `make_offset_rounded_box` used to give
/// it the rotated axis normal, 3° off. Clipping A's edge to the side planes of
/// that 6 cm face along a tangent 3° off the face put both contact points 4.8 km
/// up A's edge, 2,606 m "apart". The box's normals now come from its placed
/// corners, as every other polygon constructor's do. The expected separation is
/// the `f64` distance between the two cores (corner to edge, from the same
/// `f32` vertices) minus the radii, to the spacing of `f32` there.
#[test]
fn huge_rounded_sliver_box_against_a_triangle_reports_the_overlap() {
    let (triangle, xf_triangle, sliver, xf_sliver) =
        fuzz_cases::huge_rounded_sliver_box_and_triangle();
    for (i, n) in sliver.normals().iter().enumerate() {
        let e = sliver.vertices()[(i + 1) % 4] - sliver.vertices()[i];
        assert!(
            n.dot(e).abs() <= 1e-6 * e.length(),
            "normal {i} is not the edge's"
        );
    }
    let a = world_vertices(&triangle, xf_triangle);
    let b = world_vertices(&sliver, xf_sliver);
    let mut core = f64::MAX;
    for (p, q) in [(&a, &b), (&b, &a)] {
        for v in p.iter() {
            for k in 0..q.len() {
                core = core.min(point_segment_distance(*v, q[k], q[(k + 1) % q.len()]));
            }
        }
    }
    let expected = core - f64::from(triangle.radius()) - f64::from(sliver.radius());
    assert!(expected < -100.0, "the shapes overlap: {expected}");
    let spacing = 0.05; // a few f32 spacings at 9.3e4 m (7.8 mm each)
    assert_closest_both_ways(
        (&triangle, xf_triangle),
        (&sliver, xf_sliver),
        expected,
        spacing,
    );
}

/// `collide_polygons` of `a` with `b` and of `b` with `a` both give a contact
/// whose closest point separates by `expected` metres, to within `tolerance`.
fn assert_closest_both_ways(
    (a, xa): (&Polygon, Transform),
    (b, xb): (&Polygon, Transform),
    expected: f64,
    tolerance: f64,
) {
    for m in [
        collide_polygons(a, xa, b, xb),
        collide_polygons(b, xb, a, xa),
    ] {
        assert!(m.point_count > 0, "{m:?}");
        let closest = f64::from(fuzz_cases::closest_separation(&m));
        assert!(
            (closest - expected).abs() <= tolerance,
            "closest {closest}, expected {expected}: {m:?}"
        );
    }
}

/// Fuzz target `manifold`, input
/// `fuzz/regressions/manifold/near-collinear-incident-faces-three-deep-reports-64m`
/// (found by a long run).
///
/// A's bottom is three nearly collinear faces (−54,942 → −16,004 → −0.03 →
/// 92,547 m along y ≈ 0). B's top edge runs from (−63,710, −115.48) to
/// (92,599, 9.03), so it passes 9 m above A's corner (92,547, 0): the shapes
/// overlap there by the corner's depth below B's edge. B's edge is the reference;
/// the most anti-parallel incident face of A is a rounding tie among the three,
/// and the far-left one was picked; the repair tried only its neighbour (64.7 m
/// below B's edge at x = 0) and reported +64.7 m. The expected closest separation
/// is the `f64` signed distance of A's deepest corner from B's edge line.
#[test]
fn near_collinear_incident_faces_report_the_deep_corner() {
    let (a, xa, b, xb) = fuzz_cases::near_collinear_incident_faces();
    let bv = world_vertices(&b, xb);
    let (p, q) = (
        bv.iter()
            .copied()
            .fold(bv[0], |m, v| if v[0] > m[0] { v } else { m }),
        bv.iter()
            .copied()
            .fold(bv[0], |m, v| if v[0] < m[0] { v } else { m }),
    );
    // B's top edge from its right end to its left end; its outward normal is
    // up (toward A).
    let (ex, ey) = (q[0] - p[0], q[1] - p[1]);
    let len = (ex * ex + ey * ey).sqrt();
    let n = [-ey / len, ex / len];
    let n = if n[1] > 0.0 { n } else { [-n[0], -n[1]] };
    let expected = world_vertices(&a, xa)
        .iter()
        .map(|v| n[0] * (v[0] - p[0]) + n[1] * (v[1] - p[1]))
        .fold(f64::MAX, f64::min);
    assert!(expected < -8.0, "the shapes overlap: {expected}");
    assert_closest_both_ways((&a, xa), (&b, xb), expected, 0.05);
}

/// Fuzz target `hull`, input `fuzz/regressions/hull/make-polygon-rejects-non-convex-hull`.
///
/// `compute_hull` accepted these seven points as a hull, but the last one,
/// (-95210.88, -92294.836), lies 3.8e-5 m to the *right* of the line through its
/// neighbours (89.35, 65.00) and (-97930.84, -94930.875) (worked out exactly in
/// rational arithmetic from the f32 values): the corner is reflex, not the
/// ≥ 2 × LINEAR_SLOP left turn the hull promises. The f32 `turn_distance` and
/// `validate_hull` in hull.rs lost about 1e-2 m at 1.3e5 m, so they passed it, and
/// `make_polygon`, which checks the placed vertices exactly, rejected it. Both
/// now decide in f64 from the exact cross product.
#[test]
fn hull_near_huge_is_convex_enough_for_make_polygon() {
    let points = [
        Vec2::new(-97930.84, -94930.875),
        Vec2::new(-97882.016, -94930.875),
        Vec2::new(0.0, -121.47656),
        Vec2::new(121.44531, 70.15234),
        Vec2::new(121.44531, 78.15234),
        Vec2::new(89.34766, 64.99609),
        Vec2::new(-95210.88, -92294.836),
    ];
    let Ok(hull) = compute_hull(&points) else {
        return;
    };
    let polygon = make_polygon(&hull, 0.0);
    assert!(polygon.is_ok(), "hull {hull:?} gives {polygon:?}");
}

/// Fuzz target `hull`, input `fuzz/regressions/hull/quickhull-chord-end-listed-twice`.
///
/// Eight points, most near (−96,500, −96,500). Quickhull decided which side of a
/// chord a point lies on with an f32 cross product whose round-off there (about
/// 1e-2 m) exceeds the 2 × LINEAR_SLOP tolerance, so a chord's own end point
/// tested as lying beyond the chord, was taken as the next apex and listed again:
/// the hull outgrew its 8 slots. The side tests are now exact (f64 from the exact
/// cross product), so the property is the fuzz target's: no panic, and an `Ok`
/// hull is valid, lists each point once, and makes a polygon.
#[test]
fn quickhull_near_huge_lists_each_point_once() {
    let points = [
        v(0xc476f800, 0x477bd34d),
        v(0xc7bc6d8e, 0xc7bc6d8e),
        v(0xc7bc6d90, 0xc7bc6d90),
        v(0xc7bbb1de, 0xc7bccf37),
        v(0x00000000, 0xc2f78e00),
        v(0xc7bc6d8e, 0xc7bccf37),
        v(0x00000000, 0x00000000),
        v(0xc2f6f800, 0xc7bcb9da),
    ];
    let Ok(hull) = compute_hull(&points) else {
        return;
    };
    assert!(validate_hull(&hull), "{hull:?}");
    let pts = hull.points();
    for (i, p) in pts.iter().enumerate() {
        assert!(!pts[i + 1..].contains(p), "{p:?} listed twice in {hull:?}");
        assert!(points.contains(p));
    }
    let polygon = make_polygon(&hull, 0.0);
    assert!(polygon.is_ok(), "hull {hull:?} gives {polygon:?}");
}

/// Fuzz target `world`, input `fuzz/regressions/world/huge-time-step-overflows-velocity`.
///
/// `step` accepts any finite, non-negative time step. With `f32::MAX` seconds,
/// gravity times the substep overflows the velocity of a falling body to infinity,
/// the speed cap turns that into NaN and the body's position became NaN (in debug
/// builds `finalize_bodies` failed its `debug_assert!` on the velocity first). A body
/// whose motion overflows is now quarantined where it was (disabled, with a
/// `Velocity` quarantine event): the step succeeds, the world stays valid, every
/// position stays finite, and once enabled again the next ordinary step simulates
/// the body normally.
#[test]
fn huge_time_step_quarantines_an_overflowing_body() {
    let mut world = World::new(&WorldDef::default()).unwrap();
    let body = world
        .create_body(&BodyDef {
            body_type: BodyType::Dynamic,
            position: Pos::new(-20.0, 0.0),
            enable_sleep: false,
            is_bullet: true,
            allow_fast_rotation: true,
            ..Default::default()
        })
        .unwrap();
    for sub_steps in [1, 4] {
        world.body_mut(body).unwrap().enable().unwrap();
        world.step(f32::MAX, sub_steps).unwrap();
        world.validate().unwrap();
        let events = world.body_quarantine_events();
        assert_eq!(events.len(), 1);
        assert_eq!(events[0].body_id, body);
        assert_eq!(events[0].reason, QuarantineReason::Velocity);
        assert!(!world.body(body).unwrap().is_enabled());
        let xf = world.body(body).unwrap().transform();
        assert_eq!(xf.p, Pos::new(-20.0, 0.0), "stopped where it was");
        assert!(xf.q.c.is_finite() && xf.q.s.is_finite());
        assert_eq!(world.body(body).unwrap().linear_velocity(), Vec2::ZERO);
    }
    world.body_mut(body).unwrap().enable().unwrap();
    world.step(0.5, 1).unwrap();
    world.validate().unwrap();
    // One substep of 0.5 s under 10 m/s²: v = 5 m/s down, moved 2.5 m.
    assert_eq!(
        world.body(body).unwrap().linear_velocity(),
        Vec2::new(0.0, -5.0)
    );
    assert_eq!(world.body(body).unwrap().position(), Pos::new(-20.0, -2.5));
}

/// Fuzz target `world`: a step of `u32::MAX` substeps never ended (four billion
/// substeps). Counts above `MAX_SUB_STEPS` are now an error, like zero, and
/// change nothing.
#[test]
fn step_rejects_substep_counts_out_of_range() {
    let mut world = World::new(&WorldDef::default()).unwrap();
    for n in [0, MAX_SUB_STEPS + 1, u32::MAX] {
        assert!(matches!(
            world.step(1.0 / 60.0, n),
            Err(Error::OutOfRange { .. })
        ));
    }
    assert_eq!(world.step_count(), 0);
    world.step(1.0 / 60.0, MAX_SUB_STEPS).unwrap();
    assert_eq!(world.step_count(), 1);
}

/// Fuzz target `world`, input `fuzz/regressions/world/subnormal-mass-nan-center`.
///
/// A density of 1.4e-36 kg/m² on a 7.8 mm square gives a mass of 8.5e-41 kg, a
/// subnormal number whose inverse overflows: the centre of mass became
/// `moment · (1/mass) = 0 · ∞ = NaN`, the body's transform NaN, and the broad phase
/// refused the NaN box (a failed `debug_assert!` in the step). A mass below
/// `f32::MIN_POSITIVE` now counts as none (the 1 kg default of a body without
/// mass), and `set_body_mass_data` rejects one.
#[test]
fn subnormal_mass_counts_as_none() {
    let (mut world, body) = world_with_a_body_at_the_fuzzed_x();
    let h = 0.00390625;
    build::add_box_with(&mut world, body, h, h, &build::material(1.3925055e-36, 0.6));
    let mass = world.body(body).unwrap().mass_data();
    assert_eq!(mass.mass, 1.0);
    assert_eq!(mass.center, Vec2::ZERO);
    for _ in 0..10 {
        world.step(1.0 / 60.0, 4).unwrap();
        world.validate().unwrap();
    }
    let p = world.body(body).unwrap().position();
    assert!(p.is_finite() && p.y < 0.0, "falls: {p:?}");

    let tiny = MassData {
        mass: 1.0e-40,
        center: Vec2::ZERO,
        rotational_inertia: 1.0,
    };
    assert!(matches!(
        world
            .body_mut(body)
            .and_then(|mut view| view.set_mass_data(tiny)),
        Err(Error::OutOfRange { .. })
    ));
}

/// A default world with a shapeless dynamic body at (3.9960938, 0), where the
/// `world` target's mass inputs put it; the world and the body.
fn world_with_a_body_at_the_fuzzed_x() -> (World, BodyId) {
    let mut world = build::world();
    let body = build::body(&mut world, BodyType::Dynamic, Vec2::new(3.9960938, 0.0));
    (world, body)
}

/// Fuzz target `world`, input `fuzz/regressions/world/huge-density-overflows-mass`.
///
/// `set_shape_density` accepted any finite density: 3.3961457e38 kg/m² on a
/// 6.1 m square (37.25 m²) is a mass of 1.3e40 kg, infinite in `f32`. Once a second
/// shape (a capsule) was added, the body's first moment was infinite too and its
/// centre of mass `moment · (1/mass) = ∞ · 0 = NaN`; the body's transform became
/// NaN, its shape boxes NaN, and the step's `enlarge_proxies` failed its
/// `debug_assert!` when the broad phase refused the NaN box (in release builds the
/// proxy silently kept a box that no longer covered its shape). A density whose
/// shape mass, first moment or inertia is not finite is now an error that changes
/// nothing, and a body whose shapes' masses are each finite but sum beyond `f32`
/// counts as having no mass (1 kg at its origin, as for a mass too small to invert)
/// instead of getting a NaN centre.
#[test]
fn shape_masses_that_overflow_are_refused_or_count_as_none() {
    let (mut world, body) = world_with_a_body_at_the_fuzzed_x();
    let h = 3.051851;
    let square = build::add_box_with(&mut world, body, h, h, &build::material(10.0, 0.6));
    let before = world.body(body).unwrap().mass_data();
    // 10 kg/m² on (2h)² m².
    assert!((before.mass - 10.0 * 4.0 * h * h).abs() < 1.0e-3);

    // As fuzzed: (2h)² · 3.4e38 overflows.
    assert!(matches!(
        world
            .shape_mut(square)
            .unwrap()
            .set_density(3.3961457e38, true),
        Err(Error::OutOfRange { .. })
    ));
    assert_eq!(world.shape(square).unwrap().density(), 10.0);
    assert_eq!(world.body(body).unwrap().mass_data(), before);
    let huge = ShapeDef {
        density: 3.3961457e38,
        ..Default::default()
    };
    assert!(matches!(
        world.create_polygon_shape(body, &huge, &make_box(h, h).unwrap()),
        Err(Error::OutOfRange { .. })
    ));
    assert_eq!(world.body(body).unwrap().shapes().len(), 1);

    // Two unit squares of 2e38 kg each (finite apiece, 4e38 in all): no mass.
    let other = build::body(&mut world, BodyType::Dynamic, Vec2::new(-10.0, 0.0));
    let heavy = build::material(2.0e38, 0.6);
    build::add_box_with(&mut world, other, 0.5, 0.5, &heavy);
    assert_eq!(world.body(other).unwrap().mass_data().mass, 2.0e38);
    build::add_box_with(&mut world, other, 0.5, 0.5, &heavy);
    let none = world.body(other).unwrap().mass_data();
    assert_eq!((none.mass, none.center), (1.0, Vec2::ZERO));
    for _ in 0..10 {
        world.step(1.0 / 60.0, 4).unwrap();
        world.validate().unwrap();
    }
    for b in [body, other] {
        let p = world.body(b).unwrap().position();
        assert!(p.is_finite() && p.y < 0.0, "falls: {p:?}");
    }
}

/// FNV-1a over `bytes` (the snapshot checksum, from docs/snapshot-format.md).
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// Fuzz target `snapshot`, input
/// `fuzz/regressions/snapshot/relax-iterations-262145-never-ends` (a slow unit:
/// one input took 40 s).
///
/// The input flips bit 2 of payload byte 46, the third byte of the settings'
/// `relax_iterations` (after gravity and nine `f32` settings, 44 bytes), and
/// reseals the envelope: 1 becomes 2^18 + 1 relax passes per substep, which
/// `WorldDef::validate` accepted (it only refused 0), so every step ran
/// 2^20 passes over the contacts. The count is now limited to
/// `MAX_RELAX_ITERATIONS`, and such bytes do not decode.
#[test]
fn snapshot_with_a_huge_relax_count_is_refused() {
    const HEADER: usize = 20;
    let mut world = World::new(&WorldDef::default()).unwrap();
    let ground = world.create_body(&BodyDef::default()).unwrap();
    world
        .create_polygon_shape(ground, &ShapeDef::default(), &make_box(5.0, 0.5).unwrap())
        .unwrap();
    let bytes = world.snapshot().to_bytes();
    let at = HEADER + 8 + 9 * 4;
    assert_eq!(
        &bytes[at..at + 4],
        &1u32.to_le_bytes(),
        "relax_iterations is where the format says"
    );
    let mut body = bytes[..bytes.len() - 8].to_vec();
    body[at + 2] ^= 4;
    let sum = fnv1a(&body);
    body.extend_from_slice(&sum.to_le_bytes());
    assert!(matches!(
        impulse2d::Snapshot::from_bytes(&body),
        Err(Error::InvalidData(_))
    ));
}

/// Fuzz target `snapshot`: every saved input in `fuzz/regressions/snapshot/`,
/// read as the target reads it (`fuzz/src/snapshot_input.rs`), is refused by
/// `Snapshot::from_bytes` or `World::restore` with the world unchanged, or
/// restores a world that validates, steps five times and still validates.
///
/// - `fat-box-differs-from-proxy-box` flips a bit of a shape's fat box: the
///   shape's copy was larger than its broad-phase proxy's box, so the step
///   never enlarged the proxy and the shape moved out of it. `validate` now
///   requires the two boxes to be equal.
/// - `graph-contact-flagged-started-touching` sets the narrow phase's
///   "started touching" flag on a contact already in the constraint graph,
///   which the step's state change asserted could not happen. Change flags
///   are consumed within a step, so `validate` now refuses any between
///   steps, and a sim's touching flag must match its manifold.
/// - `move-buffer-key-without-move-slot` leaves a move-buffer key whose proxy
///   is live in its tree while that tree's move slots are empty: `validate`
///   indexed the slots unchecked and panicked inside `restore`. It now
///   requires a move slot for every proxy entry of each tree.
/// - `relax-iterations-262145-never-ends`: see
///   `snapshot_with_a_huge_relax_count_is_refused`.
/// - `joint-*` (mode 2: the seed with every joint type) flip a sign or an
///   exponent of a joint setting. Three of them made a motor's or spring's
///   largest force negative, and the first step panicked in `f32::clamp`
///   (min above max); all are now refused by restore (see
///   `snapshot_with_joint_settings_no_definition_accepts_is_refused`, which
///   finds its numbers by value: these inputs name byte positions in the
///   seed, which move when a change to the engine changes the seed world).
#[cfg(not(feature = "large-world"))]
#[test]
fn snapshot_fuzz_regressions_are_refused_or_valid() {
    let dir =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/regressions/snapshot");
    let mut count = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let data = std::fs::read(&path).unwrap();
        let Some(buffer) = snapshot_input::snapshot_buffer(&data) else {
            continue;
        };
        count += 1;
        let mut world = World::new(&WorldDef::default()).unwrap();
        world.create_body(&BodyDef::default()).unwrap();
        let before = world.snapshot();
        let Ok(snapshot) = impulse2d::Snapshot::from_bytes(&buffer) else {
            assert_eq!(world.snapshot(), before);
            continue;
        };
        if world.restore(&snapshot).is_err() {
            assert_eq!(world.snapshot(), before, "{path:?}");
            continue;
        }
        world.validate().unwrap();
        for _ in 0..5 {
            world.step(1.0 / 60.0, 4).unwrap();
        }
        world.validate().unwrap_or_else(|e| panic!("{path:?}: {e}"));
    }
    assert!(count >= 3, "{count} inputs in {dir:?}");
}

/// `bytes` (a whole snapshot) with the first occurrence of `from`'s bits after
/// the 20-byte header replaced by `to`'s, and the checksum recomputed.
fn snapshot_with_number_replaced(bytes: &[u8], from: f32, to: f32) -> Vec<u8> {
    const HEADER: usize = 20;
    let mut body = bytes[..bytes.len() - 8].to_vec();
    let pattern = from.to_le_bytes();
    let at = HEADER
        + body[HEADER..]
            .windows(4)
            .position(|w| w == pattern)
            .unwrap_or_else(|| panic!("{from} is in the snapshot"));
    body[at..at + 4].copy_from_slice(&to.to_le_bytes());
    let sum = fnv1a(&body);
    body.extend_from_slice(&sum.to_le_bytes());
    body
}

/// A fresh world restored from `bytes`, or the error, after checking that a
/// refused restore left the world unchanged.
fn restores(bytes: &[u8]) -> Result<World, Error> {
    let mut world = World::new(&WorldDef::default()).unwrap();
    let before = world.snapshot();
    // (`from_bytes` decodes and checks the whole world too.)
    let result = impulse2d::Snapshot::from_bytes(bytes).and_then(|s| world.restore(&s));
    if result.is_err() {
        assert_eq!(
            world.snapshot(),
            before,
            "a refused restore changes nothing"
        );
    }
    result.map(|()| world)
}

/// Fuzz target `snapshot`, input
/// `fuzz/regressions/snapshot/polygon-vertex-minus-infinity-refused-by-broad-phase`.
///
/// A flipped byte turned a polygon vertex's x into −inf. Nothing on the decode
/// path looked at shape geometry, so the world restored, and the first step's
/// box for that shape reached the broad phase, which refused it
/// (`debug_assert!` in `enlarge_proxies`; in a release build the proxy kept a
/// box that no longer covered the shape). Restoring now checks every number a
/// step reads as the constructors do: each number below, written where a
/// constructor or setter would refuse it, makes `restore` an `InvalidData`
/// error that leaves the world unchanged, while the unaltered bytes restore.
#[test]
fn snapshot_with_numbers_no_constructor_makes_is_refused() {
    // Distinctive values, each stored once in the snapshot before anything
    // else holds the same bits: the body sits at x = 1, so no box corner
    // repeats the half-width, and hy < hx, so the body's smallest extent is hy.
    let (hx, hy, friction, density) = (0.429_687_5f32, 0.335_937_5f32, 0.718_75f32, 2.562_5f32);
    let build = || {
        let (mut world, _) = world_on_a_slab();
        let body = world
            .create_body(&BodyDef::dynamic(Vec2::new(1.0, 2.0)))
            .unwrap();
        build::add_box_with(
            &mut world,
            body,
            hx,
            hy,
            &build::material(density, friction),
        );
        world
    };
    let bytes = build().snapshot().to_bytes();
    restores(&bytes).expect("the unaltered snapshot restores");
    let cases = [
        ("a vertex at -inf", hx, f32::NEG_INFINITY),
        ("a vertex at NaN", hx, f32::NAN),
        ("a vertex beyond HUGE", hx, 1.0e6),
        // (−1, −hy) after (−hx, −hy): the polygon turns clockwise there.
        ("a folded polygon", hx, -1.0),
        ("a negative friction", friction, -0.5),
        ("a NaN density", density, f32::NAN),
    ];
    assert_each_refused(&bytes, &cases);
}

/// What replaying `bytes` (a whole recording) comes to: `Ok(true)` when it
/// plays to its end with no divergence, `Ok(false)` when it plays to its end
/// and diverges, `Err` when the bytes do not decode or a replayed step or call
/// is refused. The replay world validates after every step it took.
fn replays(bytes: &[u8]) -> Result<bool, Error> {
    let recording = impulse2d::Recording::from_bytes(bytes)?;
    let mut replay = impulse2d::Replay::new(&recording, 1)?;
    loop {
        let step = replay.step();
        replay.world().validate().unwrap();
        match step? {
            Some(_) => {}
            None => return Ok(replay.divergence().is_none()),
        }
    }
}

/// `bytes` (a whole recording) with every occurrence of `from`'s bits replaced
/// by `to`'s, and the FNV-1a checksum (the last 8 bytes) recomputed.
fn recording_with_number_replaced(bytes: &[u8], from: f32, to: f32) -> Vec<u8> {
    let mut body = bytes[..bytes.len() - 8].to_vec();
    let (pattern, with) = (from.to_le_bytes(), to.to_le_bytes());
    let mut found = 0;
    let mut at = 0;
    while at + 4 <= body.len() {
        if body[at..at + 4] == pattern {
            body[at..at + 4].copy_from_slice(&with);
            found += 1;
            at += 4;
        } else {
            at += 1;
        }
    }
    assert!(found > 0, "{from} is in the recording");
    let sum = fnv1a(&body);
    body.extend_from_slice(&sum.to_le_bytes());
    body
}

/// Fuzz target `replay`, input `fuzz/regressions/replay/enlarge-proxy-refused-in-step`.
///
/// The input flipped bytes of the seed recording's `create_shape` call (a box
/// made while recording), so that one vertex's x read about -3e38. The record
/// decoder checked only a polygon's vertex count: `Polygon`'s fields are
/// private, so `World::create_shape` trusts any polygon it is given, and the
/// replayed call built a shape with an infinite extent. Its first step
/// computed a fat box with a -inf side, which the broad phase refused
/// (`debug_assert!` in `enlarge_proxies`; a release build silently kept the
/// old proxy box). The decoder now checks a polygon as the constructors do:
/// each number below, written over the box's half-width in the recording,
/// makes the recording refused (`InvalidData`), and the unaltered recording
/// replays to its end without diverging.
#[test]
fn recording_with_a_polygon_no_constructor_makes_is_refused() {
    // A distinctive half-width, stored nowhere else: the body sits at x = 1,
    // hy differs, and the box is made while recording, so its numbers are in
    // the logged call.
    let (hx, hy) = (0.429_687_5f32, 0.335_937_5f32);
    let (mut world, _) = world_on_a_slab();
    world.start_recording(1).unwrap();
    let body = world
        .create_body(&BodyDef::dynamic(Vec2::new(1.0, 2.0)))
        .unwrap();
    build::add_box_with(&mut world, body, hx, hy, &ShapeDef::default());
    let bytes = ten_recorded_steps(&mut world);
    let cases = [
        ("a vertex at -inf", hx, f32::NEG_INFINITY),
        ("a vertex at NaN", hx, f32::NAN),
        ("a vertex beyond HUGE", hx, 1.0e6),
        ("a vertex near f32::MAX", hx, -3.0e38),
        // (−1, −hy) after (−hx, −hy): the polygon turns clockwise there.
        ("a folded polygon", hx, -1.0),
    ];
    assert_each_recording_refused(&bytes, &cases);
}

/// Steps `world` (recording) ten times, stops the recording and returns its
/// bytes, after checking that they replay to the end without diverging.
fn ten_recorded_steps(world: &mut World) -> Vec<u8> {
    for _ in 0..10 {
        world.step(1.0 / 60.0, 4).unwrap();
    }
    let bytes = world.stop_recording().unwrap().as_bytes().to_vec();
    assert!(
        matches!(replays(&bytes), Ok(true)),
        "the unaltered recording replays"
    );
    bytes
}

/// For each `(what, from, to)`: the recording `bytes` with the number `from`
/// replaced by `to` are refused (`InvalidData`) when read or replayed.
fn assert_each_recording_refused(bytes: &[u8], cases: &[(&str, f32, f32)]) {
    for &(what, from, to) in cases {
        let altered = recording_with_number_replaced(bytes, from, to);
        assert!(
            matches!(replays(&altered), Err(Error::InvalidData(_))),
            "{what} is refused"
        );
    }
}

/// Found by reading the recording decoder after the `replay` failure above
/// (no fuzz input): a `create_joint` record carries the frames and typed data
/// that the typed constructors build from a checked definition, and
/// `World::create_joint` trusts them. A record whose motor torque read -1
/// made the replay's first step panic in `f32::clamp` (min above max). The
/// decoder now checks a recorded joint as restore checks a stored one: each
/// number below, written over one setting of a revolute joint created while
/// recording, makes the recording refused (`InvalidData`), and the unaltered
/// recording replays to its end without diverging.
#[test]
fn recording_with_joint_settings_no_definition_accepts_is_refused() {
    // Distinctive values, each stored nowhere else in the recording.
    let (torque, speed, lower, upper) = (0.671_875f32, 0.546_875f32, -0.390_625f32, 0.453_125f32);
    let (mut world, ground) = world_on_a_slab();
    world.start_recording(1).unwrap();
    let body = build::box_body(
        &mut world,
        BodyType::Dynamic,
        Vec2::new(1.0, 2.0),
        0.25,
        0.25,
    );
    let mut def = impulse2d::RevoluteJointDef::default();
    def.base.body_a = ground;
    def.base.body_b = body;
    (def.enable_motor, def.max_motor_torque, def.motor_speed) = (true, torque, speed);
    (def.enable_limit, def.lower_angle, def.upper_angle) = (true, lower, upper);
    world.create_revolute_joint(&def).unwrap();
    let bytes = ten_recorded_steps(&mut world);
    let cases = [
        ("a negative motor torque", torque, -1.0),
        ("a NaN motor torque", torque, f32::NAN),
        ("an infinite motor speed", speed, f32::INFINITY),
        ("a lower angle above the upper", lower, 1.0),
        ("an upper angle beyond pi", upper, 4.0),
    ];
    assert_each_recording_refused(&bytes, &cases);
}

/// Fuzz target `replay`: every saved input in `fuzz/regressions/replay/`, read
/// as the target reads it (`fuzz/src/snapshot_input.rs`), is refused, or plays
/// to its end with a world that validates after every step (see
/// `recording_with_a_polygon_no_constructor_makes_is_refused` for
/// `enlarge-proxy-refused-in-step`).
#[cfg(not(feature = "large-world"))]
#[test]
fn replay_fuzz_regressions_are_refused_or_valid() {
    let dir =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/regressions/replay");
    let mut count = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let data = std::fs::read(&path).unwrap();
        let Some(buffer) = snapshot_input::recording_buffer(&data) else {
            continue;
        };
        count += 1;
        // Played to its end or refused; either way, no panic and a valid world.
        let _ = replays(&buffer);
    }
    assert!(count >= 1, "{count} inputs in {dir:?}");
}

/// A default world with a static 10 m × 1 m box centred on the origin; the
/// world and the box's body.
fn world_on_a_slab() -> (World, BodyId) {
    let mut world = build::world();
    let ground = build::box_body(&mut world, BodyType::Static, Vec2::ZERO, 5.0, 0.5);
    (world, ground)
}

/// For each `(what, from, to)`: `bytes` with the number `from` replaced by
/// `to` do not restore (`InvalidData`), and change nothing.
fn assert_each_refused(bytes: &[u8], cases: &[(&str, f32, f32)]) {
    for &(what, from, to) in cases {
        let altered = snapshot_with_number_replaced(bytes, from, to);
        assert!(
            matches!(restores(&altered), Err(Error::InvalidData(_))),
            "{what} is refused"
        );
    }
}

/// GJK's distance between the cores (radii left out) of `input`'s two proxies
/// placed at `xa` and `xb`.
fn core_distance(
    input: &ToiInput,
    xa: Transform,
    xb: Transform,
    cache: &mut SimplexCache,
) -> DistanceOutput {
    let distance_input = DistanceInput {
        proxy_a: input.proxy_a,
        proxy_b: input.proxy_b,
        transform_a: xa,
        transform_b: xb,
        use_radii: false,
    };
    shape_distance(&distance_input, cache)
}

/// The `f64` distance between two convex point sets given by their points (a
/// segment, a polygon or any cloud), when they do not overlap: the smallest
/// distance from a point of one to a segment between two points of the other
/// (the hulls' edges are among those segments, and every other one lies inside
/// its hull).
fn cloud_distance(a: &[[f64; 2]], b: &[[f64; 2]]) -> f64 {
    let mut d = f64::MAX;
    for (p, q) in [(a, b), (b, a)] {
        for v in p {
            for i in 0..q.len() {
                for j in i..q.len() {
                    d = d.min(point_segment_distance(*v, q[i], q[j]));
                }
            }
        }
    }
    d
}

/// `points` placed by `xf`, in `f64`.
fn placed(points: &[Vec2], xf: Transform) -> Vec<[f64; 2]> {
    let (c, s) = (f64::from(xf.q.c), f64::from(xf.q.s));
    points
        .iter()
        .map(|v| {
            let (x, y) = (f64::from(v.x), f64::from(v.y));
            [
                f64::from(xf.p.x) + c * x - s * y,
                f64::from(xf.p.y) + s * x + c * y,
            ]
        })
        .collect()
}

/// Fuzz target `toi`, inputs `fuzz/regressions/toi/segment-spinning-54-rad-per-step-missed-at-0.16`
/// (CI's smoke on 4b2e6ce) and `sliver-triangle-weights-of-mixed-sign-sum-to-zero`
/// (a long run on 94ad1b3).
///
/// An 86 m segment A sweeps about 105 m while turning 54.66 rad (8.7 turns), or
/// 8.9 rad, past a 123 m sliver B of six or seven points (several of them at its
/// origin). The target's no-miss check samples the sweep with one warm-started
/// simplex cache, and at one sample GJK said 0 for shapes 97 m (53 m) apart:
/// its triangle of `A − B` had two vertices 4 mm apart and the third 100 m
/// away, all 50–130 m from the origin, so every cross product in the Voronoi
/// region tests was round-off and none of them passed, which the solver read
/// as "origin inside". (`time_of_impact` itself was right; its angular bound is
/// conservative for any turn.) The first fix checked that the triangle's
/// barycentric weights put the point at the origin; the long run then found
/// weights of −424, −1.3e7 and +1.3e7 whose `f32` sum of the vertices came out
/// exactly 0. A triangle now holds the origin only when all three weights are
/// positive and their point is the origin; otherwise its nearest edge stands.
/// Sampled as the target does, warm-started, every distance must be the `f64`
/// distance of the same `f32` poses to within `f32` round-off, and none below
/// the time of impact's target.
#[test]
fn warm_started_distance_of_a_far_sliver_triangle_is_not_an_overlap() {
    use impulse2d::Sweep;
    use impulse2d::collision::{ShapeProxy, make_proxy, time_of_impact};
    use impulse2d::core::{LINEAR_SLOP, TOI_TARGET_FRACTION};
    let a_points = [Vec2::new(86.33594, 0.0), Vec2::ZERO];
    let b_points = [
        Vec2::new(0.0, -123.49219),
        Vec2::ZERO,
        Vec2::new(0.0, -0.00390625),
        Vec2::new(-0.00390625, -105.00391),
        Vec2::ZERO,
        Vec2::ZERO,
        Vec2::ZERO,
    ];
    let still = |local_center: Vec2, c1: Vec2| Sweep {
        local_center,
        c1,
        c2: Vec2::ZERO,
        a1: 0.0,
        a2: 0.0,
    };
    let cases = [
        (
            7,
            Sweep {
                local_center: Vec2::new(-0.00390625, -0.00390625),
                c1: Vec2::new(-105.41406, 0.0),
                c2: Vec2::ZERO,
                a1: 54.660156,
                a2: 0.0,
            },
            still(Vec2::new(-8.5859375, 0.0), Vec2::ZERO),
        ),
        (
            6,
            Sweep {
                local_center: Vec2::ZERO,
                c1: Vec2::new(-0.00390625, -0.00390625),
                c2: Vec2::new(-105.83984, 0.0),
                a1: 77.33594,
                a2: 86.21484,
            },
            still(Vec2::ZERO, Vec2::new(-308.6875, 0.0)),
        ),
    ];
    for (b_count, sweep_a, sweep_b) in cases {
        let b_points = &b_points[..b_count];
        let proxy_a: ShapeProxy = make_proxy(&a_points, 0.0).unwrap();
        let proxy_b: ShapeProxy = make_proxy(b_points, 0.0).unwrap();
        let input = ToiInput {
            proxy_a,
            proxy_b,
            sweep_a,
            sweep_b,
            max_fraction: 1.0,
        };
        let toi = time_of_impact(&input);
        let floor = LINEAR_SLOP - TOI_TARGET_FRACTION * LINEAR_SLOP;
        let mut cache = SimplexCache::default();
        for k in 0..64 {
            let t = toi.fraction * k as f32 / 64.0;
            let (xa, xb) = (input.sweep_a.transform_at(t), input.sweep_b.transform_at(t));
            let d = core_distance(&input, xa, xb, &mut cache);
            let exact = cloud_distance(&placed(&a_points, xa), &placed(b_points, xb));
            // f32 round-off at 300 m: a few units of 3e-5 m.
            assert!(
                (f64::from(d.distance) - exact).abs() <= 1e-3,
                "t = {t}: GJK {} against {exact}",
                d.distance
            );
            assert!(d.distance >= floor, "missed contact at t = {t}: {d:?}");
        }
    }
}

/// Fuzz target `manifold`, input
/// `fuzz/regressions/manifold/closest-separation-14.76m-reported` (CI's smoke
/// on 4b2e6ce).
///
/// A 92 km sliver triangle whose corner (5e-6, 0.000373) sits 0.37 mm above the
/// top end of a vertical 115 m segment. The triangle's bottom face separates
/// most (0.000373 m) and is the reference, a sliver less than a tenth of the
/// slop, so the manifold is clipped; but the segment, the incident edge, runs
/// along the face's normal and just outside its side plane (5 µm), and the
/// clip cut it where it crosses that plane 7.4 m down: a contact 14.76 m
/// "apart". When no clip comes within reach, the closest features of the
/// reference face and the incident edges at the deepest vertex are now the
/// contact: here corner to corner, with the true gap. Expected: one point whose
/// separation is the `f64` distance of the shapes, in both argument orders the
/// library has (the segment first).
#[test]
fn segment_standing_on_the_end_of_a_face_reports_the_gap() {
    let triangle = make_polygon(
        &compute_hull(&[
            Vec2::new(92547.38, 27753.531),
            Vec2::new(5e-6, 0.000373),
            Vec2::new(92547.38, -0.030977),
        ])
        .unwrap(),
        0.0,
    )
    .unwrap();
    let segment = Segment {
        point1: Vec2::ZERO,
        point2: Vec2::new(0.0, -115.484375),
    };
    let xf = Transform::IDENTITY;
    let exact = cloud_distance(
        &placed(triangle.vertices(), xf),
        &placed(&[segment.point1, segment.point2], xf),
    );
    assert!((exact - 0.000373).abs() < 1e-6, "{exact}");
    let m = collide_segment_and_polygon(&segment, xf, &triangle, xf);
    assert!(m.point_count > 0, "{m:?}");
    let closest = f64::from(fuzz_cases::closest_separation(&m));
    assert!(
        (closest - exact).abs() <= 1e-6,
        "closest {closest} vs {exact}: {m:?}"
    );
    // The normal points from the segment's top end to the triangle's corner.
    assert!(m.normal.y > 0.999, "{m:?}");
}

/// Fuzz target `manifold`, input
/// `fuzz/regressions/manifold/far-thin-polygons-closest-0.0273-past-reach` (a
/// long run on 21d0105).
///
/// A 4-gon and a triangle, each about 92 km long and a few centimetres thick at
/// the end where they meet; in the world, their `f64` distance (from the same
/// `f32` vertices and transforms) is 0.0232 m, just beyond the speculative
/// distance, while `f32` coordinates 92 km from a polygon's first vertex (the
/// working frame's origin) are 7.8 mm apart. SAT found the shapes within reach,
/// by round-off, and the clip reported 0.0273 m, beyond it. A polygon manifold
/// whose closest point stays beyond the speculative distance after the repairs
/// is now empty, as the manifold module promises. Expected: in both orders,
/// empty, or a closest separation within reach and within the `f32` spacing
/// there (a few times 7.8 mm) of the `f64` gap.
#[test]
fn far_thin_polygons_just_out_of_reach_stay_within_the_rule() {
    let a = make_polygon(
        &compute_hull(&[
            Vec2::new(0.009333, 118.39453),
            Vec2::new(0.030187, 0.009333),
            Vec2::new(92599.26, -82.484375),
            Vec2::new(92547.38, 0.0),
        ])
        .unwrap(),
        0.0,
    )
    .unwrap();
    let b = make_polygon(
        &compute_hull(&[
            Vec2::new(92558.73, 2739.6563),
            Vec2::new(-3.5415578, 118.97317),
            Vec2::new(0.009333, 0.030069),
        ])
        .unwrap(),
        0.0,
    )
    .unwrap();
    let xa = Transform::new(
        Vec2::new(0.0, 0.009094),
        Rot {
            c: -0.5544861,
            s: -0.83219296,
        },
    );
    let xb = Transform::new(
        Vec2::ZERO,
        Rot {
            c: -0.59702283,
            s: 0.8022242,
        },
    );
    let exact = cloud_distance(&world_vertices(&a, xa), &world_vertices(&b, xb));
    assert!((exact - 0.0232).abs() < 1e-4, "{exact}");
    for m in [
        collide_polygons(&a, xa, &b, xb),
        collide_polygons(&b, xb, &a, xa),
    ] {
        if m.point_count == 0 {
            continue;
        }
        let closest = fuzz_cases::closest_separation(&m);
        assert!(closest <= SPECULATIVE_DISTANCE, "{m:?}");
        assert!(
            (f64::from(closest) - exact).abs() <= 0.04,
            "{closest} vs {exact}: {m:?}"
        );
    }
}

/// The largest separation of `b` from an edge of `a` (both convex, counter-
/// clockwise, in `f64`): the separating-axis test over `a`'s edge normals. With
/// the roles swapped too, the larger of the two is negative exactly when the
/// polygons overlap (by at least that much along every edge normal).
fn edge_separation(a: &[[f64; 2]], b: &[[f64; 2]]) -> f64 {
    let mut best = f64::MIN;
    for i in 0..a.len() {
        let (p, q) = (a[i], a[(i + 1) % a.len()]);
        let (ex, ey) = (q[0] - p[0], q[1] - p[1]);
        let length = ex.hypot(ey);
        let (nx, ny) = (ey / length, -ex / length);
        let nearest = b
            .iter()
            .map(|v| (v[0] - p[0]) * nx + (v[1] - p[1]) * ny)
            .fold(f64::MAX, f64::min);
        best = best.max(nearest);
    }
    best
}

/// Fuzz target `toi`, input
/// `fuzz/regressions/toi/long-thin-quad-overlapping-box-gjk-said-8mm-apart`
/// (CI's fuzz smoke on a clone of 3d63136; it was kept in
/// `fuzz/known-failures/` as "hit late by 1.7e-7").
///
/// A 600 m long, 1.9 cm wide quad A (spinning 43 rad in the sweep) whose
/// middle already overlaps a 2 cm box B by 1.3 cm at the start. GJK said
/// the cores were 8 mm apart: its last triangle of `A − B` (two vertices
/// 3.5 cm apart 300 m out, the third 600 m away on the other side) held the
/// origin, with weights 0.50, 0.32 and 0.18, but the point those `f32`
/// weights gave was 17 mm from the origin, more than the test for "inside"
/// allowed, so the nearest edge stood, 8 mm away. `time_of_impact` then
/// advanced to 9.2e-7 and reported a hit there, after the target's sampling
/// had found the cores touching. The triangle now holds the origin when the
/// three sub-triangle areas have one sign, each larger than its round-off.
/// Expected: `Overlapped` at 0, and, with B moved across A's long edge from
/// 3 cm inside to 3 cm outside, a distance of 0 within `f32` round-off at
/// 300 m (1e-4 m) wherever the `f64` separating-axis test says the cores
/// overlap, and the `f64` distance (of the same `f32` poses) within that
/// wherever it says they are apart.
#[test]
fn long_thin_quad_overlapping_a_box_is_not_reported_apart() {
    use impulse2d::Sweep;
    use impulse2d::collision::{ToiState, make_proxy, time_of_impact};
    let quad = [
        Vec2::new(78.30331, 286.64722),
        Vec2::new(78.284966, 286.65222),
        Vec2::new(-78.284294, -286.6657),
        Vec2::new(-78.26595, -286.67072),
    ];
    let square = [
        Vec2::new(0.00034683757, 0.00042644423),
        Vec2::new(0.018852001, 0.00060241576),
        Vec2::new(0.018671162, 0.019619554),
        Vec2::new(0.00016599894, 0.019443583),
    ];
    let proxy_a = make_proxy(&quad, 0.0).unwrap();
    let proxy_b = make_proxy(&square, 0.009509).unwrap();
    let c = Vec2::new(-0.00390625, -0.00390625);
    let sweep = |a1: f32, a2: f32| Sweep {
        local_center: c,
        c1: c,
        c2: c,
        a1,
        a2,
    };
    let input = ToiInput {
        proxy_a,
        proxy_b,
        sweep_a: sweep(-0.25390625, 42.996094),
        sweep_b: sweep(-0.00390625, 0.0),
        max_fraction: 0.16796875,
    };
    let (xa, xb) = (
        input.sweep_a.transform_at(0.0),
        input.sweep_b.transform_at(0.0),
    );
    let overlap = edge_separation(&placed(&quad, xa), &placed(&square, xb))
        .max(edge_separation(&placed(&square, xb), &placed(&quad, xa)));
    assert!(overlap < -0.01, "the cores overlap at the start: {overlap}");
    let toi = time_of_impact(&input);
    assert_eq!((toi.state, toi.fraction), (ToiState::Overlapped, 0.0));

    // B moved along A's long edge's outward normal (world), in 1 mm steps.
    let edge = xa.q.rotate(quad[3] - quad[0]);
    let normal = Vec2::new(edge.y, -edge.x).normalize();
    let mut seen = (0, 0);
    for step in -30..=30 {
        let xb = Transform::new(xb.p + normal * (0.001 * step as f32), xb.q);
        let (pa, pb) = (placed(&quad, xa), placed(&square, xb));
        let separation = edge_separation(&pa, &pb).max(edge_separation(&pb, &pa));
        let d = core_distance(&input, xa, xb, &mut SimplexCache::default());
        // f32 round-off of points 300 m out: a few units of 3e-5 m (an
        // overlap may come out as a distance that small).
        if separation < -1e-4 {
            assert!(
                d.distance <= 1e-4,
                "offset {step} mm: GJK {} for an overlap of {separation}",
                d.distance
            );
            seen.0 += 1;
        } else if separation > 1e-4 {
            let exact = cloud_distance(&pa, &pb);
            assert!(
                (f64::from(d.distance) - exact).abs() <= 1e-4,
                "offset {step} mm: GJK {} against {exact}",
                d.distance
            );
            seen.1 += 1;
        }
    }
    assert!(seen.0 >= 10 && seen.1 >= 10, "{seen:?}");
}

/// Fuzz target `snapshot` (joint-rich seed, see `fuzz/src/snapshot_input.rs`):
/// joint settings read from a snapshot are checked as the joint's creation
/// and setters check them.
///
/// Before, nothing on the restore path looked at a joint's numbers: a NaN or
/// negative stiffness, a NaN limit or crossed limits restored, and the
/// solver then worked with them. Each number below, written where a joint
/// definition's `validate` refuses it, must make `restore` an `InvalidData`
/// error that leaves the world unchanged; the unaltered bytes restore and
/// step, and the restored world gives the same snapshot as the original.
#[test]
fn snapshot_with_joint_settings_no_definition_accepts_is_refused() {
    use impulse2d::{
        DistanceJointDef, JointDef, MotorJointDef, MouseJointDef, PogoJointDef, PrismaticJointDef,
        RevoluteJointDef, WeldJointDef, WheelJointDef,
    };
    // Distinctive values (k/256 with odd k, none a box size, mass or
    // position of this world), each stored once.
    let revolute_hertz = 3.12109375f32;
    let revolute_damping = 0.61328125f32;
    let (revolute_lower, revolute_upper) = (-0.41015625f32, 0.53515625f32);
    let revolute_torque = 7.76953125f32;
    let (distance_min, distance_max) = (0.30859375f32, 2.19140625f32);
    let weld_hertz = 5.05078125f32;
    let wheel_hertz = 1.37890625f32;
    let (prismatic_lower, prismatic_upper) = (-0.72265625f32, 0.84765625f32);
    let mouse_hertz = 6.44140625f32;
    let motor_max_force = 12.34765625f32;
    let pogo_rest = 0.91796875f32;
    let (constraint_hertz, force_threshold) = (41.26953125f32, 1234.56640625f32);
    let build = || {
        let (mut world, ground) = world_on_a_slab();
        let mut bodies = Vec::new();
        for i in 0..9 {
            let body = world
                .create_body(&BodyDef::dynamic(Vec2::new(1.5 * i as f32 - 6.0, 3.0)))
                .unwrap();
            build::add_box(&mut world, body, 0.25, 0.25);
            bodies.push(body);
        }
        let base = |i: usize| JointDef {
            body_a: ground,
            body_b: bodies[i],
            ..JointDef::default()
        };
        world
            .create_revolute_joint(&RevoluteJointDef {
                base: JointDef {
                    constraint_hertz: Some(constraint_hertz),
                    force_threshold,
                    ..base(0)
                },
                enable_spring: true,
                hertz: revolute_hertz,
                damping_ratio: revolute_damping,
                enable_limit: true,
                lower_angle: revolute_lower,
                upper_angle: revolute_upper,
                enable_motor: true,
                max_motor_torque: revolute_torque,
                ..RevoluteJointDef::default()
            })
            .unwrap();
        world
            .create_distance_joint(&DistanceJointDef {
                base: base(1),
                enable_limit: true,
                min_length: distance_min,
                max_length: distance_max,
                ..DistanceJointDef::default()
            })
            .unwrap();
        world
            .create_weld_joint(&WeldJointDef {
                base: base(2),
                linear_hertz: weld_hertz,
                ..WeldJointDef::default()
            })
            .unwrap();
        world
            .create_wheel_joint(&WheelJointDef {
                base: base(3),
                hertz: wheel_hertz,
                ..WheelJointDef::default()
            })
            .unwrap();
        world
            .create_prismatic_joint(&PrismaticJointDef {
                base: base(4),
                enable_limit: true,
                lower_translation: prismatic_lower,
                upper_translation: prismatic_upper,
                ..PrismaticJointDef::default()
            })
            .unwrap();
        world
            .create_mouse_joint(&MouseJointDef {
                base: base(5),
                hertz: mouse_hertz,
                ..MouseJointDef::default()
            })
            .unwrap();
        world
            .create_motor_joint(&MotorJointDef {
                base: base(6),
                max_force: motor_max_force,
                ..MotorJointDef::default()
            })
            .unwrap();
        world
            .create_pogo_joint(&PogoJointDef {
                base: base(7),
                rest_length: pogo_rest,
                ..PogoJointDef::default()
            })
            .unwrap();
        world
    };
    let bytes = build().snapshot().to_bytes();
    let mut world = restores(&bytes).expect("the unaltered snapshot restores");
    assert_eq!(world.snapshot().to_bytes(), bytes);
    for _ in 0..30 {
        world.step(1.0 / 60.0, 4).unwrap();
    }
    world.validate().unwrap();
    let cases = [
        ("a NaN revolute spring stiffness", revolute_hertz, f32::NAN),
        ("a negative revolute spring stiffness", revolute_hertz, -1.0),
        ("a negative revolute damping ratio", revolute_damping, -0.5),
        (
            "an infinite revolute damping ratio",
            revolute_damping,
            f32::INFINITY,
        ),
        ("a NaN lower angle", revolute_lower, f32::NAN),
        ("crossed angle limits", revolute_lower, 0.75),
        ("an upper angle beyond pi", revolute_upper, 4.0),
        ("a negative motor torque", revolute_torque, -2.0),
        ("a negative min length", distance_min, -1.0),
        ("an infinite max length", distance_max, f32::INFINITY),
        ("a NaN weld stiffness", weld_hertz, f32::NAN),
        ("a negative wheel spring stiffness", wheel_hertz, -3.0),
        ("crossed translation limits", prismatic_upper, -0.8),
        ("a NaN mouse stiffness", mouse_hertz, f32::NAN),
        ("a negative motor joint force", motor_max_force, -1.0),
        ("a negative pogo rest length", pogo_rest, -0.5),
        ("a negative constraint stiffness", constraint_hertz, -4.0),
        ("a NaN force threshold", force_threshold, f32::NAN),
    ];
    assert_each_refused(&bytes, &cases);
}

/// Fuzz target `toi`, input
/// `fuzz/regressions/toi/point-against-subnormal-edge-distance-nan` (found by the lead's
/// 2,888 CPU-s toi run of session 7, 758 M inputs).
///
/// A is four points on the x axis spanning [−1.04e-21, 1.88e-13] m (so its support edge
/// can be 1e-21 m long), B one point 99.609375 m above the axis at x = −7e-22. GJK's
/// edge between two of A's points had weights of about 1e-42 (subnormal), whose sum's
/// reciprocal overflowed to infinity, so the witness points and the distance came out
/// NaN. The nearest point of A lies straight below B (x = −7e-22 is inside A's span),
/// so the distance is B's height.
#[test]
fn distance_to_an_edge_of_subnormal_length_is_finite() {
    use impulse2d::collision::ShapeProxy;
    let mut points = [Vec2::ZERO; 8];
    points[2] = Vec2::new(-1.036_389_8e-21, 0.0);
    points[3] = Vec2::new(1.876_218_8e-13, 0.0);
    let proxy_a = ShapeProxy {
        points,
        count: 4,
        radius: 7.70337e-40,
    };
    let mut points = [Vec2::ZERO; 8];
    points[0] = Vec2::new(-6.99425e-22, 99.609375);
    let proxy_b = ShapeProxy {
        points,
        count: 1,
        radius: 0.0,
    };
    for use_radii in [false, true] {
        let input = DistanceInput {
            proxy_a,
            proxy_b,
            transform_a: Transform::IDENTITY,
            transform_b: Transform::IDENTITY,
            use_radii,
        };
        let mut cache = SimplexCache::default();
        for _ in 0..2 {
            let d = shape_distance(&input, &mut cache);
            assert!(
                (d.distance - 99.609375).abs() <= 1e-5,
                "distance {} ({d:?})",
                d.distance
            );
            for p in [d.point_a, d.point_b, d.normal] {
                assert!(p.x.is_finite() && p.y.is_finite(), "{d:?}");
            }
            assert!(
                (d.point_b.y - d.point_a.y - 99.609375).abs() <= 1e-5,
                "{d:?}"
            );
        }
    }
}

/// Fuzz target `toi`, input
/// `fuzz/regressions/toi/degenerate-edge-45m-hit-late-by-5.5e-5` (found by the lead's
/// 249 CPU-s toi run of session 7 on the fix above).
///
/// A is a 42 m segment on the x axis from the origin (plus a point 1e-21 m to the left
/// of it), B a 3.7 cm segment from (0, 0.025344) to (−0.026894, 0). Cold GJK built the
/// triangle of `A − B` from A's two points 1e-21 m apart and both ends of B; the
/// product of two of its cross products (about 1e-23 each) underflowed to 0, which read
/// as "the origin is outside across the 1e-21 m edge", so GJK kept that edge and said
/// 0.025344 m (the end of B above A's end) instead of the distance from A's end to B's
/// segment. Time of impact then advanced from that distance and reported a hit when the
/// segments already crossed.
///
/// Checked here: the distance is the one from the origin (A's end) to the line of B,
/// whose foot lies inside B (f64 from the same `f32` inputs); and a sweep of A towards B
/// reports a hit no later than the first sampled time at which the cores are within the
/// target (the fuzz target's own check, done in f64).
#[test]
fn distance_from_a_triangle_with_a_subnormal_edge_is_the_nearest_edge() {
    use impulse2d::collision::{ShapeProxy, ToiState, time_of_impact};
    use impulse2d::core::LINEAR_SLOP;
    let mut points = [Vec2::ZERO; 8];
    points[2] = Vec2::new(-1.036_389_8e-21, 0.0);
    points[3] = Vec2::new(42.324_22, 0.0);
    let proxy_a = ShapeProxy {
        points,
        count: 4,
        radius: 0.0,
    };
    let (b0, b1) = (
        Vec2::new(-2.732_128_8e-24, 0.025_344),
        Vec2::new(-0.026_894, 0.0),
    );
    let mut points = [Vec2::ZERO; 8];
    points[0] = b0;
    points[1] = b1;
    let proxy_b = ShapeProxy {
        points,
        count: 2,
        radius: 0.0,
    };
    // Distance from the origin to the line through b0 and b1: |b0 × b1| / |b1 − b0|.
    let (x0, y0, x1, y1) = (b0.x as f64, b0.y as f64, b1.x as f64, b1.y as f64);
    let want = (x0 * y1 - y0 * x1).abs() / (x1 - x0).hypot(y1 - y0);
    let input = DistanceInput {
        proxy_a,
        proxy_b,
        transform_a: Transform::IDENTITY,
        transform_b: Transform::IDENTITY,
        use_radii: false,
    };
    let d = shape_distance(&input, &mut SimplexCache::default());
    assert!(
        (d.distance as f64 - want).abs() <= 1e-6,
        "distance {} want {want} ({d:?})",
        d.distance
    );

    // B at rest; A moves 0.05 m along (−1, 0) turned by −1.19 rad (as in the fuzz
    // input, where both bodies share that angle), towards and across B.
    let angle = -1.193_48f32;
    let dir = Vec2::new(-angle.cos(), -angle.sin());
    let still = |c: Vec2| impulse2d::Sweep {
        local_center: Vec2::ZERO,
        c1: c,
        c2: c,
        a1: 0.0,
        a2: 0.0,
    };
    let mut sweep_a = still(Vec2::ZERO);
    sweep_a.c2 = 0.05 * dir;
    let toi = time_of_impact(&ToiInput {
        proxy_a,
        proxy_b,
        sweep_a,
        sweep_b: still(Vec2::ZERO),
        max_fraction: 1.0,
    });
    assert_eq!(toi.state, ToiState::Hit, "{toi:?}");
    // f64 distance between A's segment [0, 42.3]×{0} moved by t·0.05·dir and B's
    // segment (they never cross before the hit if the hit is on time).
    let seg_point = |p: [f64; 2], a: [f64; 2], b: [f64; 2]| {
        let (dx, dy) = (b[0] - a[0], b[1] - a[1]);
        let u = (((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / (dx * dx + dy * dy)).clamp(0.0, 1.0);
        (p[0] - a[0] - u * dx).hypot(p[1] - a[1] - u * dy)
    };
    let first_within = (0..=1000)
        .map(|k| k as f64 / 1000.0)
        .find(|&t| {
            let s = 0.05 * t;
            let a0 = [s * dir.x as f64, s * dir.y as f64];
            let a1 = [a0[0] + 42.324_22, a0[1]];
            let (p, q) = ([x0, y0], [x1, y1]);
            let gap = seg_point(a0, p, q)
                .min(seg_point(a1, p, q))
                .min(seg_point(p, a0, a1))
                .min(seg_point(q, a0, a1));
            gap < LINEAR_SLOP as f64 * 0.75
        })
        .expect("A reaches B");
    assert!(
        (toi.fraction as f64) < first_within,
        "hit at {} but the cores are within the target at {first_within}",
        toi.fraction
    );
}
