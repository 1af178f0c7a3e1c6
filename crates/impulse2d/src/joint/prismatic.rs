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
use crate::math::{Mat22, Transform, Vec2};
use crate::solver::StepContext;

use super::axial::{Limit, LimitRow, Motor, Spring};
use super::pair::{Line, Pair, axial_mass, warm_start_bodies};
use super::{
    JointBase, JointDef, JointKind, check_axis, check_non_negative, check_range, reference_angle,
};

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
        /// Translation the spring pulls towards, metres.
        ///
        /// Box2D: `b2PrismaticJointDef.targetTranslation`.
        pub target_translation: f32 = 0.0, check_finite("prismatic target translation");
        /// Box2D: `b2PrismaticJointDef.enableSpring`, `b2PrismaticJointDef.hertz`,
        /// `b2PrismaticJointDef.dampingRatio`.
        spring(enable_spring = false, hertz = 0.0, damping_ratio = 0.0);
        /// Box2D: `b2PrismaticJointDef.enableLimit`, `b2PrismaticJointDef.lowerTranslation`,
        /// `b2PrismaticJointDef.upperTranslation`.
        limit(enable_limit = false, lower_translation = 0.0, upper_translation = 0.0) "metres";
        /// Box2D: `b2PrismaticJointDef.enableMotor`, `b2PrismaticJointDef.motorSpeed`,
        /// `b2PrismaticJointDef.maxMotorForce`.
        motor(enable_motor = false, motor_speed = 0.0, max_motor_force = 0.0) "m/s", "N";
    }
}

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
    let line = Line::prepared(base);
    let (a1, a2) = line.arms(line.axis);
    j.axial_mass = axial_mass(base, a1, a2);
    j.spring.prepare(ctx.h);
}

/// Forgets the accumulated impulses (nothing to warm start from).
pub(super) fn clear_impulses(j: &mut PrismaticJoint) {
    j.impulse = Vec2::ZERO;
    j.spring.impulse = 0.0;
    j.motor.impulse = 0.0;
    j.limit.reset();
}

#[inline(always)]
pub(super) fn warm_start(base: &JointBase, j: &mut PrismaticJoint, states: &mut [BodyState]) {
    let g = Pair::load(base, states).line(base);
    let perp = g.axis.left_perp();
    let (a1, a2) = g.arms(g.axis);
    let (s1, s2) = g.arms(perp);
    let axial = axial_impulse(j);
    let p = g.axis * axial + perp * j.impulse.x;
    let la = axial * a1 + j.impulse.x * s1 + j.impulse.y;
    let lb = axial * a2 + j.impulse.x * s2 + j.impulse.y;
    warm_start_bodies(base, states, p, la, lb);
}

#[inline(always)]
pub(super) fn solve(
    base: &JointBase,
    j: &mut PrismaticJoint,
    states: &mut [BodyState],
    ctx: &StepContext,
    use_bias: bool,
) {
    let mut pair = Pair::load(base, states);
    let g = pair.line(base);
    let axis = g.axis;
    let translation = axis.dot(g.d);
    let (a1, a2) = g.arms(axis);
    let speed = |p: &Pair| p.axial_speed(axis, a1, a2);
    let apply = |p: &mut Pair, impulse: f32| p.apply_axial(impulse, axis, a1, a2);

    if j.spring.enable {
        let c = translation - j.target_translation;
        let impulse = j.spring.solve(j.axial_mass, c, speed(&pair));
        apply(&mut pair, impulse);
    }

    if j.motor.enable {
        let impulse = j.motor.solve(j.axial_mass, speed(&pair), ctx.h);
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

    // Line and angle constraints as one 2×2 block.
    {
        let perp = axis.left_perp();
        let (s1, s2) = g.arms(perp);
        let cdot = Vec2::new(pair.axial_speed(perp, s1, s2), pair.wb - pair.wa);

        let (bias, mass_scale, impulse_scale) = if use_bias {
            let c = Vec2::new(perp.dot(g.d), pair.angle(base));
            let s = base.softness;
            (c * s.bias_rate, s.mass_scale, s.impulse_scale)
        } else {
            (Vec2::ZERO, 1.0, 0.0)
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
            -mass_scale * b.x - impulse_scale * j.impulse.x,
            -mass_scale * b.y - impulse_scale * j.impulse.y,
        );
        j.impulse += impulse;

        let p = perp * impulse.x;
        pair.va = Vec2::mul_sub(pair.va, ma, p);
        pair.wa -= ia * (impulse.x * s1 + impulse.y);
        pair.vb = Vec2::mul_add(pair.vb, mb, p);
        pair.wb += ib * (impulse.x * s2 + impulse.y);
    }

    pair.store(base, states);
}

impl PrismaticJointDef {
    /// Checks the definition and makes the joint frames and data.
    pub(crate) fn build(&self) -> Result<(Transform, Transform, JointKind)> {
        self.validate()?;
        let (fa, fb) = self.base.frames(self.local_axis_a, self.reference_angle);
        let joint = PrismaticJoint {
            target_translation: self.target_translation,
            spring: Spring::new(self.enable_spring, self.hertz, self.damping_ratio),
            motor: Motor::new(self.enable_motor, self.motor_speed, self.max_motor_force),
            limit: Limit::new(
                self.enable_limit,
                self.lower_translation,
                self.upper_translation,
            ),
            ..PrismaticJoint::default()
        };
        Ok((fa, fb, JointKind::Prismatic(joint)))
    }

    /// The definition an existing joint would be re-created with.
    pub(crate) fn read(base: JointDef, sim: &JointBase, j: &PrismaticJoint) -> Self {
        PrismaticJointDef {
            base,
            local_axis_a: sim.local_frame_a.q.x_axis(),
            reference_angle: reference_angle(sim),
            target_translation: j.target_translation,
            enable_spring: j.spring.enable,
            hertz: j.spring.hertz,
            damping_ratio: j.spring.damping_ratio,
            enable_limit: j.limit.enable,
            lower_translation: j.limit.lower,
            upper_translation: j.limit.upper,
            enable_motor: j.motor.enable,
            motor_speed: j.motor.speed,
            max_motor_force: j.motor.max_force,
        }
    }
}
