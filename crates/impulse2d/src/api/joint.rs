//! [`JointView`]: reading and changing one joint, with the parts several
//! joint types share written once.
//!
//! `world.joint(id)?` gives a [`JointRef`], `world.joint_mut(id)?` a
//! [`JointMut`]. Every joint has the common properties of [`JointView`]
//! (Box2D's `b2Joint_*`). The parts a view hands out take the view (a
//! read-only view is `Copy`; call [`JointView::reborrow`] on a `JointMut` to
//! keep it) and check the joint's type once:
//!
//! | part | joint types | Box2D |
//! |------|-------------|-------|
//! | [`motor()`](JointView::motor) → [`MotorView`] | revolute, prismatic, wheel, distance | `b2*Joint_EnableMotor`, `SetMotorSpeed`, `SetMaxMotor*`, `GetMotor*` |
//! | [`limit()`](JointView::limit) → [`LimitView`] | revolute, prismatic, wheel, distance | `b2*Joint_EnableLimit`, `SetLimits`, `SetLengthRange`, `Get*Limit` |
//! | [`spring()`](JointView::spring) → [`SpringView`] | revolute, prismatic, wheel, distance | `b2*Joint_EnableSpring`, `SetSpringHertz`, `SetSpringDampingRatio` |
//! | [`revolute()`](JointView::revolute) → [`RevoluteView`] | revolute | `b2RevoluteJoint_*` (angle, target angle) |
//! | [`prismatic()`](JointView::prismatic) → [`PrismaticView`] | prismatic | `b2PrismaticJoint_*` (translation, speed, target) |
//! | [`wheel()`](JointView::wheel) → [`WheelView`] | wheel | `b2WheelJoint_*` |
//! | [`distance()`](JointView::distance) → [`DistanceView`] | distance | `b2DistanceJoint_*` (length, spring force range) |
//! | [`weld()`](JointView::weld) → [`WeldView`] | weld | `b2WeldJoint_*` |
//! | [`motor_joint()`](JointView::motor_joint) → [`MotorJointView`] | motor | `b2MotorJoint_*` |
//! | [`mouse()`](JointView::mouse) → [`MouseView`] | mouse | `b2MouseJoint_*` (Box2D v3.1) |
//! | [`mover()`](JointView::mover) → [`MoverView`] | mover | `b2MoverJoint_*` |
//! | [`pogo()`](JointView::pogo) → [`PogoView`] | pogo | `b2PogoJoint_*` |
//! | [`filter()`](JointView::filter) → [`FilterView`] | filter | — |
//!
//! A part of a joint that lacks it is `Err(WrongJointType)`.
//!
//! ```
//! use impulse2d::{BodyDef, BodyType, JointDef, RevoluteJointDef, World, WorldDef};
//!
//! let mut world = World::new(&WorldDef::default()).unwrap();
//! let ground = world.create_body(&BodyDef::default()).unwrap();
//! let arm = world
//!     .create_body(&BodyDef { body_type: BodyType::Dynamic, ..Default::default() })
//!     .unwrap();
//! let hinge = world
//!     .create_revolute_joint(&RevoluteJointDef {
//!         base: JointDef { body_a: ground, body_b: arm, ..Default::default() },
//!         ..Default::default()
//!     })
//!     .unwrap();
//! let mut motor = world.joint_mut(hinge).unwrap().motor().unwrap();
//! motor.enable(true);
//! motor.set_speed(2.0).unwrap();
//! motor.set_max_force(50.0).unwrap();
//! assert_eq!(world.joint(hinge).unwrap().motor().unwrap().speed(), 2.0);
//! assert!(world.joint(hinge).unwrap().weld().is_err());
//! ```

use std::fmt;
use std::ops::Deref;

use crate::error::{Error, Result, check_finite, check_finite_vec};
use crate::id::{BodyId, JointId};
use crate::joint::axial::{Limit, Motor, Spring};
use crate::joint::distance::{DistanceJoint, check_force_range, clamp_length, clamp_range};
use crate::joint::motor::{MotorJoint, check_correction};
use crate::joint::mouse::MouseJoint;
use crate::joint::mover::{MoverJoint, check_non_negative_vec};
use crate::joint::pogo::PogoJoint;
use crate::joint::prismatic::PrismaticJoint;
use crate::joint::revolute::RevoluteJoint;
use crate::joint::solver::{constraint_force, constraint_torque};
use crate::joint::weld::WeldJoint;
use crate::joint::wheel::WheelJoint;
use crate::joint::{
    DistanceJointDef, FilterJointDef, JointData, JointEvent, JointKind, JointSim, JointType,
    MotorJointDef, MouseJointDef, MoverJointDef, PogoJointDef, PrismaticJointDef, RevoluteJointDef,
    WeldJointDef, WheelJointDef, check_angle, check_non_negative, check_range, check_threshold,
    wrong_type,
};
use crate::math::{Rot, Transform, Vec2};
use crate::pos::{Pos, WorldTransform};
use crate::world::World;

view! {
    /// One joint of a world, validated once: the world borrow (`&World` or
    /// `&mut World`) and the joint's index. Made by [`World::joint`] and
    /// [`World::joint_mut`].
    ///
    /// Covers Box2D's `b2Joint_*` functions.
    pub struct JointView<W>(JointId = joint_index, make_joint_id, "joint"): JointRef, JointMut + Copy;
    World::joint;
    World::joint_mut then record_change;
    /// The world the joint belongs to.
    ///
    /// Box2D: `b2Joint_GetWorld`.
    JointRef::world;
}

impl World {
    /// Creates a distance joint. Fails on a stale body id, equal bodies or a
    /// bad number in the definition.
    ///
    /// Box2D: `b2CreateDistanceJoint`.
    pub fn create_distance_joint(&mut self, def: &DistanceJointDef) -> Result<JointId> {
        let (fa, fb, kind) = def.build()?;
        self.create_joint(&def.base, fa, fb, kind)
    }

    /// Creates a filter joint: the two bodies stop colliding with each other
    /// (their contacts are destroyed). Fails on a stale body id or equal
    /// bodies.
    ///
    /// Box2D: `b2CreateFilterJoint`.
    pub fn create_filter_joint(&mut self, def: &FilterJointDef) -> Result<JointId> {
        let (base, fa, fb, kind) = def.build()?;
        self.create_joint(&base, fa, fb, kind)
    }

    /// Creates a motor joint. Fails on a stale body id, equal bodies or a bad
    /// number in the definition.
    ///
    /// Box2D: `b2CreateMotorJoint`.
    pub fn create_motor_joint(&mut self, def: &MotorJointDef) -> Result<JointId> {
        let (fa, fb, kind) = def.build()?;
        self.create_joint(&def.base, fa, fb, kind)
    }

    /// Creates a mouse joint that pulls the point of body B now at `target`
    /// towards `target`. Fails on a stale body id, equal bodies or a bad
    /// number in the definition.
    ///
    /// Box2D v3.1: `b2CreateMouseJoint`.
    pub fn create_mouse_joint(&mut self, def: &MouseJointDef) -> Result<JointId> {
        def.validate()?;
        let a = self.body_index(def.base.body_a)?;
        let b = self.body_index(def.base.body_b)?;
        let target = crate::pos::to_pos(def.target);
        let anchor_a = self.body_sim(a).transform.apply_inv(target);
        let anchor_b = self.body_sim(b).transform.apply_inv(target);
        let (fa, fb, kind) = def.build(anchor_a, anchor_b)?;
        self.create_joint(&def.base, fa, fb, kind)
    }

    /// Creates a mover joint: body B is driven to a velocity relative to
    /// body A with bounded force. Fails on a stale body id, equal bodies or
    /// a bad number in the definition.
    ///
    /// Box2D: `b2CreateMoverJoint`.
    pub fn create_mover_joint(&mut self, def: &MoverJointDef) -> Result<JointId> {
        let (fa, fb, kind) = def.build()?;
        self.create_joint(&def.base, fa, fb, kind)
    }

    /// Creates a pogo joint: a spring leg along a normal. Fails on a stale
    /// body id, equal bodies, a zero normal or a bad number in the
    /// definition.
    ///
    /// Box2D: `b2CreatePogoJoint`.
    pub fn create_pogo_joint(&mut self, def: &PogoJointDef) -> Result<JointId> {
        let (fa, fb, kind) = def.build()?;
        self.create_joint(&def.base, fa, fb, kind)
    }

    /// Creates a prismatic joint. Fails on a stale body id, equal bodies, a
    /// zero axis or a bad number in the definition.
    ///
    /// Box2D: `b2CreatePrismaticJoint`.
    pub fn create_prismatic_joint(&mut self, def: &PrismaticJointDef) -> Result<JointId> {
        let (fa, fb, kind) = def.build()?;
        self.create_joint(&def.base, fa, fb, kind)
    }

