//! The mapping from world coordinates (metres, y up) to picture pixels (y down).

use impulse2d::Vec2;
use impulse2d::collision::Aabb;

/// A view of the world: a centre, a scale and a picture size.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Camera {
    /// The world point at the centre of the picture, metres.
    pub center: Vec2,
    /// Pixels per metre.
    pub scale: f32,
    /// Picture width, pixels.
    pub width: u32,
    /// Picture height, pixels.
    pub height: u32,
}

impl Camera {
    /// A camera that shows all of `bounds` in a `width` × `height` picture,
    /// leaving `margin` (a fraction of the picture, e.g. 0.05) free on each side.
    /// An empty or invalid box gives a 20 m wide view around the origin.
    pub fn fit(bounds: Aabb, width: u32, height: u32, margin: f32) -> Camera {
        let (w, h) = (width.max(1) as f32, height.max(1) as f32);
        if !bounds.is_valid() {
            return Camera {
                center: Vec2::ZERO,
                scale: w / 20.0,
                width,
                height,
            };
        }
        // A single point or a flat box still gets a sensible view.
        let size = Vec2::new(
            (bounds.upper.x - bounds.lower.x).max(1.0),
            (bounds.upper.y - bounds.lower.y).max(1.0),
        );
        let usable = (1.0 - 2.0 * margin.clamp(0.0, 0.45)).max(0.1);
        let scale = (w / size.x).min(h / size.y) * usable;
        Camera {
            center: bounds.center(),
            scale,
            width,
            height,
        }
    }

    /// The pixel position of a world point (x right, y down), pixels.
    #[inline]
    pub fn to_pixels(self, p: Vec2) -> (f32, f32) {
        (
            (p.x - self.center.x) * self.scale + 0.5 * self.width as f32,
            0.5 * self.height as f32 - (p.y - self.center.y) * self.scale,
        )
    }

    /// The world point under a pixel position, metres.
    #[inline]
    pub fn to_world(self, x: f32, y: f32) -> Vec2 {
        Vec2::new(
            (x - 0.5 * self.width as f32) / self.scale + self.center.x,
            (0.5 * self.height as f32 - y) / self.scale + self.center.y,
        )
    }

    /// The world box the picture shows, metres.
    pub fn view_bounds(self) -> Aabb {
        let a = self.to_world(0.0, self.height as f32);
        let b = self.to_world(self.width as f32, 0.0);
        Aabb::new(a, b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fit_maps_bounds_inside_the_picture() {
        // A 10 m × 5 m box into 200 × 200 px with no margin: 20 px/m, limited by x.
        let b = Aabb::new(Vec2::new(-5.0, 0.0), Vec2::new(5.0, 5.0));
        let c = Camera::fit(b, 200, 200, 0.0);
        assert_eq!(c.scale, 20.0);
        assert_eq!(c.to_pixels(Vec2::new(-5.0, 2.5)), (0.0, 100.0));
        assert_eq!(c.to_pixels(Vec2::new(5.0, 5.0)), (200.0, 50.0));
        let w = c.to_world(200.0, 50.0);
        assert_eq!((w.x, w.y), (5.0, 5.0));
        assert!(c.view_bounds().contains(&b));
    }

    #[test]
    fn invalid_bounds_give_a_default_view() {
        let bad = Aabb::new(Vec2::new(1.0, 1.0), Vec2::new(-1.0, -1.0));
        let c = Camera::fit(bad, 100, 50, 0.1);
        assert_eq!(c.center, Vec2::ZERO);
        assert_eq!(c.scale, 5.0);
    }
}
