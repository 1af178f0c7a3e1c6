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
use crate::id::JointId;
use crate::math::Vec2;
use crate::solver::StepContext;
use crate::solver::softness::Softness;
use crate::world::World;

use super::axial::{Limit, LimitRow, Motor, spring_impulse};
use super::solver::{load, store};
use super::{
    JointBase, JointDef, JointKind, JointType, check_non_negative, check_range, make_frames,
    wrong_type,
};

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
    pub enable_spring: bool,
    pub hertz: f32,
    pub damping_ratio: f32,
    /// The length range (m) and the motor (N).
    pub limit: Limit,
    pub motor: Motor,

    /// Impulse of the rod or of the spring, N·s.
    pub impulse: f32,

    pub axial_mass: f32,
    pub spring_softness: Softness,
}

/// The total impulse along the line between the anchors.
pub(super) fn axial_impulse(j: &DistanceJoint) -> f32 {
    j.impulse + j.limit.lower_impulse - j.limit.upper_impulse + j.motor.impulse
}

fn clamp_length(length: f32) -> f32 {
    length.clamp(LINEAR_SLOP, HUGE)
}

pub(super) fn prepare(base: &JointBase, j: &mut DistanceJoint, ctx: &StepContext) {
    let (ra, rb) = (base.frame_a.p, base.frame_b.p);
    let axis = (base.delta_center + (rb - ra)).normalize();
    let cra = ra.cross(axis);
    let crb = rb.cross(axis);
    let k = base.inv_mass_a + base.inv_mass_b + base.inv_i_a * cra * cra + base.inv_i_b * crb * crb;
    j.axial_mass = if k > 0.0 { 1.0 / k } else { 0.0 };
    j.spring_softness = Softness::new(j.hertz, j.damping_ratio, ctx.h);
    if !ctx.enable_warm_starting {
        clear_impulses(j);
    }
}

