//! Random polygons (built through our own hull) and random GJK proxies.

#![allow(dead_code)]

use super::box2d;
use super::rng::Rng;
use impulse2d::Vec2;
use impulse2d::collision::{Polygon, ShapeProxy, make_proxy};

/// A random convex polygon of 3 to 8 vertices from the hull of a point cloud,
/// rounded a third of the time.
pub fn random_hull_polygon(rng: &mut Rng) -> Polygon {
    rng.hull_polygon(0.33, 0.2)
}

/// A random polygon: a box (30%) or a hull of a point cloud, either maybe rounded.
pub fn random_polygon(rng: &mut Rng) -> Polygon {
    if rng.chance(0.3) {
        rng.rounded_box()
    } else {
        random_hull_polygon(rng)
    }
}

/// A random convex proxy: a point (circle), two points (capsule or segment), a box
/// or a random hull of 3 to 8 points (Box2D's hull of a point cloud, so the points
/// are convex and well separated), rounded half of the time.
pub fn random_proxy(rng: &mut Rng) -> ShapeProxy {
    let radius = if rng.chance(0.5) {
        0.2 * rng.size()
    } else {
        0.0
    };
    let points: Vec<Vec2> = match rng.below(4) {
        0 => vec![rng.vec_in(0.5)],
        1 => {
            let s = rng.segment();
            vec![s.point1, s.point2]
        }
        2 => rng.rounded_box().vertices().to_vec(),
        _ => loop {
            let n = 3 + rng.below(6);
            let cloud = rng.point_cloud(n + 2);
            let hull = box2d::compute_hull(&cloud);
            if hull.len() >= 3 {
                break hull;
            }
        },
    };
    // A point proxy needs a radius to be a shape.
    let radius = if points.len() == 1 {
        radius.max(0.5 * rng.size())
    } else {
        radius
    };
    make_proxy(&points, radius).unwrap()
}

/// The largest distance from the proxy's origin to its surface.
pub fn proxy_bound(p: &ShapeProxy) -> f32 {
    p.points[..p.count]
        .iter()
        .map(|v| v.length())
        .fold(0.0, f32::max)
        + p.radius
}
