//! Hand-worked manifolds. Every expected number below is derived from the geometry
//! in the comment next to it, not from running the code.

use super::*;
use crate::collision::{make_offset_box, make_rounded_box, make_square};
use crate::math::PI;
use crate::math::Rot;

const TOL: f32 = 1e-5;

fn xf(x: f32, y: f32, angle: f32) -> Transform {
    Transform::from_angle(Vec2::new(x, y), angle)
}

#[track_caller]
fn assert_close(actual: f32, expected: f32, tol: f32) {
    assert!(
        (actual - expected).abs() <= tol,
        "expected {expected}, got {actual} (tolerance {tol})"
    );
}

#[track_caller]
fn assert_vec(actual: Vec2, expected: Vec2, tol: f32) {
    assert!(
        (actual - expected).length() <= tol,
        "expected {expected:?}, got {actual:?} (tolerance {tol})"
    );
}

/// The relations every manifold must satisfy, whatever the shapes.
#[track_caller]
fn assert_consistent(m: &Manifold, xf_a: Transform, xf_b: Transform) {
    if m.point_count == 0 {
        return;
    }
    assert_close(m.normal.length(), 1.0, 1e-5);
    for p in m.points() {
        assert_vec(p.point, xf_a.p + p.anchor_a, 1e-5);
        assert_vec(p.anchor_b, p.anchor_a + (xf_a.p - xf_b.p), 1e-5);
        assert_eq!(p.normal_impulse, 0.0);
        assert_eq!(p.tangent_impulse, 0.0);
        assert!(!p.persisted);
    }
}

/// The point of `m` nearest to `at`.
fn point_near(m: &Manifold, at: Vec2) -> ManifoldPoint {
    *m.points()
        .iter()
        .min_by(|p, q| {
            p.point
                .distance(at)
                .partial_cmp(&q.point.distance(at))
                .unwrap()
        })
        .expect("manifold has points")
}

/// The two points of a two-point manifold, the deeper first.
#[track_caller]
fn deepest_first(m: &Manifold) -> (ManifoldPoint, ManifoldPoint) {
    assert_eq!(m.point_count, 2);
    let (p, q) = (m.points[0], m.points[1]);
    if p.separation <= q.separation {
        (p, q)
    } else {
        (q, p)
    }
}

fn unit_box() -> Polygon {
    make_square(0.5).unwrap()
}

// ---------------------------------------------------------------------------
// Circles

#[test]
fn circles_overlapping() {
    // Radii 0.5 and 0.25, centres 0.6 apart along +x: surfaces at x = 1.5 (A) and
    // 1.35 (B), separation 0.6 - 0.75 = -0.15, contact mid-way at x = 1.425.
    let a = Circle::new(Vec2::ZERO, 0.5).unwrap();
    let b = Circle::new(Vec2::ZERO, 0.25).unwrap();
    let (xa, xb) = (xf(1.0, 2.0, 0.0), xf(1.6, 2.0, 0.0));
    let m = collide_circles(&a, xa, &b, xb);
    assert_consistent(&m, xa, xb);
    assert_eq!(m.point_count, 1);
    assert_vec(m.normal, Vec2::X, TOL);
    assert_close(m.points[0].separation, -0.15, TOL);
    assert_vec(m.points[0].point, Vec2::new(1.425, 2.0), TOL);
    assert_vec(m.points[0].anchor_a, Vec2::new(0.425, 0.0), TOL);
    assert_vec(m.points[0].anchor_b, Vec2::new(-0.175, 0.0), TOL);
    assert_eq!(m.points[0].id, 0);
}

#[test]
fn circles_touching_separated_and_speculative() {
    let a = Circle::new(Vec2::ZERO, 0.5).unwrap();
    let b = Circle::new(Vec2::ZERO, 0.25).unwrap();
    let touching = collide_circles(&a, xf(0.0, 0.0, 0.0), &b, xf(0.0, 0.75, 0.0));
    assert_eq!(touching.point_count, 1);
    assert_close(touching.points[0].separation, 0.0, TOL);
    assert_vec(touching.normal, Vec2::Y, TOL);
    assert_vec(touching.points[0].point, Vec2::new(0.0, 0.5), TOL);

    // 0.015 apart: inside the speculative distance (0.02).
    let near = collide_circles(&a, xf(0.0, 0.0, 0.0), &b, xf(0.0, 0.765, 0.0));
    assert_eq!(near.point_count, 1);
    assert_close(near.points[0].separation, 0.015, TOL);
    assert_vec(near.points[0].point, Vec2::new(0.0, 0.5075), TOL);

    // 0.025 apart: beyond it.
    let far = collide_circles(&a, xf(0.0, 0.0, 0.0), &b, xf(0.0, 0.775, 0.0));
    assert_eq!(far.point_count, 0);
}

#[test]
fn circle_offset_in_rotated_body() {
    // A's circle sits at (0.5, 0) in a body turned by 90°: world centre (0, 0.5).
    // B (radius 0.25) at (0, 1.2): distance 0.7, separation 0.7 - 0.75 = -0.05.
    let a = Circle::new(Vec2::new(0.5, 0.0), 0.5).unwrap();
    let b = Circle::new(Vec2::ZERO, 0.25).unwrap();
    let (xa, xb) = (xf(0.0, 0.0, 0.5 * PI), xf(0.0, 1.2, 0.3));
    let m = collide_circles(&a, xa, &b, xb);
    assert_consistent(&m, xa, xb);
    assert_vec(m.normal, Vec2::Y, TOL);
    assert_close(m.points[0].separation, -0.05, TOL);
    // Surfaces at y = 1.0 and 0.95.
    assert_vec(m.points[0].point, Vec2::new(0.0, 0.975), TOL);
}

#[test]
fn concentric_circles_get_a_unit_normal() {
    let a = Circle::new(Vec2::ZERO, 0.5).unwrap();
    let b = Circle::new(Vec2::ZERO, 0.25).unwrap();
    let m = collide_circles(&a, xf(1.0, 1.0, 0.0), &b, xf(1.0, 1.0, 0.0));
    assert_eq!(m.point_count, 1);
    assert_close(m.normal.length(), 1.0, TOL);
    assert_close(m.points[0].separation, -0.75, TOL);
}

// ---------------------------------------------------------------------------
// Capsules and segments against circles

