//! # bevy_impulse2d
//!
//! A [Bevy](https://bevy.org) plugin for [`impulse2d`], a deterministic 2D rigid-body
//! physics engine built on Box2D v3's algorithms.
//!
//! Add [`Impulse2dPlugin`], then spawn entities with a [`RigidBody`], a [`Transform`]
//! and a [`Collider`] (metres, radians, y up). The plugin runs in Bevy's `FixedUpdate`
//! in the public system sets [`PhysicsSystems`]: it creates, changes and destroys bodies,
//! colliders and joints to follow the entities, steps the world, writes poses back to
//! `Transform` (interpolated between fixed steps for rendering) and sends contact,
//! sensor, hit and joint events as Bevy messages. Despawning an entity destroys its
//! body (and so its joints) or collider or joint. [`PhysicsQuery`] casts rays and shapes
//! and finds overlaps from any system; [`PointerDrag`] pulls bodies with a mouse joint.
//!
//! ```no_run
//! use bevy::prelude::*;
//! use bevy_impulse2d::prelude::*;
//!
//! fn setup(mut commands: Commands) {
//!     commands.spawn((RigidBody::Static, Collider::rectangle(20.0, 1.0)));
//!     commands.spawn((
//!         RigidBody::Dynamic,
//!         Collider::circle(0.5),
//!         Transform::from_xyz(0.0, 4.0, 0.0),
//!     ));
//! }
//!
//! fn report(mut started: MessageReader<CollisionStarted>) {
//!     for m in started.read() {
//!         println!("{:?} touches {:?}", m.collider_a, m.collider_b);
//!     }
//! }
//!
//! App::new()
//!     .add_plugins((MinimalPlugins, Impulse2dPlugin::default()))
//!     .add_systems(Startup, setup)
//!     .add_systems(FixedUpdate, report.after(PhysicsSystems::Events))
//!     .run();
//! ```
//!
//! With the `debug-draw` feature, [`Impulse2dDebugPlugin`] draws shapes and joints with
//! Bevy's gizmos.

mod components;
#[cfg(feature = "debug-draw")]
mod debug;
mod drag;
mod hierarchy;
mod query;
mod systems;

use std::collections::BTreeMap;

use bevy::app::{FixedUpdate, RunFixedMainLoop, RunFixedMainLoopSystems};
use bevy::ecs::schedule::SystemSet;
use bevy::prelude::*;
use impulse2d as i2;

pub use components::*;
#[cfg(feature = "debug-draw")]
pub use debug::{DebugDrawOptions, Impulse2dDebugPlugin, draw_world};
pub use drag::PointerDrag;
pub use impulse2d;
pub use query::{PhysicsQuery, RayHit, ShapeHit};

/// The plugin's types in one import.
pub mod prelude {
    pub use crate::{
        BodyHandle, Ccd, Collider, ColliderHandle, CollisionEnded, CollisionFilter,
        CollisionStarted, ContactHit, Damping, ExternalForce, ExternalImpulse, GravityScale,
        HitEvents, Impulse2dPlugin, Joint, JointBroken, JointDef, JointEvent, JointHandle,
        LockedAxes, Material, PhysicsQuery, PhysicsSettings, PhysicsSystems, PhysicsWorld,
        PointerDrag, RigidBody, Sensor, SensorEntered, SensorExited, Sleeping, SleepingAllowed,
        Velocity,
    };
    #[cfg(feature = "debug-draw")]
    pub use crate::{DebugDrawOptions, Impulse2dDebugPlugin};
}

/// The plugin's system sets, in this order in `FixedUpdate`.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PhysicsSystems {
    /// New, changed and removed entities are carried into the physics world; forces and
    /// impulses are applied.
    Sync,
    /// One step of [`PhysicsSettings`]'s substeps over the fixed timestep.
    Step,
    /// Poses, velocities and sleep states are written back to the entities.
    Writeback,
    /// The step's events are sent as messages.
    Events,
}

