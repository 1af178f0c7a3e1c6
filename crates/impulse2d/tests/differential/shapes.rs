//! Random polygons built through our own hull (they need `compute_hull`).

use crate::common::rng::Rng;
use impulse2d::collision::{Polygon, compute_hull, make_polygon};

/// A random convex polygon of 3 to 8 vertices from the hull of a point cloud,
/// rounded a third of the time.
pub fn random_hull_polygon(rng: &mut Rng) -> Polygon {
    loop {
        let n = 3 + rng.below(6);
        let cloud = rng.point_cloud(n);
        if let Ok(hull) = compute_hull(&cloud) {
            let radius = if rng.chance(0.33) {
                0.2 * rng.size()
            } else {
                0.0
            };
            return make_polygon(&hull, radius).unwrap();
        }
    }
}

/// A random polygon: a box (30%) or a hull of a point cloud, either maybe rounded.
pub fn random_polygon(rng: &mut Rng) -> Polygon {
    if rng.chance(0.3) {
        rng.rounded_box()
    } else {
        random_hull_polygon(rng)
    }
}
