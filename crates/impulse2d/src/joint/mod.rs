//! Joints: constraints that connect two bodies.
//!
//! Every joint type is solved inside the same soft-step solver as contacts:
//! it is *prepared* once per step (anchors relative to the centres of mass,
//! effective masses, softness coefficients), then in every substep it is
//! *warm started* with its accumulated impulses, *solved* with a position
//! bias and, after the positions are integrated, *relaxed* without bias.
//! Positions are never recomputed inside the step: the current separation of
//! two anchors is recovered from the bodies' position and rotation deltas.
//!
//! Joints live where contacts live. An awake joint sits in a colour of the
//! constraint graph (no two constraints of a colour share a dynamic body); a
//! sleeping joint sits in its island's solver set; a joint with a disabled
//! body sits in the disabled set; a joint between two bodies that cannot move
//! (static or kinematic) sits in the static set and is never solved. A joint
//! links the islands of its bodies, so jointed bodies sleep and wake together,
//! and destroying it may let the island split.
//!
//! The rigid parts of a joint (the revolute point, the prismatic line, the
//! weld) are soft constraints with the world's joint stiffness
//! ([`WorldDef::joint_hertz`](crate::WorldDef::joint_hertz) and
//! [`WorldDef::joint_damping_ratio`](crate::WorldDef::joint_damping_ratio)),
//! which a joint can override. Springs are soft constraints with their own
//! stiffness, expressed in hertz so that the result does not depend on the
//! masses: a body of any mass on a spring of `f` hertz oscillates at `f`.
//! Limits are speculative: they only remove the velocity that would cross
//! the limit within the substep, and push back softly once crossed.
//!
//! # References
//! - E. Catto, Box2D v3 `joint.c`, `revolute_joint.c`, `prismatic_joint.c`,
//!   `distance_joint.c`, `weld_joint.c`, `wheel_joint.c`, `motor_joint.c`,
//!   `mouse_joint.c`.
//! - E. Catto, *Solver2D* (2024) and *Soft Constraints*, GDC 2011.
//! - E. Catto, *Modeling and Solving Constraints*, GDC 2009 (Jacobians of the
//!   point, line and angle constraints used here).

mod axial;
mod distance;
mod filter;
mod link;
mod motor;
mod mouse;
mod prismatic;
mod revolute;
pub(crate) mod solver;
mod validate;
mod weld;
mod wheel;

use crate::error::{Error, Result, check_finite, check_finite_vec};
use crate::id::{BodyId, IdPool, JointId, NULL_INDEX};
use crate::math::{Rot, Transform, Vec2};
use crate::solver::softness::Softness;
use crate::solver::solver_set::AWAKE_SET;
use crate::world::World;

pub use distance::DistanceJointDef;
pub use filter::FilterJointDef;
pub use motor::MotorJointDef;
pub use mouse::MouseJointDef;
pub use prismatic::PrismaticJointDef;
pub use revolute::RevoluteJointDef;
pub use weld::WeldJointDef;
pub use wheel::WheelJointDef;

pub(crate) use link::joint_allows_collision;

use distance::DistanceJoint;
use motor::MotorJoint;
use mouse::MouseJoint;
use prismatic::PrismaticJoint;
use revolute::RevoluteJoint;
use weld::WeldJoint;
use wheel::WheelJoint;

/// The kind of a joint.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum JointType {
    /// Keeps two anchor points at a distance, or within a range, optionally
    /// with a spring and a motor. See [`DistanceJointDef`].
    Distance,
    /// Only stops two bodies from colliding. See [`FilterJointDef`].
    Filter,
    /// Drives one body towards an offset from another with bounded force and
    /// torque. See [`MotorJointDef`].
    Motor,
    /// Drags one body's point towards a world target with a spring. See
    /// [`MouseJointDef`].
    Mouse,
    /// Lets the bodies slide along an axis without turning. See
    /// [`PrismaticJointDef`].
    Prismatic,
    /// Pins the bodies together at a point, free to turn. See
    /// [`RevoluteJointDef`].
    Revolute,
    /// Glues the bodies together, rigidly or with springs. See [`WeldJointDef`].
    Weld,
    /// A suspended, driven wheel: a line constraint with a spring, free
    /// rotation and a motor. See [`WheelJointDef`].
    Wheel,
}

