//! Convex hulls: the validated point sets that polygons are built from.
//!
//! [`compute_hull`] turns up to [`MAX_POLYGON_VERTICES`] loose points into a
//! [`Hull`] by quickhull, then simplifies it so that the polygons made from it are
//! numerically robust:
//!
//! 1. **Welding.** A point closer than `4 × LINEAR_SLOP` (2 cm) to any earlier
//!    input point, kept or not, is dropped (as in Box2D v3). The first input point
//!    always survives. A chain of points each within the weld distance of the one
//!    before collapses to its first point, so a dropped point can be up to
//!    `7 × 4 × LINEAR_SLOP` (14 cm) from the nearest kept one.
//! 2. **Quickhull.** Start from the kept point farthest from the centre of the
//!    input's bounding box and the point farthest from it; split the rest into the
//!    two sides of that chord and recurse on each side with the farthest point.
//!    Points within `2 × LINEAR_SLOP` of a chord are treated as on it and dropped.
//! 3. **Collinear removal.** Any hull point within `2 × LINEAR_SLOP` of the line
//!    through its two neighbours is removed, repeatedly, until none is left.
//!
//! The result is counter-clockwise and starts at the point chosen in step 2.
//!
//! **Limits.** At most [`MAX_POLYGON_VERTICES`] (8) *input* points are accepted, as
//! in Box2D: the whole computation then runs on fixed-size stack arrays (no
//! allocation), a hull can never have more than 8 points, and the rule is easy to
//! state and check before calling. Callers with larger point clouds should reduce
//! them first.
//!
//! # References
//! - Barber, Dobkin, Huhdanpaa, *The Quickhull Algorithm for Convex Hulls* (1996).
//! - E. Catto, Box2D v3 `hull.c`.

use super::geometry::orient;
use crate::core::{HUGE, LINEAR_SLOP, MAX_POLYGON_VERTICES};
use crate::error::{Error, Result};
use crate::math::Vec2;

/// A convex hull of at most [`MAX_POLYGON_VERTICES`] points, counter-clockwise, with
/// no collinear or nearly coincident points. Only [`compute_hull`] makes one, so a
/// `Hull` is always valid input for [`make_polygon`](super::make_polygon).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Hull {
    pub(crate) points: [Vec2; MAX_POLYGON_VERTICES],
    pub(crate) count: usize,
}

impl Hull {
    /// The hull's points, counter-clockwise, metres.
    pub fn points(&self) -> &[Vec2] {
        &self.points[..self.count]
    }
}

/// Points closer than this are merged, metres.
const WELD_DISTANCE: f32 = 4.0 * LINEAR_SLOP;

/// Points closer than this to a hull edge (or to the line through their
/// neighbours) are dropped as collinear, metres.
const COLLINEAR_DISTANCE: f32 = 2.0 * LINEAR_SLOP;

/// A fixed-capacity list of points; capacity is never exceeded because the
/// input has at most [`MAX_POLYGON_VERTICES`] points.
#[derive(Clone, Copy)]
struct PointList {
    points: [Vec2; MAX_POLYGON_VERTICES],
    len: usize,
}

impl PointList {
    const fn new() -> PointList {
        PointList {
            points: [Vec2::ZERO; MAX_POLYGON_VERTICES],
            len: 0,
        }
    }

    fn push(&mut self, p: Vec2) {
        debug_assert!(self.len < MAX_POLYGON_VERTICES);
        if self.len < MAX_POLYGON_VERTICES {
            self.points[self.len] = p;
            self.len += 1;
        }
    }

    fn as_slice(&self) -> &[Vec2] {
        &self.points[..self.len]
    }

    fn remove(&mut self, index: usize) -> Vec2 {
        let p = self.points[index];
        self.points.copy_within(index + 1..self.len, index);
        self.len -= 1;
        p
    }
}

/// Signed distance of `p` to the right of the directed line `a → b` (positive on
/// the right, i.e. the clockwise side), metres; 0 when `a == b`.
///
/// Decided in `f64` from the exact cross product ([`orient`]): in `f32` the
/// round-off of a cross product near `HUGE` exceeds the collinear tolerance, so a
/// chord's own end point could test as lying beyond it and be listed twice.
#[inline]
fn right_distance(p: Vec2, a: Vec2, b: Vec2) -> f64 {
    let dx = f64::from(b.x) - f64::from(a.x);
    let dy = f64::from(b.y) - f64::from(a.y);
    let length = (dx * dx + dy * dy).sqrt();
    if length == 0.0 {
        return 0.0;
    }
    orient(a, p, b) / length
}

