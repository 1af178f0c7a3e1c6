//! Contact manifolds: the up to two contact points, shared normal and separations
//! between two touching (or nearly touching) shapes.
//!
//! Every function takes shape A in its local frame with `xf_a`, shape B with
//! `xf_b`, and returns a manifold whose normal points from A to B in world
//! coordinates. Points are reported relative to A's origin (`anchor_a`), relative to
//! B's origin (`anchor_b`) and in world coordinates (`point`), mid-way between the
//! two surfaces. Points are created up to
//! [`SPECULATIVE_DISTANCE`](crate::core::SPECULATIVE_DISTANCE) before touching;
//! farther apart the manifold is empty. A face contact keeps both of its clipped
//! points whatever their separation, as Box2D v3 does: the far one is a speculative
//! point that the solver ignores until it comes close (it stops a turning box's far
//! corner from sinking in within one step). The solver fields of the points are
//! left at 0.
//!
//! Feature ids ([`make_id`]) name a vertex or edge of A and one of B, so that the
//! same point keeps its id while the shapes move a little and the solver can warm
//! start it. Polygon pairs follow Box2D v3's ids.
//!
//! Chain segments are one-sided and use their ghost vertices so that shapes slide
//! across the joints of a smooth chain without catching on internal corners. A
//! chain contact whose closest clipped point is beyond the speculative distance is
//! empty, even when the shapes overlap beyond an end of the segment (that region
//! belongs to the neighbouring segment); Box2D v3 keeps such a manifold.
//!
//! Shapes built through struct literals may be degenerate: a zero-length capsule or
//! segment is treated as a circle at its first point, a zero-length chain segment
//! collides with nothing. A non-finite result (coordinates beyond what `f32` can
//! handle) is reported as an empty manifold. No input panics.
//!
//! # References
//! - E. Catto, Box2D-Lite `Collide.cpp` (box SAT and clipping), Box2D v3 `manifold.c`.
//! - E. Catto, *Ghost Collisions* (box2d.org, 2020): the chain's Gauss-map test.
//! - C. Ericson, *Real-Time Collision Detection* (2005), §5.1.9: closest points of
//!   two segments.
//! - D. Eberly, *Intersection of Convex Objects: The Method of Separating Axes*.

use super::distance::{
    DistanceInput, DistanceOutput, SegmentDistanceResult, ShapeProxy, SimplexCache,
    segment_distance, shape_distance,
};
use super::geometry::{Capsule, ChainSegment, Circle, Polygon, Segment, make_capsule_polygon};
use crate::core::{LINEAR_SLOP, SPECULATIVE_DISTANCE};
use crate::math::{Transform, Vec2};

/// One contact point of a [`Manifold`]. `#[repr(C)]`: the solver stores
/// `normal_impulse ..= normal_velocity` (four adjacent words) as one row.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[repr(C)]
pub struct ManifoldPoint {
    /// World position of the contact point (mid-way between the surfaces),
    /// metres: in the world's contacts, their events, the pre-solve callback
    /// (continuous collision's one-point manifolds too) and contact data;
    /// in the frame of the transforms passed to a `collide_*` function.
    ///
    /// With the `large-world` feature it is still the world position, rounded
    /// to `f32` (the manifold is computed relative to body A and moved into
    /// the world in `f64`): as coarse as any `f32` coordinate there, steps of
    /// 7.8 mm at 100 km and 1 m at 10,000 km. Where that is too coarse, take
    /// `anchor_a` from body A's centre of mass in `f64` (a world contact's
    /// anchors are relative to the centres of mass, see `anchor_a`).
    pub point: Vec2,
    /// The point relative to body A's origin, world orientation, metres
    /// (`collide_*`, and continuous collision's one-point manifolds, at the
    /// time of impact); in the world's contacts (their events, the pre-solve
    /// callback, contact data) relative to body A's centre of mass.
    pub anchor_a: Vec2,
    /// The point relative to body B's origin, world orientation, metres (in
    /// the world's contacts relative to its centre of mass, as `anchor_a`).
    pub anchor_b: Vec2,
    /// Signed distance between the surfaces along the normal, metres (negative
    /// when overlapping).
    pub separation: f32,
    /// Accumulated normal impulse of the last step, N·s (set by the solver).
    pub normal_impulse: f32,
    /// Accumulated friction impulse of the last step, N·s (set by the solver).
    pub tangent_impulse: f32,
    /// The largest normal impulse applied in any substep of the last step, N·s.
    pub total_normal_impulse: f32,
    /// Relative normal velocity before the solver ran, m/s (for restitution).
    pub normal_velocity: f32,
    /// Feature id that identifies this point across frames (for warm starting).
    pub id: u16,
    /// Whether the point matched a point of the previous step.
    pub persisted: bool,
}

/// The contact between two shapes: a normal and up to two points.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Manifold {
    /// Unit normal from shape A to shape B, world frame.
    pub normal: Vec2,
    /// Accumulated rolling-resistance impulse, N·m·s (set by the solver).
    pub rolling_impulse: f32,
    /// The points; only the first `point_count` are meaningful.
    pub points: [ManifoldPoint; 2],
    /// Number of points, 0 to 2.
    pub point_count: usize,
}

impl Manifold {
    /// The meaningful points.
    #[inline]
    pub fn points(&self) -> &[ManifoldPoint] {
        &self.points[..self.point_count]
    }
}

/// Makes a feature id from the features of A and B that produced a point.
#[inline]
pub const fn make_id(a: u8, b: u8) -> u16 {
    ((a as u16) << 8) | (b as u16)
}

// ---------------------------------------------------------------------------
// Results in A's working frame
//
// Every function computes its contact in A's local frame, often shifted to a vertex of A
// (`origin`) so that coordinates near the contact stay small, and converts to the world
// only at the end.

/// A contact point in A's working frame.
#[derive(Clone, Copy, Debug, Default)]
struct LocalPoint {
    /// Mid-way point between the surfaces, working frame, metres.
    anchor: Vec2,
    /// Signed distance between the surfaces, metres.
    separation: f32,
    /// Feature id.
    id: u16,
}

/// A manifold in A's working frame.
#[derive(Clone, Copy, Debug, Default)]
struct LocalManifold {
    normal: Vec2,
    points: [LocalPoint; 2],
    count: usize,
}

impl LocalManifold {
    const EMPTY: LocalManifold = LocalManifold {
        normal: Vec2::ZERO,
        points: [LocalPoint {
            anchor: Vec2::ZERO,
            separation: 0.0,
            id: 0,
        }; 2],
        count: 0,
    };

    #[inline(always)]
    fn single(normal: Vec2, anchor: Vec2, separation: f32, id: u16) -> LocalManifold {
        let mut m = LocalManifold {
            normal,
            ..LocalManifold::EMPTY
        };
        m.points[0] = LocalPoint {
            anchor,
            separation,
            id,
        };
        m.count = 1;
        m
    }

    /// Appends a point (at most two; a third is ignored).
    #[inline(always)]
    fn push(&mut self, point: LocalPoint) {
        debug_assert!(self.count < 2);
        if self.count < 2 {
            self.points[self.count] = point;
            self.count += 1;
        }
    }

    /// The smallest separation of the points (infinity when there are none).
    #[inline(always)]
    fn closest(&self) -> f32 {
        self.points[..self.count]
            .iter()
            .map(|p| p.separation)
            .fold(f32::INFINITY, f32::min)
    }

    /// The manifold, or an empty one when even its closest point is more than
    /// [`SPECULATIVE_DISTANCE`] apart.
    #[inline(always)]
    fn within_reach(self) -> LocalManifold {
        if self.closest() <= SPECULATIVE_DISTANCE {
            self
        } else {
            LocalManifold::EMPTY
        }
    }

