//! The motor joint: drives body B towards a target pose or velocity
//! relative to body A with bounded force and torque. Typical uses: move a
//! body along a path, hold it in place against pushes, drag it with the
//! mouse (the spring), or give a top-down body friction (a zero velocity
//! target), without the joint ever becoming infinitely strong.
//!
//! The target pose for anchor B is the point `anchor_a + linear_offset` of
//! body A and the angle `θ_b − θ_a = angular_offset`. Three drives act on it,
//! in this order within a substep, angular rows before linear ones:
//! - the spring (Box2D v3.2): soft rows `C = θ − θ_target` and
//!   `C = p_b − p_target` with their own stiffness (hertz) and damping, the
//!   accumulated torque and force clamped to `max_spring_torque` and
//!   `max_spring_force` (the force as a vector);
//! - the velocity drive (Box2D v3.2): `ω_b − ω_a = ω_target` and
//!   `v_b − v_a = v_target` (at the anchors), clamped to
//!   `max_velocity_torque` and `max_velocity_force`;
//! - the offset drive (Box2D v3.0): removes the fraction
//!   `correction_factor` of the pose error per substep (`bias = β·C/h`),
//!   clamped to `max_torque` and `max_force`.
//!
//! All act the same in the bias and relax passes. A drive with a zero bound
//! does nothing.
//!
//! # References
//! - E. Catto, Box2D v3.0 and v3.2 `motor_joint.c`.

use crate::body::{BodySim, BodyState};
use crate::error::{Error, Result, check_finite, check_finite_vec};
use crate::math::{Mat22, Transform, Vec2, unwind_angle};
use crate::solver::StepContext;
use crate::solver::softness::Softness;

use super::pair::{Pair, WarmStart, invert, point_mass_matrix, warm_start_point};
use super::solver::SolvePass;
use super::{JointBase, JointDef, JointKind, check_non_negative};