    /// Creates a revolute joint. Fails on a stale body id, equal bodies or a
    /// bad number in the definition.
    ///
    /// Box2D: `b2CreateRevoluteJoint`.
    pub fn create_revolute_joint(&mut self, def: &RevoluteJointDef) -> Result<JointId> {
        let (fa, fb, kind) = def.build()?;
        self.create_joint(&def.base, fa, fb, kind)
    }

    /// Creates a weld joint. Fails on a stale body id, equal bodies or a bad
    /// number in the definition.
    ///
    /// Box2D: `b2CreateWeldJoint`.
    pub fn create_weld_joint(&mut self, def: &WeldJointDef) -> Result<JointId> {
        let (fa, fb, kind) = def.build()?;
        self.create_joint(&def.base, fa, fb, kind)
    }

    /// Creates a wheel joint. Fails on a stale body id, equal bodies, a zero
    /// axis or a bad number in the definition.
    ///
    /// Box2D: `b2CreateWheelJoint`.
    pub fn create_wheel_joint(&mut self, def: &WheelJointDef) -> Result<JointId> {
        let (fa, fb, kind) = def.build()?;
        self.create_joint(&def.base, fa, fb, kind)
    }

    /// Destroys a joint and wakes its bodies. Destroying it again gives
    /// `Err(InvalidId)`.
    ///
    /// Box2D: `b2DestroyJoint`.
    pub fn destroy_joint(&mut self, id: JointId) -> Result<()> {
        let ji = self.joint_index(id)?;
        self.destroy_joint_internal(ji as u32, true, true);
        Ok(())
    }

    /// Whether the id names a live joint of this world.
    ///
    /// Box2D: `b2Joint_IsValid`.
    pub fn joint_is_valid(&self, id: JointId) -> bool {
        self.joint_index(id).is_ok()
    }

    /// The number of live joints.
    ///
    /// Box2D: `b2World_GetCounters`.
    /// (.)
    pub fn joint_count(&self) -> usize {
        self.joints.ids.count() as usize
    }

    /// The joints attached to a body, newest first.
    ///
    /// Box2D: `b2Body_GetJoints`.
    pub fn body_joints(&self, id: BodyId) -> Result<Vec<JointId>> {
        Ok(self.body(id)?.joints())
    }

    /// The joint events of the last step: thresholds reached, joints broken,
    /// and joints destroyed with their bodies. Events caused by calls made
    /// between two steps (destroying a body) are reported after the next step.
    ///
    /// Box2D: `b2World_GetJointEvents`.
    pub fn joint_events(&self) -> &[JointEvent] {
        &self.joints.events
    }
}

impl<W: Deref<Target = World>> fmt::Debug for JointView<W> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("JointView")
            .field("id", &self.id())
            .field("joint_type", &self.joint_type())
            .finish()
    }
}

impl<W: Deref<Target = World>> JointView<W> {
    fn sim(&self) -> &JointSim {
        self.world.joint_sim(self.index)
    }

    fn body_transforms(&self) -> (WorldTransform, WorldTransform) {
        let j = &self.world.joints.joints[self.index];
        (
            self.world.body_sim(j.edges[0].body_id as usize).transform,
            self.world.body_sim(j.edges[1].body_id as usize).transform,
        )
    }

    /// The world rotations of the two joint frames.
    fn frame_rotations(&self) -> (Rot, Rot) {
        let (xf_a, xf_b) = self.body_transforms();
        let base = &self.sim().base;
        (
            xf_a.q.mul(base.local_frame_a.q),
            xf_b.q.mul(base.local_frame_b.q),
        )
    }

    /// The joint angle: frame B's angle relative to frame A, radians in
    /// `[−π, π]`.
    fn frame_angle(&self) -> f32 {
        let (qa, qb) = self.frame_rotations();
        qa.relative_angle(qb)
    }

    /// Anchor B minus anchor A along frame A's x axis, metres.
    fn axial_translation(&self) -> f32 {
        let (pa, pb) = self.world_anchors();
        self.frame_rotations().0.x_axis().dot(pb - pa)
    }

    /// Velocity of anchor B relative to anchor A along frame A's x axis
    /// (turning with body A), m/s.
    fn axial_speed(&self) -> f32 {
        let (pa, pb) = self.world_anchors();
        let (va, wa, ca) = self.body_motion(0);
        let (vb, wb, cb) = self.body_motion(1);
        let axis = self.frame_rotations().0.x_axis();
        let d = pb - pa;
        let vpa = va + Vec2::scalar_cross(wa, pa - ca);
        let vpb = vb + Vec2::scalar_cross(wb, pb - cb);
        d.dot(Vec2::scalar_cross(wa, axis)) + axis.dot(vpb - vpa)
    }

    /// Linear and angular velocity and centre of mass of body 0 (A) or 1 (B).
    fn body_motion(&self, edge: usize) -> (Vec2, f32, Pos) {
        let bi = self.world.joints.joints[self.index].edges[edge].body_id as usize;
        let center = self.world.body_sim(bi).center;
        match self.world.body_state(bi) {
            Some(s) => (s.linear_velocity, s.angular_velocity, center),
            None => (Vec2::ZERO, 0.0, center),
        }
    }

    /// Reads per-type data; the part was checked when it was made.
    fn data<T: JointData, R: Default>(&self, f: impl FnOnce(&T) -> R) -> R {
        T::of(&self.sim().kind).map_or_else(R::default, f)
    }

    /// This view as the part `T` (a joint type's data or a shared part), or
    /// the wrong-type error.
    fn typed<T: JointData>(self) -> Result<JointView<W>> {
        match T::of(&self.sim().kind) {
            Some(_) => Ok(self),
            None => Err(wrong_type(T::NAME, self.joint_type())),
        }
    }

