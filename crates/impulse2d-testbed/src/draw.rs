//! Drawing the world on screen: a [`DebugDraw`] implementation over macroquad.

use impulse2d::debug_draw::rounded_polygon_points;
use impulse2d::{DebugDraw, HexColor, Transform, Vec2};
use macroquad::prelude as mq;

/// Where the screen looks: a world centre and a zoom.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct View {
    /// The world point at the centre of the drawing area, metres.
    pub center: Vec2,
    /// Pixels per metre.
    pub scale: f32,
    /// Left edge of the drawing area, pixels (the side panel covers the rest).
    pub left: f32,
    /// Drawing area size, pixels.
    pub size: (f32, f32),
}

impl View {
    /// A view of `bounds` (lower and upper corners, metres) in a drawing area
    /// starting at `left` pixels and `size` pixels large, with a 5 % margin.
    pub fn fit(lower: Vec2, upper: Vec2, left: f32, size: (f32, f32)) -> View {
        let w = (upper.x - lower.x).max(1.0);
        let h = (upper.y - lower.y).max(1.0);
        let scale = (size.0 / w).min(size.1 / h) * 0.9;
        View {
            center: 0.5 * (lower + upper),
            scale: if scale.is_finite() && scale > 0.0 {
                scale
            } else {
                20.0
            },
            left,
            size,
        }
    }

    /// Screen position of a world point, pixels (y down).
    pub fn to_screen(self, p: Vec2) -> mq::Vec2 {
        mq::vec2(
            self.left + 0.5 * self.size.0 + (p.x - self.center.x) * self.scale,
            0.5 * self.size.1 - (p.y - self.center.y) * self.scale,
        )
    }

    /// World point under a screen position, metres.
    pub fn to_world(self, s: mq::Vec2) -> Vec2 {
        Vec2::new(
            (s.x - self.left - 0.5 * self.size.0) / self.scale + self.center.x,
            (0.5 * self.size.1 - s.y) / self.scale + self.center.y,
        )
    }

    /// Zooms by `factor` keeping the world point under `anchor` (screen) fixed.
    pub fn zoom_at(&mut self, anchor: mq::Vec2, factor: f32) {
        let before = self.to_world(anchor);
        self.scale = (self.scale * factor).clamp(0.5, 5000.0);
        let after = self.to_world(anchor);
        self.center += before - after;
    }

    /// The world box on screen, as (lower, upper), metres.
    pub fn world_bounds(self) -> (Vec2, Vec2) {
        let a = self.to_world(mq::vec2(self.left, self.size.1));
        let b = self.to_world(mq::vec2(self.left + self.size.0, 0.0));
        (a, b)
    }
}

/// macroquad colour of `c` with alpha `a` (0–1).
pub fn color(c: HexColor, a: f32) -> mq::Color {
    let [r, g, b] = c.to_rgb_f32();
    mq::Color::new(r, g, b, a)
}

/// Draws through macroquad with a [`View`]. Fills are half transparent over
/// their full-colour outline, as in Box2D's samples.
pub struct ScreenDraw {
    /// The view.
    pub view: View,
}

const LINE: f32 = 1.5;
const FILL_ALPHA: f32 = 0.5;

impl ScreenDraw {
    fn fill_convex(&self, points: &[Vec2], c: HexColor) {
        if points.len() < 3 {
            return;
        }
        let s: Vec<mq::Vec2> = points.iter().map(|&p| self.view.to_screen(p)).collect();
        let fill = color(c, FILL_ALPHA);
        for i in 1..s.len() - 1 {
            mq::draw_triangle(s[0], s[i], s[i + 1], fill);
        }
        self.outline(&s, color(c, 1.0));
    }

    fn outline(&self, s: &[mq::Vec2], c: mq::Color) {
        for i in 0..s.len() {
            let (a, b) = (s[i], s[(i + 1) % s.len()]);
            mq::draw_line(a.x, a.y, b.x, b.y, LINE, c);
        }
    }

    fn arc_step(&self, radius: f32) -> f32 {
        (3.0 / (radius * self.view.scale).max(1.0)).clamp(0.05, 0.8)
    }
}