    /// Converts to the world: the working frame is A's local frame shifted by `origin`
    /// (in A's local coordinates). A manifold with any non-finite number (inputs beyond
    /// the range `f32` can handle) becomes empty.
    #[inline(always)]
    fn into_world(self, xf_a: Transform, xf_b: Transform, origin: Vec2) -> Manifold {
        let mut manifold = Manifold::default();
        if self.count == 0 {
            return manifold;
        }
        manifold.normal = xf_a.q.rotate(self.normal);
        let a_to_b = xf_a.p - xf_b.p;
        let mut finite = manifold.normal.is_finite();
        for (out, local) in manifold.points.iter_mut().zip(&self.points[..self.count]) {
            let anchor_a = xf_a.q.rotate(local.anchor + origin);
            *out = ManifoldPoint {
                point: xf_a.p + anchor_a,
                anchor_a,
                anchor_b: anchor_a + a_to_b,
                separation: local.separation,
                id: local.id,
                ..ManifoldPoint::default()
            };
            finite &=
                out.point.is_finite() && out.anchor_b.is_finite() && out.separation.is_finite();
        }
        manifold.point_count = self.count;
        if finite {
            manifold
        } else {
            Manifold::default()
        }
    }
}

/// The same contact seen from the other shape: the manifold of (B, A) made into the
/// manifold of (A, B).
#[inline(always)]
fn swapped(m: Manifold) -> Manifold {
    let mut out = m;
    out.normal = -m.normal;
    for p in &mut out.points[..out.point_count] {
        std::mem::swap(&mut p.anchor_a, &mut p.anchor_b);
        p.id = p.id.swap_bytes();
    }
    out
}

/// B's pose relative to A's local frame moved so that its origin sits at
/// `origin` (A-local coordinates). The relative pose is formed first, from the
/// difference of the world positions (exact when the shapes are near each other,
/// wherever they are), and only then shifted in A's frame: shifting A's frame in
/// world coordinates first would round the pose at the size of the world
/// coordinates (a millimetre at 10 km).
#[inline(always)]
fn relative_shifted(xf_a: Transform, xf_b: Transform, origin: Vec2) -> Transform {
    let xf = xf_a.inv_mul(xf_b);
    Transform::new(xf.p - origin, xf.q)
}

#[inline]
fn next_index(i: usize, count: usize) -> usize {
    if i + 1 < count { i + 1 } else { 0 }
}

#[inline]
fn prev_index(i: usize, count: usize) -> usize {
    if i > 0 { i - 1 } else { count - 1 }
}

/// Whether a capsule or segment is too short to have a reliable direction; such
/// shapes (only possible through struct literals, the constructors refuse them) are
/// treated as a circle at their first point.
#[inline]
fn is_degenerate(p1: Vec2, p2: Vec2) -> bool {
    p1.distance_squared(p2) <= f32::EPSILON
}

/// The unit left normal of `axis`, or +y when the axis has no direction.
#[inline]
fn left_normal_or_up(axis: Vec2) -> Vec2 {
    let n = axis.left_perp().normalize();
    if n == Vec2::ZERO { Vec2::Y } else { n }
}

// ---------------------------------------------------------------------------
// Round shapes

/// The contact between two disks given by centre and radius in the working frame.
/// `fallback` is the normal used when the centres coincide.
#[inline(always)]
fn disk_contact(
    center_a: Vec2,
    radius_a: f32,
    center_b: Vec2,
    radius_b: f32,
    fallback: Vec2,
    id: u16,
) -> LocalManifold {
    let (mut normal, distance) = (center_b - center_a).get_length_and_normalize();
    if distance == 0.0 {
        normal = fallback;
    }
    let separation = distance - radius_a - radius_b;
    if separation > SPECULATIVE_DISTANCE {
        return LocalManifold::EMPTY;
    }
    let surface_a = Vec2::mul_add(center_a, radius_a, normal);
    let surface_b = Vec2::mul_sub(center_b, radius_b, normal);
    LocalManifold::single(normal, surface_a.lerp(surface_b, 0.5), separation, id)
}

/// The point of segment `p1–p2` closest to `q`.
#[inline(always)]
fn closest_point_on_segment(p1: Vec2, p2: Vec2, q: Vec2) -> Vec2 {
    let e = p2 - p1;
    let along = (q - p1).dot(e);
    if along <= 0.0 {
        return p1;
    }
    let length_squared = e.dot(e);
    if along >= length_squared {
        return p2;
    }
    Vec2::mul_add(p1, along / length_squared, e)
}

/// Contact between two circles. Points within
/// [`SPECULATIVE_DISTANCE`] of touching give one point with id 0; beyond, the
/// manifold is empty. Concentric circles get the normal +y of A's frame.
///
/// Box2D: `b2CollideCircles`.
#[inline(always)]
pub fn collide_circles(
    circle_a: &Circle,
    xf_a: Transform,
    circle_b: &Circle,
    xf_b: Transform,
) -> Manifold {
    let center_b = xf_a.inv_mul(xf_b).apply(circle_b.center);
    disk_contact(
        circle_a.center,
        circle_a.radius,
        center_b,
        circle_b.radius,
        Vec2::Y,
        0,
    )
    .into_world(xf_a, xf_b, Vec2::ZERO)
}

/// Contact between a capsule (A) and a circle (B): one point, id 0.
///
/// Box2D: `b2CollideCapsuleAndCircle`.
#[inline(always)]
pub fn collide_capsule_and_circle(
    capsule_a: &Capsule,
    xf_a: Transform,
    circle_b: &Circle,
    xf_b: Transform,
) -> Manifold {
    let center_b = xf_a.inv_mul(xf_b).apply(circle_b.center);
    let (p1, p2) = (capsule_a.center1, capsule_a.center2);
    let closest = closest_point_on_segment(p1, p2, center_b);
    disk_contact(
        closest,
        capsule_a.radius,
        center_b,
        circle_b.radius,
        left_normal_or_up(p2 - p1),
        0,
    )
    .into_world(xf_a, xf_b, Vec2::ZERO)
}

/// Contact between a two-sided segment (A) and a circle (B): one point, id 0.
///
/// Box2D: `b2CollideSegmentAndCircle`.
#[inline(always)]
pub fn collide_segment_and_circle(
    segment_a: &Segment,
    xf_a: Transform,
    circle_b: &Circle,
    xf_b: Transform,
) -> Manifold {
    let capsule = segment_capsule(segment_a);
    collide_capsule_and_circle(&capsule, xf_a, circle_b, xf_b)
}

/// A segment as a capsule of radius zero (the segment cases reuse the
/// capsule ones).
#[inline(always)]
fn segment_capsule(segment: &Segment) -> Capsule {
    Capsule {
        center1: segment.point1,
        center2: segment.point2,
        radius: 0.0,
    }
}

