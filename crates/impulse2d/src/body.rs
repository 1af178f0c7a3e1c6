//! Rigid bodies: the definition used to create them, their data inside the
//! world, and the public functions that read and change them.
//!
//! A body's data is split by how often the solver touches it (as in Box2D v3):
//! `Body` holds the cold part (lists, island links, user data) in the world's
//! body array indexed by id; `BodySim` holds the transform and mass in the
//! body's solver set; `BodyState` (32 bytes: velocity, angular velocity,
//! flags, position and rotation deltas) exists only for awake bodies and is
//! what the constraint solver reads and writes.

use crate::collision::MassData;
use crate::contact::ContactEdges;
use crate::core::{HUGE, MAX_COORDINATE};
use crate::error::{
    Error, Result, check_finite, check_finite_vec, check_in_range, check_non_negative,
};
use crate::id::{BodyId, NULL_INDEX};
use crate::math::{Rot, Vec2};
use crate::pos::{Pos, WorldTransform};
use crate::solver::solver_set::{
    AWAKE_SET, DISABLED_SET, FIRST_SLEEPING_SET, STATIC_SET, SolverSet,
};
use crate::world::World;

/// How a body moves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum BodyType {
    /// Zero mass, zero velocity, moved only by the user.
    #[default]
    Static = 0,
    /// Zero mass, velocity set by the user, moved by the solver.
    Kinematic = 1,
    /// Positive mass, velocity determined by forces, moved by the solver.
    Dynamic = 2,
}

impl BodyType {
    /// The number of body types.
    pub const COUNT: usize = 3;
}

def_struct! {
    /// Degrees of freedom a body is not allowed to use. A locked axis behaves as
    /// if a constraint holding it were solved last in every substep.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    pub struct MotionLocks {
        /// Prevent translation along the world x axis.
        ///
        /// Box2D: `b2MotionLocks.linearX`.
        pub linear_x: bool = false,
        /// Prevent translation along the world y axis.
        ///
        /// Box2D: `b2MotionLocks.linearY`.
        pub linear_y: bool = false,
        /// Prevent rotation.
        ///
        /// Box2D: `b2MotionLocks.angularZ`.
        pub angular_z: bool = false,
    }
    impl Default for MotionLocks;
}

def_struct! {
    /// Everything needed to create a body. Use `..Default::default()` for the
    /// fields you do not set; [`World::create_body`] validates the values.
    #[derive(Clone, Debug, PartialEq)]
    pub struct BodyDef {
        /// Static, kinematic or dynamic.
        ///
        /// Box2D: `b2BodyDef.type`.
        pub body_type: BodyType = BodyType::Static,
        /// World position of the body origin, metres: finite and within
        /// ±[`MAX_COORDINATE`] (1e18 m) on each axis. `f64` with the
        /// `large-world` feature ([`Pos`]).
        ///
        /// Box2D: `b2BodyDef.position`.
        pub position: Pos = Pos::ZERO => check_position("body position"),
        /// World rotation of the body.
        ///
        /// Box2D: `b2BodyDef.rotation`.
        pub rotation: Rot = Rot::IDENTITY => check_rotation("body rotation"),
        /// Initial velocity of the body origin, m/s.
        ///
        /// Box2D: `b2BodyDef.linearVelocity`.
        pub linear_velocity: Vec2 = Vec2::ZERO => check_finite_vec("body linear velocity"),
        /// Initial angular velocity, rad/s.
        ///
        /// Box2D: `b2BodyDef.angularVelocity`.
        pub angular_velocity: f32 = 0.0 => check_finite("body angular velocity"),
        /// Linear damping, 1/s (≥ 0). Reduces velocity by `1 / (1 + h·c)` each substep.
        ///
        /// Box2D: `b2BodyDef.linearDamping`.
        pub linear_damping: f32 = 0.0 => check_non_negative("body linear damping"),
        /// Angular damping, 1/s (≥ 0).
        ///
        /// Box2D: `b2BodyDef.angularDamping`.
        pub angular_damping: f32 = 0.0 => check_non_negative("body angular damping"),
        /// Multiplier of the world gravity for this body (dimensionless).
        ///
        /// Box2D: `b2BodyDef.gravityScale`.
        pub gravity_scale: f32 = 1.0 => check_finite("body gravity scale"),
        /// Speed below which the body counts as resting for sleep, m/s (≥ 0).
        ///
        /// Box2D: `b2BodyDef.sleepThreshold`.
        pub sleep_threshold: f32 = 0.05 => check_non_negative("body sleep threshold"),
        /// Whether the body may fall asleep.
        ///
        /// Box2D: `b2BodyDef.enableSleep`.
        pub enable_sleep: bool = true,
        /// Whether the body starts awake (ignored for static bodies).
        ///
        /// Box2D: `b2BodyDef.isAwake`.
        pub is_awake: bool = true,
        /// Whether the body is a bullet: swept against other moving bodies too.
        ///
        /// Box2D: `b2BodyDef.isBullet`.
        pub is_bullet: bool = false,
        /// Degrees of freedom to lock.
        ///
        /// Box2D: `b2BodyDef.motionLocks`.
        pub motion_locks: MotionLocks = MotionLocks::default(),
        /// Whether the body takes part in the simulation at all.
        ///
        /// Box2D: `b2BodyDef.isEnabled`.
        pub is_enabled: bool = true,
        /// Allow the body to turn more than a quarter turn per step.
        ///
        /// Box2D: `b2BodyDef.allowFastRotation`.
        pub allow_fast_rotation: bool = false,
        /// Let the body's contacts keep their manifold for a step when the bodies
        /// barely moved relative to each other (see
        /// [`WorldDef::contact_recycle_distance`](crate::WorldDef::contact_recycle_distance));
        /// off recomputes every manifold every step (no ghost collisions from a
        /// stale manifold, at some cost).
        ///
        /// Box2D: `b2BodyDef.enableContactRecycling`.
        pub enable_contact_recycling: bool = true,
        /// Continuous collision safety factor (dimensionless, ≥ 0; recommended
        /// 0.01 to 0.5): the body is swept by time of impact when it moves more
        /// than this fraction of its smallest extent in one step. Smaller is safer
        /// but costs more and can make bodies hitch.
        ///
        /// Box2D: `b2BodyDef.safetyFactor`.
        pub safety_factor: f32 = crate::solver::continuous::SAFETY_FACTOR => check_non_negative("body safety factor"),
        /// Any number the application wants to attach.
        ///
        /// Box2D: `b2BodyDef.userData`.
        pub user_data: u64 = 0,
        /// A name for debugging (empty for none).
        ///
        /// Box2D: `b2BodyDef.name`.
        pub name: String = String::new(),
    }
    /// Box2D: `b2DefaultBodyDef`.
    impl Default for BodyDef;

    /// Checks every number; the first bad field is named in the error.
    pub fn validate(&self);
}

