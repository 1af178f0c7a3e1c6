//! Mass, centre of mass and rotational inertia of shapes.
//!
//! Density is an area density in kg/m². Every function returns the rotational
//! inertia about the shape's **centre of mass** (as Box2D v3.1+ does); use
//! [`MassData::inertia_about_origin`] for the inertia about the shape's local origin.
//!
//! Rounded polygons are computed **exactly**: the shape is the core polygon, plus
//! one rectangle of depth `radius` on each edge, plus one circular sector at each
//! vertex whose angle is the turn between the neighbouring edge normals (the
//! sectors add up to a full disk). So a rounded polygon's mass is
//! `density · (core area + perimeter · radius + π · radius²)`. Box2D v3 instead
//! approximates it by pushing each vertex out by `1.412 · radius` along its corner
//! bisector, which for a rounded box overestimates the area by about `(4 − π)·r²`;
//! differential tests against Box2D must allow for that difference.
//!
//! # References
//! - E. Catto, Box2D v3 `geometry.c` (`b2Compute*Mass`).
//! - Second moments of a triangle, rectangle and circular sector: any table of area
//!   moments of inertia, with the parallel-axis theorem.

use super::geometry::{Capsule, Circle, Polygon};
use crate::error::{Error, Result, check_non_negative};
use crate::math::{PI, Vec2, atan2};

/// The mass properties of a shape or body.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct MassData {
    /// Mass, kilograms.
    pub mass: f32,
    /// Centre of mass in the shape's (or body's) local frame, metres.
    pub center: Vec2,
    /// Rotational inertia about the centre of mass, kg·m².
    pub rotational_inertia: f32,
}

impl MassData {
    /// The rotational inertia about the local origin (parallel-axis theorem), kg·m².
    #[inline]
    pub fn inertia_about_origin(&self) -> f32 {
        self.rotational_inertia + self.mass * self.center.length_squared()
    }
}

/// A vector in `f64`, for accumulating moments.
#[derive(Clone, Copy, Default)]
struct Vec2d {
    x: f64,
    y: f64,
}

impl Vec2d {
    /// `b − a`, exact for `f32` coordinates within `±HUGE`.
    fn between(a: Vec2, b: Vec2) -> Vec2d {
        Vec2d {
            x: f64::from(b.x) - f64::from(a.x),
            y: f64::from(b.y) - f64::from(a.y),
        }
    }

    fn from_f32(v: Vec2) -> Vec2d {
        Vec2d {
            x: f64::from(v.x),
            y: f64::from(v.y),
        }
    }

    fn dot(self, o: Vec2d) -> f64 {
        self.x * o.x + self.y * o.y
    }

    fn cross(self, o: Vec2d) -> f64 {
        self.x * o.y - self.y * o.x
    }

    fn add(self, o: Vec2d) -> Vec2d {
        Vec2d {
            x: self.x + o.x,
            y: self.y + o.y,
        }
    }

    fn scale(self, s: f64) -> Vec2d {
        Vec2d {
            x: self.x * s,
            y: self.y * s,
        }
    }
}

/// Area, first moment and polar second moment of a region about a reference
/// point, accumulated piece by piece in `f64`: a thin polygon far from the origin
/// has `f32` cross products made mostly of round-off, and the central moment is a
/// difference of two large numbers.
#[derive(Clone, Copy, Default)]
struct Moments {
    /// ∫ dA, m².
    area: f64,
    /// ∫ x dA, m³ (x relative to the reference point).
    first: Vec2d,
    /// ∫ |x|² dA, m⁴.
    second: f64,
}

impl Moments {
    /// Adds a piece given by its area, first moment and polar second moment about
    /// the point `at` (relative to the reference point).
    fn add_about(&mut self, at: Vec2d, area: f64, first: Vec2d, second: f64) {
        self.area += area;
        self.first = self.first.add(at.scale(area)).add(first);
        self.second += second + 2.0 * at.dot(first) + area * at.dot(at);
    }

