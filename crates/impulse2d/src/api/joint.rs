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
use crate::id::{BodyId, JointId, NULL_INDEX};
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

/// One joint of a world, validated once: the world borrow (`&World` or
/// `&mut World`) and the joint's index. Made by [`World::joint`] and
/// [`World::joint_mut`].
///
/// Covers Box2D's `b2Joint_*` functions.
#[derive(Clone, Copy)]
pub struct JointView<W> {
    world: W,
    index: usize,
}

/// A read-only view of a joint.
pub type JointRef<'w> = JointView<&'w World>;
/// A read-write view of a joint.
pub type JointMut<'w> = JointView<&'w mut World>;

impl World {
    /// A read-only view of a joint; `Err(InvalidId)` for a stale or foreign id.
    pub fn joint(&self, id: JointId) -> Result<JointRef<'_>> {
        let index = self.joint_index(id)?;
        Ok(JointView { world: self, index })
    }

    /// A read-write view of a joint; `Err(InvalidId)` for a stale or foreign
    /// id.
    pub fn joint_mut(&mut self, id: JointId) -> Result<JointMut<'_>> {
        let index = self.joint_index(id)?;
        self.record_change();
        Ok(JointView { world: self, index })
    }

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

    /// This view as the typed part `T`, or the wrong-type error.
    fn typed<T: JointData>(self) -> Result<JointView<W>> {
        match T::of(&self.sim().kind) {
            Some(_) => Ok(self),
            None => Err(wrong_type(T::NAME, self.joint_type())),
        }
    }

    /// This view as a shared part, when `has` says the joint has it.
    fn shared_part(self, has: fn(&JointKind) -> bool, what: &'static str) -> Result<JointView<W>> {
        if has(&self.sim().kind) {
            Ok(self)
        } else {
            Err(wrong_type(what, self.joint_type()))
        }
    }

    /// A read-only view of the same joint.
    pub fn as_ref(&self) -> JointRef<'_> {
        JointView {
            world: &*self.world,
            index: self.index,
        }
    }

    /// The world the joint belongs to.
    ///
    /// Box2D: `b2Joint_GetWorld`.
    pub fn world(&self) -> &World {
        &self.world
    }

    /// The joint's id.
    pub fn id(&self) -> JointId {
        self.world.make_joint_id(self.index as u32)
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

    /// Whether exceeding a threshold destroys the joint.
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
        let view = self.shared_part(|k| k.motor().is_some(), "a joint with a motor")?;
        Ok(MotorView { view })
    }

    /// The limits of a revolute, prismatic, wheel or distance joint.
    pub fn limit(self) -> Result<LimitView<W>> {
        let view = self.shared_part(|k| k.limit().is_some(), "a joint with limits")?;
        Ok(LimitView { view })
    }

    /// The spring of a revolute, prismatic, wheel or distance joint.
    pub fn spring(self) -> Result<SpringView<W>> {
        let view = self.shared_part(|k| k.spring().is_some(), "a joint with a spring")?;
        Ok(SpringView { view })
    }

    /// What only a revolute joint has.
    pub fn revolute(self) -> Result<RevoluteView<W>> {
        let view = self.typed::<RevoluteJoint>()?;
        Ok(RevoluteView { view })
    }

    /// What only a prismatic joint has.
    pub fn prismatic(self) -> Result<PrismaticView<W>> {
        let view = self.typed::<PrismaticJoint>()?;
        Ok(PrismaticView { view })
    }

    /// What only a wheel joint has.
    pub fn wheel(self) -> Result<WheelView<W>> {
        let view = self.typed::<WheelJoint>()?;
        Ok(WheelView { view })
    }

    /// What only a distance joint has.
    pub fn distance(self) -> Result<DistanceView<W>> {
        let view = self.typed::<DistanceJoint>()?;
        Ok(DistanceView { view })
    }

    /// What only a weld joint has.
    pub fn weld(self) -> Result<WeldView<W>> {
        let view = self.typed::<WeldJoint>()?;
        Ok(WeldView { view })
    }

    /// What only a motor joint has.
    pub fn motor_joint(self) -> Result<MotorJointView<W>> {
        let view = self.typed::<MotorJoint>()?;
        Ok(MotorJointView { view })
    }

    /// What only a mouse joint has.
    pub fn mouse(self) -> Result<MouseView<W>> {
        let view = self.typed::<MouseJoint>()?;
        Ok(MouseView { view })
    }

    /// What only a mover joint has.
    pub fn mover(self) -> Result<MoverView<W>> {
        let view = self.typed::<MoverJoint>()?;
        Ok(MoverView { view })
    }

    /// What only a pogo joint has.
    pub fn pogo(self) -> Result<PogoView<W>> {
        let view = self.typed::<PogoJoint>()?;
        Ok(PogoView { view })
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
        Ok(())
    }

    /// Sets the reaction torque above which the joint reports an event, N·m
    /// (≥ 0; `f32::MAX` for never).
    ///
    /// Box2D: `b2Joint_SetTorqueThreshold`.
    pub fn set_torque_threshold(&mut self, torque: f32) -> Result<()> {
        check_threshold(torque, "joint torque threshold")?;
        self.world.joint_sim_mut(self.index).base.torque_threshold = torque;
        Ok(())
    }

    /// Whether exceeding a threshold destroys the joint.
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

/// Declares a part view: a joint view whose type was checked once, with a
/// read-only and a read-write alias.
macro_rules! part_view {
    ($(#[$doc:meta])* $name:ident, $ref_alias:ident, $mut_alias:ident) => {
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

        impl<W: Deref<Target = World>> $name<W> {
            /// The whole joint, read only.
            pub fn joint(&self) -> JointRef<'_> {
                self.view.as_ref()
            }
        }

        impl $name<&mut World> {
            /// The whole joint, read-write.
            pub fn joint_mut(&mut self) -> JointMut<'_> {
                self.view.reborrow()
            }
        }
    };
}

