//! Shapes and poses of fuzz-found manifold inputs (the raw inputs are in
//! `fuzz/regressions/manifold/`), shared by `fuzz_regressions.rs`, which checks
//! our answer, and the differential tests, which record Box2D's.

#![allow(dead_code)]

use impulse2d::collision::{
    Capsule, ChainSegment, Manifold, Polygon, Segment, compute_hull, make_offset_polygon,
    make_offset_rounded_box, make_polygon,
};
use impulse2d::{Rot, Transform, Vec2};

/// `chain-concave-end-capsule-far-clip`: a chain segment (A, with its pose) whose
/// corner at its first point is concave, and a capsule (B, with its pose) whose
/// round reaches over that point from beyond it.
pub fn chain_concave_end_capsule() -> (ChainSegment, Transform, Capsule, Transform) {
    let segment = Segment::new(Vec2::ZERO, Vec2::new(-118.078125, 121.47266)).unwrap();
    let chain = ChainSegment::new(
        Vec2::new(126.46094, 118.49219),
        segment,
        Vec2::new(-35.527344, 0.0),
    )
    .unwrap();
    let capsule = Capsule::new(Vec2::ZERO, Vec2::new(0.0, 121.03906), 121.47266).unwrap();
    let xf_chain = Transform::new(Vec2::new(-121.140625, 0.0), Rot::IDENTITY);
    (chain, xf_chain, capsule, Transform::IDENTITY)
}

/// `thin-polygon-near-collinear-faces`: a segment (A, with its pose) through a
/// polygon (B, with its pose) 186 km tall whose right side is two nearly
/// collinear faces.
pub fn thin_polygon_near_collinear_faces() -> (Segment, Transform, Polygon, Transform) {
    let points = [
        Vec2::new(0.0, 90987.88),
        Vec2::new(-972.375, 0.0),
        Vec2::new(0.0, -95208.59),
        Vec2::new(0.030248, 0.0),
    ];
    let polygon = make_polygon(&compute_hull(&points).unwrap(), 0.0).unwrap();
    let xf_polygon = Transform::new(
        Vec2::new(62.242188, 62.242188),
        Rot {
            c: 0.8311267,
            s: -0.5560831,
        },
    );
    let segment = Segment::new(
        Vec2::new(-971.28125, -427.25912),
        Vec2::new(27704.703, -971.8125),
    )
    .unwrap();
    let xf_segment = Transform::new(Vec2::new(0.0, 0.99609375), Rot::IDENTITY);
    (segment, xf_segment, polygon, xf_polygon)
}

/// `thin-polygon-near-parallel-incident-edges`: a segment (A, with its pose)
/// nearly along a polygon (B, with its pose) 186 km tall whose right side is two
/// nearly collinear faces, crossing it near the top.
pub fn thin_polygon_near_parallel_incident_edges() -> (Segment, Transform, Polygon, Transform) {
    let points = [
        Vec2::new(0.0, 90987.88),
        Vec2::new(-121.47656, 62.242188),
        Vec2::new(-121.45703, 0.0),
        Vec2::new(0.0, -95208.59),
        Vec2::new(0.030248, 0.0),
    ];
    let polygon = make_polygon(&compute_hull(&points).unwrap(), 0.0).unwrap();
    let xf_polygon = Transform::new(Vec2::new(-539.8125, 62.242188), Rot::IDENTITY);
    let segment = Segment::new(Vec2::new(-971.28125, 92544.33), Vec2::new(35.753906, 0.0)).unwrap();
    (segment, Transform::IDENTITY, polygon, xf_polygon)
}

/// The smallest separation of a manifold's points (`f32::MAX` when it has none).
pub fn closest_separation(m: &Manifold) -> f32 {
    m.points()
        .iter()
        .map(|p| p.separation)
        .fold(f32::MAX, f32::min)
}

/// `huge-rounded-sliver-box-overlapping-triangle-reports-2606m`: a triangle
/// 92 km across with rounding radius 117 m (A, with its pose; one corner at the
/// origin) and a box 6 cm wide centred 92,544 m away on +x with rounding radius
/// 92,550 m (B, with its pose), rotated by π − 0.0518 rad.
pub fn huge_rounded_sliver_box_and_triangle() -> (Polygon, Transform, Polygon, Transform) {
    let points = [
        Vec2::new(0.0, 0.0),
        Vec2::new(92544.33, 0.0),
        Vec2::new(0.0, 27753.531),
    ];
    let triangle = make_polygon(&compute_hull(&points).unwrap(), 117.45703).unwrap();
    let xf_triangle = Transform::new(
        Vec2::ZERO,
        Rot {
            c: -0.46668726,
            s: 0.8844224,
        },
    );
    let sliver = make_offset_rounded_box(
        0.030069,
        0.030069,
        Vec2::new(92544.33, 0.0),
        Rot {
            c: -0.9986595,
            s: 0.051761396,
        },
        92550.43,
    )
    .unwrap();
    (triangle, xf_triangle, sliver, Transform::IDENTITY)
}

/// `near-collinear-incident-faces-three-deep-reports-64m`: a 6-gon (A, at the
/// origin) whose bottom is three nearly collinear faces, and a sliver triangle
/// 156 km long (B, with its pose) whose top edge pokes into A near x = 92,547 m.
pub fn near_collinear_incident_faces() -> (Polygon, Transform, Polygon, Transform) {
    let a_points = [
        Vec2::new(92547.38, 27753.531),
        Vec2::new(92547.38, 0.0),
        Vec2::new(-0.029692, 0.0),
        Vec2::new(-16003.906, 0.029988),
        Vec2::new(0.0, 92599.26),
        Vec2::new(-54942.473, 0.4296875),
        Vec2::new(-20.542969, 0.030069),
        Vec2::new(88150.266, 0.012810273),
    ];
    let b_points = [
        Vec2::new(8.996094, 0.0),
        Vec2::new(0.0, 0.0),
        Vec2::new(-63710.438, 0.0),
        Vec2::new(118.45703, 0.0),
        Vec2::new(92599.26, 124.515625),
        Vec2::new(96.45703, 0.001397),
    ];
    let a =
        make_offset_polygon(&compute_hull(&a_points).unwrap(), Transform::IDENTITY, 0.0).unwrap();
    let b =
        make_offset_polygon(&compute_hull(&b_points).unwrap(), Transform::IDENTITY, 0.0).unwrap();
    let xf_b = Transform::new(Vec2::new(0.0, -115.484375), Rot::IDENTITY);
    (a, Transform::IDENTITY, b, xf_b)
}
