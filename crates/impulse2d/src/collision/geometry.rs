//! Shape primitives in local coordinates: [`Circle`], [`Capsule`], [`Polygon`],
//! [`Segment`] and [`ChainSegment`], and the constructors that validate them.
//!
//! A polygon may carry a rounding radius: it is then the Minkowski sum of its convex
//! core and a disk, which is how Box2D v3 models rounded boxes. All lengths are metres.
//!
//! Every constructor rejects what collision cannot handle: non-finite numbers
//! ([`Error::NonFinite`]), coordinates, radii and half-extents beyond
//! [`HUGE`] in magnitude ([`Error::OutOfRange`], as [`compute_hull`](super::compute_hull)
//! does), and shapes too small or, for polygons, not strictly convex once placed
//! ([`Error::InvalidGeometry`]). The polygon constructors check the **placed**
//! vertices (after the offset transform), exactly: rounding a vertex to `f32` near
//! `HUGE` moves it by up to about a centimetre, enough to fold a thin corner.
//!
//! # References
//! - E. Catto, Box2D v3 `geometry.c`, `collision.h`.

use super::hull::Hull;
use crate::core::{HUGE, LINEAR_SLOP, MAX_POLYGON_VERTICES};
use crate::error::{Error, Result, check_finite, check_non_negative};
use crate::math::{Rot, Transform, Vec2};

/// The range every coordinate and size must lie in, for error messages.
const WITHIN_HUGE: &str = "within ±HUGE (1e5 m)";

/// Checks a coordinate: finite and within `±HUGE`.
fn check_in_range(value: f32, what: &'static str) -> Result<()> {
    check_finite(value, what)?;
    if value.abs() > HUGE {
        return Err(Error::OutOfRange {
            what,
            expected: WITHIN_HUGE,
            value,
        });
    }
    Ok(())
}

/// Checks a point: both coordinates finite and within `±HUGE`.
fn check_point(p: Vec2, what: &'static str) -> Result<()> {
    check_in_range(p.x, what)?;
    check_in_range(p.y, what)
}

/// Checks a radius: finite, `>= 0` and at most `HUGE`.
fn check_radius(value: f32, what: &'static str) -> Result<()> {
    check_non_negative(value, what)?;
    check_in_range(value, what)
}

/// Twice the signed area of the triangle `a, b, c` (`(b − a) × (c − a)`), positive
/// when it turns left. Computed in `f64`, where the differences of `f32`
/// coordinates within `±HUGE` and their products are exact, so the sign is right
/// even for slivers whose `f32` cross product is all round-off.
#[inline]
pub(crate) fn orient(a: Vec2, b: Vec2, c: Vec2) -> f64 {
    let (ax, ay) = (f64::from(a.x), f64::from(a.y));
    let (ux, uy) = (f64::from(b.x) - ax, f64::from(b.y) - ay);
    let (vx, vy) = (f64::from(c.x) - ax, f64::from(c.y) - ay);
    ux * vy - uy * vx
}

/// Checks placed polygon vertices: each within `±HUGE`, and the polygon strictly
/// convex and counter-clockwise (every vertex strictly left of every edge it is not
/// on, decided exactly by [`orient`]). That implies a positive area and a left turn
/// at every corner.
fn check_placed_vertices(vertices: &[Vec2]) -> Result<()> {
    for &v in vertices {
        check_point(v, "polygon vertex")?;
    }
    let n = vertices.len();
    for i in 0..n {
        let a = vertices[i];
        let b = vertices[(i + 1) % n];
        for (j, &p) in vertices.iter().enumerate() {
            if j != i && j != (i + 1) % n && orient(a, b, p) <= 0.0 {
                return Err(Error::InvalidGeometry(
                    "polygon vertices are not strictly convex and counter-clockwise once \
                     placed (f32 rounding can fold a thin corner far from the origin)",
                ));
            }
        }
    }
    Ok(())
}