    /// A read-only view of the same joint.
    pub fn as_ref(&self) -> JointRef<'_> {
        JointView {
            world: &*self.world,
            index: self.index,
        }
    }

    /// The joint's type.
    ///
    /// Box2D: `b2Joint_GetType`.
    pub fn joint_type(&self) -> JointType {
        self.world.joints.joints[self.index].joint_type
    }

    /// The joint's first body.
    ///
    /// Box2D: `b2Joint_GetBodyA`.
    pub fn body_a(&self) -> BodyId {
        let j = &self.world.joints.joints[self.index];
        self.world.make_body_id(j.edges[0].body_id)
    }

    /// The joint's second body.
    ///
    /// Box2D: `b2Joint_GetBodyB`.
    pub fn body_b(&self) -> BodyId {
        let j = &self.world.joints.joints[self.index];
        self.world.make_body_id(j.edges[1].body_id)
    }

    /// The joint frame on body A, in body A's frame: its position is the
    /// anchor (metres), its rotation carries the axis and reference angle.
    ///
    /// Box2D: `b2Joint_GetLocalFrameA`.
    pub fn local_frame_a(&self) -> Transform {
        self.sim().base.local_frame_a
    }

    /// The joint frame on body B, in body B's frame.
    ///
    /// Box2D: `b2Joint_GetLocalFrameB`.
    pub fn local_frame_b(&self) -> Transform {
        self.sim().base.local_frame_b
    }

    /// The anchor on body A in body A's frame, metres.
    ///
    /// Box2D v3.0: `b2Joint_GetLocalAnchorA`.
    pub fn local_anchor_a(&self) -> Vec2 {
        self.sim().base.local_frame_a.p
    }

    /// The anchor on body B in body B's frame, metres.
    ///
    /// Box2D v3.0: `b2Joint_GetLocalAnchorB`.
    pub fn local_anchor_b(&self) -> Vec2 {
        self.sim().base.local_frame_b.p
    }

    /// The anchors on both bodies in world coordinates, metres (`f64` with
    /// `large-world`).
    pub fn world_anchors(&self) -> (Pos, Pos) {
        let (xf_a, xf_b) = self.body_transforms();
        let base = &self.sim().base;
        (
            xf_a.apply(base.local_frame_a.p),
            xf_b.apply(base.local_frame_b.p),
        )
    }

    /// Whether the joint's bodies collide with each other.
    ///
    /// Box2D: `b2Joint_GetCollideConnected`.
    pub fn collide_connected(&self) -> bool {
        self.world.joints.joints[self.index].collide_connected
    }

    /// The user data given in the definition or by
    /// [`JointView::set_user_data`].
    ///
    /// Box2D: `b2Joint_GetUserData`.
    pub fn user_data(&self) -> u64 {
        self.world.joints.joints[self.index].user_data
    }

    /// The stiffness (Hz) and damping ratio of the joint's rigid parts:
    /// `None` means the world's value.
    ///
    /// Box2D: `b2Joint_GetConstraintTuning`.
    pub fn constraint_tuning(&self) -> (Option<f32>, Option<f32>) {
        let base = &self.sim().base;
        (base.constraint_hertz, base.constraint_damping_ratio)
    }

    /// The reaction force above which the joint reports an event, N.
    ///
    /// Box2D: `b2Joint_GetForceThreshold`.
    pub fn force_threshold(&self) -> f32 {
        self.sim().base.force_threshold
    }

    /// The reaction torque above which the joint reports an event, N·m.
    ///
    /// Box2D: `b2Joint_GetTorqueThreshold`.
    pub fn torque_threshold(&self) -> f32 {
        self.sim().base.torque_threshold
    }

    /// Whether reaching a threshold (a force or torque at or above it) destroys the joint.
    pub fn break_on_threshold(&self) -> bool {
        self.world.joints.joints[self.index].break_on_threshold
    }

    /// The force the joint applied to body B in the last substep of the last
    /// step, N, in world coordinates (body A received the opposite).
    ///
    /// Box2D: `b2Joint_GetConstraintForce`.
    pub fn constraint_force(&self) -> Vec2 {
        let (xf_a, xf_b) = self.body_transforms();
        constraint_force(self.sim(), xf_a, xf_b, self.world.joints.inv_h)
    }

    /// The torque the joint applied to body B in the last substep of the last
    /// step about its anchor, N·m (not counting the torque of the force).
    ///
    /// Box2D: `b2Joint_GetConstraintTorque`.
    pub fn constraint_torque(&self) -> f32 {
        constraint_torque(self.sim(), self.world.joints.inv_h)
    }

    /// How far the joint's rigid linear constraints are from being met,
    /// metres (≥ 0): the anchor gap of a revolute or rigid weld, the
    /// off-axis gap and limit overshoot of a prismatic or wheel, the length
    /// error of a rigid distance joint or the range overshoot of a spring
    /// one; zero for joints without a rigid linear part.
    ///
    /// Box2D: `b2Joint_GetLinearSeparation`.
    pub fn linear_separation(&self) -> f32 {
        let (pa, pb) = self.world_anchors();
        let d = pb - pa;
        let axis = self.frame_rotations().0.x_axis();
        let overshoot = |x: f32, lower: f32, upper: f32| {
            if x < lower {
                lower - x
            } else if x > upper {
                x - upper
            } else {
                0.0
            }
        };
        let line = |limit: &crate::joint::axial::Limit| {
            let perp = axis.left_perp().dot(d).abs();
            let over = if limit.enable {
                overshoot(axis.dot(d), limit.lower, limit.upper)
            } else {
                0.0
            };
            (perp * perp + over * over).sqrt()
        };
        match &self.sim().kind {
            JointKind::Distance(j) => {
                let length = d.length();
                if !j.spring.enable {
                    (length - j.length).abs()
                } else if j.limit.enable {
                    overshoot(length, j.limit.lower, j.limit.upper)
                } else {
                    0.0
                }
            }
            JointKind::Prismatic(j) => line(&j.limit),
            JointKind::Wheel(j) => line(&j.limit),
            JointKind::Revolute(_) => d.length(),
            JointKind::Weld(j) if j.linear_hertz == 0.0 => d.length(),
            _ => 0.0,
        }
    }

    /// How far the joint's rigid angular constraints are from being met,
    /// radians (≥ 0): the angle of a prismatic or rigid weld, the limit
    /// overshoot of a revolute; zero for the others.
    ///
    /// Box2D: `b2Joint_GetAngularSeparation`.
    pub fn angular_separation(&self) -> f32 {
        let angle = self.frame_angle();
        match &self.sim().kind {
            JointKind::Prismatic(_) => angle.abs(),
            JointKind::Weld(j) if j.angular_hertz == 0.0 => angle.abs(),
            JointKind::Revolute(j) if j.limit.enable => {
                if angle < j.limit.lower {
                    j.limit.lower - angle
                } else if angle > j.limit.upper {
                    angle - j.limit.upper
                } else {
                    0.0
                }
            }
            _ => 0.0,
        }
    }

    /// The motor of a revolute, prismatic, wheel or distance joint.
    pub fn motor(self) -> Result<MotorView<W>> {
        self.typed::<Motor>().map(|view| MotorView { view })
    }

    /// The limits of a revolute, prismatic, wheel or distance joint.
    pub fn limit(self) -> Result<LimitView<W>> {
        self.typed::<Limit>().map(|view| LimitView { view })
    }

    /// The spring of a revolute, prismatic, wheel or distance joint.
    pub fn spring(self) -> Result<SpringView<W>> {
        self.typed::<Spring>().map(|view| SpringView { view })
    }

    /// What only a revolute joint has.
    pub fn revolute(self) -> Result<RevoluteView<W>> {
        self.typed::<RevoluteJoint>()
            .map(|view| RevoluteView { view })
    }

    /// What only a prismatic joint has.
    pub fn prismatic(self) -> Result<PrismaticView<W>> {
        self.typed::<PrismaticJoint>()
            .map(|view| PrismaticView { view })
    }

    /// What only a wheel joint has.
    pub fn wheel(self) -> Result<WheelView<W>> {
        self.typed::<WheelJoint>().map(|view| WheelView { view })
    }

    /// What only a distance joint has.
    pub fn distance(self) -> Result<DistanceView<W>> {
        self.typed::<DistanceJoint>()
            .map(|view| DistanceView { view })
    }

    /// What only a weld joint has.
    pub fn weld(self) -> Result<WeldView<W>> {
        self.typed::<WeldJoint>().map(|view| WeldView { view })
    }

    /// What only a motor joint has.
    pub fn motor_joint(self) -> Result<MotorJointView<W>> {
        self.typed::<MotorJoint>()
            .map(|view| MotorJointView { view })
    }

    /// What only a mouse joint has.
    pub fn mouse(self) -> Result<MouseView<W>> {
        self.typed::<MouseJoint>().map(|view| MouseView { view })
    }

    /// What only a mover joint has.
    pub fn mover(self) -> Result<MoverView<W>> {
        self.typed::<MoverJoint>().map(|view| MoverView { view })
    }

    /// What only a pogo joint has.
    pub fn pogo(self) -> Result<PogoView<W>> {
        self.typed::<PogoJoint>().map(|view| PogoView { view })
    }

    /// A filter joint (it has nothing of its own).
    pub fn filter(self) -> Result<FilterView<W>> {
        if self.joint_type() == JointType::Filter {
            Ok(FilterView { view: self })
        } else {
            Err(wrong_type("a filter joint", self.joint_type()))
        }
    }
}

