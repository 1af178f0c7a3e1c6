//! Engine-wide constants, in SI units. Values follow Box2D v3, which has tuned them
//! for objects between about 0.1 m and 10 m.

/// Collision and constraint tolerance, metres. Chosen to be numerically significant
/// but visually insignificant.
pub const LINEAR_SLOP: f32 = 0.005;

/// Distance at which contact points are created before shapes touch, metres
/// (speculative contacts: the solver keeps them apart without tunnelling).
pub const SPECULATIVE_DISTANCE: f32 = 4.0 * LINEAR_SLOP;

/// The largest margin by which the broad-phase boxes of moving shapes are fattened,
/// so that slow bodies do not re-insert their proxies every step, metres. Smaller
/// shapes get [`AABB_MARGIN_FRACTION`] of their extent (as Box2D v3.2): a larger margin
/// means fewer tree updates but more pairs whose fat boxes overlap without touching.
pub const AABB_MARGIN: f32 = 0.05;

/// The broad-phase margin of a moving shape, as a fraction of its extent (the largest
/// distance from its centre to its outline), up to [`AABB_MARGIN`].
pub const AABB_MARGIN_FRACTION: f32 = 0.125;

/// The largest number of vertices a [`Polygon`](crate::collision::Polygon) can have.
pub const MAX_POLYGON_VERTICES: usize = 8;

/// Used by time of impact and the distance functions to detect a hit: a
/// fraction of the linear slop, metres.
pub const TOI_TARGET_FRACTION: f32 = 0.25;

/// A small length used as a numeric zero for geometry, metres.
pub const EPSILON_LENGTH: f32 = 1.0e-6;

/// A large length, metres (Box2D's `B2_HUGE`): the bound on shape coordinates and
/// sizes in their body's frame (a shape's geometry is local; its body may be
/// anywhere up to [`MAX_COORDINATE`]), on ray-cast fractions and on joint lengths.
pub const HUGE: f32 = 100_000.0;

/// The farthest a body may be from the origin, metres: positions given to
/// [`World::create_body`](crate::World::create_body), `set_transform` and kinematic
/// targets may lie anywhere within ±`MAX_COORDINATE` on each axis, and a step
/// that would move a body's centre of mass beyond it quarantines the body instead
/// (see [`BodyQuarantineEvent`](crate::BodyQuarantineEvent)), so every position a
/// body reaches by simulation can be set back. Box2D accepts any finite position;
/// this bound is the one place we are stricter, and only where `f32` itself gives
/// out: differences and squares of coordinates stay finite (2·1e18 squared is
/// 4e36 < 3.4e38). In `f32` a body 100 km out has positions on a 7.8 mm grid
/// (the spacing of `f32` there), so resting contacts there are coarser than at
/// the origin.
pub const MAX_COORDINATE: f32 = 1.0e18;

/// The largest substep count [`World::step`](crate::World::step) accepts. More
/// substeps than this only burn time (at 60 Hz a substep would be shorter than
/// 16 µs); a larger count is an error rather than a step that never ends.
pub const MAX_SUB_STEPS: u32 = 1024;

/// The largest [`WorldDef::relax_iterations`](crate::WorldDef::relax_iterations)
/// a world accepts. Beyond two or three passes the relax pass has nothing
/// left to remove; a larger count (a corrupted snapshot held 2^18 + 1) is an
/// error rather than a step that never ends.
pub const MAX_RELAX_ITERATIONS: u32 = 16;