/// Contact between a polygon (A, possibly rounded) and a circle (B): one point, id 0.
///
/// The face of A that separates the circle's centre most is found first; if the
/// centre lies outside A beyond one of that face's ends, the contact is with the
/// corner there, otherwise with the face.
///
/// Box2D: `b2CollidePolygonAndCircle`.
#[inline(always)]
pub fn collide_polygon_and_circle(
    polygon_a: &Polygon,
    xf_a: Transform,
    circle_b: &Circle,
    xf_b: Transform,
) -> Manifold {
    let center = xf_a.inv_mul(xf_b).apply(circle_b.center);
    let (radius_a, radius_b) = (polygon_a.radius, circle_b.radius);
    let radius = radius_a + radius_b;
    let count = polygon_a.count;
    let (vertices, normals) = (&polygon_a.vertices, &polygon_a.normals);

    let mut face = 0;
    let mut separation = -f32::MAX;
    for i in 0..count {
        let s = normals[i].dot(center - vertices[i]);
        if s > separation {
            separation = s;
            face = i;
        }
    }
    if separation > radius + SPECULATIVE_DISTANCE {
        return Manifold::default();
    }

    let v1 = vertices[face];
    let v2 = vertices[next_index(face, count)];
    let normal = normals[face];
    let outside = separation > f32::EPSILON;
    let local = if outside && (center - v1).dot(v2 - v1) < 0.0 {
        disk_contact(v1, radius_a, center, radius_b, normal, 0)
    } else if outside && (center - v2).dot(v1 - v2) < 0.0 {
        disk_contact(v2, radius_a, center, radius_b, normal, 0)
    } else {
        // The separation reported is `separation - radius`, so that (not the sum
        // tested above, which rounds at the size of a huge radius) decides reach.
        if separation - radius > SPECULATIVE_DISTANCE {
            return Manifold::default();
        }
        // The centre projected onto the face and lifted to A's rounded surface.
        let surface_a = Vec2::mul_add(center, radius_a - (center - v1).dot(normal), normal);
        let surface_b = Vec2::mul_sub(center, radius_b, normal);
        LocalManifold::single(
            normal,
            surface_a.lerp(surface_b, 0.5),
            separation - radius,
            0,
        )
    };
    local.into_world(xf_a, xf_b, Vec2::ZERO)
}

// ---------------------------------------------------------------------------
// Capsules

/// How far segment `b1–b2` lies from the line through `a` with unit direction
/// `axis`, on the side where it lies farther: `(separation, outward normal)`.
#[inline(always)]
fn side_separation(a: Vec2, axis: Vec2, b1: Vec2, b2: Vec2) -> (f32, Vec2) {
    let n = axis.left_perp();
    let (s1, s2) = (n.dot(b1 - a), n.dot(b2 - a));
    let above = s1.min(s2);
    let below = (-s1).min(-s2);
    if above > below {
        (above, n)
    } else {
        (below, -n)
    }
}

/// Clips segment `a–b`, whose coordinates along a reference axis are `fa` and `fb`,
/// to the reference interval `[0, length]`.
#[inline(always)]
fn clip_to_interval(a: Vec2, b: Vec2, fa: f32, fb: f32, length: f32) -> (Vec2, Vec2) {
    let (mut ca, mut cb) = (a, b);
    if fa < 0.0 && fb > 0.0 {
        ca = a.lerp(b, -fa / (fb - fa));
    } else if fb < 0.0 && fa > 0.0 {
        cb = b.lerp(a, -fb / (fa - fb));
    }
    if fa > length && fb < length {
        ca = a.lerp(b, (fa - length) / (fa - fb));
    } else if fb > length && fa < length {
        cb = b.lerp(a, (fb - length) / (fb - fa));
    }
    (ca, cb)
}

/// Contact between capsules `p1–q1` (radius `radius_a`) and `p2–q2` in the working frame.
#[inline(always)]
fn capsule_contact(
    p1: Vec2,
    q1: Vec2,
    radius_a: f32,
    p2: Vec2,
    q2: Vec2,
    radius_b: f32,
) -> LocalManifold {
    let closest = segment_distance(p1, q1, p2, q2);
    let radius = radius_a + radius_b;
    let max_distance = radius + SPECULATIVE_DISTANCE;
    if closest.distance_squared > max_distance * max_distance {
        return LocalManifold::EMPTY;
    }
    let distance = closest.distance_squared.sqrt();

    let (axis1, length1) = (q1 - p1).get_length_and_normalize();
    let (axis2, length2) = (q2 - p2).get_length_and_normalize();
    // Each segment's end points measured along the other segment.
    let (fp2, fq2) = ((p2 - p1).dot(axis1), (q2 - p1).dot(axis1));
    let (fp1, fq1) = ((p1 - p2).dot(axis2), (q1 - p2).dot(axis2));
    let beside =
        |f0: f32, f1: f32, length: f32| (f0 <= 0.0 && f1 <= 0.0) || (f0 >= length && f1 >= length);

    if !beside(fp2, fq2, length1) && !beside(fp1, fq1, length2) {
        // The segments overlap along each other: try a face contact with two points,
        // taking the side of the segment that separates the pair most as the
        // reference. A's side wins unless B's separates more by a tenth of the slop,
        // so that nearly parallel capsules do not switch reference from frame to frame.
        let (separation_a, normal_a) = side_separation(p1, axis1, p2, q2);
        let (separation_b, normal_b) = side_separation(p2, axis2, p1, q1);
        let preferred = separation_a + 0.1 * LINEAR_SLOP >= separation_b;
        let face = |a_is_reference: bool| {
            let (reference, (cp, cq), normal, r_ref, r_inc, ids) = if a_is_reference {
                let clipped = clip_to_interval(p2, q2, fp2, fq2, length1);
                (
                    p1,
                    clipped,
                    normal_a,
                    radius_a,
                    radius_b,
                    [make_id(0, 0), make_id(0, 1)],
                )
            } else {
                let clipped = clip_to_interval(p1, q1, fp1, fq1, length2);
                (
                    p2,
                    clipped,
                    normal_b,
                    radius_b,
                    radius_a,
                    [make_id(0, 0), make_id(1, 0)],
                )
            };
            let sp = (cp - reference).dot(normal);
            let sq = (cq - reference).dot(normal);
            let mut m = LocalManifold {
                normal: if a_is_reference { normal } else { -normal },
                ..LocalManifold::EMPTY
            };
            for (c, s, id) in [(cp, sp, ids[0]), (cq, sq, ids[1])] {
                m.push(LocalPoint {
                    anchor: Vec2::mul_add(c, 0.5 * (r_ref - r_inc - s), normal),
                    separation: s - radius,
                    id,
                });
            }
            (m, sp.min(sq))
        };
        let (mut m, mut nearest) = face(preferred);
        // The closest features are an end of one segment and the side of the
        // other; measured from the other side, the gap at that end comes out too
        // large by h·(1/cos α − 1) for segments at an angle α and core distance h
        // (4 mm for h = 2 m, α = 0.06). Then the other side is the reference if
        // it measures the true gap.
        if nearest > distance + 1.0e-6 {
            let (other, other_nearest) = face(!preferred);
            if other_nearest <= distance + 1.0e-6 {
                (m, nearest) = (other, other_nearest);
            }
        }
        // When neither does, the closest features are two ends, and no side
        // normal measures the true gap (Box2D keeps it overstated): nearly
        // parallel capsules take the direction between the ends as the normal.
        if nearest > distance + 1.0e-6
            && nearest <= distance + LINEAR_SLOP
            && let Some(ends) = end_to_end_contact(p1, q1, radius_a, p2, q2, radius_b, &closest, &m)
        {
            (m, nearest) = (ends, distance);
        }
        // Both clipped points far beyond the closest distance mean the segments meet
        // at a steep angle away from their closest points: then one point at the
        // closest features is the better contact. So is it when the overstated gap
        // would put the contact out of reach while the true gap is within it.
        // Otherwise both points are kept, the far one as a speculative point.
        let reach = radius + SPECULATIVE_DISTANCE;
        if nearest <= distance + LINEAR_SLOP && (nearest <= reach || distance > reach) {
            return m;
        }
    }

    let normal = if closest.distance_squared > f32::EPSILON * f32::EPSILON {
        (closest.closest2 - closest.closest1).normalize()
    } else {
        left_normal_or_up(axis1)
    };
    let surface_a = Vec2::mul_add(closest.closest1, radius_a, normal);
    let surface_b = Vec2::mul_sub(closest.closest2, radius_b, normal);
    let id = make_id(
        u8::from(closest.fraction1 != 0.0),
        u8::from(closest.fraction2 != 0.0),
    );
    LocalManifold::single(
        normal,
        surface_a.lerp(surface_b, 0.5),
        distance - radius,
        id,
    )
}