/// Settings shared by every joint type: the two bodies, the anchors and the
/// behaviour common to all joints. Each joint definition holds one in its
/// `base` field.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(default)
)]
pub struct JointDef {
    /// The first body.
    pub body_a: BodyId,
    /// The second body (must differ from `body_a`).
    pub body_b: BodyId,
    /// The anchor point on body A, in body A's frame (relative to its
    /// origin), metres.
    pub local_anchor_a: Vec2,
    /// The anchor point on body B, in body B's frame, metres.
    pub local_anchor_b: Vec2,
    /// Whether the two bodies still collide with each other. When `false`
    /// (the default) their existing contacts are destroyed and no new ones
    /// are made.
    pub collide_connected: bool,
    /// Stiffness of the joint's rigid parts, Hz (≥ 0); `None` uses the
    /// world's [`joint_hertz`](crate::WorldDef::joint_hertz). It is capped at
    /// a quarter of the substep rate.
    pub constraint_hertz: Option<f32>,
    /// Damping ratio of the joint's rigid parts (≥ 0, dimensionless); `None`
    /// uses the world's [`joint_damping_ratio`](crate::WorldDef::joint_damping_ratio).
    pub constraint_damping_ratio: Option<f32>,
    /// Reaction force above which the joint reports a [`JointEvent`], N
    /// (≥ 0; `f32::MAX` for never).
    pub force_threshold: f32,
    /// Reaction torque above which the joint reports a [`JointEvent`], N·m
    /// (≥ 0; `f32::MAX` for never).
    pub torque_threshold: f32,
    /// Destroy the joint when a threshold is exceeded (the event then has
    /// [`JointEventKind::Broken`]).
    pub break_on_threshold: bool,
    /// Any number the application wants to attach.
    pub user_data: u64,
}

impl Default for JointDef {
    fn default() -> Self {
        JointDef {
            body_a: BodyId::default(),
            body_b: BodyId::default(),
            local_anchor_a: Vec2::ZERO,
            local_anchor_b: Vec2::ZERO,
            collide_connected: false,
            constraint_hertz: None,
            constraint_damping_ratio: None,
            force_threshold: f32::MAX,
            torque_threshold: f32::MAX,
            break_on_threshold: false,
            user_data: 0,
        }
    }
}

impl JointDef {
    /// Checks the numbers (the body ids are checked when the joint is
    /// created); the first bad field is named in the error.
    pub fn validate(&self) -> Result<()> {
        check_finite_vec(self.local_anchor_a, "joint local anchor A")?;
        check_finite_vec(self.local_anchor_b, "joint local anchor B")?;
        if let Some(hertz) = self.constraint_hertz {
            check_non_negative(hertz, "joint constraint hertz")?;
        }
        if let Some(zeta) = self.constraint_damping_ratio {
            check_non_negative(zeta, "joint constraint damping ratio")?;
        }
        check_threshold(self.force_threshold, "joint force threshold")?;
        check_threshold(self.torque_threshold, "joint torque threshold")?;
        Ok(())
    }
}

/// Checks that a value is finite and `>= 0`.
pub(crate) fn check_non_negative(value: f32, what: &'static str) -> Result<()> {
    crate::error::check_non_negative(value, what)
}

/// Thresholds may be infinite but not NaN or negative.
fn check_threshold(value: f32, what: &'static str) -> Result<()> {
    if value.is_nan() {
        return Err(Error::NonFinite { what });
    }
    if value < 0.0 {
        return Err(Error::OutOfRange {
            what,
            expected: ">= 0",
            value,
        });
    }
    Ok(())
}

/// Checks that `lower <= upper`, both finite.
pub(crate) fn check_range(lower: f32, upper: f32, what: &'static str) -> Result<()> {
    check_finite(lower, what)?;
    check_finite(upper, what)?;
    if lower > upper {
        return Err(Error::OutOfRange {
            what,
            expected: "lower <= upper",
            value: lower,
        });
    }
    Ok(())
}