part_view!(
    /// The motor along or about the axis of a revolute, prismatic, wheel or
    /// distance joint: it drives the joint speed towards a target with a
    /// bounded force (N; torque, N·m, for revolute and wheel). Made by
    /// [`JointView::motor`].
    ///
    /// Covers Box2D's `b2RevoluteJoint_*Motor*`, `b2PrismaticJoint_*Motor*`, `b2WheelJoint_*Motor*`, `b2DistanceJoint_*Motor*`.
    MotorView,
    MotorRef,
    MotorMut
);

impl<W: Deref<Target = World>> MotorView<W> {
    fn get<R>(&self, f: impl FnOnce(&crate::joint::axial::Motor) -> R) -> R
    where
        R: Default,
    {
        self.view.sim().kind.motor().map_or_else(R::default, f)
    }

    /// Whether the motor acts.
    ///
    /// Box2D: `b2RevoluteJoint_IsMotorEnabled`.
    /// Box2D: `b2PrismaticJoint_IsMotorEnabled`.
    /// Box2D: `b2WheelJoint_IsMotorEnabled`.
    /// Box2D: `b2DistanceJoint_IsMotorEnabled`.
    pub fn is_enabled(&self) -> bool {
        self.get(|m| m.enable)
    }

    /// The target joint speed: rad/s for revolute and wheel, m/s for
    /// prismatic and distance.
    ///
    /// Box2D: `b2RevoluteJoint_GetMotorSpeed`.
    /// Box2D: `b2PrismaticJoint_GetMotorSpeed`.
    /// Box2D: `b2WheelJoint_GetMotorSpeed`.
    /// Box2D: `b2DistanceJoint_GetMotorSpeed`.
    pub fn speed(&self) -> f32 {
        self.get(|m| m.speed)
    }

    /// The largest force (N, prismatic and distance) or torque (N·m,
    /// revolute and wheel) the motor applies.
    ///
    /// Box2D: `b2RevoluteJoint_GetMaxMotorTorque`.
    /// Box2D: `b2PrismaticJoint_GetMaxMotorForce`.
    /// Box2D: `b2WheelJoint_GetMaxMotorTorque`.
    /// Box2D: `b2DistanceJoint_GetMaxMotorForce`.
    pub fn max_force(&self) -> f32 {
        self.get(|m| m.max_force)
    }

    /// The force (N) or torque (N·m) the motor applied in the last substep.
    ///
    /// Box2D: `b2RevoluteJoint_GetMotorTorque`.
    /// Box2D: `b2PrismaticJoint_GetMotorForce`.
    /// Box2D: `b2WheelJoint_GetMotorTorque`.
    /// Box2D: `b2DistanceJoint_GetMotorForce`.
    pub fn force(&self) -> f32 {
        let inv_h = self.view.world.joints.inv_h;
        self.get(|m| m.impulse * inv_h)
    }
}

impl MotorView<&mut World> {
    fn set(&mut self, f: impl FnOnce(&mut crate::joint::axial::Motor)) {
        self.view.update(|sim| {
            if let Some(m) = sim.kind.motor_mut() {
                f(m);
            }
        });
    }

    /// Turns the motor on or off and wakes the bodies.
    ///
    /// Box2D: `b2RevoluteJoint_EnableMotor`.
    /// Box2D: `b2PrismaticJoint_EnableMotor`.
    /// Box2D: `b2WheelJoint_EnableMotor`.
    /// Box2D: `b2DistanceJoint_EnableMotor`.
    pub fn enable(&mut self, enable: bool) {
        self.set(|m| m.set_enabled(enable));
    }

    /// Sets the target joint speed (rad/s or m/s, see
    /// [`MotorView::speed`]) and wakes the bodies.
    ///
    /// Box2D: `b2RevoluteJoint_SetMotorSpeed`.
    /// Box2D: `b2PrismaticJoint_SetMotorSpeed`.
    /// Box2D: `b2WheelJoint_SetMotorSpeed`.
    /// Box2D: `b2DistanceJoint_SetMotorSpeed`.
    pub fn set_speed(&mut self, speed: f32) -> Result<()> {
        check_finite(speed, "motor speed")?;
        self.set(|m| m.speed = speed);
        Ok(())
    }

    /// Sets the largest motor force (N) or torque (N·m), ≥ 0, and wakes the
    /// bodies.
    ///
    /// Box2D: `b2RevoluteJoint_SetMaxMotorTorque`.
    /// Box2D: `b2PrismaticJoint_SetMaxMotorForce`.
    /// Box2D: `b2WheelJoint_SetMaxMotorTorque`.
    /// Box2D: `b2DistanceJoint_SetMaxMotorForce`.
    pub fn set_max_force(&mut self, force: f32) -> Result<()> {
        check_non_negative(force, "max motor force")?;
        self.set(|m| m.max_force = force);
        Ok(())
    }
}

part_view!(
    /// The lower and upper limits along or about the axis of a revolute
    /// (angle, radians), prismatic or wheel (translation, metres) or distance
    /// joint (length range, metres). Made by [`JointView::limit`].
    ///
    /// Covers Box2D's `b2RevoluteJoint_*Limit*`, `b2PrismaticJoint_*Limit*`, `b2WheelJoint_*Limit*`, `b2DistanceJoint_*Limit*`, `*Length`.
    LimitView,
    LimitRef,
    LimitMut
);

impl<W: Deref<Target = World>> LimitView<W> {
    fn get<R: Default>(&self, f: impl FnOnce(&crate::joint::axial::Limit) -> R) -> R {
        self.view.sim().kind.limit().map_or_else(R::default, f)
    }

