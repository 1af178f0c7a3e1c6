//! Shared test support: Box2D glue and random case generation.

pub mod box2d;
pub mod fuzz_cases;
pub mod reference;
pub mod rng;
pub mod shapes;
