//! # Impulse2D
//!
//! A 2D rigid-body physics engine built on the algorithms of Box2D v3: soft-step
//! constraint solving, speculative contacts, continuous collision by time of impact
//! and a dynamic AABB tree broad phase. Everything is `f32`, 2D and deterministic:
//! the same inputs give the same bits on every platform and any number of threads.
//! Units are SI throughout: metres, kilograms, seconds, radians.
//!
//! ```
//! use impulse2d::collision::make_box;
//! use impulse2d::{BodyDef, BodyType, Pos, ShapeDef, World, WorldDef};
//!
//! let mut world = World::new(&WorldDef::default()).unwrap();
//! let ground = world.create_body(&BodyDef::default()).unwrap(); // static at the origin
//! world.create_polygon_shape(ground, &ShapeDef::default(), &make_box(10.0, 1.0).unwrap()).unwrap();
//! let body = world
//!     .create_body(&BodyDef {
//!         body_type: BodyType::Dynamic,
//!         position: Pos::new(0.0, 4.0),
//!         ..Default::default()
//!     })
//!     .unwrap();
//! world.create_polygon_shape(body, &ShapeDef::default(), &make_box(0.5, 0.5).unwrap()).unwrap();
//! for _ in 0..120 {
//!     world.step(1.0 / 60.0, 4).unwrap(); // 1/60 s in 4 substeps
//! }
//! // The box rests on the ground (top at y = 1) with its centre 0.5 m above it.
//! let y = world.body(body).unwrap().position().y;
//! assert!((y - 1.5).abs() < 0.01);
//! ```
//!
//! # A tour of the API
//!
//! - **World.** A [`World`] is made from a [`WorldDef`] (gravity, contact and joint
//!   softness, sleeping, continuous collision, threads) and advanced with
//!   [`World::step`]`(dt, substeps)`. It owns everything; objects are named by small
//!   `Copy` ids ([`BodyId`], [`ShapeId`], [`JointId`], [`ChainId`]) that go stale
//!   when the object is destroyed. Creation and destruction are methods of the world
//!   (`create_body`, `create_*_shape`, `create_*_joint`, `create_chain`, `destroy_*`).
//! - **Bodies.** [`BodyDef`] gives the type ([`BodyType::Static`], `Kinematic`,
//!   `Dynamic`), pose, velocities, damping, gravity scale, motion locks, bullet
//!   (continuous collision against moving bodies) and sleep settings.
//!   `world.body(id)?` is a [`BodyRef`] that reads, `world.body_mut(id)?` a [`BodyMut`]
//!   that also changes (forces, impulses, velocities, transform, type, …). The id is
//!   checked once when the view is made: a stale id is `Err(InvalidId)`.
//! - **Shapes.** Circles, capsules, segments and convex polygons (up to 8 vertices;
//!   [`collision::make_box`], [`collision::make_rounded_box`],
//!   [`collision::make_polygon`]) attach to a body with a [`ShapeDef`]: density,
//!   friction, restitution, rolling resistance, tangent speed, collision
//!   [`Filter`], sensor flag and which events to report. Chains ([`ChainDef`]) are
//!   one-sided terrain made of chain segments. `world.shape(id)?` / `shape_mut`.
//! - **Joints.** Distance, filter, motor, mouse, mover, pogo, prismatic, revolute,
//!   weld and wheel joints, each from its `*JointDef` whose [`JointDef`] `base` names
//!   the two bodies and the local frames. `world.joint_mut(id)?` gives the common
//!   settings and the parts several types share (`.motor()?`, `.limit()?`,
//!   `.spring()?`), or a typed part (`.revolute()?`, …); a wrong type is
//!   `Err(Error::WrongJointType { .. })`. Joints can break past a force threshold.
//! - **Events.** After each step: [`World::contact_events`] (begin and end touch,
//!   hits faster than a threshold), [`World::sensor_events`] (shapes entering and
//!   leaving sensors), [`World::joint_events`] (thresholds exceeded, joints broken)
//!   and [`World::body_events`] (bodies that moved, for syncing a renderer).
//!   Pre-solve, custom-filter and friction/restitution callbacks run during the step.
//! - **Queries.** [`World::overlap_aabb`], [`World::overlap_shape`],
//!   [`World::cast_ray`], [`World::cast_ray_closest`] and [`World::cast_shape`], each
//!   with a [`QueryFilter`]; a [`CharacterController`] and the mover functions move
//!   a capsule through the world without a body.
//! - **Threads.** [`WorldDef::worker_count`] (or [`World::set_worker_count`]) runs the
//!   parallel stages of a step on that many threads, the caller's included. The
//!   worker threads live as long as the world; `World` is `Send + Sync`.
//! - **Determinism.** The same calls in the same order give the same bits whatever
//!   the thread count or SIMD path (no FMA, no hash-map order in results).
//!   [`World::state_hash`] hashes every body's motion to check it;
//!   [`World::snapshot`] / [`World::restore`] save and roll back everything that
//!   decides the future ([`Snapshot::to_bytes`] for storing or sending it).
//!
//! The [`collision`] module is the world-free collision layer (manifolds, distance,
//! time of impact, ray casts, the dynamic tree). Errors are [`Error`]: bad input
//! (NaN, stale ids, degenerate shapes) never panics and never half-changes the world.
//!
//! The tour as one program:
//!
//! ```
//! use impulse2d::collision::{Circle, make_box};
//! use impulse2d::{
//!     BodyDef, BodyType, JointDef, Pos, QueryFilter, RevoluteJointDef, ShapeDef, Vec2,
//!     World, WorldDef,
//! };
//!
//! # fn main() -> impulse2d::Result<()> {
//! // World: two of them, one on a single thread and one on four.
//! let build = |workers: usize| -> impulse2d::Result<_> {
//!     let mut world = World::new(&WorldDef { worker_count: workers, ..Default::default() })?;
//!
//!     // Bodies and shapes: a static ground, a sensor above it, a falling ball.
//!     let ground = world.create_body(&BodyDef::default())?;
//!     world.create_polygon_shape(ground, &ShapeDef::default(), &make_box(20.0, 0.5)?)?;
//!     let sensor = ShapeDef { is_sensor: true, ..Default::default() };
//!     let gate = world.create_body(&BodyDef { position: Pos::new(0.0, 3.0), ..Default::default() })?;
//!     world.create_polygon_shape(gate, &sensor, &make_box(2.0, 0.2)?)?;
//!     let ball = world.create_body(&BodyDef {
//!         body_type: BodyType::Dynamic,
//!         position: Pos::new(0.0, 6.0),
//!         ..Default::default()
//!     })?;
//!     world.create_circle_shape(ball, &ShapeDef::default(), &Circle::new(Vec2::ZERO, 0.25)?)?;
//!
//!     // Joints: a pendulum hinged 8 m up, driven by a motor.
//!     let bob = world.create_body(&BodyDef {
//!         body_type: BodyType::Dynamic,
//!         position: Pos::new(6.0, 6.0),
//!         ..Default::default()
//!     })?;
//!     world.create_polygon_shape(bob, &ShapeDef::default(), &make_box(0.25, 0.25)?)?;
//!     let hinge = world.create_revolute_joint(&RevoluteJointDef {
//!         base: JointDef {
//!             body_a: ground,
//!             body_b: bob,
//!             local_anchor_a: Vec2::new(6.0, 8.0),
//!             local_anchor_b: Vec2::new(0.0, 2.0),
//!             ..Default::default()
//!         },
//!         ..Default::default()
//!     })?;
//!     world.joint_mut(hinge)?.motor()?.enable(true);
//!     world.joint_mut(hinge)?.motor()?.set_max_force(1000.0)?; // N·m for a revolute joint
//!     world.joint_mut(hinge)?.motor()?.set_speed(1.0)?; // rad/s
//!     Ok((world, ball, gate, hinge))
//! };
//!
//! let (mut world, ball, gate, hinge) = build(1)?;
//! let (mut world4, ..) = build(4)?;
//! assert_eq!(world4.worker_count(), 4);
//!
//! // Events: the ball passes through the sensor and lands on the ground.
//! let body_of = |w: &World, shape| w.shape(shape).map(|s| s.body()).ok();
//! let (mut entered, mut landed) = (false, false);
//! for _ in 0..120 {
//!     world.step(1.0 / 60.0, 4)?;
//!     world4.step(1.0 / 60.0, 4)?;
//!     let sensed = world.sensor_events().begin;
//!     entered |= sensed.iter().any(|e| body_of(&world, e.visitor_shape_id) == Some(ball));
//!     let touched = world.contact_events().begin;
//!     landed |= touched.iter().any(|e| body_of(&world, e.shape_id_a) == Some(ball)
//!         || body_of(&world, e.shape_id_b) == Some(ball));
//! }
//! assert!(entered && landed);
//! assert!((world.body(ball)?.position().y - 0.75).abs() < 0.01); // ground top 0.5 + radius
//!
//! // Joints: the motor turned the pendulum at 1 rad/s for 2 s.
//! let angle = world.joint(hinge)?.revolute()?.angle();
//! assert!((angle - 2.0).abs() < 0.1);
//!
//! // Queries: a ray straight down from above the ball hits the ball first
//! // (sensors are not seen by queries).
//! let hit = world
//!     .cast_ray_closest(Vec2::new(0.0, 5.0), Vec2::new(0.0, -10.0), QueryFilter::default())?
//!     .expect("the ray hits the ball");
//! assert_eq!(world.shape(hit.shape_id)?.body(), ball);
//! assert!((hit.point.y - 1.0).abs() < 0.01);
//! let mut near_gate = 0;
//! let gate_box = impulse2d::collision::Aabb::new(Vec2::new(-3.0, 2.0), Vec2::new(3.0, 4.0));
//! world.overlap_aabb(gate_box, QueryFilter::default(), |_| { near_gate += 1; true })?;
//! assert_eq!(near_gate, 0); // the ball fell through; the sensor itself is not reported
//! # let _ = gate;
//!
//! // Threads and determinism: one thread or four, the same bits.
//! assert_eq!(world.state_hash(), world4.state_hash());
//! # Ok(())
//! # }
//! ```
//!
//! More: the [`api`] module (views), [`events`], [`query`], [`joint`],
//! [`snapshot`], [`character`], and the programs in the crate's `examples/` folder
//! (`cargo run --release -p impulse2d --example hello_world`, `events`, `joints`,
//! `queries`, `threads`).
//!
//! Optional cargo features: `glam` and `mint` (conversions of the math types)
//! and `serde` (serialisation of math, geometry, ids and every `*Def`); see
//! [`interop`].
//!
//! The `row-gather` feature is accepted and does nothing: the wide solver's row
//! gather it used to turn on is now always on x86-64 (each body's state read in
//! rows, two of 16 bytes or one of 32 bytes in the AVX2 build, its 16-byte
//! velocity row written whole: same bits as the lane-by-lane reference, fewer
//! instructions).

