//! The distance joint: keeps two anchor points at a fixed distance (a rigid
//! rod), or pulls them towards a rest length with a spring, optionally within
//! a length range (a rope is a spring of zero stiffness with a maximum
//! length) and driven by a motor.
//!
//! With `d = p_b + r_b − p_a − r_a`, `L = |d|` and `u = d / L`:
//! `C = L − L_rest`, `J = [−u, −r_a×u, u, r_b×u]`. The same row serves the
//! spring, the speculative limits `L_min ≤ L ≤ L_max` and the motor
//! (`L̇ = v_motor`, `|F| ≤ F_max`).
//!
//! # References
//! - E. Catto, Box2D v3 `distance_joint.c`.

use crate::body::BodyState;
use crate::core::{HUGE, LINEAR_SLOP};
use crate::error::{Result, check_finite};
use crate::math::{Transform, Vec2};
use crate::solver::StepContext;

use super::axial::{Limit, LimitRow, Motor, Spring};
use super::solver::{load, store};
use super::{JointBase, JointDef, JointKind, check_non_negative, check_range, make_frames};

/// A distance joint definition.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(default)
)]
pub struct DistanceJointDef {
    /// Bodies, anchors and common settings.
    pub base: JointDef,
    /// The rest length, metres (≥ 0; raised to the linear slop).
    pub length: f32,
    /// Whether the joint is a spring instead of a rigid rod.
    pub enable_spring: bool,
    /// Lower bound of the spring's force, N. The spring force along the
    /// line from anchor A to anchor B is positive when it pushes the anchors
    /// apart (compression) and negative when it pulls them together
    /// (tension); it is clamped to `[lower_spring_force, upper_spring_force]`.
    /// So `−lower_spring_force` is the most tension the spring sustains
    /// (default `−f32::MAX`: no bound; zero: a spring that never pulls).
    /// Box2D: `b2DistanceJointDef.lowerSpringForce`.
    pub lower_spring_force: f32,
    /// Upper bound of the spring's force, N (≥ `lower_spring_force`): the
    /// most compression it sustains (default `f32::MAX`; zero: a spring that
    /// never pushes, like a rubber band).
    /// Box2D: `b2DistanceJointDef.upperSpringForce`.
    pub upper_spring_force: f32,
    /// Spring stiffness, Hz (≥ 0; zero means no spring force at all, which
    /// with a limit makes a rope).
    pub hertz: f32,
    /// Spring damping ratio (≥ 0).
    pub damping_ratio: f32,
    /// Whether the length range is enforced (only matters for a spring).
    pub enable_limit: bool,
    /// Shortest length, metres (≥ 0).
    pub min_length: f32,
    /// Longest length, metres (≥ min).
    pub max_length: f32,
    /// Whether the motor acts (only for a spring).
    pub enable_motor: bool,
    /// Target rate of change of the length, m/s.
    pub motor_speed: f32,
    /// Largest motor force, N (≥ 0).
    pub max_motor_force: f32,
}

impl Default for DistanceJointDef {
    fn default() -> Self {
        DistanceJointDef {
            base: JointDef::default(),
            length: 1.0,
            enable_spring: false,
            lower_spring_force: -f32::MAX,
            upper_spring_force: f32::MAX,
            hertz: 0.0,
            damping_ratio: 0.0,
            enable_limit: false,
            min_length: 0.0,
            max_length: HUGE,
            enable_motor: false,
            motor_speed: 0.0,
            max_motor_force: 0.0,
        }
    }
}

impl DistanceJointDef {
    /// Checks every number; the first bad field is named in the error.
    pub fn validate(&self) -> Result<()> {
        self.base.validate()?;
        check_non_negative(self.length, "distance joint length")?;
        check_non_negative(self.hertz, "distance spring hertz")?;
        check_non_negative(self.damping_ratio, "distance spring damping ratio")?;
        check_force_range(self.lower_spring_force, self.upper_spring_force)?;
        check_non_negative(self.min_length, "distance min length")?;
        check_range(self.min_length, self.max_length, "distance length range")?;
        check_finite(self.motor_speed, "distance motor speed")?;
        check_non_negative(self.max_motor_force, "distance max motor force")?;
        Ok(())
    }
}