/// The two-point contact of capsules `p1–q1` (radius `radius_a`) and `p2–q2`
/// whose closest features `closest` are an end of each, with the normal along
/// the line between those ends (from A to B) rather than a side normal: the
/// first point is at the ends, with the true gap; the second at the far end of
/// the stretch where the cores face each other across that normal, with the
/// core gap along the normal there minus the radii. Each point ± normal ·
/// separation/2 lies on its core pushed out by its radius along the normal:
/// on the surface at the ends, and inside a side that is β off the normal by
/// r·(1 − cos β) (for capsules this close to parallel, β² ≤ 2·slop/h).
/// `face` is the side-normal contact it replaces: its point ids are kept, the
/// nearer point's for the ends. `None` when the closest features are not two
/// ends or the cores do not run side by side from them.
#[inline(always)]
fn end_to_end_contact(
    p1: Vec2,
    q1: Vec2,
    radius_a: f32,
    p2: Vec2,
    q2: Vec2,
    radius_b: f32,
    closest: &SegmentDistanceResult,
    face: &LocalManifold,
) -> Option<LocalManifold> {
    let is_end = |f: f32| f == 0.0 || f == 1.0;
    if !is_end(closest.fraction1) || !is_end(closest.fraction2) || face.count != 2 {
        return None;
    }
    let (end_a, end_b) = (closest.closest1, closest.closest2);
    let (normal, distance) = (end_b - end_a).get_length_and_normalize();
    if distance < LINEAR_SLOP {
        return None;
    }
    let other_a = if closest.fraction1 == 0.0 { q1 } else { p1 };
    let other_b = if closest.fraction2 == 0.0 { q2 } else { p2 };
    // Coordinates along the tangent from the ends (which share coordinate 0):
    // both cores must run the same way, as far as the shorter reaches.
    let tangent = normal.left_perp();
    let (fa, fb) = (
        (other_a - end_a).dot(tangent),
        (other_b - end_a).dot(tangent),
    );
    if fa * fb <= 0.0 {
        return None;
    }
    let far = if fa.abs() < fb.abs() { fa } else { fb };
    let far_a = end_a.lerp(other_a, far / fa);
    let far_b = end_b.lerp(other_b, far / fb);
    let radius = radius_a + radius_b;
    let point = |on_a: Vec2, on_b: Vec2, separation: f32, id: u16| LocalPoint {
        anchor: Vec2::mul_add(on_a, radius_a, normal)
            .lerp(Vec2::mul_sub(on_b, radius_b, normal), 0.5),
        separation,
        id,
    };
    let near = usize::from(face.points[1].separation < face.points[0].separation);
    let mut m = LocalManifold {
        normal,
        ..LocalManifold::EMPTY
    };
    m.points[near] = point(end_a, end_b, distance - radius, face.points[near].id);
    m.points[1 - near] = point(
        far_a,
        far_b,
        (far_b - far_a).dot(normal) - radius,
        face.points[1 - near].id,
    );
    m.count = 2;
    Some(m)
}

/// Contact between two capsules: up to two points when their segments overlap along
/// each other (ids (0,0) and (0,1) or (1,0)), otherwise one point between the closest
/// features (id from the end points involved). The closest point's separation is
/// the true gap: a two-point contact uses the side normal that measures it, or,
/// when the closest features are an end of each, the direction between those ends.
///
/// Box2D: `b2CollideCapsules`.
#[inline(always)]
pub fn collide_capsules(
    capsule_a: &Capsule,
    xf_a: Transform,
    capsule_b: &Capsule,
    xf_b: Transform,
) -> Manifold {
    let origin = capsule_a.center1;
    let xf = relative_shifted(xf_a, xf_b, origin);
    capsule_contact(
        Vec2::ZERO,
        capsule_a.center2 - origin,
        capsule_a.radius,
        xf.apply(capsule_b.center1),
        xf.apply(capsule_b.center2),
        capsule_b.radius,
    )
    .within_reach()
    .into_world(xf_a, xf_b, origin)
}

/// Contact between a two-sided segment (A) and a capsule (B): as [`collide_capsules`]
/// with a capsule of zero radius.
///
/// Box2D: `b2CollideSegmentAndCapsule`.
#[inline(always)]
pub fn collide_segment_and_capsule(
    segment_a: &Segment,
    xf_a: Transform,
    capsule_b: &Capsule,
    xf_b: Transform,
) -> Manifold {
    let capsule_a = segment_capsule(segment_a);
    collide_capsules(&capsule_a, xf_a, capsule_b, xf_b)
}

// ---------------------------------------------------------------------------
// Polygons

/// The edge of `poly1` whose normal separates `poly2` the most, and that
/// separation; or, as soon as one separates them by more than `enough`, that edge
/// (the shapes are then too far apart for a contact, and the rest is not needed).
#[inline(always)]
fn max_separation(poly1: &Polygon, poly2: &Polygon, enough: f32) -> (usize, f32) {
    let others = poly2.vertices();
    let mut best = (0, -f32::MAX);
    for (i, (n, v)) in poly1.normals().iter().zip(poly1.vertices()).enumerate() {
        let deepest = face_separation(*n, *v, others);
        if deepest > best.1 {
            best = (i, deepest);
            if deepest > enough {
                break;
            }
        }
    }
    best
}

/// How far the points `others` are in front of the face through `v` with normal
/// `n`, at the deepest of them.
#[inline(always)]
fn face_separation(n: Vec2, v: Vec2, others: &[Vec2]) -> f32 {
    // Plain comparisons rather than `f32::min`, whose NaN handling costs
    // instructions in this innermost loop (the result is the same).
    let mut deepest = f32::MAX;
    for w in others {
        let s = n.dot(*w - v);
        if s < deepest {
            deepest = s;
        }
    }
    deepest
}

/// The edge of `poly` whose normal points most against `direction`.
#[inline(always)]
fn incident_edge(poly: &Polygon, direction: Vec2) -> usize {
    let mut best = (0, f32::MAX);
    for (i, n) in poly.normals().iter().enumerate() {
        let d = direction.dot(*n);
        if d < best.1 {
            best = (i, d);
        }
    }
    best.0
}

/// The two ends of an incident edge clipped against a reference edge.
struct ClippedEdge {
    /// The point at the reference edge's start side.
    lower: LocalPoint,
    /// The point at the reference edge's end side.
    upper: LocalPoint,
    /// Whether the edges overlap at all along the reference edge.
    overlap: bool,
}

/// Clips the incident edge `b1 → b2`, which runs against the reference edge
/// `a1 → a2` with outward `normal`, to the reference edge's side planes. The points
/// are placed mid-way between the rounded surfaces (radii `radius_a`, `radius_b`)
/// and carry their separations; ids are left for the caller.
#[inline(always)]
fn clip_edge(
    a1: Vec2,
    a2: Vec2,
    b1: Vec2,
    b2: Vec2,
    normal: Vec2,
    radius_a: f32,
    radius_b: f32,
) -> ClippedEdge {
    let tangent = normal.left_perp();
    // Coordinates along the reference edge, which starts at 0; the incident edge runs backwards.
    let upper1 = (a2 - a1).dot(tangent);
    let upper2 = (b1 - a1).dot(tangent);
    let lower2 = (b2 - a1).dot(tangent);
    let span = upper2 - lower2;

    let v_lower = if lower2 < 0.0 && span > f32::EPSILON {
        b2.lerp(b1, -lower2 / span)
    } else {
        b2
    };
    let v_upper = if upper2 > upper1 && span > f32::EPSILON {
        b2.lerp(b1, (upper1 - lower2) / span)
    } else {
        b1
    };
    let point = |v: Vec2| {
        let s = (v - a1).dot(normal);
        LocalPoint {
            anchor: Vec2::mul_add(v, 0.5 * (radius_a - radius_b - s), normal),
            separation: s - (radius_a + radius_b),
            id: 0,
        }
    };
    ClippedEdge {
        lower: point(v_lower),
        upper: point(v_upper),
        overlap: upper2 >= 0.0 && lower2 <= upper1,
    }
}

