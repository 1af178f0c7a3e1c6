//! Contact manifolds: the up to two contact points, shared normal and separations
//! between two touching (or nearly touching) shapes.
//!
//! Every function takes shape A in its local frame with `xf_a`, shape B with
//! `xf_b`, and returns a manifold whose normal points from A to B in world
//! coordinates. Points are reported relative to A's origin (`anchor_a`), relative to
//! B's origin (`anchor_b`) and in world coordinates (`point`). Points are created up to
//! [`SPECULATIVE_DISTANCE`](crate::core::SPECULATIVE_DISTANCE) before touching.
//!
//! # References
//! - E. Catto, Box2D-Lite `Collide.cpp` (box SAT and clipping), Box2D v3 `manifold.c`.
//! - D. Eberly, *Intersection of Convex Objects: The Method of Separating Axes*.

use super::distance::SegmentDistanceResult;
use super::geometry::{Capsule, ChainSegment, Circle, Polygon, Segment, make_capsule_polygon};
use crate::core::{LINEAR_SLOP, SPECULATIVE_DISTANCE};
use crate::math::{Rot, Transform, Vec2};

/// One contact point of a [`Manifold`].
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ManifoldPoint {
    /// World position of the contact point (mid-way between the surfaces), metres.
    pub point: Vec2,
    /// The point relative to body A's origin, world orientation, metres.
    pub anchor_a: Vec2,
    /// The point relative to body B's origin, world orientation, metres.
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

    /// Appends a point unless its surfaces are farther apart than the speculative distance.
    fn push_speculative(&mut self, point: LocalPoint) {
        if point.separation <= SPECULATIVE_DISTANCE && self.count < 2 {
            self.points[self.count] = point;
            self.count += 1;
        }
    }

    /// Converts to the world: the working frame is A's local frame shifted by `origin`
    /// (in A's local coordinates). A manifold with any non-finite number (inputs beyond
    /// the range `f32` can handle) becomes empty.
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
fn swapped(m: Manifold) -> Manifold {
    let mut out = m;
    out.normal = -m.normal;
    for p in &mut out.points[..out.point_count] {
        std::mem::swap(&mut p.anchor_a, &mut p.anchor_b);
        p.id = p.id.swap_bytes();
    }
    out
}

/// A's local frame moved so that its origin sits at `origin` (A-local coordinates).
#[inline]
fn shifted_frame(xf: Transform, origin: Vec2) -> Transform {
    Transform::new(xf.p + xf.q.rotate(origin), xf.q)
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
pub fn collide_segment_and_circle(
    segment_a: &Segment,
    xf_a: Transform,
    circle_b: &Circle,
    xf_b: Transform,
) -> Manifold {
    let capsule = Capsule {
        center1: segment_a.point1,
        center2: segment_a.point2,
        radius: 0.0,
    };
    collide_capsule_and_circle(&capsule, xf_a, circle_b, xf_b)
}

/// Contact between a polygon (A, possibly rounded) and a circle (B): one point, id 0.
///
/// The face of A that separates the circle's centre most is found first; if the
/// centre lies outside A beyond one of that face's ends, the contact is with the
/// corner there, otherwise with the face.
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

/// Closest points between segments `p1–q1` and `p2–q2` (Ericson, *Real-Time
/// Collision Detection* §5.1.9), tolerant of zero-length segments. Clamped
/// fractions are exactly 0 or 1, which callers use to recognise end points.
fn closest_points_on_segments(p1: Vec2, q1: Vec2, p2: Vec2, q2: Vec2) -> SegmentDistanceResult {
    let d1 = q1 - p1;
    let d2 = q2 - p2;
    let r = p1 - p2;
    let dd1 = d1.dot(d1);
    let dd2 = d2.dot(d2);
    let rd1 = r.dot(d1);
    let rd2 = r.dot(d2);
    let eps = f32::EPSILON * f32::EPSILON;

    let (f1, f2) = if dd1 <= eps && dd2 <= eps {
        (0.0, 0.0)
    } else if dd1 <= eps {
        (0.0, (rd2 / dd2).clamp(0.0, 1.0))
    } else if dd2 <= eps {
        ((-rd1 / dd1).clamp(0.0, 1.0), 0.0)
    } else {
        let d12 = d1.dot(d2);
        let denominator = dd1 * dd2 - d12 * d12;
        // Parallel segments: any point of the first will do, start from its beginning.
        let f1 = if denominator != 0.0 {
            ((d12 * rd2 - rd1 * dd2) / denominator).clamp(0.0, 1.0)
        } else {
            0.0
        };
        let f2 = (d12 * f1 + rd2) / dd2;
        if f2 < 0.0 {
            ((-rd1 / dd1).clamp(0.0, 1.0), 0.0)
        } else if f2 > 1.0 {
            (((d12 - rd1) / dd1).clamp(0.0, 1.0), 1.0)
        } else {
            (f1, f2)
        }
    };
    let closest1 = Vec2::mul_add(p1, f1, d1);
    let closest2 = Vec2::mul_add(p2, f2, d2);
    SegmentDistanceResult {
        closest1,
        closest2,
        fraction1: f1,
        fraction2: f2,
        distance_squared: closest1.distance_squared(closest2),
    }
}

/// How far segment `b1–b2` lies from the line through `a` with unit direction
/// `axis`, on the side where it lies farther: `(separation, outward normal)`.
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
fn capsule_contact(
    p1: Vec2,
    q1: Vec2,
    radius_a: f32,
    p2: Vec2,
    q2: Vec2,
    radius_b: f32,
) -> LocalManifold {
    let closest = closest_points_on_segments(p1, q1, p2, q2);
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
        // taking the side of the segment that separates the pair most as the reference.
        let (separation_a, normal_a) = side_separation(p1, axis1, p2, q2);
        let (separation_b, normal_b) = side_separation(p2, axis2, p1, q1);
        let mut m = LocalManifold::EMPTY;
        let (reference, (cp, cq), normal, r_ref, r_inc, ids) = if separation_a >= separation_b {
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
        // A clipped point far beyond the closest distance means the segments cross at a
        // steep angle: then one point at the closest features is the better contact.
        if sp <= distance + LINEAR_SLOP || sq <= distance + LINEAR_SLOP {
            m.normal = if separation_a >= separation_b {
                normal
            } else {
                -normal
            };
            for (c, s, id) in [(cp, sp, ids[0]), (cq, sq, ids[1])] {
                m.push_speculative(LocalPoint {
                    anchor: Vec2::mul_add(c, 0.5 * (r_ref - r_inc - s), normal),
                    separation: s - radius,
                    id,
                });
            }
            if m.count > 0 {
                return m;
            }
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

/// Contact between two capsules: up to two points when their segments overlap along
/// each other (ids (0,0) and (0,1) or (1,0)), otherwise one point between the closest
/// features (id from the end points involved).
pub fn collide_capsules(
    capsule_a: &Capsule,
    xf_a: Transform,
    capsule_b: &Capsule,
    xf_b: Transform,
) -> Manifold {
    let origin = capsule_a.center1;
    let xf = shifted_frame(xf_a, origin).inv_mul(xf_b);
    capsule_contact(
        Vec2::ZERO,
        capsule_a.center2 - origin,
        capsule_a.radius,
        xf.apply(capsule_b.center1),
        xf.apply(capsule_b.center2),
        capsule_b.radius,
    )
    .into_world(xf_a, xf_b, origin)
}

/// Contact between a two-sided segment (A) and a capsule (B): as [`collide_capsules`]
/// with a capsule of zero radius.
pub fn collide_segment_and_capsule(
    segment_a: &Segment,
    xf_a: Transform,
    capsule_b: &Capsule,
    xf_b: Transform,
) -> Manifold {
    let capsule_a = Capsule {
        center1: segment_a.point1,
        center2: segment_a.point2,
        radius: 0.0,
    };
    collide_capsules(&capsule_a, xf_a, capsule_b, xf_b)
}

// ---------------------------------------------------------------------------
// Polygons

/// The edge of `poly1` whose normal separates `poly2` the most, and that separation.
fn max_separation(poly1: &Polygon, poly2: &Polygon) -> (usize, f32) {
    let mut best = (0, -f32::MAX);
    for i in 0..poly1.count {
        let (n, v) = (poly1.normals[i], poly1.vertices[i]);
        let deepest = poly2
            .vertices()
            .iter()
            .map(|&w| n.dot(w - v))
            .fold(f32::MAX, f32::min);
        if deepest > best.1 {
            best = (i, deepest);
        }
    }
    best
}

/// The edge of `poly` whose normal points most against `direction`.
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
    // Ids name the feature of A first, then B's; the point order matches Box2D.
    let (i11, i12, i21, i22) = (i11 as u8, i12 as u8, i21 as u8, i22 as u8);
    let mut m = LocalManifold::EMPTY;
    if flip {
        m.normal = -normal;
        m.push_speculative(LocalPoint {
            id: make_id(i21, i12),
            ..clipped.upper
        });
        m.push_speculative(LocalPoint {
            id: make_id(i22, i11),
            ..clipped.lower
        });
    } else {
        m.normal = normal;
        m.push_speculative(LocalPoint {
            id: make_id(i11, i22),
            ..clipped.lower
        });
        m.push_speculative(LocalPoint {
            id: make_id(i12, i21),
            ..clipped.upper
        });
    }
    m
}

/// The end of an edge `(i1, i2)` that a segment-distance fraction points at, if any.
#[inline]
fn edge_end(fraction: f32, i1: usize, i2: usize) -> Option<usize> {
    if fraction == 0.0 {
        Some(i1)
    } else if fraction == 1.0 {
        Some(i2)
    } else {
        None
    }
}

/// Whether two nearly parallel edges overlap along the first by more than a sliver.
///
/// Closest points between parallel edges are not unique and the segment-distance
/// routine then reports end points; when the edges overlap, the contact is a face
/// contact (two clipped points), not a corner-to-corner one.
fn edges_overlap(a1: Vec2, a2: Vec2, b1: Vec2, b2: Vec2) -> bool {
    let (axis, length) = (a2 - a1).get_length_and_normalize();
    let (t1, t2) = ((b1 - a1).dot(axis), (b2 - a1).dot(axis));
    let overlap = t1.max(t2).min(length) - t1.min(t2).max(0.0);
    // Only parallel edges can have both closest points at ends and still overlap.
    let parallel = axis.cross(b2 - b1).abs() <= 1.0e-3 * (b2 - b1).length();
    parallel && overlap > 0.1 * LINEAR_SLOP
}

/// Contact between polygons `a` and `b`, both in the working frame.
fn polygon_contact(a: &Polygon, b: &Polygon) -> LocalManifold {
    let (edge_a, separation_a) = max_separation(a, b);
    let (edge_b, separation_b) = max_separation(b, a);
    let radius = a.radius + b.radius;
    if separation_a > SPECULATIVE_DISTANCE + radius || separation_b > SPECULATIVE_DISTANCE + radius
    {
        return LocalManifold::EMPTY;
    }

    // Prefer A's face unless B's is clearly better, so that nearly symmetric stacks
    // do not switch reference (and feature ids) from frame to frame.
    let flip = separation_b > separation_a + 0.1 * LINEAR_SLOP;
    let (edge_a, edge_b) = if flip {
        (incident_edge(a, b.normals[edge_b]), edge_b)
    } else {
        (edge_a, incident_edge(b, a.normals[edge_a]))
    };

    if separation_a.max(separation_b) > 0.1 * LINEAR_SLOP {
        // The cores are apart (by more than a sliver, so corner-to-corner directions
        // can be normalised). If the closest features of the two edges are corners, the
        // contact is corner to corner with its true normal, not the face normal.
        let (i11, i12) = (edge_a, next_index(edge_a, a.count));
        let (i21, i22) = (edge_b, next_index(edge_b, b.count));
        let (v11, v12) = (a.vertices[i11], a.vertices[i12]);
        let (v21, v22) = (b.vertices[i21], b.vertices[i22]);
        let closest = closest_points_on_segments(v11, v12, v21, v22);
        let corners = (
            edge_end(closest.fraction1, i11, i12),
            edge_end(closest.fraction2, i21, i22),
        );
        if let (Some(ia), Some(ib)) = corners
            && !edges_overlap(v11, v12, v21, v22)
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
    }
    clip_polygons(a, b, edge_a, edge_b, flip)
}

/// Contact between two convex polygons, either possibly rounded: up to two points.
///
/// The reference face is the face (of A or B) that separates the polygons most
/// (separating-axis test), with a tolerance of a tenth of the linear slop in A's
/// favour; the incident edge is the other polygon's edge most opposed to it, clipped
/// to the reference face's side planes. When the cores are apart and their closest
/// features are two corners, the contact is one point between the corners. Clipped
/// points farther apart than [`SPECULATIVE_DISTANCE`] are dropped.
///
/// Ids are `make_id(feature of A, feature of B)` with vertex indices.
pub fn collide_polygons(
    polygon_a: &Polygon,
    xf_a: Transform,
    polygon_b: &Polygon,
    xf_b: Transform,
) -> Manifold {
    let origin = polygon_a.vertices[0];
    let a = polygon_a.transformed(Transform::new(-origin, Rot::IDENTITY));
    let b = polygon_b.transformed(shifted_frame(xf_a, origin).inv_mul(xf_b));
    polygon_contact(&a, &b).into_world(xf_a, xf_b, origin)
}

/// Contact between a polygon (A) and a capsule (B): the capsule is treated as a
/// rounded two-vertex polygon, see [`collide_polygons`].
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
    let capsule = Capsule {
        center1: segment_a.point1,
        center2: segment_a.point2,
        radius: 0.0,
    };
    collide_polygons(&make_capsule_polygon(&capsule), xf_a, polygon_b, xf_b)
}

// ---------------------------------------------------------------------------
// Chain segments (one-sided, with ghost vertices)

/// Contact between a chain segment (A) and a circle (B): one point, id 0.
///
/// Only a circle whose centre is on the segment's right side collides. Beyond an end
/// of the segment, the circle collides with that end only if it is not in the region
/// the neighbouring segment (through the ghost vertex) already covers, so a circle
/// rolling along a smooth chain meets no internal corners.
pub fn collide_chain_segment_and_circle(
    chain_a: &ChainSegment,
    xf_a: Transform,
    circle_b: &Circle,
    xf_b: Transform,
) -> Manifold {
    let center = xf_a.inv_mul(xf_b).apply(circle_b.center);
    let (p1, p2) = (chain_a.segment.point1, chain_a.segment.point2);
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

#[cfg(test)]
mod tests;