/// Checks that an angle is finite and within `[−π, π]`.
pub(crate) fn check_angle(angle: f32, what: &'static str) -> Result<()> {
    check_finite(angle, what)?;
    if angle.abs() > crate::math::PI {
        return Err(Error::OutOfRange {
            what,
            expected: "within [-pi, pi]",
            value: angle,
        });
    }
    Ok(())
}

/// What happened to a joint, reported by [`World::joint_events`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum JointEventKind {
    /// The reaction force or torque exceeded the joint's threshold during the
    /// step; the joint still exists.
    ThresholdExceeded,
    /// The reaction exceeded a threshold and the joint was destroyed (it had
    /// [`JointDef::break_on_threshold`] set). Its id is now stale.
    Broken,
    /// The joint was destroyed because one of its bodies was destroyed. Its
    /// id is now stale.
    BodyDestroyed,
}

/// A joint event, read with [`World::joint_events`] after a step.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct JointEvent {
    /// The joint (stale for [`JointEventKind::Broken`] and
    /// [`JointEventKind::BodyDestroyed`]).
    pub joint_id: JointId,
    /// The joint's type.
    pub joint_type: JointType,
    /// What happened.
    pub kind: JointEventKind,
    /// The joint's user data.
    pub user_data: u64,
    /// Magnitude of the reaction force in the last substep, N (zero for
    /// [`JointEventKind::BodyDestroyed`]).
    pub force: f32,
    /// Magnitude of the reaction torque in the last substep, N·m (zero for
    /// [`JointEventKind::BodyDestroyed`]).
    pub torque: f32,
}

/// One end of a joint in a body's doubly linked joint list. Keys are
/// `(joint_id << 1) | edge_index`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct JointEdge {
    pub body_id: u32,
    pub prev_key: u32,
    pub next_key: u32,
}

impl JointEdge {
    const NULL: JointEdge = JointEdge {
        body_id: NULL_INDEX,
        prev_key: NULL_INDEX,
        next_key: NULL_INDEX,
    };
}

/// The cold part of a joint, stored in the world's joint array at its id.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Joint {
    /// The joint's index, or NULL while the slot is free.
    pub joint_id: u32,
    pub generation: u32,
    pub joint_type: JointType,
    pub edges: [JointEdge; 2],
    /// The solver set holding the [`JointSim`] (awake: in the graph).
    pub set_index: u32,
    /// Graph colour when awake, else NULL.
    pub color_index: u32,
    /// Index of the sim in its colour or set.
    pub local_index: u32,
    pub island_id: u32,
    pub island_prev: u32,
    pub island_next: u32,
    pub collide_connected: bool,
    pub break_on_threshold: bool,
    pub user_data: u64,
}

impl Default for Joint {
    fn default() -> Self {
        Joint {
            joint_id: NULL_INDEX,
            generation: 0,
            joint_type: JointType::Filter,
            edges: [JointEdge::NULL; 2],
            set_index: NULL_INDEX,
            color_index: NULL_INDEX,
            local_index: NULL_INDEX,
            island_id: NULL_INDEX,
            island_prev: NULL_INDEX,
            island_next: NULL_INDEX,
            collide_connected: false,
            break_on_threshold: false,
            user_data: 0,
        }
    }
}

/// Data every joint type has: settings from the definition plus what the
/// step prepares.
#[derive(Clone, Copy, Debug)]
pub(crate) struct JointBase {
    pub joint_id: u32,
    pub body_id_a: u32,
    pub body_id_b: u32,
    /// The joint frames in the body frames (origin-relative). The position is
    /// the anchor; the rotation carries the axis (prismatic, wheel) and the
    /// reference angle (frame B is frame A turned by minus the reference angle).
    pub local_frame_a: Transform,
    pub local_frame_b: Transform,
    pub constraint_hertz: Option<f32>,
    pub constraint_damping_ratio: Option<f32>,
    pub force_threshold: f32,
    pub torque_threshold: f32,

    // Prepared once per step.
    /// Awake-set indices of the bodies, or NULL when not awake (static).
    pub index_a: u32,
    pub index_b: u32,
    pub inv_mass_a: f32,
    pub inv_i_a: f32,
    pub inv_mass_b: f32,
    pub inv_i_b: f32,
    /// The joint frames at the start of the step: world rotation, and anchor
    /// relative to the body's centre of mass in world orientation.
    pub frame_a: Transform,
    pub frame_b: Transform,
    /// Centre of B minus centre of A at the start of the step, metres.
    pub delta_center: Vec2,
    /// Softness of the rigid parts for this step.
    pub softness: Softness,
}