/// A solid circle.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(try_from = "crate::interop::serde::CircleFields")
)]
pub struct Circle {
    /// Centre in the shape's local frame, metres.
    pub center: Vec2,
    /// Radius, metres (≥ 0).
    pub radius: f32,
}

impl Circle {
    /// Makes a circle; the centre within `±HUGE` and the radius in `[0, HUGE]` (metres).
    ///
    /// # Errors
    /// [`Error::NonFinite`] or [`Error::OutOfRange`] otherwise.
    pub fn new(center: Vec2, radius: f32) -> Result<Circle> {
        check_point(center, "circle center")?;
        check_radius(radius, "circle radius")?;
        Ok(Circle { center, radius })
    }
}

/// A solid capsule: the set of points within `radius` of the segment `center1–center2`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(try_from = "crate::interop::serde::CapsuleFields")
)]
pub struct Capsule {
    /// First end of the core segment, metres.
    pub center1: Vec2,
    /// Second end of the core segment, metres.
    pub center2: Vec2,
    /// Radius, metres (≥ 0).
    pub radius: f32,
}

impl Capsule {
    /// Makes a capsule. The centres must lie within `±HUGE` and farther apart than
    /// the linear slop (use a [`Circle`] otherwise); the radius in `[0, HUGE]` (metres).
    ///
    /// # Errors
    /// [`Error::NonFinite`] or [`Error::OutOfRange`] for bad numbers,
    /// [`Error::InvalidGeometry`] for centres too close together.
    pub fn new(center1: Vec2, center2: Vec2, radius: f32) -> Result<Capsule> {
        check_point(center1, "capsule center1")?;
        check_point(center2, "capsule center2")?;
        check_radius(radius, "capsule radius")?;
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
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(try_from = "crate::interop::serde::SegmentFields")
)]
pub struct Segment {
    /// First point, metres.
    pub point1: Vec2,
    /// Second point, metres.
    pub point2: Vec2,
}

