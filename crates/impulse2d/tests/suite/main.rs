//! Most of impulse2d's integration tests, as modules of one test binary
//! (one link instead of one per file): `cargo test --release -p impulse2d --test suite`,
//! or `-- far_scenes::` for one module's tests. Each module keeps its own helpers
//! (`#[path]` modules from `tests/common/`). The allocation-counting tests, which
//! install a global allocator, `interop` (optional features) and `differential`
//! (against Box2D's C) are binaries of their own.

// Test support shared by the modules (each module `use`s what it needs).
#[path = "../common/box2d_world.rs"]
mod box2d_world;
#[path = "../common/build.rs"]
mod build;
#[path = "../common/mod.rs"]
mod common;
#[path = "../common/far.rs"]
mod far_figures;
#[path = "../common/slab.rs"]
mod slab;
#[path = "../stepping/mod.rs"]
mod stepping;

mod api_body;
mod broad_phase;
mod callback_panics;
mod character;
mod collision_f64;
mod continuous_bullets;
mod continuous_pre_solve;
mod corner_rest;
mod distance_props;
mod events_contact;
mod events_filter;
mod events_sensor;
mod events_soak;
mod far;
mod far_contact_points;
mod far_scenes;
mod fast_pairs;
mod fuzz_regressions;
mod geometry_props;
mod joint_trees;
mod joints;
mod limits;
mod manifold_props;
mod positions;
mod quarantine;
mod queries;
mod relax_friction;
mod simd;
mod snapshot;
mod state_hash;
mod threads;
mod tile_map;
mod world_api;
mod world_contact;
mod world_continuous;
mod world_motion;
mod world_settings;
mod world_stacking;