#[test]
fn capsule_and_circle_side_and_end() {
    let capsule = Capsule::new(Vec2::new(-1.0, 0.0), Vec2::new(1.0, 0.0), 0.2).unwrap();
    let circle = Circle::new(Vec2::ZERO, 0.3).unwrap();
    // Above the middle: capsule surface y = 0.2, circle bottom y = 0.45 - 0.3 = 0.15.
    let m = collide_capsule_and_circle(&capsule, Transform::IDENTITY, &circle, xf(0.4, 0.45, 0.0));
    assert_eq!(m.point_count, 1);
    assert_vec(m.normal, Vec2::Y, TOL);
    assert_close(m.points[0].separation, -0.05, TOL);
    assert_vec(m.points[0].point, Vec2::new(0.4, 0.175), TOL);

    // Beyond the end (1, 0), offset (0.3, 0.4): distance 0.5 = 0.2 + 0.3, touching.
    let m = collide_capsule_and_circle(&capsule, Transform::IDENTITY, &circle, xf(1.3, 0.4, 0.0));
    assert_eq!(m.point_count, 1);
    assert_vec(m.normal, Vec2::new(0.6, 0.8), TOL);
    assert_close(m.points[0].separation, 0.0, TOL);
    assert_vec(
        m.points[0].point,
        Vec2::new(1.0, 0.0) + 0.2 * Vec2::new(0.6, 0.8),
        TOL,
    );
}

#[test]
fn segment_and_circle() {
    let segment = Segment::new(Vec2::new(-1.0, 0.0), Vec2::new(1.0, 0.0)).unwrap();
    let circle = Circle::new(Vec2::ZERO, 0.3).unwrap();
    // From below this time: normal -y, separation 0.28 - 0.3; the circle's top is at
    // y = 1.02, the segment at y = 1, mid-way 1.01.
    let (xa, xb) = (xf(0.0, 1.0, 0.0), xf(0.5, 0.72, 0.0));
    let m = collide_segment_and_circle(&segment, xa, &circle, xb);
    assert_consistent(&m, xa, xb);
    assert_vec(m.normal, -Vec2::Y, TOL);
    assert_close(m.points[0].separation, -0.02, TOL);
    assert_vec(m.points[0].point, Vec2::new(0.5, 1.01), TOL);
}

// ---------------------------------------------------------------------------
// Capsule pairs

#[test]
fn parallel_capsules_give_two_clipped_points() {
    // A spans x in [-1, 1], B spans [-0.5, 1.5] at height 0.45; radii 0.25 each.
    // Overlap along x is [-0.5, 1]; separation 0.45 - 0.5 = -0.05; the points are
    // mid-way between y = 0.25 and y = 0.2.
    let a = Capsule::new(Vec2::new(-1.0, 0.0), Vec2::new(1.0, 0.0), 0.25).unwrap();
    let b = Capsule::new(Vec2::new(-0.5, 0.0), Vec2::new(1.5, 0.0), 0.25).unwrap();
    let (xa, xb) = (Transform::IDENTITY, xf(0.0, 0.45, 0.0));
    let m = collide_capsules(&a, xa, &b, xb);
    assert_consistent(&m, xa, xb);
    assert_eq!(m.point_count, 2);
    assert_vec(m.normal, Vec2::Y, TOL);
    let left = point_near(&m, Vec2::new(-0.5, 0.2));
    let right = point_near(&m, Vec2::new(1.0, 0.2));
    assert_vec(left.point, Vec2::new(-0.5, 0.225), TOL);
    assert_vec(right.point, Vec2::new(1.0, 0.225), TOL);
    assert_close(left.separation, -0.05, TOL);
    assert_close(right.separation, -0.05, TOL);
    assert_ne!(left.id, right.id);
}

#[test]
fn capsule_end_resting_across_another_gives_one_point() {
    // B stands upright on A's middle: its core starts 0.15 above A's axis, radii 0.1,
    // separation 0.15 - 0.2 = -0.05, contact mid-way between y = 0.1 and 0.05.
    let a = Capsule::new(Vec2::new(-1.0, 0.0), Vec2::new(1.0, 0.0), 0.1).unwrap();
    let b = Capsule::new(Vec2::new(0.0, 0.15), Vec2::new(0.0, 1.15), 0.1).unwrap();
    let m = collide_capsules(&a, Transform::IDENTITY, &b, Transform::IDENTITY);
    assert_eq!(m.point_count, 1);
    assert_vec(m.normal, Vec2::Y, TOL);
    assert_close(m.points[0].separation, -0.05, TOL);
    assert_vec(m.points[0].point, Vec2::new(0.0, 0.075), TOL);
}

#[test]
fn crossing_capsules_keep_the_far_end_as_a_speculative_point() {
    // B's core (0,-0.05)-(0,1) crosses A's core (-1,0)-(1,0) (closest distance 0).
    // Against A's upper side B's ends lie at -0.05 and +1, separation -0.05; against
    // B's sides A's ends lie at ±1, separation -1: A's side is the reference, normal
    // +y. B's ends lie within A's length, so nothing is clipped, and B's near end
    // (-0.05 ≤ distance + slop) makes it a face contact with both ends:
    // - (0,-0.05): separation -0.05 - 0.2 = -0.25, mid-way between A's surface
    //   (y = 0.1) and B's bottom (y = -0.15): y = -0.025; id (0, 0);
    // - (0, 1): separation 1 - 0.2 = 0.8 (speculative), mid-way between y = 0.1 and
    //   y = 0.9: y = 0.5; id (0, 1).
    let a = Capsule::new(Vec2::new(-1.0, 0.0), Vec2::new(1.0, 0.0), 0.1).unwrap();
    let b = Capsule::new(Vec2::new(0.0, -0.05), Vec2::new(0.0, 1.0), 0.1).unwrap();
    let m = collide_capsules(&a, Transform::IDENTITY, &b, Transform::IDENTITY);
    assert_eq!(m.point_count, 2);
    assert_vec(m.normal, Vec2::Y, TOL);
    assert_close(m.points[0].separation, -0.25, TOL);
    assert_vec(m.points[0].point, Vec2::new(0.0, -0.025), TOL);
    assert_eq!(m.points[0].id, make_id(0, 0));
    assert_close(m.points[1].separation, 0.8, TOL);
    assert_vec(m.points[1].point, Vec2::new(0.0, 0.5), TOL);
    assert_eq!(m.points[1].id, make_id(0, 1));
}

