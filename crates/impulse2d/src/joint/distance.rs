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

use super::axial::{Limit, Motor, Spring, spring_impulse};
use super::pair::{Pair, WarmStart, axial_mass};
use super::solver::SolvePass;
use super::{DefFields, JointBase, JointDef, JointKind, check_non_negative, check_range};

joint_def! {
    /// A distance joint definition.
    ///
    /// Box2D: `b2DefaultDistanceJointDef`.
    pub struct DistanceJointDef("distance joint") {
        /// Bodies, anchors and common settings.
        ///
        /// Box2D: `b2DistanceJointDef.base`.
        pub base: JointDef;
        /// The rest length, metres (≥ 0; raised to the linear slop).
        ///
        /// Box2D: `b2DistanceJointDef.length`.
        pub length: f32 = 1.0, check_non_negative("distance joint length");
        /// Whether the joint is a spring instead of a rigid rod.
        ///
        /// Box2D: `b2DistanceJointDef.enableSpring`.
        pub enable_spring: bool = false;
        /// Lower bound of the spring's force, N. The spring force along the
        /// line from anchor A to anchor B is positive when it pushes the
        /// anchors apart (compression) and negative when it pulls them
        /// together (tension); it is clamped to
        /// `[lower_spring_force, upper_spring_force]`. So `−lower_spring_force`
        /// is the most tension the spring sustains (default `−f32::MAX`: no
        /// bound; zero: a spring that never pulls).
        ///
        /// Box2D: `b2DistanceJointDef.lowerSpringForce`.
        pub lower_spring_force: f32 = -f32::MAX;
        /// Upper bound of the spring's force, N (≥ `lower_spring_force`): the
        /// most compression it sustains (default `f32::MAX`; zero: a spring
        /// that never pushes, like a rubber band).
        ///
        /// Box2D: `b2DistanceJointDef.upperSpringForce`.
        pub upper_spring_force: f32 = f32::MAX;
        /// Box2D: `b2DistanceJointDef.hertz`, `b2DistanceJointDef.dampingRatio`.
        stiffness(hertz = 0.0, damping_ratio = 0.0);
        /// Whether the length range is enforced (only matters for a spring).
        ///
        /// Box2D: `b2DistanceJointDef.enableLimit`.
        pub enable_limit: bool = false;
        /// Shortest length, metres (≥ 0).
        ///
        /// Box2D: `b2DistanceJointDef.minLength`.
        pub min_length: f32 = 0.0, check_non_negative("distance min length");
        /// Longest length, metres (≥ min).
        ///
        /// Box2D: `b2DistanceJointDef.maxLength`.
        pub max_length: f32 = HUGE;
        /// Box2D: `b2DistanceJointDef.enableMotor`, `b2DistanceJointDef.motorSpeed`,
        /// `b2DistanceJointDef.maxMotorForce`.
        motor(enable_motor = false, motor_speed = 0.0, max_motor_force = 0.0) "m/s", "N";
    }
    also validate_ranges;
}

impl DistanceJointDef {
    fn validate_ranges(&self) -> Result<()> {
        check_range(self.min_length, self.max_length, "distance length range")?;
        check_force_range(self.lower_spring_force, self.upper_spring_force)
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
    j.axial_mass = axial_mass(base, ra.cross(axis), rb.cross(axis));
    j.spring.prepare(ctx.h);
}

#[inline(always)]
pub(super) fn warm_start(base: &JointBase, j: &DistanceJoint, states: &[BodyState]) -> WarmStart {
    let pair = Pair::load(base, states);
    let (ra, rb) = pair.anchors(base);
    let d = pair.anchor_separation(base, ra, rb);
    let p = d.normalize() * axial_impulse(j);
    WarmStart {
        p,
        la: ra.cross(p),
        lb: rb.cross(p),
    }
}

#[inline(always)]
pub(super) fn solve(base: &JointBase, j: &mut DistanceJoint, pass: &mut SolvePass) {
    let mut pair = Pair::load(base, pass.states);
    let (ra, rb) = pair.anchors(base);
    let d = pair.anchor_separation(base, ra, rb);
    let (axis, length) = d.get_length_and_normalize();

    // Relative speed of the anchors along the axis.
    let speed = |p: &Pair| axis.dot(p.point_velocity(ra, rb));
    let apply = |p: &mut Pair, impulse: f32| p.apply_point(axis * impulse, ra, rb);
    let h = pass.ctx.h;

    // Soft when the spring is on, unless a limit pins the length anyway.
    let is_spring = j.spring.enable && (j.limit.lower < j.limit.upper || !j.limit.enable);
    if is_spring {
        if j.spring.hertz > 0.0 {
            let c = length - j.length;
            let (lower, upper) = (j.lower_spring_force * h, j.upper_spring_force * h);
            let impulse = j
                .spring
                .solve_clamped(j.axial_mass, c, speed(&pair), lower, upper);
            apply(&mut pair, impulse);
        }

        if j.limit.enable {
            let row = pass.limit_row(base, length, j.axial_mass);
            pair.solve_limit(&mut j.limit, &row, speed, |p| -speed(p), apply);
        }

        if j.motor.enable {
            let impulse = j.motor.solve(j.axial_mass, speed(&pair), h);
            apply(&mut pair, impulse);
        }
    } else {
        // Rigid rod.
        let c = length - j.length;
        let soft = pass.softness(base);
        let impulse = spring_impulse(soft, j.axial_mass, c, speed(&pair), &mut j.spring.impulse);
        apply(&mut pair, impulse);
    }

    pair.store(base, pass.states);
}

impl DistanceJointDef {
    /// Checks the definition and makes the joint frames and data.
    pub(crate) fn build(&self) -> Result<(Transform, Transform, JointKind)> {
        self.validate()?;
        let (fa, fb) = self.base.frames(Vec2::X, 0.0);
        let (min_length, max_length) = clamp_range(self.min_length, self.max_length);
        let joint = DistanceJoint {
            length: clamp_length(self.length),
            spring: Spring::new(self.enable_spring, self.hertz, self.damping_ratio),
            lower_spring_force: self.lower_spring_force,
            upper_spring_force: self.upper_spring_force,
            limit: Limit::new(self.enable_limit, min_length, max_length),
            motor: DefFields::get(self),
            ..DistanceJoint::default()
        };
        Ok((fa, fb, JointKind::Distance(joint)))
    }

    /// The definition an existing joint would be re-created with.
    pub(crate) fn read(base: JointDef, j: &DistanceJoint) -> Self {
        let mut def = DistanceJointDef {
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
            ..Self::default()
        };
        DefFields::set(&mut def, &j.motor);
        def
    }
}
