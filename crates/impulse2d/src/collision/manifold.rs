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

use crate::math::Vec2;

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