impl BodyDef {
    /// A dynamic body at `position` (metres), every other field at its
    /// default.
    pub fn dynamic(position: impl Into<Pos>) -> BodyDef {
        BodyDef {
            body_type: BodyType::Dynamic,
            position: position.into(),
            ..Default::default()
        }
    }
}

/// Checks a world position: finite and within ±[`MAX_COORDINATE`] on each axis
/// (the bound the step keeps bodies within, so any position a body reaches can
/// be set back).
pub(crate) fn check_position(p: Pos, what: &'static str) -> Result<()> {
    #[cfg(feature = "large-world")]
    if !p.is_finite() {
        return Err(Error::NonFinite { what });
    }
    check_point_within(
        crate::pos::to_vec2(p),
        MAX_COORDINATE,
        "within ±MAX_COORDINATE (1e18 m) on each axis",
        what,
    )
}

/// Checks a point in a body's frame (a centre of mass): finite and within
/// ±[`HUGE`] on each axis, as shape coordinates are.
fn check_local_point(p: Vec2, what: &'static str) -> Result<()> {
    check_point_within(p, HUGE, "within ±HUGE (1e5 m) of the body origin", what)
}

fn check_point_within(
    p: Vec2,
    limit: f32,
    expected: &'static str,
    what: &'static str,
) -> Result<()> {
    check_finite_vec(p, what)?;
    if p.x.abs() > limit || p.y.abs() > limit {
        return Err(Error::OutOfRange {
            what,
            expected,
            value: p.x.abs().max(p.y.abs()),
        });
    }
    Ok(())
}

/// Checks that a rotation is finite and of unit length.
pub(crate) fn check_rotation(q: Rot, what: &'static str) -> Result<()> {
    if !q.c.is_finite() || !q.s.is_finite() {
        return Err(Error::NonFinite { what });
    }
    if !q.is_valid() {
        return Err(Error::OutOfRange {
            what,
            expected: "a unit cosine/sine pair",
            value: (q.c * q.c + q.s * q.s).sqrt(),
        });
    }
    Ok(())
}

/// Bits shared by [`BodySim::flags`], [`BodyState::flags`] and [`Body::flags`].
pub(crate) mod flags {
    pub const LOCK_LINEAR_X: u32 = 1 << 0;
    pub const LOCK_LINEAR_Y: u32 = 1 << 1;
    pub const LOCK_ANGULAR_Z: u32 = 1 << 2;
    pub const IS_BULLET: u32 = 1 << 3;
    pub const ALLOW_FAST_ROTATION: u32 = 1 << 4;
    /// Set by the solver when a velocity was clamped this step.
    pub const IS_SPEED_CAPPED: u32 = 1 << 5;
    /// Set when the body moved far enough this step to need continuous collision.
    pub const IS_FAST: u32 = 1 << 6;
    /// Set when continuous collision moved the body back this step.
    pub const HAD_TIME_OF_IMPACT: u32 = 1 << 7;
    /// Flags that live for one step only.
    pub const TRANSIENT: u32 = IS_SPEED_CAPPED | IS_FAST | HAD_TIME_OF_IMPACT;
    /// The motion locks.
    pub const LOCKS: u32 = LOCK_LINEAR_X | LOCK_LINEAR_Y | LOCK_ANGULAR_Z;
    /// Set for dynamic bodies. The constraint solvers write velocities back
    /// only to bodies with this flag: the graph colouring keeps the dynamic
    /// bodies of one colour apart, but not static or kinematic ones, so
    /// threads solving one colour must not write those.
    pub const DYNAMIC: u32 = 1 << 8;
    /// Set by the solver when the body's velocity stopped being finite this
    /// step (it is quarantined at the end of the step).
    pub const QUARANTINED_VELOCITY: u32 = 1 << 9;
    /// Set when the body's next pose stopped being finite this step.
    pub const QUARANTINED_POSITION: u32 = 1 << 10;
    /// Either quarantine flag.
    pub const QUARANTINED: u32 = QUARANTINED_VELOCITY | QUARANTINED_POSITION;
    /// The body flags a [`BodyState`](super::BodyState) carries (set at creation
    /// and again whenever the body wakes or changes solver set).
    pub const STATE: u32 = LOCKS | DYNAMIC | IS_BULLET | ALLOW_FAST_ROTATION;
}