#[test]
fn collinear_capsules_end_to_end() {
    // Cores end at x = 1 and start at x = 1.1, radii 0.1: separation -0.1, mid-way x = 1.05.
    let a = Capsule::new(Vec2::new(-1.0, 0.0), Vec2::new(1.0, 0.0), 0.1).unwrap();
    let b = Capsule::new(Vec2::new(1.1, 0.0), Vec2::new(2.0, 0.0), 0.1).unwrap();
    let m = collide_capsules(&a, Transform::IDENTITY, &b, Transform::IDENTITY);
    assert_eq!(m.point_count, 1);
    assert_vec(m.normal, Vec2::X, TOL);
    assert_close(m.points[0].separation, -0.1, TOL);
    assert_vec(m.points[0].point, Vec2::new(1.05, 0.0), TOL);
    // A's end 1 against B's end 0.
    assert_eq!(m.points[0].id, make_id(1, 0));
}

#[test]
fn segment_and_capsule() {
    // A horizontal capsule lying on a segment: like the parallel capsule case with
    // A's radius 0. B spans [-0.5, 0.5] at height 0.24, radius 0.25.
    let segment = Segment::new(Vec2::new(-2.0, 0.0), Vec2::new(2.0, 0.0)).unwrap();
    let capsule = Capsule::new(Vec2::new(-0.5, 0.0), Vec2::new(0.5, 0.0), 0.25).unwrap();
    let m =
        collide_segment_and_capsule(&segment, Transform::IDENTITY, &capsule, xf(0.0, 0.24, 0.0));
    assert_eq!(m.point_count, 2);
    assert_vec(m.normal, Vec2::Y, TOL);
    for p in m.points() {
        assert_close(p.separation, -0.01, TOL);
        assert_close(p.point.y, -0.005, TOL);
        assert_close(p.point.x.abs(), 0.5, TOL);
    }
}

// ---------------------------------------------------------------------------
// Polygon and circle

#[test]
fn polygon_and_circle_face_region() {
    // Circle radius 0.25 above the unit box's top face (y = 0.5) at height 0.7:
    // separation 0.2 - 0.25 = -0.05, contact mid-way between y = 0.5 and 0.45.
    let circle = Circle::new(Vec2::ZERO, 0.25).unwrap();
    let m =
        collide_polygon_and_circle(&unit_box(), Transform::IDENTITY, &circle, xf(0.2, 0.7, 0.0));
    assert_eq!(m.point_count, 1);
    assert_vec(m.normal, Vec2::Y, TOL);
    assert_close(m.points[0].separation, -0.05, TOL);
    assert_vec(m.points[0].point, Vec2::new(0.2, 0.475), TOL);
}

#[test]
fn polygon_and_circle_vertex_region() {
    // Centre at the corner (0.5, 0.5) plus (0.3, 0.4): distance 0.5, radius 0.49,
    // separation 0.01 (speculative), normal (0.6, 0.8), point 0.005 beyond the corner.
    let circle = Circle::new(Vec2::ZERO, 0.49).unwrap();
    let m =
        collide_polygon_and_circle(&unit_box(), Transform::IDENTITY, &circle, xf(0.8, 0.9, 0.0));
    assert_eq!(m.point_count, 1);
    assert_vec(m.normal, Vec2::new(0.6, 0.8), TOL);
    assert_close(m.points[0].separation, 0.01, TOL);
    assert_vec(m.points[0].point, Vec2::new(0.503, 0.504), TOL);
}

#[test]
fn polygon_and_circle_centre_inside() {
    // Centre (0.1, 0.3) inside the box, nearest face is the top (0.2 away):
    // separation -0.2 - 0.1.
    let circle = Circle::new(Vec2::ZERO, 0.1).unwrap();
    let m =
        collide_polygon_and_circle(&unit_box(), Transform::IDENTITY, &circle, xf(0.1, 0.3, 0.0));
    assert_eq!(m.point_count, 1);
    assert_vec(m.normal, Vec2::Y, TOL);
    assert_close(m.points[0].separation, -0.3, TOL);
    // Mid-way between the face (0.5) and the circle's bottom (0.2).
    assert_vec(m.points[0].point, Vec2::new(0.1, 0.35), TOL);
}

#[test]
fn rounded_polygon_and_circle() {
    // Core half-extent 0.4 plus radius 0.1 = the unit box's faces, so the face case
    // matches the sharp box: separation -0.05.
    let rounded = make_rounded_box(0.4, 0.4, 0.1).unwrap();
    let circle = Circle::new(Vec2::ZERO, 0.25).unwrap();
    let m = collide_polygon_and_circle(&rounded, Transform::IDENTITY, &circle, xf(0.2, 0.7, 0.0));
    assert_close(m.points[0].separation, -0.05, TOL);
    assert_vec(m.points[0].point, Vec2::new(0.2, 0.475), TOL);
    // At the rounded corner: the core corner (0.4, 0.4) plus 0.5·(0.6, 0.8), circle
    // radius 0.39: separation 0.5 - 0.1 - 0.39 = 0.01.
    let circle = Circle::new(Vec2::ZERO, 0.39).unwrap();
    let m = collide_polygon_and_circle(&rounded, Transform::IDENTITY, &circle, xf(0.7, 0.8, 0.0));
    assert_vec(m.normal, Vec2::new(0.6, 0.8), TOL);
    assert_close(m.points[0].separation, 0.01, TOL);
}

// ---------------------------------------------------------------------------
// Polygon pairs

