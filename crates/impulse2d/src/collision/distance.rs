//! Closest points between convex shapes (GJK), segment–segment distance and
//! linear shape casts.
//!
//! # References
//! - E. G. Gilbert, D. W. Johnson, S. S. Keerthi, *A fast procedure for computing the
//!   distance between complex objects in three-dimensional space* (1988).
//! - E. Catto, *Computing Distance*, GDC 2010; Box2D v3 `distance.c`.
//! - G. van den Bergen, *Ray Casting against General Convex Objects* (2004).

use crate::core::MAX_POLYGON_VERTICES;
use crate::math::{Transform, Vec2};

/// A convex point cloud with a radius: the form in which GJK sees every shape
/// (a circle is one point with a radius, a capsule two, a polygon its vertices).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ShapeProxy {
    /// The points, metres; only the first `count` are used.
    pub points: [Vec2; MAX_POLYGON_VERTICES],
    /// Number of points, 1 to 8.
    pub count: usize,
    /// Radius added around the points, metres.
    pub radius: f32,
}

/// Warm-start data for [`shape_distance`]: the vertex indices of the last simplex.
/// Start with `SimplexCache::default()`; pass the same cache the next frame.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SimplexCache {
    /// Number of simplex vertices, 0 to 3.
    pub count: u16,
    /// Vertex indices on proxy A.
    pub index_a: [u8; 3],
    /// Vertex indices on proxy B.
    pub index_b: [u8; 3],
}

/// Input for [`shape_distance`].
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct DistanceInput {
    /// The first shape.
    pub proxy_a: ShapeProxy,
    /// The second shape.
    pub proxy_b: ShapeProxy,
    /// World transform of the first shape.
    pub transform_a: Transform,
    /// World transform of the second shape.
    pub transform_b: Transform,
    /// Whether to account for the proxies' radii (otherwise the cores are measured).
    pub use_radii: bool,
}

/// Output of [`shape_distance`].
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct DistanceOutput {
    /// Closest point on shape A, world frame, metres.
    pub point_a: Vec2,
    /// Closest point on shape B, world frame, metres.
    pub point_b: Vec2,
    /// Unit normal pointing from A to B (zero when overlapping).
    pub normal: Vec2,
    /// Distance between the shapes, metres (0 when overlapping).
    pub distance: f32,
    /// GJK iterations used.
    pub iterations: u32,
    /// Number of vertices in the final simplex (1 to 3).
    pub simplex_count: u32,
}

/// Input for [`shape_cast`]: shape B moves by `translation_b` while A stays put.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ShapeCastPairInput {
    /// The first (stationary) shape.
    pub proxy_a: ShapeProxy,
    /// The second (moving) shape.
    pub proxy_b: ShapeProxy,
    /// World transform of A.
    pub transform_a: Transform,
    /// World transform of B at the start of the cast.
    pub transform_b: Transform,
    /// Translation of B over the whole cast, metres.
    pub translation_b: Vec2,
    /// The fraction of the translation to consider, usually 1.
    pub max_fraction: f32,
    /// Allow shapes with a radius to move slightly into each other (as Box2D's
    /// character mover does); when false the cast stops at first touch.
    pub can_encroach: bool,
}

/// Result of [`segment_distance`].
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SegmentDistanceResult {
    /// Closest point on the first segment, metres.
    pub closest1: Vec2,
    /// Closest point on the second segment, metres.
    pub closest2: Vec2,
    /// Barycentric coordinate of `closest1` on the first segment, in `[0, 1]`.
    pub fraction1: f32,
    /// Barycentric coordinate of `closest2` on the second segment, in `[0, 1]`.
    pub fraction2: f32,
    /// Squared distance between the closest points, m².
    pub distance_squared: f32,
}