/// Face contact: the reference face of one polygon against the incident edge of the
/// other. `flip` means B holds the reference face.
#[inline(always)]
fn clip_polygons(
    a: &Polygon,
    b: &Polygon,
    edge_a: usize,
    edge_b: usize,
    flip: bool,
) -> LocalManifold {
    let (reference, incident, i11, i21) = if flip {
        (b, a, edge_b, edge_a)
    } else {
        (a, b, edge_a, edge_b)
    };
    let i12 = next_index(i11, reference.count);
    let i22 = next_index(i21, incident.count);
    let normal = reference.normals[i11];
    let clipped = clip_edge(
        reference.vertices[i11],
        reference.vertices[i12],
        incident.vertices[i21],
        incident.vertices[i22],
        normal,
        reference.radius,
        incident.radius,
    );
    if !clipped.overlap {
        return LocalManifold::EMPTY;
    }
    // Ids name the feature of A first, then B's; the point order matches Box2D.
    let (i11, i12, i21, i22) = (i11 as u8, i12 as u8, i21 as u8, i22 as u8);
    let mut m = LocalManifold::EMPTY;
    if flip {
        m.normal = -normal;
        m.push(LocalPoint {
            id: make_id(i21, i12),
            ..clipped.upper
        });
        m.push(LocalPoint {
            id: make_id(i22, i11),
            ..clipped.lower
        });
    } else {
        m.normal = normal;
        m.push(LocalPoint {
            id: make_id(i11, i22),
            ..clipped.lower
        });
        m.push(LocalPoint {
            id: make_id(i12, i21),
            ..clipped.upper
        });
    }
    m
}

/// The faces of a polygon contact: A's reference edge (or incident, if `flip`), B's
/// incident edge (or reference), and the reference face's separation.
#[derive(Clone, Copy)]
struct Face {
    edge_a: usize,
    edge_b: usize,
    flip: bool,
    separation: f32,
}

/// The polygon contact `m` found for `face`, unless no point of it is within the
/// speculative distance although the caller found the shapes to be. Then the
/// part of the incident polygon that made the face's separation was clipped away:
/// of two nearly collinear faces (faces kilometres long meeting at a corner a few
/// centimetres proud), round-off picked the wrong one. Three repairs are tried and the
/// clip whose closest point is nearest wins:
/// - a neighbouring face of the reference polygon that separates the shapes as much
///   (within the linear slop plus round-off at the size of the coordinates) as the
///   reference, with its own incident edge;
/// - a neighbouring edge of the incident polygon nearly parallel to the incident
///   edge (within 0.01 rad), against the same reference face;
/// - the two edges of the incident polygon that meet at its deepest vertex along
///   the reference normal (facing the reference), against the same reference face
///   (a run of three or more nearly collinear edges, where the deep one is not a
///   neighbour).
#[inline(always)]
fn in_reach(a: &Polygon, b: &Polygon, face: Face, m: LocalManifold) -> LocalManifold {
    // Sine of the largest angle between incident edges that count as nearly parallel.
    const PARALLEL_TOL: f32 = 0.01;
    if m.count == 0 || m.closest() <= SPECULATIVE_DISTANCE {
        return m;
    }
    let (reference, incident, ref_edge, inc_edge) = if face.flip {
        (b, a, face.edge_b, face.edge_a)
    } else {
        (a, b, face.edge_a, face.edge_b)
    };
    let clip = |ref_edge: usize, inc_edge: usize| {
        if face.flip {
            clip_polygons(a, b, inc_edge, ref_edge, true)
        } else {
            clip_polygons(a, b, ref_edge, inc_edge, false)
        }
    };
    let size = reference
        .vertices()
        .iter()
        .chain(incident.vertices())
        .fold(0.0f32, |size, v| size.max(v.x.abs()).max(v.y.abs()));
    let tolerance = LINEAR_SLOP + 8.0 * f32::EPSILON * size;
    let mut best = m;
    let mut consider = |candidate: LocalManifold| {
        if candidate.closest() < best.closest() {
            best = candidate;
        }
    };
    // (A two-vertex reference, a segment or capsule, has no neighbouring face: its
    // other face points the opposite way.)
    if reference.count >= 3 {
        for r in [
            prev_index(ref_edge, reference.count),
            next_index(ref_edge, reference.count),
        ] {
            let (n, v) = (reference.normals[r], reference.vertices[r]);
            if face_separation(n, v, incident.vertices()) >= face.separation - tolerance {
                consider(clip(r, incident_edge(incident, n)));
            }
        }
    }
    let n_inc = incident.normals[inc_edge];
    for i in [
        prev_index(inc_edge, incident.count),
        next_index(inc_edge, incident.count),
    ] {
        let n = incident.normals[i];
        if i != inc_edge && n.dot(n_inc) > 0.0 && n.cross(n_inc).abs() <= PARALLEL_TOL {
            consider(clip(ref_edge, i));
        }
    }
    // A run of more than two nearly collinear incident edges: the deep part is
    // at the incident polygon's deepest vertex along the reference normal,
    // which may be edges away; clip the two edges that meet there.
    let n_ref = reference.normals[ref_edge];
    let deepest = incident
        .vertices()
        .iter()
        .enumerate()
        .fold((0, f32::MAX), |best, (k, v)| {
            let d = n_ref.dot(*v);
            if d < best.1 { (k, d) } else { best }
        })
        .0;
    for i in [prev_index(deepest, incident.count), deepest] {
        if incident.normals[i].dot(n_ref) < 0.0 {
            consider(clip(ref_edge, i));
        }
    }
    if best.closest() > SPECULATIVE_DISTANCE {
        let last = closest_features(a, b, face, deepest);
        if last.closest() < best.closest() {
            best = last;
        }
    }
    best
}

/// The last repair of [`in_reach`], when no clip comes within reach: the
/// incident edges at the incident polygon's `deepest` vertex run along the
/// reference normal (a thin polygon or a segment standing on the end of the
/// face, a sliver apart), so clipping them measures nothing. One point instead:
/// when the cores are apart, between the closest points of the reference face
/// and those two edges, along the line joining them (the true gap); when they
/// overlap, at the deepest vertex against the reference face, with the face's
/// separation.
#[inline(always)]
fn closest_features(a: &Polygon, b: &Polygon, face: Face, deepest: usize) -> LocalManifold {
    let (reference, incident, ref_edge) = if face.flip {
        (b, a, face.edge_b)
    } else {
        (a, b, face.edge_a)
    };
    let ref_next = next_index(ref_edge, reference.count);
    let (r1, r2) = (reference.vertices[ref_edge], reference.vertices[ref_next]);
    let n_ref = reference.normals[ref_edge];
    let ids = |ref_feature: usize, inc_feature: usize| {
        let (fa, fb) = if face.flip {
            (inc_feature, ref_feature)
        } else {
            (ref_feature, inc_feature)
        };
        make_id(fa as u8, fb as u8)
    };
    if face.separation > 0.0 {
        let closest = [prev_index(deepest, incident.count), deepest]
            .map(|e| {
                let (e1, e2) = (
                    incident.vertices[e],
                    incident.vertices[next_index(e, incident.count)],
                );
                segment_distance(r1, r2, e1, e2)
            })
            .into_iter()
            .fold(None, |best: Option<SegmentDistanceResult>, c| match best {
                Some(b) if b.distance_squared <= c.distance_squared => Some(b),
                _ => Some(c),
            })
            .expect("two candidates");
        let id = ids(ref_edge, deepest);
        return if face.flip {
            disk_contact(
                closest.closest2,
                a.radius,
                closest.closest1,
                b.radius,
                -n_ref,
                id,
            )
        } else {
            disk_contact(
                closest.closest1,
                a.radius,
                closest.closest2,
                b.radius,
                n_ref,
                id,
            )
        };
    }
    let v = incident.vertices[deepest];
    let s = n_ref.dot(v - r1);
    let anchor = Vec2::mul_add(v, 0.5 * (reference.radius - incident.radius - s), n_ref);
    let normal = if face.flip { -n_ref } else { n_ref };
    LocalManifold::single(
        normal,
        anchor,
        s - (reference.radius + incident.radius),
        ids(ref_edge, deepest),
    )
}

