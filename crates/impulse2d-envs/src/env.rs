//! The environment interface shared by every environment of the crate.

use std::fmt;

/// Declares an environment's settings struct and its `Default` (Gymnasium's
/// defaults) from one list: each field with its documentation, type and
/// default value.
macro_rules! settings {
    (
        $(#[$meta:meta])*
        pub struct $name:ident {
            $( $(#[doc = $doc:tt])* pub $field:ident: $ty:ty = $default:expr, )*
        }
    ) => {
        $(#[$meta])*
        pub struct $name {
            $( $(#[doc = $doc])* pub $field: $ty, )*
        }

        impl Default for $name {
            fn default() -> Self {
                $name { $( $field: $default, )* }
            }
        }
    };
}
pub(crate) use settings;

/// What an environment's step accepts.
#[derive(Clone, Debug, PartialEq)]
pub enum ActionSpace {
    /// One of `n` actions, numbered `0..n` (Gymnasium's `Discrete(n)`).
    Discrete(usize),
    /// A vector of floats, each between its `low` and `high`
    /// (Gymnasium's `Box(low, high, (low.len(),), float32)`).
    Continuous {
        /// Lower bound of each component.
        low: Vec<f32>,
        /// Upper bound of each component.
        high: Vec<f32>,
    },
}

impl ActionSpace {
    /// Number of `f32` components of a continuous action; 1 for a discrete one
    /// (the slot a vector env keeps per environment).
    pub fn dim(&self) -> usize {
        match self {
            ActionSpace::Discrete(_) => 1,
            ActionSpace::Continuous { low, .. } => low.len(),
        }
    }

    /// Whether the actions are discrete.
    pub fn is_discrete(&self) -> bool {
        matches!(self, ActionSpace::Discrete(_))
    }
}

/// The shape and bounds of an observation (Gymnasium's `Box`).
#[derive(Clone, Debug, PartialEq)]
pub struct ObservationSpace {
    /// Shape, row-major (`[8]` for LunarLander, `[96, 96, 3]` for CarRacing).
    pub shape: Vec<usize>,
    /// Lower bound of each element, flattened in row-major order.
    pub low: Vec<f32>,
    /// Upper bound of each element, flattened in row-major order.
    pub high: Vec<f32>,
}

impl ObservationSpace {
    /// Number of elements of one observation (the product of the shape).
    pub fn len(&self) -> usize {
        self.shape.iter().product()
    }

    /// Whether an observation has no elements.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// One action given to [`Env::step`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Action<'a> {
    /// The number of a discrete action.
    Discrete(i64),
    /// The components of a continuous action.
    Continuous(&'a [f32]),
}

/// What a step returns besides the observation (Gymnasium's
/// `reward, terminated, truncated`).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct StepResult {
    /// Reward of this step.
    pub reward: f64,
    /// The episode ended by the environment's own rules (crash, landing, fall…).
    pub terminated: bool,
    /// The episode was cut by the time limit (`max_episode_steps`).
    pub truncated: bool,
}

/// Why an environment refused a call. Nothing changed when it is returned.
#[derive(Clone, Debug, PartialEq)]
pub enum EnvError {
    /// The action is not in the action space (wrong kind, wrong length,
    /// out-of-range discrete number, NaN or infinite component).
    InvalidAction(String),
    /// A buffer passed in has the wrong length.
    BadBuffer {
        /// Length the call needs.
        expected: usize,
        /// Length it was given.
        got: usize,
    },
    /// `step` before the first `reset`.
    NotReset,
    /// An environment parameter is out of its allowed range.
    InvalidParameter(String),
    /// The physics engine refused a call (should not happen; reported, not panicked).
    Physics(String),
}

impl fmt::Display for EnvError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EnvError::InvalidAction(s) => write!(f, "invalid action: {s}"),
            EnvError::BadBuffer { expected, got } => {
                write!(f, "buffer has {got} elements, expected {expected}")
            }
            EnvError::NotReset => write!(f, "step called before reset"),
            EnvError::InvalidParameter(s) => write!(f, "invalid parameter: {s}"),
            EnvError::Physics(s) => write!(f, "physics engine error: {s}"),
        }
    }
}

impl std::error::Error for EnvError {}

impl From<impulse2d::Error> for EnvError {
    fn from(e: impulse2d::Error) -> Self {
        EnvError::Physics(e.to_string())
    }
}

/// A reinforcement-learning environment in Gymnasium's shape.
///
/// Observations are written into a caller's slice of [`Env::Obs`] (`f32` for
/// LunarLander and BipedalWalker, `u8` pixels for CarRacing) of
/// [`ObservationSpace::len`] elements, so a vector env writes straight into
/// its `(N, obs_len)` buffer.
///
/// Seeding follows Gymnasium: `reset(Some(seed))` restarts the environment's
/// random stream from `seed`; `reset(None)` continues the stream (a new
/// environment's stream starts from seed 0). The same seed and actions give
/// the same observations and rewards, bit for bit.
///
/// The time limit (Gymnasium's `TimeLimit` wrapper, `max_episode_steps`) is
/// the environment's own: `step` reports `truncated` when it is reached.
pub trait Env: Send {
    /// Element type of an observation.
    type Obs: Copy + Default + Send + Sync + 'static;

    /// Shape and bounds of an observation.
    fn observation_space(&self) -> ObservationSpace;

    /// The actions the environment accepts.
    fn action_space(&self) -> ActionSpace;

    /// Starts a new episode and writes its first observation into `obs`.
    fn reset(&mut self, seed: Option<u64>, obs: &mut [Self::Obs]) -> Result<(), EnvError>;

    /// Advances one step with `action` and writes the new observation into
    /// `obs`. An action outside the action space (NaN included) is an `Err`
    /// and changes nothing. Stepping on after `terminated` or `truncated`
    /// without a reset is allowed (as in Gymnasium, whose results are then
    /// unspecified); a vector env resets instead.
    fn step(&mut self, action: Action<'_>, obs: &mut [Self::Obs]) -> Result<StepResult, EnvError>;

    /// Width and height in pixels of a rendered frame.
    fn render_size(&self) -> (usize, usize);

    /// Draws the current scene into `rgb` (`height × width × 3` bytes,
    /// row-major, top row first), as Gymnasium's `render_mode="rgb_array"`.
    fn render(&mut self, rgb: &mut [u8]) -> Result<(), EnvError>;
}

/// `Ok` when a buffer of `got` elements has the `expected` length, else [`EnvError::BadBuffer`].
pub fn check_len(expected: usize, got: usize) -> Result<(), EnvError> {
    if expected == got {
        Ok(())
    } else {
        Err(EnvError::BadBuffer { expected, got })
    }
}

/// Box2D 2.3's unbounded body angle from Box2D v3's rotation: adds the
/// wrapped change from `last_wrapped` to `wrapped` (both in `[−π, π]`) to
/// `angle`, and remembers `wrapped`. Exact while a body turns less than half a
/// turn per step; rounded to `f32` as 2.3 kept it.
pub(crate) fn unwrap_angle(angle: f64, last_wrapped: &mut f32, wrapped: f32) -> f64 {
    let mut delta = (wrapped - *last_wrapped) as f64;
    if delta > std::f64::consts::PI {
        delta -= std::f64::consts::TAU;
    } else if delta < -std::f64::consts::PI {
        delta += std::f64::consts::TAU;
    }
    *last_wrapped = wrapped;
    (angle + delta) as f32 as f64
}

/// Gymnasium's contact listener over one step's contact events: counts the
/// contacts touching each of `feet` (end events first, then begin events, as
/// Box2D reports them) in `counts`, and says whether `body` began touching
/// anything (the "game over" contact).
pub(crate) fn track_contacts(
    events: &impulse2d::ContactEvents<'_>,
    body: impulse2d::ShapeId,
    feet: &[impulse2d::ShapeId],
    counts: &mut [u32],
) -> bool {
    let touches =
        |a: impulse2d::ShapeId, b: impulse2d::ShapeId, s: impulse2d::ShapeId| a == s || b == s;
    for e in events.end {
        for (count, &foot) in counts.iter_mut().zip(feet) {
            if touches(e.shape_id_a, e.shape_id_b, foot) {
                *count = count.saturating_sub(1);
            }
        }
    }
    let mut body_touched = false;
    for e in events.begin {
        body_touched |= touches(e.shape_id_a, e.shape_id_b, body);
        for (count, &foot) in counts.iter_mut().zip(feet) {
            if touches(e.shape_id_a, e.shape_id_b, foot) {
                *count += 1;
            }
        }
    }
    body_touched
}

/// Gymnasium's `TimeLimit`: counts one more step in `elapsed` and says whether
/// the episode is now truncated (`elapsed` reached `limit`; never without one).
pub(crate) fn time_limit(elapsed: &mut u32, limit: Option<u32>) -> bool {
    *elapsed += 1;
    limit.is_some_and(|m| *elapsed >= m)
}
