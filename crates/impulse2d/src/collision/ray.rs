//! Ray casts against shapes and point-in-shape tests.
//!
//! # References
//! - E. Catto, Box2D v3 `geometry.c` (`b2RayCast*`).

use crate::math::Vec2;

/// A ray from `origin` along `translation`, clipped at `max_fraction` of the
/// translation. All in the shape's local frame, metres.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct RayCastInput {
    /// Start point, metres.
    pub origin: Vec2,
    /// The full displacement of the ray, metres; the ray ends at `origin + max_fraction·translation`.
    pub translation: Vec2,
    /// The fraction of `translation` to cast, in `[0, 1]` usually.
    pub max_fraction: f32,
}

/// The result of a ray cast or shape cast.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct CastOutput {
    /// Surface normal at the hit point (unit length when `hit`).
    pub normal: Vec2,
    /// Hit point, metres.
    pub point: Vec2,
    /// Fraction of the translation at which the hit occurs.
    pub fraction: f32,
    /// Iterations used (iterative casts only).
    pub iterations: u32,
    /// Whether anything was hit.
    pub hit: bool,
}