/// Index of the point of `points` farthest from `from` (the first one on ties).
fn farthest_from(points: &[Vec2], from: Vec2) -> usize {
    let mut best = 0;
    let mut best_dsq = from.distance_squared(points[0]);
    for (i, p) in points.iter().enumerate().skip(1) {
        let dsq = from.distance_squared(*p);
        if dsq > best_dsq {
            best = i;
            best_dsq = dsq;
        }
    }
    best
}

/// Appends to `out`, in order from `a` to `b`, the hull points lying strictly to the
/// right of the directed chord `a → b` among `candidates` (excluding `a` and `b`).
fn hull_right_of(a: Vec2, b: Vec2, candidates: &[Vec2], out: &mut PointList) {
    if candidates.is_empty() {
        return;
    }
    let mut right = PointList::new();
    let mut apex = Vec2::ZERO;
    let mut apex_distance = 0.0;
    for &p in candidates {
        let d = right_distance(p, a, b);
        if d > 0.0 {
            right.push(p);
            if d > apex_distance {
                apex = p;
                apex_distance = d;
            }
        }
    }
    if apex_distance < f64::from(COLLINEAR_DISTANCE) {
        // Everything left is on (or within tolerance of) the chord.
        return;
    }
    hull_right_of(a, apex, right.as_slice(), out);
    out.push(apex);
    hull_right_of(apex, b, right.as_slice(), out);
}

/// Distance of `mid` from the line through `prev` and `next`, positive when the
/// path `prev → mid → next` turns left (a convex corner of a counter-clockwise
/// polygon, where `mid` lies to the right of the chord `prev → next`); 0 when
/// `prev` and `next` coincide.
///
/// Computed in `f64` from the exact cross product ([`orient`]): in `f32` the
/// round-off near `HUGE` (about 1e-2 m) could pass a slightly reflex corner as
/// convex, and `make_polygon`, which checks the corners exactly, would then
/// refuse the hull.
#[inline]
fn turn_distance(prev: Vec2, mid: Vec2, next: Vec2) -> f64 {
    let dx = f64::from(next.x) - f64::from(prev.x);
    let dy = f64::from(next.y) - f64::from(prev.y);
    let length = (dx * dx + dy * dy).sqrt();
    if length == 0.0 {
        return 0.0;
    }
    orient(prev, mid, next) / length
}