/// The per-type data of a joint.
#[derive(Clone, Copy, Debug)]
pub(crate) enum JointKind {
    Distance(DistanceJoint),
    Filter,
    Motor(MotorJoint),
    Mouse(MouseJoint),
    Prismatic(PrismaticJoint),
    Revolute(RevoluteJoint),
    Weld(WeldJoint),
    Wheel(WheelJoint),
}

impl JointKind {
    /// Forgets the accumulated impulses, so that the next solve does not warm
    /// start from them (a quarantined body's joints may hold non-finite ones).
    pub(crate) fn clear_impulses(&mut self) {
        match self {
            JointKind::Distance(j) => distance::clear_impulses(j),
            JointKind::Filter => {}
            JointKind::Motor(j) => motor::clear_impulses(j),
            JointKind::Mouse(j) => mouse::clear_impulses(j),
            JointKind::Prismatic(j) => prismatic::clear_impulses(j),
            JointKind::Revolute(j) => revolute::clear_impulses(j),
            JointKind::Weld(j) => weld::clear_impulses(j),
            JointKind::Wheel(j) => wheel::clear_impulses(j),
        }
    }
}

/// The part of a joint the solver works on, stored in a graph colour or a
/// solver set.
#[derive(Clone, Copy, Debug)]
pub(crate) struct JointSim {
    pub base: JointBase,
    pub kind: JointKind,
}

/// All joint data owned by the world.
#[derive(Clone, Debug, Default)]
pub(crate) struct JointStorage {
    pub joints: Vec<Joint>,
    pub ids: IdPool,
    /// Events visible through [`World::joint_events`].
    pub events: Vec<JointEvent>,
    /// Events caused by user calls since the last step; they become visible
    /// with the next step's events so that none is lost.
    pub pending_events: Vec<JointEvent>,
    /// Inverse substep of the last step, 1/s (turns impulses into forces).
    pub inv_h: f32,
    /// Joints taken out of the solver while a body changes state.
    pub detached: Vec<(u32, JointSim)>,
    /// Joints over their thresholds this step: `(joint, force, torque)`.
    pub over_threshold: Vec<(u32, f32, f32)>,
}

/// Builds the two joint frames from anchors, an axis in body A's frame
/// (normalised here) and a reference angle (radians).
pub(crate) fn make_frames(
    local_anchor_a: Vec2,
    local_anchor_b: Vec2,
    local_axis_a: Vec2,
    reference_angle: f32,
) -> (Transform, Transform) {
    let axis = local_axis_a.normalize();
    let qa = Rot {
        c: axis.x,
        s: axis.y,
    };
    let qb = qa.mul(Rot::from_angle(-reference_angle));
    (
        Transform::new(local_anchor_a, qa),
        Transform::new(local_anchor_b, qb),
    )
}

/// The reference angle stored in two frames (inverse of [`make_frames`]).
pub(crate) fn reference_angle(base: &JointBase) -> f32 {
    base.local_frame_b.q.relative_angle(base.local_frame_a.q)
}

/// Checks an axis: finite and not zero.
pub(crate) fn check_axis(axis: Vec2, what: &'static str) -> Result<()> {
    check_finite_vec(axis, what)?;
    if axis.length() < crate::core::EPSILON_LENGTH {
        return Err(Error::OutOfRange {
            what,
            expected: "a non-zero vector",
            value: axis.length(),
        });
    }
    Ok(())
}

impl World {
    /// Checks a joint id and returns the joint's index.
    pub(crate) fn joint_index(&self, id: JointId) -> Result<usize> {
        let invalid = Error::InvalidId { what: "joint" };
        if id.world != self.world_number {
            return Err(invalid);
        }
        match self.joints.joints.get(id.index as usize) {
            Some(j) if j.joint_id == id.index && j.generation == id.generation => {
                Ok(id.index as usize)
            }
            _ => Err(invalid),
        }
    }

    pub(crate) fn make_joint_id(&self, index: u32) -> JointId {
        JointId {
            index,
            world: self.world_number,
            generation: self.joints.joints[index as usize].generation,
        }
    }

