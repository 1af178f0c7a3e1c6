//! The weld joint: glues two bodies together at an anchor, keeping their
//! relative angle. Each half (linear, angular) is rigid by default (then it
//! uses the joint stiffness and corrects position only in the bias pass) or
//! a spring with its own stiffness in hertz (then it acts in both passes).
//!
//! - angle: `C = θ_b − θ_a − θ_ref`, `J = [0, −1, 0, 1]`;
//! - point: `C = p_b + r_b − p_a − r_a`, a 2×2 block.
//!
//! # References
//! - E. Catto, Box2D v3 `weld_joint.c`.

use crate::body::BodyState;
use crate::error::{Result, check_finite};
use crate::math::Vec2;
use crate::solver::StepContext;
use crate::solver::softness::Softness;

use super::axial::spring_impulse;
use super::pair::{Pair, WarmStart, invert, warm_start_point};
use super::solver::SolvePass;
use super::{JointBase, JointDef, check_non_negative};

joint_def! {
    /// A weld joint definition.
    ///
    /// Box2D: `b2DefaultWeldJointDef`.
    pub struct WeldJointDef("weld joint") {
        /// Bodies, anchors and common settings.
        ///
        /// Box2D: `b2WeldJointDef.base`.
        pub base: JointDef;
        /// Angle of body B minus angle of body A that the joint keeps, radians.
        ///
        /// Box2D v3.1: `b2WeldJointDef.referenceAngle` (v3.2 keeps it in `b2JointDef.localFrameB`).
        pub reference_angle: f32 = 0.0, check_finite("weld reference angle");
        /// Stiffness of the linear part, Hz (≥ 0; zero is rigid).
        ///
        /// Box2D: `b2WeldJointDef.linearHertz`.
        pub linear_hertz: f32 = 0.0, check_non_negative("weld linear hertz");
        /// Damping ratio of the linear part (≥ 0).
        ///
        /// Box2D: `b2WeldJointDef.linearDampingRatio`.
        pub linear_damping_ratio: f32 = 0.0, check_non_negative("weld linear damping ratio");
        /// Stiffness of the angular part, Hz (≥ 0; zero is rigid).
        ///
        /// Box2D: `b2WeldJointDef.angularHertz`.
        pub angular_hertz: f32 = 0.0, check_non_negative("weld angular hertz");
        /// Damping ratio of the angular part (≥ 0).
        ///
        /// Box2D: `b2WeldJointDef.angularDampingRatio`.
        pub angular_damping_ratio: f32 = 0.0, check_non_negative("weld angular damping ratio");
    }
}

build_read!(
    WeldJointDef => Weld(WeldJoint), angle = reference_angle,
    copy [linear_hertz, linear_damping_ratio, angular_hertz, angular_damping_ratio]
);

/// Settings, impulses and prepared data of a weld joint.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct WeldJoint {
    pub linear_hertz: f32,
    pub linear_damping_ratio: f32,
    pub angular_hertz: f32,
    pub angular_damping_ratio: f32,

    pub linear_impulse: Vec2,
    pub angular_impulse: f32,

    pub axial_mass: f32,
    pub linear_softness: Softness,
    pub angular_softness: Softness,
}

pub(super) fn prepare(base: &JointBase, j: &mut WeldJoint, ctx: &StepContext) {
    j.axial_mass = invert(base.inv_i_a + base.inv_i_b);
    j.linear_softness = if j.linear_hertz == 0.0 {
        base.softness
    } else {
        Softness::new(j.linear_hertz, j.linear_damping_ratio, ctx.h)
    };
    j.angular_softness = if j.angular_hertz == 0.0 {
        base.softness
    } else {
        Softness::new(j.angular_hertz, j.angular_damping_ratio, ctx.h)
    };
}

#[inline(always)]
pub(super) fn warm_start(base: &JointBase, j: &WeldJoint, states: &[BodyState]) -> WarmStart {
    warm_start_point(base, states, j.linear_impulse, j.angular_impulse)
}

#[inline(always)]
pub(super) fn solve(base: &JointBase, j: &mut WeldJoint, pass: &mut SolvePass) {
    let mut pair = Pair::load(base, pass.states);

    // Angular part: a spring acts in both passes, a rigid weld corrects the
    // angle in the bias pass only.
    let (soft, c) = if pass.use_bias || j.angular_hertz > 0.0 {
        (j.angular_softness, pair.angle(base))
    } else {
        (Softness::RIGID, 0.0)
    };
    let cdot = pair.wb - pair.wa;
    let impulse = spring_impulse(soft, j.axial_mass, c, cdot, &mut j.angular_impulse);
    pair.apply_angular(impulse);

    // Linear part.
    let soft = (pass.use_bias || j.linear_hertz > 0.0).then_some(j.linear_softness);
    pair.solve_point(base, soft, &mut j.linear_impulse);
    pair.store(base, pass.states);
}
