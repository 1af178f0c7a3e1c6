//! Rigid bodies.

/// How a body moves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum BodyType {
    /// Zero mass, zero velocity, moved only by the user.
    #[default]
    Static = 0,
    /// Zero mass, velocity set by the user, moved by the solver.
    Kinematic = 1,
    /// Positive mass, velocity determined by forces, moved by the solver.
    Dynamic = 2,
}

impl BodyType {
    /// The number of body types.
    pub const COUNT: usize = 3;
}