/// Settings, impulses and prepared data of a distance joint.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct DistanceJoint {
    pub length: f32,
    /// The spring; its impulse is the rod's when the spring is off, N·s.
    pub spring: Spring,
    /// Bounds of the spring force, N.
    pub lower_spring_force: f32,
    pub upper_spring_force: f32,
    /// The length range (m) and the motor (N).
    pub limit: Limit,
    pub motor: Motor,

    pub axial_mass: f32,
}

/// The total impulse along the line between the anchors.
pub(super) fn axial_impulse(j: &DistanceJoint) -> f32 {
    j.spring.impulse + j.limit.lower_impulse - j.limit.upper_impulse + j.motor.impulse
}

/// A rest length or a bound of the length range as the joint keeps it,
/// metres.
pub(crate) fn clamp_length(length: f32) -> f32 {
    length.clamp(LINEAR_SLOP, HUGE)
}

/// The length range as the joint keeps it (`min ≤ max`), metres.
pub(crate) fn clamp_range(min: f32, max: f32) -> (f32, f32) {
    let min = clamp_length(min);
    (min, clamp_length(max).max(min))
}

/// Checks a spring force range: not NaN, `lower ≤ upper` (either may be
/// infinite).
pub(crate) fn check_force_range(lower: f32, upper: f32) -> Result<()> {
    let what = "distance spring force range";
    if lower.is_nan() || upper.is_nan() {
        return Err(crate::error::Error::NonFinite { what });
    }
    if lower > upper {
        return Err(crate::error::Error::OutOfRange {
            what,
            expected: "lower <= upper",
            value: lower,
        });
    }
    Ok(())
}

pub(super) fn prepare(base: &JointBase, j: &mut DistanceJoint, ctx: &StepContext) {
    let (ra, rb) = (base.frame_a.p, base.frame_b.p);
    let axis = (base.delta_center + (rb - ra)).normalize();
    let cra = ra.cross(axis);
    let crb = rb.cross(axis);
    let k = base.inv_mass_a + base.inv_mass_b + base.inv_i_a * cra * cra + base.inv_i_b * crb * crb;
    j.axial_mass = if k > 0.0 { 1.0 / k } else { 0.0 };
    j.spring.prepare(ctx.h);
    if !ctx.enable_warm_starting {
        clear_impulses(j);
    }
}

/// Forgets the accumulated impulses (nothing to warm start from).
pub(super) fn clear_impulses(j: &mut DistanceJoint) {
    j.spring.impulse = 0.0;
    j.limit.reset();
    j.motor.impulse = 0.0;
}

pub(super) fn warm_start(base: &JointBase, j: &mut DistanceJoint, states: &mut [BodyState]) {
    let sa = load(states, base.index_a);
    let sb = load(states, base.index_b);
    let ra = sa.delta_rotation.rotate(base.frame_a.p);
    let rb = sb.delta_rotation.rotate(base.frame_b.p);
    let d = (sb.delta_position - sa.delta_position) + base.delta_center + (rb - ra);
    let p = d.normalize() * axial_impulse(j);

    let va = Vec2::mul_sub(sa.linear_velocity, base.inv_mass_a, p);
    let wa = sa.angular_velocity - base.inv_i_a * ra.cross(p);
    let vb = Vec2::mul_add(sb.linear_velocity, base.inv_mass_b, p);
    let wb = sb.angular_velocity + base.inv_i_b * rb.cross(p);
    store(states, base.index_a, va, wa);
    store(states, base.index_b, vb, wb);
}

