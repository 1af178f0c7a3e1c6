//! The mouse (target) joint: pulls a point of body B towards a target in
//! world coordinates with a soft spring of bounded force, for dragging bodies
//! with the mouse. Body A is only a handle (usually the ground) and is not
//! moved by the joint. A weak angular damper keeps the dragged body from
//! spinning up.
//!
//! `C = p_b + r_b − target`, `J = [I, r_b×]`, soft with the joint's own
//! stiffness, the accumulated impulse clamped to `max_force·h`.
//!
//! # References
//! - E. Catto, Box2D v3 `mouse_joint.c`.

use crate::body::{BodySim, BodyState};
use crate::error::{Result, check_finite_vec};
use crate::math::{Mat22, Rot, Transform, Vec2};
use crate::solver::StepContext;
use crate::solver::softness::Softness;

use super::pair::{load, store};
use super::solver::SolvePass;
use super::{JointBase, JointDef, JointKind, check_non_negative};

/// Stiffness and damping of the angular damper, Hz and ratio.
const ANGULAR_HERTZ: f32 = 0.5;
const ANGULAR_DAMPING_RATIO: f32 = 0.1;

joint_def! {
    /// A mouse joint definition. The grabbed point of body B is the target at
    /// creation; the anchors in `base` are ignored.
    ///
    /// Box2D v3.1: `b2MouseJointDef` (upstream replaced the mouse
    /// joint by the motor joint's spring).
    pub struct MouseJointDef("mouse joint") {
        /// Bodies (A is a handle, usually the ground) and common settings.
        ///
        /// Box2D v3.1: `b2MouseJointDef.base`.
        pub base: JointDef;
        /// The target in world coordinates, metres; also the point of body B
        /// that is pulled.
        ///
        /// Box2D v3.1: `b2MouseJointDef.target`.
        pub target: Vec2 = Vec2::ZERO, check_finite_vec("mouse joint target");
        /// Largest pulling force, N (≥ 0).
        ///
        /// Box2D v3.1: `b2MouseJointDef.maxForce`.
        pub max_force: f32 = 1000.0, check_non_negative("mouse joint max force");
        /// Box2D v3.1: `b2MouseJointDef.hertz`, `b2MouseJointDef.dampingRatio`.
        stiffness(hertz = 4.0, damping_ratio = 1.0);
    }
}

/// Settings, impulses and prepared data of a mouse joint.
#[derive(Clone, Copy, Debug)]
pub(crate) struct MouseJoint {
    pub target: Vec2,
    pub hertz: f32,
    pub damping_ratio: f32,
    pub max_force: f32,

    pub linear_impulse: Vec2,
    pub angular_impulse: f32,

    pub linear_softness: Softness,
    pub angular_softness: Softness,
    pub linear_mass: Mat22,
    /// Centre of B minus the target at the start of the step, metres.
    pub delta_center: Vec2,
}

pub(super) fn prepare(base: &JointBase, j: &mut MouseJoint, sim_b: &BodySim, ctx: &StepContext) {
    j.linear_softness = Softness::new(j.hertz, j.damping_ratio, ctx.h);
    j.angular_softness = Softness::new(ANGULAR_HERTZ, ANGULAR_DAMPING_RATIO, ctx.h);
    let rb = base.frame_b.p;
    let (mb, ib) = (base.inv_mass_b, base.inv_i_b);
    let k = Mat22::new(
        Vec2::new(mb + ib * rb.y * rb.y, -ib * rb.x * rb.y),
        Vec2::new(-ib * rb.x * rb.y, mb + ib * rb.x * rb.x),
    );
    j.linear_mass = k.inverse();
    j.delta_center = sim_b.center - crate::pos::to_pos(j.target);
}

#[inline(always)]
pub(super) fn warm_start(base: &JointBase, j: &MouseJoint, states: &mut [BodyState]) {
    let sb = load(states, base.index_b);
    let rb = sb.delta_rotation.rotate(base.frame_b.p);
    let p = j.linear_impulse;
    let vb = Vec2::mul_add(sb.linear_velocity, base.inv_mass_b, p);
    let wb = sb.angular_velocity + base.inv_i_b * (rb.cross(p) + j.angular_impulse);
    store(states, base.index_b, vb, wb);
}

#[inline(always)]
pub(super) fn solve(base: &JointBase, j: &mut MouseJoint, pass: &mut SolvePass) {
    let sb = load(pass.states, base.index_b);
    let (mb, ib) = (base.inv_mass_b, base.inv_i_b);
    let (mut vb, mut wb) = (sb.linear_velocity, sb.angular_velocity);

    // Angular damper (no position target).
    {
        let s = j.angular_softness;
        let impulse = if ib > 0.0 { -wb / ib } else { 0.0 };
        let impulse = s.mass_scale * impulse - s.impulse_scale * j.angular_impulse;
        j.angular_impulse += impulse;
        wb += ib * impulse;
    }

    // Linear pull.
    {
        let rb = sb.delta_rotation.rotate(base.frame_b.p);
        let cdot = vb + Vec2::scalar_cross(wb, rb);
        let separation = sb.delta_position + rb + j.delta_center;
        let s = j.linear_softness;
        let b = j.linear_mass.mul_vec(cdot + separation * s.bias_rate);
        let old = j.linear_impulse;
        let mut accumulated = Vec2::new(
            old.x - s.mass_scale * b.x - s.impulse_scale * old.x,
            old.y - s.mass_scale * b.y - s.impulse_scale * old.y,
        );
        let max_impulse = j.max_force * pass.ctx.h;
        if accumulated.length_squared() > max_impulse * max_impulse {
            accumulated = accumulated.normalize() * max_impulse;
        }
        j.linear_impulse = accumulated;
        let impulse = accumulated - old;
        vb = Vec2::mul_add(vb, mb, impulse);
        wb += ib * rb.cross(impulse);
    }

    store(pass.states, base.index_b, vb, wb);
}

impl MouseJointDef {
    /// Checks the definition and makes the joint frames (the anchors on the
    /// bodies where the target is now) and data.
    pub(crate) fn build(
        &self,
        anchor_a: Vec2,
        anchor_b: Vec2,
    ) -> Result<(Transform, Transform, JointKind)> {
        self.validate()?;
        let joint = MouseJoint {
            target: self.target,
            hertz: self.hertz,
            damping_ratio: self.damping_ratio,
            max_force: self.max_force,
            linear_impulse: Vec2::ZERO,
            angular_impulse: 0.0,
            linear_softness: Softness::RIGID,
            angular_softness: Softness::RIGID,
            linear_mass: Mat22::ZERO,
            delta_center: Vec2::ZERO,
        };
        Ok((
            Transform::new(anchor_a, Rot::IDENTITY),
            Transform::new(anchor_b, Rot::IDENTITY),
            JointKind::Mouse(joint),
        ))
    }

    /// The definition an existing joint would be re-created with (the
    /// target is the current one).
    pub(crate) fn read(base: JointDef, j: &MouseJoint) -> Self {
        MouseJointDef {
            base,
            target: j.target,
            hertz: j.hertz,
            damping_ratio: j.damping_ratio,
            max_force: j.max_force,
        }
    }
}