/// The end of an edge `(i1, i2)` that a segment-distance fraction points at, if any.
#[inline(always)]
fn edge_end(fraction: f32, i1: usize, i2: usize) -> Option<usize> {
    if fraction == 0.0 {
        Some(i1)
    } else if fraction == 1.0 {
        Some(i2)
    } else {
        None
    }
}

/// Contact between polygons `a` and `b`, both in the working frame.
#[inline(always)]
fn polygon_contact(a: &Polygon, b: &Polygon) -> LocalManifold {
    // Separating axes: a face of either polygon that separates them by more than
    // the speculative distance means no contact.
    let radius = a.radius + b.radius;
    let too_far = SPECULATIVE_DISTANCE + radius;
    let (edge_a, separation_a) = max_separation(a, b, too_far);
    if separation_a > too_far {
        return LocalManifold::EMPTY;
    }
    let (edge_b, separation_b) = max_separation(b, a, too_far);
    if separation_b > too_far {
        return LocalManifold::EMPTY;
    }

    // A's face is the reference unless B's separates strictly more.
    let flip = separation_b > separation_a;
    let (edge_a, edge_b) = if flip {
        (incident_edge(a, b.normals[edge_b]), edge_b)
    } else {
        (edge_a, incident_edge(b, a.normals[edge_a]))
    };

    // Overlapping cores (or apart by a sliver, too little to normalise a
    // corner-to-corner direction): clip.
    let face = Face {
        edge_a,
        edge_b,
        flip,
        separation: separation_a.max(separation_b),
    };
    if separation_a <= 0.1 * LINEAR_SLOP && separation_b <= 0.1 * LINEAR_SLOP {
        return in_reach(a, b, face, clip_polygons(a, b, edge_a, edge_b, flip));
    }

    // The cores are apart. The reference and incident edges may still be farther
    // apart than the speculative distance (corner against corner across a gap).
    let (i11, i12) = (edge_a, next_index(edge_a, a.count));
    let (i21, i22) = (edge_b, next_index(edge_b, b.count));
    let closest = segment_distance(
        a.vertices[i11],
        a.vertices[i12],
        b.vertices[i21],
        b.vertices[i22],
    );
    let separation = closest.distance_squared.sqrt() - radius;
    if separation > SPECULATIVE_DISTANCE {
        return LocalManifold::EMPTY;
    }
    // Clip; but if the closest features are two corners that are closer (by more
    // than a tenth of the slop) than the clipped points, the contact is corner to
    // corner with its true normal, not the face normal.
    let clipped = clip_polygons(a, b, edge_a, edge_b, flip);
    let deepest = clipped.closest();
    let corners = (
        edge_end(closest.fraction1, i11, i12),
        edge_end(closest.fraction2, i21, i22),
    );
    if separation + 0.1 * LINEAR_SLOP < deepest
        && let (Some(ia), Some(ib)) = corners
    {
        let fallback = if flip {
            -b.normals[edge_b]
        } else {
            a.normals[edge_a]
        };
        return disk_contact(
            a.vertices[ia],
            a.radius,
            b.vertices[ib],
            b.radius,
            fallback,
            make_id(ia as u8, ib as u8),
        );
    }
    in_reach(a, b, face, clipped)
}

/// Contact between two convex polygons, either possibly rounded: up to two points.
///
/// The reference face is the face (of A or B) that separates the polygons most
/// (separating-axis test; A's on a tie); the incident edge is the other polygon's
/// edge most opposed to it, clipped to the reference face's side planes. Both
/// clipped points are kept whatever their separation (the far one is speculative),
/// but if neither is within the speculative distance although the shapes are, a
/// neighbouring face of the reference polygon that separates them as much (within
/// the linear slop plus round-off) is the reference instead, or a neighbouring
/// incident edge nearly parallel to the incident one is clipped instead, whichever
/// comes closest: of two nearly collinear faces, rounding may pick the one that
/// leaves out the deep part; or, when no clip comes within reach (an incident
/// edge running along the reference normal), one point at the closest features.
/// A manifold whose closest point is still beyond the speculative distance is
/// empty. (Box2D v3 keeps the out-of-reach points.)
/// When the cores are apart, the closest features of the two edges are corners and
/// those corners are closer than the clipped points by more than a tenth of the
/// linear slop, the contact is one point between the corners instead, along the
/// line joining them.
///
/// Ids are `make_id(feature of A, feature of B)` with vertex indices.
///
/// Box2D: `b2CollidePolygons`.
#[inline(always)]
pub fn collide_polygons(
    polygon_a: &Polygon,
    xf_a: Transform,
    polygon_b: &Polygon,
    xf_b: Transform,
) -> Manifold {
    let origin = polygon_a.vertices[0];
    let a = shifted_polygon(polygon_a, origin);
    let b = placed_polygon(polygon_b, relative_shifted(xf_a, xf_b, origin));
    polygon_contact(&a, &b)
        .within_reach()
        .into_world(xf_a, xf_b, origin)
}

/// The vertices, normals and radius of `polygon` with the origin moved to `origin`
/// (the centroid, which the contact does not use, is left at zero). Cheaper than
/// [`Polygon::transformed`]: no rotation, and all eight slots in one fixed-length
/// pass, which the compiler vectorises (slots past `count` are unused).
#[inline(always)]
fn shifted_polygon(polygon: &Polygon, origin: Vec2) -> Polygon {
    Polygon {
        vertices: polygon.vertices.map(|v| v - origin),
        normals: polygon.normals,
        centroid: Vec2::ZERO,
        radius: polygon.radius,
        count: polygon.count,
    }
}

/// The vertices, normals and radius of `polygon` placed by `xf` (the centroid,
/// which the contact does not use, is left at zero).
#[inline(always)]
fn placed_polygon(polygon: &Polygon, xf: Transform) -> Polygon {
    Polygon {
        vertices: polygon.vertices.map(|v| xf.apply(v)),
        normals: polygon.normals.map(|n| xf.q.rotate(n)),
        centroid: Vec2::ZERO,
        radius: polygon.radius,
        count: polygon.count,
    }
}

/// Contact between a polygon (A) and a capsule (B): the capsule is treated as a
/// rounded two-vertex polygon, see [`collide_polygons`].
///
/// Box2D: `b2CollidePolygonAndCapsule`.
#[inline(always)]
pub fn collide_polygon_and_capsule(
    polygon_a: &Polygon,
    xf_a: Transform,
    capsule_b: &Capsule,
    xf_b: Transform,
) -> Manifold {
    if is_degenerate(capsule_b.center1, capsule_b.center2) {
        let circle = Circle {
            center: capsule_b.center1,
            radius: capsule_b.radius,
        };
        return collide_polygon_and_circle(polygon_a, xf_a, &circle, xf_b);
    }
    collide_polygons(polygon_a, xf_a, &make_capsule_polygon(capsule_b), xf_b)
}

/// Contact between a two-sided segment (A) and a polygon (B): the segment is treated
/// as a two-vertex polygon, see [`collide_polygons`].
///
/// Box2D: `b2CollideSegmentAndPolygon`.
#[inline(always)]
pub fn collide_segment_and_polygon(
    segment_a: &Segment,
    xf_a: Transform,
    polygon_b: &Polygon,
    xf_b: Transform,
) -> Manifold {
    if is_degenerate(segment_a.point1, segment_a.point2) {
        let circle = Circle {
            center: segment_a.point1,
            radius: 0.0,
        };
        return swapped(collide_polygon_and_circle(polygon_b, xf_b, &circle, xf_a));
    }
    let capsule = segment_capsule(segment_a);
    collide_polygons(&make_capsule_polygon(&capsule), xf_a, polygon_b, xf_b)
}

