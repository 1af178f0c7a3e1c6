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
use crate::id::JointId;
use crate::math::{Mat22, Vec2, unwind_angle};
use crate::solver::StepContext;
use crate::solver::softness::Softness;
use crate::world::World;

use super::solver::{load, store};
use super::{
    JointBase, JointDef, JointKind, JointType, check_angle, check_non_negative, check_range,
    make_frames, reference_angle, wrong_type,
};

/// A revolute joint definition. The anchors in `base` should coincide in
/// the world when the joint is created.
#[derive(Clone, Copy, Debug, PartialEq)]
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
    pub enable_spring: bool,
    pub hertz: f32,
    pub damping_ratio: f32,
    pub enable_limit: bool,
    pub lower_angle: f32,
    pub upper_angle: f32,
    pub enable_motor: bool,
    pub motor_speed: f32,
    pub max_motor_torque: f32,

    /// Impulses per substep: point (N·s), spring, motor and limits (N·m·s).
    pub linear_impulse: Vec2,
    pub spring_impulse: f32,
    pub motor_impulse: f32,
    pub lower_impulse: f32,
    pub upper_impulse: f32,

    /// `1 / (1/I_a + 1/I_b)`, kg·m².
    pub axial_mass: f32,
    pub spring_softness: Softness,
}

/// The total impulse about the joint axis.
pub(super) fn axial_impulse(j: &RevoluteJoint) -> f32 {
    j.spring_impulse + j.motor_impulse + j.lower_impulse - j.upper_impulse
}

