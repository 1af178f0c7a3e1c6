//! # Impulse2D
//!
//! A 2D rigid-body physics engine built on the algorithms of Box2D v3: soft-step
//! constraint solving, speculative contacts, continuous collision by time of impact
//! and a dynamic AABB tree broad phase. Everything is `f32`, 2D and deterministic:
//! the same inputs give the same bits on every platform.
//!
//! Units are SI throughout: metres, kilograms, seconds, radians.
//!
//! The [`collision`] module is the world-free collision layer. A [`World`] owns
//! bodies, shapes and contacts and advances them with [`World::step`].
//!
//! Optional cargo features: `glam` and `mint` (conversions of the math types)
//! and `serde` (serialisation of math, geometry, ids and every `*Def`); see
//! [`interop`].
//!
//! ```
//! use impulse2d::{BodyDef, BodyType, ShapeDef, Vec2, World, WorldDef};
//! use impulse2d::collision::make_box;
//!
//! let mut world = World::new(&WorldDef::default()).unwrap();
//! let ground = world.create_body(&BodyDef::default()).unwrap();
//! world.create_polygon_shape(ground, &ShapeDef::default(), &make_box(10.0, 1.0).unwrap()).unwrap();
//! let body = world
//!     .create_body(&BodyDef {
//!         body_type: BodyType::Dynamic,
//!         position: Vec2::new(0.0, 4.0),
//!         ..Default::default()
//!     })
//!     .unwrap();
//! world.create_polygon_shape(body, &ShapeDef::default(), &make_box(0.5, 0.5).unwrap()).unwrap();
//! for _ in 0..120 {
//!     world.step(1.0 / 60.0, 4).unwrap();
//! }
//! let y = world.body(body).unwrap().position().y;
//! assert!((y - 1.5).abs() < 0.01);
//! ```

// `unsafe` is denied everywhere but where threads share a mutable slice whose
// parts they touch are disjoint by construction: `workers.rs` (the wrapper)
// and the few `#[allow(unsafe_code)]` functions that use it, each with a
// SAFETY comment stating why the parts are disjoint.
#![deny(unsafe_code)]

pub mod api;
pub(crate) mod bitset;
pub mod body;
mod body_motion;
pub mod broad_phase;
pub mod chain;
pub mod character;
pub mod collision;
pub mod contact;
pub mod core;
pub mod debug_draw;
pub mod error;
pub mod events;
pub mod explosion;
pub mod filter;
pub mod id;
pub mod interop;
pub mod joint;
pub mod math;
pub mod mover;
pub(crate) mod narrow_phase;
pub mod profile;
pub(crate) mod quarantine;
pub mod query;
mod sensor;
pub mod shape;
pub mod simd;
pub mod snapshot;
pub(crate) mod solver;
mod state_hash;
mod validate;
#[allow(unsafe_code)]
pub(crate) mod workers;
pub mod world;

pub use api::{
    BodyMut, BodyRef, BodyView, ChainMut, ChainRef, ChainView, JointMut, JointRef, JointView,
    ShapeMut, ShapeRef, ShapeView,
};
pub use body::{BodyDef, BodyType, MotionLocks};
pub use chain::ChainDef;
pub use character::{CharacterController, CharacterDef, Ground};
pub use contact::{ContactData, MixingFn, MixingRule};
pub use debug_draw::{DebugDraw, DrawOptions, HexColor, Palette};
pub use error::{Error, Result};
pub use events::{
    BodyMoveEvent, BodyQuarantineEvent, ContactBeginTouchEvent, ContactEndTouchEvent,
    ContactEvents, ContactHitEvent, QuarantineReason, SensorBeginTouchEvent, SensorEndTouchEvent,
    SensorEvents,
};
pub use explosion::ExplosionDef;
pub use filter::{CustomFilterFn, PreSolveFn};
pub use id::{BodyId, ChainId, ContactId, JointId, ShapeId};
pub use joint::{
    DistanceJointDef, FilterJointDef, JointDef, JointEvent, JointEventKind, JointType,
    MotorJointDef, MouseJointDef, MoverJointDef, PogoJointDef, PrismaticJointDef, RevoluteJointDef,
    WeldJointDef, WheelJointDef,
};
pub use math::{Mat22, Rot, Sweep, Transform, Vec2};
pub use profile::Profile;
pub use query::{QueryFilter, RayResult};
pub use shape::{Filter, ShapeDef, ShapeGeometry, ShapeType, SurfaceMaterial};
pub use simd::SimdPath;
pub use snapshot::{
    Divergence, RECORDING_VERSION, Recording, Replay, ReplayStep, RollbackState, SNAPSHOT_VERSION,
    Snapshot,
};
pub use solver::TIME_TO_SLEEP;
pub use world::{Counters, MAX_WORKERS, World, WorldDef};

/// This crate's version, `major.minor.patch`.
///
/// Box2D: `b2GetVersion`.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
