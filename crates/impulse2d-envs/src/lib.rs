//! Gymnasium's Box2D environments on Impulse2D.
//!
//! Ports of Gymnasium's `LunarLander-v3` (discrete and continuous actions),
//! `BipedalWalker-v3` (normal and hardcore) and `CarRacing-v3` onto the
//! Impulse2D engine, behind one small [`Env`] trait, and [`VectorEnv`], which
//! steps `N` environments on worker threads with Gymnasium's autoreset rule.
//!
//! The environments keep Gymnasium's observation and action spaces, reward
//! rules, termination rules, episode limits and constants; the physics is
//! Impulse2D's (Box2D v3's solver) rather than Box2D 2.3's, so trajectories
//! differ from Gymnasium's and the environments are registered under new ids
//! by the Python package. Randomness comes from [`Rng`], a seeded PRNG of our
//! own: the same seed gives the same episode, bit for bit, on any machine and
//! any worker count (numpy's stream is not reproduced).

pub mod env;
pub mod render;
pub mod rng;
pub mod vector;

pub mod bipedal_walker;
pub mod lunar_lander;

// CarRacing (module `car_racing`) is declared below this line.
pub mod car_racing;

pub use env::{Action, ActionSpace, Env, EnvError, ObservationSpace, StepResult, check_len};
pub use rng::Rng;
pub use vector::{VectorActions, VectorEnv};
