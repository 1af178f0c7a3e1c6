//! The mover toolkit of character movement, without a world: collision planes
//! between a capsule mover and one shape, the plane solver that finds a
//! translation satisfying a set of planes, and velocity clipping.
//!
//! A character step with these parts (what [`crate::character`] does, and what
//! Box2D's `Mover` sample does): gather the planes the mover touches
//! (`World::collide_mover`), solve them for the wanted translation
//! ([`solve_planes`]), sweep the mover along the solved translation
//! (`World::cast_mover`) so it never passes through anything, repeat a few
//! times, then clip the velocity against the planes that pushed
//! ([`clip_vector`]).
//!
//! Everything is in metres; a plane's normal points from the shape towards the
//! mover and its offset is how far the mover's surface is inside the shape
//! along that normal.
//!
//! # References
//! - E. Catto, Box2D v3.1 `mover.c` (`b2SolvePlanes`, `b2ClipVector`),
//!   `geometry.c` (`b2CollideMoverAnd*`), `docs/character.md`.

use super::distance::{DistanceInput, ShapeProxy, SimplexCache, shape_distance};
use super::geometry::{Capsule, Circle, Polygon, Segment};
use crate::core::LINEAR_SLOP;
use crate::math::{Transform, Vec2};

/// Most passes [`solve_planes`] makes over the planes.
const MAX_PLANE_ITERATIONS: u32 = 20;

/// A line with a side: the points `x` with `normal · x = offset` (metres).
///
/// Box2D's `b2Plane`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Plane {
    /// Unit normal.
    pub normal: Vec2,
    /// Signed distance of the line from the origin along `normal`, metres.
    pub offset: f32,
}

impl Plane {
    /// Whether the normal is finite and of unit length and the offset finite.
    ///
    /// Box2D: `b2IsValidPlane`.
    pub fn is_valid(&self) -> bool {
        self.normal.is_finite() && self.normal.is_normalized() && self.offset.is_finite()
    }

    /// How far `point` lies in front of the plane (negative behind), metres.
    ///
    /// Box2D's `b2PlaneSeparation`.
    #[inline]
    pub fn separation(&self, point: Vec2) -> f32 {
        self.normal.dot(point) - self.offset
    }
}

/// A collision plane between a mover and one shape, as found by
/// `World::collide_mover` or [`collide_mover_and_polygon`] and friends.
///
/// Box2D's `b2PlaneResult`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PlaneResult {
    /// The plane, relative to the mover's current position: its normal points
    /// from the shape to the mover and its offset is the overlap depth
    /// (metres) the mover has to move along the normal to just touch.
    pub plane: Plane,
    /// The point of the shape closest to the mover's core, metres.
    pub point: Vec2,
    /// Whether the mover touches the shape at all; when false ignore the plane.
    pub hit: bool,
}

/// A plane the plane solver has to satisfy, with the push it found.
///
/// Box2D's `b2CollisionPlane`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CollisionPlane {
    /// The plane (normal from the shape to the mover, offset = overlap depth, metres).
    pub plane: Plane,
    /// The most the plane may push the mover, metres: `f32::MAX` makes the plane
    /// rigid, smaller values make it soft.
    pub push_limit: f32,
    /// The push [`solve_planes`] applied along the normal, metres (output).
    pub push: f32,
    /// Whether [`clip_vector`] clips against this plane (false for soft planes).
    pub clip_velocity: bool,
}

impl CollisionPlane {
    /// A rigid plane (no push limit) that clips velocities.
    pub fn rigid(plane: Plane) -> CollisionPlane {
        CollisionPlane {
            plane,
            push_limit: f32::MAX,
            push: 0.0,
            clip_velocity: true,
        }
    }
}

/// What [`solve_planes`] found.
///
/// Box2D's `b2PlaneSolverResult`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PlaneSolverResult {
    /// The translation of the mover that satisfies the planes, metres.
    pub translation: Vec2,
    /// Passes over the planes used (a diagnostic; at most 20).
    pub iteration_count: u32,
}