/// Computes the convex hull of 3 to 8 points (metres) by quickhull, simplified for
/// robust polygons:
///
/// - a point closer than `4 × LINEAR_SLOP` to any earlier input point (kept or
///   not) is dropped, so the first point of a cluster, in input order, survives;
/// - points within `2 × LINEAR_SLOP` of a hull edge, or of the line through their
///   two hull neighbours, are dropped.
///
/// The result is counter-clockwise and starts at the input point farthest from the
/// centre of the input's bounding box (the first such point on ties), as in Box2D
/// v3, so the two engines list the same hull in the same order. Every hull point is
/// one of the input points, unchanged.
///
/// At most [`MAX_POLYGON_VERTICES`] input points are accepted (as in Box2D): the
/// computation then needs no allocation and a hull can never exceed the polygon
/// limit. Reduce larger point clouds before calling.
///
/// # Errors
/// - [`Error::InvalidGeometry`] for fewer than 3 or more than 8 input points, fewer
///   than 3 points left after welding, or points that are all (nearly) collinear.
/// - [`Error::NonFinite`] if a coordinate is NaN or infinite.
/// - [`Error::OutOfRange`] if a coordinate exceeds [`HUGE`] in magnitude.
///
/// Box2D: `b2ComputeHull`.
pub fn compute_hull(points: &[Vec2]) -> Result<Hull> {
    if points.len() < 3 {
        return Err(Error::InvalidGeometry(
            "compute_hull needs at least 3 points",
        ));
    }
    if points.len() > MAX_POLYGON_VERTICES {
        return Err(Error::InvalidGeometry(
            "compute_hull accepts at most MAX_POLYGON_VERTICES (8) points",
        ));
    }
    for p in points {
        if !p.is_finite() {
            return Err(Error::NonFinite { what: "hull point" });
        }
        for value in [p.x, p.y] {
            if value.abs() > HUGE {
                return Err(Error::OutOfRange {
                    what: "hull point coordinate",
                    expected: "within ±HUGE (1e5 m)",
                    value,
                });
            }
        }
    }

    // 1. Weld, and find the bounding box of the input.
    let mut lower = points[0];
    let mut upper = points[0];
    let mut kept = PointList::new();
    let weld_sq = WELD_DISTANCE * WELD_DISTANCE;
    for (i, &p) in points.iter().enumerate() {
        lower = lower.min(p);
        upper = upper.max(p);
        if points[..i]
            .iter()
            .all(|&q| p.distance_squared(q) >= weld_sq)
        {
            kept.push(p);
        }
    }
    if kept.len < 3 {
        return Err(Error::InvalidGeometry(
            "fewer than 3 distinct points: points closer than 4 × LINEAR_SLOP are merged",
        ));
    }

    // 2. Quickhull from an extreme chord.
    let center = lower.lerp(upper, 0.5);
    let first = kept.remove(farthest_from(kept.as_slice(), center));
    let second = kept.remove(farthest_from(kept.as_slice(), first));

    let mut right = PointList::new();
    let mut left = PointList::new();
    let collinear = f64::from(COLLINEAR_DISTANCE);
    for &p in kept.as_slice() {
        let d = right_distance(p, first, second);
        if d >= collinear {
            right.push(p);
        } else if d <= -collinear {
            left.push(p);
        }
    }

    let mut hull = PointList::new();
    hull.push(first);
    hull_right_of(first, second, right.as_slice(), &mut hull);
    hull.push(second);
    hull_right_of(second, first, left.as_slice(), &mut hull);
    if hull.len < 3 {
        return Err(Error::InvalidGeometry(
            "all points are collinear (within 2 × LINEAR_SLOP of a line)",
        ));
    }

    // 3. Remove collinear points until none is left.
    'restart: while hull.len > 2 {
        let n = hull.len;
        for i in 0..n {
            let (prev, mid, next) = (
                hull.points[i],
                hull.points[(i + 1) % n],
                hull.points[(i + 2) % n],
            );
            if turn_distance(prev, mid, next) <= f64::from(COLLINEAR_DISTANCE) {
                hull.remove((i + 1) % n);
                continue 'restart;
            }
        }
        break;
    }
    if hull.len < 3 {
        return Err(Error::InvalidGeometry(
            "all points are collinear (within 2 × LINEAR_SLOP of a line)",
        ));
    }

    let result = Hull {
        points: hull.points,
        count: hull.len,
    };
    if !validate_hull(&result) {
        // Not reachable for well-scaled input; reported rather than asserted
        // because the tolerances are absolute and the input range is wide.
        return Err(Error::InvalidGeometry(
            "the simplified hull is not strictly convex",
        ));
    }
    Ok(result)
}

