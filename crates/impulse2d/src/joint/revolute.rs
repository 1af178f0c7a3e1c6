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
use crate::math::{Mat22, Transform, Vec2, unwind_angle};
use crate::solver::StepContext;

use super::axial::{Limit, LimitRow, Motor, Spring};
use super::solver::{load, store};
use super::{
    JointBase, JointDef, JointKind, check_angle, check_non_negative, check_range, make_frames,
    reference_angle,
};

/// A revolute joint definition. The anchors in `base` should coincide in
/// the world when the joint is created.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(default)
)]
pub struct RevoluteJointDef {
    /// Bodies, anchors and common settings.
    pub base: JointDef,
    /// Angle of body B minus angle of body A at which the joint angle is
    /// zero, radians (usually their current relative angle).
    pub reference_angle: f32,
    /// Angle the spring pulls towards, radians in `[−π, π]`.
    pub target_angle: f32,
    /// Whether the rotational spring acts.
    pub enable_spring: bool,
    /// Spring stiffness, Hz (≥ 0; zero makes it a pure damper).
    pub hertz: f32,
    /// Spring damping ratio (≥ 0, dimensionless).
    pub damping_ratio: f32,
    /// Whether the angle is limited.
    pub enable_limit: bool,
    /// Lower joint angle, radians in `[−π, π]`.
    pub lower_angle: f32,
    /// Upper joint angle, radians in `[−π, π]` (≥ lower).
    pub upper_angle: f32,
    /// Whether the motor acts.
    pub enable_motor: bool,
    /// Target angular speed of B relative to A, rad/s.
    pub motor_speed: f32,
    /// Largest torque the motor applies, N·m (≥ 0). With a zero speed this
    /// is joint friction.
    pub max_motor_torque: f32,
}

impl Default for RevoluteJointDef {
    fn default() -> Self {
        RevoluteJointDef {
            base: JointDef::default(),
            reference_angle: 0.0,
            target_angle: 0.0,
            enable_spring: false,
            hertz: 0.0,
            damping_ratio: 0.0,
            enable_limit: false,
            lower_angle: 0.0,
            upper_angle: 0.0,
            enable_motor: false,
            motor_speed: 0.0,
            max_motor_torque: 0.0,
        }
    }
}

impl RevoluteJointDef {
    /// Checks every number; the first bad field is named in the error.
    pub fn validate(&self) -> Result<()> {
        self.base.validate()?;
        check_finite(self.reference_angle, "revolute reference angle")?;
        check_angle(self.target_angle, "revolute target angle")?;
        check_non_negative(self.hertz, "revolute spring hertz")?;
        check_non_negative(self.damping_ratio, "revolute spring damping ratio")?;
        check_angle(self.lower_angle, "revolute lower angle")?;
        check_angle(self.upper_angle, "revolute upper angle")?;
        check_range(self.lower_angle, self.upper_angle, "revolute angle limits")?;
        check_finite(self.motor_speed, "revolute motor speed")?;
        check_non_negative(self.max_motor_torque, "revolute max motor torque")?;
        Ok(())
    }
}

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
    let k = base.inv_i_a + base.inv_i_b;
    j.axial_mass = if k > 0.0 { 1.0 / k } else { 0.0 };
    j.spring.prepare(ctx.h);
    if !ctx.enable_warm_starting {
        clear_impulses(j);
    }
}

/// Forgets the accumulated impulses (nothing to warm start from).
pub(super) fn clear_impulses(j: &mut RevoluteJoint) {
    j.linear_impulse = Vec2::ZERO;
    j.spring.impulse = 0.0;
    j.motor.impulse = 0.0;
    j.limit.reset();
}

pub(super) fn warm_start(base: &JointBase, j: &mut RevoluteJoint, states: &mut [BodyState]) {
    let sa = load(states, base.index_a);
    let sb = load(states, base.index_b);
    let ra = sa.delta_rotation.rotate(base.frame_a.p);
    let rb = sb.delta_rotation.rotate(base.frame_b.p);
    let axial = axial_impulse(j);
    let p = j.linear_impulse;

    let va = Vec2::mul_sub(sa.linear_velocity, base.inv_mass_a, p);
    let wa = sa.angular_velocity - base.inv_i_a * (ra.cross(p) + axial);
    let vb = Vec2::mul_add(sb.linear_velocity, base.inv_mass_b, p);
    let wb = sb.angular_velocity + base.inv_i_b * (rb.cross(p) + axial);
    store(states, base.index_a, va, wa);
    store(states, base.index_b, vb, wb);
}