// `unsafe` is denied everywhere but in eight places, each `#[allow(unsafe_code)]`
// item with a SAFETY comment:
// - where threads share a mutable slice whose parts they touch are disjoint by
//   construction: `workers.rs` (the wrapper) and the few functions that use it,
//   each comment stating why the parts are disjoint;
// - `simd.rs`: `multiversion!` calls its x86-64-v3 build only on a CPU that
//   `SimdPath::resolve` found has it; on x86-64, the `unsafe trait Isa` and
//   `isa::Avx2::new`, the proof of those features that only that build makes;
// - `solver/contact_solver_wide/rows.rs` (x86-64): SSE/AVX loads and
//   stores of whole body states (each index checked once per constraint,
//   against the largest that `BodyIndices` keeps), the AVX gather and the
//   prepare's row loads and 8×8 transpose (`transpose_rows`), run only with
//   an `Avx2`;
// - `solver/lanes.rs` (x86-64): the AVX operations of `F256`, whose values
//   only an `Avx2` makes (`Math::ld`, `Math::splat`).
// - `collision/ray.rs` and `collision/aabb.rs` (x86-64): the SSE2 arithmetic
//   of the sharp polygon ray cast, the slab test and the tree queries' box
//   test (`mod sse2` in each), on values only; SSE2 is in every x86-64 CPU's
//   baseline.
// - `collision/ray.rs` `mod avx2` (x86-64): the AVX2 sharp polygon cast, called
//   only once AVX2 was detected; its loads read the first four of eight `Vec2`s.
// - `solver/mod.rs` `finalize_bodies`: the body move events' `set_len` after the
//   finalize blocks, which together write every slot below it.
// - `prefetch.rs` (x86-64): SSE's prefetch hint, which reads nothing the
//   program sees and cannot fault, whatever the address.
#![deny(unsafe_code)]

