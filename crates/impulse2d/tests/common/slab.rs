//! The exact slab test the broad-phase tests and benchmarks check ray casts
//! against. Include it with `#[path = "common/slab.rs"] mod slab;`.

use impulse2d::Vec2;
use impulse2d::collision::Aabb;

/// Exact slab test: the entry fraction of the ray `p + t·d`, `t` in `[0, t_max]`, into
/// the box, or `None`.
pub fn ray_box(b: &Aabb, p: Vec2, d: Vec2, t_max: f32) -> Option<f32> {
    let mut t0 = 0.0f32;
    let mut t1 = t_max;
    for (p, d, lo, hi) in [
        (p.x, d.x, b.lower.x, b.upper.x),
        (p.y, d.y, b.lower.y, b.upper.y),
    ] {
        if d == 0.0 {
            if p < lo || p > hi {
                return None;
            }
        } else {
            let inv = 1.0 / d;
            let (mut ta, mut tb) = ((lo - p) * inv, (hi - p) * inv);
            if ta > tb {
                std::mem::swap(&mut ta, &mut tb);
            }
            t0 = t0.max(ta);
            t1 = t1.min(tb);
            if t0 > t1 {
                return None;
            }
        }
    }
    Some(t0)
}