    /// Whether the limits are enforced.
    ///
    /// Box2D: `b2RevoluteJoint_IsLimitEnabled`.
    /// Box2D: `b2PrismaticJoint_IsLimitEnabled`.
    /// Box2D: `b2WheelJoint_IsLimitEnabled`.
    /// Box2D: `b2DistanceJoint_IsLimitEnabled`.
    pub fn is_enabled(&self) -> bool {
        self.get(|l| l.enable)
    }

    /// The lower limit: radians (revolute) or metres.
    ///
    /// Box2D: `b2RevoluteJoint_GetLowerLimit`.
    /// Box2D: `b2PrismaticJoint_GetLowerLimit`.
    /// Box2D: `b2WheelJoint_GetLowerLimit`.
    /// Box2D: `b2DistanceJoint_GetMinLength`.
    pub fn lower(&self) -> f32 {
        self.get(|l| l.lower)
    }

    /// The upper limit: radians (revolute) or metres.
    ///
    /// Box2D: `b2RevoluteJoint_GetUpperLimit`.
    /// Box2D: `b2PrismaticJoint_GetUpperLimit`.
    /// Box2D: `b2WheelJoint_GetUpperLimit`.
    /// Box2D: `b2DistanceJoint_GetMaxLength`.
    pub fn upper(&self) -> f32 {
        self.get(|l| l.upper)
    }
}