impl JointView<&mut World> {
    /// A shorter-lived read-write view of the same joint, so that this one
    /// can be used again after a part is taken.
    pub fn reborrow(&mut self) -> JointMut<'_> {
        JointView {
            world: &mut *self.world,
            index: self.index,
        }
    }

    /// Changes the joint's sim and wakes its bodies.
    fn update<R>(&mut self, f: impl FnOnce(&mut JointSim) -> R) -> R {
        let r = f(self.world.joint_sim_mut(self.index));
        self.world.wake_joint(self.index);
        r
    }

    /// Changes per-type data and wakes the bodies; the part was checked when
    /// it was made.
    fn update_data<T: JointData>(&mut self, f: impl FnOnce(&mut T)) {
        self.update(|sim| {
            if let Some(j) = T::of_mut(&mut sim.kind) {
                f(j);
            }
        });
    }

    /// Moves the joint frame on body A (in body A's frame: anchor, metres,
    /// and the rotation that carries axis and reference angle). The rotation
    /// is normalised.
    ///
    /// Box2D: `b2Joint_SetLocalFrameA`.
    pub fn set_local_frame_a(&mut self, frame: Transform) -> Result<()> {
        let frame = check_frame(frame)?;
        self.update(|sim| sim.base.local_frame_a = frame);
        Ok(())
    }

    /// Moves the joint frame on body B (in body B's frame).
    ///
    /// Box2D: `b2Joint_SetLocalFrameB`.
    pub fn set_local_frame_b(&mut self, frame: Transform) -> Result<()> {
        let frame = check_frame(frame)?;
        self.update(|sim| sim.base.local_frame_b = frame);
        Ok(())
    }

    /// Replaces the joint's user data.
    ///
    /// Box2D: `b2Joint_SetUserData`.
    pub fn set_user_data(&mut self, user_data: u64) {
        self.world.joints.joints[self.index].user_data = user_data;
    }

    /// Lets the joint's bodies collide with each other or not. Turning it off
    /// destroys their contacts; turning it on lets the broad phase find them
    /// again at the next step.
    ///
    /// Box2D: `b2Joint_SetCollideConnected`.
    pub fn set_collide_connected(&mut self, collide: bool) {
        let world = &mut *self.world;
        let joint = &mut world.joints.joints[self.index];
        if joint.collide_connected == collide {
            return;
        }
        joint.collide_connected = collide;
        let a = joint.edges[0].body_id as usize;
        let b = joint.edges[1].body_id as usize;
        if collide {
            world.refilter_body_pair(a, b);
        } else {
            world.destroy_contacts_between(a, b);
        }
    }

    /// Overrides the stiffness (Hz, ≥ 0) and damping ratio (≥ 0) of the
    /// joint's rigid parts; `None` uses the world's value.
    ///
    /// Box2D: `b2Joint_SetConstraintTuning`.
    pub fn set_constraint_tuning(
        &mut self,
        hertz: Option<f32>,
        damping_ratio: Option<f32>,
    ) -> Result<()> {
        if let Some(h) = hertz {
            check_non_negative(h, "joint constraint hertz")?;
        }
        if let Some(z) = damping_ratio {
            check_non_negative(z, "joint constraint damping ratio")?;
        }
        self.update(|sim| {
            sim.base.constraint_hertz = hertz;
            sim.base.constraint_damping_ratio = damping_ratio;
        });
        Ok(())
    }

    /// Sets the reaction force above which the joint reports an event, N
    /// (≥ 0; `f32::MAX` for never).
    ///
    /// Box2D: `b2Joint_SetForceThreshold`.
    pub fn set_force_threshold(&mut self, force: f32) -> Result<()> {
        check_threshold(force, "joint force threshold")?;
        self.world.joint_sim_mut(self.index).base.force_threshold = force;
        self.world.joints.thresholds_seen |= force != f32::MAX;
        Ok(())
    }

    /// Sets the reaction torque above which the joint reports an event, N·m
    /// (≥ 0; `f32::MAX` for never).
    ///
    /// Box2D: `b2Joint_SetTorqueThreshold`.
    pub fn set_torque_threshold(&mut self, torque: f32) -> Result<()> {
        check_threshold(torque, "joint torque threshold")?;
        self.world.joint_sim_mut(self.index).base.torque_threshold = torque;
        self.world.joints.thresholds_seen |= torque != f32::MAX;
        Ok(())
    }

    /// Whether reaching a threshold (a force or torque at or above it) destroys the joint.
    pub fn set_break_on_threshold(&mut self, break_on_threshold: bool) {
        self.world.joints.joints[self.index].break_on_threshold = break_on_threshold;
    }

    /// Wakes both bodies of the joint.
    ///
    /// Box2D: `b2Joint_WakeBodies`.
    pub fn wake_bodies(&mut self) {
        self.world.wake_joint(self.index);
    }
}

/// A frame with a finite anchor and a normalisable rotation, normalised.
fn check_frame(frame: Transform) -> Result<Transform> {
    check_finite_vec(frame.p, "joint local frame position")?;
    check_finite(frame.q.c, "joint local frame rotation")?;
    check_finite(frame.q.s, "joint local frame rotation")?;
    let length = (frame.q.c * frame.q.c + frame.q.s * frame.q.s).sqrt();
    if length < 1.0e-6 {
        return Err(Error::OutOfRange {
            what: "joint local frame rotation",
            expected: "a non-zero (cos, sin) pair",
            value: length,
        });
    }
    Ok(Transform::new(
        frame.p,
        Rot {
            c: frame.q.c / length,
            s: frame.q.s / length,
        },
    ))
}

