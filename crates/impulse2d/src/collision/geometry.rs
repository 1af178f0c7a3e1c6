//! Shape primitives in local coordinates: [`Circle`], [`Capsule`], [`Polygon`],
//! [`Segment`] and [`ChainSegment`], and the constructors that validate them.
//!
//! A polygon may carry a rounding radius: it is then the Minkowski sum of its convex
//! core and a disk, which is how Box2D v3 models rounded boxes. All lengths are metres.
//!
//! # References
//! - E. Catto, Box2D v3 `geometry.c`, `collision.h`.

use super::hull::Hull;
use crate::core::{LINEAR_SLOP, MAX_POLYGON_VERTICES};
use crate::error::{Error, Result, check_finite, check_finite_vec, check_non_negative};
use crate::math::{Rot, Transform, Vec2};

/// A solid circle.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Circle {
    /// Centre in the shape's local frame, metres.
    pub center: Vec2,
    /// Radius, metres (≥ 0).
    pub radius: f32,
}

impl Circle {
    /// Makes a circle; the centre must be finite and the radius finite and ≥ 0.
    pub fn new(center: Vec2, radius: f32) -> Result<Circle> {
        check_finite_vec(center, "circle center")?;
        check_non_negative(radius, "circle radius")?;
        Ok(Circle { center, radius })
    }
}

/// A solid capsule: the set of points within `radius` of the segment `center1–center2`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Capsule {
    /// First end of the core segment, metres.
    pub center1: Vec2,
    /// Second end of the core segment, metres.
    pub center2: Vec2,
    /// Radius, metres (≥ 0).
    pub radius: f32,
}

impl Capsule {
    /// Makes a capsule. The centres must be finite and farther apart than the
    /// linear slop (use a [`Circle`] otherwise); the radius finite and ≥ 0.
    pub fn new(center1: Vec2, center2: Vec2, radius: f32) -> Result<Capsule> {
        check_finite_vec(center1, "capsule center1")?;
        check_finite_vec(center2, "capsule center2")?;
        check_non_negative(radius, "capsule radius")?;
        if center1.distance_squared(center2) <= LINEAR_SLOP * LINEAR_SLOP {
            return Err(Error::InvalidGeometry(
                "capsule centres are closer than the linear slop; use a circle",
            ));
        }
        Ok(Capsule {
            center1,
            center2,
            radius,
        })
    }
}

/// A line segment (two-sided, no thickness). Used for static level geometry.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Segment {
    /// First point, metres.
    pub point1: Vec2,
    /// Second point, metres.
    pub point2: Vec2,
}

impl Segment {
    /// Makes a segment; the points must be finite and farther apart than the linear slop.
    pub fn new(point1: Vec2, point2: Vec2) -> Result<Segment> {
        check_finite_vec(point1, "segment point1")?;
        check_finite_vec(point2, "segment point2")?;
        if point1.distance_squared(point2) <= LINEAR_SLOP * LINEAR_SLOP {
            return Err(Error::InvalidGeometry(
                "segment points are closer than the linear slop",
            ));
        }
        Ok(Segment { point1, point2 })
    }
}

/// A one-sided segment of a chain, with the neighbouring vertices ("ghosts") that
/// let collision ignore the internal edges of a smooth chain. It collides only on its
/// right side (the side of `right_perp(point2 − point1)`); chains are wound so that
/// the right side faces outwards, as in Box2D.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ChainSegment {
    /// The previous vertex of the chain, metres.
    pub ghost1: Vec2,
    /// The segment itself.
    pub segment: Segment,
    /// The next vertex of the chain, metres.
    pub ghost2: Vec2,
    /// The owning chain's index, or `u32::MAX` for a free-standing chain segment.
    pub chain_id: u32,
}