pub(super) fn solve(
    base: &JointBase,
    j: &mut DistanceJoint,
    states: &mut [BodyState],
    ctx: &StepContext,
    use_bias: bool,
) {
    let sa = load(states, base.index_a);
    let sb = load(states, base.index_b);
    let (ma, ia, mb, ib) = (base.inv_mass_a, base.inv_i_a, base.inv_mass_b, base.inv_i_b);
    let (mut va, mut wa) = (sa.linear_velocity, sa.angular_velocity);
    let (mut vb, mut wb) = (sb.linear_velocity, sb.angular_velocity);

    let ra = sa.delta_rotation.rotate(base.frame_a.p);
    let rb = sb.delta_rotation.rotate(base.frame_b.p);
    let d = (sb.delta_position - sa.delta_position) + base.delta_center + (rb - ra);
    let (axis, length) = d.get_length_and_normalize();

    // Relative speed of the anchors along the axis.
    let speed = |va: Vec2, wa: f32, vb: Vec2, wb: f32| {
        axis.dot((vb + Vec2::scalar_cross(wb, rb)) - (va + Vec2::scalar_cross(wa, ra)))
    };
    let apply = |impulse: f32, va: &mut Vec2, wa: &mut f32, vb: &mut Vec2, wb: &mut f32| {
        let p = axis * impulse;
        *va = Vec2::mul_sub(*va, ma, p);
        *wa -= ia * ra.cross(p);
        *vb = Vec2::mul_add(*vb, mb, p);
        *wb += ib * rb.cross(p);
    };

    // Soft when the spring is on, unless a limit pins the length anyway.
    let is_spring = j.spring.enable && (j.limit.lower < j.limit.upper || !j.limit.enable);
    if is_spring {
        if j.spring.hertz > 0.0 {
            let c = length - j.length;
            let cdot = speed(va, wa, vb, wb);
            let old = j.spring.impulse;
            let mut impulse = j.spring.solve(j.axial_mass, c, cdot);
            // The force range binds rarely; only then is the step's impulse
            // recomputed from the clamped total.
            let (lower, upper) = (j.lower_spring_force * ctx.h, j.upper_spring_force * ctx.h);
            if j.spring.impulse < lower || j.spring.impulse > upper {
                j.spring.impulse = j.spring.impulse.clamp(lower, upper);
                impulse = j.spring.impulse - old;
            }
            apply(impulse, &mut va, &mut wa, &mut vb, &mut wb);
        }

        if j.limit.enable {
            let row = LimitRow {
                position: length,
                mass: j.axial_mass,
                base,
                ctx,
                use_bias,
            };
            let impulse = j.limit.solve_lower(&row, speed(va, wa, vb, wb));
            apply(impulse, &mut va, &mut wa, &mut vb, &mut wb);

            let impulse = j.limit.solve_upper(&row, -speed(va, wa, vb, wb));
            apply(-impulse, &mut va, &mut wa, &mut vb, &mut wb);
        }

        if j.motor.enable {
            let impulse = j.motor.solve(j.axial_mass, speed(va, wa, vb, wb), ctx.h);
            apply(impulse, &mut va, &mut wa, &mut vb, &mut wb);
        }
    } else {
        // Rigid rod.
        let c = length - j.length;
        let (bias, mass_scale, impulse_scale) = if use_bias {
            let s = base.softness;
            (s.bias_rate * c, s.mass_scale, s.impulse_scale)
        } else {
            (0.0, 1.0, 0.0)
        };
        let cdot = speed(va, wa, vb, wb);
        let impulse = -mass_scale * j.axial_mass * (cdot + bias) - impulse_scale * j.spring.impulse;
        j.spring.impulse += impulse;
        apply(impulse, &mut va, &mut wa, &mut vb, &mut wb);
    }

    store(states, base.index_a, va, wa);
    store(states, base.index_b, vb, wb);
}

impl DistanceJointDef {
    /// Checks the definition and makes the joint frames and data.
    pub(crate) fn build(&self) -> Result<(Transform, Transform, JointKind)> {
        self.validate()?;
        let (fa, fb) = make_frames(
            self.base.local_anchor_a,
            self.base.local_anchor_b,
            Vec2::X,
            0.0,
        );
        let (min_length, max_length) = clamp_range(self.min_length, self.max_length);
        let joint = DistanceJoint {
            length: clamp_length(self.length),
            spring: Spring::new(self.enable_spring, self.hertz, self.damping_ratio),
            lower_spring_force: self.lower_spring_force,
            upper_spring_force: self.upper_spring_force,
            limit: Limit::new(self.enable_limit, min_length, max_length),
            motor: Motor::new(self.enable_motor, self.motor_speed, self.max_motor_force),
            ..DistanceJoint::default()
        };
        Ok((fa, fb, JointKind::Distance(joint)))
    }

    /// The definition an existing joint would be re-created with.
    pub(crate) fn read(base: JointDef, j: &DistanceJoint) -> Self {
        DistanceJointDef {
            base,
            length: j.length,
            enable_spring: j.spring.enable,
            lower_spring_force: j.lower_spring_force,
            upper_spring_force: j.upper_spring_force,
            hertz: j.spring.hertz,
            damping_ratio: j.spring.damping_ratio,
            enable_limit: j.limit.enable,
            min_length: j.limit.lower,
            max_length: j.limit.upper,
            enable_motor: j.motor.enable,
            motor_speed: j.motor.speed,
            max_motor_force: j.motor.max_force,
        }
    }
}