// ---------------------------------------------------------------------------
// Chain segments (one-sided, with ghost vertices)

/// Contact between a chain segment (A) and a circle (B): one point, id 0.
///
/// Only a circle whose centre is on the segment's right side collides (a
/// zero-length chain segment, possible only through struct literals, collides with
/// nothing). Beyond an end
/// of the segment, the circle collides with that end only if it is not in the region
/// the neighbouring segment (through the ghost vertex) already covers, so a circle
/// rolling along a smooth chain meets no internal corners.
///
/// Box2D: `b2CollideChainSegmentAndCircle`.
pub fn collide_chain_segment_and_circle(
    chain_a: &ChainSegment,
    xf_a: Transform,
    circle_b: &Circle,
    xf_b: Transform,
) -> Manifold {
    let (p1, p2) = (chain_a.segment.point1, chain_a.segment.point2);
    if is_degenerate(p1, p2) {
        return Manifold::default();
    }
    let center = xf_a.inv_mul(xf_b).apply(circle_b.center);
    let e = p2 - p1;
    if e.right_perp().dot(center - p1) < 0.0 {
        return Manifold::default();
    }

    // Unnormalised barycentric coordinates of the centre's projection.
    let u = e.dot(p2 - center);
    let v = e.dot(center - p1);
    let closest = if v <= 0.0 {
        // Before the start: the previous segment owns this side of its end.
        if (p1 - chain_a.ghost1).dot(center - p1) <= 0.0 {
            return Manifold::default();
        }
        p1
    } else if u <= 0.0 {
        // Past the end: the next segment owns the region along it.
        if (chain_a.ghost2 - p2).dot(center - p2) > 0.0 {
            return Manifold::default();
        }
        p2
    } else {
        let ee = e.dot(e);
        if ee > 0.0 {
            (u * p1 + v * p2) * (1.0 / ee)
        } else {
            p1
        }
    };
    let mut fallback = e.right_perp().normalize();
    if fallback == Vec2::ZERO {
        fallback = Vec2::Y;
    }
    disk_contact(closest, 0.0, center, circle_b.radius, fallback, 0).into_world(
        xf_a,
        xf_b,
        Vec2::ZERO,
    )
}

/// How a candidate contact normal relates to the smooth surface a chain forms
/// around one of its segments (its Gauss map near the segment).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum NormalClass {
    /// Leans past a convex corner into a neighbour's range: the neighbour's contact
    /// covers it.
    Skip,
    /// Within the range of normals this segment owns.
    Admit,
    /// Leans toward a flat or concave corner: use the segment's own normal.
    Snap,
}

/// A chain segment (in its shape's frame) with what its ghost vertices say about
/// the surface beyond its ends.
struct ChainFrame {
    p1: Vec2,
    p2: Vec2,
    /// Unit direction from `p1` to `p2`.
    edge: Vec2,
    /// The colliding side's unit normal (the right side).
    normal: Vec2,
    /// The previous segment's normal when the corner at `p1` is convex.
    prev_normal: Option<Vec2>,
    /// The next segment's normal when the corner at `p2` is convex.
    next_normal: Option<Vec2>,
}

impl ChainFrame {
    fn new(chain: &ChainSegment) -> ChainFrame {
        // Sine of the smallest turn that counts as a convex corner.
        const CONVEX_TOL: f32 = 0.01;
        let (p1, p2) = (chain.segment.point1, chain.segment.point2);
        let edge = (p2 - p1).normalize();
        let edge0 = (p1 - chain.ghost1).normalize();
        let edge2 = (chain.ghost2 - p2).normalize();
        ChainFrame {
            p1,
            p2,
            edge,
            normal: edge.right_perp(),
            prev_normal: (edge0.cross(edge) >= CONVEX_TOL).then(|| edge0.right_perp()),
            next_normal: (edge.cross(edge2) >= CONVEX_TOL).then(|| edge2.right_perp()),
        }
    }

    /// Classifies a unit normal pointing from the segment toward the other shape.
    fn classify(&self, n: Vec2) -> NormalClass {
        // Sine of the angle by which a normal may lean past a neighbour's normal.
        const SIN_TOL: f32 = 0.01;
        let (neighbour, past) = if n.dot(self.edge) <= 0.0 {
            (self.prev_normal, self.prev_normal.map(|n0| n.cross(n0)))
        } else {
            (self.next_normal, self.next_normal.map(|n2| n2.cross(n)))
        };
        match (neighbour, past) {
            (Some(_), Some(p)) if p > SIN_TOL => NormalClass::Skip,
            (Some(_), _) => NormalClass::Admit,
            (None, _) => NormalClass::Snap,
        }
    }

    /// The normal of the neighbour at `p1` (if `at_p1`) or at `p2`, or the
    /// segment's own normal when that corner is not convex.
    fn neighbour_normal(&self, at_p1: bool) -> Vec2 {
        let n = if at_p1 {
            self.prev_normal
        } else {
            self.next_normal
        };
        n.unwrap_or(self.normal)
    }
}

/// The polygon feature that meets the segment's face.
#[derive(Clone, Copy, Debug)]
enum Incident {
    /// A vertex: the incident edge is the one beside it most opposed to the segment.
    Vertex(usize),
    /// An edge, by its first vertex.
    Edge(usize),
}

/// Face contact with one of the polygon's faces as the reference and the segment as
/// the incident edge, unless a neighbouring segment meets that face more squarely
/// (then the neighbour's contact covers it and this one is empty).
fn polygon_face_contact(frame: &ChainFrame, b: &Polygon, face: usize) -> LocalManifold {
    let (i1, i2) = (face, next_index(face, b.count));
    let (b1, b2) = (b.vertices[i1], b.vertices[i2]);
    let n = b.normals[i1];
    let p1_deeper = n.dot(frame.p1 - b1) < n.dot(frame.p2 - b1);
    if frame.neighbour_normal(p1_deeper).dot(n) < frame.normal.dot(n) {
        return LocalManifold::EMPTY;
    }
    let clipped = clip_edge(b1, b2, frame.p1, frame.p2, n, b.radius, 0.0);
    if !clipped.overlap {
        return LocalManifold::EMPTY;
    }
    let mut m = LocalManifold {
        normal: -n,
        ..LocalManifold::EMPTY
    };
    m.push(LocalPoint {
        id: make_id(i1 as u8, 1),
        ..clipped.lower
    });
    m.push(LocalPoint {
        id: make_id(i2 as u8, 0),
        ..clipped.upper
    });
    m
}

/// Face contact with the segment as the reference and a polygon edge as incident.
fn segment_face_contact(frame: &ChainFrame, b: &Polygon, incident: Incident) -> LocalManifold {
    let count = b.count;
    let (ib1, ib2) = match incident {
        Incident::Edge(e) => (e, next_index(e, count)),
        Incident::Vertex(v) => {
            let before = prev_index(v, count);
            if frame.normal.dot(b.normals[before]) < frame.normal.dot(b.normals[v]) {
                (before, v)
            } else {
                (v, next_index(v, count))
            }
        }
    };
    let clipped = clip_edge(
        frame.p1,
        frame.p2,
        b.vertices[ib1],
        b.vertices[ib2],
        frame.normal,
        0.0,
        b.radius,
    );
    if !clipped.overlap {
        return LocalManifold::EMPTY;
    }
    let mut m = LocalManifold {
        normal: frame.normal,
        ..LocalManifold::EMPTY
    };
    m.push(LocalPoint {
        id: make_id(0, ib2 as u8),
        ..clipped.lower
    });
    m.push(LocalPoint {
        id: make_id(1, ib1 as u8),
        ..clipped.upper
    });
    m
}

