//! The pogo joint: a spring leg between a point of body A (usually where a
//! character stands on the ground) and a point of body B (the character),
//! acting along a normal fixed in body A. It holds a dynamic character at
//! a ride height above the ground and lets it bounce, with the leg's push
//! and pull each bounded.
//!
//! With `d = p_b + r_b − p_a − r_a` and `n` the normal (turning with body
//! A), the leg length is `L = n·d`; one soft row pulls `L` towards the rest
//! length, `J = [−n, −(d + r_a)×n, n, r_b×n]`, stiffness in hertz (so a
//! body of any mass bounces at that frequency). Its accumulated impulse is
//! clamped to `[−h·F_tension, h·F_compression]`: positive pushes the bodies
//! apart along `n`. Off the normal the leg exerts nothing: a character slides
//! sideways freely. Upstream Box2D declares this joint (`b2CreatePogoJoint`)
//! without its source; this is our own design from its header documentation.

use crate::body::BodyState;
use crate::error::{Result, check_finite};
use crate::math::{Transform, Vec2};
use crate::solver::StepContext;

use super::axial::Spring;
use super::pair::{Pair, axis_mass};
use super::solver::SolvePass;
use super::{JointBase, JointDef, JointKind, check_axis, check_non_negative};

joint_def! {
    /// A pogo joint definition: a spring leg from anchor A to anchor B along
    /// `normal`.
    ///
    /// Box2D: `b2DefaultPogoJointDef`.
    pub struct PogoJointDef("pogo") {
        /// Bodies, anchors (the foot on body A, the hip on body B) and common
        /// settings.
        ///
        /// Box2D: `b2PogoJointDef.base`.
        pub base: JointDef;
        /// The direction of the leg in body A's frame, from A towards B
        /// (normalised on creation; must not be zero). For a character on the
        /// ground: the ground's normal at the contact.
        ///
        /// Box2D: `b2PogoJointDef.normal`.
        pub normal: Vec2 = Vec2::Y, check_axis("pogo joint normal");
        /// Box2D: `b2PogoJointDef.hertz`, `b2PogoJointDef.dampingRatio`.
        stiffness(hertz = 5.0, damping_ratio = 0.5);
        /// The leg length the spring pulls towards, metres (≥ 0).
        ///
        /// Box2D: `b2PogoJointDef.restLength`.
        pub rest_length: f32 = 1.0, check_non_negative("pogo rest length");
        /// The most the leg pulls the bodies together, N (≥ 0, may be
        /// infinite): how strongly a character sticks to the ground.
        ///
        /// Box2D: `b2PogoJointDef.maxTensionForce`.
        pub max_tension_force: f32 = f32::MAX, check_force("pogo max tension force");
        /// The most the leg pushes the bodies apart, N (≥ 0, may be
        /// infinite): how hard it holds a character up.
        ///
        /// Box2D: `b2PogoJointDef.maxCompressionForce`.
        pub max_compression_force: f32 = f32::MAX, check_force("pogo max compression force");
        /// The spring's accumulated impulse to start from, N·s (a pogo made
        /// again every step carries its state over through this).
        ///
        /// Box2D: `b2PogoJointDef.impulse`.
        pub impulse: f32 = 0.0, check_finite("pogo impulse");
        /// The leg's rate of change of length to start from, m/s (reported
        /// by [`PogoView::velocity`](crate::api::joint::PogoView::velocity)
        /// until the first step).
        ///
        /// Box2D: `b2PogoJointDef.velocity`.
        pub velocity: f32 = 0.0, check_finite("pogo velocity");
    }
}

/// A force bound: not NaN, `>= 0`, may be infinite.
fn check_force(value: f32, what: &'static str) -> Result<()> {
    super::check_threshold(value, what)
}

/// Settings, impulses and prepared data of a pogo joint.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct PogoJoint {
    /// The leg spring; its impulse is clamped to the force bounds.
    pub spring: Spring,
    pub rest_length: f32,
    pub max_tension_force: f32,
    pub max_compression_force: f32,
    /// The leg's rate of change of length after the last solve, m/s.
    pub velocity: f32,
    /// Effective mass along the leg, kg.
    pub axial_mass: f32,
}

impl PogoJointDef {
    /// Checks the definition and makes the joint frames and data.
    pub(crate) fn build(&self) -> Result<(Transform, Transform, JointKind)> {
        self.validate()?;
        let (fa, fb) = self.base.frames(self.normal, 0.0);
        let mut spring = Spring::new(true, self.hertz, self.damping_ratio);
        spring.impulse = self.impulse;
        let joint = PogoJoint {
            spring,
            rest_length: self.rest_length,
            max_tension_force: self.max_tension_force,
            max_compression_force: self.max_compression_force,
            velocity: self.velocity,
            axial_mass: 0.0,
        };
        Ok((fa, fb, JointKind::Pogo(joint)))
    }

    /// The definition an existing joint would be re-created with (with its
    /// current impulse and velocity).
    pub(crate) fn read(base: JointDef, sim: &JointBase, j: &PogoJoint) -> Self {
        PogoJointDef {
            base,
            normal: sim.local_frame_a.q.x_axis(),
            hertz: j.spring.hertz,
            damping_ratio: j.spring.damping_ratio,
            rest_length: j.rest_length,
            max_tension_force: j.max_tension_force,
            max_compression_force: j.max_compression_force,
            impulse: j.spring.impulse,
            velocity: j.velocity,
        }
    }
}

pub(super) fn prepare(base: &JointBase, j: &mut PogoJoint, ctx: &StepContext) {
    j.axial_mass = axis_mass(base);
    j.spring.prepare(ctx.h);
}

#[inline(always)]
pub(super) fn warm_start(base: &JointBase, j: &PogoJoint, states: &mut [BodyState]) {
    let mut pair = Pair::load(base, states);
    pair.line(base)
        .axis_row()
        .apply(&mut pair, j.spring.impulse);
    pair.store(base, states);
}

#[inline(always)]
pub(super) fn solve(base: &JointBase, j: &mut PogoJoint, pass: &mut SolvePass) {
    let mut pair = Pair::load(base, pass.states);
    let leg = pair.line(base).axis_row();
    if j.spring.hertz > 0.0 {
        let cdot = leg.speed(&pair);
        let h = pass.ctx.h;
        let (lower, upper) = (-j.max_tension_force * h, j.max_compression_force * h);
        let c = leg.position - j.rest_length;
        let impulse = j.spring.solve_clamped(j.axial_mass, c, cdot, lower, upper);
        leg.apply(&mut pair, impulse);
    }
    j.velocity = leg.speed(&pair);
    pair.store(base, pass.states);
}