/// Finds the translation closest to `target_delta` (metres, from the position
/// where the planes were gathered) that keeps the mover in front of every
/// plane, allowing one linear slop of overlap so that resting contact does not
/// jitter. Each plane pushes along its normal, never pulls, and never more than
/// its `push_limit`; the pushes are written back to the planes. Projected
/// Gauss–Seidel, at most 20 passes, stopping when a pass pushes less than the
/// linear slop in total.
///
/// Box2D: `b2SolvePlanes`.
pub fn solve_planes(target_delta: Vec2, planes: &mut [CollisionPlane]) -> PlaneSolverResult {
    for plane in planes.iter_mut() {
        plane.push = 0.0;
    }
    let mut delta = target_delta;
    let mut iteration = 0;
    while iteration < MAX_PLANE_ITERATIONS {
        let mut total_push = 0.0f32;
        for plane in planes.iter_mut() {
            let separation = plane.plane.separation(delta) + LINEAR_SLOP;
            let previous = plane.push;
            plane.push = (previous - separation).clamp(0.0, plane.push_limit);
            let push = plane.push - previous;
            delta = Vec2::mul_add(delta, push, plane.plane.normal);
            total_push += push.abs();
        }
        if total_push < LINEAR_SLOP {
            break;
        }
        iteration += 1;
    }
    PlaneSolverResult {
        translation: delta,
        iteration_count: iteration,
    }
}

/// Removes from `vector` the part that points into the planes that pushed
/// (`push != 0`) and clip (`clip_velocity`), one plane after the other.
///
/// Box2D: `b2ClipVector`.
pub fn clip_vector(vector: Vec2, planes: &[CollisionPlane]) -> Vec2 {
    let mut v = vector;
    for plane in planes {
        if plane.push == 0.0 || !plane.clip_velocity {
            continue;
        }
        let n = plane.plane.normal;
        v = Vec2::mul_sub(v, v.dot(n).min(0.0), n);
    }
    v
}

/// The plane between the mover (its core segment) and the proxy of a shape
/// whose own radius is `shape_radius`, both in one frame.
fn collide_mover_and_proxy(mover: &Capsule, shape: ShapeProxy, shape_radius: f32) -> PlaneResult {
    let mut mover_points = [Vec2::ZERO; crate::core::MAX_POLYGON_VERTICES];
    mover_points[0] = mover.center1;
    mover_points[1] = mover.center2;
    let input = DistanceInput {
        proxy_a: shape,
        proxy_b: ShapeProxy {
            points: mover_points,
            count: 2,
            radius: mover.radius,
        },
        transform_a: Transform::IDENTITY,
        transform_b: Transform::IDENTITY,
        use_radii: false,
    };
    let output = shape_distance(&input, &mut SimplexCache::default());
    let total_radius = mover.radius + shape_radius;
    if output.distance <= total_radius {
        PlaneResult {
            plane: Plane {
                normal: output.normal,
                offset: total_radius - output.distance,
            },
            point: output.point_a,
            hit: true,
        }
    } else {
        PlaneResult::default()
    }
}

/// The collision plane between a mover and a circle in the same frame (no hit
/// when they are apart).
///
/// Box2D's `b2CollideMoverAndCircle`.
pub fn collide_mover_and_circle(mover: &Capsule, circle: &Circle) -> PlaneResult {
    let mut proxy = ShapeProxy::from_circle(circle);
    proxy.radius = 0.0;
    collide_mover_and_proxy(mover, proxy, circle.radius)
}

/// The collision plane between a mover and a capsule in the same frame.
///
/// Box2D's `b2CollideMoverAndCapsule`.
pub fn collide_mover_and_capsule(mover: &Capsule, capsule: &Capsule) -> PlaneResult {
    let mut proxy = ShapeProxy::from_capsule(capsule);
    proxy.radius = 0.0;
    collide_mover_and_proxy(mover, proxy, capsule.radius)
}

/// The collision plane between a mover and a (possibly rounded) polygon in the
/// same frame.
///
/// Box2D's `b2CollideMoverAndPolygon`.
pub fn collide_mover_and_polygon(mover: &Capsule, polygon: &Polygon) -> PlaneResult {
    // As Box2D: the polygon's proxy keeps its rounding radius, the distance is
    // measured without radii, and the rounding counts in the total radius.
    collide_mover_and_proxy(mover, ShapeProxy::from_polygon(polygon), polygon.radius)
}