    /// The sim of a joint, wherever it lives.
    pub(crate) fn joint_sim(&self, ji: usize) -> &JointSim {
        let j = &self.joints.joints[ji];
        if j.set_index == AWAKE_SET {
            &self.graph.colors[j.color_index as usize].joint_sims[j.local_index as usize]
        } else {
            &self.solver_sets[j.set_index as usize].joint_sims[j.local_index as usize]
        }
    }

    pub(crate) fn joint_sim_mut(&mut self, ji: usize) -> &mut JointSim {
        let j = &self.joints.joints[ji];
        if j.set_index == AWAKE_SET {
            &mut self.graph.colors[j.color_index as usize].joint_sims[j.local_index as usize]
        } else {
            &mut self.solver_sets[j.set_index as usize].joint_sims[j.local_index as usize]
        }
    }

    /// Destroys a joint and wakes its bodies. Destroying it again gives
    /// `Err(InvalidId)`.
    pub fn destroy_joint(&mut self, id: JointId) -> Result<()> {
        let ji = self.joint_index(id)?;
        self.destroy_joint_internal(ji as u32, true, true);
        Ok(())
    }

    /// Whether the id names a live joint of this world.
    pub fn joint_is_valid(&self, id: JointId) -> bool {
        self.joint_index(id).is_ok()
    }

    /// The number of live joints.
    pub fn joint_count(&self) -> usize {
        self.joints.ids.count() as usize
    }

    /// The joint's type.
    pub fn joint_type(&self, id: JointId) -> Result<JointType> {
        Ok(self.joints.joints[self.joint_index(id)?].joint_type)
    }

    /// The joint's first body.
    pub fn joint_body_a(&self, id: JointId) -> Result<BodyId> {
        let ji = self.joint_index(id)?;
        Ok(self.make_body_id(self.joints.joints[ji].edges[0].body_id))
    }

    /// The joint's second body.
    pub fn joint_body_b(&self, id: JointId) -> Result<BodyId> {
        let ji = self.joint_index(id)?;
        Ok(self.make_body_id(self.joints.joints[ji].edges[1].body_id))
    }

    /// The anchor on body A in body A's frame, metres.
    pub fn joint_local_anchor_a(&self, id: JointId) -> Result<Vec2> {
        Ok(self.joint_sim(self.joint_index(id)?).base.local_frame_a.p)
    }

    /// The anchor on body B in body B's frame, metres.
    pub fn joint_local_anchor_b(&self, id: JointId) -> Result<Vec2> {
        Ok(self.joint_sim(self.joint_index(id)?).base.local_frame_b.p)
    }

    /// The anchors on both bodies in world coordinates, metres.
    pub fn joint_world_anchors(&self, id: JointId) -> Result<(Vec2, Vec2)> {
        let ji = self.joint_index(id)?;
        let j = &self.joints.joints[ji];
        let base = &self.joint_sim(ji).base;
        let xf_a = self.body_sim(j.edges[0].body_id as usize).transform;
        let xf_b = self.body_sim(j.edges[1].body_id as usize).transform;
        Ok((
            xf_a.apply(base.local_frame_a.p),
            xf_b.apply(base.local_frame_b.p),
        ))
    }

    /// The user data given in the definition or by [`World::set_joint_user_data`].
    pub fn joint_user_data(&self, id: JointId) -> Result<u64> {
        Ok(self.joints.joints[self.joint_index(id)?].user_data)
    }

    /// Replaces the joint's user data.
    pub fn set_joint_user_data(&mut self, id: JointId, user_data: u64) -> Result<()> {
        let ji = self.joint_index(id)?;
        self.joints.joints[ji].user_data = user_data;
        Ok(())
    }

    /// Whether the joint's bodies collide with each other.
    pub fn joint_collide_connected(&self, id: JointId) -> Result<bool> {
        Ok(self.joints.joints[self.joint_index(id)?].collide_connected)
    }