/// Declares a part view: a joint view whose type (`$data`, a [`JointData`])
/// was checked once, with a read-only and a read-write alias, and its
/// getters and setters, one row each:
/// - `fn def(&self) -> XDef(base, sim);` the definition the joint would be
///   re-created with (`XDef::read`, with or without the joint's base sim);
/// - `fn name(&self) -> T = field;` (or `= |j| expr;`) a getter of the data;
/// - `fn set_name(&mut self, v: T) = field, check("what");` a setter that
///   checks `v` (the error names `what`), stores it and wakes the bodies.
///
/// Each row keeps its own doc lines and `Box2D:` tag (scripts/api_parity.py
/// reads a `&self` row as the read alias's method, a `&mut self` row as the
/// write alias's). Getters go to the impl for every view, setters to the
/// impl for `&mut World`.
macro_rules! part_view {
    (
        $(#[$doc:meta])*
        pub struct $name:ident<W>$(($data:ident))?: $ref_alias:ident, $mut_alias:ident;
        $($rows:tt)*
    ) => {
        $(#[$doc])*
        #[derive(Clone, Copy)]
        pub struct $name<W> {
            view: JointView<W>,
        }

        impl<W: Deref<Target = World>> fmt::Debug for $name<W> {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.debug_tuple(stringify!($name)).field(&self.view).finish()
            }
        }

        #[doc = concat!("A read-only [`", stringify!($name), "`].")]
        pub type $ref_alias<'w> = $name<&'w World>;
        #[doc = concat!("A read-write [`", stringify!($name), "`].")]
        pub type $mut_alias<'w> = $name<&'w mut World>;

        part_view!(@rows $name $($data)? [
            /// The whole joint, read only.
            pub fn joint(&self) -> JointRef<'_> {
                self.view.as_ref()
            }
        ] [
            /// The whole joint, read-write.
            pub fn joint_mut(&mut self) -> JointMut<'_> {
                self.view.reborrow()
            }
        ] $($rows)*);
    };

    (@rows $name:ident $data:ident [$($get:tt)*] $set:tt
        $(#[$doc:meta])* fn def(&self) -> $def:ident($base:ident $(, $sim:ident)?);
        $($rest:tt)*
    ) => {
        part_view!(@rows $name $data [$($get)*
            $(#[$doc])*
            pub fn def(&self) -> $def {
                let $base = self.view.world.joint_base_def(self.view.index);
                $(let $sim = &self.view.sim().base;)?
                self.view.data(|j: &$data| $def::read($base, $($sim,)? j))
            }
        ] $set $($rest)*);
    };

    (@rows $name:ident $data:ident [$($get:tt)*] $set:tt
        $(#[$doc:meta])* fn $f:ident(&self) -> $ty:ty = |$j:ident| $e:expr;
        $($rest:tt)*
    ) => {
        part_view!(@rows $name $data [$($get)*
            $(#[$doc])*
            pub fn $f(&self) -> $ty {
                self.view.data(|$j: &$data| $e)
            }
        ] $set $($rest)*);
    };

    (@rows $name:ident $data:ident [$($get:tt)*] $set:tt
        $(#[$doc:meta])* fn $f:ident(&self) -> $ty:ty = $($field:ident).+;
        $($rest:tt)*
    ) => {
        part_view!(@rows $name $data [$($get)*
            $(#[$doc])*
            pub fn $f(&self) -> $ty {
                self.view.data(|j: &$data| j.$($field).+)
            }
        ] $set $($rest)*);
    };

    (@rows $name:ident $data:ident $get:tt [$($set:tt)*]
        $(#[$doc:meta])* fn $f:ident(&mut self, $v:ident: $ty:ty) = $($field:ident).+, $check:ident($what:literal);
        $($rest:tt)*
    ) => {
        part_view!(@rows $name $data $get [$($set)*
            $(#[$doc])*
            pub fn $f(&mut self, $v: $ty) -> Result<()> {
                $check($v, $what)?;
                self.view.update_data(|j: &mut $data| j.$($field).+ = $v);
                Ok(())
            }
        ] $($rest)*);
    };

    (@rows $name:ident $($data:ident)? [$($get:tt)*] [$($set:tt)*]) => {
        impl<W: Deref<Target = World>> $name<W> {
            $($get)*
        }

        impl $name<&mut World> {
            $($set)*
        }
    };
}

part_view! {
    /// The motor along or about the axis of a revolute, prismatic, wheel or
    /// distance joint: it drives the joint speed towards a target with a
    /// bounded force (N; torque, N·m, for revolute and wheel). Made by
    /// [`JointView::motor`].
    ///
    /// Covers Box2D's `b2RevoluteJoint_*Motor*`, `b2PrismaticJoint_*Motor*`, `b2WheelJoint_*Motor*`, `b2DistanceJoint_*Motor*`.
    pub struct MotorView<W>(Motor): MotorRef, MotorMut;
    /// Whether the motor acts.
    ///
    /// Box2D: `b2RevoluteJoint_IsMotorEnabled`.
    /// Box2D: `b2PrismaticJoint_IsMotorEnabled`.
    /// Box2D: `b2WheelJoint_IsMotorEnabled`.
    /// Box2D: `b2DistanceJoint_IsMotorEnabled`.
    fn is_enabled(&self) -> bool = enable;
    /// The target joint speed: rad/s for revolute and wheel, m/s for
    /// prismatic and distance.
    ///
    /// Box2D: `b2RevoluteJoint_GetMotorSpeed`.
    /// Box2D: `b2PrismaticJoint_GetMotorSpeed`.
    /// Box2D: `b2WheelJoint_GetMotorSpeed`.
    /// Box2D: `b2DistanceJoint_GetMotorSpeed`.
    fn speed(&self) -> f32 = speed;
    /// Sets the target joint speed (rad/s or m/s, see
    /// [`MotorView::speed`]) and wakes the bodies.
    ///
    /// Box2D: `b2RevoluteJoint_SetMotorSpeed`.
    /// Box2D: `b2PrismaticJoint_SetMotorSpeed`.
    /// Box2D: `b2WheelJoint_SetMotorSpeed`.
    /// Box2D: `b2DistanceJoint_SetMotorSpeed`.
    fn set_speed(&mut self, speed: f32) = speed, check_finite("motor speed");
    /// The largest force (N, prismatic and distance) or torque (N·m,
    /// revolute and wheel) the motor applies.
    ///
    /// Box2D: `b2RevoluteJoint_GetMaxMotorTorque`.
    /// Box2D: `b2PrismaticJoint_GetMaxMotorForce`.
    /// Box2D: `b2WheelJoint_GetMaxMotorTorque`.
    /// Box2D: `b2DistanceJoint_GetMaxMotorForce`.
    fn max_force(&self) -> f32 = max_force;
    /// Sets the largest motor force (N) or torque (N·m), ≥ 0, and wakes the
    /// bodies.
    ///
    /// Box2D: `b2RevoluteJoint_SetMaxMotorTorque`.
    /// Box2D: `b2PrismaticJoint_SetMaxMotorForce`.
    /// Box2D: `b2WheelJoint_SetMaxMotorTorque`.
    /// Box2D: `b2DistanceJoint_SetMaxMotorForce`.
    fn set_max_force(&mut self, force: f32) = max_force, check_non_negative("max motor force");
}

impl<W: Deref<Target = World>> MotorView<W> {
    /// The force (N) or torque (N·m) the motor applied in the last substep.
    ///
    /// Box2D: `b2RevoluteJoint_GetMotorTorque`.
    /// Box2D: `b2PrismaticJoint_GetMotorForce`.
    /// Box2D: `b2WheelJoint_GetMotorTorque`.
    /// Box2D: `b2DistanceJoint_GetMotorForce`.
    pub fn force(&self) -> f32 {
        let inv_h = self.view.world.joints.inv_h;
        self.view.data(|m: &Motor| m.impulse * inv_h)
    }
}

impl MotorView<&mut World> {
    /// Turns the motor on or off and wakes the bodies.
    ///
    /// Box2D: `b2RevoluteJoint_EnableMotor`.
    /// Box2D: `b2PrismaticJoint_EnableMotor`.
    /// Box2D: `b2WheelJoint_EnableMotor`.
    /// Box2D: `b2DistanceJoint_EnableMotor`.
    pub fn enable(&mut self, enable: bool) {
        self.view.update_data(|m: &mut Motor| m.set_enabled(enable));
    }
}

part_view! {
    /// The lower and upper limits along or about the axis of a revolute
    /// (angle, radians), prismatic or wheel (translation, metres) or distance
    /// joint (length range, metres). Made by [`JointView::limit`].
    ///
    /// Covers Box2D's `b2RevoluteJoint_*Limit*`, `b2PrismaticJoint_*Limit*`, `b2WheelJoint_*Limit*`, `b2DistanceJoint_*Limit*`, `*Length`.
    pub struct LimitView<W>(Limit): LimitRef, LimitMut;
    /// Whether the limits are enforced.
    ///
    /// Box2D: `b2RevoluteJoint_IsLimitEnabled`.
    /// Box2D: `b2PrismaticJoint_IsLimitEnabled`.
    /// Box2D: `b2WheelJoint_IsLimitEnabled`.
    /// Box2D: `b2DistanceJoint_IsLimitEnabled`.
    fn is_enabled(&self) -> bool = enable;
    /// The lower limit: radians (revolute) or metres.
    ///
    /// Box2D: `b2RevoluteJoint_GetLowerLimit`.
    /// Box2D: `b2PrismaticJoint_GetLowerLimit`.
    /// Box2D: `b2WheelJoint_GetLowerLimit`.
    /// Box2D: `b2DistanceJoint_GetMinLength`.
    fn lower(&self) -> f32 = lower;
    /// The upper limit: radians (revolute) or metres.
    ///
    /// Box2D: `b2RevoluteJoint_GetUpperLimit`.
    /// Box2D: `b2PrismaticJoint_GetUpperLimit`.
    /// Box2D: `b2WheelJoint_GetUpperLimit`.
    /// Box2D: `b2DistanceJoint_GetMaxLength`.
    fn upper(&self) -> f32 = upper;
}

impl LimitView<&mut World> {
    fn set(&mut self, f: impl FnOnce(&mut Limit)) {
        self.view.update_data(f);
    }

    /// Turns the limits on or off and wakes the bodies.
    ///
    /// Box2D: `b2RevoluteJoint_EnableLimit`.
    /// Box2D: `b2PrismaticJoint_EnableLimit`.
    /// Box2D: `b2WheelJoint_EnableLimit`.
    /// Box2D: `b2DistanceJoint_EnableLimit`.
    pub fn enable(&mut self, enable: bool) {
        if self.view.joint_type() == JointType::Distance {
            // Box2D's distance joint keeps its range impulses.
            self.set(|l| l.enable = enable);
        } else {
            self.set(|l| l.set_enabled(enable));
        }
    }

    /// Sets the limits, `lower ≤ upper`, and wakes the bodies: angles in
    /// `[−π, π]` for a revolute joint, translations (metres) for prismatic
    /// and wheel, lengths (metres, ≥ 0, raised to the linear slop) for a
    /// distance joint.
    ///
    /// Box2D: `b2RevoluteJoint_SetLimits`.
    /// Box2D: `b2PrismaticJoint_SetLimits`.
    /// Box2D: `b2WheelJoint_SetLimits`.
    /// Box2D: `b2DistanceJoint_SetLengthRange`.
    pub fn set_range(&mut self, lower: f32, upper: f32) -> Result<()> {
        match self.view.joint_type() {
            JointType::Revolute => {
                check_angle(lower, "revolute lower angle")?;
                check_angle(upper, "revolute upper angle")?;
                check_range(lower, upper, "revolute angle limits")?;
                self.set(|l| {
                    if l.lower != lower || l.upper != upper {
                        l.set_range(lower, upper);
                    }
                });
            }
            JointType::Distance => {
                check_non_negative(lower, "distance min length")?;
                check_range(lower, upper, "distance length range")?;
                let (lower, upper) = clamp_range(lower, upper);
                self.set(|l| l.set_range(lower, upper));
            }
            _ => {
                check_range(lower, upper, "translation limits")?;
                self.set(|l| l.set_range(lower, upper));
            }
        }
        Ok(())
    }
}

part_view! {
    /// The spring along or about the axis of a revolute, prismatic, wheel or
    /// distance joint, with its stiffness in hertz (so the frequency does not
    /// depend on the masses). Made by [`JointView::spring`].
    ///
    /// Covers Box2D's `b2RevoluteJoint_*Spring*`, `b2PrismaticJoint_*Spring*`, `b2WheelJoint_*Spring*`, `b2DistanceJoint_*Spring*`.
    pub struct SpringView<W>(Spring): SpringRef, SpringMut;
    /// Whether the spring acts (for a distance joint: whether it is a
    /// spring rather than a rigid rod).
    ///
    /// Box2D: `b2RevoluteJoint_IsSpringEnabled`.
    /// Box2D: `b2PrismaticJoint_IsSpringEnabled`.
    /// Box2D: `b2WheelJoint_IsSpringEnabled`.
    /// Box2D: `b2DistanceJoint_IsSpringEnabled`.
    fn is_enabled(&self) -> bool = enable;
    /// The stiffness, Hz.
    ///
    /// Box2D: `b2RevoluteJoint_GetSpringHertz`.
    /// Box2D: `b2PrismaticJoint_GetSpringHertz`.
    /// Box2D: `b2WheelJoint_GetSpringHertz`.
    /// Box2D: `b2DistanceJoint_GetSpringHertz`.
    fn hertz(&self) -> f32 = hertz;
    /// Sets the stiffness, Hz (≥ 0; zero makes a pure damper), and wakes the
    /// bodies.
    ///
    /// Box2D: `b2RevoluteJoint_SetSpringHertz`.
    /// Box2D: `b2PrismaticJoint_SetSpringHertz`.
    /// Box2D: `b2WheelJoint_SetSpringHertz`.
    /// Box2D: `b2DistanceJoint_SetSpringHertz`.
    fn set_hertz(&mut self, hertz: f32) = hertz, check_non_negative("spring hertz");
    /// The damping ratio (dimensionless).
    ///
    /// Box2D: `b2RevoluteJoint_GetSpringDampingRatio`.
    /// Box2D: `b2PrismaticJoint_GetSpringDampingRatio`.
    /// Box2D: `b2WheelJoint_GetSpringDampingRatio`.
    /// Box2D: `b2DistanceJoint_GetSpringDampingRatio`.
    fn damping_ratio(&self) -> f32 = damping_ratio;
    /// Sets the damping ratio (≥ 0) and wakes the bodies.
    ///
    /// Box2D: `b2RevoluteJoint_SetSpringDampingRatio`.
    /// Box2D: `b2PrismaticJoint_SetSpringDampingRatio`.
    /// Box2D: `b2WheelJoint_SetSpringDampingRatio`.
    /// Box2D: `b2DistanceJoint_SetSpringDampingRatio`.
    fn set_damping_ratio(&mut self, damping_ratio: f32) = damping_ratio, check_non_negative("spring damping ratio");
}

impl SpringView<&mut World> {
    /// Turns the spring on or off (a distance joint becomes a spring or a
    /// rigid rod) and wakes the bodies.
    ///
    /// Box2D: `b2RevoluteJoint_EnableSpring`.
    /// Box2D: `b2PrismaticJoint_EnableSpring`.
    /// Box2D: `b2WheelJoint_EnableSpring`.
    /// Box2D: `b2DistanceJoint_EnableSpring`.
    pub fn enable(&mut self, enable: bool) {
        let distance = self.view.joint_type() == JointType::Distance;
        self.view.update_data(|s: &mut Spring| {
            if distance {
                // The distance joint's impulse carries over between rod and spring.
                s.enable = enable;
            } else {
                s.set_enabled(enable);
            }
        });
    }
}

part_view! {
    /// What only a revolute joint has: its angle, speed and the spring's
    /// target angle. Its motor, limits and spring are the shared parts.
    ///
    /// Covers Box2D's `b2RevoluteJoint_*`.
    pub struct RevoluteView<W>(RevoluteJoint): RevoluteRef, RevoluteMut;
    /// The definition the joint would be re-created with (its current
    /// settings).
    fn def(&self) -> RevoluteJointDef(base, sim);
    /// The angle the spring pulls towards, radians.
    ///
    /// Box2D: `b2RevoluteJoint_GetTargetAngle`.
    fn target_angle(&self) -> f32 = target_angle;
    /// Sets the angle the spring pulls towards, radians in `[−π, π]`, and
    /// wakes the bodies.
    ///
    /// Box2D: `b2RevoluteJoint_SetTargetAngle`.
    fn set_target_angle(&mut self, angle: f32) = target_angle, check_angle("revolute target angle");
}

impl<W: Deref<Target = World>> RevoluteView<W> {
    /// The current joint angle `θ_b − θ_a − θ_ref`, radians in `[−π, π]`.
    ///
    /// Box2D: `b2RevoluteJoint_GetAngle`.
    pub fn angle(&self) -> f32 {
        self.view.frame_angle()
    }

    /// Angular velocity of B relative to A, rad/s.
    pub fn speed(&self) -> f32 {
        self.view.body_motion(1).1 - self.view.body_motion(0).1
    }
}

part_view! {
    /// What only a prismatic joint has: its translation, speed and the
    /// spring's target translation. Its motor, limits and spring are the
    /// shared parts.
    ///
    /// Covers Box2D's `b2PrismaticJoint_*`.
    pub struct PrismaticView<W>(PrismaticJoint): PrismaticRef, PrismaticMut;
    /// The definition the joint would be re-created with.
    fn def(&self) -> PrismaticJointDef(base, sim);
    /// The translation the spring pulls towards, metres.
    ///
    /// Box2D: `b2PrismaticJoint_GetTargetTranslation`.
    fn target_translation(&self) -> f32 = target_translation;
    /// Sets the translation the spring pulls towards, metres, and wakes the
    /// bodies.
    ///
    /// Box2D: `b2PrismaticJoint_SetTargetTranslation`.
    fn set_target_translation(&mut self, translation: f32) = target_translation, check_finite("prismatic target translation");
}

impl<W: Deref<Target = World>> PrismaticView<W> {
    /// The current translation of anchor B from anchor A along the axis,
    /// metres.
    ///
    /// Box2D: `b2PrismaticJoint_GetTranslation`.
    pub fn translation(&self) -> f32 {
        self.view.axial_translation()
    }

    /// The rate of change of the translation, m/s.
    ///
    /// Box2D: `b2PrismaticJoint_GetSpeed`.
    pub fn speed(&self) -> f32 {
        self.view.axial_speed()
    }
}

part_view! {
    /// What only a wheel joint has: its suspension travel. Its motor,
    /// suspension limits and spring are the shared parts.
    ///
    /// Covers Box2D's `b2WheelJoint_*`.
    pub struct WheelView<W>(WheelJoint): WheelRef, WheelMut;
    /// The definition the joint would be re-created with.
    fn def(&self) -> WheelJointDef(base, sim);
}

impl<W: Deref<Target = World>> WheelView<W> {
    /// The current suspension travel of anchor B from anchor A along the
    /// axis, metres.
    pub fn translation(&self) -> f32 {
        self.view.axial_translation()
    }
}

part_view! {
    /// What only a distance joint has: the rest length, the current length
    /// and the spring's force range. Its motor, length range (limits) and
    /// spring are the shared parts.
    ///
    /// Covers Box2D's `b2DistanceJoint_*`.
    pub struct DistanceView<W>(DistanceJoint): DistanceRef, DistanceMut;
    /// The definition the joint would be re-created with.
    fn def(&self) -> DistanceJointDef(base);
    /// The rest length, metres.
    ///
    /// Box2D: `b2DistanceJoint_GetLength`.
    fn length(&self) -> f32 = length;
    /// The bounds of the spring force `(lower, upper)`, N (see
    /// [`DistanceJointDef::lower_spring_force`]).
    ///
    /// Box2D: `b2DistanceJoint_GetSpringForceRange`.
    fn spring_force_range(&self) -> (f32, f32) = |j| (j.lower_spring_force, j.upper_spring_force);
}

impl<W: Deref<Target = World>> DistanceView<W> {
    /// The current distance between the anchors, metres.
    ///
    /// Box2D: `b2DistanceJoint_GetCurrentLength`.
    pub fn current_length(&self) -> f32 {
        let (pa, pb) = self.view.world_anchors();
        (pb - pa).length()
    }
}

impl DistanceView<&mut World> {
    /// Sets the rest length, metres (≥ 0; raised to the linear slop), and
    /// wakes the bodies.
    ///
    /// Box2D: `b2DistanceJoint_SetLength`.
    pub fn set_length(&mut self, length: f32) -> Result<()> {
        check_non_negative(length, "distance joint length")?;
        self.view.update_data(|j: &mut DistanceJoint| {
            j.length = clamp_length(length);
            j.spring.impulse = 0.0;
            j.limit.reset();
        });
        Ok(())
    }

    /// Sets the bounds of the spring force, N (`lower ≤ upper`, either may be
    /// infinite), and wakes the bodies.
    ///
    /// Box2D: `b2DistanceJoint_SetSpringForceRange`.
    pub fn set_spring_force_range(&mut self, lower: f32, upper: f32) -> Result<()> {
        check_force_range(lower, upper)?;
        self.view.update_data(|j: &mut DistanceJoint| {
            j.lower_spring_force = lower;
            j.upper_spring_force = upper;
        });
        Ok(())
    }
}

part_view! {
    /// What only a weld joint has: the stiffness of its linear and angular
    /// halves (zero hertz is rigid).
    ///
    /// Covers Box2D's `b2WeldJoint_*`.
    pub struct WeldView<W>(WeldJoint): WeldRef, WeldMut;
    /// The definition the joint would be re-created with.
    fn def(&self) -> WeldJointDef(base, sim);
    /// Stiffness of the linear half, Hz (zero: rigid).
    ///
    /// Box2D: `b2WeldJoint_GetLinearHertz`.
    fn linear_hertz(&self) -> f32 = linear_hertz;
    /// Sets the stiffness of the linear half, Hz (≥ 0; zero is rigid), and
    /// wakes the bodies.
    ///
    /// Box2D: `b2WeldJoint_SetLinearHertz`.
    fn set_linear_hertz(&mut self, hertz: f32) = linear_hertz, check_non_negative("weld linear hertz");
    /// Damping ratio of the linear half.
    ///
    /// Box2D: `b2WeldJoint_GetLinearDampingRatio`.
    fn linear_damping_ratio(&self) -> f32 = linear_damping_ratio;
    /// Sets the damping ratio of the linear half (≥ 0).
    ///
    /// Box2D: `b2WeldJoint_SetLinearDampingRatio`.
    fn set_linear_damping_ratio(&mut self, ratio: f32) = linear_damping_ratio, check_non_negative("weld linear damping ratio");
    /// Stiffness of the angular half, Hz (zero: rigid).
    ///
    /// Box2D: `b2WeldJoint_GetAngularHertz`.
    fn angular_hertz(&self) -> f32 = angular_hertz;
    /// Sets the stiffness of the angular half, Hz (≥ 0; zero is rigid).
    ///
    /// Box2D: `b2WeldJoint_SetAngularHertz`.
    fn set_angular_hertz(&mut self, hertz: f32) = angular_hertz, check_non_negative("weld angular hertz");
    /// Damping ratio of the angular half.
    ///
    /// Box2D: `b2WeldJoint_GetAngularDampingRatio`.
    fn angular_damping_ratio(&self) -> f32 = angular_damping_ratio;
    /// Sets the damping ratio of the angular half (≥ 0).
    ///
    /// Box2D: `b2WeldJoint_SetAngularDampingRatio`.
    fn set_angular_damping_ratio(&mut self, ratio: f32) = angular_damping_ratio, check_non_negative("weld angular damping ratio");
}

part_view! {
    /// What only a motor joint has: its offset drive (Box2D v3.0), velocity
    /// drive and springs (Box2D v3.2); see [`MotorJointDef`].
    ///
    /// Covers Box2D's `b2MotorJoint_*`.
    pub struct MotorJointView<W>(MotorJoint): MotorJointRef, MotorJointMut;
    /// The definition the joint would be re-created with.
    fn def(&self) -> MotorJointDef(base);
    /// Where anchor B is driven to, relative to anchor A in body A's frame,
    /// metres.
    ///
    /// Box2D v3.0: `b2MotorJoint_GetLinearOffset`.
    fn linear_offset(&self) -> Vec2 = linear_offset;
    /// Sets the target position of anchor B relative to anchor A, in body
    /// A's frame, metres, and wakes the bodies.
    ///
    /// Box2D v3.0: `b2MotorJoint_SetLinearOffset`.
    fn set_linear_offset(&mut self, offset: Vec2) = linear_offset, check_finite_vec("motor joint linear offset");
    /// The angle of body B relative to body A it is driven to, radians.
    ///
    /// Box2D v3.0: `b2MotorJoint_GetAngularOffset`.
    fn angular_offset(&self) -> f32 = angular_offset;
    /// Sets the target angle of body B relative to body A, radians.
    ///
    /// Box2D v3.0: `b2MotorJoint_SetAngularOffset`.
    fn set_angular_offset(&mut self, offset: f32) = angular_offset, check_finite("motor joint angular offset");
    /// The largest force of the offset drive, N.
    ///
    /// Box2D v3.0: `b2MotorJoint_GetMaxForce`.
    fn max_force(&self) -> f32 = max_force;
    /// Sets the largest force of the offset drive, N (≥ 0).
    ///
    /// Box2D v3.0: `b2MotorJoint_SetMaxForce`.
    fn set_max_force(&mut self, force: f32) = max_force, check_non_negative("motor joint max force");
    /// The largest torque of the offset drive, N·m.
    ///
    /// Box2D v3.0: `b2MotorJoint_GetMaxTorque`.
    fn max_torque(&self) -> f32 = max_torque;
    /// Sets the largest torque of the offset drive, N·m (≥ 0).
    ///
    /// Box2D v3.0: `b2MotorJoint_SetMaxTorque`.
    fn set_max_torque(&mut self, torque: f32) = max_torque, check_non_negative("motor joint max torque");
    /// The fraction of the offset error removed per substep.
    ///
    /// Box2D v3.0: `b2MotorJoint_GetCorrectionFactor`.
    fn correction_factor(&self) -> f32 = correction_factor;
    /// Sets the fraction of the error corrected per substep, in `[0, 1]`.
    ///
    /// Box2D v3.0: `b2MotorJoint_SetCorrectionFactor`.
    fn set_correction_factor(&mut self, factor: f32) = correction_factor, check_correction("motor joint correction factor");
    /// The target velocity of body B relative to body A, world frame, m/s.
    ///
    /// Box2D: `b2MotorJoint_GetLinearVelocity`.
    fn linear_velocity(&self) -> Vec2 = linear_velocity;
    /// Sets the target velocity of body B relative to body A, world frame,
    /// m/s, and wakes the bodies.
    ///
    /// Box2D: `b2MotorJoint_SetLinearVelocity`.
    fn set_linear_velocity(&mut self, velocity: Vec2) = linear_velocity, check_finite_vec("motor joint linear velocity");
    /// The target angular velocity of body B relative to body A, rad/s.
    ///
    /// Box2D: `b2MotorJoint_GetAngularVelocity`.
    fn angular_velocity(&self) -> f32 = angular_velocity;
    /// Sets the target angular velocity of body B relative to body A,
    /// rad/s, and wakes the bodies.
    ///
    /// Box2D: `b2MotorJoint_SetAngularVelocity`.
    fn set_angular_velocity(&mut self, velocity: f32) = angular_velocity, check_finite("motor joint angular velocity");
    /// The largest force of the velocity drive, N.
    ///
    /// Box2D: `b2MotorJoint_GetMaxVelocityForce`.
    fn max_velocity_force(&self) -> f32 = max_velocity_force;
    /// Sets the largest force of the velocity drive, N (≥ 0; zero: off).
    ///
    /// Box2D: `b2MotorJoint_SetMaxVelocityForce`.
    fn set_max_velocity_force(&mut self, force: f32) = max_velocity_force, check_non_negative("motor joint max velocity force");
    /// The largest torque of the velocity drive, N·m.
    ///
    /// Box2D: `b2MotorJoint_GetMaxVelocityTorque`.
    fn max_velocity_torque(&self) -> f32 = max_velocity_torque;
    /// Sets the largest torque of the velocity drive, N·m (≥ 0; zero: off).
    ///
    /// Box2D: `b2MotorJoint_SetMaxVelocityTorque`.
    fn set_max_velocity_torque(&mut self, torque: f32) = max_velocity_torque, check_non_negative("motor joint max velocity torque");
    /// The stiffness of the linear spring, Hz.
    ///
    /// Box2D: `b2MotorJoint_GetLinearHertz`.
    fn linear_hertz(&self) -> f32 = linear_spring.hertz;
    /// Sets the stiffness of the linear spring, Hz (≥ 0; zero: off).
    ///
    /// Box2D: `b2MotorJoint_SetLinearHertz`.
    fn set_linear_hertz(&mut self, hertz: f32) = linear_spring.hertz, check_non_negative("motor joint linear hertz");
    /// The damping ratio of the linear spring.
    ///
    /// Box2D: `b2MotorJoint_GetLinearDampingRatio`.
    fn linear_damping_ratio(&self) -> f32 = linear_spring.damping_ratio;
    /// Sets the damping ratio of the linear spring (≥ 0).
    ///
    /// Box2D: `b2MotorJoint_SetLinearDampingRatio`.
    fn set_linear_damping_ratio(&mut self, ratio: f32) = linear_spring.damping_ratio, check_non_negative("motor joint linear damping ratio");
    /// The largest force of the linear spring, N.
    ///
    /// Box2D: `b2MotorJoint_GetMaxSpringForce`.
    fn max_spring_force(&self) -> f32 = linear_spring.max;
    /// Sets the largest force of the linear spring, N (≥ 0; zero: off).
    ///
    /// Box2D: `b2MotorJoint_SetMaxSpringForce`.
    fn set_max_spring_force(&mut self, force: f32) = linear_spring.max, check_non_negative("motor joint max spring force");
    /// The stiffness of the angular spring, Hz.
    ///
    /// Box2D: `b2MotorJoint_GetAngularHertz`.
    fn angular_hertz(&self) -> f32 = angular_spring.hertz;
    /// Sets the stiffness of the angular spring, Hz (≥ 0; zero: off).
    ///
    /// Box2D: `b2MotorJoint_SetAngularHertz`.
    fn set_angular_hertz(&mut self, hertz: f32) = angular_spring.hertz, check_non_negative("motor joint angular hertz");
    /// The damping ratio of the angular spring.
    ///
    /// Box2D: `b2MotorJoint_GetAngularDampingRatio`.
    fn angular_damping_ratio(&self) -> f32 = angular_spring.damping_ratio;
    /// Sets the damping ratio of the angular spring (≥ 0).
    ///
    /// Box2D: `b2MotorJoint_SetAngularDampingRatio`.
    fn set_angular_damping_ratio(&mut self, ratio: f32) = angular_spring.damping_ratio, check_non_negative("motor joint angular damping ratio");
    /// The largest torque of the angular spring, N·m.
    ///
    /// Box2D: `b2MotorJoint_GetMaxSpringTorque`.
    fn max_spring_torque(&self) -> f32 = angular_spring.max;
    /// Sets the largest torque of the angular spring, N·m (≥ 0; zero: off).
    ///
    /// Box2D: `b2MotorJoint_SetMaxSpringTorque`.
    fn set_max_spring_torque(&mut self, torque: f32) = angular_spring.max, check_non_negative("motor joint max spring torque");
}

part_view! {
    /// What only a mouse joint has: the target it pulls body B's point to,
    /// and the pull's spring and force bound.
    ///
    /// Covers Box2D v3.1's `b2MouseJoint_*` functions (upstream replaced the
    /// mouse joint by the motor joint's spring).
    pub struct MouseView<W>(MouseJoint): MouseRef, MouseMut;
    /// The definition the joint would be re-created with (the target is the
    /// current one).
    fn def(&self) -> MouseJointDef(base);
    /// The target in world coordinates, metres.
    ///
    /// Box2D v3.1: `b2MouseJoint_GetTarget`.
    fn target(&self) -> Vec2 = target;
    /// Moves the target (world coordinates, metres) and wakes the body.
    ///
    /// Box2D v3.1: `b2MouseJoint_SetTarget`.
    fn set_target(&mut self, target: Vec2) = target, check_finite_vec("mouse joint target");
    /// The pull's stiffness, Hz.
    ///
    /// Box2D v3.1: `b2MouseJoint_GetSpringHertz`.
    fn hertz(&self) -> f32 = hertz;
    /// Sets the pull's stiffness, Hz (≥ 0).
    ///
    /// Box2D v3.1: `b2MouseJoint_SetSpringHertz`.
    fn set_hertz(&mut self, hertz: f32) = hertz, check_non_negative("mouse joint hertz");
    /// The pull's damping ratio.
    ///
    /// Box2D v3.1: `b2MouseJoint_GetSpringDampingRatio`.
    fn damping_ratio(&self) -> f32 = damping_ratio;
    /// Sets the pull's damping ratio (≥ 0).
    ///
    /// Box2D v3.1: `b2MouseJoint_SetSpringDampingRatio`.
    fn set_damping_ratio(&mut self, damping_ratio: f32) = damping_ratio, check_non_negative("mouse joint damping ratio");
    /// The largest pulling force, N.
    ///
    /// Box2D v3.1: `b2MouseJoint_GetMaxForce`.
    fn max_force(&self) -> f32 = max_force;
    /// Sets the largest pulling force, N (≥ 0).
    ///
    /// Box2D v3.1: `b2MouseJoint_SetMaxForce`.
    fn set_max_force(&mut self, force: f32) = max_force, check_non_negative("mouse joint max force");
}

part_view! {
    /// A filter joint: it only keeps its bodies from colliding and has no
    /// settings of its own.
    pub struct FilterView<W>: FilterRef, FilterMut;
}

part_view! {
    /// What only a mover joint has: the target velocity of body B relative
    /// to body A and the force bound of each axis.
    ///
    /// Covers Box2D's `b2MoverJoint_*`.
    pub struct MoverView<W>(MoverJoint): MoverRef, MoverMut;
    /// The definition the joint would be re-created with.
    fn def(&self) -> MoverJointDef(base);
    /// The target velocity of body B relative to body A along joint frame
    /// A's axes, m/s.
    ///
    /// Box2D: `b2MoverJoint_GetLinearVelocity`.
    fn linear_velocity(&self) -> Vec2 = |j| j.linear_velocity();
    /// The largest force along each axis, N.
    ///
    /// Box2D: `b2MoverJoint_GetMaxVelocityForce`.
    fn max_velocity_force(&self) -> Vec2 = |j| j.max_force();
}

impl MoverView<&mut World> {
    /// Sets the target velocity (m/s, along joint frame A's axes) and wakes
    /// the bodies.
    ///
    /// Box2D: `b2MoverJoint_SetLinearVelocity`.
    pub fn set_linear_velocity(&mut self, velocity: Vec2) -> Result<()> {
        check_finite_vec(velocity, "mover joint linear velocity")?;
        self.view.update_data(|j: &mut MoverJoint| {
            j.axes[0].speed = velocity.x;
            j.axes[1].speed = velocity.y;
        });
        Ok(())
    }

    /// Sets the largest force along each axis, N (each ≥ 0), and wakes the
    /// bodies.
    ///
    /// Box2D: `b2MoverJoint_SetMaxVelocityForce`.
    pub fn set_max_velocity_force(&mut self, force: Vec2) -> Result<()> {
        check_non_negative_vec(force, "mover joint max velocity force")?;
        self.view.update_data(|j: &mut MoverJoint| {
            j.axes[0].max_force = force.x;
            j.axes[1].max_force = force.y;
        });
        Ok(())
    }
}

part_view! {
    /// What only a pogo joint has: its spring leg.
    ///
    /// Covers Box2D's `b2PogoJoint_*`.
    pub struct PogoView<W>(PogoJoint): PogoRef, PogoMut;
    /// The definition the joint would be re-created with (with its current
    /// impulse and velocity, so a pogo made again carries its state over).
    fn def(&self) -> PogoJointDef(base, sim);
    /// The rest length, metres.
    ///
    /// Box2D: `b2PogoJoint_GetRestLength`.
    fn rest_length(&self) -> f32 = rest_length;
    /// Sets the rest length, metres (≥ 0), and wakes the bodies.
    ///
    /// Box2D: `b2PogoJoint_SetRestLength`.
    fn set_rest_length(&mut self, length: f32) = rest_length, check_non_negative("pogo rest length");
    /// The spring stiffness, Hz.
    ///
    /// Box2D: `b2PogoJoint_GetSpringHertz`.
    fn hertz(&self) -> f32 = spring.hertz;
    /// Sets the spring stiffness, Hz (≥ 0).
    ///
    /// Box2D: `b2PogoJoint_SetSpringHertz`.
    fn set_hertz(&mut self, hertz: f32) = spring.hertz, check_non_negative("pogo spring hertz");
    /// The spring damping ratio.
    ///
    /// Box2D: `b2PogoJoint_GetSpringDampingRatio`.
    fn damping_ratio(&self) -> f32 = spring.damping_ratio;
    /// Sets the spring damping ratio (≥ 0).
    ///
    /// Box2D: `b2PogoJoint_SetSpringDampingRatio`.
    fn set_damping_ratio(&mut self, ratio: f32) = spring.damping_ratio, check_non_negative("pogo spring damping ratio");
    /// The bounds of the leg's force: the most it pulls and the most it
    /// pushes, N.
    fn max_forces(&self) -> (f32, f32) = |j| (j.max_tension_force, j.max_compression_force);
    /// The leg's rate of change of length after the last step, m/s.
    ///
    /// Box2D: `b2PogoJoint_GetVelocity`.
    fn velocity(&self) -> f32 = velocity;
    /// The spring's accumulated impulse of the last substep, N·s (positive
    /// pushes the bodies apart).
    ///
    /// Box2D: `b2PogoJoint_GetImpulse`.
    fn impulse(&self) -> f32 = spring.impulse;
}

impl<W: Deref<Target = World>> PogoView<W> {
    /// The current leg length: anchor B minus anchor A along the normal,
    /// metres.
    ///
    /// Box2D: `b2PogoJoint_GetLength`.
    pub fn length(&self) -> f32 {
        self.view.axial_translation()
    }
}

impl PogoView<&mut World> {
    /// Sets the most the leg pulls (tension) and pushes (compression), N
    /// (each ≥ 0, may be infinite).
    pub fn set_max_forces(&mut self, tension: f32, compression: f32) -> Result<()> {
        check_threshold(tension, "pogo max tension force")?;
        check_threshold(compression, "pogo max compression force")?;
        self.view.update_data(|j: &mut PogoJoint| {
            j.max_tension_force = tension;
            j.max_compression_force = compression;
        });
        Ok(())
    }
}
