//! The one-dimensional rows that revolute, prismatic, wheel and distance joints
//! share along (or about) their axis: a soft spring, a motor with a bounded
//! force, and a pair of speculative lower/upper limits.
//!
//! Each row works on a scalar: the joint supplies the position along its axis
//! (an angle, a translation or a length), the relative speed `cdot` of the
//! bodies along it and the effective mass of the row, and applies the impulse
//! the row returns to its bodies in its own way. A row keeps its settings and
//! its accumulated impulse (for warm starting) together.
//!
//! # References
//! - E. Catto, Box2D v3 `revolute_joint.c`, `prismatic_joint.c`,
//!   `wheel_joint.c`, `distance_joint.c` (the spring, motor and limit blocks).
//! - E. Catto, *Soft Constraints*, GDC 2011.

use super::JointBase;
use crate::solver::StepContext;
use crate::solver::softness::Softness;

/// The impulse of a soft spring row pulling the position error `c` to zero,
/// added to `accumulated`. It acts in the relax pass too: a spring is a real
/// force, not a position correction.
pub(super) fn spring_impulse(
    softness: Softness,
    mass: f32,
    c: f32,
    cdot: f32,
    accumulated: &mut f32,
) -> f32 {
    let s = softness;
    let impulse = -s.mass_scale * mass * (cdot + s.bias_rate * c) - s.impulse_scale * *accumulated;
    *accumulated += impulse;
    impulse
}

/// A spring along the axis with a stiffness in hertz, so that its frequency
/// does not depend on the masses.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Spring {
    pub enable: bool,
    /// Stiffness, Hz.
    pub hertz: f32,
    /// Damping ratio (dimensionless).
    pub damping_ratio: f32,
    /// Accumulated impulse, N·s (or N·m·s about an axis).
    pub impulse: f32,
    /// Coefficients for the current substep.
    pub softness: Softness,
}

impl Spring {
    pub fn new(enable: bool, hertz: f32, damping_ratio: f32) -> Spring {
        Spring {
            enable,
            hertz,
            damping_ratio,
            ..Spring::default()
        }
    }

    /// Computes the coefficients for substep `h` (seconds).
    pub fn prepare(&mut self, h: f32) {
        self.softness = Softness::new(self.hertz, self.damping_ratio, h);
    }

    /// Turns the spring on or off, forgetting its impulse when that changes.
    pub fn set_enabled(&mut self, enable: bool) {
        if self.enable != enable {
            self.enable = enable;
            self.impulse = 0.0;
        }
    }

    /// The impulse pulling the position error `c` towards zero.
    pub fn solve(&mut self, mass: f32, c: f32, cdot: f32) -> f32 {
        spring_impulse(self.softness, mass, c, cdot, &mut self.impulse)
    }

    /// [`Spring::solve`] with the accumulated impulse kept within
    /// `[lower, upper]` (N·s). The bounds bind rarely; only then is the
    /// impulse recomputed from the clamped total, so an unbounded spring
    /// gives the same bits as [`Spring::solve`].
    pub fn solve_clamped(&mut self, mass: f32, c: f32, cdot: f32, lower: f32, upper: f32) -> f32 {
        let old = self.impulse;
        let impulse = self.solve(mass, c, cdot);
        if self.impulse < lower || self.impulse > upper {
            self.impulse = self.impulse.clamp(lower, upper);
            return self.impulse - old;
        }
        impulse
    }
}

/// A motor driving the relative speed along the axis towards `speed` with
/// at most `max_force` (N, or N·m about an axis).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Motor {
    pub enable: bool,
    /// Target relative speed, m/s (or rad/s).
    pub speed: f32,
    /// Largest force, N (or torque, N·m).
    pub max_force: f32,
    /// Accumulated impulse, N·s (or N·m·s).
    pub impulse: f32,
}

impl Motor {
    pub fn new(enable: bool, speed: f32, max_force: f32) -> Motor {
        Motor {
            enable,
            speed,
            max_force,
            impulse: 0.0,
        }
    }

    /// Turns the motor on or off, forgetting its impulse when that changes.
    pub fn set_enabled(&mut self, enable: bool) {
        if self.enable != enable {
            self.enable = enable;
            self.impulse = 0.0;
        }
    }

