//! The prismatic joint: body B slides along an axis fixed in body A without
//! turning relative to it, with an optional translation limit, motor and
//! spring.
//!
//! With `d = p_b + r_b − p_a − r_a` the anchor separation, `u` the axis and
//! `n` its left perpendicular (both turning with body A):
//! - line: `C = n·d = 0`, `J = [−n, −(d + r_a)×n, n, r_b×n]`;
//! - angle: `C = θ_b − θ_a − θ_ref = 0`;
//!   the two are solved together as a 2×2 block;
//! - translation `x = u·d`, with `J = [−u, −(d + r_a)×u, u, r_b×u]`, for the
//!   spring (`x → x_target`), the motor (`ẋ = v_motor`, `|F| ≤ F_max`) and the
//!   speculative limits (`x_lower ≤ x ≤ x_upper`).
//!
//! # References
//! - E. Catto, Box2D v3 `prismatic_joint.c`.

use crate::body::BodyState;
use crate::error::{Result, check_finite};
use crate::math::{Mat22, Vec2};
use crate::solver::StepContext;

use super::axial::{Limit, Motor, Spring};
use super::pair::{Pair, WarmStart, axis_mass, warm_start_line};
use super::solver::SolvePass;
use super::{JointBase, JointDef, check_axis, check_non_negative, check_range};

joint_def! {
    /// A prismatic joint definition.
    ///
    /// Box2D: `b2DefaultPrismaticJointDef`.
    pub struct PrismaticJointDef("prismatic") {
        /// Bodies, anchors and common settings.
        ///
        /// Box2D: `b2PrismaticJointDef.base`.
        pub base: JointDef;
        /// The sliding direction in body A's frame (normalised on creation;
        /// must not be zero).
        ///
        /// Box2D v3.1: `b2PrismaticJointDef.localAxisA` (v3.2 keeps it in `b2JointDef.localFrameA`).
        pub local_axis_a: Vec2 = Vec2::X, check_axis("prismatic axis");
        /// Angle of body B minus angle of body A that the joint keeps, radians.
        ///
        /// Box2D v3.1: `b2PrismaticJointDef.referenceAngle` (v3.2 keeps it in `b2JointDef.localFrameB`).
        pub reference_angle: f32 = 0.0, check_finite("prismatic reference angle");
        /// Box2D: `b2PrismaticJointDef.enableSpring`, `b2PrismaticJointDef.hertz`,
        /// `b2PrismaticJointDef.dampingRatio`.
        spring(enable_spring = false, hertz = 0.0, damping_ratio = 0.0);
        /// Translation the spring pulls towards, metres.
        ///
        /// Box2D: `b2PrismaticJointDef.targetTranslation`.
        pub target_translation: f32 = 0.0, check_finite("prismatic target translation");
        /// Box2D: `b2PrismaticJointDef.enableLimit`, `b2PrismaticJointDef.lowerTranslation`,
        /// `b2PrismaticJointDef.upperTranslation`.
        limit(enable_limit = false, lower_translation = 0.0, upper_translation = 0.0) "metres";
        /// Box2D: `b2PrismaticJointDef.enableMotor`, `b2PrismaticJointDef.motorSpeed`,
        /// `b2PrismaticJointDef.maxMotorForce`.
        motor(enable_motor = false, motor_speed = 0.0, max_motor_force = 0.0) "m/s", "N";
    }
}

build_read!(
    PrismaticJointDef => Prismatic(PrismaticJoint), axis = local_axis_a, angle = reference_angle,
    copy [target_translation], rows [spring, motor, limit]
);

/// Settings, impulses and prepared data of a prismatic joint.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct PrismaticJoint {
    pub target_translation: f32,
    /// Spring, motor (N) and translation limits (m) along the axis.
    pub spring: Spring,
    pub motor: Motor,
    pub limit: Limit,

    /// Line (N·s) and angle (N·m·s) impulses of the block constraint.
    pub impulse: Vec2,

    pub axial_mass: f32,
}

/// The total impulse along the axis.
pub(super) fn axial_impulse(j: &PrismaticJoint) -> f32 {
    j.spring.impulse + j.motor.impulse + j.limit.lower_impulse - j.limit.upper_impulse
}

pub(super) fn prepare(base: &JointBase, j: &mut PrismaticJoint, ctx: &StepContext) {
    j.axial_mass = axis_mass(base);
    j.spring.prepare(ctx.h);
}

#[inline(always)]
pub(super) fn warm_start(base: &JointBase, j: &PrismaticJoint, states: &[BodyState]) -> WarmStart {
    let (perp, angular) = (j.impulse.x, j.impulse.y);
    warm_start_line(base, states, axial_impulse(j), perp, angular)
}

#[inline(always)]
pub(super) fn solve(base: &JointBase, j: &mut PrismaticJoint, pass: &mut SolvePass) {
    let mut pair = Pair::load(base, pass.states);
    let g = pair.line(base);
    let row = g.axis_row();

    let mass = j.axial_mass;
    if j.spring.enable {
        let c = row.position - j.target_translation;
        row.solve_spring(&mut pair, &mut j.spring, mass, c);
    }
    if j.motor.enable {
        row.solve_motor(&mut pair, &mut j.motor, mass, pass.ctx.h);
    }
    if j.limit.enable {
        row.solve_limit(&mut pair, &mut j.limit, mass, base, pass);
    }

    // Line and angle constraints as one 2×2 block.
    {
        let line = g.perp_row();
        let (perp, s1, s2) = (line.axis, line.a1, line.a2);
        let cdot = Vec2::new(line.speed(&pair), pair.wb - pair.wa);

        let s = pass.softness(base);
        let bias = if pass.use_bias {
            Vec2::new(line.position, pair.angle(base)) * s.bias_rate
        } else {
            Vec2::ZERO
        };

        let (ma, ia, mb, ib) = (pair.ma, pair.ia, pair.mb, pair.ib);
        let k11 = ma + mb + ia * s1 * s1 + ib * s2 * s2;
        let k12 = ia * s1 + ib * s2;
        let mut k22 = ia + ib;
        if k22 == 0.0 {
            // Neither body can turn: the angle row is trivially satisfied.
            k22 = 1.0;
        }
        let k = Mat22::new(Vec2::new(k11, k12), Vec2::new(k12, k22));
        let b = k.solve(cdot + bias);
        let impulse = Vec2::new(
            -s.mass_scale * b.x - s.impulse_scale * j.impulse.x,
            -s.mass_scale * b.y - s.impulse_scale * j.impulse.y,
        );
        j.impulse += impulse;

        let p = perp * impulse.x;
        pair.va = Vec2::mul_sub(pair.va, ma, p);
        pair.wa -= ia * (impulse.x * s1 + impulse.y);
        pair.vb = Vec2::mul_add(pair.vb, mb, p);
        pair.wb += ib * (impulse.x * s2 + impulse.y);
    }

    pair.store(base, pass.states);
}