/// Whether `hull` is usable for a polygon: 3 to 8 finite points, strictly convex and
/// counter-clockwise (every point strictly left of every edge it is not on), and no
/// point within `LINEAR_SLOP` of the line through its neighbours.
///
/// Every hull returned by [`compute_hull`] passes (its collinear tolerance is twice
/// as strict). Costs O(n²); meant for assertions and tests.
///
/// Box2D: `b2ValidateHull`.
pub fn validate_hull(hull: &Hull) -> bool {
    let n = hull.count;
    if !(3..=MAX_POLYGON_VERTICES).contains(&n) {
        return false;
    }
    let pts = hull.points();
    if pts.iter().any(|p| !p.is_finite()) {
        return false;
    }
    for i in 0..n {
        let a = pts[i];
        let b = pts[(i + 1) % n];
        for (j, &p) in pts.iter().enumerate() {
            if j == i || j == (i + 1) % n {
                continue;
            }
            // Strictly to the left of a → b, decided exactly (as `make_polygon`
            // decides it); this also rules out a == b.
            if orient(a, b, p) <= 0.0 {
                return false;
            }
        }
    }
    for i in 0..n {
        let turn = turn_distance(pts[i], pts[(i + 1) % n], pts[(i + 2) % n]);
        if turn <= f64::from(LINEAR_SLOP) {
            return false;
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(x: f32, y: f32) -> Vec2 {
        Vec2::new(x, y)
    }

    /// Whether `hull` lists exactly the points of `expected` in the same cyclic order.
    fn same_cycle(hull: &[Vec2], expected: &[Vec2]) -> bool {
        if hull.len() != expected.len() {
            return false;
        }
        let Some(start) = hull.iter().position(|p| *p == expected[0]) else {
            return false;
        };
        (0..hull.len()).all(|k| hull[(start + k) % hull.len()] == expected[k])
    }

    #[test]
    fn square_with_interior_point() {
        let pts = [
            v(1.0, 1.0),
            v(-1.0, -1.0),
            v(0.2, 0.1),
            v(1.0, -1.0),
            v(-1.0, 1.0),
        ];
        let hull = compute_hull(&pts).unwrap();
        assert!(validate_hull(&hull));
        // CCW square: (1,-1) → (1,1) → (-1,1) → (-1,-1).
        let expected = [v(1.0, -1.0), v(1.0, 1.0), v(-1.0, 1.0), v(-1.0, -1.0)];
        assert!(same_cycle(hull.points(), &expected), "{:?}", hull.points());
    }

    #[test]
    fn clockwise_triangle_is_returned_counter_clockwise() {
        let pts = [v(0.0, 0.0), v(0.0, 2.0), v(3.0, 0.0)];
        let hull = compute_hull(&pts).unwrap();
        let expected = [v(0.0, 0.0), v(3.0, 0.0), v(0.0, 2.0)];
        assert!(same_cycle(hull.points(), &expected), "{:?}", hull.points());
    }

    #[test]
    fn starts_at_point_farthest_from_bounding_box_centre() {
        // Box [0,4]×[0,3], centre (2,1.5). Squared distances: (0.5,3) → 4.5,
        // (4,0.5) → 5, (0,0) → 6.25: the last input point starts the hull.
        let pts = [v(0.5, 3.0), v(4.0, 0.5), v(0.0, 0.0)];
        let hull = compute_hull(&pts).unwrap();
        assert_eq!(hull.points()[0], v(0.0, 0.0));
        assert_eq!(hull.points()[1], v(4.0, 0.5));
    }

    #[test]
    fn welds_close_points_keeping_the_first() {
        // 0.015 m < 4 × slop = 0.02 m: welded; the first of the pair survives.
        let pts = [v(0.0, 0.0), v(2.0, 0.0), v(2.015, 0.0), v(1.0, 1.5)];
        let hull = compute_hull(&pts).unwrap();
        assert_eq!(hull.count, 3);
        assert!(hull.points().contains(&v(2.0, 0.0)));
        assert!(!hull.points().contains(&v(2.015, 0.0)));
        // 0.03 m apart is kept by welding (the collinear pass may still drop it,
        // but here the pair is a real corner).
        let pts = [v(0.0, 0.0), v(2.0, 0.0), v(2.0, 0.03), v(0.0, 1.0)];
        assert_eq!(compute_hull(&pts).unwrap().count, 4);
    }

    #[test]
    fn welds_against_every_earlier_point_not_only_kept_ones() {
        // (2.015, 0) is 0.015 m from (2, 0): dropped. (2.03, 0) is 0.03 m from the
        // kept (2, 0) but 0.015 m from the dropped (2.015, 0), an earlier input
        // point: dropped too. What is left is the triangle (0,0), (2,0), (1,1.5).
        // (Welding only against kept points would keep (2.03, 0), and the collinear
        // pass would then drop (2, 0) instead.)
        let pts = [
            v(0.0, 0.0),
            v(2.0, 0.0),
            v(2.015, 0.0),
            v(2.03, 0.0),
            v(1.0, 1.5),
        ];
        let hull = compute_hull(&pts).unwrap();
        assert_eq!(hull.count, 3, "{:?}", hull.points());
        assert!(hull.points().contains(&v(2.0, 0.0)));
        assert!(!hull.points().contains(&v(2.03, 0.0)));
    }

    #[test]
    fn removes_collinear_and_nearly_collinear_points() {
        // Midpoint of the bottom edge, and a point 0.004 m off the right edge.
        let pts = [
            v(-1.0, -1.0),
            v(0.0, -1.0),
            v(1.0, -1.0),
            v(1.004, 0.0),
            v(1.0, 1.0),
            v(-1.0, 1.0),
        ];
        let hull = compute_hull(&pts).unwrap();
        assert_eq!(hull.count, 4, "{:?}", hull.points());
        assert!(!hull.points().contains(&v(0.0, -1.0)));
        assert!(!hull.points().contains(&v(1.004, 0.0)));
        // 0.05 m off the edge is a genuine vertex.
        let pts = [
            v(-1.0, -1.0),
            v(1.0, -1.0),
            v(1.05, 0.0),
            v(1.0, 1.0),
            v(-1.0, 1.0),
        ];
        assert_eq!(compute_hull(&pts).unwrap().count, 5);
    }

    #[test]
    fn octagon_keeps_all_eight_points() {
        let mut pts = [Vec2::ZERO; 8];
        for (i, p) in pts.iter_mut().enumerate() {
            let (c, s) = crate::math::cos_sin(i as f32 * crate::math::PI / 4.0);
            *p = v(2.0 * c, 2.0 * s);
        }
        // Scramble the order.
        pts.swap(0, 5);
        pts.swap(2, 7);
        let hull = compute_hull(&pts).unwrap();
        assert_eq!(hull.count, 8);
        assert!(validate_hull(&hull));
    }

    #[test]
    fn rejects_bad_input() {
        assert!(matches!(
            compute_hull(&[v(0.0, 0.0), v(1.0, 0.0)]),
            Err(Error::InvalidGeometry(_))
        ));
        let nine = [v(0.0, 0.0); 9];
        assert!(matches!(
            compute_hull(&nine),
            Err(Error::InvalidGeometry(_))
        ));
        assert!(matches!(
            compute_hull(&[v(0.0, 0.0), v(1.0, f32::NAN), v(0.0, 1.0)]),
            Err(Error::NonFinite { .. })
        ));
        assert!(matches!(
            compute_hull(&[v(0.0, 0.0), v(f32::INFINITY, 0.0), v(0.0, 1.0)]),
            Err(Error::NonFinite { .. })
        ));
        assert!(matches!(
            compute_hull(&[v(0.0, 0.0), v(2.0e5, 0.0), v(0.0, 1.0)]),
            Err(Error::OutOfRange { .. })
        ));
        // Coincident within the weld distance.
        assert!(matches!(
            compute_hull(&[v(0.0, 0.0), v(0.01, 0.0), v(0.0, 0.01), v(0.005, 0.005)]),
            Err(Error::InvalidGeometry(_))
        ));
        // Exactly collinear, and collinear within 2 × slop.
        assert!(matches!(
            compute_hull(&[v(0.0, 0.0), v(1.0, 1.0), v(2.0, 2.0), v(3.0, 3.0)]),
            Err(Error::InvalidGeometry(_))
        ));
        assert!(matches!(
            compute_hull(&[v(0.0, 0.0), v(1.0, 0.009), v(2.0, 0.0)]),
            Err(Error::InvalidGeometry(_))
        ));
    }

    #[test]
    fn validate_rejects_bad_hulls() {
        let mut points = [Vec2::ZERO; MAX_POLYGON_VERTICES];
        points[..4].copy_from_slice(&[v(0.0, 0.0), v(1.0, 0.0), v(1.0, 1.0), v(0.0, 1.0)]);
        let good = Hull { points, count: 4 };
        assert!(validate_hull(&good));

        // Clockwise.
        let mut cw = good;
        cw.points[..4].reverse();
        assert!(!validate_hull(&cw));

        // Non-convex (a dent at the top).
        let mut dent = Hull { points, count: 5 };
        dent.points[..5].copy_from_slice(&[
            v(0.0, 0.0),
            v(2.0, 0.0),
            v(2.0, 2.0),
            v(1.0, 1.0),
            v(0.0, 2.0),
        ]);
        assert!(!validate_hull(&dent));

        // Collinear midpoint.
        let mut col = Hull { points, count: 5 };
        col.points[..5].copy_from_slice(&[
            v(0.0, 0.0),
            v(0.5, 0.0),
            v(1.0, 0.0),
            v(1.0, 1.0),
            v(0.0, 1.0),
        ]);
        assert!(!validate_hull(&col));

        // Too few points, and non-finite.
        assert!(!validate_hull(&Hull { points, count: 2 }));
        let mut nan = good;
        nan.points[2] = v(f32::NAN, 1.0);
        assert!(!validate_hull(&nan));
    }
}
