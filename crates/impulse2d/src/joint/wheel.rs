//! The wheel joint: body B (the wheel) is held on a line through body A (the
//! chassis), sprung along it (the suspension), free to spin and optionally
//! driven by a motor.
//!
//! With `d = p_b + r_b − p_a − r_a`, the axis `u` and its perpendicular `n`
//! turning with body A:
//! - line: `C = n·d = 0`, soft with the joint stiffness;
//! - suspension spring: `C = u·d`, soft with the spring's stiffness;
//! - speculative limits on `u·d`;
//! - motor: `ω_b − ω_a = ω_motor` with `|τ| ≤ τ_max`.
//!
//! # References
//! - E. Catto, Box2D v3 `wheel_joint.c`.

use crate::body::BodyState;
use crate::error::{Result, check_finite};
use crate::math::Vec2;
use crate::solver::StepContext;

use super::axial::{Limit, Motor, Spring, spring_impulse};
use super::pair::{Line, Pair, WarmStart, axial_mass, axis_mass, invert, warm_start_line};
use super::solver::SolvePass;
use super::{JointBase, JointDef, check_axis, check_non_negative, check_range};

joint_def! {
    /// A wheel joint definition. Body A is usually the chassis, body B the
    /// wheel.
    ///
    /// Box2D: `b2DefaultWheelJointDef`.
    pub struct WheelJointDef("wheel") {
        /// Bodies, anchors and common settings.
        ///
        /// Box2D: `b2WheelJointDef.base`.
        pub base: JointDef;
        /// The suspension direction in body A's frame (normalised on creation;
        /// must not be zero). Usually "up" in the chassis frame.
        ///
        /// Box2D v3.1: `b2WheelJointDef.localAxisA` (v3.2 keeps it in `b2JointDef.localFrameA`).
        pub local_axis_a: Vec2 = Vec2::Y, check_axis("wheel axis");
        /// Box2D: `b2WheelJointDef.enableSpring`, `b2WheelJointDef.hertz`,
        /// `b2WheelJointDef.dampingRatio`.
        spring(enable_spring = true, hertz = 1.0, damping_ratio = 0.7);
        /// Box2D: `b2WheelJointDef.enableLimit`, `b2WheelJointDef.lowerTranslation`,
        /// `b2WheelJointDef.upperTranslation`.
        limit(enable_limit = false, lower_translation = 0.0, upper_translation = 0.0) "metres";
        /// Box2D: `b2WheelJointDef.enableMotor`, `b2WheelJointDef.motorSpeed`,
        /// `b2WheelJointDef.maxMotorTorque`.
        motor(enable_motor = false, motor_speed = 0.0, max_motor_torque = 0.0) "rad/s", "N·m";
    }
}

build_read!(WheelJointDef => Wheel(WheelJoint), axis = local_axis_a, copy [], rows [spring, motor, limit]);

/// Settings, impulses and prepared data of a wheel joint.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct WheelJoint {
    /// Suspension spring and travel limits (m) along the axis; the motor
    /// (N·m) turns the wheel.
    pub spring: Spring,
    pub motor: Motor,
    pub limit: Limit,

    /// Impulse of the point-to-line constraint, N·s.
    pub perp_impulse: f32,

    pub perp_mass: f32,
    pub axial_mass: f32,
    pub motor_mass: f32,
}

/// The total impulse along the axis.
pub(super) fn axial_impulse(j: &WheelJoint) -> f32 {
    j.spring.impulse + j.limit.lower_impulse - j.limit.upper_impulse
}

pub(super) fn prepare(base: &JointBase, j: &mut WheelJoint, ctx: &StepContext) {
    let line = Line::prepared(base);
    let (s1, s2) = line.arms(line.axis.left_perp());
    j.perp_mass = axial_mass(base, s1, s2);
    j.axial_mass = axis_mass(base);
    j.motor_mass = invert(base.inv_i_a + base.inv_i_b);
    j.spring.prepare(ctx.h);
}

#[inline(always)]
pub(super) fn warm_start(base: &JointBase, j: &WheelJoint, states: &[BodyState]) -> WarmStart {
    let (perp, angular) = (j.perp_impulse, j.motor.impulse);
    warm_start_line(base, states, axial_impulse(j), perp, angular)
}

#[inline(always)]
pub(super) fn solve(base: &JointBase, j: &mut WheelJoint, pass: &mut SolvePass) {
    let mut pair = Pair::load(base, pass.states);
    let fixed_rotation = pair.ia + pair.ib == 0.0;
    let g = pair.line(base);
    let row = g.axis_row();

    if j.motor.enable && !fixed_rotation {
        let impulse = j.motor.solve(j.motor_mass, pair.wb - pair.wa, pass.ctx.h);
        pair.apply_angular(impulse);
    }

    let mass = j.axial_mass;
    if j.spring.enable {
        row.solve_spring(&mut pair, &mut j.spring, mass, row.position);
    }
    if j.limit.enable {
        row.solve_limit(&mut pair, &mut j.limit, mass, base, pass);
    }

    // Point-to-line constraint.
    let perp = g.perp_row();
    let soft = pass.softness(base);
    let cdot = perp.speed(&pair);
    let impulse = spring_impulse(soft, j.perp_mass, perp.position, cdot, &mut j.perp_impulse);
    perp.apply(&mut pair, impulse);

    pair.store(base, pass.states);
}