#[test]
fn box_corner_into_box_face() {
    // B, the same unit box turned by 45°, hangs its lowest corner 0.01 below A's top
    // face: B's centre is at 0.5 + √2/2 - 0.01, its corner at (0, 0.49). A's top face
    // is the reference (B's faces separate A's corners by at most -(0.5 + 0.01)/√2).
    // B's two lower edges are equally opposed to +y; either is the incident edge. It
    // rises at 45° from the corner, so it is clipped at A's side x = ±0.5, at
    // y = 0.49 + 0.5 = 0.99.
    // - Near point: the corner, separation -0.01, mid-way at (0, 0.495).
    // - Far point: separation 0.99 - 0.5 = 0.49, a speculative point kept all the
    //   same, mid-way at (±0.5, 0.99 - 0.49 / 2) = (±0.5, 0.745).
    let half_diagonal = 0.5 * std::f32::consts::SQRT_2;
    let (xa, xb) = (
        Transform::IDENTITY,
        xf(0.0, 0.5 + half_diagonal - 0.01, 0.25 * PI),
    );
    let m = collide_polygons(&unit_box(), xa, &unit_box(), xb);
    assert_consistent(&m, xa, xb);
    assert_eq!(m.point_count, 2);
    assert_vec(m.normal, Vec2::Y, TOL);
    let (near, far) = deepest_first(&m);
    assert_close(near.separation, -0.01, TOL);
    assert_vec(near.point, Vec2::new(0.0, 0.495), TOL);
    assert_close(far.separation, 0.49, TOL);
    assert_close(far.point.x.abs(), 0.5, TOL);
    assert_close(far.point.y, 0.745, TOL);
    assert_ne!(near.id, far.id);
}

#[test]
fn box_face_into_box_corner_uses_b_as_reference() {
    // The mirror case: A is the turned box below, B the upright box above; B's bottom
    // face is the reference and the normal still points from A to B. A's top corner
    // is at (0, √2/2), 0.01 above B's bottom face at y = √2/2 - 0.01: separation
    // -0.01, mid-way at y = √2/2 - 0.005. A's incident edge falls at 45° from that
    // corner and is clipped at B's side x = ±0.5, 0.5 lower: 0.49 below the face,
    // mid-way at y = √2/2 - 0.01 - 0.245.
    let half_diagonal = 0.5 * std::f32::consts::SQRT_2;
    let (xa, xb) = (
        xf(0.0, 0.0, 0.25 * PI),
        xf(0.0, half_diagonal + 0.5 - 0.01, 0.0),
    );
    let m = collide_polygons(&unit_box(), xa, &unit_box(), xb);
    assert_consistent(&m, xa, xb);
    assert_eq!(m.point_count, 2);
    assert_vec(m.normal, Vec2::Y, TOL);
    let (near, far) = deepest_first(&m);
    assert_close(near.separation, -0.01, TOL);
    assert_vec(near.point, Vec2::new(0.0, half_diagonal - 0.005), TOL);
    assert_close(far.separation, 0.49, TOL);
    assert_close(far.point.x.abs(), 0.5, TOL);
    assert_close(far.point.y, half_diagonal - 0.01 - 0.245, TOL);
}

#[test]
fn overlapping_boxes_give_two_points() {
    // B's bottom face (y = 0.4) is 0.1 inside A's top face (y = 0.5); both span
    // x in [-0.5, 0.5], so the clipped points are the two ends, mid-way at y = 0.45.
    let (xa, xb) = (Transform::IDENTITY, xf(0.0, 0.9, 0.0));
    let m = collide_polygons(&unit_box(), xa, &unit_box(), xb);
    assert_consistent(&m, xa, xb);
    assert_eq!(m.point_count, 2);
    assert_vec(m.normal, Vec2::Y, TOL);
    let left = point_near(&m, Vec2::new(-0.5, 0.45));
    let right = point_near(&m, Vec2::new(0.5, 0.45));
    assert_vec(left.point, Vec2::new(-0.5, 0.45), TOL);
    assert_vec(right.point, Vec2::new(0.5, 0.45), TOL);
    assert_close(left.separation, -0.1, TOL);
    assert_close(right.separation, -0.1, TOL);
    // Equal separations both ways: A's top face (index 2) is the reference.
    assert_eq!(right.id >> 8, 2);
    assert_eq!(left.id >> 8, 3);
}

#[test]
fn box_offset_sideways_clips_at_overlap_ends() {
    // B shifted 0.3 right and overlapping 0.05: its bottom spans x in [-0.2, 0.8],
    // A's top [-0.5, 0.5], so the points are at x = -0.2 (B's corner) and x = 0.5
    // (clipped at A's corner), mid-way at y = 0.475.
    let m = collide_polygons(
        &unit_box(),
        Transform::IDENTITY,
        &unit_box(),
        xf(0.3, 0.95, 0.0),
    );
    assert_eq!(m.point_count, 2);
    assert_vec(m.normal, Vec2::Y, TOL);
    assert_vec(
        point_near(&m, Vec2::new(-0.2, 0.5)).point,
        Vec2::new(-0.2, 0.475),
        TOL,
    );
    assert_vec(
        point_near(&m, Vec2::new(0.5, 0.5)).point,
        Vec2::new(0.5, 0.475),
        TOL,
    );
    for p in m.points() {
        assert_close(p.separation, -0.05, TOL);
    }
}

#[test]
fn boxes_beyond_speculative_distance() {
    let m = collide_polygons(
        &unit_box(),
        Transform::IDENTITY,
        &unit_box(),
        xf(0.0, 1.021, 0.0),
    );
    assert_eq!(m.point_count, 0);
    // 0.015 apart: speculative points.
    let m = collide_polygons(
        &unit_box(),
        Transform::IDENTITY,
        &unit_box(),
        xf(0.0, 1.015, 0.0),
    );
    assert_eq!(m.point_count, 2);
    for p in m.points() {
        assert_close(p.separation, 0.015, TOL);
        assert_close(p.point.y, 0.5075, TOL);
    }
}

#[test]
fn rounded_boxes_face_to_face() {
    // Cores of half-extent 0.4, radius 0.1 (outer half-extent 0.5). B at height 0.95:
    // the rounded surfaces overlap by 0.05 (cores 0.15 apart, minus 0.2). The points
    // are at the core corners' x = ±0.4, mid-way between y = 0.5 and 0.45.
    let r = make_rounded_box(0.4, 0.4, 0.1).unwrap();
    let m = collide_polygons(&r, Transform::IDENTITY, &r, xf(0.0, 0.95, 0.0));
    assert_eq!(m.point_count, 2);
    assert_vec(m.normal, Vec2::Y, TOL);
    assert_vec(
        point_near(&m, Vec2::new(-0.4, 0.5)).point,
        Vec2::new(-0.4, 0.475),
        TOL,
    );
    assert_vec(
        point_near(&m, Vec2::new(0.4, 0.5)).point,
        Vec2::new(0.4, 0.475),
        TOL,
    );
    for p in m.points() {
        assert_close(p.separation, -0.05, TOL);
    }
}