impl ChainSegment {
    /// Makes a chain segment from its ghost vertices and segment; all points finite.
    pub fn new(ghost1: Vec2, segment: Segment, ghost2: Vec2) -> Result<ChainSegment> {
        check_finite_vec(ghost1, "chain segment ghost1")?;
        check_finite_vec(ghost2, "chain segment ghost2")?;
        let segment = Segment::new(segment.point1, segment.point2)?;
        Ok(ChainSegment {
            ghost1,
            segment,
            ghost2,
            chain_id: u32::MAX,
        })
    }
}

/// A solid convex polygon of 3 to 8 vertices, optionally rounded by `radius`.
///
/// Vertices are counter-clockwise; `normals[i]` is the outward unit normal of the
/// edge from vertex `i` to vertex `i + 1`. The fields are private so that a
/// `Polygon` is always valid; build one with [`make_polygon`], [`make_box`] and friends.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Polygon {
    pub(crate) vertices: [Vec2; MAX_POLYGON_VERTICES],
    pub(crate) normals: [Vec2; MAX_POLYGON_VERTICES],
    pub(crate) centroid: Vec2,
    pub(crate) radius: f32,
    pub(crate) count: usize,
}

impl Polygon {
    /// The vertices, counter-clockwise, metres.
    #[inline]
    pub fn vertices(&self) -> &[Vec2] {
        &self.vertices[..self.count]
    }

    /// The outward unit normals; `normals()[i]` belongs to the edge `i → i+1`.
    #[inline]
    pub fn normals(&self) -> &[Vec2] {
        &self.normals[..self.count]
    }

    /// The centroid of the core polygon (also the rounded polygon's), metres.
    #[inline]
    pub fn centroid(&self) -> Vec2 {
        self.centroid
    }

    /// The rounding radius, metres.
    #[inline]
    pub fn radius(&self) -> f32 {
        self.radius
    }

    /// The number of vertices (3 to 8).
    #[inline]
    pub fn count(&self) -> usize {
        self.count
    }

    /// This polygon moved by a rigid transform.
    pub fn transformed(&self, xf: Transform) -> Polygon {
        let mut p = *self;
        for i in 0..p.count {
            p.vertices[i] = xf.apply(p.vertices[i]);
            p.normals[i] = xf.q.rotate(p.normals[i]);
        }
        p.centroid = xf.apply(p.centroid);
        p
    }
}

/// The area-weighted centroid of a counter-clockwise convex polygon.
fn polygon_centroid(vertices: &[Vec2]) -> Vec2 {
    // Fan of triangles from the first vertex, relative to it for precision.
    let origin = vertices[0];
    let mut center = Vec2::ZERO;
    let mut area = 0.0;
    let inv3 = 1.0 / 3.0;
    for i in 1..vertices.len() - 1 {
        let e1 = vertices[i] - origin;
        let e2 = vertices[i + 1] - origin;
        let a = 0.5 * e1.cross(e2);
        center = Vec2::mul_add(center, a * inv3, e1 + e2);
        area += a;
    }
    debug_assert!(area > 0.0);
    origin + center * (1.0 / area)
}

/// Makes a polygon from a hull with a rounding radius (metres, ≥ 0).
pub fn make_polygon(hull: &Hull, radius: f32) -> Result<Polygon> {
    make_offset_polygon(hull, Transform::IDENTITY, radius)
}