pub(super) fn solve(
    base: &JointBase,
    j: &mut RevoluteJoint,
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
    // The joint angle now (relative rotation of the two current joint
    // frames), only when a spring or limit needs it: it costs an arctangent.
    let angle = if (j.spring.enable || j.limit.enable) && !fixed_rotation {
        let qa = sa.delta_rotation.mul(base.frame_a.q);
        let qb = sb.delta_rotation.mul(base.frame_b.q);
        qa.relative_angle(qb)
    } else {
        0.0
    };

    if j.spring.enable && !fixed_rotation {
        let c = unwind_angle(angle - j.target_angle);
        let impulse = j.spring.solve(j.axial_mass, c, wb - wa);
        wa -= ia * impulse;
        wb += ib * impulse;
    }

    if j.motor.enable && !fixed_rotation {
        let impulse = j.motor.solve(j.axial_mass, wb - wa, ctx.h);
        wa -= ia * impulse;
        wb += ib * impulse;
    }

    if j.limit.enable && !fixed_rotation {
        let row = LimitRow {
            position: angle,
            mass: j.axial_mass,
            base,
            ctx,
            use_bias,
        };
        let impulse = j.limit.solve_lower(&row, wb - wa);
        wa -= ia * impulse;
        wb += ib * impulse;

        // The upper bound pushes the other way.
        let impulse = j.limit.solve_upper(&row, wa - wb);
        wa += ia * impulse;
        wb -= ib * impulse;
    }

    // Point constraint.
    {
        let ra = sa.delta_rotation.rotate(base.frame_a.p);
        let rb = sb.delta_rotation.rotate(base.frame_b.p);
        let cdot = (vb + Vec2::scalar_cross(wb, rb)) - (va + Vec2::scalar_cross(wa, ra));

        let (bias, mass_scale, impulse_scale) = if use_bias {
            let separation =
                (sb.delta_position - sa.delta_position) + (rb - ra) + base.delta_center;
            let s = base.softness;
            (separation * s.bias_rate, s.mass_scale, s.impulse_scale)
        } else {
            (Vec2::ZERO, 1.0, 0.0)
        };

        let k = point_mass_matrix(ma, ia, ra, mb, ib, rb);
        let b = k.solve(cdot + bias);
        let impulse = Vec2::new(
            -mass_scale * b.x - impulse_scale * j.linear_impulse.x,
            -mass_scale * b.y - impulse_scale * j.linear_impulse.y,
        );
        j.linear_impulse += impulse;

        va = Vec2::mul_sub(va, ma, impulse);
        wa -= ia * ra.cross(impulse);
        vb = Vec2::mul_add(vb, mb, impulse);
        wb += ib * rb.cross(impulse);
    }

    store(states, base.index_a, va, wa);
    store(states, base.index_b, vb, wb);
}

/// The effective-mass matrix `K = J M⁻¹ Jᵀ` of a point-to-point constraint.
pub(super) fn point_mass_matrix(ma: f32, ia: f32, ra: Vec2, mb: f32, ib: f32, rb: Vec2) -> Mat22 {
    let k11 = ma + mb + ra.y * ra.y * ia + rb.y * rb.y * ib;
    let k12 = -ra.y * ra.x * ia - rb.y * rb.x * ib;
    let k22 = ma + mb + ra.x * ra.x * ia + rb.x * rb.x * ib;
    Mat22::new(Vec2::new(k11, k12), Vec2::new(k12, k22))
}

impl RevoluteJointDef {
    /// Checks the definition and makes the joint frames and data.
    pub(crate) fn build(&self) -> Result<(Transform, Transform, JointKind)> {
        self.validate()?;
        let (fa, fb) = make_frames(
            self.base.local_anchor_a,
            self.base.local_anchor_b,
            Vec2::X,
            self.reference_angle,
        );
        let joint = RevoluteJoint {
            target_angle: self.target_angle,
            spring: Spring::new(self.enable_spring, self.hertz, self.damping_ratio),
            motor: Motor::new(self.enable_motor, self.motor_speed, self.max_motor_torque),
            limit: Limit::new(self.enable_limit, self.lower_angle, self.upper_angle),
            ..RevoluteJoint::default()
        };
        Ok((fa, fb, JointKind::Revolute(joint)))
    }

    /// The definition an existing joint would be re-created with.
    pub(crate) fn read(base: JointDef, sim: &JointBase, j: &RevoluteJoint) -> Self {
        RevoluteJointDef {
            base,
            reference_angle: reference_angle(sim),
            target_angle: j.target_angle,
            enable_spring: j.spring.enable,
            hertz: j.spring.hertz,
            damping_ratio: j.spring.damping_ratio,
            enable_limit: j.limit.enable,
            lower_angle: j.limit.lower,
            upper_angle: j.limit.upper,
            enable_motor: j.motor.enable,
            motor_speed: j.motor.speed,
            max_motor_torque: j.motor.max_force,
        }
    }
}
