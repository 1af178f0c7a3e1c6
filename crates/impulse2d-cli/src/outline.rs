//! Outlines of rounded shapes as point lists, shared by the raster and SVG renderers.

use impulse2d::{Transform, Vec2};

/// The outline of the convex polygon `vertices` (counter-clockwise, in the frame
/// `xf`) grown by `radius` metres, in world coordinates. With `radius == 0` this
/// is just the transformed vertices. Two vertices and a radius give a capsule;
/// one vertex and a radius gives a circle. `arc_step` is the largest angle
/// between outline points on a rounded corner, radians.
pub fn rounded_outline(xf: Transform, vertices: &[Vec2], radius: f32, arc_step: f32) -> Vec<Vec2> {
    let world: Vec<Vec2> = vertices.iter().map(|&v| xf.apply(v)).collect();
    let n = world.len();
    if radius <= 0.0 || n == 0 {
        return world;
    }
    let step = arc_step.clamp(0.01, 1.0);
    if n == 1 {
        return arc(world[0], radius, 0.0, std::f32::consts::TAU, step);
    }
    // Outward normal of the edge from i to i + 1 (counter-clockwise winding).
    let normal = |i: usize| (world[(i + 1) % n] - world[i]).normalize().right_perp();
    let mut out = Vec::with_capacity(n * 8);
    for i in 0..n {
        let n_in = normal((i + n - 1) % n);
        let n_out = normal(i);
        let a0 = n_in.y.atan2(n_in.x);
        let mut a1 = n_out.y.atan2(n_out.x);
        while a1 < a0 {
            a1 += std::f32::consts::TAU;
        }
        out.extend(arc(world[i], radius, a0, a1, step));
    }
    out
}

fn arc(center: Vec2, radius: f32, a0: f32, a1: f32, step: f32) -> Vec<Vec2> {
    let count = (((a1 - a0) / step).ceil() as usize).max(1);
    (0..=count)
        .map(|k| {
            let a = a0 + (a1 - a0) * k as f32 / count as f32;
            center + radius * Vec2::new(a.cos(), a.sin())
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sharp_polygon_is_its_vertices() {
        let v = [Vec2::new(0.0, 0.0), Vec2::new(1.0, 0.0), Vec2::new(0.0, 1.0)];
        let xf = Transform::new(Vec2::new(2.0, 3.0), impulse2d::Rot::IDENTITY);
        let o = rounded_outline(xf, &v, 0.0, 0.1);
        assert_eq!(o, vec![Vec2::new(2.0, 3.0), Vec2::new(3.0, 3.0), Vec2::new(2.0, 4.0)]);
    }

    #[test]
    fn capsule_outline_stays_at_radius_from_its_segment() {
        // Capsule from (-1, 0) to (1, 0), radius 0.5: every outline point lies at
        // distance 0.5 from the segment, and the outline reaches x = ±1.5, y = ±0.5.
        let v = [Vec2::new(-1.0, 0.0), Vec2::new(1.0, 0.0)];
        let o = rounded_outline(Transform::IDENTITY, &v, 0.5, 0.2);
        let mut max_x: f32 = 0.0;
        let mut max_y: f32 = 0.0;
        for p in &o {
            let cx = p.x.clamp(-1.0, 1.0);
            let d = (*p - Vec2::new(cx, 0.0)).length();
            assert!((d - 0.5).abs() < 1e-5, "point {p:?} at distance {d}");
            max_x = max_x.max(p.x.abs());
            max_y = max_y.max(p.y.abs());
        }
        assert!((max_x - 1.5).abs() < 1e-5 && (max_y - 0.5).abs() < 1e-5);
    }
}