impl LimitView<&mut World> {
    fn set(&mut self, f: impl FnOnce(&mut crate::joint::axial::Limit)) {
        self.view.update(|sim| {
            if let Some(l) = sim.kind.limit_mut() {
                f(l);
            }
        });
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

part_view!(
    /// The spring along or about the axis of a revolute, prismatic, wheel or
    /// distance joint, with its stiffness in hertz (so the frequency does not
    /// depend on the masses). Made by [`JointView::spring`].
    ///
    /// Covers Box2D's `b2RevoluteJoint_*Spring*`, `b2PrismaticJoint_*Spring*`, `b2WheelJoint_*Spring*`, `b2DistanceJoint_*Spring*`.
    SpringView,
    SpringRef,
    SpringMut
);

impl<W: Deref<Target = World>> SpringView<W> {
    fn get<R: Default>(&self, f: impl FnOnce(&crate::joint::axial::Spring) -> R) -> R {
        self.view.sim().kind.spring().map_or_else(R::default, f)
    }

    /// Whether the spring acts (for a distance joint: whether it is a
    /// spring rather than a rigid rod).
    ///
    /// Box2D: `b2RevoluteJoint_IsSpringEnabled`.
    /// Box2D: `b2PrismaticJoint_IsSpringEnabled`.
    /// Box2D: `b2WheelJoint_IsSpringEnabled`.
    /// Box2D: `b2DistanceJoint_IsSpringEnabled`.
    pub fn is_enabled(&self) -> bool {
        self.get(|s| s.enable)
    }

    /// The stiffness, Hz.
    ///
    /// Box2D: `b2RevoluteJoint_GetSpringHertz`.
    /// Box2D: `b2PrismaticJoint_GetSpringHertz`.
    /// Box2D: `b2WheelJoint_GetSpringHertz`.
    /// Box2D: `b2DistanceJoint_GetSpringHertz`.
    pub fn hertz(&self) -> f32 {
        self.get(|s| s.hertz)
    }

    /// The damping ratio (dimensionless).
    ///
    /// Box2D: `b2RevoluteJoint_GetSpringDampingRatio`.
    /// Box2D: `b2PrismaticJoint_GetSpringDampingRatio`.
    /// Box2D: `b2WheelJoint_GetSpringDampingRatio`.
    /// Box2D: `b2DistanceJoint_GetSpringDampingRatio`.
    pub fn damping_ratio(&self) -> f32 {
        self.get(|s| s.damping_ratio)
    }
}

impl SpringView<&mut World> {
    fn set(&mut self, f: impl FnOnce(&mut crate::joint::axial::Spring)) {
        self.view.update(|sim| {
            if let Some(s) = sim.kind.spring_mut() {
                f(s);
            }
        });
    }

    /// Turns the spring on or off (a distance joint becomes a spring or a
    /// rigid rod) and wakes the bodies.
    ///
    /// Box2D: `b2RevoluteJoint_EnableSpring`.
    /// Box2D: `b2PrismaticJoint_EnableSpring`.
    /// Box2D: `b2WheelJoint_EnableSpring`.
    /// Box2D: `b2DistanceJoint_EnableSpring`.
    pub fn enable(&mut self, enable: bool) {
        if self.view.joint_type() == JointType::Distance {
            // The distance joint's impulse carries over between rod and spring.
            self.set(|s| s.enable = enable);
        } else {
            self.set(|s| s.set_enabled(enable));
        }
    }

    /// Sets the stiffness, Hz (≥ 0; zero makes a pure damper), and wakes the
    /// bodies.
    ///
    /// Box2D: `b2RevoluteJoint_SetSpringHertz`.
    /// Box2D: `b2PrismaticJoint_SetSpringHertz`.
    /// Box2D: `b2WheelJoint_SetSpringHertz`.
    /// Box2D: `b2DistanceJoint_SetSpringHertz`.
    pub fn set_hertz(&mut self, hertz: f32) -> Result<()> {
        check_non_negative(hertz, "spring hertz")?;
        self.set(|s| s.hertz = hertz);
        Ok(())
    }

    /// Sets the damping ratio (≥ 0) and wakes the bodies.
    ///
    /// Box2D: `b2RevoluteJoint_SetSpringDampingRatio`.
    /// Box2D: `b2PrismaticJoint_SetSpringDampingRatio`.
    /// Box2D: `b2WheelJoint_SetSpringDampingRatio`.
    /// Box2D: `b2DistanceJoint_SetSpringDampingRatio`.
    pub fn set_damping_ratio(&mut self, damping_ratio: f32) -> Result<()> {
        check_non_negative(damping_ratio, "spring damping ratio")?;
        self.set(|s| s.damping_ratio = damping_ratio);
        Ok(())
    }
}

part_view!(
    /// What only a revolute joint has: its angle, speed and the spring's
    /// target angle. Its motor, limits and spring are the shared parts.
    ///
    /// Covers Box2D's `b2RevoluteJoint_*`.
    RevoluteView,
    RevoluteRef,
    RevoluteMut
);

impl<W: Deref<Target = World>> RevoluteView<W> {
    /// The definition the joint would be re-created with (its current
    /// settings).
    pub fn def(&self) -> RevoluteJointDef {
        let base = self.view.world.joint_base_def(self.view.index);
        let sim = &self.view.sim().base;
        self.view
            .data(|j: &RevoluteJoint| RevoluteJointDef::read(base, sim, j))
    }

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

    /// The angle the spring pulls towards, radians.
    ///
    /// Box2D: `b2RevoluteJoint_GetTargetAngle`.
    pub fn target_angle(&self) -> f32 {
        self.view.data(|j: &RevoluteJoint| j.target_angle)
    }
}

impl RevoluteView<&mut World> {
    /// Sets the angle the spring pulls towards, radians in `[−π, π]`, and
    /// wakes the bodies.
    ///
    /// Box2D: `b2RevoluteJoint_SetTargetAngle`.
    pub fn set_target_angle(&mut self, angle: f32) -> Result<()> {
        check_angle(angle, "revolute target angle")?;
        self.view
            .update_data(|j: &mut RevoluteJoint| j.target_angle = angle);
        Ok(())
    }
}

part_view!(
    /// What only a prismatic joint has: its translation, speed and the
    /// spring's target translation. Its motor, limits and spring are the
    /// shared parts.
    ///
    /// Covers Box2D's `b2PrismaticJoint_*`.
    PrismaticView,
    PrismaticRef,
    PrismaticMut
);

impl<W: Deref<Target = World>> PrismaticView<W> {
    /// The definition the joint would be re-created with.
    pub fn def(&self) -> PrismaticJointDef {
        let base = self.view.world.joint_base_def(self.view.index);
        let sim = &self.view.sim().base;
        self.view
            .data(|j: &PrismaticJoint| PrismaticJointDef::read(base, sim, j))
    }

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

    /// The translation the spring pulls towards, metres.
    ///
    /// Box2D: `b2PrismaticJoint_GetTargetTranslation`.
    pub fn target_translation(&self) -> f32 {
        self.view.data(|j: &PrismaticJoint| j.target_translation)
    }
}

impl PrismaticView<&mut World> {
    /// Sets the translation the spring pulls towards, metres, and wakes the
    /// bodies.
    ///
    /// Box2D: `b2PrismaticJoint_SetTargetTranslation`.
    pub fn set_target_translation(&mut self, translation: f32) -> Result<()> {
        check_finite(translation, "prismatic target translation")?;
        self.view
            .update_data(|j: &mut PrismaticJoint| j.target_translation = translation);
        Ok(())
    }
}

part_view!(
    /// What only a wheel joint has: its suspension travel. Its motor,
    /// suspension limits and spring are the shared parts.
    ///
    /// Covers Box2D's `b2WheelJoint_*`.
    WheelView,
    WheelRef,
    WheelMut
);

impl<W: Deref<Target = World>> WheelView<W> {
    /// The definition the joint would be re-created with.
    pub fn def(&self) -> WheelJointDef {
        let base = self.view.world.joint_base_def(self.view.index);
        let sim = &self.view.sim().base;
        self.view
            .data(|j: &WheelJoint| WheelJointDef::read(base, sim, j))
    }

    /// The current suspension travel of anchor B from anchor A along the
    /// axis, metres.
    pub fn translation(&self) -> f32 {
        self.view.axial_translation()
    }
}

part_view!(
    /// What only a distance joint has: the rest length, the current length
    /// and the spring's force range. Its motor, length range (limits) and
    /// spring are the shared parts.
    ///
    /// Covers Box2D's `b2DistanceJoint_*`.
    DistanceView,
    DistanceRef,
    DistanceMut
);

impl<W: Deref<Target = World>> DistanceView<W> {
    /// The definition the joint would be re-created with.
    pub fn def(&self) -> DistanceJointDef {
        let base = self.view.world.joint_base_def(self.view.index);
        self.view
            .data(|j: &DistanceJoint| DistanceJointDef::read(base, j))
    }

    /// The rest length, metres.
    ///
    /// Box2D: `b2DistanceJoint_GetLength`.
    pub fn length(&self) -> f32 {
        self.view.data(|j: &DistanceJoint| j.length)
    }

    /// The current distance between the anchors, metres.
    ///
    /// Box2D: `b2DistanceJoint_GetCurrentLength`.
    pub fn current_length(&self) -> f32 {
        let (pa, pb) = self.view.world_anchors();
        (pb - pa).length()
    }

    /// The bounds of the spring force `(lower, upper)`, N (see
    /// [`DistanceJointDef::lower_spring_force`]).
    ///
    /// Box2D: `b2DistanceJoint_GetSpringForceRange`.
    pub fn spring_force_range(&self) -> (f32, f32) {
        self.view
            .data(|j: &DistanceJoint| (j.lower_spring_force, j.upper_spring_force))
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

part_view!(
    /// What only a weld joint has: the stiffness of its linear and angular
    /// halves (zero hertz is rigid).
    ///
    /// Covers Box2D's `b2WeldJoint_*`.
    WeldView,
    WeldRef,
    WeldMut
);

impl<W: Deref<Target = World>> WeldView<W> {
    /// The definition the joint would be re-created with.
    pub fn def(&self) -> WeldJointDef {
        let base = self.view.world.joint_base_def(self.view.index);
        let sim = &self.view.sim().base;
        self.view
            .data(|j: &WeldJoint| WeldJointDef::read(base, sim, j))
    }

    /// Stiffness of the linear half, Hz (zero: rigid).
    ///
    /// Box2D: `b2WeldJoint_GetLinearHertz`.
    pub fn linear_hertz(&self) -> f32 {
        self.view.data(|j: &WeldJoint| j.linear_hertz)
    }

    /// Damping ratio of the linear half.
    ///
    /// Box2D: `b2WeldJoint_GetLinearDampingRatio`.
    pub fn linear_damping_ratio(&self) -> f32 {
        self.view.data(|j: &WeldJoint| j.linear_damping_ratio)
    }

    /// Stiffness of the angular half, Hz (zero: rigid).
    ///
    /// Box2D: `b2WeldJoint_GetAngularHertz`.
    pub fn angular_hertz(&self) -> f32 {
        self.view.data(|j: &WeldJoint| j.angular_hertz)
    }

    /// Damping ratio of the angular half.
    ///
    /// Box2D: `b2WeldJoint_GetAngularDampingRatio`.
    pub fn angular_damping_ratio(&self) -> f32 {
        self.view.data(|j: &WeldJoint| j.angular_damping_ratio)
    }
}

impl WeldView<&mut World> {
    /// Sets one number after checking it is finite and ≥ 0.
    fn set(&mut self, value: f32, what: &'static str, f: fn(&mut WeldJoint, f32)) -> Result<()> {
        check_non_negative(value, what)?;
        self.view.update_data(|j: &mut WeldJoint| f(j, value));
        Ok(())
    }

    /// Sets the stiffness of the linear half, Hz (≥ 0; zero is rigid), and
    /// wakes the bodies.
    ///
    /// Box2D: `b2WeldJoint_SetLinearHertz`.
    pub fn set_linear_hertz(&mut self, hertz: f32) -> Result<()> {
        self.set(hertz, "weld linear hertz", |j, v| j.linear_hertz = v)
    }

    /// Sets the damping ratio of the linear half (≥ 0).
    ///
    /// Box2D: `b2WeldJoint_SetLinearDampingRatio`.
    pub fn set_linear_damping_ratio(&mut self, ratio: f32) -> Result<()> {
        self.set(ratio, "weld linear damping ratio", |j, v| {
            j.linear_damping_ratio = v
        })
    }

    /// Sets the stiffness of the angular half, Hz (≥ 0; zero is rigid).
    ///
    /// Box2D: `b2WeldJoint_SetAngularHertz`.
    pub fn set_angular_hertz(&mut self, hertz: f32) -> Result<()> {
        self.set(hertz, "weld angular hertz", |j, v| j.angular_hertz = v)
    }

    /// Sets the damping ratio of the angular half (≥ 0).
    ///
    /// Box2D: `b2WeldJoint_SetAngularDampingRatio`.
    pub fn set_angular_damping_ratio(&mut self, ratio: f32) -> Result<()> {
        self.set(ratio, "weld angular damping ratio", |j, v| {
            j.angular_damping_ratio = v
        })
    }
}

part_view!(
    /// What only a motor joint has: its offset drive (Box2D v3.0), velocity
    /// drive and springs (Box2D v3.2); see [`MotorJointDef`].
    ///
    /// Covers Box2D's `b2MotorJoint_*`.
    MotorJointView,
    MotorJointRef,
    MotorJointMut
);

impl<W: Deref<Target = World>> MotorJointView<W> {
    /// The definition the joint would be re-created with.
    pub fn def(&self) -> MotorJointDef {
        let base = self.view.world.joint_base_def(self.view.index);
        self.view
            .data(|j: &MotorJoint| MotorJointDef::read(base, j))
    }

    /// Where anchor B is driven to, relative to anchor A in body A's frame,
    /// metres.
    ///
    /// Box2D v3.0: `b2MotorJoint_GetLinearOffset`.
    pub fn linear_offset(&self) -> Vec2 {
        self.view.data(|j: &MotorJoint| j.linear_offset)
    }

    /// The angle of body B relative to body A it is driven to, radians.
    ///
    /// Box2D v3.0: `b2MotorJoint_GetAngularOffset`.
    pub fn angular_offset(&self) -> f32 {
        self.view.data(|j: &MotorJoint| j.angular_offset)
    }

    /// The largest force of the offset drive, N.
    ///
    /// Box2D v3.0: `b2MotorJoint_GetMaxForce`.
    pub fn max_force(&self) -> f32 {
        self.view.data(|j: &MotorJoint| j.max_force)
    }

    /// The largest torque of the offset drive, N·m.
    ///
    /// Box2D v3.0: `b2MotorJoint_GetMaxTorque`.
    pub fn max_torque(&self) -> f32 {
        self.view.data(|j: &MotorJoint| j.max_torque)
    }

    /// The fraction of the offset error removed per substep.
    ///
    /// Box2D v3.0: `b2MotorJoint_GetCorrectionFactor`.
    pub fn correction_factor(&self) -> f32 {
        self.view.data(|j: &MotorJoint| j.correction_factor)
    }

    /// The target velocity of body B relative to body A, world frame, m/s.
    ///
    /// Box2D: `b2MotorJoint_GetLinearVelocity`.
    pub fn linear_velocity(&self) -> Vec2 {
        self.view.data(|j: &MotorJoint| j.linear_velocity)
    }

    /// The target angular velocity of body B relative to body A, rad/s.
    ///
    /// Box2D: `b2MotorJoint_GetAngularVelocity`.
    pub fn angular_velocity(&self) -> f32 {
        self.view.data(|j: &MotorJoint| j.angular_velocity)
    }

    /// The largest force of the velocity drive, N.
    ///
    /// Box2D: `b2MotorJoint_GetMaxVelocityForce`.
    pub fn max_velocity_force(&self) -> f32 {
        self.view.data(|j: &MotorJoint| j.max_velocity_force)
    }

    /// The largest torque of the velocity drive, N·m.
    ///
    /// Box2D: `b2MotorJoint_GetMaxVelocityTorque`.
    pub fn max_velocity_torque(&self) -> f32 {
        self.view.data(|j: &MotorJoint| j.max_velocity_torque)
    }

    /// The stiffness of the linear spring, Hz.
    ///
    /// Box2D: `b2MotorJoint_GetLinearHertz`.
    pub fn linear_hertz(&self) -> f32 {
        self.view.data(|j: &MotorJoint| j.linear_spring.hertz)
    }

    /// The damping ratio of the linear spring.
    ///
    /// Box2D: `b2MotorJoint_GetLinearDampingRatio`.
    pub fn linear_damping_ratio(&self) -> f32 {
        self.view
            .data(|j: &MotorJoint| j.linear_spring.damping_ratio)
    }

    /// The largest force of the linear spring, N.
    ///
    /// Box2D: `b2MotorJoint_GetMaxSpringForce`.
    pub fn max_spring_force(&self) -> f32 {
        self.view.data(|j: &MotorJoint| j.linear_spring.max)
    }

    /// The stiffness of the angular spring, Hz.
    ///
    /// Box2D: `b2MotorJoint_GetAngularHertz`.
    pub fn angular_hertz(&self) -> f32 {
        self.view.data(|j: &MotorJoint| j.angular_spring.hertz)
    }

    /// The damping ratio of the angular spring.
    ///
    /// Box2D: `b2MotorJoint_GetAngularDampingRatio`.
    pub fn angular_damping_ratio(&self) -> f32 {
        self.view
            .data(|j: &MotorJoint| j.angular_spring.damping_ratio)
    }

    /// The largest torque of the angular spring, N·m.
    ///
    /// Box2D: `b2MotorJoint_GetMaxSpringTorque`.
    pub fn max_spring_torque(&self) -> f32 {
        self.view.data(|j: &MotorJoint| j.angular_spring.max)
    }
}

impl MotorJointView<&mut World> {
    /// Sets the target position of anchor B relative to anchor A, in body
    /// A's frame, metres, and wakes the bodies.
    ///
    /// Box2D v3.0: `b2MotorJoint_SetLinearOffset`.
    pub fn set_linear_offset(&mut self, offset: Vec2) -> Result<()> {
        check_finite_vec(offset, "motor joint linear offset")?;
        self.view
            .update_data(|j: &mut MotorJoint| j.linear_offset = offset);
        Ok(())
    }

    /// Sets the target angle of body B relative to body A, radians.
    ///
    /// Box2D v3.0: `b2MotorJoint_SetAngularOffset`.
    pub fn set_angular_offset(&mut self, offset: f32) -> Result<()> {
        check_finite(offset, "motor joint angular offset")?;
        self.view
            .update_data(|j: &mut MotorJoint| j.angular_offset = offset);
        Ok(())
    }

    /// Sets the largest force of the offset drive, N (≥ 0).
    ///
    /// Box2D v3.0: `b2MotorJoint_SetMaxForce`.
    pub fn set_max_force(&mut self, force: f32) -> Result<()> {
        check_non_negative(force, "motor joint max force")?;
        self.view
            .update_data(|j: &mut MotorJoint| j.max_force = force);
        Ok(())
    }

    /// Sets the largest torque of the offset drive, N·m (≥ 0).
    ///
    /// Box2D v3.0: `b2MotorJoint_SetMaxTorque`.
    pub fn set_max_torque(&mut self, torque: f32) -> Result<()> {
        check_non_negative(torque, "motor joint max torque")?;
        self.view
            .update_data(|j: &mut MotorJoint| j.max_torque = torque);
        Ok(())
    }

    /// Sets the fraction of the error corrected per substep, in `[0, 1]`.
    ///
    /// Box2D v3.0: `b2MotorJoint_SetCorrectionFactor`.
    pub fn set_correction_factor(&mut self, factor: f32) -> Result<()> {
        check_correction(factor, "motor joint correction factor")?;
        self.view
            .update_data(|j: &mut MotorJoint| j.correction_factor = factor);
        Ok(())
    }

    /// Sets one bound or stiffness after checking it is finite and ≥ 0.
    fn set(&mut self, value: f32, what: &'static str, f: fn(&mut MotorJoint, f32)) -> Result<()> {
        check_non_negative(value, what)?;
        self.view.update_data(|j: &mut MotorJoint| f(j, value));
        Ok(())
    }

    /// Sets the target velocity of body B relative to body A, world frame,
    /// m/s, and wakes the bodies.
    ///
    /// Box2D: `b2MotorJoint_SetLinearVelocity`.
    pub fn set_linear_velocity(&mut self, velocity: Vec2) -> Result<()> {
        check_finite_vec(velocity, "motor joint linear velocity")?;
        self.view
            .update_data(|j: &mut MotorJoint| j.linear_velocity = velocity);
        Ok(())
    }

    /// Sets the target angular velocity of body B relative to body A,
    /// rad/s, and wakes the bodies.
    ///
    /// Box2D: `b2MotorJoint_SetAngularVelocity`.
    pub fn set_angular_velocity(&mut self, velocity: f32) -> Result<()> {
        check_finite(velocity, "motor joint angular velocity")?;
        self.view
            .update_data(|j: &mut MotorJoint| j.angular_velocity = velocity);
        Ok(())
    }

    /// Sets the largest force of the velocity drive, N (≥ 0; zero: off).
    ///
    /// Box2D: `b2MotorJoint_SetMaxVelocityForce`.
    pub fn set_max_velocity_force(&mut self, force: f32) -> Result<()> {
        self.set(force, "motor joint max velocity force", |j, v| {
            j.max_velocity_force = v
        })
    }

    /// Sets the largest torque of the velocity drive, N·m (≥ 0; zero: off).
    ///
    /// Box2D: `b2MotorJoint_SetMaxVelocityTorque`.
    pub fn set_max_velocity_torque(&mut self, torque: f32) -> Result<()> {
        self.set(torque, "motor joint max velocity torque", |j, v| {
            j.max_velocity_torque = v
        })
    }

    /// Sets the stiffness of the linear spring, Hz (≥ 0; zero: off).
    ///
    /// Box2D: `b2MotorJoint_SetLinearHertz`.
    pub fn set_linear_hertz(&mut self, hertz: f32) -> Result<()> {
        self.set(hertz, "motor joint linear hertz", |j, v| {
            j.linear_spring.hertz = v
        })
    }

    /// Sets the damping ratio of the linear spring (≥ 0).
    ///
    /// Box2D: `b2MotorJoint_SetLinearDampingRatio`.
    pub fn set_linear_damping_ratio(&mut self, ratio: f32) -> Result<()> {
        self.set(ratio, "motor joint linear damping ratio", |j, v| {
            j.linear_spring.damping_ratio = v
        })
    }

    /// Sets the largest force of the linear spring, N (≥ 0; zero: off).
    ///
    /// Box2D: `b2MotorJoint_SetMaxSpringForce`.
    pub fn set_max_spring_force(&mut self, force: f32) -> Result<()> {
        self.set(force, "motor joint max spring force", |j, v| {
            j.linear_spring.max = v
        })
    }

    /// Sets the stiffness of the angular spring, Hz (≥ 0; zero: off).
    ///
    /// Box2D: `b2MotorJoint_SetAngularHertz`.
    pub fn set_angular_hertz(&mut self, hertz: f32) -> Result<()> {
        self.set(hertz, "motor joint angular hertz", |j, v| {
            j.angular_spring.hertz = v
        })
    }

    /// Sets the damping ratio of the angular spring (≥ 0).
    ///
    /// Box2D: `b2MotorJoint_SetAngularDampingRatio`.
    pub fn set_angular_damping_ratio(&mut self, ratio: f32) -> Result<()> {
        self.set(ratio, "motor joint angular damping ratio", |j, v| {
            j.angular_spring.damping_ratio = v
        })
    }

    /// Sets the largest torque of the angular spring, N·m (≥ 0; zero: off).
    ///
    /// Box2D: `b2MotorJoint_SetMaxSpringTorque`.
    pub fn set_max_spring_torque(&mut self, torque: f32) -> Result<()> {
        self.set(torque, "motor joint max spring torque", |j, v| {
            j.angular_spring.max = v
        })
    }
}

part_view!(
    /// What only a mouse joint has: the target it pulls body B's point to,
    /// and the pull's spring and force bound.
    ///
    /// Covers Box2D v3.1's `b2MouseJoint_*` functions (upstream replaced the
    /// mouse joint by the motor joint's spring).
    MouseView,
    MouseRef,
    MouseMut
);

impl<W: Deref<Target = World>> MouseView<W> {
    /// The definition the joint would be re-created with (the target is the
    /// current one).
    pub fn def(&self) -> MouseJointDef {
        let base = self.view.world.joint_base_def(self.view.index);
        self.view
            .data(|j: &MouseJoint| MouseJointDef::read(base, j))
    }

    /// The target in world coordinates, metres.
    ///
    /// Box2D v3.1: `b2MouseJoint_GetTarget`.
    pub fn target(&self) -> Vec2 {
        self.view.data(|j: &MouseJoint| j.target)
    }

    /// The pull's stiffness, Hz.
    ///
    /// Box2D v3.1: `b2MouseJoint_GetSpringHertz`.
    pub fn hertz(&self) -> f32 {
        self.view.data(|j: &MouseJoint| j.hertz)
    }

    /// The pull's damping ratio.
    ///
    /// Box2D v3.1: `b2MouseJoint_GetSpringDampingRatio`.
    pub fn damping_ratio(&self) -> f32 {
        self.view.data(|j: &MouseJoint| j.damping_ratio)
    }

    /// The largest pulling force, N.
    ///
    /// Box2D v3.1: `b2MouseJoint_GetMaxForce`.
    pub fn max_force(&self) -> f32 {
        self.view.data(|j: &MouseJoint| j.max_force)
    }
}

impl MouseView<&mut World> {
    /// Moves the target (world coordinates, metres) and wakes the body.
    ///
    /// Box2D v3.1: `b2MouseJoint_SetTarget`.
    pub fn set_target(&mut self, target: Vec2) -> Result<()> {
        check_finite_vec(target, "mouse joint target")?;
        self.view
            .update_data(|j: &mut MouseJoint| j.target = target);
        Ok(())
    }

    /// Sets the pull's stiffness, Hz (≥ 0).
    ///
    /// Box2D v3.1: `b2MouseJoint_SetSpringHertz`.
    pub fn set_hertz(&mut self, hertz: f32) -> Result<()> {
        check_non_negative(hertz, "mouse joint hertz")?;
        self.view.update_data(|j: &mut MouseJoint| j.hertz = hertz);
        Ok(())
    }

    /// Sets the pull's damping ratio (≥ 0).
    ///
    /// Box2D v3.1: `b2MouseJoint_SetSpringDampingRatio`.
    pub fn set_damping_ratio(&mut self, damping_ratio: f32) -> Result<()> {
        check_non_negative(damping_ratio, "mouse joint damping ratio")?;
        self.view
            .update_data(|j: &mut MouseJoint| j.damping_ratio = damping_ratio);
        Ok(())
    }

    /// Sets the largest pulling force, N (≥ 0).
    ///
    /// Box2D v3.1: `b2MouseJoint_SetMaxForce`.
    pub fn set_max_force(&mut self, force: f32) -> Result<()> {
        check_non_negative(force, "mouse joint max force")?;
        self.view
            .update_data(|j: &mut MouseJoint| j.max_force = force);
        Ok(())
    }
}

part_view!(
    /// A filter joint: it only keeps its bodies from colliding and has no
    /// settings of its own.
    FilterView,
    FilterRef,
    FilterMut
);

part_view!(
    /// What only a mover joint has: the target velocity of body B relative
    /// to body A and the force bound of each axis.
    ///
    /// Covers Box2D's `b2MoverJoint_*`.
    MoverView,
    MoverRef,
    MoverMut
);

impl<W: Deref<Target = World>> MoverView<W> {
    /// The definition the joint would be re-created with.
    pub fn def(&self) -> MoverJointDef {
        let base = self.view.world.joint_base_def(self.view.index);
        self.view
            .data(|j: &MoverJoint| MoverJointDef::read(base, j))
    }

    /// The target velocity of body B relative to body A along joint frame
    /// A's axes, m/s.
    ///
    /// Box2D: `b2MoverJoint_GetLinearVelocity`.
    pub fn linear_velocity(&self) -> Vec2 {
        self.view.data(|j: &MoverJoint| j.linear_velocity())
    }

    /// The largest force along each axis, N.
    ///
    /// Box2D: `b2MoverJoint_GetMaxVelocityForce`.
    pub fn max_velocity_force(&self) -> Vec2 {
        self.view.data(|j: &MoverJoint| j.max_force())
    }
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

part_view!(
    /// What only a pogo joint has: its spring leg.
    ///
    /// Covers Box2D's `b2PogoJoint_*`.
    PogoView,
    PogoRef,
    PogoMut
);

impl<W: Deref<Target = World>> PogoView<W> {
    /// The definition the joint would be re-created with (with its current
    /// impulse and velocity, so a pogo made again carries its state over).
    pub fn def(&self) -> PogoJointDef {
        let base = self.view.world.joint_base_def(self.view.index);
        let sim = &self.view.sim().base;
        self.view
            .data(|j: &PogoJoint| PogoJointDef::read(base, sim, j))
    }

    /// The rest length, metres.
    ///
    /// Box2D: `b2PogoJoint_GetRestLength`.
    pub fn rest_length(&self) -> f32 {
        self.view.data(|j: &PogoJoint| j.rest_length)
    }

    /// The spring stiffness, Hz.
    ///
    /// Box2D: `b2PogoJoint_GetSpringHertz`.
    pub fn hertz(&self) -> f32 {
        self.view.data(|j: &PogoJoint| j.spring.hertz)
    }

    /// The spring damping ratio.
    ///
    /// Box2D: `b2PogoJoint_GetSpringDampingRatio`.
    pub fn damping_ratio(&self) -> f32 {
        self.view.data(|j: &PogoJoint| j.spring.damping_ratio)
    }

    /// The bounds of the leg's force: the most it pulls and the most it
    /// pushes, N.
    pub fn max_forces(&self) -> (f32, f32) {
        self.view
            .data(|j: &PogoJoint| (j.max_tension_force, j.max_compression_force))
    }

    /// The current leg length: anchor B minus anchor A along the normal,
    /// metres.
    ///
    /// Box2D: `b2PogoJoint_GetLength`.
    pub fn length(&self) -> f32 {
        self.view.axial_translation()
    }

    /// The leg's rate of change of length after the last step, m/s.
    ///
    /// Box2D: `b2PogoJoint_GetVelocity`.
    pub fn velocity(&self) -> f32 {
        self.view.data(|j: &PogoJoint| j.velocity)
    }

    /// The spring's accumulated impulse of the last substep, N·s (positive
    /// pushes the bodies apart).
    ///
    /// Box2D: `b2PogoJoint_GetImpulse`.
    pub fn impulse(&self) -> f32 {
        self.view.data(|j: &PogoJoint| j.spring.impulse)
    }
}

impl PogoView<&mut World> {
    /// Sets one number after checking it is finite and ≥ 0.
    fn set(&mut self, value: f32, what: &'static str, f: fn(&mut PogoJoint, f32)) -> Result<()> {
        check_non_negative(value, what)?;
        self.view.update_data(|j: &mut PogoJoint| f(j, value));
        Ok(())
    }

    /// Sets the rest length, metres (≥ 0), and wakes the bodies.
    ///
    /// Box2D: `b2PogoJoint_SetRestLength`.
    pub fn set_rest_length(&mut self, length: f32) -> Result<()> {
        self.set(length, "pogo rest length", |j, v| j.rest_length = v)
    }

    /// Sets the spring stiffness, Hz (≥ 0).
    ///
    /// Box2D: `b2PogoJoint_SetSpringHertz`.
    pub fn set_hertz(&mut self, hertz: f32) -> Result<()> {
        self.set(hertz, "pogo spring hertz", |j, v| j.spring.hertz = v)
    }

    /// Sets the spring damping ratio (≥ 0).
    ///
    /// Box2D: `b2PogoJoint_SetSpringDampingRatio`.
    pub fn set_damping_ratio(&mut self, ratio: f32) -> Result<()> {
        self.set(ratio, "pogo spring damping ratio", |j, v| {
            j.spring.damping_ratio = v
        })
    }

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
