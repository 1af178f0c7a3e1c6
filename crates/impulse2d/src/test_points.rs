//! Point lists for unit tests, written as `[x, y]` pairs (metres).

use crate::math::Vec2;

/// The points `[x, y]`, in order.
pub(crate) fn points<const N: usize>(xy: [[f32; 2]; N]) -> [Vec2; N] {
    xy.map(|[x, y]| Vec2::new(x, y))
}