impl DebugDraw for ScreenDraw {
    fn draw_polygon(&mut self, vertices: &[Vec2], c: HexColor) {
        let s: Vec<mq::Vec2> = vertices.iter().map(|&p| self.view.to_screen(p)).collect();
        self.outline(&s, color(c, 1.0));
    }

    fn draw_solid_polygon(&mut self, xf: Transform, vertices: &[Vec2], radius: f32, c: HexColor) {
        let points = rounded_polygon_points(xf, vertices, radius, self.arc_step(radius));
        self.fill_convex(&points, c);
    }

    fn draw_circle(&mut self, center: Vec2, radius: f32, c: HexColor) {
        let p = self.view.to_screen(center);
        mq::draw_circle_lines(p.x, p.y, radius * self.view.scale, LINE, color(c, 1.0));
    }

    fn draw_solid_circle(&mut self, xf: Transform, radius: f32, c: HexColor) {
        let p = self.view.to_screen(xf.p);
        let r = radius * self.view.scale;
        mq::draw_circle(p.x, p.y, r, color(c, FILL_ALPHA));
        mq::draw_circle_lines(p.x, p.y, r, LINE, color(c, 1.0));
        let tip = self.view.to_screen(xf.apply(Vec2::new(radius, 0.0)));
        mq::draw_line(p.x, p.y, tip.x, tip.y, LINE, color(c, 1.0));
    }

    fn draw_solid_capsule(&mut self, p1: Vec2, p2: Vec2, radius: f32, c: HexColor) {
        let points = rounded_polygon_points(
            Transform::IDENTITY,
            &[p1, p2],
            radius,
            self.arc_step(radius),
        );
        self.fill_convex(&points, c);
    }

    fn draw_segment(&mut self, p1: Vec2, p2: Vec2, c: HexColor) {
        let (a, b) = (self.view.to_screen(p1), self.view.to_screen(p2));
        mq::draw_line(a.x, a.y, b.x, b.y, LINE, color(c, 1.0));
    }

    fn draw_transform(&mut self, xf: Transform) {
        let axis = 16.0 / self.view.scale;
        self.draw_segment(xf.p, xf.apply(Vec2::new(axis, 0.0)), HexColor::RED);
        self.draw_segment(xf.p, xf.apply(Vec2::new(0.0, axis)), HexColor::GREEN);
    }

    fn draw_point(&mut self, p: Vec2, size: f32, c: HexColor) {
        let s = self.view.to_screen(p);
        mq::draw_circle(s.x, s.y, 0.5 * size, color(c, 1.0));
    }

    fn draw_string(&mut self, p: Vec2, text: &str, c: HexColor) {
        let s = self.view.to_screen(p);
        mq::draw_text(text, s.x, s.y, 16.0, color(c, 1.0));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fit_centres_the_bounds_in_the_drawing_area() {
        // 20 m × 10 m into 400 × 400 px right of a 100 px panel: 18 px/m (90 % of 20).
        let v = View::fit(
            Vec2::new(-10.0, 0.0),
            Vec2::new(10.0, 10.0),
            100.0,
            (400.0, 400.0),
        );
        assert_eq!(v.scale, 18.0);
        let c = v.to_screen(Vec2::new(0.0, 5.0));
        assert_eq!((c.x, c.y), (300.0, 200.0));
        let right = v.to_screen(Vec2::new(10.0, 5.0));
        assert_eq!(right.x, 480.0);
        let w = v.to_world(mq::vec2(480.0, 200.0));
        assert_eq!((w.x, w.y), (10.0, 5.0));
    }

    #[test]
    fn zoom_keeps_the_point_under_the_mouse() {
        let mut v = View::fit(
            Vec2::new(-10.0, 0.0),
            Vec2::new(10.0, 10.0),
            100.0,
            (400.0, 400.0),
        );
        let anchor = mq::vec2(150.0, 120.0);
        let before = v.to_world(anchor);
        v.zoom_at(anchor, 2.0);
        assert_eq!(v.scale, 36.0);
        let after = v.to_world(anchor);
        assert!((before - after).length() < 1e-4);
        let (lo, hi) = v.world_bounds();
        assert!((hi.x - lo.x - 400.0 / 36.0).abs() < 1e-3);
    }
}
