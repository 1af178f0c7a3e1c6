//! Time spent in each stage of the last step, in milliseconds.
//!
//! Measured with `std::time::Instant`; reading the clock does not affect the
//! simulation, so results stay deterministic. On `wasm32-unknown-unknown`,
//! where `std::time::Instant::now` panics, the clock is the function given to
//! [`set_clock`] (a web page passes `performance.now`), and without one every
//! stage reads 0 ms.

/// Milliseconds per stage of the last [`World::step`](crate::World::step).
/// Substep stages are summed over the substeps.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Profile {
    /// The whole step.
    pub step: f32,
    /// Broad phase: new pairs and contact creation.
    pub pairs: f32,
    /// Rebuilding the broad phase's dynamic and kinematic trees after the
    /// pair search (see `BroadPhase::rebuild_trees`): its serial top, which one
    /// thread builds in [`solve`](Self::solve) beside the constraint stages
    /// (after them on one worker) but outside their timers, plus its subtree
    /// tasks, which run in the finalize stage (their times summed over the
    /// threads, also inside [`finalize_bodies`](Self::finalize_bodies)), plus
    /// its finish. Box2D counts its rebuild in its `pairs`.
    pub rebuild_trees: f32,
    /// Narrow phase: manifolds and contact state changes.
    pub collide: f32,
    /// Everything in the solver (the stages below).
    pub solve: f32,
    /// Splitting the island chosen last step.
    pub split_islands: f32,
    /// Building the contact constraints.
    pub prepare_constraints: f32,
    /// Gravity, forces and damping.
    pub integrate_velocities: f32,
    /// Applying last step's impulses.
    pub warm_start: f32,
    /// Solving with position bias.
    pub solve_impulses: f32,
    /// Advancing the position deltas.
    pub integrate_positions: f32,
    /// Solving without bias.
    pub relax_impulses: f32,
    /// Restitution.
    pub restitution: f32,
    /// Saving impulses for warm starting.
    pub store_impulses: f32,
    /// Transforms, sleep timers and shape boxes, and the sweeps of fast
    /// bodies (not bullets) against static shapes; the same stage runs the
    /// tree rebuild's subtree tasks (see [`rebuild_trees`](Self::rebuild_trees)).
    pub finalize_bodies: f32,
    /// Sweeping fast bullets against the other bodies (fast bodies that are
    /// not bullets are swept against static shapes inside
    /// [`finalize_bodies`](Self::finalize_bodies), as Box2D does in its
    /// `transforms` stage).
    pub continuous: f32,
    /// Growing broad-phase proxies.
    pub enlarge_proxies: f32,
    /// Putting islands to sleep.
    pub sleep_islands: f32,
    /// Time inside parallel regions: the stages whose blocks the workers share
    /// (narrow phase, constraint solve, finalize, continuous), less the
    /// overflow colours, which one thread solves. On one worker,
    /// `1 - parallel / step` is the serial fraction of the step, the part that
    /// more threads cannot shorten (Amdahl's law).
    pub parallel: f32,
}

/// Sets the millisecond clock the profile reads on targets without
/// `std::time::Instant` (`wasm32-unknown-unknown`): any monotonic function
/// returning milliseconds, such as JavaScript's `performance.now()`. Elsewhere
/// it is ignored and `std::time::Instant` is used. Only the first call counts.
pub fn set_clock(clock: fn() -> f64) {
    let _ = WEB_CLOCK.set(clock);
}

static WEB_CLOCK: std::sync::OnceLock<fn() -> f64> = std::sync::OnceLock::new();

#[cfg(not(all(target_family = "wasm", target_os = "unknown")))]
pub(crate) use std::time::Instant;

/// A point in time read from the clock given to [`set_clock`] (0 without one).
#[cfg(all(target_family = "wasm", target_os = "unknown"))]
#[derive(Clone, Copy, Debug)]
pub(crate) struct Instant(f64);

#[cfg(all(target_family = "wasm", target_os = "unknown"))]
impl Instant {
    /// Now, in the clock's milliseconds.
    pub(crate) fn now() -> Instant {
        Instant(WEB_CLOCK.get().map_or(0.0, |clock| clock()))
    }

    /// Time since `self` (zero if the clock went backwards or is not finite).
    pub(crate) fn elapsed(&self) -> std::time::Duration {
        Instant::now() - *self
    }
}

#[cfg(all(target_family = "wasm", target_os = "unknown"))]
impl std::ops::Sub for Instant {
    type Output = std::time::Duration;

    fn sub(self, earlier: Instant) -> std::time::Duration {
        let ms = self.0 - earlier.0;
        if ms.is_finite() && ms > 0.0 {
            std::time::Duration::from_secs_f64(ms / 1000.0)
        } else {
            std::time::Duration::ZERO
        }
    }
}