#[test]
fn rounded_boxes_corner_to_corner() {
    // B's core corner (-0.4, -0.4) + (0.95, 0.95) = (0.55, 0.55) faces A's core corner
    // (0.4, 0.4) across a diagonal gap of 0.15·√2; minus the radii 0.2 the separation
    // is 0.15·√2 - 0.2 ≈ 0.0121 and the normal is the diagonal.
    let r = make_rounded_box(0.4, 0.4, 0.1).unwrap();
    let m = collide_polygons(&r, Transform::IDENTITY, &r, xf(0.95, 0.95, 0.0));
    assert_eq!(m.point_count, 1);
    let diagonal = Vec2::new(1.0, 1.0).normalize();
    assert_vec(m.normal, diagonal, TOL);
    let gap = 0.15 * std::f32::consts::SQRT_2;
    assert_close(m.points[0].separation, gap - 0.2, TOL);
    // Mid-way between A's surface (0.4,0.4) + 0.1·d and B's (0.55,0.55) - 0.1·d.
    let mid = Vec2::new(0.475, 0.475);
    assert_vec(m.points[0].point, mid, TOL);
    // A's vertex 2 (0.4, 0.4) against B's vertex 0 (-0.4, -0.4).
    assert_eq!(m.points[0].id, make_id(2, 0));
}

#[test]
fn sharp_boxes_corner_to_corner_speculative() {
    // Sharp boxes whose corners are 0.01·√2 apart along the diagonal.
    let m = collide_polygons(
        &unit_box(),
        Transform::IDENTITY,
        &unit_box(),
        xf(1.01, 1.01, 0.0),
    );
    assert_eq!(m.point_count, 1);
    assert_vec(m.normal, Vec2::new(1.0, 1.0).normalize(), TOL);
    assert_close(m.points[0].separation, 0.01 * std::f32::consts::SQRT_2, TOL);
}

#[test]
fn polygon_and_capsule() {
    // A capsule lying on the unit box: core at height 0.74, radius 0.25, spanning
    // x in [-0.3, 0.3]: separation 0.74 - 0.25 - 0.5 = -0.01 at both ends.
    let capsule = Capsule::new(Vec2::new(-0.3, 0.0), Vec2::new(0.3, 0.0), 0.25).unwrap();
    let m = collide_polygon_and_capsule(
        &unit_box(),
        Transform::IDENTITY,
        &capsule,
        xf(0.0, 0.74, 0.0),
    );
    assert_eq!(m.point_count, 2);
    assert_vec(m.normal, Vec2::Y, TOL);
    for p in m.points() {
        assert_close(p.separation, -0.01, TOL);
        assert_close(p.point.x.abs(), 0.3, TOL);
        assert_close(p.point.y, 0.495, TOL);
    }
}

#[test]
fn segment_and_polygon() {
    // The unit box resting 0.01 into a horizontal segment (the box bottom at -0.01).
    let segment = Segment::new(Vec2::new(-2.0, 0.0), Vec2::new(2.0, 0.0)).unwrap();
    let m = collide_segment_and_polygon(
        &segment,
        Transform::IDENTITY,
        &unit_box(),
        xf(0.0, 0.49, 0.0),
    );
    assert_eq!(m.point_count, 2);
    assert_vec(m.normal, Vec2::Y, TOL);
    for p in m.points() {
        assert_close(p.separation, -0.01, TOL);
        assert_close(p.point.y, -0.005, TOL);
        assert_close(p.point.x.abs(), 0.5, TOL);
    }
}

#[test]
fn rigid_motion_of_the_scene_moves_the_manifold() {
    // The sideways-offset boxes again, with A's shape offset inside its body and the
    // whole scene then turned by 0.7 rad and moved: the normal turns, the points
    // move with the scene, separations and ids stay.
    let a = make_offset_box(0.5, 0.5, Vec2::new(0.25, -0.1), Rot::IDENTITY).unwrap();
    let b = unit_box();
    let (xa, xb) = (xf(-0.25, 0.1, 0.0), xf(0.3, 0.95, 0.0));
    let base = collide_polygons(&a, xa, &b, xb);
    let motion = xf(3.0, -2.0, 0.7);
    let (ma, mb) = (motion.mul(xa), motion.mul(xb));
    let moved = collide_polygons(&a, ma, &b, mb);
    assert_consistent(&moved, ma, mb);
    assert_eq!(moved.point_count, 2);
    assert_vec(moved.normal, motion.q.rotate(Vec2::Y), TOL);
    for (p, q) in base.points().iter().zip(moved.points()) {
        assert_vec(q.point, motion.apply(p.point), 1e-4);
        assert_close(q.separation, p.separation, 1e-5);
        assert_eq!(q.id, p.id);
    }
    // And the base case is the hand-worked sideways case.
    assert_vec(
        point_near(&base, Vec2::new(-0.2, 0.5)).point,
        Vec2::new(-0.2, 0.475),
        TOL,
    );
}

