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

use super::axial::{Limit, LimitRow, Motor, Spring};
use super::solver::{load, store};
use super::{
    JointBase, JointDef, JointKind, check_axis, check_non_negative, check_range, make_frames,
};

/// A wheel joint definition. Body A is usually the chassis, body B the wheel.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(default)
)]
pub struct WheelJointDef {
    /// Bodies, anchors and common settings.
    pub base: JointDef,
    /// The suspension direction in body A's frame (normalised on creation;
    /// must not be zero). Usually "up" in the chassis frame.
    pub local_axis_a: Vec2,
    /// Whether the suspension spring acts.
    pub enable_spring: bool,
    /// Suspension stiffness, Hz (≥ 0).
    pub hertz: f32,
    /// Suspension damping ratio (≥ 0).
    pub damping_ratio: f32,
    /// Whether the suspension travel is limited.
    pub enable_limit: bool,
    /// Lowest translation along the axis, metres.
    pub lower_translation: f32,
    /// Highest translation along the axis, metres (≥ lower).
    pub upper_translation: f32,
    /// Whether the drive motor acts.
    pub enable_motor: bool,
    /// Target spin of the wheel relative to the chassis, rad/s.
    pub motor_speed: f32,
    /// Largest motor torque, N·m (≥ 0).
    pub max_motor_torque: f32,
}

impl Default for WheelJointDef {
    fn default() -> Self {
        WheelJointDef {
            base: JointDef::default(),
            local_axis_a: Vec2::Y,
            enable_spring: true,
            hertz: 1.0,
            damping_ratio: 0.7,
            enable_limit: false,
            lower_translation: 0.0,
            upper_translation: 0.0,
            enable_motor: false,
            motor_speed: 0.0,
            max_motor_torque: 0.0,
        }
    }
}