joint_def! {
    /// A motor joint definition. The anchors in `base` default to the body
    /// origins.
    ///
    /// The joint has three drives, each off while its force and torque bounds
    /// are zero (the default):
    /// - the offset drive of Box2D v3.0 (`linear_offset`, `angular_offset`,
    ///   `max_force`, `max_torque`, `correction_factor`): removes a fraction of
    ///   the pose error per substep;
    /// - the velocity drive of Box2D v3.2 (`linear_velocity`,
    ///   `angular_velocity`, `max_velocity_force`, `max_velocity_torque`):
    ///   drives the relative velocity of B to a target, like top-down
    ///   friction when the target is zero;
    /// - the spring of Box2D v3.2 (`linear_hertz`, `linear_damping_ratio`,
    ///   `max_spring_force`, `angular_hertz`, `angular_damping_ratio`,
    ///   `max_spring_torque`): pulls B to the target pose (the offsets) with a
    ///   stiffness in hertz, bounded (a mouse drag is a motor joint spring).
    ///
    /// Box2D: `b2DefaultMotorJointDef`.
    pub struct MotorJointDef("motor joint") {
        /// Bodies, anchors and common settings.
        ///
        /// Box2D: `b2MotorJointDef.base`.
        pub base: JointDef;
        /// Where anchor B should be, relative to anchor A in body A's frame,
        /// metres (the target of the offset drive and of the spring).
        ///
        /// Box2D v3.0: `b2MotorJointDef.linearOffset` (v3.2 keeps it in `b2JointDef.localFrameA`).
        pub linear_offset: Vec2 = Vec2::ZERO, check_finite_vec("motor joint linear offset");
        /// Angle of body B minus angle of body A to reach, radians.
        ///
        /// Box2D v3.0: `b2MotorJointDef.angularOffset` (v3.2 keeps it in `b2JointDef.localFrameB`).
        pub angular_offset: f32 = 0.0, check_finite("motor joint angular offset");
        /// Largest force of the offset drive, N (≥ 0).
        ///
        /// Box2D v3.0: `b2MotorJointDef.maxForce`.
        pub max_force: f32 = 0.0, check_non_negative("motor joint max force");
        /// Largest torque of the offset drive, N·m (≥ 0).
        ///
        /// Box2D v3.0: `b2MotorJointDef.maxTorque`.
        pub max_torque: f32 = 0.0, check_non_negative("motor joint max torque");
        /// Fraction of the offset error removed per substep, in `[0, 1]`.
        ///
        /// Box2D v3.0: `b2MotorJointDef.correctionFactor`.
        pub correction_factor: f32 = 0.3, check_correction("motor joint correction factor");
        /// Target velocity of body B relative to body A, world frame, m/s.
        ///
        /// Box2D: `b2MotorJointDef.linearVelocity`.
        pub linear_velocity: Vec2 = Vec2::ZERO, check_finite_vec("motor joint linear velocity");
        /// Largest force of the velocity drive, N (≥ 0; zero: off).
        ///
        /// Box2D: `b2MotorJointDef.maxVelocityForce`.
        pub max_velocity_force: f32 = 0.0, check_non_negative("motor joint max velocity force");
        /// Target angular velocity of body B relative to body A, rad/s.
        ///
        /// Box2D: `b2MotorJointDef.angularVelocity`.
        pub angular_velocity: f32 = 0.0, check_finite("motor joint angular velocity");
        /// Largest torque of the velocity drive, N·m (≥ 0; zero: off).
        ///
        /// Box2D: `b2MotorJointDef.maxVelocityTorque`.
        pub max_velocity_torque: f32 = 0.0, check_non_negative("motor joint max velocity torque");
        /// Box2D: `b2MotorJointDef.linearHertz`, `b2MotorJointDef.linearDampingRatio`.
        stiffness(linear_hertz = 0.0, linear_damping_ratio = 0.0);
        /// Largest force of the linear spring, N (≥ 0; zero: off).
        ///
        /// Box2D: `b2MotorJointDef.maxSpringForce`.
        pub max_spring_force: f32 = 0.0, check_non_negative("motor joint max spring force");
        /// Box2D: `b2MotorJointDef.angularHertz`, `b2MotorJointDef.angularDampingRatio`.
        stiffness(angular_hertz = 0.0, angular_damping_ratio = 0.0);
        /// Largest torque of the angular spring, N·m (≥ 0; zero: off).
        ///
        /// Box2D: `b2MotorJointDef.maxSpringTorque`.
        pub max_spring_torque: f32 = 0.0, check_non_negative("motor joint max spring torque");
    }
}

/// Checks a correction factor: finite and within `[0, 1]`.
pub(crate) fn check_correction(factor: f32, what: &'static str) -> Result<()> {
    check_finite(factor, what)?;
    if !(0.0..=1.0).contains(&factor) {
        return Err(Error::OutOfRange {
            what,
            expected: "within [0, 1]",
            value: factor,
        });
    }
    Ok(())
}

/// A bounded soft row pair of the v3.2 motor joint: stiffness (Hz), damping
/// ratio and bound, with the coefficients of the current substep.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct BoundedSpring {
    pub hertz: f32,
    pub damping_ratio: f32,
    /// Largest force (N) or torque (N·m); zero turns the spring off.
    pub max: f32,
    pub softness: Softness,
}

impl BoundedSpring {
    fn is_on(&self) -> bool {
        self.max > 0.0 && self.hertz > 0.0
    }
}

/// Settings, impulses and prepared data of a motor joint.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct MotorJoint {
    pub linear_offset: Vec2,
    pub angular_offset: f32,
    /// Offset drive: bounds (N, N·m), correction per substep, impulses.
    pub max_force: f32,
    pub max_torque: f32,
    pub correction_factor: f32,
    pub linear_impulse: Vec2,
    pub angular_impulse: f32,

    /// Velocity drive: targets (m/s, rad/s), bounds (N, N·m), impulses.
    pub linear_velocity: Vec2,
    pub angular_velocity: f32,
    pub max_velocity_force: f32,
    pub max_velocity_torque: f32,
    pub linear_velocity_impulse: Vec2,
    pub angular_velocity_impulse: f32,

    /// Springs towards the target pose, and their impulses.
    pub linear_spring: BoundedSpring,
    pub angular_spring: BoundedSpring,
    pub linear_spring_impulse: Vec2,
    pub angular_spring_impulse: f32,

    pub linear_mass: Mat22,
    pub angular_mass: f32,
}

