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
use crate::math::{Transform, Vec2};
use crate::solver::StepContext;
use crate::solver::softness::Softness;

use super::axial::{Limit, LimitRow, Motor, Spring, spring_impulse};
use super::pair::{Line, Pair, axial_mass, invert, warm_start_bodies};
use super::{JointBase, JointDef, JointKind, check_axis, check_non_negative, check_range};

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
    let (a1, a2) = line.arms(line.axis);
    j.axial_mass = axial_mass(base, a1, a2);
    j.motor_mass = invert(base.inv_i_a + base.inv_i_b);
    j.spring.prepare(ctx.h);
}

/// Forgets the accumulated impulses (nothing to warm start from).
pub(super) fn clear_impulses(j: &mut WheelJoint) {
    j.perp_impulse = 0.0;
    j.spring.impulse = 0.0;
    j.motor.impulse = 0.0;
    j.limit.reset();
}

#[inline(always)]
pub(super) fn warm_start(base: &JointBase, j: &mut WheelJoint, states: &mut [BodyState]) {
    let g = Pair::load(base, states).line(base);
    let perp = g.axis.left_perp();
    let (a1, a2) = g.arms(g.axis);
    let (s1, s2) = g.arms(perp);
    let axial = axial_impulse(j);
    let p = g.axis * axial + perp * j.perp_impulse;
    let la = axial * a1 + j.perp_impulse * s1 + j.motor.impulse;
    let lb = axial * a2 + j.perp_impulse * s2 + j.motor.impulse;
    warm_start_bodies(base, states, p, la, lb);
}

#[inline(always)]
pub(super) fn solve(
    base: &JointBase,
    j: &mut WheelJoint,
    states: &mut [BodyState],
    ctx: &StepContext,
    use_bias: bool,
) {
    let mut pair = Pair::load(base, states);
    let fixed_rotation = pair.ia + pair.ib == 0.0;
    let g = pair.line(base);
    let axis = g.axis;
    let translation = axis.dot(g.d);
    let (a1, a2) = g.arms(axis);
    let speed = |p: &Pair| p.axial_speed(axis, a1, a2);
    let apply = |p: &mut Pair, impulse: f32| p.apply_axial(impulse, axis, a1, a2);

    if j.motor.enable && !fixed_rotation {
        let impulse = j.motor.solve(j.motor_mass, pair.wb - pair.wa, ctx.h);
        pair.apply_angular(impulse);
    }

    if j.spring.enable {
        let impulse = j.spring.solve(j.axial_mass, translation, speed(&pair));
        apply(&mut pair, impulse);
    }

    if j.limit.enable {
        let row = LimitRow {
            position: translation,
            mass: j.axial_mass,
            base,
            ctx,
            use_bias,
        };
        let reversed = |p: &Pair| axis.dot(p.va - p.vb) + a1 * p.wa - a2 * p.wb;
        pair.solve_limit(&mut j.limit, &row, speed, reversed, apply);
    }

    // Point-to-line constraint.
    let perp = axis.left_perp();
    let (s1, s2) = g.arms(perp);
    let soft = if use_bias {
        base.softness
    } else {
        Softness::RIGID
    };
    let cdot = pair.axial_speed(perp, s1, s2);
    let c = perp.dot(g.d);
    let impulse = spring_impulse(soft, j.perp_mass, c, cdot, &mut j.perp_impulse);
    pair.apply_axial(impulse, perp, s1, s2);

    pair.store(base, states);
}

impl WheelJointDef {
    /// Checks the definition and makes the joint frames and data.
    pub(crate) fn build(&self) -> Result<(Transform, Transform, JointKind)> {
        self.validate()?;
        let (fa, fb) = self.base.frames(self.local_axis_a, 0.0);
        let joint = WheelJoint {
            spring: Spring::new(self.enable_spring, self.hertz, self.damping_ratio),
            motor: Motor::new(self.enable_motor, self.motor_speed, self.max_motor_torque),
            limit: Limit::new(
                self.enable_limit,
                self.lower_translation,
                self.upper_translation,
            ),
            ..WheelJoint::default()
        };
        Ok((fa, fb, JointKind::Wheel(joint)))
    }

    /// The definition an existing joint would be re-created with.
    pub(crate) fn read(base: JointDef, sim: &JointBase, j: &WheelJoint) -> Self {
        WheelJointDef {
            base,
            local_axis_a: sim.local_frame_a.q.x_axis(),
            enable_spring: j.spring.enable,
            hertz: j.spring.hertz,
            damping_ratio: j.spring.damping_ratio,
            enable_limit: j.limit.enable,
            lower_translation: j.limit.lower,
            upper_translation: j.limit.upper,
            enable_motor: j.motor.enable,
            motor_speed: j.motor.speed,
            max_motor_torque: j.motor.max_force,
        }
    }
}
