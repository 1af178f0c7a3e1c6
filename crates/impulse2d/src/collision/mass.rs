//! Mass, centre of mass and rotational inertia of shapes.
//!
//! # References
//! - E. Catto, Box2D v3 `geometry.c` (`b2Compute*Mass`).

use crate::math::Vec2;

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