/// The smallest separation of the polygon's vertices from the line through `p`
/// with normal `n`, and the vertex that attains it.
fn deepest_vertex(b: &Polygon, p: Vec2, n: Vec2) -> (f32, Option<usize>) {
    let mut best = (f32::MAX, None);
    for (i, v) in b.vertices().iter().enumerate() {
        let s = n.dot(*v - p);
        if s < best.0 {
            best = (s, Some(i));
        }
    }
    best
}

/// Contact between a chain segment and polygon `b`, both in the segment's frame.
/// `closest` and `cache` are the result of GJK between the segment and `b`'s core.
fn chain_polygon_contact(
    frame: &ChainFrame,
    b: &Polygon,
    closest: &DistanceOutput,
    cache: &SimplexCache,
    behind: bool,
) -> LocalManifold {
    let count = b.count;
    let index_b = |k: usize| usize::from(cache.index_b[k]).min(count - 1);
    let apart = !behind && closest.distance > 0.1 * LINEAR_SLOP;

    let incident = if apart && cache.count == 1 {
        // Corner to corner: the contact normal is the direction between them.
        let normal = (closest.point_b - closest.point_a).normalize();
        match frame.classify(normal) {
            NormalClass::Skip => return LocalManifold::EMPTY,
            NormalClass::Admit => {
                let surface_b = Vec2::mul_sub(closest.point_b, b.radius, normal);
                let id = make_id(cache.index_a[0], cache.index_b[0]);
                return LocalManifold::single(
                    normal,
                    closest.point_a.lerp(surface_b, 0.5),
                    closest.distance - b.radius,
                    id,
                );
            }
            NormalClass::Snap => Incident::Vertex(index_b(0)),
        }
    } else if apart && cache.count == 2 && cache.index_a[0] == cache.index_a[1] {
        // A segment end against a polygon edge: of the two normals around the closest
        // polygon points, the one most aligned with the gap names the edge.
        let (ib1, ib2) = (index_b(0), index_b(1));
        let gap = closest.point_a - closest.point_b;
        let face = if gap.dot(b.normals[ib1]) > gap.dot(b.normals[ib2]) {
            ib1
        } else {
            ib2
        };
        match frame.classify(-b.normals[face]) {
            NormalClass::Skip => return LocalManifold::EMPTY,
            NormalClass::Admit => return polygon_face_contact(frame, b, face),
            NormalClass::Snap => Incident::Edge(face),
        }
    } else if apart && cache.count == 2 {
        // The segment's face against a polygon vertex or edge: the deeper vertex.
        let (ib1, ib2) = (index_b(0), index_b(1));
        let d1 = frame.normal.dot(b.vertices[ib1] - frame.p1);
        let d2 = frame.normal.dot(b.vertices[ib2] - frame.p1);
        Incident::Vertex(if d1 < d2 { ib1 } else { ib2 })
    } else {
        // Overlapping (or behind): separating axes. The segment's normal competes
        // with its convex neighbours' normals, which, if they separate more, own
        // the contact; polygon faces compete if the chain admits their normal.
        let (mut edge_separation, mut incident) = deepest_vertex(b, frame.p1, frame.normal);
        for (neighbour, at) in [(frame.prev_normal, frame.p1), (frame.next_normal, frame.p2)] {
            if let Some(n) = neighbour {
                let (s, _) = deepest_vertex(b, at, n);
                if s > edge_separation {
                    edge_separation = s;
                    incident = None;
                }
            }
        }
        let mut best_face = (-f32::MAX, None);
        for i in 0..count {
            let (n, v) = (b.normals[i], b.vertices[i]);
            if frame.classify(-n) != NormalClass::Admit {
                continue;
            }
            let s = n.dot(frame.p1 - v).min(n.dot(frame.p2 - v));
            if s > best_face.0 {
                best_face = (s, Some(i));
            }
        }
        if let (s, Some(face)) = best_face
            && s > edge_separation
        {
            return polygon_face_contact(frame, b, face);
        }
        match incident {
            Some(v) => Incident::Vertex(v),
            None => return LocalManifold::EMPTY,
        }
    };
    segment_face_contact(frame, b, incident)
}

/// Contact between a chain segment (A) and a polygon (B): up to two points.
///
/// Collision is one-sided (the right side of the segment) and smooth across the
/// chain: candidate normals are checked against the neighbouring segments given by
/// the ghost vertices, so that a polygon sliding over the joint of two segments is
/// never caught on the internal corner. A polygon whose centroid is behind the
/// segment (and behind any convex neighbour) gets no contact, and so does one whose
/// clipped points are all more than
/// [`SPECULATIVE_DISTANCE`](crate::core::SPECULATIVE_DISTANCE) from the segment.
/// That happens when the polygon comes close only beyond a non-convex end while
/// the part of it alongside the segment is far away; Box2D v3 keeps such a
/// manifold, whose points never act. `cache` carries GJK's simplex between calls
/// for the same pair (start with `SimplexCache::default()`).
///
/// Box2D: `b2CollideChainSegmentAndPolygon`.
pub fn collide_chain_segment_and_polygon(
    chain_a: &ChainSegment,
    xf_a: Transform,
    polygon_b: &Polygon,
    xf_b: Transform,
    cache: &mut SimplexCache,
) -> Manifold {
    let (p1, p2) = (chain_a.segment.point1, chain_a.segment.point2);
    if is_degenerate(p1, p2) {
        return Manifold::default();
    }
    let frame = ChainFrame::new(chain_a);
    let b = polygon_b.transformed(xf_a.inv_mul(xf_b));

    let behind_line = |n: Vec2, p: Vec2| n.dot(b.centroid - p) < 0.0;
    let behind = behind_line(frame.normal, p1);
    if behind
        && frame.prev_normal.is_none_or(|n| behind_line(n, p1))
        && frame.next_normal.is_none_or(|n| behind_line(n, p2))
    {
        return Manifold::default();
    }

    let input = DistanceInput {
        proxy_a: ShapeProxy::from_segment(&chain_a.segment),
        proxy_b: ShapeProxy::from_polygon(&b),
        transform_a: Transform::IDENTITY,
        transform_b: Transform::IDENTITY,
        use_radii: false,
    };
    let closest = shape_distance(&input, cache);
    if closest.distance > b.radius + SPECULATIVE_DISTANCE {
        return Manifold::default();
    }
    // The shapes may be close only beyond an end of the segment while the part of B
    // over the segment, which a snapped face contact clips to, is far away: then
    // that end's neighbour (or, behind it, nobody) owns the contact.
    chain_polygon_contact(&frame, &b, &closest, cache, behind)
        .within_reach()
        .into_world(xf_a, xf_b, Vec2::ZERO)
}

/// Contact between a chain segment (A) and a capsule (B): the capsule is treated as
/// a rounded two-vertex polygon, see [`collide_chain_segment_and_polygon`].
///
/// Box2D: `b2CollideChainSegmentAndCapsule`.
pub fn collide_chain_segment_and_capsule(
    chain_a: &ChainSegment,
    xf_a: Transform,
    capsule_b: &Capsule,
    xf_b: Transform,
    cache: &mut SimplexCache,
) -> Manifold {
    if is_degenerate(capsule_b.center1, capsule_b.center2) {
        let circle = Circle {
            center: capsule_b.center1,
            radius: capsule_b.radius,
        };
        return collide_chain_segment_and_circle(chain_a, xf_a, &circle, xf_b);
    }
    let polygon = make_capsule_polygon(capsule_b);
    collide_chain_segment_and_polygon(chain_a, xf_a, &polygon, xf_b, cache)
}

#[cfg(test)]
mod tests;