#[test]
fn feature_ids_survive_small_motion() {
    // Ids name A's feature first whichever face is the reference, so that for two
    // faces lying on each other they survive a hand-over of the reference face. The
    // second case makes one: turned by -0.0004 rad about (0.29, 0.951), B's lowest
    // corner sinks 0.5·0.0004 below A's top face while A's corner (0.5, 0.5), 0.21
    // to the right of B's centre, sinks only 0.21·0.0004 below B's bottom face, so
    // B's face separates more and becomes the reference.
    let cases: [(Transform, Transform); 3] = [
        (xf(0.0, 0.9, 0.0), xf(0.013, 0.905, 0.0004)),
        (xf(0.3, 0.95, 0.0), xf(0.29, 0.951, -0.0004)),
        // Turned by 30°, B's lowest corner (0.683 below its centre) 0.01 into A's top.
        (
            xf(0.0, 0.5 + 0.683 - 0.01, PI / 6.0),
            xf(0.01, 0.5 + 0.683 - 0.012, PI / 6.0 + 0.01),
        ),
    ];
    for (before, after) in cases {
        let m0 = collide_polygons(&unit_box(), Transform::IDENTITY, &unit_box(), before);
        let m1 = collide_polygons(&unit_box(), Transform::IDENTITY, &unit_box(), after);
        assert!(m0.point_count > 0);
        assert_eq!(m0.point_count, m1.point_count);
        for (p, q) in m0.points().iter().zip(m1.points()) {
            assert_eq!(p.id, q.id);
        }
    }
    // The hand-over in the second case: the normal is minus B's turned bottom
    // normal, (sin 0.0004, cos 0.0004), not A's +y.
    let m = collide_polygons(&unit_box(), Transform::IDENTITY, &unit_box(), cases[1].1);
    assert_vec(m.normal, Vec2::new(0.0004, 1.0), 1e-6);
    // Capsules lying on each other, nudged.
    let a = Capsule::new(Vec2::new(-1.0, 0.0), Vec2::new(1.0, 0.0), 0.25).unwrap();
    let b = Capsule::new(Vec2::new(-0.5, 0.0), Vec2::new(1.5, 0.0), 0.25).unwrap();
    let m0 = collide_capsules(&a, Transform::IDENTITY, &b, xf(0.0, 0.45, 0.0));
    let m1 = collide_capsules(&a, Transform::IDENTITY, &b, xf(0.02, 0.46, 0.01));
    assert_eq!(m0.point_count, 2);
    assert_eq!(m1.point_count, 2);
    assert_eq!(m0.points[0].id, m1.points[0].id);
    assert_eq!(m0.points[1].id, m1.points[1].id);
}

// ---------------------------------------------------------------------------
// Chain segments against circles

fn ground_chain(x1: f32, x2: f32) -> ChainSegment {
    // Wound right to left so that the right side (the colliding side) is +y.
    ChainSegment::new(
        Vec2::new(x1 + 1.0, 0.0),
        Segment::new(Vec2::new(x1, 0.0), Vec2::new(x2, 0.0)).unwrap(),
        Vec2::new(x2 - 1.0, 0.0),
    )
    .unwrap()
}

#[test]
fn chain_segment_and_circle_is_one_sided() {
    let chain = ground_chain(1.0, -1.0);
    let circle = Circle::new(Vec2::ZERO, 0.25).unwrap();
    // Above: separation 0.2 - 0.25.
    let m =
        collide_chain_segment_and_circle(&chain, Transform::IDENTITY, &circle, xf(0.3, 0.2, 0.0));
    assert_eq!(m.point_count, 1);
    assert_vec(m.normal, Vec2::Y, TOL);
    assert_close(m.points[0].separation, -0.05, TOL);
    assert_vec(m.points[0].point, Vec2::new(0.3, -0.025), TOL);
    // The same circle mirrored below: no contact (a two-sided segment would have one).
    let m =
        collide_chain_segment_and_circle(&chain, Transform::IDENTITY, &circle, xf(0.3, -0.2, 0.0));
    assert_eq!(m.point_count, 0);
    let seg = collide_segment_and_circle(
        &chain.segment,
        Transform::IDENTITY,
        &circle,
        xf(0.3, -0.2, 0.0),
    );
    assert_eq!(seg.point_count, 1);
}

#[test]
fn chain_joint_is_covered_once_for_circles() {
    // Two collinear segments meeting at x = 0. A circle just past the joint (x = -0.1)
    // is over the second segment's face; the first segment, whose end it is beyond,
    // must leave it alone so that the circle sees one flat contact.
    let first = ground_chain(2.0, 0.0);
    let second = ground_chain(0.0, -2.0);
    let circle = Circle::new(Vec2::ZERO, 0.25).unwrap();
    let at = xf(-0.1, 0.24, 0.0);
    let m1 = collide_chain_segment_and_circle(&first, Transform::IDENTITY, &circle, at);
    let m2 = collide_chain_segment_and_circle(&second, Transform::IDENTITY, &circle, at);
    assert_eq!(m1.point_count, 0);
    assert_eq!(m2.point_count, 1);
    assert_vec(m2.normal, Vec2::Y, TOL);
    assert_close(m2.points[0].separation, -0.01, TOL);
    // The plain segment, without ghosts, sees the circle at its end point with a
    // slanted normal.
    let plain = collide_segment_and_circle(&first.segment, Transform::IDENTITY, &circle, at);
    assert_eq!(plain.point_count, 1);
    assert!(plain.normal.x < -0.3);
}

// ---------------------------------------------------------------------------
// Chain segments against polygons and capsules

fn chain_collide(chain: &ChainSegment, polygon: &Polygon, at: Transform) -> Manifold {
    collide_chain_segment_and_polygon(
        chain,
        Transform::IDENTITY,
        polygon,
        at,
        &mut SimplexCache::default(),
    )
}

#[test]
fn box_resting_on_chain_segment() {
    // The unit box 0.01 into a flat chain segment: two points at the box's bottom
    // corners x = 0.2 ± 0.5, mid-way at y = -0.005.
    let chain = ground_chain(2.0, -2.0);
    let m = chain_collide(&chain, &unit_box(), xf(0.2, 0.49, 0.0));
    assert_consistent(&m, Transform::IDENTITY, xf(0.2, 0.49, 0.0));
    assert_eq!(m.point_count, 2);
    assert_vec(m.normal, Vec2::Y, TOL);
    assert_vec(
        point_near(&m, Vec2::new(-0.3, 0.0)).point,
        Vec2::new(-0.3, -0.005),
        TOL,
    );
    assert_vec(
        point_near(&m, Vec2::new(0.7, 0.0)).point,
        Vec2::new(0.7, -0.005),
        TOL,
    );
    for p in m.points() {
        assert_close(p.separation, -0.01, TOL);
    }
    // Hovering 0.01 above (GJK path): the same points, separation +0.01.
    let m = chain_collide(&chain, &unit_box(), xf(0.2, 0.51, 0.0));
    assert_eq!(m.point_count, 2);
    assert_vec(m.normal, Vec2::Y, TOL);
    for p in m.points() {
        assert_close(p.separation, 0.01, TOL);
    }
    // 0.03 above: beyond speculative range.
    assert_eq!(
        chain_collide(&chain, &unit_box(), xf(0.2, 0.53, 0.0)).point_count,
        0
    );
}

