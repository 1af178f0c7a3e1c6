//! Time spent in each stage of the last step, in milliseconds.
//!
//! Measured with `std::time::Instant`; reading the clock does not affect the
//! simulation, so results stay deterministic.

/// Milliseconds per stage of the last [`World::step`](crate::World::step).
/// Substep stages are summed over the substeps.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Profile {
    /// The whole step.
    pub step: f32,
    /// Broad phase: new pairs and contact creation.
    pub pairs: f32,
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
    /// Transforms, sleep timers and shape boxes.
    pub finalize_bodies: f32,
    /// Sweeping fast bodies against static shapes.
    pub continuous: f32,
    /// Growing broad-phase proxies.
    pub enlarge_proxies: f32,
    /// Putting islands to sleep.
    pub sleep_islands: f32,
}
