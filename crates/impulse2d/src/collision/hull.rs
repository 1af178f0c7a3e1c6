//! Convex hulls: the validated point sets that polygons are built from.
//!
//! # References
//! - Barber, Dobkin, Huhdanpaa, *The Quickhull Algorithm for Convex Hulls* (1996).
//! - E. Catto, Box2D v3 `hull.c`.

use crate::core::MAX_POLYGON_VERTICES;
use crate::math::Vec2;

/// A convex hull of at most [`MAX_POLYGON_VERTICES`] points, counter-clockwise, with
/// no collinear or nearly coincident points. Only [`compute_hull`] makes one, so a
/// `Hull` is always valid input for [`make_polygon`](super::make_polygon).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Hull {
    pub(crate) points: [Vec2; MAX_POLYGON_VERTICES],
    pub(crate) count: usize,
}

impl Hull {
    /// The hull's points, counter-clockwise, metres.
    pub fn points(&self) -> &[Vec2] {
        &self.points[..self.count]
    }
}