pub(super) fn prepare(base: &JointBase, j: &mut RevoluteJoint, ctx: &StepContext) {
    let k = base.inv_i_a + base.inv_i_b;
    j.axial_mass = if k > 0.0 { 1.0 / k } else { 0.0 };
    j.spring_softness = Softness::new(j.hertz, j.damping_ratio, ctx.h);
    if !ctx.enable_warm_starting {
        j.linear_impulse = Vec2::ZERO;
        j.spring_impulse = 0.0;
        j.motor_impulse = 0.0;
        j.lower_impulse = 0.0;
        j.upper_impulse = 0.0;
    }
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
    let angle = if (j.enable_spring || j.enable_limit) && !fixed_rotation {
        let qa = sa.delta_rotation.mul(base.frame_a.q);
        let qb = sb.delta_rotation.mul(base.frame_b.q);
        qa.relative_angle(qb)
    } else {
        0.0
    };

    if j.enable_spring && !fixed_rotation {
        // A real spring: it acts in the relax pass too.
        let c = unwind_angle(angle - j.target_angle);
        let s = j.spring_softness;
        let cdot = wb - wa;
        let impulse = -s.mass_scale * j.axial_mass * (cdot + s.bias_rate * c)
            - s.impulse_scale * j.spring_impulse;
        j.spring_impulse += impulse;
        wa -= ia * impulse;
        wb += ib * impulse;
    }

    if j.enable_motor && !fixed_rotation {
        let cdot = wb - wa - j.motor_speed;
        let max_impulse = ctx.h * j.max_motor_torque;
        let old = j.motor_impulse;
        j.motor_impulse = (old - j.axial_mass * cdot).clamp(-max_impulse, max_impulse);
        let impulse = j.motor_impulse - old;
        wa -= ia * impulse;
        wb += ib * impulse;
    }

    if j.enable_limit && !fixed_rotation {
        // Lower: C = θ − θ_lower ≥ 0.
        let c = angle - j.lower_angle;
        let (bias, mass_scale, impulse_scale) = limit_coefficients(c, base, ctx, use_bias);
        let cdot = wb - wa;
        let old = j.lower_impulse;
        let impulse = -mass_scale * j.axial_mass * (cdot + bias) - impulse_scale * old;
        j.lower_impulse = (old + impulse).max(0.0);
        let impulse = j.lower_impulse - old;
        wa -= ia * impulse;
        wb += ib * impulse;

        // Upper: C = θ_upper − θ ≥ 0 (signs flipped so the impulse stays ≥ 0).
        let c = j.upper_angle - angle;
        let (bias, mass_scale, impulse_scale) = limit_coefficients(c, base, ctx, use_bias);
        let cdot = wa - wb;
        let old = j.upper_impulse;
        let impulse = -mass_scale * j.axial_mass * (cdot + bias) - impulse_scale * old;
        j.upper_impulse = (old + impulse).max(0.0);
        let impulse = j.upper_impulse - old;
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

/// Bias and scales of a one-sided limit with position error `c` (≥ 0 when
/// satisfied): speculative while satisfied, soft when violated (bias pass
/// only), rigid in the relax pass.
#[inline]
pub(super) fn limit_coefficients(
    c: f32,
    base: &JointBase,
    ctx: &StepContext,
    use_bias: bool,
) -> (f32, f32, f32) {
    if c > 0.0 {
        // Allow the gap to close within this substep, no further.
        (c * ctx.inv_h, 1.0, 0.0)
    } else if use_bias {
        let s = base.softness;
        (s.bias_rate * c, s.mass_scale, s.impulse_scale)
    } else {
        (0.0, 1.0, 0.0)
    }
}

impl World {
    /// Creates a revolute joint. Fails on a stale body id, equal bodies or a
    /// bad number in the definition.
    pub fn create_revolute_joint(&mut self, def: &RevoluteJointDef) -> Result<JointId> {
        def.validate()?;
        let (fa, fb) = make_frames(
            def.base.local_anchor_a,
            def.base.local_anchor_b,
            Vec2::X,
            def.reference_angle,
        );
        let joint = RevoluteJoint {
            target_angle: def.target_angle,
            enable_spring: def.enable_spring,
            hertz: def.hertz,
            damping_ratio: def.damping_ratio,
            enable_limit: def.enable_limit,
            lower_angle: def.lower_angle,
            upper_angle: def.upper_angle,
            enable_motor: def.enable_motor,
            motor_speed: def.motor_speed,
            max_motor_torque: def.max_motor_torque,
            ..RevoluteJoint::default()
        };
        self.create_joint(
            &def.base,
            JointType::Revolute,
            fa,
            fb,
            JointKind::Revolute(joint),
        )
    }

    fn revolute(&self, id: JointId) -> Result<(usize, &RevoluteJoint)> {
        match self.joint_kind(id)? {
            (ji, JointKind::Revolute(j)) => Ok((ji, j)),
            _ => Err(wrong_type("not a revolute joint")),
        }
    }

    /// Changes a revolute joint's settings and wakes its bodies.
    fn update_revolute(&mut self, id: JointId, f: impl FnOnce(&mut RevoluteJoint)) -> Result<()> {
        let (ji, _) = self.revolute(id)?;
        if let JointKind::Revolute(j) = &mut self.joint_sim_mut(ji).kind {
            f(j);
        }
        self.wake_joint(ji);
        Ok(())
    }

    /// The definition a revolute joint would be re-created with (its current
    /// settings).
    pub fn revolute_joint_def(&self, id: JointId) -> Result<RevoluteJointDef> {
        let (ji, j) = self.revolute(id)?;
        let base = &self.joint_sim(ji).base;
        Ok(RevoluteJointDef {
            base: self.joint_base_def(ji),
            reference_angle: reference_angle(base),
            target_angle: j.target_angle,
            enable_spring: j.enable_spring,
            hertz: j.hertz,
            damping_ratio: j.damping_ratio,
            enable_limit: j.enable_limit,
            lower_angle: j.lower_angle,
            upper_angle: j.upper_angle,
            enable_motor: j.enable_motor,
            motor_speed: j.motor_speed,
            max_motor_torque: j.max_motor_torque,
        })
    }

    /// The current joint angle `θ_b − θ_a − θ_ref`, radians in `[−π, π]`.
    pub fn revolute_angle(&self, id: JointId) -> Result<f32> {
        let (ji, _) = self.revolute(id)?;
        let (qa, qb) = self.joint_frame_rotations(ji);
        Ok(qa.relative_angle(qb))
    }

    /// Angular velocity of B relative to A, rad/s.
    pub fn revolute_speed(&self, id: JointId) -> Result<f32> {
        let (ji, _) = self.revolute(id)?;
        let (wa, wb) = self.joint_body_angular_velocities(ji);
        Ok(wb - wa)
    }

    /// The torque the motor applied in the last substep, N·m.
    pub fn revolute_motor_torque(&self, id: JointId) -> Result<f32> {
        let (_, j) = self.revolute(id)?;
        Ok(j.motor_impulse * self.joints.inv_h)
    }

    /// Turns the motor on or off.
    pub fn enable_revolute_motor(&mut self, id: JointId, enable: bool) -> Result<()> {
        self.update_revolute(id, |j| {
            if j.enable_motor != enable {
                j.enable_motor = enable;
                j.motor_impulse = 0.0;
            }
        })
    }

    /// Sets the motor's target speed, rad/s.
    pub fn set_revolute_motor_speed(&mut self, id: JointId, speed: f32) -> Result<()> {
        check_finite(speed, "revolute motor speed")?;
        self.update_revolute(id, |j| j.motor_speed = speed)
    }

    /// Sets the motor's largest torque, N·m (≥ 0).
    pub fn set_revolute_max_motor_torque(&mut self, id: JointId, torque: f32) -> Result<()> {
        check_non_negative(torque, "revolute max motor torque")?;
        self.update_revolute(id, |j| j.max_motor_torque = torque)
    }

    /// Turns the angle limit on or off.
    pub fn enable_revolute_limit(&mut self, id: JointId, enable: bool) -> Result<()> {
        self.update_revolute(id, |j| {
            if j.enable_limit != enable {
                j.enable_limit = enable;
                j.lower_impulse = 0.0;
                j.upper_impulse = 0.0;
            }
        })
    }

    /// Sets the angle limits, radians in `[−π, π]` with `lower ≤ upper`.
    pub fn set_revolute_limits(&mut self, id: JointId, lower: f32, upper: f32) -> Result<()> {
        check_angle(lower, "revolute lower angle")?;
        check_angle(upper, "revolute upper angle")?;
        check_range(lower, upper, "revolute angle limits")?;
        self.update_revolute(id, |j| {
            if j.lower_angle != lower || j.upper_angle != upper {
                j.lower_angle = lower;
                j.upper_angle = upper;
                j.lower_impulse = 0.0;
                j.upper_impulse = 0.0;
            }
        })
    }

    /// Turns the rotational spring on or off.
    pub fn enable_revolute_spring(&mut self, id: JointId, enable: bool) -> Result<()> {
        self.update_revolute(id, |j| {
            if j.enable_spring != enable {
                j.enable_spring = enable;
                j.spring_impulse = 0.0;
            }
        })
    }

    /// Sets the spring stiffness (Hz, ≥ 0) and damping ratio (≥ 0).
    pub fn set_revolute_spring(
        &mut self,
        id: JointId,
        hertz: f32,
        damping_ratio: f32,
    ) -> Result<()> {
        check_non_negative(hertz, "revolute spring hertz")?;
        check_non_negative(damping_ratio, "revolute spring damping ratio")?;
        self.update_revolute(id, |j| {
            j.hertz = hertz;
            j.damping_ratio = damping_ratio;
        })
    }

    /// Sets the angle the spring pulls towards, radians in `[−π, π]`.
    pub fn set_revolute_target_angle(&mut self, id: JointId, angle: f32) -> Result<()> {
        check_angle(angle, "revolute target angle")?;
        self.update_revolute(id, |j| j.target_angle = angle)
    }
}