    /// Lets the joint's bodies collide with each other or not. Turning it off
    /// destroys their contacts; turning it on lets the broad phase find them
    /// again at the next step.
    pub fn set_joint_collide_connected(&mut self, id: JointId, collide: bool) -> Result<()> {
        let ji = self.joint_index(id)?;
        if self.joints.joints[ji].collide_connected == collide {
            return Ok(());
        }
        self.joints.joints[ji].collide_connected = collide;
        let a = self.joints.joints[ji].edges[0].body_id as usize;
        let b = self.joints.joints[ji].edges[1].body_id as usize;
        if collide {
            self.refilter_body_pair(a, b);
        } else {
            self.destroy_contacts_between(a, b);
        }
        Ok(())
    }

    /// The stiffness (Hz) and damping ratio of the joint's rigid parts:
    /// `None` means the world's value.
    pub fn joint_constraint_tuning(&self, id: JointId) -> Result<(Option<f32>, Option<f32>)> {
        let base = &self.joint_sim(self.joint_index(id)?).base;
        Ok((base.constraint_hertz, base.constraint_damping_ratio))
    }

    /// Overrides the stiffness (Hz, ≥ 0) and damping ratio (≥ 0) of the
    /// joint's rigid parts; `None` uses the world's value.
    pub fn set_joint_constraint_tuning(
        &mut self,
        id: JointId,
        hertz: Option<f32>,
        damping_ratio: Option<f32>,
    ) -> Result<()> {
        let ji = self.joint_index(id)?;
        if let Some(h) = hertz {
            check_non_negative(h, "joint constraint hertz")?;
        }
        if let Some(z) = damping_ratio {
            check_non_negative(z, "joint constraint damping ratio")?;
        }
        let base = &mut self.joint_sim_mut(ji).base;
        base.constraint_hertz = hertz;
        base.constraint_damping_ratio = damping_ratio;
        self.wake_joint(ji);
        Ok(())
    }

    /// The force threshold (N), torque threshold (N·m) and whether exceeding
    /// one destroys the joint.
    pub fn joint_thresholds(&self, id: JointId) -> Result<(f32, f32, bool)> {
        let ji = self.joint_index(id)?;
        let base = &self.joint_sim(ji).base;
        Ok((
            base.force_threshold,
            base.torque_threshold,
            self.joints.joints[ji].break_on_threshold,
        ))
    }

    /// Sets the reaction force (N, ≥ 0) and torque (N·m, ≥ 0) above which
    /// the joint reports an event, and whether it then breaks (is destroyed).
    pub fn set_joint_thresholds(
        &mut self,
        id: JointId,
        force: f32,
        torque: f32,
        break_on_threshold: bool,
    ) -> Result<()> {
        let ji = self.joint_index(id)?;
        check_threshold(force, "joint force threshold")?;
        check_threshold(torque, "joint torque threshold")?;
        self.joints.joints[ji].break_on_threshold = break_on_threshold;
        let base = &mut self.joint_sim_mut(ji).base;
        base.force_threshold = force;
        base.torque_threshold = torque;
        Ok(())
    }

    /// The force the joint applied to body B in the last substep of the last
    /// step, N, in world coordinates (body A received the opposite).
    pub fn joint_constraint_force(&self, id: JointId) -> Result<Vec2> {
        let ji = self.joint_index(id)?;
        let j = &self.joints.joints[ji];
        let xf_a = self.body_sim(j.edges[0].body_id as usize).transform;
        let xf_b = self.body_sim(j.edges[1].body_id as usize).transform;
        Ok(solver::constraint_force(
            self.joint_sim(ji),
            xf_a,
            xf_b,
            self.joints.inv_h,
        ))
    }

    /// The torque the joint applied to body B in the last substep of the last
    /// step about its anchor, N·m (not counting the torque of the force).
    pub fn joint_constraint_torque(&self, id: JointId) -> Result<f32> {
        let ji = self.joint_index(id)?;
        Ok(solver::constraint_torque(
            self.joint_sim(ji),
            self.joints.inv_h,
        ))
    }

    /// Wakes both bodies of the joint.
    pub fn wake_joint_bodies(&mut self, id: JointId) -> Result<()> {
        let ji = self.joint_index(id)?;
        self.wake_joint(ji);
        Ok(())
    }

