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
use super::solver::{load, store};
use super::{
    JointBase, JointDef, JointKind, check_axis, check_non_negative, check_range, make_frames,
    reference_angle,
};

/// A prismatic joint definition.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(default)
)]
pub struct PrismaticJointDef {
    /// Bodies, anchors and common settings.
    pub base: JointDef,
    /// The sliding direction in body A's frame (normalised on creation; must
    /// not be zero).
    pub local_axis_a: Vec2,
    /// Angle of body B minus angle of body A that the joint keeps, radians.
    pub reference_angle: f32,
    /// Translation the spring pulls towards, metres.
    pub target_translation: f32,
    /// Whether the spring acts along the axis.
    pub enable_spring: bool,
    /// Spring stiffness, Hz (≥ 0).
    pub hertz: f32,
    /// Spring damping ratio (≥ 0).
    pub damping_ratio: f32,
    /// Whether the translation is limited.
    pub enable_limit: bool,
    /// Lowest translation, metres.
    pub lower_translation: f32,
    /// Highest translation, metres (≥ lower).
    pub upper_translation: f32,
    /// Whether the motor acts.
    pub enable_motor: bool,
    /// Target speed along the axis, m/s.
    pub motor_speed: f32,
    /// Largest force the motor applies, N (≥ 0).
    pub max_motor_force: f32,
}

impl Default for PrismaticJointDef {
    fn default() -> Self {
        PrismaticJointDef {
            base: JointDef::default(),
            local_axis_a: Vec2::X,
            reference_angle: 0.0,
            target_translation: 0.0,
            enable_spring: false,
            hertz: 0.0,
            damping_ratio: 0.0,
            enable_limit: false,
            lower_translation: 0.0,
            upper_translation: 0.0,
            enable_motor: false,
            motor_speed: 0.0,
            max_motor_force: 0.0,
        }
    }
}