impl MotorJoint {
    /// Forgets the accumulated impulses (nothing to warm start from).
    pub(super) fn clear_impulses(&mut self) {
        (self.linear_impulse, self.angular_impulse) = (Vec2::ZERO, 0.0);
        (self.linear_velocity_impulse, self.angular_velocity_impulse) = (Vec2::ZERO, 0.0);
        (self.linear_spring_impulse, self.angular_spring_impulse) = (Vec2::ZERO, 0.0);
    }

    /// Whether a v3.2 drive (velocity or spring) is on.
    fn has_v32_drive(&self) -> bool {
        self.max_velocity_force > 0.0
            || self.max_velocity_torque > 0.0
            || self.linear_spring.is_on()
            || self.angular_spring.is_on()
    }

    /// The accumulated linear (N·s) and angular (N·m·s) impulses of all
    /// drives.
    pub fn total_impulse(&self) -> (Vec2, f32) {
        if self.has_v32_drive() {
            (
                self.linear_impulse + self.linear_velocity_impulse + self.linear_spring_impulse,
                self.angular_impulse + self.angular_velocity_impulse + self.angular_spring_impulse,
            )
        } else {
            (self.linear_impulse, self.angular_impulse)
        }
    }
}

/// Adds `impulse` to the accumulated `total` and clamps the sum to the
/// length `max`; returns the change of the total.
#[inline(always)]
fn accumulate_clamped(total: &mut Vec2, impulse: Vec2, max: f32) -> Vec2 {
    let old = *total;
    let mut sum = old + impulse;
    if sum.length_squared() > max * max {
        sum = sum.normalize() * max;
    }
    *total = sum;
    sum - old
}

/// Adds `impulse` to the accumulated `total` and clamps the sum to
/// `[−max, max]`; returns the change of the total.
#[inline(always)]
fn accumulate_clamped_scalar(total: &mut f32, impulse: f32, max: f32) -> f32 {
    let old = *total;
    *total = (old + impulse).clamp(-max, max);
    *total - old
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
    j.angular_mass = invert(ia + ib);
    for spring in [&mut j.linear_spring, &mut j.angular_spring] {
        spring.softness = Softness::new(spring.hertz, spring.damping_ratio, ctx.h);
    }
}

#[inline(always)]
pub(super) fn warm_start(base: &JointBase, j: &MotorJoint, states: &[BodyState]) -> WarmStart {
    let (p, angular) = j.total_impulse();
    warm_start_point(base, states, p, angular)
}