    /// The impulse change that moves the relative speed `cdot` towards the
    /// target within the force bound over substep `h`.
    pub fn solve(&mut self, mass: f32, cdot: f32, h: f32) -> f32 {
        let max_impulse = h * self.max_force;
        let old = self.impulse;
        self.impulse = (old + mass * (self.speed - cdot)).clamp(-max_impulse, max_impulse);
        self.impulse - old
    }
}

/// A lower and an upper bound on the position along the axis, each a
/// one-sided speculative constraint with a non-negative impulse.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Limit {
    pub enable: bool,
    /// Lowest position, m (or rad).
    pub lower: f32,
    /// Highest position, m (or rad).
    pub upper: f32,
    /// Accumulated impulses, ≥ 0, N·s (or N·m·s).
    pub lower_impulse: f32,
    pub upper_impulse: f32,
}

impl Limit {
    pub fn new(enable: bool, lower: f32, upper: f32) -> Limit {
        Limit {
            enable,
            lower,
            upper,
            ..Limit::default()
        }
    }

    /// Turns the limits on or off, forgetting their impulses when that changes.
    pub fn set_enabled(&mut self, enable: bool) {
        if self.enable != enable {
            self.enable = enable;
            self.reset();
        }
    }

    /// Moves the bounds and forgets the impulses.
    pub fn set_range(&mut self, lower: f32, upper: f32) {
        self.lower = lower;
        self.upper = upper;
        self.reset();
    }

    /// Forgets the accumulated impulses.
    pub fn reset(&mut self) {
        self.lower_impulse = 0.0;
        self.upper_impulse = 0.0;
    }

    /// The change of the lower bound's impulse, which pushes the position up;
    /// `cdot` is the relative speed along the axis.
    pub fn solve_lower(&mut self, row: &LimitRow, cdot: f32) -> f32 {
        let c = row.position - self.lower;
        row.solve_bound(c, cdot, &mut self.lower_impulse)
    }

    /// The change of the upper bound's impulse, which pushes the position
    /// down; `cdot` is the relative speed against the axis.
    pub fn solve_upper(&mut self, row: &LimitRow, cdot: f32) -> f32 {
        let c = self.upper - row.position;
        row.solve_bound(c, cdot, &mut self.upper_impulse)
    }
}

/// What the limit rows need from their joint in one solve (made by
/// [`SolvePass::limit_row`](super::solver::SolvePass::limit_row)).
pub(crate) struct LimitRow<'a> {
    /// The position along the axis, m (or rad).
    pub position: f32,
    /// The effective mass of the row, kg (or kg·m²).
    pub mass: f32,
    /// The joint (its softness for a violated bound in the bias pass).
    pub base: &'a JointBase,
    /// The step (its inverse substep).
    pub ctx: &'a StepContext,
    pub use_bias: bool,
}

impl LimitRow<'_> {
    /// Bias and scales of a bound with position error `c` (≥ 0 when
    /// satisfied): speculative while satisfied, soft when violated (bias pass
    /// only), rigid in the relax pass.
    #[inline]
    fn coefficients(&self, c: f32) -> (f32, f32, f32) {
        if c > 0.0 {
            // Allow the gap to close within this substep, no further.
            (c * self.ctx.inv_h, 1.0, 0.0)
        } else if self.use_bias {
            let s = self.base.softness;
            (s.bias_rate * c, s.mass_scale, s.impulse_scale)
        } else {
            (0.0, 1.0, 0.0)
        }
    }

    /// One bound with position error `c` (≥ 0 when satisfied) and relative
    /// speed `cdot` in the direction it pushes: the change of its accumulated
    /// impulse, which never turns negative.
    fn solve_bound(&self, c: f32, cdot: f32, accumulated: &mut f32) -> f32 {
        let (bias, mass_scale, impulse_scale) = self.coefficients(c);
        let old = *accumulated;
        let impulse = -mass_scale * self.mass * (cdot + bias) - impulse_scale * old;
        // `0 < x ? x : 0` (NaN and −0 give +0), not `f32::max`, whose
        // result for ±0 is unspecified: the wide joint passes
        // (`joint/wide.rs`) compute the same rule lane by lane.
        *accumulated = crate::solver::lanes::max(0.0, old + impulse);
        *accumulated - old
    }
}
