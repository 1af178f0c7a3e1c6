//! The motor joint: drives body B towards a target position and angle
//! relative to body A with bounded force and torque. Typical use: move a
//! body along a path or hold it in place against pushes, without the joint
//! ever becoming infinitely strong.
//!
//! The target for anchor B is the point `anchor_a + linear_offset` of body A;
//! the target angle is `θ_b − θ_a = angular_offset`. Each substep removes the
//! fraction `correction_factor` of the error per substep (`bias = β·C/h`), with
//! the accumulated force clamped to `max_force` (as a vector) and the torque to
//! `max_torque`. The joint acts the same in the bias and relax passes.
//!
//! # References
//! - E. Catto, Box2D v3.0 `motor_joint.c`.

use crate::body::{BodySim, BodyState};
use crate::error::{Error, Result, check_finite, check_finite_vec};
use crate::math::{Mat22, Transform, Vec2, unwind_angle};
use crate::solver::StepContext;

use super::revolute::point_mass_matrix;
use super::solver::{load, store};
use super::{JointBase, JointDef, JointKind, check_non_negative, make_frames};

/// A motor joint definition. The anchors in `base` default to the body
/// origins.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(default)
)]
pub struct MotorJointDef {
    /// Bodies, anchors and common settings.
    pub base: JointDef,
    /// Where anchor B should be, relative to anchor A in body A's frame,
    /// metres.
    pub linear_offset: Vec2,
    /// Angle of body B minus angle of body A to reach, radians.
    pub angular_offset: f32,
    /// Largest force, N (≥ 0).
    pub max_force: f32,
    /// Largest torque, N·m (≥ 0).
    pub max_torque: f32,
    /// Fraction of the position error removed per substep, in `[0, 1]`.
    pub correction_factor: f32,
}

impl Default for MotorJointDef {
    fn default() -> Self {
        MotorJointDef {
            base: JointDef::default(),
            linear_offset: Vec2::ZERO,
            angular_offset: 0.0,
            max_force: 1.0,
            max_torque: 1.0,
            correction_factor: 0.3,
        }
    }
}

impl MotorJointDef {
    /// Checks every number; the first bad field is named in the error.
    pub fn validate(&self) -> Result<()> {
        self.base.validate()?;
        check_finite_vec(self.linear_offset, "motor joint linear offset")?;
        check_finite(self.angular_offset, "motor joint angular offset")?;
        check_non_negative(self.max_force, "motor joint max force")?;
        check_non_negative(self.max_torque, "motor joint max torque")?;
        check_correction(self.correction_factor)
    }
}

pub(crate) fn check_correction(factor: f32) -> Result<()> {
    check_finite(factor, "motor joint correction factor")?;
    if !(0.0..=1.0).contains(&factor) {
        return Err(Error::OutOfRange {
            what: "motor joint correction factor",
            expected: "within [0, 1]",
            value: factor,
        });
    }
    Ok(())
}

/// Settings, impulses and prepared data of a motor joint.
#[derive(Clone, Copy, Debug)]
pub(crate) struct MotorJoint {
    pub linear_offset: Vec2,
    pub angular_offset: f32,
    pub max_force: f32,
    pub max_torque: f32,
    pub correction_factor: f32,

    pub linear_impulse: Vec2,
    pub angular_impulse: f32,

    pub linear_mass: Mat22,
    pub angular_mass: f32,
}

pub(super) fn prepare(
    base: &mut JointBase,
    j: &mut MotorJoint,
    sim_a: &BodySim,
    ctx: &StepContext,
) {
    // The target point rides on body A.
    base.frame_a.p += sim_a.transform.q.rotate(j.linear_offset);
    let (ma, ia, mb, ib) = (base.inv_mass_a, base.inv_i_a, base.inv_mass_b, base.inv_i_b);
    j.linear_mass = point_mass_matrix(ma, ia, base.frame_a.p, mb, ib, base.frame_b.p).inverse();
    let k = ia + ib;
    j.angular_mass = if k > 0.0 { 1.0 / k } else { 0.0 };
    if !ctx.enable_warm_starting {
        clear_impulses(j);
    }
}

/// Forgets the accumulated impulses (nothing to warm start from).
pub(super) fn clear_impulses(j: &mut MotorJoint) {
    j.linear_impulse = Vec2::ZERO;
    j.angular_impulse = 0.0;
}

