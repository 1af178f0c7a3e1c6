//! The mover joint: drives the velocity of body B relative to body A towards
//! a target with a bounded force, the two axes of joint frame A separately,
//! without turning either body. It moves a dynamic character by velocity
//! commands: the character still collides and is pushed, but walks with at
//! most the force its legs have.
//!
//! For each axis `u` (frame A's x and y axes, in world coordinates at the
//! start of the step) one velocity row: `Ċ = u·(v_b − v_a) − u·v_target`,
//! effective mass `1 / (1/m_a + 1/m_b)`, accumulated impulse clamped to
//! `±h·F_max` for that axis. The impulses act at the centres of mass, so
//! the joint applies no torque. Upstream Box2D declares this joint
//! (`b2CreateMoverJoint`) without its source; this is our own design from
//! its header documentation.

use crate::error::{Result, check_finite_vec};
use crate::math::{Rot, Transform, Vec2};

use super::axial::Motor;
use super::pair::{Pair, WarmStart, invert};
use super::solver::SolvePass;
use super::{JointBase, JointDef, JointKind};

joint_def! {
    /// A mover joint definition: body B is driven to move at
    /// `linear_velocity` relative to body A (usually the ground), each axis
    /// with at most its own force.
    ///
    /// Box2D: `b2DefaultMoverJointDef`.
    pub struct MoverJointDef("mover joint") {
        /// Bodies, anchors and common settings. The rotation of the frames
        /// is taken from `base.local_anchor_*` only: the axes are body A's
        /// x and y axes.
        ///
        /// Box2D: `b2MoverJointDef.base`.
        pub base: JointDef;
        /// The target velocity of body B relative to body A, in body A's
        /// frame, m/s.
        ///
        /// Box2D: `b2MoverJointDef.linearVelocity`.
        pub linear_velocity: Vec2 = Vec2::ZERO, check_finite_vec("mover joint linear velocity");
        /// The largest force along body A's x and y axes, N (each ≥ 0).
        ///
        /// Box2D: `b2MoverJointDef.maxVelocityForce`.
        pub max_velocity_force: Vec2 = Vec2::ZERO, check_non_negative_vec("mover joint max velocity force");
    }
}

/// Checks that both parts of a vector are finite and `>= 0`.
pub(crate) fn check_non_negative_vec(v: Vec2, what: &'static str) -> Result<()> {
    check_finite_vec(v, what)?;
    super::check_non_negative(v.x, what)?;
    super::check_non_negative(v.y, what)
}

/// Settings, impulses and prepared data of a mover joint.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct MoverJoint {
    /// One velocity row per axis of frame A: `speed` is the target (m/s),
    /// `max_force` the bound (N), `impulse` the accumulated impulse (N·s).
    pub axes: [Motor; 2],
    /// The world directions of the two rows for this step.
    pub directions: [Vec2; 2],
    /// `1 / (1/m_a + 1/m_b)`, kg.
    pub mass: f32,
}

impl MoverJoint {
    /// The target velocity in frame A, m/s.
    pub fn linear_velocity(&self) -> Vec2 {
        Vec2::new(self.axes[0].speed, self.axes[1].speed)
    }

    /// The force bounds along frame A's axes, N.
    pub fn max_force(&self) -> Vec2 {
        Vec2::new(self.axes[0].max_force, self.axes[1].max_force)
    }

    /// The accumulated impulse in world coordinates, N·s.
    pub fn impulse(&self) -> Vec2 {
        self.directions[0] * self.axes[0].impulse + self.directions[1] * self.axes[1].impulse
    }
}

impl MoverJointDef {
    /// Checks the definition and makes the joint frames and data.
    pub(crate) fn build(&self) -> Result<(Transform, Transform, JointKind)> {
        self.validate()?;
        let v = self.linear_velocity;
        let f = self.max_velocity_force;
        let joint = MoverJoint {
            axes: [Motor::new(true, v.x, f.x), Motor::new(true, v.y, f.y)],
            directions: [Vec2::X, Vec2::Y],
            mass: 0.0,
        };
        Ok((
            Transform::new(self.base.local_anchor_a, Rot::IDENTITY),
            Transform::new(self.base.local_anchor_b, Rot::IDENTITY),
            JointKind::Mover(joint),
        ))
    }

    /// The definition an existing joint would be re-created with.
    pub(crate) fn read(base: JointDef, j: &MoverJoint) -> Self {
        MoverJointDef {
            base,
            linear_velocity: j.linear_velocity(),
            max_velocity_force: j.max_force(),
        }
    }
}

pub(super) fn prepare(base: &JointBase, j: &mut MoverJoint) {
    j.mass = invert(base.inv_mass_a + base.inv_mass_b);
    let q = base.frame_a.q;
    j.directions = [q.x_axis(), q.y_axis()];
}

#[inline(always)]
pub(super) fn warm_start(j: &MoverJoint) -> WarmStart {
    WarmStart {
        p: j.impulse(),
        la: 0.0,
        lb: 0.0,
    }
}

#[inline(always)]
pub(super) fn solve(base: &JointBase, j: &mut MoverJoint, pass: &mut SolvePass) {
    let mut pair = Pair::load(base, pass.states);
    for (axis, &direction) in j.axes.iter_mut().zip(&j.directions) {
        let cdot = direction.dot(pair.vb - pair.va);
        let impulse = axis.solve(j.mass, cdot, pass.ctx.h);
        pair.apply_point(direction * impulse, Vec2::ZERO, Vec2::ZERO);
    }
    pair.store(base, pass.states);
}