/// Forgets the accumulated impulses (nothing to warm start from).
pub(super) fn clear_impulses(j: &mut DistanceJoint) {
    j.impulse = 0.0;
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
    let is_spring = j.enable_spring && (j.limit.lower < j.limit.upper || !j.limit.enable);
    if is_spring {
        if j.hertz > 0.0 {
            let c = length - j.length;
            let cdot = speed(va, wa, vb, wb);
            let impulse = spring_impulse(j.spring_softness, j.axial_mass, c, cdot, &mut j.impulse);
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
        let impulse = -mass_scale * j.axial_mass * (cdot + bias) - impulse_scale * j.impulse;
        j.impulse += impulse;
        apply(impulse, &mut va, &mut wa, &mut vb, &mut wb);
    }

    store(states, base.index_a, va, wa);
    store(states, base.index_b, vb, wb);
}

impl World {
    /// Creates a distance joint. Fails on a stale body id, equal bodies or a
    /// bad number in the definition.
    pub fn create_distance_joint(&mut self, def: &DistanceJointDef) -> Result<JointId> {
        def.validate()?;
        let (fa, fb) = make_frames(
            def.base.local_anchor_a,
            def.base.local_anchor_b,
            Vec2::X,
            0.0,
        );
        let min_length = clamp_length(def.min_length);
        let max_length = clamp_length(def.max_length).max(min_length);
        let joint = DistanceJoint {
            length: clamp_length(def.length),
            enable_spring: def.enable_spring,
            hertz: def.hertz,
            damping_ratio: def.damping_ratio,
            limit: Limit::new(def.enable_limit, min_length, max_length),
            motor: Motor::new(def.enable_motor, def.motor_speed, def.max_motor_force),
            ..DistanceJoint::default()
        };
        self.create_joint(
            &def.base,
            JointType::Distance,
            fa,
            fb,
            JointKind::Distance(joint),
        )
    }

    fn distance(&self, id: JointId) -> Result<(usize, &DistanceJoint)> {
        match self.joint_kind(id)? {
            (ji, JointKind::Distance(j)) => Ok((ji, j)),
            _ => Err(wrong_type("not a distance joint")),
        }
    }

    fn update_distance(&mut self, id: JointId, f: impl FnOnce(&mut DistanceJoint)) -> Result<()> {
        let (ji, _) = self.distance(id)?;
        if let JointKind::Distance(j) = &mut self.joint_sim_mut(ji).kind {
            f(j);
        }
        self.wake_joint(ji);
        Ok(())
    }

    /// The definition a distance joint would be re-created with.
    pub fn distance_joint_def(&self, id: JointId) -> Result<DistanceJointDef> {
        let (ji, j) = self.distance(id)?;
        Ok(DistanceJointDef {
            base: self.joint_base_def(ji),
            length: j.length,
            enable_spring: j.enable_spring,
            hertz: j.hertz,
            damping_ratio: j.damping_ratio,
            enable_limit: j.limit.enable,
            min_length: j.limit.lower,
            max_length: j.limit.upper,
            enable_motor: j.motor.enable,
            motor_speed: j.motor.speed,
            max_motor_force: j.motor.max_force,
        })
    }

    /// The current distance between the anchors, metres.
    pub fn distance_joint_current_length(&self, id: JointId) -> Result<f32> {
        self.distance(id)?;
        let (pa, pb) = self.joint_world_anchors(id)?;
        Ok((pb - pa).length())
    }

    /// Sets the rest length, metres (≥ 0; raised to the linear slop).
    pub fn set_distance_joint_length(&mut self, id: JointId, length: f32) -> Result<()> {
        check_non_negative(length, "distance joint length")?;
        self.update_distance(id, |j| {
            j.length = clamp_length(length);
            j.impulse = 0.0;
            j.limit.reset();
        })
    }

    /// Sets the allowed length range, metres, `0 ≤ min ≤ max`.
    pub fn set_distance_joint_length_range(
        &mut self,
        id: JointId,
        min: f32,
        max: f32,
    ) -> Result<()> {
        check_non_negative(min, "distance min length")?;
        check_range(min, max, "distance length range")?;
        let (min, max) = (clamp_length(min), clamp_length(max));
        self.update_distance(id, |j| j.limit.set_range(min, max.max(min)))
    }

    /// Turns the length range on or off.
    pub fn enable_distance_joint_limit(&mut self, id: JointId, enable: bool) -> Result<()> {
        self.update_distance(id, |j| j.limit.enable = enable)
    }

    /// Switches between a spring (`true`) and a rigid rod.
    pub fn enable_distance_joint_spring(&mut self, id: JointId, enable: bool) -> Result<()> {
        self.update_distance(id, |j| j.enable_spring = enable)
    }

    /// Sets the spring stiffness (Hz, ≥ 0) and damping ratio (≥ 0).
    pub fn set_distance_joint_spring(
        &mut self,
        id: JointId,
        hertz: f32,
        damping_ratio: f32,
    ) -> Result<()> {
        check_non_negative(hertz, "distance spring hertz")?;
        check_non_negative(damping_ratio, "distance spring damping ratio")?;
        self.update_distance(id, |j| {
            j.hertz = hertz;
            j.damping_ratio = damping_ratio;
        })
    }

    /// Turns the motor on or off.
    pub fn enable_distance_joint_motor(&mut self, id: JointId, enable: bool) -> Result<()> {
        self.update_distance(id, |j| j.motor.set_enabled(enable))
    }

    /// Sets the motor's target rate of change of length, m/s.
    pub fn set_distance_joint_motor_speed(&mut self, id: JointId, speed: f32) -> Result<()> {
        check_finite(speed, "distance motor speed")?;
        self.update_distance(id, |j| j.motor.speed = speed)
    }

    /// Sets the motor's largest force, N (≥ 0).
    pub fn set_distance_joint_max_motor_force(&mut self, id: JointId, force: f32) -> Result<()> {
        check_non_negative(force, "distance max motor force")?;
        self.update_distance(id, |j| j.motor.max_force = force)
    }
}
