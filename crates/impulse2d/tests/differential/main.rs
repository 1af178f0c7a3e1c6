//! Differential tests: the same random inputs through Impulse2D's collision layer
//! and through Box2D v3's own C functions (`boxdd-sys`, upstream revision 56edae7),
//! compared within tolerances. Every test draws at least 10,000 cases from a seeded
//! generator, so a failure is reproducible; it reports the first disagreeing inputs
//! and both outputs.
//!
//! Where Box2D's answer differs from ours on purpose, the test says why and checks
//! the property we promise instead.
//!
//! Run in release (`cargo test --release -p impulse2d --test differential`); in a
//! debug build the C library is compiled without optimisation and the suite is slow.

#[path = "../common/mod.rs"]
mod common;

mod support;

mod contact_softening;
mod distance;
mod geometry;
mod hull;
mod manifold;
mod manifold_chain;
mod mass;
mod motor_joint;
mod mover;
mod ray;
mod toi;