#[test]
fn shape_behind_a_chain_segment_gets_no_manifold() {
    // The box pokes 0.05 up through the ground from below.
    let chain = ground_chain(2.0, -2.0);
    let below = xf(0.5, -0.45, 0.0);
    assert_eq!(chain_collide(&chain, &unit_box(), below).point_count, 0);
    // A two-sided segment in the same place does collide.
    let two_sided =
        collide_segment_and_polygon(&chain.segment, Transform::IDENTITY, &unit_box(), below);
    assert!(two_sided.point_count > 0);
    // Capsules and circles too.
    let capsule = Capsule::new(Vec2::new(-0.5, 0.0), Vec2::new(0.5, 0.0), 0.25).unwrap();
    let m = collide_chain_segment_and_capsule(
        &chain,
        Transform::IDENTITY,
        &capsule,
        xf(0.0, -0.2, 0.0),
        &mut SimplexCache::default(),
    );
    assert_eq!(m.point_count, 0);
}

#[test]
fn box_sliding_over_a_chain_joint_is_not_caught_on_the_internal_corner() {
    // Two collinear ground segments meet at x = 0. A box sunk 0.1 into the ground
    // spans x in [-0.03, 0.97]: against the left segment alone, as a two-sided segment,
    // the box's left face separates least and the contact normal points sideways
    // (+x): the "ghost collision" that would stop a sliding box.
    let right = ground_chain(2.0, 0.0);
    let left = ground_chain(0.0, -2.0);
    let at = xf(0.47, 0.4, 0.0);
    let plain = collide_segment_and_polygon(&left.segment, Transform::IDENTITY, &unit_box(), at);
    assert!(plain.point_count > 0);
    assert!(
        plain.normal.x > 0.9,
        "two-sided segment normal {:?}",
        plain.normal
    );

    // With ghost vertices the joint is smooth: both segments push straight up.
    for chain in [&right, &left] {
        let m = chain_collide(chain, &unit_box(), at);
        assert!(m.point_count > 0);
        assert_vec(m.normal, Vec2::Y, TOL);
        for p in m.points() {
            assert_close(p.separation, -0.1, TOL);
        }
    }

    // Slide the box across the joint at a resting depth of 0.01 (and at 0.01 above,
    // speculative): no contact from either segment ever points anywhere but up,
    // and the box is always supported.
    for height in [0.49, 0.51] {
        for step in 0..=40 {
            let x = -1.0 + 0.05 * step as f32;
            let at = xf(x, height, 0.0);
            let mut points = 0;
            for chain in [&right, &left] {
                let m = chain_collide(chain, &unit_box(), at);
                points += m.point_count;
                if m.point_count > 0 {
                    assert_vec(m.normal, Vec2::Y, TOL);
                    for p in m.points() {
                        assert_close(p.separation, height - 0.5, TOL);
                    }
                }
            }
            assert!(points >= 2, "box at x = {x} has {points} points");
        }
    }
}

#[test]
fn box_at_a_convex_chain_corner() {
    // The ground runs right to left along y = 0 for x in [-1, 0] and falls away to
    // the right of the origin along the slope from (1, -1). A small box (half 0.25)
    // whose lower-left corner is at (0.01, 0.01), diagonally off the convex corner:
    // corner to corner, normal along the diagonal, gap 0.01·√2.
    let chain = ChainSegment::new(
        Vec2::new(1.0, -1.0),
        Segment::new(Vec2::ZERO, Vec2::new(-1.0, 0.0)).unwrap(),
        Vec2::new(-2.0, 0.0),
    )
    .unwrap();
    let small = make_square(0.25).unwrap();
    let m = chain_collide(&chain, &small, xf(0.26, 0.26, 0.0));
    assert_eq!(m.point_count, 1);
    assert_vec(m.normal, Vec2::new(1.0, 1.0).normalize(), TOL);
    assert_close(m.points[0].separation, 0.01 * std::f32::consts::SQRT_2, TOL);
    assert_vec(m.points[0].point, Vec2::new(0.005, 0.005), TOL);
}

#[test]
fn capsule_lying_on_a_chain_segment() {
    // Core at height 0.24, radius 0.25: separation -0.01 at x = 0.3 ± 0.5.
    let chain = ground_chain(2.0, -2.0);
    let capsule = Capsule::new(Vec2::new(-0.5, 0.0), Vec2::new(0.5, 0.0), 0.25).unwrap();
    let mut cache = SimplexCache::default();
    let m = collide_chain_segment_and_capsule(
        &chain,
        Transform::IDENTITY,
        &capsule,
        xf(0.3, 0.24, 0.0),
        &mut cache,
    );
    assert_eq!(m.point_count, 2);
    assert_vec(m.normal, Vec2::Y, TOL);
    assert_vec(
        point_near(&m, Vec2::new(-0.2, 0.0)).point,
        Vec2::new(-0.2, -0.005),
        TOL,
    );
    assert_vec(
        point_near(&m, Vec2::new(0.8, 0.0)).point,
        Vec2::new(0.8, -0.005),
        TOL,
    );
    for p in m.points() {
        assert_close(p.separation, -0.01, TOL);
    }
}

#[test]
fn chain_contact_ids_and_cache_are_stable() {
    // Resting (SAT path) and hovering (GJK path), nudged: same ids; and reusing the
    // cache gives the same manifold as a fresh one.
    let chain = ground_chain(2.0, -2.0);
    for (before, after) in [
        (xf(0.2, 0.49, 0.0), xf(0.215, 0.492, 0.003)),
        (xf(0.2, 0.51, 0.0), xf(0.215, 0.508, -0.003)),
    ] {
        let mut cache = SimplexCache::default();
        let m0 = collide_chain_segment_and_polygon(
            &chain,
            Transform::IDENTITY,
            &unit_box(),
            before,
            &mut cache,
        );
        let m1 = collide_chain_segment_and_polygon(
            &chain,
            Transform::IDENTITY,
            &unit_box(),
            after,
            &mut cache,
        );
        assert_eq!(m0.point_count, 2);
        assert_eq!(m1.point_count, 2);
        for (p, q) in m0.points().iter().zip(m1.points()) {
            assert_eq!(p.id, q.id);
        }
        assert_eq!(m1, chain_collide(&chain, &unit_box(), after));
    }
}

// ---------------------------------------------------------------------------
// Bad input

