//! Axis-aligned bounding boxes.

use crate::math::Vec2;

/// An axis-aligned bounding box, metres. Valid when `lower <= upper` component-wise
/// and both corners are finite.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Aabb {
    /// The lower-left corner.
    pub lower: Vec2,
    /// The upper-right corner.
    pub upper: Vec2,
}

impl Aabb {
    /// Makes a box from its corners (not checked; see [`Aabb::is_valid`]).
    #[inline]
    pub const fn new(lower: Vec2, upper: Vec2) -> Aabb {
        Aabb { lower, upper }
    }

    /// Whether the corners are finite and ordered.
    #[inline]
    pub fn is_valid(&self) -> bool {
        self.lower.is_finite()
            && self.upper.is_finite()
            && self.upper.x >= self.lower.x
            && self.upper.y >= self.lower.y
    }

    /// The centre point.
    #[inline]
    pub fn center(&self) -> Vec2 {
        Vec2::new(
            0.5 * (self.lower.x + self.upper.x),
            0.5 * (self.lower.y + self.upper.y),
        )
    }

    /// The half-widths.
    #[inline]
    pub fn extents(&self) -> Vec2 {
        Vec2::new(
            0.5 * (self.upper.x - self.lower.x),
            0.5 * (self.upper.y - self.lower.y),
        )
    }

    /// The perimeter, metres (the surface-area heuristic's cost in 2D).
    #[inline]
    pub fn perimeter(&self) -> f32 {
        2.0 * ((self.upper.x - self.lower.x) + (self.upper.y - self.lower.y))
    }

    /// The smallest box containing both.
    #[inline]
    pub fn union(&self, b: &Aabb) -> Aabb {
        Aabb {
            lower: self.lower.min(b.lower),
            upper: self.upper.max(b.upper),
        }
    }

    /// Whether this box fully contains `b`.
    #[inline]
    pub fn contains(&self, b: &Aabb) -> bool {
        self.lower.x <= b.lower.x
            && self.lower.y <= b.lower.y
            && b.upper.x <= self.upper.x
            && b.upper.y <= self.upper.y
    }

    /// Whether the boxes overlap (touching counts).
    #[inline]
    pub fn overlaps(&self, b: &Aabb) -> bool {
        !(b.lower.x > self.upper.x
            || b.lower.y > self.upper.y
            || self.lower.x > b.upper.x
            || self.lower.y > b.upper.y)
    }

    /// Whether a point is inside or on the boundary.
    #[inline]
    pub fn contains_point(&self, p: Vec2) -> bool {
        p.x >= self.lower.x && p.x <= self.upper.x && p.y >= self.lower.y && p.y <= self.upper.y
    }

    /// The box grown by `margin` on every side.
    #[inline]
    pub fn fattened(&self, margin: f32) -> Aabb {
        Aabb {
            lower: Vec2::new(self.lower.x - margin, self.lower.y - margin),
            upper: Vec2::new(self.upper.x + margin, self.upper.y + margin),
        }
    }
}