pub(super) fn warm_start(base: &JointBase, j: &mut MotorJoint, states: &mut [BodyState]) {
    let sa = load(states, base.index_a);
    let sb = load(states, base.index_b);
    let ra = sa.delta_rotation.rotate(base.frame_a.p);
    let rb = sb.delta_rotation.rotate(base.frame_b.p);
    let p = j.linear_impulse;

    let va = Vec2::mul_sub(sa.linear_velocity, base.inv_mass_a, p);
    let wa = sa.angular_velocity - base.inv_i_a * (ra.cross(p) + j.angular_impulse);
    let vb = Vec2::mul_add(sb.linear_velocity, base.inv_mass_b, p);
    let wb = sb.angular_velocity + base.inv_i_b * (rb.cross(p) + j.angular_impulse);
    store(states, base.index_a, va, wa);
    store(states, base.index_b, vb, wb);
}

pub(super) fn solve(
    base: &JointBase,
    j: &mut MotorJoint,
    states: &mut [BodyState],
    ctx: &StepContext,
) {
    let sa = load(states, base.index_a);
    let sb = load(states, base.index_b);
    let (ma, ia, mb, ib) = (base.inv_mass_a, base.inv_i_a, base.inv_mass_b, base.inv_i_b);
    let (mut va, mut wa) = (sa.linear_velocity, sa.angular_velocity);
    let (mut vb, mut wb) = (sb.linear_velocity, sb.angular_velocity);
    let rate = ctx.inv_h * j.correction_factor;

    // Angular part.
    {
        let qa = sa.delta_rotation.mul(base.frame_a.q);
        let qb = sb.delta_rotation.mul(base.frame_b.q);
        let c = unwind_angle(qa.relative_angle(qb) - j.angular_offset);
        let cdot = wb - wa;
        let max_impulse = ctx.h * j.max_torque;
        let old = j.angular_impulse;
        j.angular_impulse =
            (old - j.angular_mass * (cdot + rate * c)).clamp(-max_impulse, max_impulse);
        let impulse = j.angular_impulse - old;
        wa -= ia * impulse;
        wb += ib * impulse;
    }

    // Linear part.
    {
        let ra = sa.delta_rotation.rotate(base.frame_a.p);
        let rb = sb.delta_rotation.rotate(base.frame_b.p);
        let c = (sb.delta_position - sa.delta_position) + (rb - ra) + base.delta_center;
        let cdot = (vb + Vec2::scalar_cross(wb, rb)) - (va + Vec2::scalar_cross(wa, ra));
        let b = j.linear_mass.mul_vec(cdot + c * rate);

        let old = j.linear_impulse;
        let max_impulse = ctx.h * j.max_force;
        let mut accumulated = old - b;
        if accumulated.length_squared() > max_impulse * max_impulse {
            accumulated = accumulated.normalize() * max_impulse;
        }
        j.linear_impulse = accumulated;
        let impulse = accumulated - old;

        va = Vec2::mul_sub(va, ma, impulse);
        wa -= ia * ra.cross(impulse);
        vb = Vec2::mul_add(vb, mb, impulse);
        wb += ib * rb.cross(impulse);
    }

    store(states, base.index_a, va, wa);
    store(states, base.index_b, vb, wb);
}

impl MotorJointDef {
    /// Checks the definition and makes the joint frames and data.
    pub(crate) fn build(&self) -> Result<(Transform, Transform, JointKind)> {
        self.validate()?;
        let (fa, fb) = make_frames(
            self.base.local_anchor_a,
            self.base.local_anchor_b,
            Vec2::X,
            0.0,
        );
        let joint = MotorJoint {
            linear_offset: self.linear_offset,
            angular_offset: self.angular_offset,
            max_force: self.max_force,
            max_torque: self.max_torque,
            correction_factor: self.correction_factor,
            linear_impulse: Vec2::ZERO,
            angular_impulse: 0.0,
            linear_mass: Mat22::ZERO,
            angular_mass: 0.0,
        };
        Ok((fa, fb, JointKind::Motor(joint)))
    }

    /// The definition an existing joint would be re-created with.
    pub(crate) fn read(base: JointDef, j: &MotorJoint) -> Self {
        MotorJointDef {
            base,
            linear_offset: j.linear_offset,
            angular_offset: j.angular_offset,
            max_force: j.max_force,
            max_torque: j.max_torque,
            correction_factor: j.correction_factor,
        }
    }
}