/// Makes a polygon from a hull whose points are then moved by `xf` (the polygon's
/// placement in its body's frame), with a rounding radius (metres, ≥ 0).
pub fn make_offset_polygon(hull: &Hull, xf: Transform, radius: f32) -> Result<Polygon> {
    check_non_negative(radius, "polygon radius")?;
    if !xf.is_valid() {
        return Err(Error::NonFinite {
            what: "polygon offset transform",
        });
    }
    let n = hull.count;
    if !(3..=MAX_POLYGON_VERTICES).contains(&n) {
        return Err(Error::InvalidGeometry(
            "a polygon needs a hull of 3 to 8 points",
        ));
    }
    let mut vertices = [Vec2::ZERO; MAX_POLYGON_VERTICES];
    let mut normals = [Vec2::ZERO; MAX_POLYGON_VERTICES];
    for (v, &h) in vertices.iter_mut().zip(&hull.points[..n]) {
        *v = xf.apply(h);
    }
    for i in 0..n {
        let edge = vertices[(i + 1) % n] - vertices[i];
        if edge.length_squared() <= f32::EPSILON * f32::EPSILON {
            return Err(Error::InvalidGeometry("polygon has a zero-length edge"));
        }
        normals[i] = edge.right_perp().normalize();
    }
    let centroid = polygon_centroid(&vertices[..n]);
    Ok(Polygon {
        vertices,
        normals,
        centroid,
        radius,
        count: n,
    })
}

fn check_box_half_extents(hx: f32, hy: f32) -> Result<()> {
    check_finite(hx, "box half-width")?;
    check_finite(hy, "box half-height")?;
    if hx <= 0.5 * LINEAR_SLOP || hy <= 0.5 * LINEAR_SLOP {
        return Err(Error::InvalidGeometry(
            "box half-extents must be larger than half the linear slop",
        ));
    }
    Ok(())
}

/// Makes an axis-aligned box centred on the origin from its half-width and
/// half-height (metres, each larger than half the linear slop).
pub fn make_box(hx: f32, hy: f32) -> Result<Polygon> {
    make_offset_rounded_box(hx, hy, Vec2::ZERO, Rot::IDENTITY, 0.0)
}

/// Makes a square centred on the origin with half-width `h` (metres).
pub fn make_square(h: f32) -> Result<Polygon> {
    make_box(h, h)
}

/// Makes a box with rounded corners: a core box of half-extents `hx`, `hy` grown by
/// `radius` (all metres).
pub fn make_rounded_box(hx: f32, hy: f32, radius: f32) -> Result<Polygon> {
    make_offset_rounded_box(hx, hy, Vec2::ZERO, Rot::IDENTITY, radius)
}

/// Makes a box of half-extents `hx`, `hy` (metres) centred at `center` and
/// rotated by `rotation`, in the body's frame.
pub fn make_offset_box(hx: f32, hy: f32, center: Vec2, rotation: Rot) -> Result<Polygon> {
    make_offset_rounded_box(hx, hy, center, rotation, 0.0)
}

/// Makes a rounded box of half-extents `hx`, `hy` and rounding `radius` (metres)
/// centred at `center` and rotated by `rotation`, in the body's frame.
pub fn make_offset_rounded_box(
    hx: f32,
    hy: f32,
    center: Vec2,
    rotation: Rot,
    radius: f32,
) -> Result<Polygon> {
    check_box_half_extents(hx, hy)?;
    check_non_negative(radius, "box radius")?;
    check_finite_vec(center, "box center")?;
    if !rotation.is_valid() {
        return Err(Error::NonFinite {
            what: "box rotation",
        });
    }
    let xf = Transform::new(center, rotation);
    let corners = [
        Vec2::new(-hx, -hy),
        Vec2::new(hx, -hy),
        Vec2::new(hx, hy),
        Vec2::new(-hx, hy),
    ];
    let local_normals = [
        Vec2::new(0.0, -1.0),
        Vec2::new(1.0, 0.0),
        Vec2::new(0.0, 1.0),
        Vec2::new(-1.0, 0.0),
    ];
    let mut vertices = [Vec2::ZERO; MAX_POLYGON_VERTICES];
    let mut normals = [Vec2::ZERO; MAX_POLYGON_VERTICES];
    for i in 0..4 {
        vertices[i] = xf.apply(corners[i]);
        normals[i] = rotation.rotate(local_normals[i]);
    }
    Ok(Polygon {
        vertices,
        normals,
        centroid: center,
        radius,
        count: 4,
    })
}

