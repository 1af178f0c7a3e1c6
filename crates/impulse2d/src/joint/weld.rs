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
use crate::math::{Transform, Vec2};
use crate::solver::StepContext;
use crate::solver::softness::Softness;

use super::revolute::point_mass_matrix;
use super::solver::{load, store};
use super::{JointBase, JointDef, JointKind, check_non_negative, make_frames, reference_angle};

/// A weld joint definition.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(default)
)]
pub struct WeldJointDef {
    /// Bodies, anchors and common settings.
    pub base: JointDef,
    /// Angle of body B minus angle of body A that the joint keeps, radians.
    pub reference_angle: f32,
    /// Stiffness of the linear part, Hz (≥ 0; zero is rigid).
    pub linear_hertz: f32,
    /// Damping ratio of the linear part (≥ 0).
    pub linear_damping_ratio: f32,
    /// Stiffness of the angular part, Hz (≥ 0; zero is rigid).
    pub angular_hertz: f32,
    /// Damping ratio of the angular part (≥ 0).
    pub angular_damping_ratio: f32,
}

impl Default for WeldJointDef {
    fn default() -> Self {
        WeldJointDef {
            base: JointDef::default(),
            reference_angle: 0.0,
            linear_hertz: 0.0,
            linear_damping_ratio: 0.0,
            angular_hertz: 0.0,
            angular_damping_ratio: 0.0,
        }
    }
}

impl WeldJointDef {
    /// Checks every number; the first bad field is named in the error.
    pub fn validate(&self) -> Result<()> {
        self.base.validate()?;
        check_finite(self.reference_angle, "weld reference angle")?;
        check_non_negative(self.linear_hertz, "weld linear hertz")?;
        check_non_negative(self.linear_damping_ratio, "weld linear damping ratio")?;
        check_non_negative(self.angular_hertz, "weld angular hertz")?;
        check_non_negative(self.angular_damping_ratio, "weld angular damping ratio")?;
        Ok(())
    }
}

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
    let k = base.inv_i_a + base.inv_i_b;
    j.axial_mass = if k > 0.0 { 1.0 / k } else { 0.0 };
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
    if !ctx.enable_warm_starting {
        clear_impulses(j);
    }
}

/// Forgets the accumulated impulses (nothing to warm start from).
pub(super) fn clear_impulses(j: &mut WeldJoint) {
    j.linear_impulse = Vec2::ZERO;
    j.angular_impulse = 0.0;
}

pub(super) fn warm_start(base: &JointBase, j: &mut WeldJoint, states: &mut [BodyState]) {
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
    j: &mut WeldJoint,
    states: &mut [BodyState],
    _ctx: &StepContext,
    use_bias: bool,
) {
    let sa = load(states, base.index_a);
    let sb = load(states, base.index_b);
    let (ma, ia, mb, ib) = (base.inv_mass_a, base.inv_i_a, base.inv_mass_b, base.inv_i_b);
    let (mut va, mut wa) = (sa.linear_velocity, sa.angular_velocity);
    let (mut vb, mut wb) = (sb.linear_velocity, sb.angular_velocity);

    // Angular part.
    {
        let (bias, mass_scale, impulse_scale) = if use_bias || j.angular_hertz > 0.0 {
            let qa = sa.delta_rotation.mul(base.frame_a.q);
            let qb = sb.delta_rotation.mul(base.frame_b.q);
            let c = qa.relative_angle(qb);
            let s = j.angular_softness;
            (s.bias_rate * c, s.mass_scale, s.impulse_scale)
        } else {
            (0.0, 1.0, 0.0)
        };
        let cdot = wb - wa;
        let impulse =
            -mass_scale * j.axial_mass * (cdot + bias) - impulse_scale * j.angular_impulse;
        j.angular_impulse += impulse;
        wa -= ia * impulse;
        wb += ib * impulse;
    }

    // Linear part.
    {
        let ra = sa.delta_rotation.rotate(base.frame_a.p);
        let rb = sb.delta_rotation.rotate(base.frame_b.p);
        let (bias, mass_scale, impulse_scale) = if use_bias || j.linear_hertz > 0.0 {
            let c = (sb.delta_position - sa.delta_position) + (rb - ra) + base.delta_center;
            let s = j.linear_softness;
            (c * s.bias_rate, s.mass_scale, s.impulse_scale)
        } else {
            (Vec2::ZERO, 1.0, 0.0)
        };
        let cdot = (vb + Vec2::scalar_cross(wb, rb)) - (va + Vec2::scalar_cross(wa, ra));
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

impl WeldJointDef {
    /// Checks the definition and makes the joint frames and data.
    pub(crate) fn build(&self) -> Result<(Transform, Transform, JointKind)> {
        self.validate()?;
        let (fa, fb) = make_frames(
            self.base.local_anchor_a,
            self.base.local_anchor_b,
            Vec2::X,
            self.reference_angle,
        );
        let joint = WeldJoint {
            linear_hertz: self.linear_hertz,
            linear_damping_ratio: self.linear_damping_ratio,
            angular_hertz: self.angular_hertz,
            angular_damping_ratio: self.angular_damping_ratio,
            ..WeldJoint::default()
        };
        Ok((fa, fb, JointKind::Weld(joint)))
    }

    /// The definition an existing joint would be re-created with.
    pub(crate) fn read(base: JointDef, sim: &JointBase, j: &WeldJoint) -> Self {
        WeldJointDef {
            base,
            reference_angle: reference_angle(sim),
            linear_hertz: j.linear_hertz,
            linear_damping_ratio: j.linear_damping_ratio,
            angular_hertz: j.angular_hertz,
            angular_damping_ratio: j.angular_damping_ratio,
        }
    }
}
