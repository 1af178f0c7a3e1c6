//! The filter joint: applies no force at all; it only stops two bodies from
//! colliding with each other (its `collide_connected` is always `false`). Like
//! every joint it links the two bodies' islands, so they sleep and wake
//! together.
//!
//! # References
//! - E. Catto, Box2D v3 `b2FilterJointDef` (the "null joint" of v3.0).

use crate::error::Result;
use crate::math::{Rot, Transform};

use super::{JointDef, JointKind};

joint_def! {
    /// A filter joint definition. Only the bodies, user data and thresholds of
    /// `base` matter; `collide_connected` is ignored (always `false`).
    ///
    /// Box2D: `b2DefaultFilterJointDef`.
    pub struct FilterJointDef("filter joint") {
        /// Bodies and common settings.
        ///
        /// Box2D: `b2FilterJointDef.base`.
        pub base: JointDef;
    }
}

impl FilterJointDef {
    /// Checks the definition and makes the joint's settings (it never lets
    /// its bodies collide), frames and data.
    pub(crate) fn build(&self) -> Result<(JointDef, Transform, Transform, JointKind)> {
        self.validate()?;
        let base = JointDef {
            collide_connected: false,
            ..self.base
        };
        let fa = Transform::new(base.local_anchor_a, Rot::IDENTITY);
        let fb = Transform::new(base.local_anchor_b, Rot::IDENTITY);
        Ok((base, fa, fb, JointKind::Filter))
    }
}
