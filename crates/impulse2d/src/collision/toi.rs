//! Time of impact by conservative advancement on separating-axis functions.
//!
//! # References
//! - E. Catto, *Continuous Collision*, GDC 2013; Box2D v2.4 and v3 `b2TimeOfImpact`.
//! - B. Mirtich, *Impulse-based Dynamic Simulation of Rigid Body Systems* (1996),
//!   conservative advancement.

use super::distance::ShapeProxy;
use crate::math::Sweep;

/// Input for [`time_of_impact`].
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ToiInput {
    /// The first shape, in its body's frame.
    pub proxy_a: ShapeProxy,
    /// The second shape, in its body's frame.
    pub proxy_b: ShapeProxy,
    /// Motion of the first body over the interval.
    pub sweep_a: Sweep,
    /// Motion of the second body over the interval.
    pub sweep_b: Sweep,
    /// The sweep fraction to search, in `[0, 1]` (usually 1).
    pub max_fraction: f32,
}

/// How [`time_of_impact`] ended.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ToiState {
    /// The iteration limits were hit; `fraction` is the best conservative estimate.
    #[default]
    Failed,
    /// The shapes overlap at the start of the interval.
    Overlapped,
    /// The shapes come within the target separation at `fraction`.
    Hit,
    /// The shapes stay apart for the whole interval.
    Separated,
}

/// Output of [`time_of_impact`].
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ToiOutput {
    /// How the search ended.
    pub state: ToiState,
    /// The sweep fraction reached, in `[0, max_fraction]`.
    pub fraction: f32,
}