    /// Mass data for this region at the given density, the reference point being
    /// `origin` in the shape's frame. The area must be positive.
    fn into_mass_data(self, origin: Vec2, density: f32) -> MassData {
        debug_assert!(self.area > 0.0);
        let centroid = self.first.scale(1.0 / self.area);
        let central = self.second - self.area * centroid.dot(centroid);
        let density = f64::from(density);
        MassData {
            mass: (density * self.area) as f32,
            center: Vec2::new(
                (f64::from(origin.x) + centroid.x) as f32,
                (f64::from(origin.y) + centroid.y) as f32,
            ),
            rotational_inertia: ((density * central) as f32).max(0.0),
        }
    }
}

fn check_density(density: f32) -> Result<()> {
    check_non_negative(density, "density")
}

/// Mass properties of a solid circle of the given density (kg/m², finite, ≥ 0):
/// `m = ρπr²`, centre at the circle's centre, `I = m r² / 2`.
///
/// # Errors
/// [`Error::NonFinite`] / [`Error::OutOfRange`] for a non-finite or negative
/// density or radius, or a non-finite centre.
///
/// Box2D: `b2ComputeCircleMass`.
pub fn compute_circle_mass(shape: &Circle, density: f32) -> Result<MassData> {
    check_density(density)?;
    let shape = Circle::new(shape.center, shape.radius)?;
    let rr = shape.radius * shape.radius;
    let mass = density * PI * rr;
    Ok(MassData {
        mass,
        center: shape.center,
        rotational_inertia: 0.5 * mass * rr,
    })
}

/// Mass properties of a solid capsule of the given density (kg/m², finite, ≥ 0):
/// a `2r × L` rectangle plus two half-disks, centre at the segment's midpoint.
///
/// # Errors
/// [`Error::NonFinite`] / [`Error::OutOfRange`] for a non-finite or negative
/// density or radius, or non-finite centres.
///
/// Box2D: `b2ComputeCapsuleMass`.
pub fn compute_capsule_mass(shape: &Capsule, density: f32) -> Result<MassData> {
    check_density(density)?;
    crate::error::check_finite_vec(shape.center1, "capsule center1")?;
    crate::error::check_finite_vec(shape.center2, "capsule center2")?;
    check_non_negative(shape.radius, "capsule radius")?;
    Ok(capsule_mass(
        shape.center1,
        shape.center2,
        shape.radius,
        density,
    ))
}

fn capsule_mass(p1: Vec2, p2: Vec2, radius: f32, density: f32) -> MassData {
    let length = p1.distance(p2);
    let rr = radius * radius;
    let disk_mass = density * PI * rr;
    let box_mass = density * 2.0 * radius * length;
    // Each half-disk's centroid is 4r/(3π) from its flat side, which sits at
    // half the length from the centre. Move the half-disk's inertia from the
    // disk centre to its centroid, then out to the capsule centre:
    // m[(h + c)² − c²] = m(h² + 2hc).
    let h = 0.5 * length;
    let c = 4.0 * radius / (3.0 * PI);
    let disk_inertia = disk_mass * (0.5 * rr + h * h + 2.0 * h * c);
    let box_inertia = box_mass * (4.0 * rr + length * length) / 12.0;
    MassData {
        mass: disk_mass + box_mass,
        center: p1.lerp(p2, 0.5),
        rotational_inertia: disk_inertia + box_inertia,
    }
}