/// The cold part of a body, stored in `World::bodies` at the body's id.
#[derive(Clone, Debug)]
pub(crate) struct Body {
    pub name: String,
    pub user_data: u64,
    /// The solver set holding the body's [`BodySim`].
    pub set_index: u32,
    /// Index of the sim (and state, when awake) inside the set.
    pub local_index: u32,
    /// Head of the doubly linked list of contact edges: `(contact_id << 1) | edge`.
    pub head_contact_key: u32,
    pub contact_count: u32,
    pub head_shape_id: u32,
    pub shape_count: u32,
    pub head_chain_id: u32,
    /// Head of the joint edge list: `(joint_id << 1) | edge` (see `joint/`).
    pub head_joint_key: u32,
    pub joint_count: u32,
    /// The island, or NULL for static and disabled bodies.
    pub island_id: u32,
    pub island_prev: u32,
    pub island_next: u32,
    /// Mass, kg.
    pub mass: f32,
    /// Rotational inertia about the centre of mass, kg·m².
    pub inertia: f32,
    pub sleep_threshold: f32,
    /// Continuous collision safety factor ([`BodyDef::safety_factor`]).
    pub safety_factor: f32,
    /// [`BodyDef::enable_contact_recycling`].
    pub enable_contact_recycling: bool,
    /// How long the body has been slow enough to sleep, s.
    pub sleep_time: f32,
    /// The body's index, or NULL while the slot is free.
    pub id: u32,
    pub generation: u32,
    pub body_type: BodyType,
    pub enable_sleep: bool,
    /// Persistent flags (locks, bullet) plus the last step's transient flags.
    pub flags: u32,
}

impl Body {
    /// The body's sim in its solver set.
    #[inline(always)]
    pub(crate) fn sim<'s>(&self, solver_sets: &'s [SolverSet]) -> &'s BodySim {
        &solver_sets[self.set_index as usize].body_sims[self.local_index as usize]
    }

    /// The body's index among the awake set's states, or `NULL_INDEX` when it
    /// is not awake (the solver then reads a resting stand-in, see [`load`]).
    #[inline(always)]
    pub(crate) fn awake_index(&self) -> u32 {
        if self.set_index == AWAKE_SET {
            self.local_index
        } else {
            NULL_INDEX
        }
    }
}

impl Default for Body {
    fn default() -> Self {
        Body {
            name: String::new(),
            user_data: 0,
            set_index: NULL_INDEX,
            local_index: NULL_INDEX,
            head_contact_key: NULL_INDEX,
            contact_count: 0,
            head_shape_id: NULL_INDEX,
            shape_count: 0,
            head_chain_id: NULL_INDEX,
            head_joint_key: NULL_INDEX,
            joint_count: 0,
            island_id: NULL_INDEX,
            island_prev: NULL_INDEX,
            island_next: NULL_INDEX,
            mass: 0.0,
            inertia: 0.0,
            sleep_threshold: 0.05,
            safety_factor: crate::solver::continuous::SAFETY_FACTOR,
            enable_contact_recycling: true,
            sleep_time: 0.0,
            id: NULL_INDEX,
            generation: 0,
            body_type: BodyType::Static,
            enable_sleep: true,
            flags: 0,
        }
    }
}

/// The part of a body the step reads every frame, stored in its solver set.
#[derive(Clone, Copy, Debug)]
pub(crate) struct BodySim {
    /// Transform of the body origin.
    pub transform: WorldTransform,
    /// World centre of mass, metres.
    pub center: Pos,
    /// Rotation and centre at the start of the step (for continuous collision).
    pub rotation0: Rot,
    pub center0: Pos,
    /// How far a fast body turned over the last step, radians, any number of
    /// turns (set by `finalize_bodies` for the bullets it finds fast, and by
    /// the sweep of another fast body when it meets a candidate).
    pub angle_delta: f32,
    /// Centre of mass in the body frame, metres.
    pub local_center: Vec2,
    /// Accumulated force for the next step, N, and torque, N·m.
    pub force: Vec2,
    pub torque: f32,
    /// Inverse mass, 1/kg, and inverse rotational inertia, 1/(kg·m²).
    pub inv_mass: f32,
    pub inv_inertia: f32,
    /// Smallest and largest distance from the centre of mass to the body's
    /// surface, metres (for sleep and continuous collision).
    pub min_extent: f32,
    pub max_extent: f32,
    pub linear_damping: f32,
    pub angular_damping: f32,
    pub gravity_scale: f32,
    pub body_id: u32,
    pub flags: u32,
}