/// Adds the physics world, its systems and messages. `hz` sets Bevy's fixed timestep
/// (`Time<Fixed>`); each fixed step is one physics step.
#[derive(Clone, Debug)]
pub struct Impulse2dPlugin {
    /// Fixed steps per second (default 60).
    pub hz: f64,
}

impl Default for Impulse2dPlugin {
    fn default() -> Self {
        Impulse2dPlugin { hz: 60.0 }
    }
}

/// World settings, read when the world is made and (gravity, substeps, interpolation)
/// at every step.
#[derive(Resource, Clone, Debug)]
pub struct PhysicsSettings {
    /// m/s² (default (0, −10)).
    pub gravity: Vec2,
    /// Substeps per fixed step (default 4).
    pub substeps: u32,
    /// Threads that run a step, the calling one included; `None` (the default) takes
    /// the size of Bevy's compute task pool (1 without it), at most
    /// [`impulse2d::MAX_WORKERS`]. Read when the world is created.
    pub worker_count: Option<usize>,
    /// Whether `Transform`s are interpolated between the last two fixed steps after the
    /// fixed loop (default true); otherwise they show the last step's pose.
    pub interpolate: bool,
    /// Whether the step runs (default true).
    pub enabled: bool,
}

impl Default for PhysicsSettings {
    fn default() -> Self {
        PhysicsSettings {
            gravity: Vec2::new(0.0, -10.0),
            substeps: 4,
            worker_count: None,
            interpolate: true,
            enabled: true,
        }
    }
}

/// The physics world and which entity owns which object. `World` is `Send + Sync`, so
/// this is a plain resource; systems may read it (queries, views) or change it directly
/// (`world.body_mut(id)`, joints made by hand) between the plugin's sets.
#[derive(Resource)]
pub struct PhysicsWorld {
    /// The engine's world.
    pub world: i2::World,
    pub(crate) bodies: BTreeMap<Entity, i2::BodyId>,
    pub(crate) colliders: BTreeMap<Entity, ColliderHandle>,
    pub(crate) joints: BTreeMap<Entity, i2::JointId>,
    /// Shape → entity, kept one step after a shape is destroyed so its end events resolve.
    pub(crate) shape_entities: BTreeMap<i2::ShapeId, Entity>,
    pub(crate) joint_entities: BTreeMap<i2::JointId, Entity>,
    pub(crate) destroyed_shapes: Vec<i2::ShapeId>,
    /// Whether the world stepped since the last write-back (its body events are new).
    pub(crate) stepped: bool,
    /// Steps taken.
    pub(crate) steps: u64,
}

impl PhysicsWorld {
    /// A physics world made from `def`.
    pub fn new(def: &i2::WorldDef) -> i2::Result<PhysicsWorld> {
        Ok(PhysicsWorld {
            world: i2::World::new(def)?,
            bodies: BTreeMap::new(),
            colliders: BTreeMap::new(),
            joints: BTreeMap::new(),
            shape_entities: BTreeMap::new(),
            joint_entities: BTreeMap::new(),
            destroyed_shapes: Vec::new(),
            stepped: false,
            steps: 0,
        })
    }

    /// The body of `entity`, if it has one.
    pub fn body(&self, entity: Entity) -> Option<i2::BodyId> {
        self.bodies.get(&entity).copied()
    }

    /// The entity whose collider is `shape` (also for a shape of a chain).
    pub fn shape_entity(&self, shape: i2::ShapeId) -> Option<Entity> {
        self.shape_entities.get(&shape).copied()
    }

    /// The entity that owns `body`.
    pub fn body_entity(&self, body: i2::BodyId) -> Option<Entity> {
        let bits = self.world.body(body).ok()?.user_data();
        Entity::try_from_bits(bits)
    }
}

/// Two colliders began touching.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct CollisionStarted {
    /// One collider's entity.
    pub collider_a: Entity,
    /// The other's.
    pub collider_b: Entity,
}