#[inline(always)]
pub(super) fn solve(base: &JointBase, j: &mut MotorJoint, pass: &mut SolvePass) {
    let mut pair = Pair::load(base, pass.states);
    let (h, inv_h) = (pass.ctx.h, pass.ctx.inv_h);
    let angle_error = |pair: &Pair| unwind_angle(pair.angle(base) - j.angular_offset);

    if j.angular_spring.is_on() {
        let s = j.angular_spring.softness;
        let c = angle_error(&pair);
        let cdot = pair.wb - pair.wa;
        let impulse = -s.mass_scale * j.angular_mass * (cdot + s.bias_rate * c)
            - s.impulse_scale * j.angular_spring_impulse;
        let max = h * j.angular_spring.max;
        let impulse = accumulate_clamped_scalar(&mut j.angular_spring_impulse, impulse, max);
        pair.apply_angular(impulse);
    }

    if j.max_velocity_torque > 0.0 {
        let cdot = pair.wb - pair.wa - j.angular_velocity;
        let max = h * j.max_velocity_torque;
        let impulse =
            accumulate_clamped_scalar(&mut j.angular_velocity_impulse, -j.angular_mass * cdot, max);
        pair.apply_angular(impulse);
    }

    // Offset drive, angular part.
    {
        let rate = inv_h * j.correction_factor;
        let c = angle_error(&pair);
        let cdot = pair.wb - pair.wa;
        let impulse = -j.angular_mass * (cdot + rate * c);
        let max = h * j.max_torque;
        let impulse = accumulate_clamped_scalar(&mut j.angular_impulse, impulse, max);
        pair.apply_angular(impulse);
    }

    let (ra, rb) = pair.anchors(base);

    if j.linear_spring.is_on() {
        let s = j.linear_spring.softness;
        let c = pair.point_error(base, ra, rb);
        let cdot = pair.point_velocity(ra, rb) + c * s.bias_rate;
        // The anchors have turned since the step began: a fresh mass.
        j.linear_mass = point_mass_matrix(pair.ma, pair.ia, ra, pair.mb, pair.ib, rb).inverse();
        let b = j.linear_mass.mul_vec(cdot);
        let old = j.linear_spring_impulse;
        let impulse = Vec2::new(
            -s.mass_scale * b.x - s.impulse_scale * old.x,
            -s.mass_scale * b.y - s.impulse_scale * old.y,
        );
        let max = h * j.linear_spring.max;
        let impulse = accumulate_clamped(&mut j.linear_spring_impulse, impulse, max);
        pair.apply_point(impulse, ra, rb);
    }

    if j.max_velocity_force > 0.0 {
        let cdot = pair.point_velocity(ra, rb) - j.linear_velocity;
        let b = j.linear_mass.mul_vec(cdot);
        let max = h * j.max_velocity_force;
        let impulse = accumulate_clamped(&mut j.linear_velocity_impulse, -b, max);
        pair.apply_point(impulse, ra, rb);
    }

    // Offset drive, linear part.
    {
        let rate = inv_h * j.correction_factor;
        let c = pair.point_error(base, ra, rb);
        let cdot = pair.point_velocity(ra, rb);
        let b = j.linear_mass.mul_vec(cdot + c * rate);
        let max = h * j.max_force;
        let impulse = accumulate_clamped(&mut j.linear_impulse, -b, max);
        pair.apply_point(impulse, ra, rb);
    }

    pair.store(base, pass.states);
}

impl MotorJointDef {
    /// Checks the definition and makes the joint frames and data.
    pub(crate) fn build(&self) -> Result<(Transform, Transform, JointKind)> {
        self.validate()?;
        let (fa, fb) = self.base.frames(Vec2::X, 0.0);
        let joint = MotorJoint {
            linear_offset: self.linear_offset,
            angular_offset: self.angular_offset,
            max_force: self.max_force,
            max_torque: self.max_torque,
            correction_factor: self.correction_factor,
            linear_velocity: self.linear_velocity,
            angular_velocity: self.angular_velocity,
            max_velocity_force: self.max_velocity_force,
            max_velocity_torque: self.max_velocity_torque,
            linear_spring: BoundedSpring {
                hertz: self.linear_hertz,
                damping_ratio: self.linear_damping_ratio,
                max: self.max_spring_force,
                softness: Softness::RIGID,
            },
            angular_spring: BoundedSpring {
                hertz: self.angular_hertz,
                damping_ratio: self.angular_damping_ratio,
                max: self.max_spring_torque,
                softness: Softness::RIGID,
            },
            ..MotorJoint::default()
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
            linear_velocity: j.linear_velocity,
            max_velocity_force: j.max_velocity_force,
            angular_velocity: j.angular_velocity,
            max_velocity_torque: j.max_velocity_torque,
            linear_hertz: j.linear_spring.hertz,
            linear_damping_ratio: j.linear_spring.damping_ratio,
            max_spring_force: j.linear_spring.max,
            angular_hertz: j.angular_spring.hertz,
            angular_damping_ratio: j.angular_spring.damping_ratio,
            max_spring_torque: j.angular_spring.max,
        }
    }
}
