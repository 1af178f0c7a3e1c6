//! The filter joint: applies no force at all; it only stops two bodies from
//! colliding with each other (its `collide_connected` is always `false`). Like
//! every joint it links the two bodies' islands, so they sleep and wake
//! together.
//!
//! # References
//! - E. Catto, Box2D v3 `b2FilterJointDef` (the "null joint" of v3.0).

use crate::error::Result;
use crate::id::JointId;
use crate::math::Transform;
use crate::world::World;

use super::{JointDef, JointKind, JointType};

/// A filter joint definition. Only the bodies, user data and thresholds of
/// `base` matter; `collide_connected` is ignored (always `false`).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(default)
)]
pub struct FilterJointDef {
    /// Bodies and common settings.
    pub base: JointDef,
}

impl FilterJointDef {
    /// Checks every number; the first bad field is named in the error.
    pub fn validate(&self) -> Result<()> {
        self.base.validate()
    }
}

impl World {
    /// Creates a filter joint: the two bodies stop colliding with each other
    /// (their contacts are destroyed). Fails on a stale body id or equal
    /// bodies.
    pub fn create_filter_joint(&mut self, def: &FilterJointDef) -> Result<JointId> {
        def.validate()?;
        let base = JointDef {
            collide_connected: false,
            ..def.base
        };
        let fa = Transform::new(base.local_anchor_a, crate::math::Rot::IDENTITY);
        let fb = Transform::new(base.local_anchor_b, crate::math::Rot::IDENTITY);
        self.create_joint(&base, JointType::Filter, fa, fb, JointKind::Filter)
    }
}