/// Makes a polygon from a capsule's core segment (a two-vertex "polygon" is not
/// allowed, so this builds the capsule's bounding rounded shape as Box2D does for
/// collision with polygons): the result has 2 vertices and radius `capsule.radius`.
/// Used internally by the manifold functions.
#[allow(dead_code)] // used by the manifold functions
pub(crate) fn make_capsule_polygon(capsule: &Capsule) -> Polygon {
    let mut vertices = [Vec2::ZERO; MAX_POLYGON_VERTICES];
    let mut normals = [Vec2::ZERO; MAX_POLYGON_VERTICES];
    vertices[0] = capsule.center1;
    vertices[1] = capsule.center2;
    let axis = (capsule.center2 - capsule.center1).normalize();
    let normal = axis.right_perp();
    normals[0] = normal;
    normals[1] = -normal;
    Polygon {
        vertices,
        normals,
        centroid: capsule.center1.lerp(capsule.center2, 0.5),
        radius: capsule.radius,
        count: 2,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn box_has_ccw_vertices_and_outward_normals() {
        let b = make_box(2.0, 1.0).unwrap();
        assert_eq!(b.count(), 4);
        assert_eq!(b.vertices()[0], Vec2::new(-2.0, -1.0));
        assert_eq!(b.vertices()[2], Vec2::new(2.0, 1.0));
        for i in 0..4 {
            let e = b.vertices()[(i + 1) % 4] - b.vertices()[i];
            assert!(e.cross(b.vertices()[(i + 2) % 4] - b.vertices()[i]) > 0.0);
            assert!(b.normals()[i].dot(e).abs() < 1e-6);
            assert!(b.normals()[i].dot(b.vertices()[i] - b.centroid()) > 0.0);
        }
    }

    #[test]
    fn offset_box_is_moved_and_rotated() {
        let b = make_offset_box(
            1.0,
            0.5,
            Vec2::new(3.0, 0.0),
            Rot::from_angle(0.5 * crate::math::PI),
        )
        .unwrap();
        assert!((b.centroid() - Vec2::new(3.0, 0.0)).length() < 1e-6);
        // Rotated by 90°: the half-height now lies along x.
        let xs: Vec<f32> = b.vertices().iter().map(|v| v.x).collect();
        let min_x = xs.iter().cloned().fold(f32::MAX, f32::min);
        assert!((min_x - 2.5).abs() < 1e-6);
    }

    #[test]
    fn constructors_reject_bad_input() {
        assert!(make_box(f32::NAN, 1.0).is_err());
        assert!(make_box(1.0, f32::INFINITY).is_err());
        assert!(make_box(0.0, 1.0).is_err());
        assert!(make_box(-1.0, 1.0).is_err());
        assert!(make_rounded_box(1.0, 1.0, -0.1).is_err());
        assert!(Circle::new(Vec2::ZERO, -1.0).is_err());
        assert!(Circle::new(Vec2::new(f32::NAN, 0.0), 1.0).is_err());
        assert!(Capsule::new(Vec2::ZERO, Vec2::ZERO, 1.0).is_err());
        assert!(Segment::new(Vec2::ZERO, Vec2::new(0.001, 0.0)).is_err());
        assert!(Segment::new(Vec2::ZERO, Vec2::new(f32::INFINITY, 0.0)).is_err());
        assert!(
            ChainSegment::new(
                Vec2::new(f32::NAN, 0.0),
                Segment::new(Vec2::ZERO, Vec2::X).unwrap(),
                Vec2::Y
            )
            .is_err()
        );
    }

    #[test]
    fn centroid_of_triangle() {
        let v = [
            Vec2::new(0.0, 0.0),
            Vec2::new(3.0, 0.0),
            Vec2::new(0.0, 3.0),
        ];
        let c = polygon_centroid(&v);
        assert!((c - Vec2::new(1.0, 1.0)).length() < 1e-6);
    }
}
