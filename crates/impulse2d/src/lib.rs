//! # Impulse2D
//!
//! A 2D rigid-body physics engine built on the algorithms of Box2D v3: soft-step
//! constraint solving, speculative contacts, continuous collision by time of impact
//! and a dynamic AABB tree broad phase. Everything is `f32`, 2D and deterministic:
//! the same inputs give the same bits on every platform.
//!
//! Units are SI throughout: metres, kilograms, seconds, radians.
//!
//! The [`collision`] module is the world-free collision layer.

#![forbid(unsafe_code)]

pub mod body;
pub mod broad_phase;
pub mod collision;
pub mod core;
pub mod error;
pub mod math;

pub use body::BodyType;
pub use error::{Error, Result};
pub use math::{Mat22, Rot, Sweep, Transform, Vec2};