impl Segment {
    /// Makes a segment; the points must lie within `±HUGE` (metres) and farther
    /// apart than the linear slop.
    ///
    /// # Errors
    /// [`Error::NonFinite`] or [`Error::OutOfRange`] for bad coordinates,
    /// [`Error::InvalidGeometry`] for points too close together.
    pub fn new(point1: Vec2, point2: Vec2) -> Result<Segment> {
        check_point(point1, "segment point1")?;
        check_point(point2, "segment point2")?;
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
    /// Makes a chain segment from its ghost vertices and segment; all points within
    /// `±HUGE` (metres), the segment valid for [`Segment::new`].
    ///
    /// # Errors
    /// As [`Segment::new`], and for ghost vertices that are not finite or beyond `±HUGE`.
    pub fn new(ghost1: Vec2, segment: Segment, ghost2: Vec2) -> Result<ChainSegment> {
        check_point(ghost1, "chain segment ghost1")?;
        check_point(ghost2, "chain segment ghost2")?;
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
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(
        into = "crate::interop::serde::PolygonFields",
        try_from = "crate::interop::serde::PolygonFields"
    )
)]
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
    ///
    /// Box2D: `b2TransformPolygon`.
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

/// The area-weighted centroid of a strictly convex counter-clockwise polygon (as
/// checked by [`check_placed_vertices`]).
///
/// A fan of triangles from the first vertex, accumulated in `f64`: a thin polygon
/// far from the origin has an `f32` cross product made mostly of round-off.
fn polygon_centroid(vertices: &[Vec2]) -> Vec2 {
    let origin = vertices[0];
    let (ox, oy) = (f64::from(origin.x), f64::from(origin.y));
    let (mut cx, mut cy, mut twice_area) = (0.0f64, 0.0f64, 0.0f64);
    for i in 1..vertices.len() - 1 {
        let d = orient(origin, vertices[i], vertices[i + 1]);
        // The triangle's centroid relative to the origin is (e1 + e2) / 3.
        let sx = f64::from(vertices[i].x) + f64::from(vertices[i + 1].x) - 2.0 * ox;
        let sy = f64::from(vertices[i].y) + f64::from(vertices[i + 1].y) - 2.0 * oy;
        cx += d * sx;
        cy += d * sy;
        twice_area += d;
    }
    debug_assert!(twice_area > 0.0, "checked by check_placed_vertices");
    let scale = 1.0 / (3.0 * twice_area);
    Vec2::new((ox + cx * scale) as f32, (oy + cy * scale) as f32)
}

/// Makes a polygon from a hull with a rounding radius (metres, in `[0, HUGE]`).
///
/// # Errors
/// As [`make_offset_polygon`]; never for a hull from
/// [`compute_hull`](super::compute_hull) and a valid radius.
///
/// Box2D: `b2MakePolygon`.
pub fn make_polygon(hull: &Hull, radius: f32) -> Result<Polygon> {
    make_offset_polygon(hull, Transform::IDENTITY, radius)
}

/// Makes a polygon from a hull whose points are then moved by `xf` (the polygon's
/// placement in its body's frame), with a rounding radius (metres, in `[0, HUGE]`).
///
/// # Errors
/// - [`Error::NonFinite`] / [`Error::OutOfRange`] for a bad radius or transform, or
///   a placed vertex beyond `±HUGE`.
/// - [`Error::InvalidGeometry`] when the placed vertices, rounded to `f32`, are no
///   longer strictly convex (a thin hull far from the origin).
///
/// Box2D: `b2MakeOffsetPolygon`, `b2MakeOffsetRoundedPolygon`.
pub fn make_offset_polygon(hull: &Hull, xf: Transform, radius: f32) -> Result<Polygon> {
    check_radius(radius, "polygon radius")?;
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
    let mut placed = [Vec2::ZERO; MAX_POLYGON_VERTICES];
    for (v, &h) in placed.iter_mut().zip(&hull.points[..n]) {
        *v = xf.apply(h);
    }
    make_polygon_from_placed(&placed[..n], radius)
}

/// Makes a polygon from vertices already in place, in order: 3 to 8 of them,
/// strictly convex and counter-clockwise, each within `±HUGE`, with a rounding
/// radius in `[0, HUGE]` (metres). Normals and centroid are computed from the
/// vertices.
pub(crate) fn make_polygon_from_placed(placed: &[Vec2], radius: f32) -> Result<Polygon> {
    check_radius(radius, "polygon radius")?;
    let n = placed.len();
    if !(3..=MAX_POLYGON_VERTICES).contains(&n) {
        return Err(Error::InvalidGeometry("a polygon needs 3 to 8 vertices"));
    }
    check_placed_vertices(placed)?;
    let normals = edge_normals(placed)?;
    let mut vertices = [Vec2::ZERO; MAX_POLYGON_VERTICES];
    vertices[..n].copy_from_slice(placed);
    Ok(Polygon {
        vertices,
        normals,
        centroid: polygon_centroid(placed),
        radius,
        count: n,
    })
}

/// Checks box half-extents: finite, positive and at most `HUGE` (Box2D's
/// `b2MakeBox` asks only for positive numbers; a box thinner than the linear
/// slop, such as the 2 mm card of Box2D's card house, is valid). That its
/// edges are long enough to have a direction is checked on the placed corners
/// (see [`edge_normals`]).
fn check_box_half_extents(hx: f32, hy: f32) -> Result<()> {
    check_in_range(hx, "box half-width")?;
    check_in_range(hy, "box half-height")?;
    if hx <= 0.0 || hy <= 0.0 {
        return Err(Error::InvalidGeometry("box half-extents must be positive"));
    }
    Ok(())
}

/// The outward unit normal of every edge of placed, counter-clockwise
/// vertices. Each edge must be at least `f32::EPSILON` long (as Box2D's
/// `b2MakePolygon` asserts): a shorter one has no direction in `f32`.
fn edge_normals(vertices: &[Vec2]) -> Result<[Vec2; MAX_POLYGON_VERTICES]> {
    let n = vertices.len();
    let mut normals = [Vec2::ZERO; MAX_POLYGON_VERTICES];
    for i in 0..n {
        let edge = vertices[(i + 1) % n] - vertices[i];
        let normal = edge.right_perp().normalize();
        if normal == Vec2::ZERO {
            return Err(Error::InvalidGeometry(
                "a polygon edge is shorter than f32::EPSILON (1.2e-7 m)",
            ));
        }
        normals[i] = normal;
    }
    Ok(normals)
}

/// Makes an axis-aligned box centred on the origin from its half-width and
/// half-height (metres, each positive and at most `HUGE`; a 2 mm card,
/// `make_box(0.001, 0.2)`, is fine).
///
/// # Errors
/// See [`make_offset_rounded_box`].
///
/// Box2D: `b2MakeBox`.
pub fn make_box(hx: f32, hy: f32) -> Result<Polygon> {
    make_offset_rounded_box(hx, hy, Vec2::ZERO, Rot::IDENTITY, 0.0)
}

/// Makes a square centred on the origin with half-width `h` (metres).
///
/// Box2D: `b2MakeSquare`.
pub fn make_square(h: f32) -> Result<Polygon> {
    make_box(h, h)
}

/// Makes a box with rounded corners: a core box of half-extents `hx`, `hy` grown by
/// `radius` (all metres).
///
/// Box2D: `b2MakeRoundedBox`.
pub fn make_rounded_box(hx: f32, hy: f32, radius: f32) -> Result<Polygon> {
    make_offset_rounded_box(hx, hy, Vec2::ZERO, Rot::IDENTITY, radius)
}

/// Makes a box of half-extents `hx`, `hy` (metres) centred at `center` and
/// rotated by `rotation`, in the body's frame.
///
/// Box2D: `b2MakeOffsetBox`.
pub fn make_offset_box(hx: f32, hy: f32, center: Vec2, rotation: Rot) -> Result<Polygon> {
    make_offset_rounded_box(hx, hy, center, rotation, 0.0)
}

/// Makes a rounded box of half-extents `hx`, `hy` and rounding `radius` (metres)
/// centred at `center` and rotated by `rotation`, in the body's frame.
///
/// # Errors
/// - [`Error::NonFinite`] / [`Error::OutOfRange`] for non-finite numbers, a centre,
///   half-extent, radius or placed corner beyond `±HUGE`, or a negative radius.
/// - [`Error::InvalidGeometry`] for a half-extent that is not positive, an edge
///   shorter than `f32::EPSILON`, or corners that rounding to `f32` leaves not
///   strictly convex (a tiny box far from the origin).
///
/// Box2D: `b2MakeOffsetRoundedBox`.
pub fn make_offset_rounded_box(
    hx: f32,
    hy: f32,
    center: Vec2,
    rotation: Rot,
    radius: f32,
) -> Result<Polygon> {
    check_box_half_extents(hx, hy)?;
    check_radius(radius, "box radius")?;
    check_point(center, "box center")?;
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
    let mut vertices = [Vec2::ZERO; MAX_POLYGON_VERTICES];
    for i in 0..4 {
        vertices[i] = xf.apply(corners[i]);
    }
    check_placed_vertices(&vertices[..4])?;
    // Normals from the placed corners, as every other polygon constructor does,
    // not the rotated axes (Box2D's choice): far from the centre's origin the
    // corners are rounded to the spacing of `f32` there (8 mm at 1e5 m), which
    // for a box a few centimetres wide turns its edges by degrees; the contact
    // functions clip against the normals as if they were the edges', and a
    // 3° mismatch on a box rounded by 92 km put a contact 4.8 km off.
    let normals = edge_normals(&vertices[..4])?;
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

    /// A box a few centimetres wide far from the origin: its corners round to
    /// the `f32` spacing there (7.8 mm at 9e4 m), and each normal must still be
    /// the unit outward normal of the edge as stored (the contact functions clip
    /// against it), whatever the rotation.
    #[test]
    fn far_small_box_normals_are_its_edges_normals() {
        for k in 0..64 {
            let rotation = Rot::from_angle(0.1 * k as f32);
            let Ok(b) =
                make_offset_rounded_box(0.03, 0.03, Vec2::new(92544.33, -7.0e4), rotation, 9.0e4)
            else {
                continue;
            };
            for i in 0..4 {
                let e = b.vertices()[(i + 1) % 4] - b.vertices()[i];
                let n = b.normals()[i];
                assert!((n.length() - 1.0).abs() < 1e-6);
                assert!(
                    n.dot(e).abs() <= 1e-6 * e.length(),
                    "rotation {k}, edge {i}"
                );
                assert!(
                    n.cross(e) > 0.0,
                    "rotation {k}, edge {i} normal points inward"
                );
            }
        }
    }

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

    /// Box2D's card house card, 2 mm by 40 cm (thinner than a linear slop):
    /// accepted, with the corners, normals and centroid of the box.
    #[test]
    fn thin_card_is_a_valid_box() {
        let card = make_box(0.001, 0.2).unwrap();
        assert_eq!(card.vertices()[0], Vec2::new(-0.001, -0.2));
        assert_eq!(card.vertices()[2], Vec2::new(0.001, 0.2));
        assert_eq!(card.normals()[0], Vec2::new(0.0, -1.0));
        assert_eq!(card.normals()[1], Vec2::new(1.0, 0.0));
        assert_eq!(card.centroid(), Vec2::ZERO);
        let leaning = make_offset_box(0.001, 0.2, Vec2::new(0.3, 0.2), Rot::from_angle(0.4));
        assert!(leaning.is_ok(), "{leaning:?}");
        // The thinnest box with edges longer than f32::EPSILON.
        assert!(make_box(1.0e-7, 0.2).is_ok());
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
        assert!(make_box(1.0, -0.0).is_err());
        // Edges shorter than f32::EPSILON have no direction.
        assert!(matches!(
            make_box(1.0e-8, 1.0),
            Err(Error::InvalidGeometry(_))
        ));
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

    fn out_of_range<T: std::fmt::Debug>(r: Result<T>) -> bool {
        matches!(r, Err(Error::OutOfRange { .. }))
    }

    #[test]
    fn constructors_reject_numbers_beyond_huge() {
        let far = Vec2::new(0.0, 1.0e20);
        let just_beyond = Vec2::new(-100_001.0, 0.0);
        assert!(out_of_range(Circle::new(just_beyond, 1.0)));
        assert!(out_of_range(Circle::new(Vec2::ZERO, 2.0 * HUGE)));
        assert!(Circle::new(Vec2::new(HUGE, -HUGE), HUGE).is_ok());
        assert!(out_of_range(Capsule::new(Vec2::ZERO, far, 0.5)));
        assert!(out_of_range(Capsule::new(Vec2::ZERO, Vec2::X, 1.0e6)));
        assert!(out_of_range(Segment::new(far, Vec2::new(0.0, 118.0))));
        assert!(out_of_range(Segment::new(Vec2::ZERO, just_beyond)));
        let segment = Segment::new(Vec2::ZERO, Vec2::X).unwrap();
        assert!(out_of_range(ChainSegment::new(far, segment, Vec2::Y)));
        assert!(out_of_range(ChainSegment::new(
            Vec2::Y,
            segment,
            just_beyond
        )));
        assert!(out_of_range(make_box(2.0e5, 1.0)));
        assert!(out_of_range(make_rounded_box(1.0, 1.0, 2.0e5)));
        assert!(out_of_range(make_offset_box(
            1.0,
            1.0,
            just_beyond,
            Rot::IDENTITY
        )));
        // Centre within range, but a corner at x = 99_999.5 + 1 lies beyond it.
        assert!(out_of_range(make_offset_box(
            1.0,
            1.0,
            Vec2::new(99_999.5, 0.0),
            Rot::IDENTITY
        )));
        assert!(make_box(HUGE, HUGE).is_ok());

        let hull = crate::collision::compute_hull(&[
            Vec2::new(0.0, 0.0),
            Vec2::new(1.0, 0.0),
            Vec2::new(0.0, 1.0),
        ])
        .unwrap();
        assert!(out_of_range(make_polygon(&hull, 1.0e6)));
        let moved = Transform::new(Vec2::new(99_999.5, 0.0), Rot::IDENTITY);
        assert!(out_of_range(make_offset_polygon(&hull, moved, 0.0)));
        let inside = Transform::new(Vec2::new(99_998.5, 0.0), Rot::IDENTITY);
        assert!(make_offset_polygon(&hull, inside, 0.0).is_ok());
    }

    #[test]
    fn tiny_box_far_from_the_origin_is_rejected() {
        // Near 1e5 adjacent f32 values are 1/128 m apart: 99_999 ± 0.003 both round
        // to 99_999, so the box's corners collapse onto a vertical line.
        let r = make_offset_box(0.003, 0.003, Vec2::new(99_999.0, 0.0), Rot::IDENTITY);
        assert!(matches!(r, Err(Error::InvalidGeometry(_))), "{r:?}");
        // The same box near the origin is fine.
        assert!(make_offset_box(0.003, 0.003, Vec2::new(1.0, 0.0), Rot::IDENTITY).is_ok());
    }

    #[test]
    fn placed_vertices_must_be_strictly_convex_and_counter_clockwise() {
        let v = Vec2::new;
        let square = [v(0.0, 0.0), v(1.0, 0.0), v(1.0, 1.0), v(0.0, 1.0)];
        assert!(check_placed_vertices(&square).is_ok());
        let clockwise = [v(0.0, 0.0), v(0.0, 1.0), v(1.0, 1.0), v(1.0, 0.0)];
        assert!(check_placed_vertices(&clockwise).is_err());
        // A straight corner at (1, 0) and a reflex one at (0.5, 0.6).
        let straight = [v(0.0, 0.0), v(1.0, 0.0), v(2.0, 0.0), v(1.0, 1.0)];
        assert!(check_placed_vertices(&straight).is_err());
        let reflex = [
            v(0.0, 0.0),
            v(1.0, 0.0),
            v(1.0, 1.0),
            v(0.5, 0.6),
            v(0.0, 1.0),
        ];
        assert!(check_placed_vertices(&reflex).is_err());
        // All left turns, but winding twice (a pentagram).
        let star = [
            v(0.0, 1.0),
            v(-0.59, -0.81),
            v(0.95, 0.31),
            v(-0.95, 0.31),
            v(0.59, -0.81),
        ];
        assert!(check_placed_vertices(&star).is_err());
    }

    #[test]
    fn orient_is_exact_where_f32_cross_is_round_off() {
        // c lies one f32 step (1/128 m at 65_536) left of the line a → b along
        // y = x. Exactly, (b − a) × (c − a) = 196_608 · (1/128) = 1536. In f32,
        // c − a = (163_840, 163_840 + 1/128) cannot hold the 1/128 (steps there
        // are 1/64), so the f32 cross product is 0 or 3072, never 1536.
        let a = Vec2::new(-98_304.0, -98_304.0);
        let b = Vec2::new(98_304.0, 98_304.0);
        let c = Vec2::new(65_536.0, 65_536.0 + 1.0 / 128.0);
        assert_eq!(orient(a, b, c), 1536.0);
        assert_ne!((b - a).cross(c - a), 1536.0);
        assert!(orient(a, c, b) < 0.0);
    }

    #[test]
    fn centroid_of_triangle() {
        let v = crate::test_points::points([[0.0, 0.0], [3.0, 0.0], [0.0, 3.0]]);
        let c = polygon_centroid(&v);
        assert!((c - Vec2::new(1.0, 1.0)).length() < 1e-6);
    }
}