impl PrismaticJointDef {
    /// Checks every number; the first bad field is named in the error.
    pub fn validate(&self) -> Result<()> {
        self.base.validate()?;
        check_axis(self.local_axis_a, "prismatic axis")?;
        check_finite(self.reference_angle, "prismatic reference angle")?;
        check_finite(self.target_translation, "prismatic target translation")?;
        check_non_negative(self.hertz, "prismatic spring hertz")?;
        check_non_negative(self.damping_ratio, "prismatic spring damping ratio")?;
        check_range(
            self.lower_translation,
            self.upper_translation,
            "prismatic translation limits",
        )?;
        check_finite(self.motor_speed, "prismatic motor speed")?;
        check_non_negative(self.max_motor_force, "prismatic max motor force")?;
        Ok(())
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
    let (ra, rb) = (base.frame_a.p, base.frame_b.p);
    let axis = base.frame_a.q.x_axis();
    let d = base.delta_center + (rb - ra);
    let a1 = (d + ra).cross(axis);
    let a2 = rb.cross(axis);
    let k = base.inv_mass_a + base.inv_mass_b + base.inv_i_a * a1 * a1 + base.inv_i_b * a2 * a2;
    j.axial_mass = if k > 0.0 { 1.0 / k } else { 0.0 };
    j.spring.prepare(ctx.h);
    if !ctx.enable_warm_starting {
        clear_impulses(j);
    }
}

/// Forgets the accumulated impulses (nothing to warm start from).
pub(super) fn clear_impulses(j: &mut PrismaticJoint) {
    j.impulse = Vec2::ZERO;
    j.spring.impulse = 0.0;
    j.motor.impulse = 0.0;
    j.limit.reset();
}

/// The current anchors, separation and axis from the bodies' deltas.
struct Geometry {
    ra: Vec2,
    rb: Vec2,
    d: Vec2,
    axis: Vec2,
}

fn geometry(base: &JointBase, sa: &BodyState, sb: &BodyState) -> Geometry {
    let ra = sa.delta_rotation.rotate(base.frame_a.p);
    let rb = sb.delta_rotation.rotate(base.frame_b.p);
    let d = (sb.delta_position - sa.delta_position) + base.delta_center + (rb - ra);
    let axis = sa.delta_rotation.rotate(base.frame_a.q.x_axis());
    Geometry { ra, rb, d, axis }
}

pub(super) fn warm_start(base: &JointBase, j: &mut PrismaticJoint, states: &mut [BodyState]) {
    let sa = load(states, base.index_a);
    let sb = load(states, base.index_b);
    let g = geometry(base, &sa, &sb);
    let perp = g.axis.left_perp();

    let a1 = (g.d + g.ra).cross(g.axis);
    let a2 = g.rb.cross(g.axis);
    let s1 = (g.d + g.ra).cross(perp);
    let s2 = g.rb.cross(perp);
    let axial = axial_impulse(j);
    let p = g.axis * axial + perp * j.impulse.x;
    let la = axial * a1 + j.impulse.x * s1 + j.impulse.y;
    let lb = axial * a2 + j.impulse.x * s2 + j.impulse.y;

    let va = Vec2::mul_sub(sa.linear_velocity, base.inv_mass_a, p);
    let wa = sa.angular_velocity - base.inv_i_a * la;
    let vb = Vec2::mul_add(sb.linear_velocity, base.inv_mass_b, p);
    let wb = sb.angular_velocity + base.inv_i_b * lb;
    store(states, base.index_a, va, wa);
    store(states, base.index_b, vb, wb);
}

pub(super) fn solve(
    base: &JointBase,
    j: &mut PrismaticJoint,
    states: &mut [BodyState],
    ctx: &StepContext,
    use_bias: bool,
) {
    let sa = load(states, base.index_a);
    let sb = load(states, base.index_b);
    let (ma, ia, mb, ib) = (base.inv_mass_a, base.inv_i_a, base.inv_mass_b, base.inv_i_b);
    let (mut va, mut wa) = (sa.linear_velocity, sa.angular_velocity);
    let (mut vb, mut wb) = (sb.linear_velocity, sb.angular_velocity);

    let g = geometry(base, &sa, &sb);
    let axis = g.axis;
    let translation = axis.dot(g.d);
    // Lever arms of forces along the axis.
    let a1 = (g.d + g.ra).cross(axis);
    let a2 = g.rb.cross(axis);

    // Applies an impulse along the axis.
    let apply_axial = |impulse: f32, va: &mut Vec2, wa: &mut f32, vb: &mut Vec2, wb: &mut f32| {
        let p = axis * impulse;
        *va = Vec2::mul_sub(*va, ma, p);
        *wa -= ia * impulse * a1;
        *vb = Vec2::mul_add(*vb, mb, p);
        *wb += ib * impulse * a2;
    };

    if j.spring.enable {
        let c = translation - j.target_translation;
        let cdot = axis.dot(vb - va) + a2 * wb - a1 * wa;
        let impulse = j.spring.solve(j.axial_mass, c, cdot);
        apply_axial(impulse, &mut va, &mut wa, &mut vb, &mut wb);
    }

    if j.motor.enable {
        let cdot = axis.dot(vb - va) + a2 * wb - a1 * wa;
        let impulse = j.motor.solve(j.axial_mass, cdot, ctx.h);
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

        // The upper bound pushes the other way.
        let cdot = axis.dot(va - vb) + a1 * wa - a2 * wb;
        let impulse = j.limit.solve_upper(&row, cdot);
        apply_axial(-impulse, &mut va, &mut wa, &mut vb, &mut wb);
    }

    // Line and angle constraints as one 2×2 block.
    {
        let perp = axis.left_perp();
        let s1 = (g.d + g.ra).cross(perp);
        let s2 = g.rb.cross(perp);
        let cdot = Vec2::new(perp.dot(vb - va) + s2 * wb - s1 * wa, wb - wa);

        let (bias, mass_scale, impulse_scale) = if use_bias {
            let qa = sa.delta_rotation.mul(base.frame_a.q);
            let qb = sb.delta_rotation.mul(base.frame_b.q);
            let c = Vec2::new(perp.dot(g.d), qa.relative_angle(qb));
            let s = base.softness;
            (c * s.bias_rate, s.mass_scale, s.impulse_scale)
        } else {
            (Vec2::ZERO, 1.0, 0.0)
        };

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
        let la = impulse.x * s1 + impulse.y;
        let lb = impulse.x * s2 + impulse.y;
        va = Vec2::mul_sub(va, ma, p);
        wa -= ia * la;
        vb = Vec2::mul_add(vb, mb, p);
        wb += ib * lb;
    }

    store(states, base.index_a, va, wa);
    store(states, base.index_b, vb, wb);
}

impl PrismaticJointDef {
    /// Checks the definition and makes the joint frames and data.
    pub(crate) fn build(&self) -> Result<(Transform, Transform, JointKind)> {
        self.validate()?;
        let (fa, fb) = make_frames(
            self.base.local_anchor_a,
            self.base.local_anchor_b,
            self.local_axis_a,
            self.reference_angle,
        );
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