// Unit tests share the integration tests' scene builders, which name the crate.
#[cfg(test)]
extern crate self as impulse2d;
#[cfg(test)]
#[path = "../tests/common/build.rs"]
mod test_build;

#[macro_use]
mod defs;
#[cfg(test)]
mod test_points;

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
pub(crate) mod pair_set;
pub mod pos;
pub(crate) mod prefetch;
pub mod profile;
pub(crate) mod quarantine;
pub mod query;
mod sensor;
pub mod shape;
pub mod simd;
pub mod snapshot;
pub(crate) mod solver;
mod state_hash;
pub(crate) mod tile_map;
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
pub use pos::{Pos, WorldAabb, WorldTransform};
pub use profile::Profile;
pub use query::{QueryFilter, RayResult};
pub use shape::{Filter, ShapeDef, ShapeGeometry, ShapeType, SurfaceMaterial};
pub use simd::SimdPath;
pub use snapshot::{
    Divergence, RECORDING_VERSION, Recording, Replay, ReplayInfo, ReplayPlayer, ReplayStep,
    RollbackState, SNAPSHOT_VERSION, Snapshot,
};
pub use solver::TIME_TO_SLEEP;
pub use world::{Counters, MAX_WORKERS, World, WorldDef};

/// This crate's version, `major.minor.patch`.
///
/// Box2D: `b2GetVersion`.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
