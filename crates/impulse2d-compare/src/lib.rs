//! Box2D v3's benchmark scenes run side by side in Impulse2D, Rapier and Box2D v3 (C).
//!
//! Each scene is described once, engine-neutrally ([`desc::SceneDesc`], built by
//! [`scenes`]), and instantiated by one adapter per engine ([`engine::Engine`]). The harness
//! ([`bench`]) runs the engines interleaved in one process and reports the median ms/step
//! and a stability figure per engine ([`stability`]), so a scene that collapsed or exploded
//! cannot pass for a fast one. [`report`] prints Markdown and JSON and draws SVG charts.
//!
//! This crate is a workspace member but not a default member: plain `cargo build` and
//! `cargo test` at the root never compile Rapier or Box2D. Run it with
//! `cargo run --release -p impulse2d-compare -- --help`.
//!
//! # References
//! - Box2D v3 benchmark: `benchmark/main.c` and `shared/benchmarks.c` in erincatto/box2d.

pub mod bench;
pub mod box2d;
pub mod desc;
pub mod engine;
pub mod human;
pub mod ours;
pub mod rapier;
pub mod report;
pub mod scenes;
pub mod stability;

pub use bench::{SceneResult, run_scene};
pub use engine::{Counts, Engine, RunConfig, SaveKind, Simulation};
pub use scenes::{Scene, Size};
