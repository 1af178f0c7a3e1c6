//! The revolute joint: a shared point (a hinge or pin) with an optional
//! angle limit, motor and rotational spring.
//!
//! Constraints, with `r_a`, `r_b` the anchors relative to the centres of mass
//! and `θ = θ_b − θ_a − θ_ref` the joint angle:
//! - point: `C = p_b + r_b − p_a − r_a = 0`, `J = [−I, −r_a×, I, r_b×]`
//!   (a 2×2 block solve);
//! - spring: `C = θ − θ_target`, soft with its own stiffness;
//! - motor: `θ̇ = ω_motor` with `|τ| ≤ τ_max`;
//! - limits: `θ ≥ θ_lower` and `θ ≤ θ_upper`, speculative.
//!
//! Solve order inside one joint: spring, motor, limits, point, so that the
//! point constraint (the most important) has the last word.
//!
//! # References
//! - E. Catto, Box2D v3 `revolute_joint.c`.

use crate::body::BodyState;
use crate::error::{Result, check_finite};
use crate::math::{Vec2, unwind_angle};
use crate::solver::StepContext;

use super::axial::{Limit, Motor, Spring};
use super::pair::{Pair, WarmStart, invert, warm_start_point};
use super::solver::SolvePass;
use super::{JointBase, JointDef, check_angle, check_non_negative, check_range};

joint_def! {
    /// A revolute joint definition. The anchors in `base` should coincide in
    /// the world when the joint is created.
    ///
    /// Box2D: `b2DefaultRevoluteJointDef`.
    pub struct RevoluteJointDef("revolute") {
        /// Bodies, anchors and common settings.
        ///
        /// Box2D: `b2RevoluteJointDef.base`.
        pub base: JointDef;
        /// Angle of body B minus angle of body A at which the joint angle is
        /// zero, radians (usually their current relative angle).
        ///
        /// Box2D v3.1: `b2RevoluteJointDef.referenceAngle` (v3.2 keeps it in `b2JointDef.localFrameB`).
        pub reference_angle: f32 = 0.0, check_finite("revolute reference angle");
        /// Angle the spring pulls towards, radians in `[−π, π]`.
        ///
        /// Box2D: `b2RevoluteJointDef.targetAngle`.
        pub target_angle: f32 = 0.0, check_angle("revolute target angle");
        /// Box2D: `b2RevoluteJointDef.enableSpring`, `b2RevoluteJointDef.hertz`,
        /// `b2RevoluteJointDef.dampingRatio`.
        spring(enable_spring = false, hertz = 0.0, damping_ratio = 0.0);
        /// Box2D: `b2RevoluteJointDef.enableLimit`, `b2RevoluteJointDef.lowerAngle`,
        /// `b2RevoluteJointDef.upperAngle`.
        limit(enable_limit = false, lower_angle = 0.0, upper_angle = 0.0) "radians in `[−π, π]`", check_angle;
        /// Box2D: `b2RevoluteJointDef.enableMotor`, `b2RevoluteJointDef.motorSpeed`,
        /// `b2RevoluteJointDef.maxMotorTorque`.
        motor(enable_motor = false, motor_speed = 0.0, max_motor_torque = 0.0) "rad/s", "N·m";
    }
}

build_read!(RevoluteJointDef => Revolute(RevoluteJoint), angle = reference_angle, copy [target_angle], rows [spring, motor, limit]);

/// Settings, accumulated impulses and prepared data of a revolute joint.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct RevoluteJoint {
    pub target_angle: f32,
    /// Rotational spring, motor (N·m) and angle limits (rad).
    pub spring: Spring,
    pub motor: Motor,
    pub limit: Limit,

    /// Impulse of the point constraint per substep, N·s.
    pub linear_impulse: Vec2,

    /// `1 / (1/I_a + 1/I_b)`, kg·m².
    pub axial_mass: f32,
}

/// The total impulse about the joint axis.
pub(super) fn axial_impulse(j: &RevoluteJoint) -> f32 {
    j.spring.impulse + j.motor.impulse + j.limit.lower_impulse - j.limit.upper_impulse
}

pub(super) fn prepare(base: &JointBase, j: &mut RevoluteJoint, ctx: &StepContext) {
    j.axial_mass = invert(base.inv_i_a + base.inv_i_b);
    j.spring.prepare(ctx.h);
}

#[inline(always)]
pub(super) fn warm_start(base: &JointBase, j: &RevoluteJoint, states: &[BodyState]) -> WarmStart {
    warm_start_point(base, states, j.linear_impulse, axial_impulse(j))
}

#[inline(always)]
pub(super) fn solve(base: &JointBase, j: &mut RevoluteJoint, pass: &mut SolvePass) {
    let mut pair = Pair::load(base, pass.states);
    // The rows about the axis act only when one is enabled and the bodies
    // can turn; most joints (a joint grid's, a chain's) have none, and
    // their solve is the point row alone.
    let fixed_rotation = pair.ia + pair.ib == 0.0;
    if (j.spring.enable || j.motor.enable || j.limit.enable) && !fixed_rotation {
        solve_axial(base, j, pass, &mut pair);
    }

    // Point constraint, last: it has the last word. In a joint tree the
    // tree's solve, after every colour's joints, takes it (`tree.rs`).
    if !base.in_tree {
        let soft = pass.use_bias.then_some(base.softness);
        pair.solve_point(base, soft, &mut j.linear_impulse);
    }
    pair.store(base, pass.states);
}

/// The spring, motor and limit rows about the axis, in this order, for a
/// joint with at least one of them enabled and bodies that can turn.
#[inline(always)]
fn solve_axial(base: &JointBase, j: &mut RevoluteJoint, pass: &SolvePass, pair: &mut Pair) {
    // The joint angle now (relative rotation of the two current joint
    // frames), only when a spring or limit needs it: it costs an arctangent.
    let angle = if j.spring.enable || j.limit.enable {
        pair.angle(base)
    } else {
        0.0
    };

    if j.spring.enable {
        let c = unwind_angle(angle - j.target_angle);
        let impulse = j.spring.solve(j.axial_mass, c, pair.wb - pair.wa);
        pair.apply_angular(impulse);
    }

    if j.motor.enable {
        let impulse = j.motor.solve(j.axial_mass, pair.wb - pair.wa, pass.ctx.h);
        pair.apply_angular(impulse);
    }

    if j.limit.enable {
        let row = pass.limit_row(base, angle, j.axial_mass);
        let (speed, reversed) = (|p: &Pair| p.wb - p.wa, |p: &Pair| p.wa - p.wb);
        pair.solve_limit(&mut j.limit, &row, speed, reversed, Pair::apply_angular);
    }
}