#[test]
fn degenerate_and_extreme_input_does_not_panic() {
    // A zero-length capsule and segment, only constructible as struct literals.
    let dot = Capsule {
        center1: Vec2::new(0.2, 0.0),
        center2: Vec2::new(0.2, 0.0),
        radius: 0.25,
    };
    let point = Segment {
        point1: Vec2::ZERO,
        point2: Vec2::ZERO,
    };
    let circle = Circle::new(Vec2::ZERO, 0.25).unwrap();
    let capsule = Capsule::new(Vec2::new(-0.5, 0.0), Vec2::new(0.5, 0.0), 0.1).unwrap();
    let b = unit_box();
    let at = xf(0.1, 0.2, 0.3);
    let results = [
        collide_capsules(&dot, Transform::IDENTITY, &capsule, at),
        collide_capsules(&capsule, Transform::IDENTITY, &dot, at),
        collide_capsules(&dot, Transform::IDENTITY, &dot, at),
        collide_capsule_and_circle(&dot, Transform::IDENTITY, &circle, at),
        collide_polygon_and_capsule(&b, Transform::IDENTITY, &dot, at),
        collide_segment_and_polygon(&point, Transform::IDENTITY, &b, at),
        collide_segment_and_capsule(&point, Transform::IDENTITY, &capsule, xf(0.1, 0.05, 0.3)),
        collide_segment_and_circle(&point, Transform::IDENTITY, &circle, at),
    ];
    for m in results {
        assert!(m.point_count > 0);
        assert_close(m.normal.length(), 1.0, 1e-5);
        assert!(
            m.points()
                .iter()
                .all(|p| p.point.is_finite() && p.separation.is_finite())
        );
    }
    // The degenerate segment is a point: against the box whose bottom is 0.01 above
    // it, the normal points from the point (A) up to the box (B).
    let m = collide_segment_and_polygon(&point, Transform::IDENTITY, &b, xf(0.0, 0.51, 0.0));
    assert_eq!(m.point_count, 1);
    assert_vec(m.normal, Vec2::Y, TOL);
    assert_close(m.points[0].separation, 0.01, TOL);
    assert_vec(m.points[0].point, Vec2::new(0.0, 0.005), TOL);

    // A zero-length chain segment collides with nothing.
    let flat = ChainSegment {
        ghost1: Vec2::X,
        segment: point,
        ghost2: -Vec2::X,
        chain_id: 0,
    };
    assert_eq!(chain_collide(&flat, &b, at).point_count, 0);
    assert_eq!(
        collide_chain_segment_and_circle(&flat, Transform::IDENTITY, &circle, at).point_count,
        0
    );
    // A zero-length capsule on a chain is a circle.
    let m = collide_chain_segment_and_capsule(
        &ground_chain(1.0, -1.0),
        Transform::IDENTITY,
        &dot,
        xf(0.0, 0.2, 0.0),
        &mut SimplexCache::default(),
    );
    assert_eq!(m.point_count, 1);
    assert_vec(m.normal, Vec2::Y, TOL);
    assert_close(m.points[0].separation, -0.05, TOL);

    // Far-apart and non-finite placements give empty manifolds, never NaN.
    let huge = xf(3.0e38, -3.0e38, 0.0);
    let nan = Transform::new(Vec2::new(f32::NAN, 0.0), Rot::IDENTITY);
    for other in [huge, nan] {
        for m in [
            collide_polygons(&b, Transform::IDENTITY, &b, other),
            collide_polygons(&b, xf(-3.0e38, 3.0e38, 1.0), &b, other),
            collide_capsules(&capsule, Transform::IDENTITY, &capsule, other),
            collide_circles(&circle, Transform::IDENTITY, &circle, other),
            collide_polygon_and_circle(&b, Transform::IDENTITY, &circle, other),
            collide_chain_segment_and_circle(
                &ground_chain(1.0, -1.0),
                Transform::IDENTITY,
                &circle,
                other,
            ),
            chain_collide(&ground_chain(1.0, -1.0), &b, other),
            collide_chain_segment_and_capsule(
                &ground_chain(1.0, -1.0),
                xf(-3.0e38, 0.0, 0.0),
                &capsule,
                other,
                &mut SimplexCache::default(),
            ),
        ] {
            assert!(m.point_count == 0 || m.points().iter().all(|p| p.point.is_finite()));
            assert!(m.point_count == 0 || m.normal.is_finite());
        }
    }
}

/// Nearly antiparallel capsules side by side whose closest features are two
/// ends: A's core runs (0, 0)–(1, 0); B's from p = (1.01, 1) back to
/// q = (0, 1.02). A's end (1, 0) projects before p on B (its coordinate along B
/// is (0.01·1.01 − 1·0.02)/|q − p| < 0) and p lies beyond A's end, so the core
/// distance is |p − (1, 0)| = √(0.01² + 1²). A two-point manifold has one
/// normal, and each point's separation is the gap along it (its ends lie on
/// both surfaces): along either side's normal that gap exceeds the core
/// distance by up to h·(1/cos α − 1) = 1.96e-4 m (h ≈ 1, tan α = 0.02/1.01),
/// less than the linear slop, so the two points are kept with the gap slightly
/// overstated (as in Box2D), never understated.
#[test]
fn near_parallel_capsules_with_closest_ends_keep_two_points() {
    let a = Capsule::new(Vec2::ZERO, Vec2::new(1.0, 0.0), 0.495).unwrap();
    let b = Capsule::new(Vec2::new(1.01, 1.0), Vec2::new(0.0, 1.02), 0.495).unwrap();
    let gap = (0.01f32 * 0.01 + 1.0).sqrt() - 0.99;
    let alpha = (0.02f32 / 1.01).atan();
    let overstated = 1.0 / alpha.cos() - 1.0;
    for (dx, dy) in [(0.0, 0.0), (123.0, -45.0)] {
        let (xa, xb) = (xf(dx, dy, 0.0), xf(dx, dy, 0.0));
        let m = collide_capsules(&a, xa, &b, xb);
        assert_eq!(m.point_count, 2, "{m:?}");
        assert_consistent(&m, xa, xb);
        let closest = m
            .points()
            .iter()
            .map(|p| p.separation)
            .fold(f32::MAX, f32::min);
        assert!(closest >= gap - 1e-6, "{closest} < {gap}");
        assert!(closest <= gap + overstated + 1e-5, "{closest} vs {gap}");
        assert!(m.normal.dot(Vec2::Y) > 0.999, "{m:?}");
    }
}