/// Mass properties of a solid convex polygon of the given density (kg/m², finite,
/// ≥ 0), inertia about the centre of mass.
///
/// A rounded polygon is integrated **exactly** as its core, a rectangle of depth
/// `radius` on each edge and a circular sector at each vertex, so its mass is
/// `density · (core area + perimeter · radius + π · radius²)`. (Box2D v3
/// approximates it by pushing the vertices out by `1.412 · radius` along the corner
/// bisectors, which overestimates a rounded box's area by about `(4 − π)·radius²`.)
///
/// # Errors
/// [`Error::NonFinite`] / [`Error::OutOfRange`] for a non-finite or negative density.
/// ([`Error::InvalidGeometry`] for a polygon with no area or a reflex corner, which
/// the polygon constructors never make.)
///
/// Box2D: `b2ComputePolygonMass`.
pub fn compute_polygon_mass(shape: &Polygon, density: f32) -> Result<MassData> {
    check_density(density)?;
    let n = shape.count;
    let radius = shape.radius;
    if n == 2 {
        // The two-vertex polygons used internally for capsules.
        return Ok(capsule_mass(
            shape.vertices[0],
            shape.vertices[1],
            radius,
            density,
        ));
    }
    debug_assert!(n >= 3);
    let vertices = &shape.vertices[..n];
    let normals = &shape.normals[..n];

    // Everything relative to the first vertex to limit round-off far from the origin.
    let origin = vertices[0];
    let mut moments = Moments::default();

    // Core: a fan of triangles (origin, a, b). For a triangle with one corner at
    // the reference point and edges e1, e2 (D = e1 × e2):
    // area = D/2, ∫x = D/6 (e1 + e2), ∫|x|² = D/12 (e1·e1 + e1·e2 + e2·e2).
    for i in 1..n - 1 {
        let e1 = Vec2d::between(origin, vertices[i]);
        let e2 = Vec2d::between(origin, vertices[i + 1]);
        let d = e1.cross(e2);
        moments.area += 0.5 * d;
        moments.first = moments.first.add(e1.add(e2).scale(d / 6.0));
        moments.second += (d / 12.0) * (e1.dot(e1) + e1.dot(e2) + e2.dot(e2));
    }

    if radius > 0.0 {
        let r = f64::from(radius);
        let rr = r * r;
        for i in 0..n {
            // The rectangle on edge i: length L, depth r, centred at the edge
            // midpoint pushed out by r/2. Own polar moment A(L² + r²)/12.
            let a = vertices[i];
            let b = vertices[(i + 1) % n];
            let edge = Vec2d::between(a, b);
            let length_sq = edge.dot(edge);
            let area = length_sq.sqrt() * r;
            let center = Vec2d::between(origin, a)
                .add(edge.scale(0.5))
                .add(Vec2d::from_f32(normals[i]).scale(0.5 * r));
            moments.add_about(
                center,
                area,
                Vec2d::default(),
                area * (length_sq + rr) / 12.0,
            );

            // The sector at vertex i, from the previous edge's normal to this
            // edge's normal, turning counter-clockwise by θ. About the vertex:
            // area θr²/2, ∫|x|² = θr⁴/4, and ∫x = (2/3) r³ sin(θ/2) along the
            // bisector, which equals (r³/3) · right_perp(n_next − n_prev).
            // The turn comes from the edges in f64 (its sign is exact); a corner
            // of a long thin polygon can turn by less than the f32 normals resolve.
            let prev = Vec2d::between(vertices[(i + n - 1) % n], a);
            let turn_sin = prev.cross(edge);
            if turn_sin < 0.0 {
                return Err(Error::InvalidGeometry("polygon has a reflex corner"));
            }
            let theta = f64::from(atan2(turn_sin as f32, prev.dot(edge) as f32).max(0.0));
            let n_prev = normals[(i + n - 1) % n];
            let n_next = normals[i];
            let first = Vec2d::from_f32((n_next - n_prev).right_perp()).scale(r * rr / 3.0);
            moments.add_about(
                Vec2d::between(origin, a),
                0.5 * theta * rr,
                first,
                0.25 * theta * rr * rr,
            );
        }
    }

    if moments.area.is_nan() || moments.area <= 0.0 {
        // Unreachable for a polygon made by the constructors, which check that
        // the placed vertices are strictly convex.
        return Err(Error::InvalidGeometry("polygon has no area"));
    }
    Ok(moments.into_mass_data(origin, density))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::collision::{
        compute_hull, make_box, make_offset_box, make_polygon, make_rounded_box,
    };
    use crate::math::Rot;

    fn close(a: f32, b: f32, rel: f32) -> bool {
        (a - b).abs() <= rel * a.abs().max(b.abs()).max(1e-6)
    }

    #[test]
    fn unit_circle() {
        let c = Circle::new(Vec2::new(1.0, -2.0), 1.0).unwrap();
        let m = compute_circle_mass(&c, 1.0).unwrap();
        assert!(close(m.mass, PI, 1e-6));
        assert!(close(m.rotational_inertia, PI / 2.0, 1e-6));
        assert_eq!(m.center, Vec2::new(1.0, -2.0));
        // About the origin: add m·|c|² = 5π.
        assert!(close(m.inertia_about_origin(), PI / 2.0 + 5.0 * PI, 1e-6));
    }

    #[test]
    fn box_2_by_1_density_2() {
        // Width 2, height 1 → area 2, mass 4, I = m(w² + h²)/12 = 4·5/12.
        let b = make_box(1.0, 0.5).unwrap();
        let m = compute_polygon_mass(&b, 2.0).unwrap();
        assert!(close(m.mass, 4.0, 1e-6));
        assert!(m.center.length() < 1e-6);
        assert!(close(m.rotational_inertia, 4.0 * 5.0 / 12.0, 1e-5));
    }

    #[test]
    fn offset_rotated_box_has_same_central_inertia() {
        let b = make_offset_box(1.0, 0.5, Vec2::new(3.0, -4.0), Rot::from_angle(0.7)).unwrap();
        let m = compute_polygon_mass(&b, 2.0).unwrap();
        assert!(close(m.mass, 4.0, 1e-5));
        assert!((m.center - Vec2::new(3.0, -4.0)).length() < 1e-5);
        assert!(close(m.rotational_inertia, 4.0 * 5.0 / 12.0, 1e-4));
        assert!(close(
            m.inertia_about_origin(),
            5.0 / 3.0 + 4.0 * 25.0,
            1e-5
        ));
    }

    #[test]
    fn right_triangle() {
        // Legs 3 (x) and 6 (y) from the origin: area 9, centroid (1, 2).
        // About the right-angle corner: Ix = b h³/12 = 3·216/12 = 54 (∫y²),
        // Iy = h b³/12 = 6·27/12 = 13.5 (∫x²); polar 67.5. Central: 67.5 − 9·5 = 22.5.
        let hull = compute_hull(&[
            Vec2::new(0.0, 0.0),
            Vec2::new(3.0, 0.0),
            Vec2::new(0.0, 6.0),
        ])
        .unwrap();
        let p = make_polygon(&hull, 0.0).unwrap();
        let m = compute_polygon_mass(&p, 1.0).unwrap();
        assert!(close(m.mass, 9.0, 1e-6));
        assert!((m.center - Vec2::new(1.0, 2.0)).length() < 1e-5);
        assert!(close(m.rotational_inertia, 22.5, 1e-5));
    }

    #[test]
    fn polygon_mass_does_not_depend_on_start_vertex() {
        let pts = [
            Vec2::new(0.0, 0.0),
            Vec2::new(2.0, -0.5),
            Vec2::new(3.0, 1.0),
            Vec2::new(1.5, 2.5),
            Vec2::new(-0.5, 1.5),
        ];
        let base = compute_polygon_mass(
            &make_polygon(&compute_hull(&pts).unwrap(), 0.1).unwrap(),
            1.5,
        )
        .unwrap();
        for shift in 1..pts.len() {
            let mut rotated = pts;
            rotated.rotate_left(shift);
            let hull = compute_hull(&rotated).unwrap();
            let m = compute_polygon_mass(&make_polygon(&hull, 0.1).unwrap(), 1.5).unwrap();
            assert!(close(m.mass, base.mass, 1e-5));
            assert!((m.center - base.center).length() < 1e-5);
            assert!(close(m.rotational_inertia, base.rotational_inertia, 1e-5));
        }
    }

    /// Capsule as rectangle + two half-disks, each half-disk moved to its centroid
    /// and then to the capsule centre with the parallel-axis theorem.
    fn capsule_reference(length: f32, r: f32, density: f32) -> (f32, f32) {
        let rect_mass = density * 2.0 * r * length;
        let rect_i = rect_mass * (length * length + 4.0 * r * r) / 12.0;
        let half_mass = density * 0.5 * PI * r * r;
        let c = 4.0 * r / (3.0 * PI);
        let half_about_own_centroid = half_mass * 0.5 * r * r - half_mass * c * c;
        let offset = 0.5 * length + c;
        let half_i = half_about_own_centroid + half_mass * offset * offset;
        (rect_mass + 2.0 * half_mass, rect_i + 2.0 * half_i)
    }

    #[test]
    fn capsule_matches_rectangle_plus_half_disks() {
        let cap = Capsule::new(Vec2::new(-1.0, 2.0), Vec2::new(2.0, 6.0), 0.5).unwrap();
        let m = compute_capsule_mass(&cap, 3.0).unwrap();
        let (mass, inertia) = capsule_reference(5.0, 0.5, 3.0);
        assert!(close(m.mass, mass, 1e-6));
        assert!(close(m.rotational_inertia, inertia, 1e-5));
        assert!((m.center - Vec2::new(0.5, 4.0)).length() < 1e-6);
    }

    #[test]
    fn rounded_box_is_exact() {
        // Core 2hx × 2hy = 2 × 1, r = 0.25, density 2.
        let (hx, hy, r, rho) = (1.0f32, 0.5f32, 0.25f32, 2.0f32);
        let p = make_rounded_box(hx, hy, r).unwrap();
        let m = compute_polygon_mass(&p, rho).unwrap();
        let area = 4.0 * hx * hy + 2.0 * (2.0 * hx + 2.0 * hy) * r + PI * r * r;
        assert!(close(m.mass, rho * area, 1e-6));
        assert!(m.center.length() < 1e-6);

        // Inertia: the cross of two rectangles, minus their overlap (the core),
        // plus four quarter disks at the corners.
        let rect = |w: f32, h: f32| rho * w * h * (w * w + h * h) / 12.0;
        let cross = rect(2.0 * hx + 2.0 * r, 2.0 * hy) + rect(2.0 * hx, 2.0 * hy + 2.0 * r)
            - rect(2.0 * hx, 2.0 * hy);
        let q_mass = rho * 0.25 * PI * r * r;
        // Quarter disk: polar moment about its corner q_mass·r²/2; centroid at
        // 4r/(3π) along both axes from the corner, outward.
        let c = 4.0 * r / (3.0 * PI);
        let q_own = q_mass * 0.5 * r * r - q_mass * 2.0 * c * c;
        let dx = hx + c;
        let dy = hy + c;
        let quarters = 4.0 * (q_own + q_mass * (dx * dx + dy * dy));
        assert!(close(m.rotational_inertia, cross + quarters, 1e-5));
    }

    /// Midpoint-rule integration over a grid, using the rounded polygon's exact
    /// distance to its core as the membership test.
    #[test]
    fn rounded_triangle_matches_numerical_integration() {
        let pts = crate::test_points::points([[0.0, 0.0], [2.0, 0.3], [0.4, 1.6]]);
        let r = 0.3;
        let p = make_polygon(&compute_hull(&pts).unwrap(), r).unwrap();
        let m = compute_polygon_mass(&p, 1.0).unwrap();

        let inside = |q: Vec2| {
            let v = p.vertices();
            let nrm = p.normals();
            let mut best = f32::MAX;
            let mut all_in = true;
            for i in 0..3 {
                let a = v[i];
                let b = v[(i + 1) % 3];
                if nrm[i].dot(q - a) > 0.0 {
                    all_in = false;
                }
                let e = b - a;
                let t = ((q - a).dot(e) / e.dot(e)).clamp(0.0, 1.0);
                best = best.min(q.distance(a + t * e));
            }
            all_in || best <= r
        };
        let (x0, x1, y0, y1) = (-0.5f64, 2.5f64, -0.5f64, 2.1f64);
        let cells = 1200;
        let hx = (x1 - x0) / cells as f64;
        let hy = (y1 - y0) / cells as f64;
        let (mut area, mut sx, mut sy, mut sxx) = (0.0f64, 0.0f64, 0.0f64, 0.0f64);
        for i in 0..cells {
            for j in 0..cells {
                let x = x0 + (i as f64 + 0.5) * hx;
                let y = y0 + (j as f64 + 0.5) * hy;
                if inside(Vec2::new(x as f32, y as f32)) {
                    area += 1.0;
                    sx += x;
                    sy += y;
                    sxx += x * x + y * y;
                }
            }
        }
        let da = hx * hy;
        let (cx, cy) = (sx / area, sy / area);
        let central = sxx * da - area * da * (cx * cx + cy * cy);
        area *= da;
        assert!(close(m.mass, area as f32, 2e-3), "{} vs {area}", m.mass);
        assert!((m.center - Vec2::new(cx as f32, cy as f32)).length() < 2e-3);
        assert!(close(m.rotational_inertia, central as f32, 3e-3));
    }

    /// A 100 km × 2 cm box, rotated: the f32 fan's cross products (≈ 1e10 m²,
    /// rounding ≈ 1e3 m²) are as large as its area (2e3 m²). The mass must match
    /// the shoelace area of the placed (f32) vertices, summed about the world
    /// origin in f64 (a different decomposition from the fan about vertex 0).
    #[test]
    fn thin_rotated_box_far_out_has_the_area_of_its_vertices() {
        for angle in [0.3f32, 1.1, 2.0, -0.7] {
            let b = make_offset_box(
                50_000.0,
                0.01,
                Vec2::new(-20.0, 30.0),
                Rot::from_angle(angle),
            )
            .unwrap();
            let v = b.vertices();
            let mut twice_area = 0.0f64;
            for i in 0..4 {
                let (p, q) = (v[i], v[(i + 1) % 4]);
                twice_area += f64::from(p.x) * f64::from(q.y) - f64::from(q.x) * f64::from(p.y);
            }
            let area = 0.5 * twice_area;
            // Rounding each corner to f32 (steps of 1/256 m near 5e4) moves the
            // area by at most a few hundred m² from the ideal 2000 m².
            assert!((area - 2000.0).abs() < 800.0, "{area}");
            let m = compute_polygon_mass(&b, 1.0).unwrap();
            assert!(
                (f64::from(m.mass) - area).abs() <= 1e-5 * area,
                "mass {} vs area {area} at angle {angle}",
                m.mass
            );
            // Centre of mass within a metre of the box centre; inertia ≈ m·L²/12.
            assert!((m.center - Vec2::new(-20.0, 30.0)).length() < 1.0);
            let expected_inertia = area as f32 * 1.0e10 / 12.0;
            assert!(close(m.rotational_inertia, expected_inertia, 1e-3));
        }
    }

    #[test]
    fn zero_density_gives_zero_mass() {
        let m = compute_polygon_mass(&make_box(1.0, 1.0).unwrap(), 0.0).unwrap();
        assert_eq!(m.mass, 0.0);
        assert_eq!(m.rotational_inertia, 0.0);
    }

    #[test]
    fn rejects_bad_density_and_shapes() {
        let c = Circle::new(Vec2::ZERO, 1.0).unwrap();
        assert!(matches!(
            compute_circle_mass(&c, -1.0),
            Err(Error::OutOfRange { .. })
        ));
        assert!(matches!(
            compute_circle_mass(&c, f32::NAN),
            Err(Error::NonFinite { .. })
        ));
        assert!(compute_circle_mass(&c, f32::INFINITY).is_err());
        let bad = Circle {
            center: Vec2::new(f32::NAN, 0.0),
            radius: 1.0,
        };
        assert!(compute_circle_mass(&bad, 1.0).is_err());
        let cap = Capsule::new(Vec2::ZERO, Vec2::X, 0.5).unwrap();
        assert!(compute_capsule_mass(&cap, -0.5).is_err());
        let bad_cap = Capsule {
            radius: -1.0,
            ..cap
        };
        assert!(compute_capsule_mass(&bad_cap, 1.0).is_err());
        let b = make_box(1.0, 1.0).unwrap();
        assert!(compute_polygon_mass(&b, f32::NEG_INFINITY).is_err());
    }
}