/// The collision plane between a mover and a segment in the same frame.
///
/// Box2D's `b2CollideMoverAndSegment`.
pub fn collide_mover_and_segment(mover: &Capsule, segment: &Segment) -> PlaneResult {
    collide_mover_and_proxy(mover, ShapeProxy::from_segment(segment), 0.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plane(nx: f32, ny: f32, offset: f32) -> CollisionPlane {
        CollisionPlane::rigid(Plane {
            normal: Vec2::new(nx, ny).normalize(),
            offset,
        })
    }

    #[test]
    fn floor_stops_downward_motion_at_one_slop() {
        // Floor normal +y, mover already one slop deep: a move of (1, -1) keeps
        // x and stays one slop deep (separation + slop = 0).
        let mut planes = [plane(0.0, 1.0, LINEAR_SLOP)];
        let r = solve_planes(Vec2::new(1.0, -1.0), &mut planes);
        assert_eq!(r.translation.x, 1.0);
        assert!(r.translation.y.abs() < 1e-6);
        assert!((planes[0].push - 1.0).abs() < 1e-6);
        let v = clip_vector(Vec2::new(3.0, -2.0), &planes);
        assert_eq!(v, Vec2::new(3.0, 0.0));
    }

    #[test]
    fn corner_of_two_walls_stops_everything() {
        let mut planes = [plane(1.0, 0.0, 0.0), plane(0.0, 1.0, 0.0)];
        let r = solve_planes(Vec2::new(-2.0, -3.0), &mut planes);
        // Each plane keeps the mover at -slop on its side.
        assert!((r.translation.x + LINEAR_SLOP).abs() < 1e-6);
        assert!((r.translation.y + LINEAR_SLOP).abs() < 1e-6);
    }

    #[test]
    fn plane_never_pulls_and_soft_plane_is_limited() {
        let mut planes = [plane(0.0, 1.0, 0.0)];
        let r = solve_planes(Vec2::new(0.0, 2.0), &mut planes);
        assert_eq!(r.translation, Vec2::new(0.0, 2.0));
        assert_eq!(planes[0].push, 0.0);
        let mut soft = [CollisionPlane {
            push_limit: 0.25,
            clip_velocity: false,
            ..plane(0.0, 1.0, 1.0)
        }];
        let r = solve_planes(Vec2::ZERO, &mut soft);
        assert_eq!(r.translation, Vec2::new(0.0, 0.25));
        // A soft plane does not clip.
        assert_eq!(
            clip_vector(Vec2::new(0.0, -1.0), &soft),
            Vec2::new(0.0, -1.0)
        );
    }

    #[test]
    fn mover_on_box_plane() {
        // Capsule standing 0.1 m into a box top at y = 0: normal up, offset 0.1.
        let mover = Capsule {
            center1: Vec2::new(0.0, 0.4),
            center2: Vec2::new(0.0, 1.0),
            radius: 0.5,
        };
        let ground = crate::collision::make_offset_box(
            5.0,
            1.0,
            Vec2::new(0.0, -1.0),
            crate::math::Rot::IDENTITY,
        )
        .unwrap();
        let r = collide_mover_and_polygon(&mover, &ground);
        assert!(r.hit);
        assert!((r.plane.normal.y - 1.0).abs() < 1e-6);
        assert!((r.plane.offset - 0.1).abs() < 1e-6);
        let apart = Capsule {
            center1: Vec2::new(0.0, 0.6),
            ..mover
        };
        assert!(!collide_mover_and_polygon(&apart, &ground).hit);
    }

    #[test]
    fn plane_validity_needs_a_unit_normal_and_a_finite_offset() {
        let plane = |x: f32, y: f32, offset: f32| Plane {
            normal: Vec2::new(x, y),
            offset,
        };
        assert!(plane(0.6, 0.8, -2.0).is_valid());
        assert!(!plane(1.2, 1.6, 0.0).is_valid());
        assert!(!plane(0.0, 0.0, 0.0).is_valid());
        assert!(!plane(f32::NAN, 1.0, 0.0).is_valid());
        assert!(!plane(1.0, 0.0, f32::INFINITY).is_valid());
    }
}