/// Two colliders stopped touching (also when one was destroyed).
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct CollisionEnded {
    /// One collider's entity.
    pub collider_a: Entity,
    /// The other's.
    pub collider_b: Entity,
}

/// An impact faster than the world's hit threshold between colliders of which at least
/// one has [`HitEvents`].
#[derive(Message, Clone, Copy, Debug, PartialEq)]
pub struct ContactHit {
    /// One collider's entity.
    pub collider_a: Entity,
    /// The other's.
    pub collider_b: Entity,
    /// Where, m.
    pub point: Vec2,
    /// From a to b.
    pub normal: Vec2,
    /// m/s along the normal.
    pub approach_speed: f32,
}

/// A collider began overlapping a [`Sensor`].
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct SensorEntered {
    /// The sensor's entity.
    pub sensor: Entity,
    /// The visitor's.
    pub visitor: Entity,
}

/// A collider stopped overlapping a [`Sensor`].
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct SensorExited {
    /// The sensor's entity.
    pub sensor: Entity,
    /// The visitor's.
    pub visitor: Entity,
}

/// A joint's reaction passed its threshold, or the joint broke (it is destroyed, and the
/// plugin replaces the entity's [`JointHandle`] with [`JointBroken`]), or one of its
/// bodies was destroyed.
#[derive(Message, Clone, Copy, Debug, PartialEq)]
pub struct JointEvent {
    /// The joint's entity.
    pub joint: Entity,
    /// What happened.
    pub kind: i2::JointEventKind,
    /// N.
    pub force: f32,
    /// N·m.
    pub torque: f32,
}

impl Plugin for Impulse2dPlugin {
    fn build(&self, app: &mut App) {
        app.insert_resource(Time::<Fixed>::from_hz(self.hz))
            .init_resource::<PhysicsSettings>()
            .add_message::<CollisionStarted>()
            .add_message::<CollisionEnded>()
            .add_message::<ContactHit>()
            .add_message::<SensorEntered>()
            .add_message::<SensorExited>()
            .add_message::<JointEvent>()
            .configure_sets(
                FixedUpdate,
                (
                    PhysicsSystems::Sync,
                    PhysicsSystems::Step,
                    PhysicsSystems::Writeback,
                    PhysicsSystems::Events,
                )
                    .chain(),
            )
            .add_systems(
                FixedUpdate,
                (
                    (
                        systems::create_bodies,
                        systems::move_entities,
                        systems::update_colliders,
                        systems::create_colliders,
                        systems::update_joints,
                        systems::create_joints,
                        systems::apply_changes,
                    )
                        .chain()
                        .in_set(PhysicsSystems::Sync),
                    systems::step.in_set(PhysicsSystems::Step),
                    systems::writeback.in_set(PhysicsSystems::Writeback),
                    systems::send_events.in_set(PhysicsSystems::Events),
                ),
            )
            .add_systems(
                RunFixedMainLoop,
                systems::interpolate.in_set(RunFixedMainLoopSystems::AfterFixedMainLoop),
            )
            .add_observer(systems::on_remove::<RigidBody>)
            .add_observer(systems::on_remove::<Collider>)
            .add_observer(systems::on_remove::<Joint>);
    }

    fn finish(&self, app: &mut App) {
        if app.world().contains_resource::<PhysicsWorld>() {
            return;
        }
        let settings = app.world().resource::<PhysicsSettings>().clone();
        let workers = settings.worker_count.unwrap_or_else(|| {
            bevy::tasks::ComputeTaskPool::try_get().map_or(1, |pool| pool.thread_num())
        });
        let def = i2::WorldDef {
            gravity: i2::Vec2::new(settings.gravity.x, settings.gravity.y),
            worker_count: workers.clamp(1, i2::MAX_WORKERS),
            ..Default::default()
        };
        let world = PhysicsWorld::new(&def).expect("a valid world definition");
        app.insert_resource(world);
    }
}
