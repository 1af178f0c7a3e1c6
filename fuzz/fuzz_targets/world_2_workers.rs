//! The `world` target (sequences of world API calls, see `world.rs`) on a
//! world with 2 worker threads: the parallel stages (narrow phase, solver,
//! finalize, continuous) run in blocks on two threads, with the same
//! properties to hold.
#![no_main]

// `world.rs` reads the binary's name to choose 2 workers; its own
// `#![no_main]` is redundant here.
#[allow(unused_attributes)]
#[path = "world.rs"]
mod world;
