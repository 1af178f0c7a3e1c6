//! The collision layer: shapes, hulls, mass, bounding boxes, ray casts, distance,
//! shape casts, time of impact, contact manifolds and the dynamic AABB tree.
//!
//! Nothing here needs a world: these are plain functions over plain
//! values, usable on their own.

mod aabb;
mod distance;
pub(crate) mod dynamic_tree;
mod geometry;
mod hull;
mod manifold;
mod mass;
mod mover;
mod ray;
mod toi;

pub use aabb::*;
pub use distance::*;
pub use dynamic_tree::{DynamicTree, ProxyId, ShapeCastInput, TreeStats};
pub use geometry::*;
pub use hull::*;
pub use manifold::*;
pub use mass::*;
pub use mover::*;
pub use ray::*;
pub use toi::*;