impl WheelJointDef {
    /// Checks every number; the first bad field is named in the error.
    pub fn validate(&self) -> Result<()> {
        self.base.validate()?;
        check_axis(self.local_axis_a, "wheel axis")?;
        check_non_negative(self.hertz, "wheel spring hertz")?;
        check_non_negative(self.damping_ratio, "wheel spring damping ratio")?;
        check_range(
            self.lower_translation,
            self.upper_translation,
            "wheel translation limits",
        )?;
        check_finite(self.motor_speed, "wheel motor speed")?;
        check_non_negative(self.max_motor_torque, "wheel max motor torque")?;
        Ok(())
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
    let (ma, ia, mb, ib) = (base.inv_mass_a, base.inv_i_a, base.inv_mass_b, base.inv_i_b);
    let (ra, rb) = (base.frame_a.p, base.frame_b.p);
    let axis = base.frame_a.q.x_axis();
    let perp = axis.left_perp();
    let d = base.delta_center + (rb - ra);

    let s1 = (d + ra).cross(perp);
    let s2 = rb.cross(perp);
    let kp = ma + mb + ia * s1 * s1 + ib * s2 * s2;
    j.perp_mass = if kp > 0.0 { 1.0 / kp } else { 0.0 };

    let a1 = (d + ra).cross(axis);
    let a2 = rb.cross(axis);
    let ka = ma + mb + ia * a1 * a1 + ib * a2 * a2;
    j.axial_mass = if ka > 0.0 { 1.0 / ka } else { 0.0 };

    let km = ia + ib;
    j.motor_mass = if km > 0.0 { 1.0 / km } else { 0.0 };
    j.spring.prepare(ctx.h);

    if !ctx.enable_warm_starting {
        clear_impulses(j);
    }
}

/// Forgets the accumulated impulses (nothing to warm start from).
pub(super) fn clear_impulses(j: &mut WheelJoint) {
    j.perp_impulse = 0.0;
    j.spring.impulse = 0.0;
    j.motor.impulse = 0.0;
    j.limit.reset();
}

pub(super) fn warm_start(base: &JointBase, j: &mut WheelJoint, states: &mut [BodyState]) {
    let sa = load(states, base.index_a);
    let sb = load(states, base.index_b);
    let ra = sa.delta_rotation.rotate(base.frame_a.p);
    let rb = sb.delta_rotation.rotate(base.frame_b.p);
    let d = (sb.delta_position - sa.delta_position) + base.delta_center + (rb - ra);
    let axis = sa.delta_rotation.rotate(base.frame_a.q.x_axis());
    let perp = axis.left_perp();

    let a1 = (d + ra).cross(axis);
    let a2 = rb.cross(axis);
    let s1 = (d + ra).cross(perp);
    let s2 = rb.cross(perp);
    let axial = axial_impulse(j);

    let p = axis * axial + perp * j.perp_impulse;
    let la = axial * a1 + j.perp_impulse * s1 + j.motor.impulse;
    let lb = axial * a2 + j.perp_impulse * s2 + j.motor.impulse;

    let va = Vec2::mul_sub(sa.linear_velocity, base.inv_mass_a, p);
    let wa = sa.angular_velocity - base.inv_i_a * la;
    let vb = Vec2::mul_add(sb.linear_velocity, base.inv_mass_b, p);
    let wb = sb.angular_velocity + base.inv_i_b * lb;
    store(states, base.index_a, va, wa);
    store(states, base.index_b, vb, wb);
}

pub(super) fn solve(
    base: &JointBase,
    j: &mut WheelJoint,
    states: &mut [BodyState],
    ctx: &StepContext,
    use_bias: bool,
) {
    let sa = load(states, base.index_a);
    let sb = load(states, base.index_b);
    let (ma, ia, mb, ib) = (base.inv_mass_a, base.inv_i_a, base.inv_mass_b, base.inv_i_b);
    let (mut va, mut wa) = (sa.linear_velocity, sa.angular_velocity);
    let (mut vb, mut wb) = (sb.linear_velocity, sb.angular_velocity);
    let fixed_rotation = ia + ib == 0.0;

    let ra = sa.delta_rotation.rotate(base.frame_a.p);
    let rb = sb.delta_rotation.rotate(base.frame_b.p);
    let d = (sb.delta_position - sa.delta_position) + base.delta_center + (rb - ra);
    let axis = sa.delta_rotation.rotate(base.frame_a.q.x_axis());
    let translation = axis.dot(d);
    let a1 = (d + ra).cross(axis);
    let a2 = rb.cross(axis);

    if j.motor.enable && !fixed_rotation {
        let impulse = j.motor.solve(j.motor_mass, wb - wa, ctx.h);
        wa -= ia * impulse;
        wb += ib * impulse;
    }

    let apply_axial = |impulse: f32, va: &mut Vec2, wa: &mut f32, vb: &mut Vec2, wb: &mut f32| {
        let p = axis * impulse;
        *va = Vec2::mul_sub(*va, ma, p);
        *wa -= ia * impulse * a1;
        *vb = Vec2::mul_add(*vb, mb, p);
        *wb += ib * impulse * a2;
    };

    if j.spring.enable {
        let cdot = axis.dot(vb - va) + a2 * wb - a1 * wa;
        let impulse = j.spring.solve(j.axial_mass, translation, cdot);
        apply_axial(impulse, &mut va, &mut wa, &mut vb, &mut wb);
    }

    if j.limit.enable {
        let row = LimitRow {
            position: translation,
            mass: j.axial_mass,
            base,
            ctx,
            use_bias,
        };
        let cdot = axis.dot(vb - va) + a2 * wb - a1 * wa;
        let impulse = j.limit.solve_lower(&row, cdot);
        apply_axial(impulse, &mut va, &mut wa, &mut vb, &mut wb);

        let cdot = axis.dot(va - vb) + a1 * wa - a2 * wb;
        let impulse = j.limit.solve_upper(&row, cdot);
        apply_axial(-impulse, &mut va, &mut wa, &mut vb, &mut wb);
    }

    // Point-to-line constraint.
    {
        let perp = axis.left_perp();
        let (bias, mass_scale, impulse_scale) = if use_bias {
            let s = base.softness;
            (s.bias_rate * perp.dot(d), s.mass_scale, s.impulse_scale)
        } else {
            (0.0, 1.0, 0.0)
        };
        let s1 = (d + ra).cross(perp);
        let s2 = rb.cross(perp);
        let cdot = perp.dot(vb - va) + s2 * wb - s1 * wa;
        let impulse = -mass_scale * j.perp_mass * (cdot + bias) - impulse_scale * j.perp_impulse;
        j.perp_impulse += impulse;

        let p = perp * impulse;
        va = Vec2::mul_sub(va, ma, p);
        wa -= ia * impulse * s1;
        vb = Vec2::mul_add(vb, mb, p);
        wb += ib * impulse * s2;
    }

    store(states, base.index_a, va, wa);
    store(states, base.index_b, vb, wb);
}

impl WheelJointDef {
    /// Checks the definition and makes the joint frames and data.
    pub(crate) fn build(&self) -> Result<(Transform, Transform, JointKind)> {
        self.validate()?;
        let (fa, fb) = make_frames(
            self.base.local_anchor_a,
            self.base.local_anchor_b,
            self.local_axis_a,
            0.0,
        );
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
