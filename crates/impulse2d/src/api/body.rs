//! [`BodyView`]: reading and changing one body.
//!
//! Covers Box2D's `b2Body_*` functions (creation and destruction stay on
//! [`World`]: `b2CreateBody` is [`World::create_body`], `b2DestroyBody`
//! [`World::destroy_body`]).

use crate::snapshot::recording::Call;
use std::ops::Deref;

use crate::body::{BodyDef, BodySim, BodyState, BodyType, MotionLocks, flags};
use crate::collision::{Aabb, MassData};
use crate::contact::ContactData;
use crate::error::{Error, Result, check_finite, check_finite_vec, check_non_negative};
use crate::id::{BodyId, JointId, NULL_INDEX, ShapeId};
use crate::math::{Rot, Vec2};
use crate::pos::{Pos, WorldTransform, check_finite_pos};
use crate::snapshot::recording::Logged;
use crate::solver::solver_set::{AWAKE_SET, DISABLED_SET};
use crate::world::World;

/// Declares the methods that push a body at its centre of mass, one row
/// each: `fn name(&mut self, x: T, wake: bool) = Call, check("what"), |sim,
/// state| change;` checks `x` (the error names `what`), records
/// `Call::Call(x, wake)` and, when the body takes it (awake, or woken by
/// `wake`), lets `change` update the body's sim and velocity state.
macro_rules! body_forces {
    () => {};

    (
        $(#[$doc:meta])*
        fn $f:ident(&mut self, $x:ident: $ty:ty, wake: bool) =
            $call:ident, $check:ident($what:literal), |$sim:pat_param, $state:pat_param| $change:expr;
        $($rest:tt)*
    ) => {
        $(#[$doc])*
        pub fn $f(&mut self, $x: $ty, wake: bool) -> Result<()> {
            $check($x, $what)?;
            self.push(Call::$call($x, wake), wake, |$sim, $state| $change);
            Ok(())
        }

        body_forces!($($rest)*);
    };
}

view! {
    /// One body of a world, validated once: the world borrow (`&World` or
    /// `&mut World`) and the body's index. Made by [`World::body`] and
    /// [`World::body_mut`]; [`BodyRef`] reads, [`BodyMut`] also writes.
    ///
    /// Box2D: the `b2Body_*` functions; `b2Body_IsValid` is
    /// [`World::body`]`(id).is_ok()`, `b2Body_GetWorld` is moot (the view borrows
    /// the world).
    pub struct BodyView<W>(BodyId = body_index, make_body_id, "body"): BodyRef, BodyMut;
    ///
    /// Box2D: `b2Body_IsValid`.
    World::body;
    World::body_mut;
    /// The world the view reads.
    ///
    /// Box2D: `b2Body_GetWorld`.
    BodyRef::world;
}

impl World {
    /// Creates a body. Shapes are attached afterwards; a dynamic body without
    /// shapes gets a mass of 1 kg at its origin.
    ///
    /// Returns an error naming the field when the definition holds a non-finite
    /// number, a negative damping or threshold, or a non-unit rotation.
    ///
    /// Box2D: `b2CreateBody`.
    pub fn create_body(&mut self, def: &BodyDef) -> Result<BodyId> {
        self.logged(|| Logged::CreateBody(def.clone()), |w| w.add_body(def))
    }

    /// Destroys a body with its joints, shapes, chains and contacts. Bodies
    /// that were touching it are woken. Destroying it again gives
    /// `Err(InvalidId)`.
    ///
    /// Box2D: `b2DestroyBody`.
    pub fn destroy_body(&mut self, id: BodyId) -> Result<()> {
        self.logged(
            || Logged::DestroyBody(id),
            |w| {
                let bi = w.body_index(id)?;
                w.remove_body(bi);
                Ok(())
            },
        )
    }
}

impl<W: Deref<Target = World>> BodyView<W> {
    /// The body's type.
    ///
    /// Box2D: `b2Body_GetType`.
    pub fn body_type(&self) -> BodyType {
        self.world.bodies[self.index].body_type
    }

    /// The body's name (empty for none).
    ///
    /// Box2D: `b2Body_GetName`.
    pub fn name(&self) -> &str {
        &self.world.bodies[self.index].name
    }

    /// The user data given in the definition or by [`BodyView::set_user_data`].
    ///
    /// Box2D: `b2Body_GetUserData`.
    pub fn user_data(&self) -> u64 {
        self.world.bodies[self.index].user_data
    }

    /// The transform of the body origin (`f64` translation with
    /// `large-world`).
    ///
    /// Box2D: `b2Body_GetTransform`.
    pub fn transform(&self) -> WorldTransform {
        self.world.body_sim(self.index).transform
    }

    /// The world position of the body origin, metres (`f64` with
    /// `large-world`).
    ///
    /// Box2D: `b2Body_GetPosition`.
    pub fn position(&self) -> Pos {
        self.transform().p
    }

    /// The body's rotation.
    ///
    /// Box2D: `b2Body_GetRotation`.
    pub fn rotation(&self) -> Rot {
        self.transform().q
    }

    /// Velocity of the centre of mass, m/s (zero while asleep or disabled).
    ///
    /// Box2D: `b2Body_GetLinearVelocity`.
    pub fn linear_velocity(&self) -> Vec2 {
        self.world
            .body_state(self.index)
            .map_or(Vec2::ZERO, |s| s.linear_velocity)
    }

    /// Angular velocity, rad/s (zero while asleep or disabled).
    ///
    /// Box2D: `b2Body_GetAngularVelocity`.
    pub fn angular_velocity(&self) -> f32 {
        self.world
            .body_state(self.index)
            .map_or(0.0, |s| s.angular_velocity)
    }

    /// Velocity of a world point (metres; `f64` with `large-world`) attached
    /// to the body, m/s.
    ///
    /// Box2D: `b2Body_GetWorldPointVelocity`.
    pub fn world_point_velocity(&self, world_point: impl Into<Pos>) -> Vec2 {
        let world_point = world_point.into();
        let Some(state) = self.world.body_state(self.index) else {
            return Vec2::ZERO;
        };
        let r = world_point - self.world.body_sim(self.index).center;
        state.linear_velocity + Vec2::scalar_cross(state.angular_velocity, r)
    }

    /// Velocity of a point given in the body frame (metres), in world
    /// coordinates, m/s.
    ///
    /// Box2D: `b2Body_GetLocalPointVelocity`.
    pub fn local_point_velocity(&self, local_point: Vec2) -> Vec2 {
        let Some(state) = self.world.body_state(self.index) else {
            return Vec2::ZERO;
        };
        let sim = self.world.body_sim(self.index);
        let r = sim.transform.q.rotate(local_point - sim.local_center);
        state.linear_velocity + Vec2::scalar_cross(state.angular_velocity, r)
    }

    /// Mass, kg (zero for static and kinematic bodies).
    ///
    /// Box2D: `b2Body_GetMass`.
    pub fn mass(&self) -> f32 {
        self.world.bodies[self.index].mass
    }

    /// Rotational inertia about the centre of mass, kg·m².
    ///
    /// Box2D: `b2Body_GetRotationalInertia`.
    pub fn rotational_inertia(&self) -> f32 {
        self.world.bodies[self.index].inertia
    }

    /// The centre of mass in the body frame, metres.
    ///
    /// Box2D: `b2Body_GetLocalCenter`.
    pub fn local_center_of_mass(&self) -> Vec2 {
        self.world.body_sim(self.index).local_center
    }

    /// The centre of mass in world coordinates, metres (`f64` with
    /// `large-world`).
    ///
    /// Box2D: `b2Body_GetWorldCenter`.
    pub fn world_center_of_mass(&self) -> Pos {
        self.world.body_sim(self.index).center
    }

    /// Mass, centre (body frame) and rotational inertia about the centre.
    ///
    /// Box2D: `b2Body_GetMassData`.
    pub fn mass_data(&self) -> MassData {
        MassData {
            mass: self.mass(),
            center: self.local_center_of_mass(),
            rotational_inertia: self.rotational_inertia(),
        }
    }

    /// Maps a world point (`f64` with `large-world`) into the body frame.
    ///
    /// Box2D: `b2Body_GetLocalPoint`.
    pub fn local_point(&self, world_point: impl Into<Pos>) -> Vec2 {
        self.transform().apply_inv(world_point.into())
    }

    /// Maps a body-frame point into world coordinates (`f64` with
    /// `large-world`).
    ///
    /// Box2D: `b2Body_GetWorldPoint`.
    pub fn world_point(&self, local_point: Vec2) -> Pos {
        self.transform().apply(local_point)
    }

    /// Rotates a world vector into the body frame.
    ///
    /// Box2D: `b2Body_GetLocalVector`.
    pub fn local_vector(&self, world_vector: Vec2) -> Vec2 {
        self.rotation().inv_rotate(world_vector)
    }

    /// Rotates a body-frame vector into world coordinates.
    ///
    /// Box2D: `b2Body_GetWorldVector`.
    pub fn world_vector(&self, local_vector: Vec2) -> Vec2 {
        self.rotation().rotate(local_vector)
    }

    /// Linear damping, 1/s.
    ///
    /// Box2D: `b2Body_GetLinearDamping`.
    pub fn linear_damping(&self) -> f32 {
        self.world.body_sim(self.index).linear_damping
    }

    /// Angular damping, 1/s.
    ///
    /// Box2D: `b2Body_GetAngularDamping`.
    pub fn angular_damping(&self) -> f32 {
        self.world.body_sim(self.index).angular_damping
    }

    /// Multiplier of the world gravity for this body.
    ///
    /// Box2D: `b2Body_GetGravityScale`.
    pub fn gravity_scale(&self) -> f32 {
        self.world.body_sim(self.index).gravity_scale
    }

    /// Whether the body is awake (static and disabled bodies are not).
    ///
    /// Box2D: `b2Body_IsAwake`.
    pub fn is_awake(&self) -> bool {
        self.world.bodies[self.index].set_index == AWAKE_SET
    }

    /// Whether the body may sleep.
    ///
    /// Box2D: `b2Body_IsSleepEnabled`.
    pub fn is_sleep_enabled(&self) -> bool {
        self.world.bodies[self.index].enable_sleep
    }

    /// Speed below which the body counts as resting for sleep, m/s.
    ///
    /// Box2D: `b2Body_GetSleepThreshold`.
    pub fn sleep_threshold(&self) -> f32 {
        self.world.bodies[self.index].sleep_threshold
    }

    /// The continuous collision safety factor (dimensionless; see
    /// [`BodyDef::safety_factor`](crate::BodyDef::safety_factor)).
    ///
    /// Box2D: `b2Body_GetSafetyFactor`.
    pub fn safety_factor(&self) -> f32 {
        self.world.bodies[self.index].safety_factor
    }

    /// Whether the body's contacts may be recycled (see
    /// [`BodyDef::enable_contact_recycling`](crate::BodyDef::enable_contact_recycling)).
    ///
    /// Box2D: `b2Body_IsContactRecyclingEnabled`.
    pub fn is_contact_recycling_enabled(&self) -> bool {
        self.world.bodies[self.index].enable_contact_recycling
    }

    /// Whether the body takes part in the simulation.
    ///
    /// Box2D: `b2Body_IsEnabled`.
    pub fn is_enabled(&self) -> bool {
        self.world.bodies[self.index].set_index != DISABLED_SET
    }

    /// The locked degrees of freedom.
    ///
    /// Box2D: `b2Body_GetMotionLocks`.
    pub fn motion_locks(&self) -> MotionLocks {
        let f = self.world.bodies[self.index].flags;
        MotionLocks {
            linear_x: f & flags::LOCK_LINEAR_X != 0,
            linear_y: f & flags::LOCK_LINEAR_Y != 0,
            angular_z: f & flags::LOCK_ANGULAR_Z != 0,
        }
    }

    /// Whether the body is a bullet (swept against moving bodies too).
    ///
    /// Box2D: `b2Body_IsBullet`.
    pub fn is_bullet(&self) -> bool {
        self.world.bodies[self.index].flags & flags::IS_BULLET != 0
    }

    /// The number of shapes attached to the body.
    ///
    /// Box2D: `b2Body_GetShapeCount`.
    pub fn shape_count(&self) -> usize {
        self.world.bodies[self.index].shape_count as usize
    }

    /// The ids of the shapes attached to the body, newest first.
    ///
    /// Box2D: `b2Body_GetShapes`.
    pub fn shapes(&self) -> Vec<ShapeId> {
        self.list_ids(
            self.shape_count(),
            self.world.body_shapes(self.index),
            World::make_shape_id,
        )
    }

    /// The number of joints attached to the body.
    ///
    /// Box2D: `b2Body_GetJointCount`.
    pub fn joint_count(&self) -> usize {
        self.world.bodies[self.index].joint_count as usize
    }

    /// The ids of the joints attached to the body, newest first.
    ///
    /// Box2D: `b2Body_GetJoints`.
    pub fn joints(&self) -> Vec<JointId> {
        let keys = self.world.body_joint_keys(self.index);
        self.list_ids(self.joint_count(), keys, |w, key| w.make_joint_id(key >> 1))
    }

    /// The ids `id` makes of the keys of one of the body's lists (`count` of
    /// them).
    fn list_ids<T>(
        &self,
        count: usize,
        keys: impl Iterator<Item = u32>,
        id: impl Fn(&World, u32) -> T,
    ) -> Vec<T> {
        let mut out = Vec::with_capacity(count);
        out.extend(keys.map(|key| id(&self.world, key)));
        out
    }

    /// An upper bound of the number of contacts [`BodyView::contacts`] returns
    /// (every contact of the body, touching or not).
    ///
    /// Box2D: `b2Body_GetContactCapacity`.
    pub fn contact_capacity(&self) -> usize {
        self.world.bodies[self.index].contact_count as usize
    }

    /// The touching contacts of the body (manifold with at least one point).
    ///
    /// Box2D: `b2Body_GetContactData`.
    pub fn contacts(&self) -> Vec<ContactData> {
        self.world.body_contact_data(self.index)
    }

    /// The union of the bounding boxes of the body's shapes (each the tight box
    /// grown by the speculative distance). A body without shapes gets the
    /// empty box at its origin. `f32`; with `large-world` the `f64` box
    /// rounded outwards.
    ///
    /// Box2D: `b2Body_ComputeAABB`.
    pub fn aabb(&self) -> Aabb {
        let world = &*self.world;
        let mut shape_id = world.bodies[self.index].head_shape_id;
        if shape_id == NULL_INDEX {
            let p = crate::pos::to_vec2(self.position());
            return Aabb::new(p, p);
        }
        let mut aabb = world.shapes[shape_id as usize].aabb;
        while shape_id != NULL_INDEX {
            let shape = &world.shapes[shape_id as usize];
            aabb = aabb.union(&shape.aabb);
            shape_id = shape.next_shape_id;
        }
        crate::pos::to_aabb(aabb)
    }
}

impl BodyView<&mut World> {
    /// Replaces the body's user data.
    ///
    /// Box2D: `b2Body_SetUserData`.
    pub fn set_user_data(&mut self, user_data: u64) {
        self.world.record_change();
        self.world.bodies[self.index].user_data = user_data;
    }

    /// Renames the body.
    ///
    /// Box2D: `b2Body_SetName`.
    pub fn set_name(&mut self, name: &str) {
        self.world.record_change();
        let body = &mut self.world.bodies[self.index];
        body.name.clear();
        body.name.push_str(name);
    }

    /// Teleports the body: sets the transform of its origin, updates its
    /// broad-phase boxes and wakes it (a static body wakes the bodies touching
    /// it). Contacts are updated at the next step.
    ///
    /// # Errors
    /// A non-finite position or one beyond ±[`MAX_COORDINATE`](crate::core::MAX_COORDINATE)
    /// (1e18 m), or a non-unit rotation.
    ///
    /// `position` is `f64` with `large-world`.
    ///
    /// Box2D: `b2Body_SetTransform`.
    pub fn set_transform(&mut self, position: impl Into<Pos>, rotation: Rot) -> Result<()> {
        let position = position.into();
        self.world.teleport_body(self.index, position, rotation)?;
        // logged once it is known to be valid (a rejected call changes nothing)
        self.world
            .record_call(self.index, Call::SetTransform(position, rotation));
        Ok(())
    }

    /// Sets the velocity of the centre of mass, m/s; a non-zero velocity wakes
    /// the body. Static bodies cannot move (`Err(InvalidOperation)`).
    ///
    /// Box2D: `b2Body_SetLinearVelocity`.
    pub fn set_linear_velocity(&mut self, v: Vec2) -> Result<()> {
        check_finite_vec(v, "linear velocity")?;
        let wake = v.length_squared() > 0.0;
        self.set_velocity(Call::SetLinearVelocity(v), false, wake, |s| {
            s.linear_velocity = v;
        })
    }

    /// Sets the angular velocity, rad/s; a non-zero value wakes the body
    /// (ignored when rotation is locked).
    ///
    /// Box2D: `b2Body_SetAngularVelocity`.
    pub fn set_angular_velocity(&mut self, w: f32) -> Result<()> {
        check_finite(w, "angular velocity")?;
        let locked = self.world.bodies[self.index].flags & flags::LOCK_ANGULAR_Z != 0;
        self.set_velocity(Call::SetAngularVelocity(w), locked, w != 0.0, |s| {
            s.angular_velocity = w;
        })
    }

    /// Sets a velocity the caller checked: a static body has none
    /// (`Err(InvalidOperation)`); the call is recorded; a `locked` axis keeps
    /// its zero; `wake` wakes the body; `set` changes its state (none while
    /// asleep or disabled).
    fn set_velocity(
        &mut self,
        call: Call,
        locked: bool,
        wake: bool,
        set: impl FnOnce(&mut crate::body::BodyState),
    ) -> Result<()> {
        let bi = self.index;
        if self.world.bodies[bi].body_type == BodyType::Static {
            return Err(Error::InvalidOperation("a static body has no velocity"));
        }
        self.world.record_call(bi, call);
        if locked {
            return Ok(());
        }
        if wake {
            self.world.wake_body(bi);
        }
        if let Some(state) = self.world.body_state_mut(bi) {
            set(state);
        }
        Ok(())
    }

    /// Sets the velocity that brings the body's origin to `target` in one step
    /// of `time_step` seconds (kinematic bodies moved along a path; see
    /// [`World`]'s step). A sleeping body is woken unless the motion is slower
    /// than its sleep threshold; disabled bodies are left alone.
    ///
    /// # Errors
    /// A static body, a bad target or a time step that is not finite and
    /// positive.
    ///
    /// `target` has an `f64` translation with `large-world`.
    ///
    /// Box2D: `b2Body_SetTargetTransform`.
    pub fn set_target_transform(
        &mut self,
        target: impl Into<WorldTransform>,
        time_step: f32,
    ) -> Result<()> {
        let target = target.into();
        self.world.drive_body_to(self.index, target, time_step)?;
        self.world
            .record_call(self.index, Call::SetTargetTransform(target, time_step));
        Ok(())
    }

    /// Applies a force (N) at a world point (m; `f64` with `large-world`) for
    /// the next step. Has no effect on a sleeping body unless `wake` is set.
    ///
    /// Box2D: `b2Body_ApplyForce`.
    pub fn apply_force(&mut self, force: Vec2, point: impl Into<Pos>, wake: bool) -> Result<()> {
        let point = point.into();
        check_finite_vec(force, "force")?;
        check_finite_pos(point, "point")?;
        self.push(Call::ApplyForce(force, point, wake), wake, |sim, _| {
            sim.force += force;
            sim.torque += (point - sim.center).cross(force);
        });
        Ok(())
    }

    /// Clears the force and torque accumulated for the next step.
    ///
    /// Box2D: `b2Body_ClearForces`.
    pub fn clear_forces(&mut self) {
        self.world.record_call(self.index, Call::ClearForces);
        let sim = self.world.body_sim_mut(self.index);
        sim.force = Vec2::ZERO;
        sim.torque = 0.0;
    }

    /// Applies an impulse (N·s) at a world point (m; `f64` with
    /// `large-world`): changes the velocity at once.
    ///
    /// Box2D: `b2Body_ApplyLinearImpulse`.
    pub fn apply_linear_impulse(
        &mut self,
        impulse: Vec2,
        point: impl Into<Pos>,
        wake: bool,
    ) -> Result<()> {
        let point = point.into();
        check_finite_vec(impulse, "impulse")?;
        check_finite_pos(point, "point")?;
        self.push(
            Call::ApplyLinearImpulse(impulse, point, wake),
            wake,
            |sim, state| {
                state.linear_velocity = Vec2::mul_add(state.linear_velocity, sim.inv_mass, impulse);
                state.angular_velocity += sim.inv_inertia * (point - sim.center).cross(impulse);
            },
        );
        Ok(())
    }

    body_forces! {
        /// Applies a force (N) at the centre of mass for the next step.
        ///
        /// Box2D: `b2Body_ApplyForceToCenter`.
        fn apply_force_to_center(&mut self, force: Vec2, wake: bool) = ApplyForceToCenter,
            check_finite_vec("force"), |sim, _| sim.force += force;
        /// Applies a torque (N·m) for the next step.
        ///
        /// Box2D: `b2Body_ApplyTorque`.
        fn apply_torque(&mut self, torque: f32, wake: bool) = ApplyTorque,
            check_finite("torque"), |sim, _| sim.torque += torque;
        /// Applies an impulse (N·s) at the centre of mass.
        ///
        /// Box2D: `b2Body_ApplyLinearImpulseToCenter`.
        fn apply_linear_impulse_to_center(&mut self, impulse: Vec2, wake: bool) =
            ApplyLinearImpulseToCenter, check_finite_vec("impulse"), |sim, state| {
                state.linear_velocity = Vec2::mul_add(state.linear_velocity, sim.inv_mass, impulse)
            };
        /// Applies an angular impulse (N·m·s).
        ///
        /// Box2D: `b2Body_ApplyAngularImpulse`.
        fn apply_angular_impulse(&mut self, impulse: f32, wake: bool) = ApplyAngularImpulse,
            check_finite("angular impulse"), |sim, state| {
                state.angular_velocity += sim.inv_inertia * impulse
            };
    }

    /// Records `call`; then, when the body takes forces now (it is awake, or
    /// `wake` woke it), lets `apply` change its sim and velocity state.
    fn push(&mut self, call: Call, wake: bool, apply: impl FnOnce(&mut BodySim, &mut BodyState)) {
        self.world.record_call(self.index, call);
        if self.world.force_target(self.index, wake) {
            let (sim, state) = self.world.awake_sim_and_state(self.index);
            apply(sim, state);
        }
    }

    /// Overrides the mass computed from the shapes (dynamic bodies only). The
    /// mass is recomputed from the shapes when a shape is added or removed, or
    /// by [`BodyView::apply_mass_from_shapes`].
    ///
    /// # Errors
    /// A body that is not dynamic, a mass that is not finite or below
    /// `f32::MIN_POSITIVE` (it would have no finite inverse), a negative or
    /// non-finite inertia, or a centre beyond `HUGE` (an inertia below
    /// `f32::MIN_POSITIVE` counts as zero: the body does not turn).
    ///
    /// Box2D: `b2Body_SetMassData`.
    pub fn set_mass_data(&mut self, mass_data: MassData) -> Result<()> {
        self.world.record_change();
        self.world.override_body_mass(self.index, mass_data)
    }

    /// Recomputes mass, centre and inertia from the body's shapes and densities.
    ///
    /// Box2D: `b2Body_ApplyMassFromShapes`.
    pub fn apply_mass_from_shapes(&mut self) {
        self.world.record_change();
        self.world.update_body_mass_data(self.index);
    }

    /// Sets the linear damping, 1/s (≥ 0): velocity is multiplied by
    /// `1 / (1 + h·c)` every substep of length `h`.
    ///
    /// Box2D: `b2Body_SetLinearDamping`.
    pub fn set_linear_damping(&mut self, damping: f32) -> Result<()> {
        self.world.record_change();
        check_non_negative(damping, "linear damping")?;
        self.world.body_sim_mut(self.index).linear_damping = damping;
        Ok(())
    }

    /// Sets the angular damping, 1/s (≥ 0).
    ///
    /// Box2D: `b2Body_SetAngularDamping`.
    pub fn set_angular_damping(&mut self, damping: f32) -> Result<()> {
        self.world.record_change();
        check_non_negative(damping, "angular damping")?;
        self.world.body_sim_mut(self.index).angular_damping = damping;
        Ok(())
    }

    /// Sets the multiplier of the world gravity for this body (finite; 0
    /// floats, negative rises).
    ///
    /// Box2D: `b2Body_SetGravityScale`.
    pub fn set_gravity_scale(&mut self, scale: f32) -> Result<()> {
        self.world.record_change();
        check_finite(scale, "gravity scale")?;
        self.world.body_sim_mut(self.index).gravity_scale = scale;
        Ok(())
    }

    /// Wakes a sleeping body (and its island), or puts an awake body's whole
    /// island to sleep at once.
    ///
    /// Box2D: `b2Body_SetAwake`.
    pub fn set_awake(&mut self, awake: bool) {
        self.world.record_call(self.index, Call::SetAwake(awake));
        if awake {
            self.world.wake_body(self.index);
        } else {
            self.world.sleep_body_island(self.index);
        }
    }

    /// Wakes every body touching this one.
    ///
    /// Box2D: `b2Body_WakeTouching`.
    pub fn wake_touching(&mut self) {
        self.world.record_change();
        self.world.wake_touching_bodies(self.index);
    }

    /// Allows or forbids sleep for this body; forbidding wakes it.
    ///
    /// Box2D: `b2Body_EnableSleep`.
    pub fn set_sleep_enabled(&mut self, enable: bool) {
        self.world.record_change();
        self.world.bodies[self.index].enable_sleep = enable;
        if !enable {
            self.world.wake_body(self.index);
        }
    }

    /// Sets the speed below which the body counts as resting, m/s (≥ 0).
    ///
    /// Box2D: `b2Body_SetSleepThreshold`.
    pub fn set_sleep_threshold(&mut self, threshold: f32) -> Result<()> {
        self.world.record_change();
        check_non_negative(threshold, "sleep threshold")?;
        self.world.bodies[self.index].sleep_threshold = threshold;
        Ok(())
    }

    /// Sets the continuous collision safety factor (dimensionless, ≥ 0; see
    /// [`BodyDef::safety_factor`](crate::BodyDef::safety_factor)).
    ///
    /// Box2D: `b2Body_SetSafetyFactor`.
    pub fn set_safety_factor(&mut self, factor: f32) -> Result<()> {
        self.world.record_change();
        check_non_negative(factor, "safety factor")?;
        self.world.bodies[self.index].safety_factor = factor;
        Ok(())
    }

    /// Allows or forbids recycling the manifolds of the body's contacts (from
    /// the next step, for all its contacts: a contact is recycled only when
    /// both bodies allow it).
    ///
    /// Box2D: `b2Body_EnableContactRecycling`.
    pub fn set_contact_recycling_enabled(&mut self, enable: bool) {
        self.world.record_change();
        self.world.bodies[self.index].enable_contact_recycling = enable;
    }

    /// Removes the body from the simulation (it keeps its shapes and
    /// transform). Bodies that were touching it are woken.
    ///
    /// Box2D: `b2Body_Disable`.
    pub fn disable(&mut self) {
        self.world.record_change();
        self.world.disable_body_at(self.index);
    }

    /// Puts a disabled body back into the simulation, awake.
    ///
    /// # Errors
    /// The broad phase is full (a shape cannot be inserted again).
    ///
    /// Box2D: `b2Body_Enable`.
    pub fn enable(&mut self) -> Result<()> {
        self.world.record_change();
        self.world.enable_body_at(self.index)
    }

    /// Changes the body between static, kinematic and dynamic. Its contacts
    /// are destroyed and recreated at the next step; mass is recomputed.
    ///
    /// Box2D: `b2Body_SetType`.
    pub fn set_body_type(&mut self, body_type: BodyType) -> Result<()> {
        self.world.record_change();
        self.world.change_body_type(self.index, body_type)
    }

    /// Locks or unlocks degrees of freedom; a locked one loses its velocity at
    /// once and the solver keeps it at zero. The mass data is left as it is
    /// (as Box2D does); [`BodyView::apply_mass_from_shapes`] recomputes it,
    /// with no rotational inertia while rotation is locked.
    ///
    /// Box2D: `b2Body_SetMotionLocks`.
    pub fn set_motion_locks(&mut self, locks: MotionLocks) {
        self.world.record_change();
        let bi = self.index;
        let old = self.motion_locks();
        if old == locks {
            return;
        }
        let mut bits = 0;
        if locks.linear_x {
            bits |= flags::LOCK_LINEAR_X;
        }
        if locks.linear_y {
            bits |= flags::LOCK_LINEAR_Y;
        }
        if locks.angular_z {
            bits |= flags::LOCK_ANGULAR_Z;
        }
        self.world.set_body_flags(bi, flags::LOCKS, false);
        self.world.set_body_flags(bi, bits, true);
        if let Some(state) = self.world.body_state_mut(bi) {
            if locks.linear_x {
                state.linear_velocity.x = 0.0;
            }
            if locks.linear_y {
                state.linear_velocity.y = 0.0;
            }
            if locks.angular_z {
                state.angular_velocity = 0.0;
            }
        }
    }

    /// Makes the body a bullet or an ordinary body. A fast bullet is swept
    /// against static, kinematic and non-bullet dynamic shapes; an ordinary
    /// fast body only against static ones.
    ///
    /// Box2D: `b2Body_SetBullet`.
    pub fn set_bullet(&mut self, bullet: bool) {
        self.world.record_change();
        self.world
            .set_body_flags(self.index, flags::IS_BULLET, bullet);
    }

    /// Turns begin/end touch events on or off for every shape of the body
    /// (for contacts made from now on; see
    /// [`ShapeView::set_contact_events_enabled`](crate::api::ShapeView::set_contact_events_enabled)).
    ///
    /// Box2D: `b2Body_EnableContactEvents`.
    pub fn set_contact_events_enabled(&mut self, enable: bool) {
        self.world.record_change();
        for si in self.shape_indices() {
            self.world.shapes[si].enable_contact_events = enable;
        }
    }

    /// Turns hit events on or off for every shape of the body.
    ///
    /// Box2D: `b2Body_EnableHitEvents`.
    pub fn set_hit_events_enabled(&mut self, enable: bool) {
        self.world.record_change();
        for si in self.shape_indices() {
            self.world.shapes[si].enable_hit_events = enable;
            self.world.refresh_shape_contacts(si);
        }
    }

    /// The indices of the body's shapes, newest first.
    fn shape_indices(&self) -> Vec<usize> {
        let world = &*self.world;
        world
            .body_shapes(self.index)
            .map(|si| si as usize)
            .collect()
    }
}