impl BodySim {
    /// A body sim with no mass, at rest at the origin: `create_body` starts
    /// from it, and the compact rollback uses it as the element before a
    /// set's first.
    pub(crate) const REST: BodySim = BodySim {
        transform: WorldTransform::IDENTITY,
        center: Pos::ZERO,
        rotation0: Rot::IDENTITY,
        center0: Pos::ZERO,
        angle_delta: 0.0,
        local_center: Vec2::ZERO,
        force: Vec2::ZERO,
        torque: 0.0,
        inv_mass: 0.0,
        inv_inertia: 0.0,
        min_extent: 0.0,
        max_extent: 0.0,
        linear_damping: 0.0,
        angular_damping: 0.0,
        gravity_scale: 1.0,
        body_id: NULL_INDEX,
        flags: 0,
    };
}

/// The velocity state of an awake body: all the constraint solver touches.
/// Exactly 32 bytes so that two fit a cache line half.
#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(C)]
pub(crate) struct BodyState {
    /// Velocity of the centre of mass, m/s.
    pub linear_velocity: Vec2,
    /// Angular velocity, rad/s.
    pub angular_velocity: f32,
    pub flags: u32,
    /// Translation of the centre of mass since the start of the step, metres.
    pub delta_position: Vec2,
    /// Rotation since the start of the step.
    pub delta_rotation: Rot,
}

const _: () = assert!(std::mem::size_of::<BodyState>() == 32);

impl BodyState {
    /// A body at rest with no motion this step (also stands in for static bodies).
    pub const IDENTITY: BodyState = BodyState {
        linear_velocity: Vec2::ZERO,
        angular_velocity: 0.0,
        flags: 0,
        delta_position: Vec2::ZERO,
        delta_rotation: Rot::IDENTITY,
    };
}

/// The state a body that is not awake (static, or asleep in another set)
/// stands in with: at rest, not moved this step.
const RESTING: &BodyState = &BodyState::IDENTITY;

/// Reads a body's state from the solver's array, or [`RESTING`] for
/// `NULL_INDEX` (a body that is not awake). One comparison: `NULL_INDEX` lies
/// past the end of any state array, and a prepared constraint holds no other
/// index past it, so the state is picked without a branch and read field by
/// field as the solver uses it.
#[inline(always)]
pub(crate) fn load(states: &[BodyState], index: u32) -> BodyState {
    debug_assert!(index == NULL_INDEX || (index as usize) < states.len());
    *states.get(index as usize).unwrap_or(RESTING)
}

/// Writes back the velocities of an awake dynamic body (never a static or
/// kinematic one: see [`flags::DYNAMIC`]), with one comparison for the index
/// (see [`load`]).
#[inline(always)]
pub(crate) fn store(states: &mut [BodyState], index: u32, v: Vec2, w: f32) {
    debug_assert!(index == NULL_INDEX || (index as usize) < states.len());
    if let Some(s) = states.get_mut(index as usize)
        && s.flags & flags::DYNAMIC != 0
    {
        s.linear_velocity = v;
        s.angular_velocity = w;
    }
}

fn def_flags(def: &BodyDef) -> u32 {
    let mut f = 0;
    if def.motion_locks.linear_x {
        f |= flags::LOCK_LINEAR_X;
    }
    if def.motion_locks.linear_y {
        f |= flags::LOCK_LINEAR_Y;
    }
    if def.motion_locks.angular_z {
        f |= flags::LOCK_ANGULAR_Z;
    }
    if def.is_bullet {
        f |= flags::IS_BULLET;
    }
    if def.allow_fast_rotation {
        f |= flags::ALLOW_FAST_ROTATION;
    }
    if def.body_type == BodyType::Dynamic {
        f |= flags::DYNAMIC;
    }
    f
}

impl World {
    /// The sim of a body, wherever it lives.
    #[inline]
    pub(crate) fn body_sim(&self, body_index: usize) -> &BodySim {
        self.bodies[body_index].sim(&self.solver_sets)
    }

    #[inline]
    pub(crate) fn body_sim_mut(&mut self, body_index: usize) -> &mut BodySim {
        let b = &self.bodies[body_index];
        &mut self.solver_sets[b.set_index as usize].body_sims[b.local_index as usize]
    }

    /// The velocity state of an awake body.
    #[inline]
    pub(crate) fn body_state_mut(&mut self, body_index: usize) -> Option<&mut BodyState> {
        let b = &self.bodies[body_index];
        if b.set_index == AWAKE_SET {
            Some(&mut self.solver_sets[AWAKE_SET as usize].body_states[b.local_index as usize])
        } else {
            None
        }
    }