    pub(crate) fn wake_joint(&mut self, ji: usize) {
        let a = self.joints.joints[ji].edges[0].body_id as usize;
        let b = self.joints.joints[ji].edges[1].body_id as usize;
        self.wake_body(a);
        self.wake_body(b);
    }

    /// The joints attached to a body, newest first.
    pub fn body_joints(&self, id: BodyId) -> Result<Vec<JointId>> {
        let bi = self.body_index(id)?;
        let mut out = Vec::with_capacity(self.bodies[bi].joint_count as usize);
        let mut key = self.bodies[bi].head_joint_key;
        while key != NULL_INDEX {
            let ji = key >> 1;
            out.push(self.make_joint_id(ji));
            key = self.joints.joints[ji as usize].edges[(key & 1) as usize].next_key;
        }
        Ok(out)
    }

    /// The joint events of the last step: thresholds exceeded, joints broken,
    /// and joints destroyed with their bodies. Events caused by calls made
    /// between two steps (destroying a body) are reported after the next step.
    pub fn joint_events(&self) -> &[JointEvent] {
        &self.joints.events
    }

    /// Drops the last step's events and makes the pending ones visible.
    /// Called at the start of every step.
    pub(crate) fn begin_joint_events(&mut self) {
        let storage = &mut self.joints;
        storage.events.clear();
        storage.events.append(&mut storage.pending_events);
    }

    /// Checks ids, validates the shared settings and creates a joint of any
    /// type; the per-type constructor supplies frames and data.
    pub(crate) fn create_joint(
        &mut self,
        def: &JointDef,
        joint_type: JointType,
        local_frame_a: Transform,
        local_frame_b: Transform,
        kind: JointKind,
    ) -> Result<JointId> {
        def.validate()?;
        let a = self.body_index(def.body_a)?;
        let b = self.body_index(def.body_b)?;
        if a == b {
            return Err(Error::InvalidOperation(
                "a joint needs two different bodies",
            ));
        }
        Ok(self.create_joint_unchecked(
            def,
            a as u32,
            b as u32,
            joint_type,
            local_frame_a,
            local_frame_b,
            kind,
        ))
    }

    /// The shared settings of a joint, as a definition.
    pub(crate) fn joint_base_def(&self, ji: usize) -> JointDef {
        let j = &self.joints.joints[ji];
        let base = &self.joint_sim(ji).base;
        JointDef {
            body_a: self.make_body_id(j.edges[0].body_id),
            body_b: self.make_body_id(j.edges[1].body_id),
            local_anchor_a: base.local_frame_a.p,
            local_anchor_b: base.local_frame_b.p,
            collide_connected: j.collide_connected,
            constraint_hertz: base.constraint_hertz,
            constraint_damping_ratio: base.constraint_damping_ratio,
            force_threshold: base.force_threshold,
            torque_threshold: base.torque_threshold,
            break_on_threshold: j.break_on_threshold,
            user_data: j.user_data,
        }
    }

    /// The world rotations of the two joint frames.
    pub(crate) fn joint_frame_rotations(&self, ji: usize) -> (Rot, Rot) {
        let j = &self.joints.joints[ji];
        let base = &self.joint_sim(ji).base;
        let qa = self.body_sim(j.edges[0].body_id as usize).transform.q;
        let qb = self.body_sim(j.edges[1].body_id as usize).transform.q;
        (qa.mul(base.local_frame_a.q), qb.mul(base.local_frame_b.q))
    }

    /// The angular velocities of the two bodies, rad/s (zero when not awake).
    pub(crate) fn joint_body_angular_velocities(&self, ji: usize) -> (f32, f32) {
        let j = &self.joints.joints[ji];
        let w = |b: u32| {
            self.body_state(b as usize)
                .map_or(0.0, |s| s.angular_velocity)
        };
        (w(j.edges[0].body_id), w(j.edges[1].body_id))
    }

    /// Returns the per-type data of a joint, or an error naming the type
    /// that was expected.
    pub(crate) fn joint_kind(&self, id: JointId) -> Result<(usize, &JointKind)> {
        let ji = self.joint_index(id)?;
        Ok((ji, &self.joint_sim(ji).kind))
    }
}

/// The error for a typed call on a joint of another type.
pub(crate) fn wrong_type(expected: &'static str) -> Error {
    Error::InvalidOperation(expected)
}