    #[inline]
    pub(crate) fn body_state(&self, body_index: usize) -> Option<&BodyState> {
        let b = &self.bodies[body_index];
        if b.set_index == AWAKE_SET {
            Some(&self.solver_sets[AWAKE_SET as usize].body_states[b.local_index as usize])
        } else {
            None
        }
    }

    /// The sim and velocity state of an awake body, both writable.
    #[inline]
    pub(crate) fn awake_sim_and_state(
        &mut self,
        body_index: usize,
    ) -> (&mut BodySim, &mut BodyState) {
        let b = &self.bodies[body_index];
        debug_assert_eq!(b.set_index, AWAKE_SET);
        let set = &mut self.solver_sets[AWAKE_SET as usize];
        let local = b.local_index as usize;
        (&mut set.body_sims[local], &mut set.body_states[local])
    }

    /// The indices of a body's shapes, newest first.
    pub(crate) fn body_shapes(&self, body_index: usize) -> impl Iterator<Item = u32> + '_ {
        linked(self.bodies[body_index].head_shape_id, |si| {
            self.shapes[si as usize].next_shape_id
        })
    }

    /// The keys (`joint << 1 | edge`) of a body's joint edges, newest first.
    pub(crate) fn body_joint_keys(&self, body_index: usize) -> impl Iterator<Item = u32> + '_ {
        linked(self.bodies[body_index].head_joint_key, |key| {
            self.joints.joints[(key >> 1) as usize].edges[(key & 1) as usize].next_key
        })
    }

    /// Creates a body after checking its definition (see
    /// [`World::create_body`]).
    pub(crate) fn add_body(&mut self, def: &BodyDef) -> Result<BodyId> {
        def.validate()?;
        self.note_structure_change();

        let is_awake = (def.is_awake || !def.enable_sleep) && def.is_enabled;
        let set_index = if !def.is_enabled {
            DISABLED_SET
        } else if def.body_type == BodyType::Static {
            STATIC_SET
        } else if is_awake {
            AWAKE_SET
        } else {
            self.create_sleeping_set()
        };

        let body_id = self.body_ids.alloc();
        let body_flags = def_flags(def);
        let set = &mut self.solver_sets[set_index as usize];
        let local_index = set.body_sims.len() as u32;
        set.body_sims.push(BodySim {
            transform: WorldTransform::new(def.position, def.rotation),
            center: def.position,
            rotation0: def.rotation,
            center0: def.position,
            min_extent: HUGE,
            linear_damping: def.linear_damping,
            angular_damping: def.angular_damping,
            gravity_scale: def.gravity_scale,
            body_id,
            flags: body_flags,
            ..BodySim::REST
        });
        if set_index == AWAKE_SET {
            let mut state = BodyState::IDENTITY;
            if def.body_type != BodyType::Static {
                state.linear_velocity = def.linear_velocity;
                state.angular_velocity = def.angular_velocity;
            }
            state.flags = body_flags;
            set.body_states.push(state);
        }

        if body_id as usize == self.bodies.len() {
            self.bodies.push(Body::default());
        }
        let body = &mut self.bodies[body_id as usize];
        debug_assert_eq!(body.id, NULL_INDEX);
        let generation = body.generation.wrapping_add(1);
        *body = Body {
            name: def.name.clone(),
            user_data: def.user_data,
            set_index,
            local_index,
            sleep_threshold: def.sleep_threshold,
            safety_factor: def.safety_factor,
            enable_contact_recycling: def.enable_contact_recycling,
            id: body_id,
            generation,
            body_type: def.body_type,
            enable_sleep: def.enable_sleep,
            flags: body_flags,
            ..Body::default()
        };

        if set_index >= AWAKE_SET {
            self.create_island_for_body(set_index, body_id);
        }
        // A dynamic body always has mass (1 kg until shapes give it more).
        self.update_body_mass_data(body_id as usize);
        Ok(self.make_body_id(body_id))
    }

    /// Destroys body `bi` with its joints, shapes, chains and contacts,
    /// waking the bodies that were touching it.
    pub(crate) fn remove_body(&mut self, bi: usize) {
        self.note_structure_change();
        self.destroy_body_joints(bi); // joints: destroyed with the body
        self.destroy_body_contacts(bi, true);

        // Shapes and their proxies.
        let mut shape_id = self.bodies[bi].head_shape_id;
        while shape_id != NULL_INDEX {
            let next = self.shapes[shape_id as usize].next_shape_id;
            self.destroy_shape_proxy(shape_id as usize);
            self.free_shape_slot(shape_id);
            shape_id = next;
        }
        // Chains (their segments were among the shapes above).
        let mut chain_id = self.bodies[bi].head_chain_id;
        while chain_id != NULL_INDEX {
            let chain = &mut self.chains[chain_id as usize];
            let next = chain.next_chain_id;
            chain.free();
            self.chain_ids.free(chain_id);
            chain_id = next;
        }

        self.remove_body_from_island(bi);

        let (set_index, local_index) = (self.bodies[bi].set_index, self.bodies[bi].local_index);
        self.remove_body_sim(set_index, local_index);
        if set_index >= FIRST_SLEEPING_SET
            && self.solver_sets[set_index as usize].body_sims.is_empty()
        {
            self.destroy_solver_set(set_index);
        }

        self.body_ids.free(bi as u32);
        let body = &mut self.bodies[bi];
        body.id = NULL_INDEX;
        body.set_index = NULL_INDEX;
        body.local_index = NULL_INDEX;
        body.head_shape_id = NULL_INDEX;
        body.head_chain_id = NULL_INDEX;
        body.shape_count = 0;
        body.name = String::new();
    }

    /// Removes a body's sim (and state, in the awake set) from a set by swap
    /// removal, fixing the index of the body that moved into its place.
    pub(crate) fn remove_body_sim(&mut self, set_index: u32, local_index: u32) {
        let set = &mut self.solver_sets[set_index as usize];
        let li = local_index as usize;
        set.body_sims.swap_remove(li);
        if set_index == AWAKE_SET {
            set.body_states.swap_remove(li);
        }
        if li < set.body_sims.len() {
            let moved = set.body_sims[li].body_id as usize;
            self.bodies[moved].local_index = local_index;
        }
    }

    /// Destroys every contact of a body; `wake` wakes the bodies that were touching.
    pub(crate) fn destroy_body_contacts(&mut self, body_index: usize, wake: bool) {
        let mut edges = ContactEdges::of(&self.bodies[body_index]);
        while let Some((contact_id, _)) = edges.next(&self.contacts) {
            self.destroy_contact(contact_id, wake);
        }
    }

    /// Teleports body `bi`: sets the transform of its origin, updates its
    /// broad-phase boxes and wakes it (a static body wakes the bodies touching
    /// it). Contacts are updated at the next step.
    pub(crate) fn teleport_body(&mut self, bi: usize, position: Pos, rotation: Rot) -> Result<()> {
        check_position(position, "body position")?;
        check_rotation(rotation, "body rotation")?;

        if self.bodies[bi].body_type == BodyType::Static {
            self.wake_touching_bodies(bi);
        } else {
            self.wake_body(bi);
        }

        let sim = self.body_sim_mut(bi);
        sim.transform = WorldTransform::new(position, rotation);
        sim.center = sim.transform.apply(sim.local_center);
        sim.rotation0 = rotation;
        sim.center0 = sim.center;
        let transform = sim.transform;

        let mut shape_id = self.bodies[bi].head_shape_id;
        while shape_id != NULL_INDEX {
            self.refresh_shape_aabb(shape_id as usize, transform, true);
            shape_id = self.shapes[shape_id as usize].next_shape_id;
        }
        Ok(())
    }

    /// Wakes body `bi` when `wake` is set; returns whether it is awake (forces
    /// and impulses only act on awake bodies).
    pub(crate) fn force_target(&mut self, bi: usize, wake: bool) -> bool {
        if wake {
            self.wake_body(bi);
        }
        self.bodies[bi].set_index == AWAKE_SET
    }

    /// Overrides the mass computed from the shapes (dynamic bodies only).
    pub(crate) fn override_body_mass(&mut self, bi: usize, mass_data: MassData) -> Result<()> {
        // Smaller masses (subnormal numbers) have no finite inverse.
        let (mass, expected) = (mass_data.mass, ">= f32::MIN_POSITIVE (1.2e-38 kg)");
        check_in_range(mass, f32::MIN_POSITIVE.., "mass", expected)?;
        check_non_negative(mass_data.rotational_inertia, "rotational inertia")?;
        check_local_point(mass_data.center, "center of mass")?;
        if self.bodies[bi].body_type != BodyType::Dynamic {
            return Err(Error::InvalidOperation(
                "only dynamic bodies have mass data to set",
            ));
        }
        let locked_rotation = self.bodies[bi].flags & flags::LOCK_ANGULAR_Z != 0;
        // An inertia too small to invert counts as none (no rotation).
        let inertia = if locked_rotation || mass_data.rotational_inertia < f32::MIN_POSITIVE {
            0.0
        } else {
            mass_data.rotational_inertia
        };
        self.bodies[bi].mass = mass_data.mass;
        self.bodies[bi].inertia = inertia;
        let sim = self.body_sim_mut(bi);
        sim.inv_mass = 1.0 / mass_data.mass;
        sim.inv_inertia = if inertia > 0.0 { 1.0 / inertia } else { 0.0 };
        let old_center = sim.center;
        sim.local_center = mass_data.center;
        sim.center = sim.transform.apply(mass_data.center);
        sim.center0 = sim.center;
        let new_center = sim.center;
        self.shift_velocity_for_new_center(bi, old_center, new_center);
        self.update_body_extents(bi);
        Ok(())
    }

    /// Keeps the velocity of the body origin when the centre of mass moves.
    fn shift_velocity_for_new_center(&mut self, bi: usize, old_center: Pos, new_center: Pos) {
        if let Some(state) = self.body_state_mut(bi) {
            let w = state.angular_velocity;
            state.linear_velocity += Vec2::scalar_cross(w, new_center - old_center);
        }
    }

    /// Mass, centre of mass, inertia and extents from the shapes.
    pub(crate) fn update_body_mass_data(&mut self, bi: usize) {
        let body_type = self.bodies[bi].body_type;
        {
            let body = &mut self.bodies[bi];
            body.mass = 0.0;
            body.inertia = 0.0;
        }
        let sim = self.body_sim_mut(bi);
        sim.inv_mass = 0.0;
        sim.inv_inertia = 0.0;
        sim.local_center = Vec2::ZERO;

        if body_type != BodyType::Dynamic {
            sim.center = sim.transform.p;
            sim.center0 = sim.center;
            self.update_body_extents(bi);
            return;
        }

        // Sum mass, first moment and inertia about the body origin.
        let mut mass = 0.0f32;
        let mut moment = Vec2::ZERO;
        let mut origin_inertia = 0.0f32;
        let mut shape_id = self.bodies[bi].head_shape_id;
        while shape_id != NULL_INDEX {
            let shape = &self.shapes[shape_id as usize];
            shape_id = shape.next_shape_id;
            if shape.density == 0.0 {
                continue;
            }
            let md = shape.compute_mass();
            mass += md.mass;
            moment = Vec2::mul_add(moment, md.mass, md.center);
            origin_inertia += md.rotational_inertia + md.mass * md.center.dot(md.center);
        }

        // Each shape's mass data is finite (checked when its density is
        // set), but a sum can still overflow: several shapes near f32::MAX
        // kg, or a huge mass far from the origin. Such a total counts as
        // none, like one too small to invert, rather than leave a NaN centre.
        if !(mass.is_finite() && moment.is_finite() && origin_inertia.is_finite()) {
            mass = 0.0;
            moment = Vec2::ZERO;
            origin_inertia = 0.0;
        }
        let mut local_center = Vec2::ZERO;
        // A mass too small to invert in f32 (tiny densities) counts as none.
        let (inv_mass, mass) = if mass >= f32::MIN_POSITIVE {
            local_center = moment * (1.0 / mass);
            (1.0 / mass, mass)
        } else {
            // A dynamic body needs mass; default to 1 kg at the origin.
            (1.0, 1.0)
        };
        let locked_rotation = self.bodies[bi].flags & flags::LOCK_ANGULAR_Z != 0;
        let mut inertia = origin_inertia - mass * local_center.dot(local_center);
        if locked_rotation || inertia < f32::MIN_POSITIVE || origin_inertia == 0.0 {
            inertia = 0.0;
        }
        self.bodies[bi].mass = mass;
        self.bodies[bi].inertia = inertia;
        let sim = self.body_sim_mut(bi);
        sim.inv_mass = inv_mass;
        sim.inv_inertia = if inertia > 0.0 { 1.0 / inertia } else { 0.0 };
        let old_center = sim.center;
        sim.local_center = local_center;
        sim.center = sim.transform.apply(local_center);
        sim.center0 = sim.center;
        let new_center = sim.center;
        self.shift_velocity_for_new_center(bi, old_center, new_center);
        self.update_body_extents(bi);
    }

    /// Minimum and maximum extents of the shapes about the centre of mass.
    fn update_body_extents(&mut self, bi: usize) {
        let local_center = self.body_sim(bi).local_center;
        let mut min_extent = HUGE;
        let mut max_extent = 0.0f32;
        let mut shape_id = self.bodies[bi].head_shape_id;
        while shape_id != NULL_INDEX {
            let shape = &self.shapes[shape_id as usize];
            let (lo, hi) = shape.extent(local_center);
            min_extent = min_extent.min(lo);
            max_extent = max_extent.max(hi);
            shape_id = shape.next_shape_id;
        }
        let sim = self.body_sim_mut(bi);
        sim.min_extent = min_extent;
        sim.max_extent = max_extent;
    }

    /// Puts the island of awake body `bi` to sleep at once (splitting it first
    /// when it may have fallen apart, so that only this body's part sleeps).
    pub(crate) fn sleep_body_island(&mut self, bi: usize) {
        if self.bodies[bi].set_index != AWAKE_SET {
            return;
        }
        let island_id = self.bodies[bi].island_id;
        if self.islands[island_id as usize].constraint_remove_count > 0 {
            self.split_island(island_id);
        }
        let island_id = self.bodies[bi].island_id;
        self.try_sleep_island(island_id);
    }

    /// Removes body `bi` from the simulation (it keeps its shapes and
    /// transform). Bodies that were touching it are woken.
    pub(crate) fn disable_body_at(&mut self, bi: usize) {
        self.note_structure_change();
        if self.bodies[bi].set_index == DISABLED_SET {
            return;
        }
        // Bring the body to the static or awake set first so that no sleeping
        // set is left behind empty.
        self.wake_body(bi);
        self.detach_body_joints(bi); // joints: re-attached to the disabled set below
        self.destroy_body_contacts(bi, true);
        self.remove_body_from_island(bi);
        let mut shape_id = self.bodies[bi].head_shape_id;
        while shape_id != NULL_INDEX {
            self.destroy_shape_proxy(shape_id as usize);
            shape_id = self.shapes[shape_id as usize].next_shape_id;
        }
        let source = self.bodies[bi].set_index;
        self.transfer_body(DISABLED_SET, source, bi);
        self.attach_detached_joints(); // joints
    }

    /// Puts disabled body `bi` back into the simulation, awake.
    pub(crate) fn enable_body_at(&mut self, bi: usize) -> Result<()> {
        self.note_structure_change();
        if self.bodies[bi].set_index != DISABLED_SET {
            return Ok(());
        }
        let body_type = self.bodies[bi].body_type;
        let target = if body_type == BodyType::Static {
            STATIC_SET
        } else {
            AWAKE_SET
        };
        self.detach_body_joints(bi); // joints: re-attached below
        self.transfer_body(target, DISABLED_SET, bi);
        let transform = self.body_sim(bi).transform;
        let mut shape_id = self.bodies[bi].head_shape_id;
        while shape_id != NULL_INDEX {
            self.create_shape_proxy(shape_id as usize, body_type, transform, true)?;
            shape_id = self.shapes[shape_id as usize].next_shape_id;
        }
        if target == AWAKE_SET {
            self.create_island_for_body(AWAKE_SET, bi as u32);
        }
        self.attach_detached_joints(); // joints
        Ok(())
    }

    /// Changes body `bi` between static, kinematic and dynamic. Its contacts
    /// are destroyed and recreated at the next step; mass is recomputed.
    pub(crate) fn change_body_type(&mut self, bi: usize, body_type: BodyType) -> Result<()> {
        self.note_structure_change();
        let original = self.bodies[bi].body_type;
        if original == body_type {
            return Ok(());
        }
        if self.bodies[bi].set_index == DISABLED_SET {
            self.bodies[bi].body_type = body_type;
            self.set_dynamic_flag(bi, body_type == BodyType::Dynamic);
            self.update_body_mass_data(bi);
            return Ok(());
        }

        self.destroy_body_contacts(bi, false);
        self.wake_body(bi);
        self.detach_body_joints(bi); // joints: re-attached below for the new type
        self.bodies[bi].body_type = body_type;
        self.set_dynamic_flag(bi, body_type == BodyType::Dynamic);

        if original == BodyType::Static {
            self.transfer_body(AWAKE_SET, STATIC_SET, bi);
            self.create_island_for_body(AWAKE_SET, bi as u32);
        } else if body_type == BodyType::Static {
            self.remove_body_from_island(bi);
            self.transfer_body(STATIC_SET, AWAKE_SET, bi);
        }

        // Proxies live in one tree per body type: move them.
        let transform = self.body_sim(bi).transform;
        let mut shape_id = self.bodies[bi].head_shape_id;
        while shape_id != NULL_INDEX {
            self.destroy_shape_proxy(shape_id as usize);
            self.create_shape_proxy(shape_id as usize, body_type, transform, true)?;
            shape_id = self.shapes[shape_id as usize].next_shape_id;
        }
        self.update_body_mass_data(bi);
        self.attach_detached_joints(); // joints
        Ok(())
    }

    /// Sets or clears [`flags::DYNAMIC`] on the body, its sim and its state.
    fn set_dynamic_flag(&mut self, bi: usize, dynamic: bool) {
        self.set_body_flags(bi, flags::DYNAMIC, dynamic);
    }

    /// Sets (`on`) or clears the bits `mask` on the body, its sim and its state.
    pub(crate) fn set_body_flags(&mut self, bi: usize, mask: u32, on: bool) {
        let set = |f: &mut u32| {
            if on {
                *f |= mask;
            } else {
                *f &= !mask;
            }
        };
        set(&mut self.bodies[bi].flags);
        set(&mut self.body_sim_mut(bi).flags);
        let body = &self.bodies[bi];
        if body.set_index == AWAKE_SET {
            let local = body.local_index as usize;
            set(&mut self.solver_sets[AWAKE_SET as usize].body_states[local].flags);
        }
    }

    /// Wakes the body's solver set if it is sleeping. Returns whether it woke.
    pub(crate) fn wake_body(&mut self, bi: usize) -> bool {
        let set_index = self.bodies[bi].set_index;
        if set_index >= FIRST_SLEEPING_SET {
            self.wake_solver_set(set_index);
            true
        } else {
            false
        }
    }

    /// Wakes every body touching this one.
    pub(crate) fn wake_touching_bodies(&mut self, bi: usize) {
        let mut edges = ContactEdges::of(&self.bodies[bi]);
        while let Some((contact_id, edge)) = edges.next(&self.contacts) {
            let other = self.contacts[contact_id as usize].edges[edge ^ 1].body_id as usize;
            self.wake_body(other);
        }
    }
}

/// The keys of a linked list from `head` to `NULL_INDEX`, `next` giving the
/// key after each.
fn linked(head: u32, next: impl Fn(u32) -> u32) -> impl Iterator<Item = u32> {
    std::iter::successors((head != NULL_INDEX).then_some(head), move |&key| {
        let n = next(key);
        (n != NULL_INDEX).then_some(n)
    })
}
